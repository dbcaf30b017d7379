// icondiff verify --in SAVEPOINT_IN --out SAVEPOINT_OUT: replays one captured granule call and
// compares its outputs with the expected ones. The granule is the savepoint's: a diffusion call
// (ICON4Py's datatest tolerances) or a solve_nh substep (bit for bit: the granule is
// deterministic). Per-rank savepoints of a decomposed call (icondiff run --savepoints under
// mpirun, ICON on many ranks, a decomposed solve_nh driver) are given as sets: --in
// DIR/diffusion-init.rank*.nc --out DIR/diffusion-exit.rank*.nc; they are put back together on the
// whole grid and replayed in this one process, which checks every rank's owned outputs at once.
#include "commands.hpp"

#include <icondiff/diffusion/diffusion.hpp>
#include <icondiff/dycore/solve_nonhydro.hpp>
#include <icondiff/io/diffusion_savepoint.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/rank_savepoints.hpp>
#include <icondiff/io/solve_nh_savepoint.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace icondiff::cli {

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using M = Space::memory_space;

struct VerifyOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> expected;
  std::string grid;  ///< overrides the savepoint's grid source
  std::string strategy = "fused";
};

// ---- Non-finite values: never a pass ----------------------------------------------------------
// The tolerance is relative to the expected value (|a - e| <= atol + rtol |e|): an expected inf
// would accept any actual value, and equal infinities compare equal. A granule output is never
// meant to be inf or NaN, so a non-finite value on either side fails the point, NaN against NaN
// at the same point included (numpy.allclose's equal_nan=False, as ICON4Py's datatests).

/// The value of a rank 1..3 View at (i, k, l) as a double.
template <class V>
double value_at(const V& v, std::size_t i, std::size_t k, std::size_t l) {
  if constexpr (V::rank == 1)
    return static_cast<double>(v(i));
  else if constexpr (V::rank == 2)
    return static_cast<double>(v(i, k));
  else
    return static_cast<double>(v(i, k, l));
}

/// Recounts the failing values of the compared field `name` of `comparison` with non-finite
/// values failing, and notes the first non-finite one in `notes`.
template <class E, class A>
void fail_non_finite(SavepointComparison& comparison, const std::string& name, const E& expected,
                     const A& actual, std::vector<std::string>& notes) {
  FieldComparison* field = nullptr;
  for (FieldComparison& f : comparison.fields)
    if (f.field() == name && f.compared) field = &f;
  if (field == nullptr || expected.size() == 0 || expected.size() != actual.size()) return;
  const FieldTolerance& tol = field->tolerance;
  std::size_t failing = 0, non_finite = 0;
  std::size_t first_i = 0, first_k = 0;
  double first_a = 0.0, first_e = 0.0;
  const std::size_t n0 = expected.extent(0), n1 = E::rank > 1 ? expected.extent(1) : 1,
                    n2 = E::rank > 2 ? expected.extent(2) : 1;
  for (std::size_t l = 0; l < n2; ++l)
    for (std::size_t k = 0; k < n1; ++k)
      for (std::size_t i = 0; i < n0; ++i) {
        const double e = value_at(expected, i, k, l), a = value_at(actual, i, k, l);
        if (!std::isfinite(e) || !std::isfinite(a)) {
          if (non_finite++ == 0) {
            first_i = i;
            first_k = E::rank > 2 ? k + n1 * l : k;
            first_a = a;
            first_e = e;
          }
          ++failing;
        } else if (std::fabs(a - e) > tol.atol + tol.rtol * std::fabs(e)) {
          ++failing;
        }
      }
  if (non_finite == 0) return;
  if (field->worst_point < 0 ||
      !(std::isnan(field->worst_actual) || std::isnan(field->worst_expected))) {
    field->worst_point = static_cast<index_t>(first_i);
    field->worst_level = static_cast<int>(first_k);
    field->worst_actual = first_a;
    field->worst_expected = first_e;
  }
  field->num_failing = failing;
  notes.push_back(fmt::format(
      "{}: {} non-finite value(s), the first at (point {}, level {}): actual {}, expected {}; a "
      "non-finite value on either side never passes",
      name, non_finite, first_i, first_k, first_a, first_e));
}

// ---- What differs per granule: reading, describing and replaying a call -----------------------

template <class Savepoint>
struct Granule;

template <>
struct Granule<DiffusionSavepoint> {
  static DiffusionSavepoint read(const std::string& path) { return read_diffusion_savepoint(path); }
  static std::string describe(const DiffusionSavepoint& init) {
    return fmt::format("dtime {} s{}", init.dtime, init.initial_run ? ", initial run" : "");
  }
  static SavepointComparison replay(const DiffusionSavepoint& init,
                                    const DiffusionSavepoint& expected, const DeviceGrid<M>& grid,
                                    const VerifyOptions& o, std::vector<std::string>& notes) {
    fmt::print("with the {} strategy\n", o.strategy);
    DiffusionOptions<Space> options;
    options.strategy = parse_strategy(o.strategy);
    Diffusion<Space> diffusion(init.config, diffusion_inputs_from_savepoint(init, grid), options);
    auto prognostic = mirror_copy<M>(init.prognostic);
    auto diagnostic = mirror_copy<M>(init.diagnostic);
    diffusion.run(diagnostic, prognostic, init.dtime, init.initial_run);
    using H = Kokkos::HostSpace;
    const auto actual_prognostic = mirror_copy<H>(prognostic);
    const auto actual_diagnostic = mirror_copy<H>(diagnostic);
    SavepointComparison comparison =
        compare_diffusion_outputs(expected, actual_prognostic, actual_diagnostic);
    const auto check = [&](const FieldSpec& spec, const auto& e, const auto& a) {
      fail_non_finite(comparison, spec.name, e, a, notes);
    };
    DiffusionPrognosticState<H>::for_each_field(check, expected.prognostic, actual_prognostic);
    DiffusionDiagnosticState<H>::for_each_field(check, expected.diagnostic, actual_diagnostic);
    return comparison;
  }
};

template <>
struct Granule<SolveNhSavepoint> {
  static SolveNhSavepoint read(const std::string& path) { return read_solve_nh_savepoint(path); }
  static std::string describe(const SolveNhSavepoint& init) {
    const SolveNhStep& s = init.step;
    return fmt::format("dtime {} s, substep {} of {}{}{}", s.dtime,
                       s.at_first_substep  ? "first"
                       : s.at_last_substep ? "last"
                                           : "later",
                       s.ndyn_substeps_var, s.at_initial_timestep ? ", initial time step" : "",
                       s.lprep_adv ? ", prep_adv" : "");
  }
  static SavepointComparison replay(const SolveNhSavepoint& init, const SolveNhSavepoint& expected,
                                    const DeviceGrid<M>& grid, const VerifyOptions&,
                                    std::vector<std::string>& notes) {
    fmt::print("on a fresh granule, expecting every output bit for bit\n");
    SolveNonhydro<Space> granule(init.config, dycore_inputs_from_savepoint(init, grid), init.vct_a);
    auto diagnostic = mirror_copy<M>(init.diagnostic);
    auto current = mirror_copy<M>(init.current);
    auto next = mirror_copy<M>(init.next);
    auto prep_adv = mirror_copy<M>(init.prep_adv);
    granule.time_step(diagnostic, current, next, prep_adv, init.step);
    using H = Kokkos::HostSpace;
    const auto actual_diagnostic = mirror_copy<H>(diagnostic);
    const auto actual_next = mirror_copy<H>(next);
    const auto actual_prep_adv = mirror_copy<H>(prep_adv);
    SavepointComparison comparison =
        compare_solve_nh_outputs(expected, actual_diagnostic, actual_next, actual_prep_adv);
    const auto check = [&](const char* suffix) {
      return [&, suffix](const FieldSpec& spec, const auto& e, const auto& a) {
        fail_non_finite(comparison, spec.name + std::string(suffix), e, a, notes);
      };
    };
    SolveNhPrognosticState<H>::for_each_field(check("_new"), expected.next, actual_next);
    SolveNhDiagnosticState<H>::for_each_field(check(""), expected.diagnostic, actual_diagnostic);
    SolveNhPrepAdvection<H>::for_each_field(check(""), expected.prep_adv, actual_prep_adv);
    Kokkos::View<double*, H> e("expected", 1), a("actual", 1);
    e(0) = expected.diagnostic.max_vertical_cfl;
    a(0) = actual_diagnostic.max_vertical_cfl;
    fail_non_finite(comparison, "max_vertical_cfl", e, a, notes);
    return comparison;
  }
};

// ---- The same for every granule ---------------------------------------------------------------

/// The identity every file of `paths` must have.
void check_identities(const std::vector<std::string>& paths, const SavepointIdentity& expected,
                      const char* option) {
  for (const std::string& path : paths) {
    const SavepointIdentity identity = identify_savepoint(path);
    if (identity != expected)
      throw Error(fmt::format(
          "savepoint '{}' is a {} savepoint; {} needs {} savepoints{}", path, identity.name(),
          option, expected.name(),
          identity.granule != expected.granule
              ? fmt::format(" (the --in savepoint is a {} one)", to_string(expected.granule))
              : ""));
  }
}

/// The savepoints of `paths` (one file, or one per rank of a decomposed call), each of `kind`.
template <class Savepoint>
std::vector<Savepoint> read_parts(const std::vector<std::string>& paths,
                                  const SavepointIdentity& identity, const char* option) {
  check_identities(paths, identity, option);
  std::vector<Savepoint> parts;
  for (const std::string& path : paths) parts.push_back(Granule<Savepoint>::read(path));
  const auto& d = parts.front().decomposition;
  if (d && static_cast<std::size_t>(d->num_ranks) != parts.size())
    throw Error(fmt::format(
        "savepoint '{}' is rank {} of a call on {} ranks; {} needs the savepoints of all {} ranks "
        "(e.g. DIR/{}.rank*.nc), got {} file(s)",
        paths.front(), d->rank, d->num_ranks, option, d->num_ranks, identity.name(), paths.size()));
  if (!d && parts.size() > 1)
    throw Error(fmt::format("{} got {} savepoints, but '{}' is not one rank's of a decomposed call",
                            option, parts.size(), paths.front()));
  return parts;
}

/// Refuses an init and an exit savepoint (set) that are not of the same call, naming the first
/// difference: the number of ranks, the grid (uuid, sizes, limited area), the number of levels,
/// the call's scalars (dtime, initial run, substep). Without it a mixed-up pair would be replayed
/// and every field would fail (or extents would not match) without saying why.
template <class Savepoint>
void check_same_call(const std::vector<Savepoint>& init, const std::vector<Savepoint>& exit,
                     const VerifyOptions& o) {
  const auto ranks = [](const Savepoint& s) {
    return s.decomposition ? s.decomposition->num_ranks : 1;
  };
  const auto differ = [](const std::string& what, const std::string& in_value,
                         const std::string& in_path, const std::string& out_value,
                         const std::string& out_path) {
    return Error(fmt::format(
        "--in and --out are not savepoints of the same call: {} is {} in '{}' but {} in '{}'; "
        "give the exit savepoint(s) captured with the init savepoint(s)",
        what, in_value, in_path, out_value, out_path));
  };
  if (ranks(init.front()) != ranks(exit.front()))
    throw differ("the number of ranks", std::to_string(ranks(init.front())), o.inputs.front(),
                 std::to_string(ranks(exit.front())), o.expected.front());
  // The parts of a decomposed call pair up by rank (the files may come in any order).
  std::map<int, std::size_t> exit_of_rank;
  for (std::size_t j = 0; j < exit.size(); ++j)
    exit_of_rank[exit[j].decomposition ? exit[j].decomposition->rank : 0] = j;
  for (std::size_t i = 0; i < init.size(); ++i) {
    const Savepoint& a = init[i];
    const auto found = exit_of_rank.find(a.decomposition ? a.decomposition->rank : 0);
    if (found == exit_of_rank.end())
      throw Error(fmt::format(
          "--in and --out are not savepoints of the same call: '{}' is rank {}'s, and no --out "
          "savepoint is that rank's",
          o.inputs[i], a.decomposition ? a.decomposition->rank : 0));
    const Savepoint& b = exit[found->second];
    const std::string& pa = o.inputs[i];
    const std::string& pb = o.expected[found->second];
    const SavepointGridReference &ga = a.grid, &gb = b.grid;
    if (!ga.uuid.empty() && !gb.uuid.empty() && ga.uuid != gb.uuid)
      throw differ("the grid's uuidOfHGrid", ga.uuid, pa, gb.uuid, pb);
    const auto sizes = [](const SavepointGridReference& g) {
      return fmt::format("{} cells, {} edges, {} vertices", g.num_cells, g.num_edges,
                         g.num_vertices);
    };
    if (sizes(ga) != sizes(gb)) throw differ("the grid", sizes(ga), pa, sizes(gb), pb);
    if (ga.limited_area != gb.limited_area)
      throw differ("the grid", ga.limited_area ? "limited-area" : "global", pa,
                   gb.limited_area ? "limited-area" : "global", pb);
    if (a.num_levels() != b.num_levels())
      throw differ("the number of levels (nlev)", std::to_string(a.num_levels()), pa,
                   std::to_string(b.num_levels()), pb);
    const std::string ca = Granule<Savepoint>::describe(a), cb = Granule<Savepoint>::describe(b);
    if (ca != cb) throw differ("the call", ca, pa, cb, pb);
  }
}

/// One savepoint on the whole grid from `parts`.
template <class Savepoint>
Savepoint whole(std::vector<Savepoint> parts, const Grid& grid, const std::string& source) {
  if (!parts.front().decomposition) return std::move(parts.front());
  return merge_rank_savepoints(parts, grid, source);
}

template <class Savepoint>
int verify(const VerifyOptions& o, SavepointGranule granule) {
  std::vector<Savepoint> init_parts =
      read_parts<Savepoint>(o.inputs, {granule, SavepointKind::Init}, "--in");
  std::vector<Savepoint> exit_parts =
      read_parts<Savepoint>(o.expected, {granule, SavepointKind::Exit}, "--out");
  check_same_call(init_parts, exit_parts, o);
  const std::string source = o.grid.empty() ? init_parts.front().grid.source : o.grid;
  if (source.empty())
    throw Error(
        fmt::format("savepoint '{}' names no grid source; pass --grid FILE or --grid "
                    "generate:RnBk",
                    o.inputs.front()));
  const Grid grid = load_grid_source(source);
  const Savepoint init = whole(std::move(init_parts), grid, source);
  const Savepoint expected = whole(std::move(exit_parts), grid, source);
  check_same_grid(init.grid, grid);
  check_same_grid(expected.grid, grid);
  const std::string from = o.inputs.size() == 1 ? o.inputs.front()
                                                : fmt::format("{} per-rank savepoints ({} ...)",
                                                              o.inputs.size(), o.inputs.front());
  fmt::print("replaying the {} call {} ({} cells, {} levels, {}) on {} ", to_string(granule), from,
             grid.num_cells, init.num_levels(), Granule<Savepoint>::describe(init), source);

  const DeviceGrid<M> device(grid);
  std::vector<std::string> notes;
  const SavepointComparison comparison =
      Granule<Savepoint>::replay(init, expected, device, o, notes);
  for (const std::string& note : notes) fmt::print("{}\n", note);
  fmt::print("{}", format_comparison(comparison));
  return comparison.passed() ? 0 : 1;
}

int run_verify(const VerifyOptions& o) {
  // The kind of the first --in file decides the granule; every other file must agree.
  switch (identify_savepoint(o.inputs.front()).granule) {
    case SavepointGranule::Diffusion:
      return verify<DiffusionSavepoint>(o, SavepointGranule::Diffusion);
    case SavepointGranule::SolveNh: return verify<SolveNhSavepoint>(o, SavepointGranule::SolveNh);
  }
  return 2;
}

}  // namespace

Command add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  app.add_option("--in", o->inputs,
                 "init savepoint (diffusion-init or solve_nh-init: the inputs of the call), or "
                 "every rank's of a decomposed call")
      ->required();
  app.add_option("--out", o->expected,
                 "exit savepoint of the same granule (the expected outputs), or every rank's")
      ->required();
  app.add_option("--grid", o->grid, "grid source, if not the one recorded in the savepoint");
  app.add_option("--strategy", o->strategy, "fused or unfused (the diffusion's kernels)")
      ->check(CLI::IsMember({"fused", "unfused"}));
  return [o] { return run_verify(*o); };
}

}  // namespace icondiff::cli
