#!/usr/bin/python3
"""Plots icondiff output: a field of a UGRID output file on a longitude-latitude map, or the
per-stencil times of a timer report.

  plot_icondiff.py field OUTPUT.nc --var theta_v --level 64 [--time -1] -o field.png
  plot_icondiff.py timers TIMERS.json [--compare OTHER.json] [--labels A B] -o timers.png
  plot_icondiff.py benchmark granule_benchmark.json [--model kernel] [--kernels] -o bench.png
  plot_icondiff.py jw DYNAMICS_OUTPUT.nc --days 7 8 9 -o jw.png [--table jw.json]

field:  cell fields are drawn as their triangles (matplotlib tripcolor over the UGRID
        face_node_connectivity), edge fields as dots at the edge midpoints. Levels count from
        the model top (0) as in ICON; negative indices count from the surface (-1 = lowest).
timers: horizontal bars of the median time per call ("latency" value, ms) of every timer in a
        "bencher" JSON report (icondiff's, or ICON4Py's scripts/data/bencher=...=OPENACC.json),
        with the min-max range as error bars; keys starting with "_" are metadata. --compare adds
        a second report's bars beside the first's, for the timers both have.
benchmark: the ratios to STREAM of perf_tests/granule_benchmark.py's granule_benchmark.json: one
        panel per case (grid, levels, threads), a bar per strategy / loop schedule / level block,
        the build variants side by side; by the ≈276 B minimum (default) or the kernel byte
        model (--model kernel). --kernels draws every kernel's ratio instead (per strategy).
jw:     the Jablonowski-Williamson (2006) figures of a dynamics run (icondiff run --output with
        daily output): surface pressure and the 850 hPa temperature over 0-360 E, 0-90 N at the
        given days, as JW06's Figs. 5-6 draw them, and the numbers to compare with the
        literature (minimum surface pressure and where it is, the 850 hPa temperature range) on
        stdout and, with --table, as JSON. T850: T = theta_v * exner and p = p0 * exner^(cpd/rd)
        of each column, linear in ln p between the two levels around 850 hPa (dry: theta_v is
        theta).

Needs Python 3 with numpy and matplotlib, and netCDF4 for `field` (Debian: python3-numpy,
python3-matplotlib, python3-netcdf4). See docs/user/output.md.
"""

import argparse
import json
import math
import os
import sys
import textwrap


class PlotError(Exception):
    """A problem with the input that the user can fix; reported without a traceback."""


def import_or_fail(module, package):
    try:
        return __import__(module)
    except ImportError:
        raise PlotError(f"this needs the Python module '{module}' (Debian package {package})")


def pyplot():
    matplotlib = import_or_fail("matplotlib", "python3-matplotlib")
    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    return plt


# ---- field -----------------------------------------------------------------------------------


def wrap_longitudes(lon, centre):
    """Longitudes (degrees) shifted into [centre - 180, centre + 180)."""
    np = import_or_fail("numpy", "python3-numpy")
    return centre + np.mod(lon - centre + 180.0, 360.0) - 180.0


def circular_mean_degrees(lon):
    np = import_or_fail("numpy", "python3-numpy")
    r = np.radians(lon)
    return math.degrees(math.atan2(np.sin(r).mean(), np.cos(r).mean()))


def split_dimensions(ds, var):
    """(time dimension or None, vertical dimension or None, horizontal dimension) of a field."""
    time_dim = vertical_dim = None
    horizontal = var.dimensions[-1]
    for d in var.dimensions[:-1]:
        if d == "time" or ds.dimensions[d].isunlimited():
            time_dim = d
        else:
            vertical_dim = d
    return time_dim, vertical_dim, horizontal


def field_slice(ds, name, level, time):
    """The 1-D values of `name` at (time index, level index), and a description of where."""
    np = import_or_fail("numpy", "python3-numpy")
    if name not in ds.variables:
        fields = sorted(v for v, x in ds.variables.items()
                        if hasattr(x, "location") and len(x.dimensions) > 1)
        raise PlotError(f"no variable '{name}' in {ds.filepath()} (fields: {', '.join(fields)})")
    var = ds[name]
    time_dim, vertical_dim, _ = split_dimensions(ds, var)
    index = []
    where = []
    if time_dim is not None:
        n = len(ds.dimensions[time_dim])
        if not -n <= time < n:
            raise PlotError(f"time index {time} is out of range: {ds.filepath()} has {n} times")
        index.append(time)
        t = time % n
        if "time" in ds.variables:
            value = float(ds["time"][t])
            units = getattr(ds["time"], "units", "")
            where.append(f"t = {value:g} s" if units.startswith("seconds") else f"time {value:g}")
    if vertical_dim is not None:
        n = len(ds.dimensions[vertical_dim])
        if not -n <= level < n:
            raise PlotError(
                f"level {level} is out of range: '{name}' has {n} levels ({vertical_dim}, 0 = top)")
        index.append(level)
        k = level % n
        text = f"level {k}"
        if vertical_dim in ds.variables:
            text += f" ({float(ds[vertical_dim][k]):.0f} m)"
        where.append(text)
    values = var[tuple(index)]
    if np.ma.getmaskarray(values).all():
        raise PlotError(f"'{name}' holds only fill values at {', '.join(where)} (not written there)")
    return values, ", ".join(where)


def face_triangles(ds, mesh, cell_centres_lon, centre_lon):
    """Per-face triangles (x, y, triangles, face index of each triangle) in degrees, each face
    with its own copy of its nodes so it can be moved across the date line on its own. A face
    touching a pole becomes a quadrilateral reaching the pole along both of its other vertices'
    meridians (two triangles), as it looks on a longitude-latitude map."""
    np = import_or_fail("numpy", "python3-numpy")
    face_nodes_var = ds[mesh.face_node_connectivity]
    start = int(getattr(face_nodes_var, "start_index", 0))
    face_nodes = np.ma.filled(face_nodes_var[:], -1).astype(np.int64) - start
    if face_nodes.shape[1] != 3 or (face_nodes < 0).any():
        raise PlotError("only triangular meshes are supported (ICON's)")
    node_lon_name, node_lat_name = mesh.node_coordinates.split()
    node_lon, node_lat = ds[node_lon_name][:], ds[node_lat_name][:]
    lon = np.asarray(node_lon)[face_nodes]
    lat = np.asarray(node_lat)[face_nodes]
    # Each face next to its centre, then the whole map around `centre_lon`.
    ref = wrap_longitudes(cell_centres_lon, centre_lon)
    lon = ref[:, None] + wrap_longitudes(lon - ref[:, None], 0.0)
    pole_faces = np.nonzero((np.abs(lat) > 89.999).any(axis=1))[0]
    regular = np.setdiff1d(np.arange(face_nodes.shape[0]), pole_faces)
    xs = [lon[regular].ravel()]
    ys = [lat[regular].ravel()]
    tris = [np.arange(3 * len(regular)).reshape(-1, 3)]
    owners = [regular]
    n = 3 * len(regular)
    for f in pole_faces:
        p = int(np.argmax(np.abs(lat[f]) > 89.999))
        a, b = (p + 1) % 3, (p + 2) % 3
        xs.append(np.array([lon[f, a], lon[f, b], lon[f, b], lon[f, a]]))
        ys.append(np.array([lat[f, a], lat[f, b], lat[f, p], lat[f, p]]))
        tris.append(np.array([[n, n + 1, n + 2], [n, n + 2, n + 3]]))
        owners.append(np.array([f, f]))
        n += 4
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(tris), np.concatenate(owners)


def plot_field(args):
    np = import_or_fail("numpy", "python3-numpy")
    netCDF4 = import_or_fail("netCDF4", "python3-netcdf4")
    plt = pyplot()
    try:
        ds = netCDF4.Dataset(args.file)
    except (OSError, RuntimeError) as error:
        raise PlotError(f"cannot read {args.file}: {error}")
    with ds:
        # Only UGRID output files (icondiff run --output) carry a mesh to draw on; an ICON grid
        # file has fields (cell_area, ...) but no mesh topology.
        meshes = [v for v in ds.variables.values()
                  if getattr(v, "cf_role", None) == "mesh_topology"]
        if not meshes:
            raise PlotError(f"{args.file} is not an icondiff UGRID output file (no mesh_topology "
                            "variable): `field` draws the files of `icondiff run --output`")
        values, where = field_slice(ds, args.var, args.level, args.time)
        var = ds[args.var]
        location = getattr(var, "location", None)
        if location is None:
            location = "edge" if var.dimensions[-1] == "nedges" else "face"
        mesh_name = getattr(var, "mesh", None)
        if mesh_name is None or mesh_name not in ds.variables:
            raise PlotError(f"'{args.var}' in {args.file} is not a field on the mesh (no 'mesh' "
                            "attribute naming one)")
        mesh = ds[mesh_name]
        coordinates = (mesh.face_coordinates if location == "face" else
                       mesh.edge_coordinates if location == "edge" else mesh.node_coordinates)
        point_lon_name, point_lat_name = coordinates.split()
        point_lon = np.asarray(ds[point_lon_name][:], dtype=float)
        point_lat = np.asarray(ds[point_lat_name][:], dtype=float)
        limited_area = bool(int(getattr(ds, "limited_area", 0))) or \
            np.ptp(point_lat) < 150.0
        centre_lon = circular_mean_degrees(point_lon) if limited_area else 0.0
        values = np.ma.masked_invalid(values)

        vmin, vmax = args.vmin, args.vmax
        low, high = float(values.min()), float(values.max())
        cmap = args.cmap
        if cmap is None:
            # Signed fields (winds, divergence, gradients) get a diverging map centred on 0.
            if low < 0.0 < high:
                cmap = "RdBu_r"
                bound = max(-low, high)
                vmin = -bound if vmin is None else vmin
                vmax = bound if vmax is None else vmax
            else:
                cmap = "viridis"

        width = 11.0 if not limited_area else 8.0
        fig, ax = plt.subplots(figsize=(width, 5.8 if not limited_area else 7.0))
        if location == "face":
            x, y, tris, owners = face_triangles(ds, mesh, point_lon, centre_lon)
            colours = np.ma.filled(values.astype(float), np.nan)[owners]
            if not limited_area:
                # Faces pushed past ±180° by the date line show up again on the other side.
                east = np.nonzero(x[tris].max(axis=1) > 180.0)[0]
                west = np.nonzero(x[tris].min(axis=1) < -180.0)[0]
                extra_x, extra_y, extra_t, extra_c = [], [], [], []
                base = len(x)
                for faces, shift in ((east, -360.0), (west, 360.0)):
                    for t in faces:
                        extra_x.extend(x[tris[t]] + shift)
                        extra_y.extend(y[tris[t]])
                        extra_t.append((base, base + 1, base + 2))
                        extra_c.append(colours[t])
                        base += 3
                if extra_t:
                    x = np.concatenate([x, np.array(extra_x)])
                    y = np.concatenate([y, np.array(extra_y)])
                    tris = np.concatenate([tris, np.array(extra_t)])
                    colours = np.concatenate([colours, np.array(extra_c)])
            mappable = ax.tripcolor(x, y, tris, facecolors=colours, cmap=cmap, vmin=vmin,
                                    vmax=vmax, edgecolors="face", linewidth=0.2)
        else:
            lon = wrap_longitudes(point_lon, centre_lon)
            size = min(30.0, max(0.3, 4.0e4 / len(lon)))
            mappable = ax.scatter(lon, point_lat, c=np.ma.filled(values.astype(float), np.nan),
                                  s=size, cmap=cmap, vmin=vmin, vmax=vmax, linewidths=0,
                                  marker="o")
        if limited_area:
            lon = wrap_longitudes(point_lon, centre_lon)
            margin = 0.03 * max(np.ptp(lon), np.ptp(point_lat))
            ax.set_xlim(lon.min() - margin, lon.max() + margin)
            ax.set_ylim(point_lat.min() - margin, point_lat.max() + margin)
        else:
            ax.set_xlim(-180.0, 180.0)
            ax.set_ylim(-90.0, 90.0)
            ax.set_xticks(range(-180, 181, 60))
            ax.set_yticks(range(-90, 91, 30))
        ax.set_aspect("equal")
        ax.set_xlabel("longitude (°E)")
        ax.set_ylabel("latitude (°N)")
        long_name = getattr(var, "long_name", args.var)
        units = getattr(var, "units", "")
        fig.colorbar(mappable, ax=ax, shrink=0.8, label=f"{args.var} [{units}]")
        grid_name = getattr(ds, "grid_name", "")
        title = args.title or f"{long_name}\n{args.var}, {where}" + \
            (f", grid {grid_name}" if grid_name else "")
        ax.set_title(title, fontsize=10)
        fig.tight_layout()
        fig.savefig(args.output, dpi=args.dpi)
        plt.close(fig)
    print(f"wrote {args.output}: {args.var} ({location}s) at {where}: "
          f"min {low:.6g}, max {high:.6g} {units}")


# ---- timers ----------------------------------------------------------------------------------


def read_timers(path, metric):
    """{timer: (value, lower, upper, calls)} in ms from a bencher-style JSON report."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        raise PlotError(f"cannot read timer report {path}: {error}")
    if not isinstance(report, dict):
        raise PlotError(f"timer report {path}: expected a JSON object of timers")
    timers = {}
    for name, entry in report.items():
        if name.startswith("_"):
            continue  # metadata
        measure = entry.get(metric) if isinstance(entry, dict) else None
        value = measure.get("value") if isinstance(measure, dict) else None
        if not isinstance(value, (int, float)):
            raise PlotError(f"timer report {path}: timer '{name}' has no numeric {metric}.value")
        lower = measure.get("lower_value", value)
        upper = measure.get("upper_value", value)
        calls = entry.get("num_calls", {}).get("value") if isinstance(entry.get("num_calls"),
                                                                        dict) else None
        timers[name] = (float(value), float(lower), float(upper), calls)
    if not timers:
        raise PlotError(f"timer report {path} holds no timers")
    return timers, report.get("_metadata", {})


def plot_timers(args):
    np = import_or_fail("numpy", "python3-numpy")
    plt = pyplot()
    if len(args.file) > 2 or (len(args.file) == 2 and args.compare):
        raise PlotError("timers draws one report, or two side by side (FILE [FILE] or --compare)")
    reports = [read_timers(args.file[0], args.metric)]
    files = [args.file[0]]
    if len(args.file) == 2:
        args.compare = args.file[1]
    if args.compare:
        reports.append(read_timers(args.compare, args.metric))
        files.append(args.compare)
    labels = args.labels or [os.path.splitext(os.path.basename(f))[0] for f in files]
    if len(labels) != len(files):
        raise PlotError(f"--labels needs {len(files)} names, got {len(labels)}")
    names = set(reports[0][0])
    for timers, _ in reports[1:]:
        names &= set(timers)
    if not names:
        raise PlotError(f"no timers in common between {' and '.join(files)}")
    names = sorted(names, key=lambda n: reports[0][0][n][0], reverse=True)
    if args.top:
        names = names[:args.top]

    n, m = len(names), len(reports)
    fig, ax = plt.subplots(figsize=(10.0, 1.6 + 0.38 * n * (1 if m == 1 else 1.6)))
    height = 0.8 / m
    positions = np.arange(n)
    colours = ["tab:blue", "tab:orange"]
    for j, (timers, _) in enumerate(reports):
        value = np.array([timers[k][0] for k in names])
        lower = np.array([timers[k][1] for k in names])
        upper = np.array([timers[k][2] for k in names])
        err = np.vstack([np.clip(value - lower, 0, None), np.clip(upper - value, 0, None)])
        y = positions - 0.4 + height * (j + 0.5)
        ax.barh(y, value, height=height, xerr=err if err.any() else None, color=colours[j % 2],
                label=labels[j], error_kw={"elinewidth": 0.8, "capsize": 2, "alpha": 0.6})
        # The value beside the bar, past the end of its error bar.
        for yy, v, u in zip(y, value, np.maximum(value, upper)):
            ax.annotate(f"{v:.3g}", (u, yy), xytext=(3, 0), textcoords="offset points",
                        va="center", fontsize=7)
    tick_labels = list(names)
    if m == 2:
        # The ratio second / first under each name: > 1 means the first report is faster.
        for i, k in enumerate(names):
            first, second = reports[0][0][k][0], reports[1][0][k][0]
            ratio = f"{second / first:.2f}" if first > 0 else "inf"
            tick_labels[i] = f"{k}\n{labels[1]} / {labels[0]} = {ratio}"
    ax.set_yticks(positions)
    ax.set_yticklabels(tick_labels, fontsize=8)
    ax.margins(x=0.08)
    ax.invert_yaxis()
    if args.log:
        ax.set_xscale("log")
    what = "median time per call" if args.metric == "latency" else "total time"
    ax.set_xlabel(f"{what} [ms]")
    metadata = reports[0][1]
    # A short subtitle from the keys that identify a run (the full metadata does not fit).
    shown = ("grid", "nlev", "execution_space", "concurrency", "strategy", "date")
    details = ", ".join(f"{k} {metadata[k]}" for k in shown
                        if isinstance(metadata, dict) and k in metadata)
    # Wrapped, so a long grid path or date does not run off the figure.
    details = "\n".join(textwrap.wrap(details, 90))
    ax.set_title(args.title or f"{what} per timer" + (f"\n{details}" if details else ""),
                 fontsize=10, wrap=True)
    if m > 1:
        ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    plt.close(fig)
    print(f"wrote {args.output}: {n} timers from {' and '.join(files)}")


# ---- benchmark -------------------------------------------------------------------------------


def read_benchmark(path):
    """The cases of a granule_benchmark.json (perf_tests/granule_benchmark.py) that ran."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        raise PlotError(f"cannot read benchmark report {path}: {error}")
    if not isinstance(report, dict) or not isinstance(report.get("cases"), list):
        raise PlotError(f"{path} is not a granule_benchmark.json (no list of cases)")
    cases = [c for c in report["cases"] if isinstance(c, dict) and c.get("status") == "ok"]
    if not cases:
        raise PlotError(f"{path} holds no case that ran (all skipped or failed)")
    return report, cases


def plot_benchmark(args):
    np = import_or_fail("numpy", "python3-numpy")
    plt = pyplot()
    import matplotlib.patches as patches

    report, cases = read_benchmark(args.file)
    variants = []
    for c in cases:
        if c["variant"] not in variants:
            variants.append(c["variant"])
    panels = []  # (grid, nlev, threads) in the order of the report
    for c in cases:
        key = (c["grid"], c["nlev"], c["threads"])
        if key not in panels:
            panels.append(key)
    field = "min_model_of_stream" if args.model == "minimum" else "kernel_model_of_stream"
    model_text = "≈276 B minimum" if args.model == "minimum" else "kernel byte model"

    def bars_of(case):
        """{bar name: ratio} of one case, in the report's order."""
        if args.kernels:
            bars = {}
            strategies = sorted(case.get("kernels", {}), key=lambda s: s != "unfused")
            for strategy in strategies:
                steps = case["kernels"][strategy]
                # Call order as granule_benchmark.py recorded it; the whole call last.
                call_order = report["metadata"].get("kernel_order", []) + ["run"]
                order = sorted(steps, key=lambda s: (call_order.index(s)
                                                     if s in call_order else 99, s))
                for step in order:
                    q = steps[step]
                    if isinstance(q, dict) and q.get("of_stream") is not None:
                        name = "whole call (fenced per kernel)" if step == "run" else step
                        bars[f"{strategy}: {name}"] = q["of_stream"]
            return bars
        bars = {}
        for r in case.get("granule", []):
            if r.get(field) is None:
                continue
            kb = f" k{r['kblock']}" if r.get("kblock", "-") != "-" else ""
            bars[f"{r['strategy']} {r['schedule']}{kb}"] = r[field]
        return bars

    ncols = 1
    nrows = len(panels)
    names_per_panel = []
    for key in panels:
        names = []
        for c in cases:
            if (c["grid"], c["nlev"], c["threads"]) == key:
                names += [n for n in bars_of(c) if n not in names]
        names_per_panel.append(names)
    longest = max(len(n) for n in names_per_panel)
    if args.kernels:
        figsize = (11.0, nrows * (1.2 + 0.3 * longest * max(1, len(variants)) ** 0.5))
    else:
        figsize = (max(8.0, 0.3 * longest * max(1, len(variants)) ** 0.5 + 2.0), nrows * 4.0)
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize, squeeze=False)
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]
    for index, key in enumerate(panels):
        ax = axes[index // ncols][index % ncols]
        names = names_per_panel[index]
        positions = np.arange(len(names))
        width = 0.8 / len(variants)
        stream_text = []
        handles = []
        for j, variant in enumerate(variants):
            match = [c for c in cases
                     if (c["grid"], c["nlev"], c["threads"]) == key and c["variant"] == variant]
            if not match:
                continue
            case = match[0]
            bars = bars_of(case)
            values = np.array([100.0 * bars.get(n, np.nan) for n in names])
            offset = -0.4 + width * (j + 0.5)
            if case.get("stream_GBs"):
                stream_text.append(f"{variant} {case['stream_GBs']:.1f} GB/s")
            if args.kernels:
                ax.barh(positions + offset, values, height=width, color=colours[j % 6])
                handles.append(patches.Patch(color=colours[j % 6], label=variant))
            else:
                # One colour per variant; the unfused bars lighter than the fused ones.
                alpha = [0.55 if n.startswith("unfused") else 1.0 for n in names]
                for x, v, a in zip(positions + offset, values, alpha):
                    ax.bar(x, v, width=width, color=colours[j % 6], alpha=a)
                handles.append(patches.Patch(color=colours[j % 6], label=variant))
        grid, nlev, threads = key
        title = f"{grid} × {nlev} levels, {threads} thread{'s' if threads != 1 else ''}"
        if stream_text:
            title += "\nSTREAM triad: " + ", ".join(stream_text)
        ax.set_title(title, fontsize=9)
        if args.kernels:
            ax.set_yticks(positions)
            ax.set_yticklabels(names, fontsize=7)
            ax.invert_yaxis()
            ax.set_xlabel("of STREAM (kernel byte model) [%]")
            ax.grid(axis="x", alpha=0.3)
        else:
            ax.set_xticks(positions)
            ax.set_xticklabels(names, rotation=90, fontsize=7)
            ax.set_ylabel(f"of STREAM ({model_text}) [%]")
            ax.grid(axis="y", alpha=0.3)
        if len(handles) > 1:
            ax.legend(handles=handles, fontsize=7)
    what = "kernels" if args.kernels else "whole granule"
    fig.suptitle(args.title or f"Diffusion granule: effective bandwidth over STREAM, {what}"
                 + (" (lighter: unfused)" if not args.kernels else ""), fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(args.output, dpi=args.dpi)
    plt.close(fig)
    print(f"wrote {args.output}: {len(panels)} case(s), {len(variants)} variant(s) "
          f"from {args.file}")


# ---- jw --------------------------------------------------------------------------------------

P0REF, RD, CPD = 100000.0, 287.04, 1004.64
WAVE_LATITUDES = (25.0, 75.0)  # degrees north: where JW06's wave grows and breaks


def temperature_at_pressure(np, theta_v, exner, target_pa):
    """Per column (levels first, top to bottom), T at pressure `target_pa`, linear in ln p between
    the two levels around it; NaN where the column does not reach it."""
    temperature = theta_v * exner
    pressure = P0REF * exner ** (CPD / RD)
    levels, cells = pressure.shape
    out = np.full(cells, np.nan)
    # Pressure increases downwards: the first level at or below the target pressure.
    below = np.argmax(pressure >= target_pa, axis=0)
    ok = (pressure[-1] >= target_pa) & (below > 0)
    k1, k0 = below[ok], below[ok] - 1
    idx = np.nonzero(ok)[0]
    lp0, lp1 = np.log(pressure[k0, idx]), np.log(pressure[k1, idx])
    w = (np.log(target_pa) - lp0) / (lp1 - lp0)
    out[idx] = (1 - w) * temperature[k0, idx] + w * temperature[k1, idx]
    return out


def plot_jw(args):
    np = import_or_fail("numpy", "python3-numpy")
    netCDF4 = import_or_fail("netCDF4", "python3-netcdf4")
    plt = pyplot()
    import matplotlib.tri as mtri
    try:
        ds = netCDF4.Dataset(args.file)
    except (OSError, RuntimeError) as error:
        raise PlotError(f"cannot read {args.file}: {error}")
    with ds:
        for v in ("pres_sfc", "theta_v", "exner", "clon", "clat", "time"):
            if v not in ds.variables:
                raise PlotError(f"{args.file} has no '{v}': `jw` reads the output of a dynamics "
                                "run (icondiff run --output, icondiff 0.2 or later)")
        times = np.asarray(ds["time"][:], dtype=float)
        lon = np.mod(np.asarray(ds["clon"][:], dtype=float), 360.0)
        lat = np.asarray(ds["clat"][:], dtype=float)
        rows = []
        for day in args.days:
            t = np.nonzero(np.abs(times - day * 86400.0) < 1.0)[0]
            if len(t) == 0:
                have = ", ".join(f"{x / 86400:g}" for x in times)
                raise PlotError(f"{args.file} has no output at day {day:g} (days: {have}); run "
                                "with --output-every N so that N x dtime is a day")
            t = int(t[0])
            ps = np.asarray(ds["pres_sfc"][t], dtype=float) / 100.0
            t850 = temperature_at_pressure(np, np.asarray(ds["theta_v"][t], dtype=float),
                                           np.asarray(ds["exner"][t], dtype=float), 85000.0)
            i = int(np.argmin(ps))
            north = lat > 0
            # The wave's low: the minimum over JW06's storm track (25-75 N), away from the polar
            # minimum that the global one finds before the wave has grown.
            track = np.nonzero((lat >= WAVE_LATITUDES[0]) & (lat <= WAVE_LATITUDES[1]))[0]
            j = int(track[np.argmin(ps[track])])
            rows.append({"day": day, "min_pres_sfc_hpa": float(ps[i]),
                         "min_lon_deg": float(lon[i]), "min_lat_deg": float(lat[i]),
                         "max_pres_sfc_hpa": float(ps.max()),
                         "t850_min_k": float(np.nanmin(t850[north])),
                         "t850_max_k": float(np.nanmax(t850[north])),
                         "wave_min_pres_sfc_hpa": float(ps[j]), "wave_lon_deg": float(lon[j]),
                         "wave_lat_deg": float(lat[j])})
            rows[-1]["_fields"] = (ps, t850)
        # Both fields over the northern hemisphere, 0-360 E, with the seam's points repeated.
        keep = lat > -5.0
        x = np.concatenate([lon[keep], lon[keep] - 360.0, lon[keep] + 360.0])
        y = np.concatenate([lat[keep]] * 3)
        triangulation = mtri.Triangulation(x, y)
        fig, axes = plt.subplots(len(rows), 2, figsize=(13, 2.9 * len(rows)), squeeze=False)
        for r, row in enumerate(rows):
            ps, t850 = row.pop("_fields")
            for c, (values, label, levels, cmap) in enumerate((
                    (ps, "surface pressure (hPa)", np.arange(940, 1025, 5), "viridis"),
                    (t850, "850 hPa temperature (K)", np.arange(220, 310, 5), "RdBu_r"))):
                ax = axes[r][c]
                z = np.concatenate([values[keep]] * 3)
                mappable = ax.tricontourf(triangulation, np.ma.masked_invalid(z), levels=levels,
                                          cmap=cmap, extend="both")
                ax.tricontour(triangulation, np.ma.masked_invalid(z), levels=levels,
                              colors="k", linewidths=0.3)
                ax.set_xlim(0, 360)
                ax.set_ylim(0, 90)
                ax.set_xticks(range(0, 361, 60))
                ax.set_yticks(range(0, 91, 30))
                ax.set_aspect("equal")
                ax.set_title(f"day {row['day']:g}: {label}", fontsize=9)
                fig.colorbar(mappable, ax=ax, shrink=0.8)
        fig.suptitle(args.title or f"Jablonowski-Williamson baroclinic wave, "
                     f"{getattr(ds, 'grid_name', '')} ({args.file})", fontsize=10)
        fig.tight_layout()
        fig.savefig(args.output, dpi=args.dpi)
        plt.close(fig)
    for row in rows:
        print(f"day {row['day']:g}: min surface pressure {row['min_pres_sfc_hpa']:.2f} hPa at "
              f"{row['min_lon_deg']:.1f} E {row['min_lat_deg']:.1f} N; wave low (25-75 N) "
              f"{row['wave_min_pres_sfc_hpa']:.2f} hPa at {row['wave_lon_deg']:.1f} E "
              f"{row['wave_lat_deg']:.1f} N; T850 "
              f"{row['t850_min_k']:.1f} .. {row['t850_max_k']:.1f} K (N hemisphere)")
    if args.table:
        with open(args.table, "w") as f:
            json.dump(rows, f, indent=2)
    print(f"wrote {args.output}")


# ---- command line ----------------------------------------------------------------------------


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot_icondiff.py", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    field = sub.add_parser("field", help="map of one level of a cell or edge field")
    field.add_argument("file", help="UGRID output file of icondiff")
    field.add_argument("--var", required=True, help="field name, e.g. theta_v, vn, w, div_ic")
    field.add_argument("--level", type=int, default=-1,
                       help="level index, 0 = model top, negative from the surface (default -1)")
    field.add_argument("--time", type=int, default=-1,
                       help="time index, negative from the end (default -1: the last)")
    field.add_argument("--cmap", help="matplotlib colormap (default: RdBu_r for signed fields, "
                       "else viridis)")
    field.add_argument("--vmin", type=float, help="lower end of the colour scale")
    field.add_argument("--vmax", type=float, help="upper end of the colour scale")
    field.add_argument("--title", help="plot title")
    field.add_argument("--dpi", type=int, default=150)
    field.add_argument("-o", "--output", required=True, help="PNG (or PDF, SVG) to write")

    timers = sub.add_parser("timers", help="bar chart of per-timer median times")
    timers.add_argument("file", nargs="+",
                        help="timer report (bencher JSON); a second one is drawn beside it")
    timers.add_argument("--compare", help="a second report, drawn beside the first")
    timers.add_argument("--labels", nargs="+", help="legend names of the reports")
    timers.add_argument("--metric", choices=["latency", "latency_total"], default="latency",
                        help="latency: median per call (default); latency_total: total time")
    timers.add_argument("--top", type=int, help="only the N slowest timers")
    timers.add_argument("--log", action="store_true", help="logarithmic time axis")
    timers.add_argument("--title", help="plot title")
    timers.add_argument("--dpi", type=int, default=150)
    timers.add_argument("-o", "--output", required=True, help="PNG (or PDF, SVG) to write")

    benchmark = sub.add_parser("benchmark", help="ratios to STREAM of a granule_benchmark.json "
                               "(perf_tests/granule_benchmark.py)")
    benchmark.add_argument("file", help="granule_benchmark.json")
    benchmark.add_argument("--model", choices=["minimum", "kernel"], default="minimum",
                           help="bytes by the ≈276 B per cell-level minimum (default) or by the "
                           "kernel byte model")
    benchmark.add_argument("--kernels", action="store_true",
                           help="every kernel's ratio (kernel byte model) instead of the whole "
                           "granule's")
    benchmark.add_argument("--title", help="plot title")
    benchmark.add_argument("--dpi", type=int, default=150)
    benchmark.add_argument("-o", "--output", required=True, help="PNG (or PDF, SVG) to write")

    jw = sub.add_parser("jw", help="Jablonowski-Williamson figures and numbers of a dynamics run")
    jw.add_argument("file", help="UGRID output of icondiff run (the dynamics) with daily times")
    jw.add_argument("--days", type=float, nargs="+", default=[7, 8, 9],
                    help="model days to draw (default 7 8 9)")
    jw.add_argument("--table", help="also write the numbers as JSON here")
    jw.add_argument("--title", help="plot title")
    jw.add_argument("--dpi", type=int, default=120)
    jw.add_argument("-o", "--output", required=True, help="PNG (or PDF, SVG) to write")

    args = parser.parse_args(argv)
    try:
        if args.command == "jw":
            plot_jw(args)
        elif args.command == "field":
            plot_field(args)
        elif args.command == "benchmark":
            plot_benchmark(args)
        else:
            plot_timers(args)
    except PlotError as error:
        print(f"plot_icondiff.py: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
