#!/usr/bin/python3
"""Checks icondiff's UGRID output with netCDF4-python, independently of the C++ reader.

Usage: check_ugrid_output.py DIR, where DIR holds the files of ugrid_output_fixture:
grid.nc (the ICON grid file of the same grid), pattern.nc (two steps of the pattern values of
unit_tests/support/ugrid_pattern.hpp, the diagnostics only in the second), jw.nc and lam.nc.
Asserts the CF/UGRID attributes, dimensions and variables, that the connectivity matches the grid
file's, and that the values round-trip. Exit code 0 on success, 1 with a message on failure,
77 if numpy or netCDF4 is missing.
"""

import sys

try:
    import netCDF4
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the machine
    print(f"SKIP: {error} (Debian: python3-numpy python3-netcdf4)")
    sys.exit(77)

FIELDS = {
    # name: (pattern id, location, vertical dimension, CF standard_name or None, units)
    "vn": (1, "edge", "height", None, "m s-1"),
    "w": (2, "face", "height_2", "upward_air_velocity", "m s-1"),
    "theta_v": (3, "face", "height", None, "K"),
    "exner": (4, "face", "height", "dimensionless_exner_function", "1"),
    "div_ic": (5, "face", "height_2", "divergence_of_wind", "s-1"),
    "hdef_ic": (6, "face", "height_2", None, "s-2"),
    "dwdx": (7, "face", "height_2", None, "s-1"),
    "dwdy": (8, "face", "height_2", None, "s-1"),
}
DIAGNOSTICS = ("div_ic", "hdef_ic", "dwdx", "dwdy")


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def pattern(field_id, points, levels, step):
    """The formula of ugrid_pattern_value, as a (levels, points) array."""
    k = np.arange(levels)[:, None]
    i = np.arange(points)[None, :]
    return 1000.0 * field_id + 100.0 * step + k + 1e-4 * i


def zero_based(grid_table):
    """An ICON grid-file index table (slots, points), 1-based with -1/0 for missing, as
    (points, slots), 0-based with -1 for missing."""
    t = np.asarray(grid_table).T.astype(np.int64)
    return np.where(t > 0, t - 1, -1)


def check_mesh(ds, grid):
    mesh = ds["mesh"]
    expect(mesh.cf_role == "mesh_topology", "mesh:cf_role")
    expect(int(mesh.topology_dimension) == 2, "mesh:topology_dimension")
    for attribute in ("node_coordinates", "face_coordinates", "edge_coordinates"):
        for name in getattr(mesh, attribute).split():
            expect(name in ds.variables, f"mesh:{attribute} names a missing variable {name}")
    expected_roles = {
        "face_node_connectivity": ("ncells", "nv"),
        "edge_node_connectivity": ("nedges", "two"),
        "face_edge_connectivity": ("ncells", "nv"),
        "edge_face_connectivity": ("nedges", "two"),
        "face_face_connectivity": ("ncells", "nv"),
    }
    for role, dims in expected_roles.items():
        name = getattr(mesh, role)
        var = ds[name]
        expect(var.cf_role == role, f"{name}:cf_role is {var.cf_role}, expected {role}")
        expect(var.dimensions == dims, f"{name} has dimensions {var.dimensions}")
        expect(int(var.start_index) == 0, f"{name}:start_index")
    expect(mesh.face_dimension == "ncells" and mesh.edge_dimension == "nedges"
           and mesh.node_dimension == "nvertices", "mesh dimension attributes")

    # Against the ICON grid file of the same grid (1-based, (slots, points)).
    pairs = [
        ("face_node_connectivity", "vertex_of_cell"),
        ("edge_node_connectivity", "edge_vertices"),
        ("face_edge_connectivity", "edge_of_cell"),
        ("edge_face_connectivity", "adjacent_cell_of_edge"),
        ("face_face_connectivity", "neighbor_cell_index"),
    ]
    for role, grid_name in pairs:
        ours = np.ma.filled(ds[getattr(mesh, role)][:], -1)
        reference = zero_based(grid[grid_name][:])
        expect(np.array_equal(ours, reference), f"{role} differs from the grid file's {grid_name}")

    # Coordinates: degrees, the grid file's radians converted; bounds from the vertices.
    for ours, theirs, units in [("clon", "clon", "degrees_east"), ("clat", "clat", "degrees_north"),
                                ("vlon", "vlon", "degrees_east"), ("vlat", "vlat", "degrees_north"),
                                ("elon", "elon", "degrees_east"), ("elat", "elat", "degrees_north")]:
        expect(ds[ours].units == units, f"{ours}:units")
        expect(ds[ours].standard_name in ("longitude", "latitude"), f"{ours}:standard_name")
        expect(np.allclose(ds[ours][:], np.degrees(grid[theirs][:]), atol=1e-10),
               f"{ours} differs from the grid file")
    face_nodes = ds["mesh_face_nodes"][:]
    expect(np.array_equal(ds["clon_bnds"][:], ds["vlon"][:][face_nodes]), "clon_bnds")
    expect(np.array_equal(ds["clat_bnds"][:], ds["vlat"][:][face_nodes]), "clat_bnds")
    expect(ds["clon"].bounds == "clon_bnds" and ds["elat"].bounds == "elat_bnds", "bounds attributes")
    expect(np.allclose(ds["cell_area"][:], grid["cell_area"][:]), "cell_area")


def check_axes(ds, nlev):
    expect(ds.dimensions["time"].isunlimited(), "time is not the unlimited dimension")
    expect(ds["time"].units.startswith("seconds since "), "time:units")
    expect(ds["time"].calendar == "proleptic_gregorian", "time:calendar")
    height, height_2 = ds["height"][:], ds["height_2"][:]
    expect(len(height) == nlev and len(height_2) == nlev + 1, "height sizes")
    expect(np.all(np.diff(height_2) < 0) and np.all(np.diff(height) < 0),
           "heights must decrease from the top")
    expect(np.array_equal(ds["height_bnds"][:], np.stack([height_2[:-1], height_2[1:]], axis=1)),
           "height_bnds")
    for name in ("height", "height_2"):
        expect(ds[name].axis == "Z" and ds[name].units == "m" and ds[name].positive == "up",
               f"{name} attributes")


def check_fields(ds, with_values):
    ncells, nedges = len(ds.dimensions["ncells"]), len(ds.dimensions["nedges"])
    nsteps = len(ds.dimensions["time"])
    for name, (field_id, location, vertical, standard_name, units) in FIELDS.items():
        var = ds[name]
        points_dim = "nedges" if location == "edge" else "ncells"
        expect(var.dimensions == ("time", vertical, points_dim), f"{name} dimensions")
        expect(var.mesh == "mesh" and var.location == location, f"{name} UGRID attributes")
        expect(var.coordinates == ("elon elat" if location == "edge" else "clon clat"),
               f"{name}:coordinates")
        expect(var.units == units and var.long_name, f"{name} units/long_name")
        expect(getattr(var, "standard_name", None) == standard_name, f"{name}:standard_name")
        if not with_values:
            continue
        points = nedges if location == "edge" else ncells
        levels = len(ds.dimensions[vertical])
        data = var[:]
        for step in range(nsteps):
            if name in DIAGNOSTICS and step == 0:
                expect(np.ma.getmaskarray(data[step]).all(),
                       f"{name} step 0 should be all _FillValue (not given)")
                continue
            expect(not np.ma.getmaskarray(data[step]).any(), f"{name} step {step} has fill values")
            expect(np.array_equal(np.ma.getdata(data[step]), pattern(field_id, points, levels, step)),
                   f"{name} step {step} does not round-trip")


def check_pattern(directory):
    with netCDF4.Dataset(f"{directory}/pattern.nc") as ds, \
            netCDF4.Dataset(f"{directory}/grid.nc") as grid:
        expect(ds.Conventions == "CF-1.8 UGRID-1.0", "Conventions")
        expect(ds.getncattr("diffusion_nml:hdiff_order") == "5", "the caller's global attribute")
        expect(ds.getncattr("diffusion_nml:hdiff_efdt_ratio") == "24.0", "global attribute")
        expect(ds.icondiff_fixture == "pattern", "global attribute icondiff_fixture")
        expect(list(ds["time"][:]) == [0.0, 60.0], "time values")
        check_mesh(ds, grid)
        check_axes(ds, 4)
        check_fields(ds, with_values=True)


def check_jw(directory):
    with netCDF4.Dataset(f"{directory}/jw.nc") as ds:
        check_axes(ds, 20)
        check_fields(ds, with_values=False)
        theta_v, exner = ds["theta_v"][0], ds["exner"][0]
        temperature = theta_v * exner
        expect(150.0 < temperature.min() and temperature.max() < 320.0, "JW temperatures")
        expect(np.all(np.diff(exner, axis=0) > 0), "exner must increase downwards")
        vn = ds["vn"][0]
        expect(np.abs(vn).max() <= 36.0, "|vn| <= u0 + u_p")
        expect(np.all(ds["w"][0] == 0.0), "w = 0")
        expect(np.ma.getmaskarray(ds["div_ic"][:]).all(), "diagnostics not given: fill values")
        expect(not np.array_equal(ds["vn"][0], ds["vn"][1]), "the second step has noise on vn")
    with netCDF4.Dataset(f"{directory}/lam.nc") as ds:
        expect(int(ds.limited_area) == 1, "limited_area")
        edge_faces = ds["mesh_edge_faces"][:]
        expect(np.ma.getmaskarray(edge_faces)[:, 1].any(), "LAM boundary edges have one cell")
        expect(not np.ma.getmaskarray(edge_faces)[:, 0].any(), "every edge has a first cell")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    directory = sys.argv[1]
    try:
        check_pattern(directory)
        check_jw(directory)
    except CheckFailed as failure:
        print(f"FAIL: {failure}")
        return 1
    try:  # Optional: xarray, if installed, decodes the CF time axis.
        import xarray
    except ImportError:
        print("(xarray not installed: skipped its check)")
    else:
        with xarray.open_dataset(f"{directory}/pattern.nc") as ds:
            if ds["theta_v"].dims != ("time", "height", "ncells") or \
                    not str(ds["time"].values[1]).startswith("2000-01-01T00:01"):
                print(f"FAIL: xarray reads {ds['theta_v'].dims}, times {ds['time'].values}")
                return 1
        print("xarray reads the file")
    print("UGRID output checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
