// The global icosahedral grid generator: resolution parsing, sizes, topology, every ICON
// convention checked geometrically, metric identities, the write -> read round trip, the
// icosahedron's orientation and the spring-dynamics optimisation against ICON's own R02B03 grid.
#include "support/grid_conventions.hpp"
#include "support/grid_files.hpp"

#include <icondiff/core/error.hpp>
#include <icondiff/core/sphere.hpp>
#include <icondiff/grid/grid_checks.hpp>
#include <icondiff/grid/icosahedral_generator.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>

namespace icondiff {
namespace {

constexpr double pi = 3.14159265358979323846;

double sum(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0);
}

TEST(ParseResolution, AcceptsIconSpellings) {
  for (const char* text : {"R2B4", "R02B04", "r2b4", "R2b04", "r002B4"}) {
    const GridResolution r = parse_resolution(text);
    EXPECT_EQ(r.root, 2) << text;
    EXPECT_EQ(r.bisections, 4) << text;
  }
  EXPECT_EQ(parse_resolution("R19B07").root, 19);
  EXPECT_EQ(parse_resolution("R19B07").bisections, 7);
  EXPECT_EQ(parse_resolution("R1B0").bisections, 0);
  EXPECT_EQ(resolution_name({2, 4}), "R2B4");
}

TEST(ParseResolution, RejectsOtherText) {
  for (const char* text :
       {"", "R", "RB4", "R2", "R2B", "X2B4", "R2B4x", "R-1B2", "R2B-1", " R2B4", "R2 B4", "2B4"}) {
    try {
      parse_resolution(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("R<n>B<k>"), std::string::npos) << e.what();
    }
  }
  try {
    parse_resolution("R0B4");
    ADD_FAILURE() << "accepted R0B4";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("n = 0 is less than 1"), std::string::npos) << e.what();
  }
}

TEST(IcosahedralGenerator, RefusesBadArguments) {
  EXPECT_THROW(generate_icosahedral_grid(0, 2), InvalidArgument);
  EXPECT_THROW(generate_icosahedral_grid(2, -1), InvalidArgument);
  EXPECT_THROW(generate_icosahedral_grid(2, 1, 0.0), InvalidArgument);
  EXPECT_THROW(generate_icosahedral_grid(2, 1, std::nan("")), InvalidArgument);
  EXPECT_THROW(icosahedral_grid_sizes({2, 14}), InvalidArgument);  // 3.2e10 edges

  const auto with = [](auto change) {
    GridOptimization o;
    change(o);
    return o;
  };
  for (const GridOptimization& o : {with([](GridOptimization& o) { o.beta = 0.0; }),
                                    with([](GridOptimization& o) { o.beta = std::nan(""); }),
                                    with([](GridOptimization& o) { o.time_step = -1e-2; }),
                                    with([](GridOptimization& o) { o.friction = -1.0; }),
                                    with([](GridOptimization& o) { o.stop_ratio = 0.0; }),
                                    with([](GridOptimization& o) { o.stop_ratio = 1.0; }),
                                    with([](GridOptimization& o) { o.max_iterations = 5; })}) {
    try {
      generate_icosahedral_grid(2, 1, earth_radius, o);
      ADD_FAILURE() << "accepted beta " << o.beta << " dt " << o.time_step << " friction "
                    << o.friction << " stop " << o.stop_ratio << " steps " << o.max_iterations;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("grid optimisation"), std::string::npos) << e.what();
    }
  }
  // Parameters of an optimisation that is not used are not looked at.
  GridOptimization none = GridOptimization::none();
  none.beta = -1.0;
  EXPECT_NO_THROW(generate_icosahedral_grid(2, 1, earth_radius, none));
}

TEST(IcosahedralGenerator, ReportsUnstableOrUnsettledSpringDynamics) {
  // Above about beta = 1.11 (ICON's upper limit; Tomita et al. 2002: the critical natural length)
  // the springs have no stable equilibrium: ICON's generator stops with an error, so do we.
  try {
    generate_icosahedral_grid(2, 3, earth_radius, GridOptimization::spring_dynamics(1.3));
    ADD_FAILURE() << "beta = 1.3 accepted";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("unstable"), std::string::npos) << e.what();
  }
  GridOptimization few = GridOptimization::spring_dynamics();
  few.max_iterations = 50;  // R2B1 needs 185 steps
  try {
    generate_icosahedral_grid(2, 1, earth_radius, few);
    ADD_FAILURE() << "50 steps were enough";
  } catch (const GridError& e) {
    EXPECT_NE(std::string(e.what()).find("did not settle within 50 steps"), std::string::npos)
        << e.what();
  }
}

struct SizeCase {
  int root, bisections;
  index_t cells, edges, vertices;
};

TEST(IcosahedralGenerator, SizesTopologyAndPentagons) {
  for (const SizeCase& s : {SizeCase{1, 0, 20, 30, 12}, SizeCase{2, 0, 80, 120, 42},
                            SizeCase{2, 3, 5120, 7680, 2562}, SizeCase{2, 4, 20480, 30720, 10242},
                            SizeCase{3, 1, 720, 1080, 362}, SizeCase{5, 0, 500, 750, 252}}) {
    SCOPED_TRACE("R" + std::to_string(s.root) + "B" + std::to_string(s.bisections));
    const Grid g = generate_icosahedral_grid(s.root, s.bisections);
    EXPECT_EQ(g.num_cells, s.cells);
    EXPECT_EQ(g.num_edges, s.edges);
    EXPECT_EQ(g.num_vertices, s.vertices);
    const GridSizes expected = icosahedral_grid_sizes({s.root, s.bisections});
    EXPECT_EQ(expected.cells, s.cells);
    EXPECT_EQ(expected.edges, s.edges);
    EXPECT_EQ(expected.vertices, s.vertices);
    EXPECT_EQ(g.num_vertices - g.num_edges + g.num_cells, 2);
    EXPECT_NO_THROW(check_grid(g));
    EXPECT_EQ(g.name, "R" + std::to_string(s.root) + "B" + std::to_string(s.bisections));
    EXPECT_EQ(g.grid_root, s.root);
    EXPECT_EQ(g.grid_level, s.bisections);
    EXPECT_FALSE(g.limited_area);

    // The 12 pentagons are the icosahedron's vertices (poles and rings at ±atan(1/2)).
    int pentagons = 0;
    for (index_t v = 0; v < g.num_vertices; ++v) {
      int edges = 0;
      for (int k = 0; k < 6; ++k) edges += g.v2e(v, k) != missing_index;
      ASSERT_TRUE(edges == 5 || edges == 6) << "vertex " << v;
      if (edges == 6) continue;
      ++pentagons;
      EXPECT_EQ(g.v2e(v, 5), missing_index);
      EXPECT_EQ(g.v2c(v, 5), missing_index);
      const double lat = std::fabs(g.vertex_lat[v]);
      EXPECT_TRUE(std::fabs(lat - pi / 2) < 1e-12 || std::fabs(lat - std::atan(0.5)) < 1e-12)
          << "pentagon at latitude " << g.vertex_lat[v];
    }
    EXPECT_EQ(pentagons, 12);
  }
}

TEST(IcosahedralGenerator, FollowsIconConventions) {
  for (const auto& [root, bisections] :
       {std::pair{1, 0}, std::pair{2, 2}, std::pair{3, 1}, std::pair{2, 4}, std::pair{19, 0}}) {
    SCOPED_TRACE("R" + std::to_string(root) + "B" + std::to_string(bisections));
    const Grid g = generate_icosahedral_grid(root, bisections);
    test::expect_cell_conventions(g);
    test::expect_orientation_conventions(g);
    test::expect_vertex_conventions(g);
    // ICON's global files: e2v and e2c sorted by index (so the normal points from the lower to
    // the higher cell), which leaves tangent_orientation mixed.
    int positive = 0;
    for (index_t e = 0; e < g.num_edges; ++e) {
      EXPECT_LT(g.e2v(e, 0), g.e2v(e, 1));
      EXPECT_LT(g.e2c(e, 0), g.e2c(e, 1));
      positive += g.tangent_orientation[e] > 0;
    }
    EXPECT_GT(positive, 0);
    EXPECT_LT(positive, g.num_edges);
    for (Location l : all_locations) {
      EXPECT_EQ(g.refin_ctrl[static_cast<int>(l)], std::vector<int>(g.size(l), 0));
      EXPECT_EQ(g.range(l, Zone::Interior), (IndexRange{0, g.size(l)}));
    }
  }
}

TEST(IcosahedralGenerator, MetricIdentities) {
  const double radius = 6.4e6;
  // Edge lengths relative to the mean edge of equilateral cells of the mean area (ICON4Py
  // geometry.py mean_edge_length). Measured on R2B4: 0.829..1.055 with ICON's spring dynamics
  // (beta = 0.9 draws the cells around the pentagons together, as in ICON's R02B03 file:
  // 0.849..1.054 there), 0.919..1.098 without optimisation.
  struct Case {
    GridOptimization optimization;
    double shortest, longest;
  };
  for (const Case& c :
       {Case{GridOptimization{}, 0.80, 1.10}, Case{GridOptimization::none(), 0.90, 1.12}}) {
    SCOPED_TRACE(c.optimization.method == GridOptimizationMethod::None ? "none" : "springs");
    const Grid g = generate_icosahedral_grid(2, 4, radius, c.optimization);
    EXPECT_EQ(g.sphere_radius, radius);
    const double sphere_area = 4 * pi * radius * radius;
    EXPECT_NEAR(sum(g.cell_area) / sphere_area, 1.0, 1e-13);
    EXPECT_NEAR(sum(g.dual_area) / sphere_area, 1.0, 1e-13);
    const double mean_edge = std::sqrt(4.0 * sphere_area / g.num_cells / std::sqrt(3.0));
    for (index_t e = 0; e < g.num_edges; ++e) {
      EXPECT_NEAR(g.edge_vertex_distance(e, 0) + g.edge_vertex_distance(e, 1), g.edge_length[e],
                  1e-13 * g.edge_length[e]);
      EXPECT_NEAR(g.edge_cell_distance(e, 0) + g.edge_cell_distance(e, 1), g.dual_edge_length[e],
                  1e-12 * g.dual_edge_length[e]);
      EXPECT_GT(g.edge_length[e], c.shortest * mean_edge);
      EXPECT_LT(g.edge_length[e], c.longest * mean_edge);
    }
    // Every vertex lies on the unit sphere scaled by nothing: coordinates are angles.
    for (index_t v = 0; v < g.num_vertices; ++v) {
      EXPECT_LE(std::fabs(g.vertex_lat[v]), pi / 2);
      EXPECT_LE(std::fabs(g.vertex_lon[v]), pi);
    }
  }
}

TEST(IcosahedralGenerator, SpringDynamicsKeepsTheIcosahedralSymmetry) {
  // The springs act alike on every vertex, so the optimised grid keeps the symmetries of the
  // bisected icosahedron: the rotation by 72 degrees about the polar axis, the mirror y -> -y
  // (longitude -> -longitude) and the half turn about the equatorial axis at 18 degrees east
  // (through the midpoint of the edge from the northern vertex at 0 degrees to the southern one
  // at 36 degrees) map every vertex onto a vertex, up to rounding.
  using sphere::Vec3;
  const Grid g = generate_icosahedral_grid(2, 3);
  std::vector<Vec3> p(static_cast<std::size_t>(g.num_vertices));
  for (index_t v = 0; v < g.num_vertices; ++v) p[v] = test::vertex_position(g, v);
  const double c = std::cos(2 * pi / 5), s = std::sin(2 * pi / 5);
  const Vec3 axis{std::cos(pi / 10), std::sin(pi / 10), 0.0};
  const std::array<std::function<Vec3(Vec3)>, 3> symmetries{
      [&](Vec3 x) {
        return Vec3{c * x.x - s * x.y, s * x.x + c * x.y, x.z};
      },
      [](Vec3 x) {
        return Vec3{x.x, -x.y, x.z};
      },
      [&](Vec3 x) { return (2.0 * sphere::dot(axis, x)) * axis - x; }};
  for (std::size_t k = 0; k < symmetries.size(); ++k) {
    double worst = 0;
    for (const Vec3& x : p) {
      const Vec3 y = symmetries[k](x);
      const auto nearest = std::max_element(p.begin(), p.end(), [&](const Vec3& a, const Vec3& b) {
        return sphere::dot(a, y) < sphere::dot(b, y);
      });
      worst = std::max(worst, sphere::arc_length(*nearest, y));
    }
    EXPECT_LT(worst, 1e-12) << "symmetry " << k;
  }
}

TEST(IcosahedralGenerator, IsDeterministicAndScalesOnlyTheMetrics) {
  const Grid a = generate_icosahedral_grid(2, 2);
  const Grid b = generate_icosahedral_grid(2, 2, 1.0);
  EXPECT_EQ(a.c2v, b.c2v);
  EXPECT_EQ(a.c2e, b.c2e);
  EXPECT_EQ(a.v2e, b.v2e);
  EXPECT_EQ(a.vertex_lon, b.vertex_lon);
  EXPECT_EQ(a.primal_normal_east, b.primal_normal_east);
  for (index_t c = 0; c < a.num_cells; ++c)
    EXPECT_NEAR(a.cell_area[c] / (earth_radius * earth_radius), b.cell_area[c], 1e-15);
}

TEST(IcosahedralGenerator, WriteThenReadGivesTheSameGrid) {
  const Grid g = generate_icosahedral_grid(2, 2);
  const std::string path = test::scratch_file("generated_R2B2.nc");
  write_icon_grid(g, path);
  const Grid r = read_icon_grid(path);
  EXPECT_EQ(r.num_cells, g.num_cells);
  EXPECT_EQ(r.num_edges, g.num_edges);
  EXPECT_EQ(r.num_vertices, g.num_vertices);
  EXPECT_EQ(r.sphere_radius, g.sphere_radius);
  EXPECT_EQ(r.c2e, g.c2e);
  EXPECT_EQ(r.c2v, g.c2v);
  EXPECT_EQ(r.c2e2c, g.c2e2c);
  EXPECT_EQ(r.e2c, g.e2c);
  EXPECT_EQ(r.e2v, g.e2v);
  EXPECT_EQ(r.v2e, g.v2e);
  EXPECT_EQ(r.v2c, g.v2c);
  EXPECT_EQ(r.c2e2co, g.c2e2co);
  EXPECT_EQ(r.e2c2v, g.e2c2v);
  EXPECT_EQ(r.e2c2e, g.e2c2e);
  EXPECT_EQ(r.e2c2eo, g.e2c2eo);
  EXPECT_EQ(r.cell_lon, g.cell_lon);
  EXPECT_EQ(r.cell_lat, g.cell_lat);
  EXPECT_EQ(r.edge_lon, g.edge_lon);
  EXPECT_EQ(r.vertex_lat, g.vertex_lat);
  EXPECT_EQ(r.cell_area, g.cell_area);
  EXPECT_EQ(r.dual_area, g.dual_area);
  EXPECT_EQ(r.edge_length, g.edge_length);
  EXPECT_EQ(r.dual_edge_length, g.dual_edge_length);
  EXPECT_EQ(r.edge_cell_distance, g.edge_cell_distance);
  EXPECT_EQ(r.edge_vertex_distance, g.edge_vertex_distance);
  EXPECT_EQ(r.primal_normal_east, g.primal_normal_east);
  EXPECT_EQ(r.primal_normal_north, g.primal_normal_north);
  EXPECT_EQ(r.dual_normal_east, g.dual_normal_east);
  EXPECT_EQ(r.dual_normal_north, g.dual_normal_north);
  EXPECT_EQ(r.tangent_orientation, g.tangent_orientation);
  EXPECT_EQ(r.cell_edge_orientation, g.cell_edge_orientation);
  EXPECT_EQ(r.vertex_edge_orientation, g.vertex_edge_orientation);
  EXPECT_EQ(r.refin_ctrl, g.refin_ctrl);
  EXPECT_EQ(r.zones, g.zones);
}

TEST(IcosahedralGenerator, RootPointsAndOrientationMatchIconR02B03) {
  // ICON's R02B03 grid contains the 42 vertices of R2B0 (icosahedron + root division) at the
  // same positions (the root level is not optimised, and spring dynamics leaves these centres of
  // symmetry in place).
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Grid icon = read_icon_grid(path);
  const Grid g = generate_icosahedral_grid(2, 0);
  for (index_t v = 0; v < g.num_vertices; ++v) {
    const auto p = test::vertex_position(g, v);
    double nearest = pi;
    for (index_t w = 0; w < icon.num_vertices; ++w)
      nearest = std::min(nearest, sphere::arc_length(p, test::vertex_position(icon, w)));
    EXPECT_LT(nearest, 1e-12) << "vertex " << v;
  }
  const Grid b3 = generate_icosahedral_grid(2, 3);
  EXPECT_EQ(b3.num_cells, icon.num_cells);
  EXPECT_EQ(b3.num_edges, icon.num_edges);
  EXPECT_EQ(b3.num_vertices, icon.num_vertices);
}

/// For every vertex of `g` the distance [m] to the nearest vertex of `icon`, and whether that
/// nearest-vertex map is one to one.
std::vector<double> nearest_vertex_distances(const Grid& g, const Grid& icon, bool& one_to_one) {
  std::vector<double> distance(static_cast<std::size_t>(g.num_vertices));
  std::vector<int> hits(static_cast<std::size_t>(icon.num_vertices), 0);
  std::vector<sphere::Vec3> q(static_cast<std::size_t>(icon.num_vertices));
  for (index_t w = 0; w < icon.num_vertices; ++w) q[w] = test::vertex_position(icon, w);
  for (index_t v = 0; v < g.num_vertices; ++v) {
    const auto p = test::vertex_position(g, v);
    // The nearest vertex has the largest dot product; its arc is then computed accurately.
    const auto which = static_cast<std::size_t>(
        std::max_element(q.begin(), q.end(),
                         [&](const sphere::Vec3& a, const sphere::Vec3& b) {
                           return sphere::dot(a, p) < sphere::dot(b, p);
                         }) -
        q.begin());
    distance[v] = sphere::arc_length(p, q[which]) * icon.sphere_radius;
    ++hits[which];
  }
  one_to_one = std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; });
  return distance;
}

TEST(IcosahedralGenerator, SpringDynamicsReproducesIconR02B03) {
  // ICON's R02B03 grid was optimised by spring dynamics after each bisection (ICON's grid
  // generator, itype_optimize = 4, beta_spring = 0.9). Our default reproduces every vertex of
  // the file: measured 3.9e-9 m on average and 1.35e-8 m at most (a few units in the last place
  // of the file's radians); the bound leaves room for other compilers' rounding. Without
  // optimisation the bisection points are up to 94 km away; beta 0.89 or 0.91 gives 2.3 km,
  // running the springs to rest (stop_ratio 1e-8) 440 m.
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  const Grid icon = read_icon_grid(path);
  bool one_to_one = false;
  const std::vector<double> d =
      nearest_vertex_distances(generate_icosahedral_grid(2, 3), icon, one_to_one);
  EXPECT_TRUE(one_to_one);
  const double worst = *std::max_element(d.begin(), d.end());
  std::printf("[ R02B03   ] generated R2B3 vs file: largest vertex distance %.2e m\n", worst);
  EXPECT_LT(worst, 1e-6);

  const std::vector<double> plain = nearest_vertex_distances(
      generate_icosahedral_grid(2, 3, earth_radius, GridOptimization::none()), icon, one_to_one);
  EXPECT_TRUE(one_to_one);
  EXPECT_GT(*std::max_element(plain.begin(), plain.end()), 90e3);
}

}  // namespace
}  // namespace icondiff
