// What the commands write, checked before any work starts: one clear error naming the option
// and the path, instead of a run that fails (or overwrites an input) at its end.
#pragma once

#include <string>
#include <vector>

namespace icondiff::cli {

/// Throws InvalidArgument naming `option` unless `path` can be written as a file: it must not be
/// one of `inputs` (the files the command reads; never, whatever `overwrite` says), not a
/// directory, not exist already unless `overwrite`, and its folder must exist and be writable.
void check_output_file(const std::string& option, const std::string& path,
                       const std::vector<std::string>& inputs, bool overwrite);

/// The same for a folder the command writes `files` into (created if missing): not an existing
/// non-directory, its parent (or itself) writable, and none of `files` in it already unless
/// `overwrite`.
void check_output_directory(const std::string& option, const std::string& directory,
                            const std::vector<std::string>& files, bool overwrite);

/// Writes `text` to `path` through a temporary file beside it, renamed at the end, so a failure
/// leaves no half-written file in place of an older one. Throws OutputFileError naming `path`.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace icondiff::cli
