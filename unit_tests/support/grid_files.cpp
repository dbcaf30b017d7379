#include "grid_files.hpp"

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace icondiff::test {

std::string grid_dir() {
  if (const char* env = std::getenv("ICONDIFF_GRID_DIR"); env && *env) return env;
  return ICONDIFF_TEST_GRID_DIR;
}

std::optional<std::string> real_grid(const std::string& file_name) {
  const auto path = std::filesystem::path(grid_dir()) / file_name;
  if (!std::filesystem::is_regular_file(path)) return std::nullopt;
  return path.string();
}

namespace {
std::vector<std::string>& scratch_files() {
  static std::vector<std::string> files;
  return files;
}
void remove_scratch_files() {
  std::error_code ignored;
  for (const auto& f : scratch_files()) std::filesystem::remove(f, ignored);
}
}  // namespace

std::string scratch_file(const std::string& name) {
  // ICONDIFF_TEST_SCRATCH_DIR in the environment overrides the build's folder (a test program
  // copied to another machine: perf_tests/gpu/run.sh).
  const char* env = std::getenv("ICONDIFF_TEST_SCRATCH_DIR");
  const auto dir = std::filesystem::path(env && *env ? env : ICONDIFF_TEST_SCRATCH_DIR);
  std::filesystem::create_directories(dir);
  if (scratch_files().empty()) std::atexit(remove_scratch_files);
  const auto path = (dir / (std::to_string(::getpid()) + "_" + name)).string();
  scratch_files().push_back(path);
  return path;
}

}  // namespace icondiff::test
