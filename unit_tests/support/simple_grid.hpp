// ICON4Py's SimpleGrid: the 18-cell doubly periodic test torus on which ICON4Py runs its stencil
// tests (model/common/src/icon4py/model/common/grid/simple.py), transcribed from
// diffusion_spec.md Appendix A and §1.5.
#pragma once

#include <icondiff/grid/grid.hpp>

namespace icondiff::test {

/// The 3×3-vertex torus: 18 cells, 27 edges, 9 vertices, no skip values, topology only (no
/// coordinates, lengths, areas or normals), `limited_area = false`.
///
/// Tables (all from spec Appendix A): c2e, e2c, e2v, e2c2v, c2v, c2e2c, c2e2co, v2e, v2c, e2c2e,
/// e2c2eo. **They deliberately break ICON's conventions**, exactly as SimpleGrid does:
///  * C2E2CO has the cell itself LAST (`0 -> (15,4,3,0)`); ICON grid files put it first;
///  * C2E2C is not aligned with C2E (slot j is not the cell across c2e[j]);
///  * E2C2V rows of edges 5 and 11 list the far vertices as (far of e2c[1], far of e2c[0])
///    (spec Addendum 11); every other row is [e2v0, e2v1, far(e2c0), far(e2c1)];
///  * E2C2EO is SimpleGrid's own table, which is NOT [self, E2C2E...] as the spec's Appendix A
///    says: self sits at slot 0, 1 or 2 (E2C2E/E2C2EO are not used by diffusion).
/// Every table was cross-checked entry by entry against simple.py at the spec's ICON4Py commit.
/// So do not call build_derived_connectivity (it would overwrite c2e2co/e2c2v/e2c2e/e2c2eo with
/// ICON-ordered tables) nor check_grid (it would reject the orderings above) on this grid, and
/// never feed it physical coefficients: only random ones, as ICON4Py's stencil tests do.
///
/// Zones are SimpleGrid's (`simple_start_index`/`simple_end_index`): every zone of every location
/// starts at 0, except HALO and HALO_LEVEL_2, which start at the size; every zone ends at the size.
/// So every stencil range is the whole array. (This includes END = [0, size); only its end is
/// meaningful.)
Grid make_simple_torus_grid();

}  // namespace icondiff::test
