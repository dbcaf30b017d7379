// Where a rank's factories run (setup/rank_setup.hpp).
#include <icondiff/setup/rank_setup.hpp>

#include <icondiff/core/error.hpp>
#include <icondiff/geometry/dycore_metric_fields.hpp>
#include <icondiff/geometry/interpolation_coefficients.hpp>

#if ICONDIFF_HAVE_MPI
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/mpi_halo_exchange.hpp>
#include <icondiff/comm/point_blocks.hpp>
#include <icondiff/core/execution_spaces.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <unordered_map>
#include <utility>

namespace icondiff {

RankGrids whole_grid_rank_grids(Grid whole, Grid local) {
  RankGrids g;
  g.local = std::move(local);
  g.computed = std::move(whole);
  return g;
}

RankGrids extended_rank_grids(Grid local, Grid extended,
                              std::array<std::vector<int>, 3> extended_owner) {
  RankGrids g;
  g.computed_owner = std::move(extended_owner);
  if (local.num_ranks > 1) {
    Grid rows = local;
    for (const Location l : all_locations) {
      const auto& in_extended = extended.global_index(l);
      std::unordered_map<index_t, index_t> index_of;
      index_of.reserve(in_extended.size());
      for (std::size_t i = 0; i < in_extended.size(); ++i)
        index_of.emplace(in_extended[i], static_cast<index_t>(i));
      for (index_t& i : rows.global_index(l)) {
        const auto it = index_of.find(i);
        if (it == index_of.end())
          throw InvalidArgument(fmt::format(
              "extended_rank_grids: {} {} of rank {}'s local grid is not in its extended grid",
              to_string(l), i, local.rank));
        i = it->second;
      }
    }
    g.local_in_computed = std::move(rows);
  }
  g.local = std::move(local);
  g.computed = std::move(extended);
  return g;
}

#if ICONDIFF_HAVE_MPI

double whole_grid_mean_cell_area(MPI_Comm comm, const Grid& local) {
  const int rank = mpi_rank(comm), size = mpi_size(comm);
  const PointBlocks blocks = local.num_ranks > 1 ? PointBlocks(comm, local, Location::Cell)
                                                 : PointBlocks(local, Location::Cell);
  const std::vector<double> areas = blocks.to_block<double>(
      1, [&](index_t c, std::size_t) { return local.cell_area.at(static_cast<std::size_t>(c)); },
      BlockOrder::point_major);
  // The blocks are consecutive in global order: rank r continues rank r-1's sum.
  double sum = 0.0;
  if (rank > 0)
    check_mpi(MPI_Recv(&sum, 1, MPI_DOUBLE, rank - 1, 0, comm, MPI_STATUS_IGNORE), "MPI_Recv");
  for (const double a : areas) sum += a;
  if (rank + 1 < size) check_mpi(MPI_Send(&sum, 1, MPI_DOUBLE, rank + 1, 0, comm), "MPI_Send");
  check_mpi(MPI_Bcast(&sum, 1, MPI_DOUBLE, size - 1, comm), "MPI_Bcast");
  return blocks.total() > 0 ? sum / static_cast<double>(blocks.total()) : 0.0;
}

StaticsSetupConfig whole_grid_statics_config(MPI_Comm comm, StaticsSetupConfig config,
                                             const RankGrids& grids, double mean_cell_area) {
  const Grid& g = grids.local;
  const auto& refin = g.refin_ctrl[static_cast<int>(Location::Cell)];
  int max_row = refin.empty() ? 0 : *std::max_element(refin.begin(), refin.end());
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &max_row, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  collectively(comm, [&] {
    check_lateral_boundary_rows(max_row, g.name, config.interpolation);
    const double length =
        mean_characteristic_length(g.grid_root, g.grid_level, g.sphere_radius, mean_cell_area);
    auto& in = config.interpolation;
    if (!(in.rbf_scale_vertex > 0.0)) in.rbf_scale_vertex = default_rbf_scale_vertex(length);
    if (!(in.rbf_scale_edge > 0.0)) in.rbf_scale_edge = default_rbf_scale_edge(length);
  });
  return config;
}

CellHaloExchange computed_grid_cell_exchange(MPI_Comm comm, const RankGrids& grids) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  if (grids.computed_owner[0].empty()) return {};
  Grid truly_owned = grids.computed;
  for (const Location l : all_locations)
    truly_owned.owner_rank(l) = grids.computed_owner[static_cast<int>(l)];
  const auto exchange = std::make_shared<MpiHaloExchange<Host>>(comm, truly_owned);
  return [exchange, comm](HostTable<double>& table) {
    // A rank that failed in the factories before this exchange is agreeing on its error
    // (collectively): meet it there, so every rank throws instead of waiting for its messages.
    agree_on_errors(comm, "");
    View2D<double, Kokkos::HostSpace> field("icondiff::setup::factory_exchange", table.rows(),
                                            table.cols());
    for (std::size_t i = 0; i < table.rows(); ++i)
      for (std::size_t j = 0; j < table.cols(); ++j) field(i, j) = table(i, j);
    const HaloField halo = halo_field(field);
    exchange->exchange(Host(), Location::Cell, &halo, 1);
    for (std::size_t i = 0; i < table.rows(); ++i)
      for (std::size_t j = 0; j < table.cols(); ++j) table(i, j) = field(i, j);
  };
}

void set_whole_grid_quantities(MPI_Comm comm, HostStaticInputs& computed, const RankGrids& grids,
                               double mean_cell_area) {
  computed.mean_cell_area = mean_cell_area;
  int has_dycore = computed.dycore_metrics.flat_idx_max.empty() ? 0 : 1;
  int nflat_gradp = 0;
  collectively(comm, [&] {
    if (!has_dycore) return;
    // flat_idx_max on the local grid's edges, then the minimum over this rank's owned ones.
    const auto& flat = computed.dycore_metrics.flat_idx_max;
    const auto& rows = grids.rows().global_index(Location::Edge);
    std::vector<int> local_flat(static_cast<std::size_t>(grids.local.num_edges));
    for (std::size_t e = 0; e < local_flat.size(); ++e)
      local_flat[e] = flat.at(rows.empty() ? e : static_cast<std::size_t>(rows[e]));
    nflat_gradp =
        compute_nflat_gradp(grids.local, local_flat, computed.metrics.vertical.num_levels());
  });
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &has_dycore, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, &nflat_gradp, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (has_dycore) computed.dycore_metrics.nflat_gradp = nflat_gradp;
}

#endif

}  // namespace icondiff
