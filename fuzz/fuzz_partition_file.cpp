// libFuzzer harness of the partition file of `mpirun -np N icondiff run --partition FILE`
// (io/partition_file.hpp: one owner rank per line, gpmetis' format). The input's first two bytes
// choose the run (1..8 ranks, 1..256 cells), the rest is the file's text. It goes through what
// the command does (src/cli/run_command.cpp): the file is checked first (a regular file of at
// most 64 bytes per cell + 1 MiB: check_input_file), then read. Expected: an owner list with one
// rank in [0, ranks) per cell and every rank owning a cell, or an icondiff::Error with a message;
// anything else is a finding.
#include "fuzz_support.hpp"
#include "output_paths.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/io/partition_file.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const std::string path = icondiff::fuzz::scratch_file("cells.part");
  const int ranks = 1 + data[0] % 8;
  const long long cells = 1 + data[1];
  icondiff::fuzz::write_bytes(path, data + 2, size - 2);
  try {
    icondiff::cli::check_input_file("--partition", path,
                                    (std::uintmax_t(cells) + 1) * 64 + (std::uintmax_t(1) << 20));
    const std::vector<int> owner = icondiff::read_partition_file(path, cells, ranks);
    if (static_cast<long long>(owner.size()) != cells)
      icondiff::fuzz::finding(
          fmt::format("{} owners read for a grid of {} cells", owner.size(), cells));
    std::vector<long long> owned(static_cast<std::size_t>(ranks), 0);
    for (const int r : owner) {
      if (r < 0 || r >= ranks)
        icondiff::fuzz::finding(fmt::format("rank {} read for a run on {} ranks", r, ranks));
      ++owned[static_cast<std::size_t>(r)];
    }
    for (int r = 0; r < ranks; ++r)
      if (owned[static_cast<std::size_t>(r)] == 0)
        icondiff::fuzz::finding(fmt::format("rank {} owns no cell but the file was accepted", r));
  } catch (const icondiff::Error& e) {
    icondiff::fuzz::expect_message(e);
  } catch (const std::exception& e) {
    icondiff::fuzz::finding(fmt::format(
        "the partition reader threw something other than an icondiff error: {}", e.what()));
  }
  return 0;
}
