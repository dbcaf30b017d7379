#include "output_paths.hpp"

#include <icondiff/core/error.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

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

/// An output that exists and is not a regular file: a directory, or a device, FIFO or socket,
/// which renaming a temporary over it would replace by a regular file (`--output /dev/null` run
/// as root would delete the device node).
void check_not_special(const std::string& option, const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status) || fs::is_regular_file(status)) return;
  if (fs::is_directory(status))
    throw InvalidArgument(fmt::format("{} {}: is a directory, expected a file name", option, path));
  throw InvalidArgument(fmt::format(
      "{} {}: exists and is not a regular file (a device, FIFO or socket); icondiff writes and "
      "replaces regular files only",
      option, path));
}

// ---- Temporaries removed on SIGINT/SIGTERM/SIGHUP (async-signal-safe: fixed static buffers) --
constexpr int max_signal_paths = 64;
char signal_paths[max_signal_paths][PATH_MAX];
std::atomic<int> signal_path_count{0};

extern "C" void remove_temporaries_and_reraise(int signal) {
  const int n = signal_path_count.load();
  for (int i = 0; i < n && i < max_signal_paths; ++i) ::unlink(signal_paths[i]);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void install_signal_cleanup() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(signal, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // nohup
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace

void check_input_file(const std::string& option, const std::string& path,
                      std::uintmax_t max_bytes) {
  if (path.empty()) throw InvalidArgument(option + ": empty path, expected a file name");
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    const int error = errno;
    struct stat link {};
    if (error == ELOOP)
      throw InvalidArgument(fmt::format("{} {}: a loop of symbolic links ({}), not a file", option,
                                        path, std::strerror(error)));
    if (error == ENOENT && ::lstat(path.c_str(), &link) == 0)
      throw InvalidArgument(
          fmt::format("{} {}: a symbolic link to a file that does not exist", option, path));
    if (error == ENOENT)
      throw InvalidArgument(fmt::format("{} {}: the file does not exist", option, path));
    throw InvalidArgument(
        fmt::format("{} {}: cannot be read: {}", option, path, std::strerror(error)));
  }
  if (S_ISDIR(info.st_mode))
    throw InvalidArgument(fmt::format("{} {}: is a directory, expected a file", option, path));
  if (!S_ISREG(info.st_mode))
    throw InvalidArgument(fmt::format(
        "{} {}: is not a regular file (a device, FIFO or socket); expected a file", option, path));
  if (static_cast<std::uintmax_t>(info.st_size) > max_bytes)
    throw InvalidArgument(fmt::format("{} {}: {} bytes, more than the {} bytes such a file can be",
                                      option, path, static_cast<std::uintmax_t>(info.st_size),
                                      max_bytes));
  if (::access(path.c_str(), R_OK) != 0)
    throw InvalidArgument(
        fmt::format("{} {}: cannot be read: {}", option, path, std::strerror(errno)));
}

void check_output_file(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool overwrite) {
  if (path.empty()) throw InvalidArgument(option + ": empty path, expected a file name");
  for (const std::string& input : inputs)
    if (!input.empty() && same_file(path, input))
      throw InvalidArgument(
          fmt::format("{} {}: this is the input file '{}'; icondiff never writes over its input",
                      option, path, input));
  check_not_special(option, path);
  std::error_code ec;
  if (fs::exists(path, ec) && !overwrite)
    throw InvalidArgument(fmt::format(
        "{} {}: the file exists; pass --overwrite to replace it (it is replaced only when the new "
        "one is complete)",
        option, path));
  check_writable_folder(option, path, folder_of(path));
}

void check_output_directory(const std::string& option, const std::string& directory,
                            const std::vector<std::string>& files, bool overwrite) {
  if (directory.empty()) throw InvalidArgument(option + ": empty path, expected a folder");
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
    check_not_special(option, p.string());
    if (fs::exists(p, ec) && !overwrite)
      throw InvalidArgument(fmt::format("{} {}: '{}' exists; pass --overwrite to replace it",
                                        option, directory, p.string()));
  }
}

void check_outputs_distinct(const std::vector<NamedPath>& outputs,
                            const std::vector<NamedPath>& inputs) {
  // One key per file, compared through a map (thousands of ranks' savepoints stay cheap): an
  // existing file is its device and inode (hard and symbolic links included), a new one its
  // canonical path.
  const auto key = [](const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0)
      return fmt::format("inode {}:{}", static_cast<unsigned long long>(info.st_dev),
                         static_cast<unsigned long long>(info.st_ino));
    std::error_code ec;
    return "path " + fs::weakly_canonical(path, ec).string();
  };
  std::map<std::string, const NamedPath*> seen_inputs, seen_outputs;
  for (const NamedPath& in : inputs)
    if (!in.path.empty()) seen_inputs.emplace(key(in.path), &in);
  for (const NamedPath& out : outputs) {
    if (out.path.empty()) continue;
    check_not_special(out.option, out.path);
    const std::string k = key(out.path);
    if (const auto in = seen_inputs.find(k); in != seen_inputs.end())
      throw InvalidArgument(fmt::format(
          "{} {}: this is the input file '{}' ({}); icondiff never writes over its input, "
          "--overwrite or not",
          out.option, out.path, in->second->path, in->second->option));
    if (const auto [other, added] = seen_outputs.emplace(k, &out); !added)
      throw InvalidArgument(
          fmt::format("{} {}: the same file as {} {}; every output needs a file of its own",
                      out.option, out.path, other->second->option, other->second->path));
  }
}

bool temporary_fits_beside(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  // ".tmp.<pid>" and up to 8 more bytes (".<n>").
  return name.size() + fmt::format(".tmp.{}", static_cast<long>(::getpid())).size() + 8 <= NAME_MAX;
}

std::string temporary_beside(const std::string& path) {
  const long pid = static_cast<long>(::getpid());
  const std::string name = fs::path(path).filename().string();
  if (temporary_fits_beside(path)) return fmt::format("{}.tmp.{}", path, pid);
  // A long name: a short hidden one in the same folder (a rename must not cross file systems).
  return (folder_of(path) /
          fmt::format(".icondiff.{:016x}.tmp.{}", std::hash<std::string>{}(name), pid))
      .string();
}

void remove_on_signal(const std::string& path) {
  static const bool installed = (install_signal_cleanup(), true);
  (void)installed;
  const int slot = signal_path_count.load();
  if (slot >= max_signal_paths || path.size() + 1 > sizeof signal_paths[0]) return;
  std::memcpy(signal_paths[slot], path.c_str(), path.size() + 1);
  signal_path_count.store(slot + 1);  // published only once the name is complete
}

void remove_temporaries_on_signal(const std::string& path) {
  const std::string base = fmt::format("{}.tmp.{}", path, static_cast<long>(::getpid()));
  remove_on_signal(base);
  for (int n = 0; n < 4; ++n) remove_on_signal(fmt::format("{}.{}", base, n));
}

void write_text_file(const std::string& path, const std::string& text) {
  const std::string temporary = temporary_beside(path);
  remove_on_signal(temporary);
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
