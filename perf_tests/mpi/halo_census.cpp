// Halo census: how many halo points and neighbour ranks a rank of an ICON-like decomposition has,
// as a function of the points it owns. Input of the strong-scaling model
// (perf_tests/mpi/strong_scaling_model.py, docs/user/distributed.md): the halo grows like the
// perimeter of a rank's part, so the model fits halo = a * owned^(1/2) per location to these
// measurements and extrapolates to R2B9 on many nodes. No MPI run: every rank's local grid is
// built here from the METIS partition (comm/decomposition.hpp), exactly as each rank builds it.
// usage: halo_census [GRID_SOURCE:RANKS,RANKS,...] ...   (prints one JSON document)
// default: generate:R2B4:2,4,8,16,64 generate:R2B5:4,16,64,256 generate:R2B6:16,64,256,1024
#include <icondiff/comm/decomposition.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/kokkos_compat.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace icondiff;

int main(int argc, char* argv[]) {
  // Kokkos 3.4 warns on stdout when OMP_PROC_BIND is unset; stdout is the JSON document.
  setenv("OMP_PROC_BIND", "false", 0);
  compat::initialize(argc, argv);
  std::vector<std::string> cases(argv + 1, argv + argc);
  if (cases.empty())
    cases = {"generate:R2B4:2,4,8,16,64", "generate:R2B5:4,16,64,256",
             "generate:R2B6:16,64,256,1024"};
  nlohmann::json out = nlohmann::json::array();
  int status = 0;
  try {
    for (const std::string& c : cases) {
      const auto colon = c.rfind(':');
      const std::string source = c.substr(0, colon);
      const Grid grid = load_grid_source(source);
      std::stringstream list(c.substr(colon + 1));
      for (std::string item; std::getline(list, item, ',');) {
        const int ranks = std::stoi(item);
        const std::vector<int> owner = partition_cells(grid, ranks);
        // Every rank when few; else 8 spread over the range (the census is about typical ranks).
        std::set<int> sample;
        for (int i = 0; i < std::min(ranks, 8); ++i) sample.insert(i * ranks / std::min(ranks, 8));
        for (int rank : sample) {
          const Grid local = make_local_grid(grid, owner, rank, ranks);
          nlohmann::json r = {
              {"grid", source}, {"global_cells", grid.num_cells}, {"ranks", ranks}, {"rank", rank}};
          std::set<int> neighbours;
          for (Location location : all_locations) {
            const auto& owners = local.owner_rank(location);
            long long owned = 0, halo = 0;
            for (int o : owners) {
              if (o == rank) {
                ++owned;
              } else {
                ++halo;
                neighbours.insert(o);
              }
            }
            r[std::string(to_string(location)) + "_owned"] = owned;
            r[std::string(to_string(location)) + "_halo"] = halo;
          }
          r["neighbours"] = neighbours.size();
          out.push_back(r);
        }
      }
    }
    std::cout << out.dump(1) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "halo_census: " << e.what() << "\n";
    status = 2;
  }
  Kokkos::finalize();
  return status;
}
