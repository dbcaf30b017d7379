// Merging per-rank savepoints (io/rank_savepoints.hpp): the checks every granule's set needs
// (one decomposition of the given whole grid, each rank once, one kind) and the assembly of each
// state struct from its owners (assemble_global), then what differs per granule: which scalars
// must agree between the ranks, and (solve_nh) the two per-rank masks of the static inputs,
// recomputed for the whole grid.
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/setup/local_dycore_inputs.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace icondiff {

namespace {

[[noreturn]] void fail(const std::string& problem) {
  throw InvalidArgument("cannot merge the per-rank savepoints: " + problem);
}

/// The parts of one call in rank order, after checking that they are one decomposition of
/// `whole_grid` of one kind. `same_call(part, first, differs)` checks what the granule needs to
/// agree between the ranks (calling differs("what") otherwise).
template <class Savepoint>
std::vector<Savepoint> in_rank_order(
    const std::vector<Savepoint>& parts, const Grid& whole_grid, const std::string& source,
    const char* kinds,
    const std::function<void(const Savepoint&, const Savepoint&,
                             const std::function<void(const char*)>&)>& same_call) {
  if (parts.empty()) fail("no savepoints");
  const Savepoint& first = parts.front();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Savepoint& p = parts[i];
    if (!p.decomposition)
      fail(fmt::format("savepoint {} of the set was not captured on a decomposed grid", i + 1));
    const int rank = p.decomposition->rank;
    const std::function<void(const char*)> differs = [&](const char* what) {
      fail(fmt::format("rank {}'s savepoint has another {} than rank {}'s", rank, what,
                       first.decomposition ? first.decomposition->rank : 0));
    };
    if (p.kind != first.kind) differs(kinds);
    same_call(p, first, differs);
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
    for (const Savepoint& p : parts)
      given += (given.empty() ? "" : ", ") + std::to_string(p.decomposition->rank);
    fail(fmt::format("{} savepoints (ranks {}) of a call decomposed into {} ranks", parts.size(),
                     given, num_ranks));
  }
  std::vector<Savepoint> ordered(parts.size());
  for (const Savepoint& p : parts) {
    const RankPoints& d = *p.decomposition;
    if (d.num_ranks != num_ranks)
      fail(fmt::format("rank {} was decomposed into {} ranks, rank {} into {}", d.rank, d.num_ranks,
                       first.decomposition->rank, num_ranks));
    const auto r = static_cast<std::size_t>(d.rank);
    if (ordered[r].decomposition) fail(fmt::format("rank {} twice", d.rank));
    ordered[r] = p;  // shallow: Views are shared
  }
  return ordered;
}

/// One state struct of the whole grid from the ranks' parts (`ordered` in rank order): each
/// point from its owner.
template <template <class> class State, class Savepoint, class Member>
State<Kokkos::HostSpace> merge(const std::vector<Savepoint>& ordered, Member member) {
  std::vector<const State<Kokkos::HostSpace>*> states;
  std::vector<const RankPoints*> points;
  for (const Savepoint& p : ordered) {
    states.push_back(&member(p));
    points.push_back(&*p.decomposition);
  }
  return assemble_global<State>(states, points, "icondiff::savepoint::");
}

template <class T>
bool same_view_values(const Kokkos::View<T*, FieldLayout, Kokkos::HostSpace>& a,
                      const Kokkos::View<T*, FieldLayout, Kokkos::HostSpace>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a(i) == b(i))) return false;
  return true;
}

}  // namespace

DiffusionSavepoint merge_rank_savepoints(const std::vector<DiffusionSavepoint>& parts,
                                         const Grid& whole_grid, const std::string& source) {
  using S = DiffusionSavepoint;
  const std::vector<S> ordered = in_rank_order<S>(
      parts, whole_grid, source, "kind (diffusion-init / diffusion-exit)",
      [](const S& p, const S& first, const std::function<void(const char*)>& differs) {
        if (p.dtime != first.dtime) differs("dtime");
        if (p.initial_run != first.initial_run) differs("initial_run");
        if (icon_namelist_values(p.config) != icon_namelist_values(first.config))
          differs("configuration");
        if (p.vertical.vct_a != first.vertical.vct_a ||
            p.vertical.end_index_of_damping_layer != first.vertical.end_index_of_damping_layer)
          differs("vertical grid");
      });
  const S& first = ordered.front();
  S s;
  s.kind = first.kind;
  s.config = first.config;
  s.dtime = first.dtime;
  s.initial_run = first.initial_run;
  s.grid = make_grid_reference(whole_grid, source);
  s.vertical = first.vertical;
  s.metadata = first.metadata;
  s.prognostic = merge<DiffusionPrognosticState>(
      ordered, [](const S& p) -> auto& { return p.prognostic; });
  s.diagnostic = merge<DiffusionDiagnosticState>(
      ordered, [](const S& p) -> auto& { return p.diagnostic; });
  if (s.kind == SavepointKind::Init) {
    s.metric = merge<DiffusionMetricState>(
        ordered, [](const S& p) -> auto& { return p.metric; });
    s.interpolation = merge<DiffusionInterpolationState>(
        ordered, [](const S& p) -> auto& { return p.interpolation; });
    s.edges = merge<DiffusionEdgeParams>(
        ordered, [](const S& p) -> auto& { return p.edges; });
    s.cells = merge<DiffusionCellParams>(
        ordered, [](const S& p) -> auto& { return p.cells; });
  }
  return s;
}

SolveNhSavepoint merge_rank_savepoints(const std::vector<SolveNhSavepoint>& parts,
                                       const Grid& whole_grid, const std::string& source) {
  using S = SolveNhSavepoint;
  const std::vector<S> ordered = in_rank_order<S>(
      parts, whole_grid, source, "kind (solve_nh-init / solve_nh-exit)",
      [](const S& p, const S& first, const std::function<void(const char*)>& differs) {
        if (icon_namelist_values(p.config) != icon_namelist_values(first.config) ||
            p.config.iau_init != first.config.iau_init)
          differs("configuration");
        bool same_step = true;
#define ICONDIFF_SAME_STEP_SCALAR(name, type, default_value, meaning) \
  same_step = same_step && p.step.name == first.step.name;
        ICONDIFF_SOLVE_NH_STEP_SCALARS(ICONDIFF_SAME_STEP_SCALAR)
#undef ICONDIFF_SAME_STEP_SCALAR
        if (!same_step) differs("substep (step.*)");
        const DycoreInputs<Kokkos::HostSpace>&a = p.inputs, &b = first.inputs;
        if (p.vct_a != first.vct_a || a.nlev != b.nlev || a.nflatlev != b.nflatlev ||
            a.nflat_gradp != b.nflat_gradp ||
            a.end_index_of_damping_layer != b.end_index_of_damping_layer ||
            a.kstart_moist != b.kstart_moist)
          differs("vertical grid");
        if (a.mean_cell_area != b.mean_cell_area) differs("mean cell area");
        if (!same_view_values(a.metric.scaling_factor_for_3d_divdamp,
                              b.metric.scaling_factor_for_3d_divdamp) ||
            !same_view_values(a.metric.rayleigh_w, b.metric.rayleigh_w))
          differs("level profiles (scaling_factor_for_3d_divdamp, rayleigh_w)");
      });
  const S& first = ordered.front();
  S s;
  s.kind = first.kind;
  s.config = first.config;
  s.step = first.step;
  s.grid = make_grid_reference(whole_grid, source);
  s.vct_a = first.vct_a;
  s.metadata = first.metadata;
  s.inputs.nlev = first.inputs.nlev;
  s.inputs.nflatlev = first.inputs.nflatlev;
  s.inputs.nflat_gradp = first.inputs.nflat_gradp;
  s.inputs.end_index_of_damping_layer = first.inputs.end_index_of_damping_layer;
  s.inputs.kstart_moist = first.inputs.kstart_moist;
  s.inputs.mean_cell_area = first.inputs.mean_cell_area;
  s.next = merge<SolveNhPrognosticState>(
      ordered, [](const S& p) -> auto& { return p.next; });
  s.diagnostic = merge<SolveNhDiagnosticState>(
      ordered, [](const S& p) -> auto& { return p.diagnostic; });
  s.prep_adv = merge<SolveNhPrepAdvection>(
      ordered, [](const S& p) -> auto& { return p.prep_adv; });
  // Each rank's running maximum over its own points: the whole grid's is the largest of them.
  s.diagnostic.max_vertical_cfl = first.diagnostic.max_vertical_cfl;
  for (const S& p : ordered)
    s.diagnostic.max_vertical_cfl =
        std::max(s.diagnostic.max_vertical_cfl, p.diagnostic.max_vertical_cfl);
  if (s.kind == SavepointKind::Init) {
    s.current = merge<SolveNhPrognosticState>(
        ordered, [](const S& p) -> auto& { return p.current; });
    s.inputs.metric = merge<DycoreMetricState>(
        ordered, [](const S& p) -> auto& { return p.inputs.metric; });
    s.inputs.metric.scaling_factor_for_3d_divdamp =
        first.inputs.metric.scaling_factor_for_3d_divdamp;
    s.inputs.metric.rayleigh_w = first.inputs.metric.rayleigh_w;
    s.inputs.interpolation = merge<DycoreInterpolationState>(
        ordered, [](const S& p) -> auto& { return p.inputs.interpolation; });
    s.inputs.edges = merge<DycoreEdgeParams>(
        ordered, [](const S& p) -> auto& { return p.inputs.edges; });
    s.inputs.cells = merge<DycoreCellParams>(
        ordered, [](const S& p) -> auto& { return p.inputs.cells; });
    // c_owner_mask and mask_prog_halo_c describe the rank's decomposition: the whole grid's are
    // recomputed (every cell owned, no halo), as a rank's are (restrict_dycore_inputs).
    set_decomposition_masks(s.inputs.cells, whole_grid);
  }
  return s;
}

}  // namespace icondiff
