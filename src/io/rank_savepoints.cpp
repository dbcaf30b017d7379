// Merging per-rank savepoints (io/rank_savepoints.hpp).
#include <icondiff/io/rank_savepoints.hpp>

#include <fmt/format.h>

namespace icondiff {

namespace {

template <template <class> class State>
State<Kokkos::HostSpace> merge(const std::vector<DiffusionSavepoint>& parts,
                               State<Kokkos::HostSpace> DiffusionSavepoint::*member) {
  std::vector<const State<Kokkos::HostSpace>*> states;
  std::vector<const RankPoints*> points;
  for (const DiffusionSavepoint& p : parts) {
    states.push_back(&(p.*member));
    points.push_back(&*p.decomposition);
  }
  return assemble_global<State>(states, points, "icondiff::savepoint::");
}

}  // namespace

DiffusionSavepoint merge_rank_savepoints(const std::vector<DiffusionSavepoint>& parts,
                                         const Grid& whole_grid, const std::string& source) {
  const auto fail = [](const std::string& problem) {
    throw InvalidArgument("cannot merge the per-rank savepoints: " + problem);
  };
  if (parts.empty()) fail("no savepoints");
  const DiffusionSavepoint& first = parts.front();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const DiffusionSavepoint& p = parts[i];
    if (!p.decomposition)
      fail(fmt::format("savepoint {} of the set was not captured on a decomposed grid", i + 1));
    const int rank = p.decomposition->rank;
    const auto differs = [&](const char* what) {
      fail(fmt::format("rank {}'s savepoint has another {} than rank {}'s", rank, what,
                       first.decomposition ? first.decomposition->rank : 0));
    };
    if (p.kind != first.kind) differs("kind (diffusion-init / diffusion-exit)");
    if (p.dtime != first.dtime) differs("dtime");
    if (p.initial_run != first.initial_run) differs("initial_run");
    if (icon_namelist_values(p.config) != icon_namelist_values(first.config))
      differs("configuration");
    if (p.vertical.vct_a != first.vertical.vct_a ||
        p.vertical.end_index_of_damping_layer != first.vertical.end_index_of_damping_layer)
      differs("vertical grid");
    if (p.grid.uuid != first.grid.uuid) differs("grid uuid");
    const auto& size = p.decomposition->global_size;
    if (size[0] != whole_grid.num_cells || size[1] != whole_grid.num_edges ||
        size[2] != whole_grid.num_vertices)
      fail(
          fmt::format("rank {} was decomposed from a grid of {} cells, {} edges, {} vertices; the "
                      "grid {} has {}, {}, {}",
                      rank, size[0], size[1], size[2], source, whole_grid.num_cells,
                      whole_grid.num_edges, whole_grid.num_vertices));
  }
  if (!first.grid.uuid.empty() && !whole_grid.uuid.empty() && first.grid.uuid != whole_grid.uuid)
    fail(fmt::format("the savepoints were captured on grid {}, {} is grid {}", first.grid.uuid,
                     source, whole_grid.uuid));
  // Rank order, so that merge() sees rank r at position r (check_rank_points checks the rest).
  const int num_ranks = first.decomposition->num_ranks;
  if (static_cast<std::size_t>(num_ranks) != parts.size()) {
    std::string given;
    for (const DiffusionSavepoint& p : parts)
      given += (given.empty() ? "" : ", ") + std::to_string(p.decomposition->rank);
    fail(fmt::format("{} savepoints (ranks {}) of a call decomposed into {} ranks", parts.size(),
                     given, num_ranks));
  }
  std::vector<DiffusionSavepoint> ordered(parts.size());
  for (const DiffusionSavepoint& p : parts) {
    const RankPoints& d = *p.decomposition;
    if (d.num_ranks != num_ranks)
      fail(fmt::format("rank {} was decomposed into {} ranks, rank {} into {}", d.rank, d.num_ranks,
                       first.decomposition->rank, num_ranks));
    const auto r = static_cast<std::size_t>(d.rank);
    if (ordered[r].decomposition) fail(fmt::format("rank {} twice", d.rank));
    ordered[r] = p;  // shallow: Views are shared
  }
  DiffusionSavepoint s;
  s.kind = first.kind;
  s.config = first.config;
  s.dtime = first.dtime;
  s.initial_run = first.initial_run;
  s.grid = make_grid_reference(whole_grid, source);
  s.vertical = first.vertical;
  s.metadata = ordered.front().metadata;
  s.prognostic = merge(ordered, &DiffusionSavepoint::prognostic);
  s.diagnostic = merge(ordered, &DiffusionSavepoint::diagnostic);
  if (s.kind == SavepointKind::Init) {
    s.metric = merge(ordered, &DiffusionSavepoint::metric);
    s.interpolation = merge(ordered, &DiffusionSavepoint::interpolation);
    s.edges = merge(ordered, &DiffusionSavepoint::edges);
    s.cells = merge(ordered, &DiffusionSavepoint::cells);
  }
  return s;
}

}  // namespace icondiff
