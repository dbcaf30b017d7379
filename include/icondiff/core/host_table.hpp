// A small host-side (rows, columns) table: connectivity, per-neighbour coefficients, geometry.
// Row-major, because host code (readers, generators, factories, references) walks one point's
// neighbours at a time. Device copies use TableLayout (see DeviceGrid).
#pragma once

#include <cstddef>
#include <vector>

namespace icondiff {

template <class T>
class HostTable {
 public:
  HostTable() = default;
  HostTable(std::size_t rows, std::size_t cols, const T& value = T())
      : rows_(rows), cols_(cols), data_(rows * cols, value) {}

  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  bool empty() const noexcept { return data_.empty(); }

  T& operator()(std::size_t row, std::size_t col) { return data_[row * cols_ + col]; }
  const T& operator()(std::size_t row, std::size_t col) const { return data_[row * cols_ + col]; }

  T* data() noexcept { return data_.data(); }
  const T* data() const noexcept { return data_.data(); }
  T* row(std::size_t r) noexcept { return data_.data() + r * cols_; }
  const T* row(std::size_t r) const noexcept { return data_.data() + r * cols_; }

  friend bool operator==(const HostTable& a, const HostTable& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.data_ == b.data_;
  }
  friend bool operator!=(const HostTable& a, const HostTable& b) { return !(a == b); }

 private:
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::vector<T> data_;
};

}  // namespace icondiff
