// What the commands read and write, checked before any work starts: one clear error naming the
// option and the path, instead of a run that fails (or overwrites an input) at its end, reads a
// device without end, or leaves a temporary file behind when it is interrupted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace icondiff::cli {

/// A file a command reads or writes and the option that names it ("--grid", "--config", ...).
struct NamedPath {
  std::string option;
  std::string path;
};

/// The largest configuration file (`--config`) read: a file with every option is a few kB.
constexpr std::uintmax_t max_config_file_bytes = std::uintmax_t(1) << 20;

/// Throws InvalidArgument naming `option` and `path` unless `path` is an existing regular file
/// (symbolic links followed; a loop, a device, a FIFO or a directory refused with what it is) of
/// at most `max_bytes` bytes. What every input file the CLI reads itself goes through, so that
/// `--config /dev/zero` or a huge partition file are refused instead of read without end.
void check_input_file(const std::string& option, const std::string& path, std::uintmax_t max_bytes);

/// Throws InvalidArgument naming `option` unless `path` can be written as a file: it must not be
/// one of `inputs` (the files the command reads; never, whatever `overwrite` says), not a
/// directory or another existing non-regular file (a device, a FIFO: never replaced), not exist
/// already unless `overwrite`, and its folder must exist and be writable.
void check_output_file(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool overwrite);

/// The same for a folder the command writes `files` into (created if missing): not an existing
/// non-directory, its parent (or itself) writable, and none of `files` in it already unless
/// `overwrite`.
void check_output_directory(const std::string& option, const std::string& directory,
                            const std::vector<std::string>& files, bool overwrite);

/// Every file a command will write (`outputs`: --output, --timers, each savepoint file of every
/// rank, ...) against every file it reads (`inputs`: grid, config, partition, ...) and against
/// each other: throws InvalidArgument naming both options and paths when two are the same file
/// (hard and symbolic links included), or when an output exists and is not a regular file.
void check_outputs_distinct(const std::vector<NamedPath>& outputs,
                            const std::vector<NamedPath>& inputs);

/// The temporary file a command writes `path` through: `<path>.tmp.<pid>` beside it, or, when
/// that name would be longer than NAME_MAX (255 bytes), a short hidden name in the same folder.
std::string temporary_beside(const std::string& path);

/// Whether `<path>.tmp.<pid>.<n>` (the temporaries of icondiff's netCDF writers) is a legal name.
bool temporary_fits_beside(const std::string& path);

/// Removes `path` (if it exists) when SIGINT, SIGTERM or SIGHUP ends the process: the handler
/// (installed by the first call) unlink()s every registered path, then re-raises the signal with
/// its default action, so a run interrupted while writing leaves no temporary file behind.
/// Async-signal-safe: the names are kept in a static buffer. Paths too long for it are skipped.
void remove_on_signal(const std::string& path);

/// The temporaries icondiff's writers (src/io, this folder) use beside `path`:
/// `<path>.tmp.<pid>` and `<path>.tmp.<pid>.<n>` for the first few n; registered with
/// remove_on_signal.
void remove_temporaries_on_signal(const std::string& path);

/// Writes `text` to `path` through a temporary file beside it, renamed at the end, so a failure
/// leaves no half-written file in place of an older one. Throws OutputFileError naming `path`.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace icondiff::cli
