// Checks that an action throws the expected exception type with a message that names what is
// wrong (every fragment in `parts`).
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>

namespace icondiff::test {

template <class E, class F>
void expect_throw_naming(F&& action, std::initializer_list<std::string> parts, const char* what) {
  SCOPED_TRACE(what);
  try {
    action();
    ADD_FAILURE() << "no exception thrown";
  } catch (const E& e) {
    const std::string message = e.what();
    for (const auto& part : parts)
      EXPECT_NE(message.find(part), std::string::npos)
          << "the message does not name '" << part << "': " << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

}  // namespace icondiff::test
