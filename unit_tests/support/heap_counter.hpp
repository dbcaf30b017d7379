// Counts heap allocations (the global operator new, every thread) while a HeapCounter is alive: a
// test's evidence that a call leaves the heap untouched. Linking heap_counter.cpp replaces the
// global operator new and delete of the test program (malloc and free underneath).
#pragma once

#include <cstddef>

namespace icondiff::test {

/// Counts the operator new calls of every thread from construction to destruction (one counter
/// at a time).
class HeapCounter {
 public:
  HeapCounter();
  ~HeapCounter();
  HeapCounter(const HeapCounter&) = delete;
  HeapCounter& operator=(const HeapCounter&) = delete;
  /// Allocations counted so far.
  std::size_t count() const;
};

}  // namespace icondiff::test
