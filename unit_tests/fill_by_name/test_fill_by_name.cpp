// core/fill_by_name.hpp on plain structs: a body's members are filled from the one source that
// holds each name, in any source order, and (built with one of the FILL_BY_NAME_MISTAKE_* macros,
// by expect_compile_error.cmake) a field no source has, a field two sources have, a field the
// body lacks and a type that does not convert are each refused at compile time with the field's
// name in the message.
#include <icondiff/core/fill_by_name.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

struct Statics {
  double geofac = 1.5;
  int vertoffset = -2;
};
struct Call {
  double dtime = 10.0;
  std::string label = "call";
#if defined(FILL_BY_NAME_MISTAKE_TWO_SOURCES)
  double geofac = 0;
#endif
};
struct Body {
  double geofac = 0;
  int vertoffset = 0;
  double dtime = 0;
  std::string label;
  int untouched = 7;  // not in the list: left as it is
#if defined(FILL_BY_NAME_MISTAKE_WRONG_TYPE)
  std::string missing_type_check;
#endif
};

// clang-format off
#define TEST_BODY_FIELDS(X) X(geofac, "static") X(vertoffset, "static") X(dtime, "call") X(label, "call")
// clang-format on
ICONDIFF_DEFINE_FILL_BY_NAME(fill_body, TEST_BODY_FIELDS)

#if defined(FILL_BY_NAME_MISTAKE_NO_SOURCE)
#define TEST_MISTAKE_FIELDS(X) X(dtime, "") X(not_in_any_source, "")
#elif defined(FILL_BY_NAME_MISTAKE_BODY_LACKS)
struct Smaller {
  double dtime = 0;
};
#define TEST_MISTAKE_FIELDS(X) X(dtime, "") X(label, "")
#elif defined(FILL_BY_NAME_MISTAKE_WRONG_TYPE)
struct Typed {
  double label = 0;  // a string does not convert to double
};
#define TEST_MISTAKE_FIELDS(X) X(label, "")
#endif

TEST(FillByName, EveryListedMemberComesFromTheSourceThatHoldsIt) {
  Body body;
  const Statics statics{};
  const Call call{};
  fill_body(body, statics, call);
  EXPECT_EQ(body.geofac, 1.5);
  EXPECT_EQ(body.vertoffset, -2);
  EXPECT_EQ(body.dtime, 10.0);
  EXPECT_EQ(body.label, "call");
  EXPECT_EQ(body.untouched, 7);

  Body reversed;
  fill_body(reversed, call, statics);  // the order of the sources does not matter
  EXPECT_EQ(reversed.geofac, 1.5);
  EXPECT_EQ(reversed.dtime, 10.0);
}

#if defined(TEST_MISTAKE_FIELDS)
ICONDIFF_DEFINE_FILL_BY_NAME(fill_mistake, TEST_MISTAKE_FIELDS)
TEST(FillByName, Mistake) {
#if defined(FILL_BY_NAME_MISTAKE_BODY_LACKS)
  Smaller target;
#elif defined(FILL_BY_NAME_MISTAKE_WRONG_TYPE)
  Typed target;
#else
  Body target;
#endif
  fill_mistake(target, Statics{}, Call{});
}
#endif

}  // namespace
