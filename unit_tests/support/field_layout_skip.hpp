// Tests of wrapping foreign memory without a copy (wrap_external_state): only ICON's field layout
// can, and a level-fastest build (a CPU build's default) refuses it with an error instead
// (tested in test_field_lists); its callers bind with ExternalState, tested in both layouts.
#pragma once

#include <icondiff/core/types.hpp>

#include <gtest/gtest.h>

/// Skips the current test, saying why, in a build with level-fastest fields.
#define ICONDIFF_SKIP_UNLESS_ICONS_FIELD_LAYOUT()                                        \
  do {                                                                                   \
    if (!::icondiff::field_layout_is_icons)                                              \
      GTEST_SKIP() << "needs ICON's field layout (this build has level-fastest fields)"; \
  } while (false)
