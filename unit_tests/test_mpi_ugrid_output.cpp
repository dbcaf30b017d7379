// The decomposed UGRID output (io/ugrid_output.hpp's MPI constructor), the point blocks under it
// (comm/point_blocks.hpp) and errors agreed over MPI (comm/mpi_collectives.hpp), on 1..4 ranks
// (mpirun):
//  * every rank's block of a per-point quantity holds exactly the global slice, in both orders;
//  * the file every rank writes from its local grid and local fields (random values, halos
//    poisoned) equals, in every variable, attribute and value, the file one process writes from
//    the whole grid: global and limited-area grids, double and single precision, classic and
//    netCDF-4, a step without the diagnostics (_FillValue);
//  * ranks whose owned points do not partition the grid, or one rank with a field of the wrong
//    size, make every rank throw the same CollectiveError (no hang, no file left behind);
//  * a rank that alone throws inside collectively() makes every rank throw the same message.
#include "support/expect_error.hpp"

#include <icondiff/comm/decomposition.hpp>
#include <icondiff/comm/local_fields.hpp>
#include <icondiff/comm/mpi_collectives.hpp>
#include <icondiff/comm/point_blocks.hpp>
#include <icondiff/io/grid_source.hpp>
#include <icondiff/io/ugrid_output.hpp>

#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace icondiff {
namespace {

struct Decomposed {
  int rank = mpi_rank(MPI_COMM_WORLD), size = mpi_size(MPI_COMM_WORLD);
  Grid whole;
  Grid local;
  explicit Decomposed(const std::string& source) : whole(load_grid_source(source)) {
    local = make_local_grid(whole, partition_cells(whole, size), rank, size);
  }
};

std::size_t points_of(const Grid& g, Location l) {
  return static_cast<std::size_t>(l == Location::Cell   ? g.num_cells
                                  : l == Location::Edge ? g.num_edges
                                                        : g.num_vertices);
}

/// A value that names its global point and slot.
double tag(index_t global, std::size_t j) {
  return global * 10.0 + static_cast<double>(j);
}

TEST(PointBlocks, EveryRankGetsItsSliceOfTheGlobalNumbering) {
  Decomposed s("generate:R2B3");
  for (const Location l : all_locations) {
    const PointBlocks blocks(MPI_COMM_WORLD, s.local, l);
    const std::size_t n = points_of(s.whole, l);
    ASSERT_EQ(blocks.total(), n);
    EXPECT_EQ(blocks.begin(), n * static_cast<std::size_t>(s.rank) / s.size);
    EXPECT_EQ(blocks.begin() + blocks.size(), n * static_cast<std::size_t>(s.rank + 1) / s.size);
    // One rank's local grid is the whole grid: no global indices, no halo levels.
    const auto& global = s.local.global_index(l);
    const auto& halo = s.local.halo_level[static_cast<int>(l)];
    const auto value = [&](index_t i, std::size_t j) {
      const auto p = static_cast<std::size_t>(i);
      EXPECT_TRUE(halo.empty() || halo[p] == 0) << "a halo point was asked for";
      return tag(global.empty() ? i : global[p], j);
    };
    const auto rows = blocks.to_block<double>(3, value, BlockOrder::point_major);
    const auto columns = blocks.to_block<double>(3, value, BlockOrder::value_major);
    ASSERT_EQ(rows.size(), 3 * blocks.size());
    ASSERT_EQ(columns.size(), 3 * blocks.size());
    for (std::size_t p = 0; p < blocks.size(); ++p)
      for (std::size_t j = 0; j < 3; ++j) {
        const auto g = static_cast<index_t>(blocks.begin() + p);
        ASSERT_EQ(rows[3 * p + j], tag(g, j)) << "point " << g;
        ASSERT_EQ(columns[j * blocks.size() + p], tag(g, j)) << "point " << g;
      }
  }
}

TEST(PointBlocks, PointsOwnedTwiceOrByNobodyAreRefusedOnEveryRank) {
  Decomposed s("generate:R2B2");
  if (s.size == 1) GTEST_SKIP() << "needs two ranks";
  // Every rank passes the whole grid: each point is owned by every rank.
  test::expect_throw_naming<CollectiveError>(
      [&] { PointBlocks(MPI_COMM_WORLD, s.whole, Location::Cell); },
      {"owned by more than one rank"}, "the whole grid on every rank");
  // The last rank leaves out its first owned edge: nobody owns it.
  Grid holed = s.local;
  if (s.rank == s.size - 1) holed.halo_level[static_cast<int>(Location::Edge)][0] = 1;
  test::expect_throw_naming<CollectiveError>(
      [&] { PointBlocks(MPI_COMM_WORLD, holed, Location::Edge); },
      {"edges", "the decomposition does not"}, "a point nobody owns");
}

/// The local fields of one output time: random values on the owned points (from a whole-grid
/// field drawn from `seed`, so one process can write the same), poison on the halo.
struct Fields {
  std::map<std::string, std::vector<double>> values;
  UgridOutputFields refs(bool diagnostics) const {
    UgridOutputFields f;
    const auto ref = [&](const char* name) { return HostFieldRef(values.at(name)); };
    f.vn = ref("vn");
    f.w = ref("w");
    f.theta_v = ref("theta_v");
    f.exner = ref("exner");
    f.rho = ref("rho");
    f.pres_sfc = ref("pres_sfc");
    if (diagnostics) {
      f.hdef_ic = ref("hdef_ic");
      f.div_ic = ref("div_ic");
      f.dwdx = ref("dwdx");
      f.dwdy = ref("dwdy");
    }
    return f;
  }
};

Fields make_fields(const Grid& g, int nlev, std::uint64_t seed) {
  struct Shape {
    const char* name;
    Location location;
    int levels;
  };
  const Shape shapes[] = {
      {"vn", Location::Edge, nlev},          {"w", Location::Cell, nlev + 1},
      {"theta_v", Location::Cell, nlev},     {"exner", Location::Cell, nlev},
      {"rho", Location::Cell, nlev},         {"pres_sfc", Location::Cell, 1},
      {"hdef_ic", Location::Cell, nlev + 1}, {"div_ic", Location::Cell, nlev + 1},
      {"dwdx", Location::Cell, nlev + 1},    {"dwdy", Location::Cell, nlev + 1}};
  Fields f;
  for (const Shape& shape : shapes) {
    const std::size_t n = points_of(g, shape.location);
    const auto& global = g.global_index(shape.location);
    const auto& halo = g.halo_level[static_cast<int>(shape.location)];
    std::vector<double>& v = f.values[shape.name];
    v.resize(n * static_cast<std::size_t>(shape.levels));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t point = global.empty() ? i : static_cast<std::uint64_t>(global[i]);
      for (int k = 0; k < shape.levels; ++k) {
        // A value of the global point alone: the same on every decomposition.
        std::mt19937_64 rng(seed ^ (point * 1000003u + static_cast<std::uint64_t>(k) * 7919u) ^
                            std::hash<std::string>()(shape.name));
        const double value = std::uniform_real_distribution<double>(-300.0, 300.0)(rng);
        v[i + n * static_cast<std::size_t>(k)] = !halo.empty() && halo[i] != 0 ? -9e99 : value;
      }
    }
  }
  return f;
}

/// Two output times (the first without the diagnostics) of the fields of `g`, written by every
/// rank when `comm` is given, else by this process alone.
void write_file(const std::string& path, const Grid& g, int nlev, const UgridWriterOptions& options,
                MPI_Comm comm) {
  std::vector<double> half(static_cast<std::size_t>(nlev) + 1),
      full(static_cast<std::size_t>(nlev));
  for (int k = 0; k <= nlev; ++k) half[static_cast<std::size_t>(k)] = 1000.0 * (nlev - k);
  for (int k = 0; k < nlev; ++k) full[static_cast<std::size_t>(k)] = 1000.0 * (nlev - k) - 500.0;
  // A fixed history, so the files' global attributes are equal to the second.
  const std::map<std::string, std::string> attributes = {{"history", "test"},
                                                         {"icondiff:test", "parallel output"}};
  std::unique_ptr<UgridWriter> writer =
      comm == MPI_COMM_NULL
          ? std::make_unique<UgridWriter>(path, g, full, half, attributes, options)
          : std::make_unique<UgridWriter>(comm, path, g, full, half, attributes, options);
  writer->write_step(0.0, make_fields(g, nlev, 1).refs(false));
  writer->write_step(600.0, make_fields(g, nlev, 2).refs(true));
  writer->close();
}

/// Every difference between two netCDF files: format, dimensions, variables (type, dimensions,
/// attributes, every value), global attributes.
std::vector<std::string> differences(const std::string& a_path, const std::string& b_path) {
  int a = -1, b = -1;
  EXPECT_EQ(nc_open(a_path.c_str(), NC_NOWRITE, &a), NC_NOERR) << a_path;
  EXPECT_EQ(nc_open(b_path.c_str(), NC_NOWRITE, &b), NC_NOERR) << b_path;
  std::vector<std::string> out;
  int fa = 0, fb = 0;
  nc_inq_format(a, &fa);
  nc_inq_format(b, &fb);
  if (fa != fb) out.push_back("format");
  const auto attribute_text = [](int id, int var, int index) {
    char name[NC_MAX_NAME + 1] = {0};
    nc_inq_attname(id, var, index, name);
    nc_type type = NC_NAT;
    std::size_t length = 0;
    nc_inq_att(id, var, name, &type, &length);
    std::vector<char> bytes(length * 8 + 1, 0);
    nc_get_att(id, var, name, bytes.data());
    return std::string(name) + "=" + std::to_string(type) + ":" +
           std::string(bytes.begin(), bytes.end());
  };
  const auto attributes = [&](int id, int var) {
    int n = 0;
    nc_inq_varnatts(id, var, &n);
    std::vector<std::string> all;
    for (int i = 0; i < n; ++i) all.push_back(attribute_text(id, var, i));
    return all;
  };
  if (attributes(a, NC_GLOBAL) != attributes(b, NC_GLOBAL)) out.push_back("global attributes");
  int nvars = 0, nvars_b = 0;
  nc_inq_nvars(a, &nvars);
  nc_inq_nvars(b, &nvars_b);
  if (nvars != nvars_b) out.push_back("number of variables");
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1] = {0};
    nc_inq_varname(a, v, name);
    int w = -1;
    if (nc_inq_varid(b, name, &w) != NC_NOERR) {
      out.push_back(std::string(name) + " missing");
      continue;
    }
    nc_type ta = NC_NAT, tb = NC_NAT;
    int nda = 0, ndb = 0, da[NC_MAX_VAR_DIMS], db[NC_MAX_VAR_DIMS];
    nc_inq_var(a, v, nullptr, &ta, &nda, da, nullptr);
    nc_inq_var(b, w, nullptr, &tb, &ndb, db, nullptr);
    std::size_t count = 1;
    bool same_shape = ta == tb && nda == ndb;
    for (int d = 0; d < nda && same_shape; ++d) {
      std::size_t la = 0, lb = 0;
      nc_inq_dimlen(a, da[d], &la);
      nc_inq_dimlen(b, db[d], &lb);
      same_shape = la == lb;
      count *= la;
    }
    if (!same_shape) {
      out.push_back(std::string(name) + " shape or type");
      continue;
    }
    if (attributes(a, v) != attributes(b, w)) out.push_back(std::string(name) + " attributes");
    std::vector<double> x(count), y(count);
    nc_get_var_double(a, v, x.data());
    nc_get_var_double(b, w, y.data());
    for (std::size_t i = 0; i < count; ++i)
      if (!(x[i] == y[i])) {
        out.push_back(std::string(name) + " value " + std::to_string(i) + ": " +
                      std::to_string(x[i]) + " / " + std::to_string(y[i]));
        break;
      }
  }
  nc_close(a);
  nc_close(b);
  return out;
}

/// A new, empty folder every rank sees: made by the root (mkdtemp, so no other run, earlier or
/// concurrent, shares it) and its name broadcast.
std::string shared_directory(const std::string& name) {
  std::string dir;
  if (mpi_rank(MPI_COMM_WORLD) == 0) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("icondiff-test-mpi-ugrid-" + name + "-XXXXXX"))
            .string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern);
    dir = pattern;
  }
  int length = static_cast<int>(dir.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dir.resize(static_cast<std::size_t>(length));
  MPI_Bcast(dir.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return dir;
}

/// The entries of a folder, by name (shown when a check on them fails).
std::vector<std::string> entries_of(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(MpiUgridOutput, EveryRankWritingItsPartEqualsOneProcessWritingTheWholeGrid) {
  struct Case {
    const char* source;
    UgridWriterOptions options;
  };
  UgridWriterOptions dynamics;
  dynamics.write_dynamics = true;
  UgridWriterOptions single = dynamics;
  single.single_precision = true;
  UgridWriterOptions netcdf4 = dynamics;
  netcdf4.format = UgridFileFormat::Netcdf4;
  const Case cases[] = {{"generate:R2B3", dynamics},
                        {"generate:R2B4/cap:8,46.5,10", dynamics},
                        {"generate:R2B3", single},
                        {"generate:R2B2", netcdf4}};
  const std::string dir = shared_directory("equal");
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.source) + " case " + std::to_string(n));
    Decomposed s(c.source);
    const std::string one = dir + "/one-" + std::to_string(n) + ".nc";
    const std::string all = dir + "/all-" + std::to_string(n) + ".nc";
    ++n;
    if (s.rank == 0) write_file(one, s.whole, 4, c.options, MPI_COMM_NULL);
    write_file(all, s.local, 4, c.options, MPI_COMM_WORLD);
    if (s.rank == 0) {
      const auto diff = differences(one, all);
      EXPECT_TRUE(diff.empty()) << ::testing::PrintToString(diff);
      // Nothing but the two files: no temporary left behind.
      const auto names = entries_of(dir);
      EXPECT_EQ(names.size(), 2u * static_cast<std::size_t>(n)) << ::testing::PrintToString(names);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (mpi_rank(MPI_COMM_WORLD) == 0) std::filesystem::remove_all(dir);
}

TEST(MpiUgridOutput, AFieldOfTheWrongSizeOnOneRankFailsOnEveryRankAndLeavesNoFile) {
  Decomposed s("generate:R2B2");
  const std::string dir = shared_directory("wrong");
  const std::string path = dir + "/out.nc";
  const int nlev = 3;
  const std::vector<double> half = {3000, 2000, 1000, 0}, full = {2500, 1500, 500};
  UgridWriterOptions options;
  options.write_dynamics = true;
  Fields fields = make_fields(s.local, nlev, 3);
  const int culprit = s.size - 1;
  if (s.rank == culprit) fields.values["theta_v"].resize(5);
  {
    UgridWriter writer(MPI_COMM_WORLD, path, s.local, full, half, {}, options);
    test::expect_throw_naming<CollectiveError>([&] { writer.write_step(0.0, fields.refs(true)); },
                                               {"field 'theta_v' has 5 values"},
                                               "wrong size on the last rank");
    // Still in step: the others write again, the culprit too once fixed.
    fields = make_fields(s.local, nlev, 3);
    writer.write_step(0.0, fields.refs(true));
    EXPECT_EQ(writer.steps_written(), 1u);
  }  // not closed: the destructor (collective) removes the temporary
  MPI_Barrier(MPI_COMM_WORLD);
  if (s.rank == 0) {
    EXPECT_TRUE(std::filesystem::is_empty(dir))
        << "left in " << dir << ": " << ::testing::PrintToString(entries_of(dir));
    std::filesystem::remove_all(dir);
  }
}

TEST(MpiCollectives, OneRankThrowingMakesEveryRankThrowTheSameMessage) {
  const int rank = mpi_rank(MPI_COMM_WORLD), size = mpi_size(MPI_COMM_WORLD);
  const int culprit = size / 2;
  test::expect_throw_naming<CollectiveError>(
      [&] {
        collectively(MPI_COMM_WORLD, [&] {
          if (rank == culprit) throw GridError("the grid file is unreadable");
        });
      },
      {"the grid file is unreadable"}, "one rank fails");
  // Nobody fails: nobody throws, and the communicator is still in step.
  EXPECT_NO_THROW(collectively(MPI_COMM_WORLD, [] {}));
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, size);
}

}  // namespace
}  // namespace icondiff
