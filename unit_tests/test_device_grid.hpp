// DeviceGrid: every table and geometry field on TEST_MEMSPACE equals the host Grid, and kernels
// on TEST_EXECSPACE read them. Compiled once per enabled backend.
#include "support/grid_files.hpp"
#include "support/tiny_grids.hpp"

#include <icondiff/grid/device_grid.hpp>
#include <icondiff/io/grid_file.hpp>

#include <gtest/gtest.h>

namespace icondiff {
namespace device_grid_test {

template <class View, class T>
void expect_table_equal(const View& device, const HostTable<T>& host, const char* name) {
  ASSERT_EQ(device.extent(0), host.rows()) << name;
  ASSERT_EQ(device.extent(1), host.cols()) << name;
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  for (std::size_t r = 0; r < host.rows(); ++r)
    for (std::size_t c = 0; c < host.cols(); ++c)
      ASSERT_EQ(mirror(r, c), host(r, c)) << name << " " << r << "," << c;
  EXPECT_EQ(device.label(), std::string("icondiff::grid::") + name);
}

template <class View>
void expect_vector_equal(const View& device, const std::vector<double>& host, const char* name) {
  ASSERT_EQ(device.extent(0), host.size()) << name;
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  for (std::size_t i = 0; i < host.size(); ++i) ASSERT_EQ(mirror(i), host[i]) << name << " " << i;
  EXPECT_EQ(device.label(), std::string("icondiff::grid::") + name);
}

void expect_device_grid_equals(const Grid& g) {
  const DeviceGrid<TEST_MEMSPACE> d(g);
  EXPECT_EQ(d.num_cells, g.num_cells);
  EXPECT_EQ(d.num_edges, g.num_edges);
  EXPECT_EQ(d.num_vertices, g.num_vertices);
  EXPECT_EQ(d.limited_area, g.limited_area);
  EXPECT_EQ(d.zones, g.zones);
  expect_table_equal(d.c2e, g.c2e, "c2e");
  expect_table_equal(d.c2v, g.c2v, "c2v");
  expect_table_equal(d.c2e2c, g.c2e2c, "c2e2c");
  expect_table_equal(d.c2e2co, g.c2e2co, "c2e2co");
  expect_table_equal(d.e2c, g.e2c, "e2c");
  expect_table_equal(d.e2v, g.e2v, "e2v");
  expect_table_equal(d.e2c2v, g.e2c2v, "e2c2v");
  expect_table_equal(d.e2c2e, g.e2c2e, "e2c2e");
  expect_table_equal(d.e2c2eo, g.e2c2eo, "e2c2eo");
  expect_table_equal(d.v2e, g.v2e, "v2e");
  expect_table_equal(d.v2c, g.v2c, "v2c");
  expect_table_equal(d.edge_cell_distance, g.edge_cell_distance, "edge_cell_distance");
  expect_table_equal(d.edge_vertex_distance, g.edge_vertex_distance, "edge_vertex_distance");
  expect_table_equal(d.cell_edge_orientation, g.cell_edge_orientation, "cell_edge_orientation");
  expect_table_equal(d.vertex_edge_orientation, g.vertex_edge_orientation,
                     "vertex_edge_orientation");
  expect_vector_equal(d.cell_area, g.cell_area, "cell_area");
  expect_vector_equal(d.dual_area, g.dual_area, "dual_area");
  expect_vector_equal(d.edge_length, g.edge_length, "edge_length");
  expect_vector_equal(d.dual_edge_length, g.dual_edge_length, "dual_edge_length");
  expect_vector_equal(d.primal_normal_east, g.primal_normal_east, "primal_normal_east");
  expect_vector_equal(d.primal_normal_north, g.primal_normal_north, "primal_normal_north");
  expect_vector_equal(d.dual_normal_east, g.dual_normal_east, "dual_normal_east");
  expect_vector_equal(d.dual_normal_north, g.dual_normal_north, "dual_normal_north");
  expect_vector_equal(d.tangent_orientation, g.tangent_orientation, "tangent_orientation");
  expect_vector_equal(d.cell_lon, g.cell_lon, "cell_lon");
  expect_vector_equal(d.vertex_lat, g.vertex_lat, "vertex_lat");

  // A kernel on the execution space gathers through the device tables: the area of each edge's
  // cells (missing cells count 0), compared with the same sum on the host.
  const auto e2c = d.e2c;
  const auto area = d.cell_area;
  double device_sum = 0;
  Kokkos::parallel_reduce(
      "icondiff::test::gather_cell_areas", Kokkos::RangePolicy<TEST_EXECSPACE>(0, d.num_edges),
      KOKKOS_LAMBDA(const int e, double& sum) {
        for (int k = 0; k < 2; ++k) {
          const index_t c = e2c(e, k);
          if (c != missing_index) sum += area(c);
        }
      },
      device_sum);
  double host_sum = 0;
  for (index_t e = 0; e < g.num_edges; ++e)
    for (int k = 0; k < 2; ++k)
      if (g.e2c(e, k) != missing_index) host_sum += g.cell_area[g.e2c(e, k)];
  EXPECT_NEAR(device_sum, host_sum, 1e-12 * host_sum);
}

TEST(TEST_CATEGORY, device_grid_equals_host_octahedron) {
  expect_device_grid_equals(test::make_octahedron_grid());
}

TEST(TEST_CATEGORY, device_grid_equals_host_global_r02b03) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::global_r02b03);
  expect_device_grid_equals(read_icon_grid(path));
}

TEST(TEST_CATEGORY, device_grid_equals_host_lam_r19b04) {
  ICONDIFF_REAL_GRID_OR_SKIP(path, test::lam_r19b04);
  expect_device_grid_equals(read_icon_grid(path));
}

}  // namespace device_grid_test
}  // namespace icondiff
