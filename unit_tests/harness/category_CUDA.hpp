// Test category for the CUDA backend: the test bodies use TEST_CATEGORY, TEST_EXECSPACE and
// TEST_MEMSPACE and are compiled once per enabled backend.
#pragma once

#include <icondiff/kokkos_compat.hpp>

#include <gtest/gtest.h>

#define TEST_CATEGORY cuda
#define TEST_EXECSPACE Kokkos::Cuda
#define TEST_MEMSPACE TEST_EXECSPACE::memory_space
