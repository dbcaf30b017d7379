#include "output_paths.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace icondiff::cli {
namespace fs = std::filesystem;
namespace {

/// Whether `a` and `b` name the same file (hard links and symbolic links included).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

/// The folder a new entry `path` would be created in ("." for a bare name).
fs::path folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

void check_writable_folder(const std::string& option, const std::string& path,
                           const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw InvalidArgument(
        fmt::format("{} {}: the folder '{}' does not exist", option, path, folder.string()));
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw InvalidArgument(
        fmt::format("{} {}: the folder '{}' is not writable", option, path, folder.string()));
}

}  // namespace

void check_output_file(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool overwrite) {
  if (path.empty()) throw InvalidArgument(option + ": empty path");
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(path, input))
      throw InvalidArgument(
          fmt::format("{} {}: this is the input file '{}'; icondiff never writes over its input",
                      option, path, input));
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InvalidArgument(fmt::format("{} {}: is a directory, expected a file name", option, path));
  if (fs::exists(path, ec) && !overwrite)
    throw InvalidArgument(fmt::format(
        "{} {}: the file exists; pass --overwrite to replace it (it is replaced only when the new "
        "one is complete)",
        option, path));
  check_writable_folder(option, path, folder_of(path));
}

void check_output_directory(const std::string& option, const std::string& directory,
                            const std::vector<std::string>& files, bool overwrite) {
  if (directory.empty()) throw InvalidArgument(option + ": empty path");
  std::error_code ec;
  if (fs::exists(directory, ec) && !fs::is_directory(directory, ec))
    throw InvalidArgument(
        fmt::format("{} {}: exists and is not a directory (savepoints are written into a folder)",
                    option, directory));
  if (!fs::exists(directory, ec)) {
    // Created with its missing parents: the nearest existing ancestor must be writable.
    fs::path ancestor = fs::absolute(directory, ec);
    while (!ancestor.empty() && !fs::exists(ancestor, ec)) ancestor = ancestor.parent_path();
    check_writable_folder(option, directory, ancestor.empty() ? fs::path(".") : ancestor);
    return;
  }
  check_writable_folder(option, directory, directory);
  for (const std::string& file : files) {
    const fs::path p = fs::path(directory) / file;
    if (fs::exists(p, ec) && !overwrite)
      throw InvalidArgument(fmt::format("{} {}: '{}' exists; pass --overwrite to replace it",
                                        option, directory, p.string()));
  }
}

void write_text_file(const std::string& path, const std::string& text) {
  const std::string temporary = fmt::format("{}.tmp.{}", path, static_cast<long>(::getpid()));
  std::error_code ignored;
  {
    std::ofstream out(temporary);
    out << text;
    out.close();
    if (!out) {
      fs::remove(temporary, ignored);
      throw OutputFileError(path, "cannot be written");
    }
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ignored);
    throw OutputFileError(path, "cannot move the written file into place: " + ec.message());
  }
}

}  // namespace icondiff::cli
