#!/usr/bin/env python3
"""Checks that icondiff's layers include only the layers below them.

Scans every `#include <icondiff/...>` and every quoted `#include "..."` in include/icondiff/**
and src/** and prints one line per include that crosses the layering the wrong way:

    src/grid/foo.cpp:12: layer grid may not include layer geometry (icondiff/geometry/bar.hpp)

Exit status: 0 if the tree is clean, 1 if there are violations, 2 on usage errors.

    scripts/check_layers.py [--root REPO]   check a source tree (default: this script's repo)
    scripts/check_layers.py --self-test     check the checker on synthetic trees

A file's layer is its folder: include/icondiff/<layer>/... and src/<layer>/... (a src/ file follows
the same rule as its public headers). The top-level headers kokkos_compat.hpp and the generated
config.hpp belong to core. A quoted include is resolved next to the including file first (private
headers such as src/diffusion/diffusion_impl.hpp), then as a path below include/. Includes that are
not icondiff's (Kokkos, fmt, the C API's icondiff_c.h, ...) are ignored. A folder that is not in
the table below is reported as an unknown layer, so a new folder has to be placed in the layering
before it can be used. Used by CTest (layer_check, layer_check_self_test in
unit_tests/CMakeLists.txt); docs/dev/layers.md explains the layering.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

# ---- The layering: the one place that says who may include whom ---------------------------------
# Each layer may include itself and the layers listed for it; None means "anything".
# Why this order (bottom to top):
#  * core (types, errors, launch policies, locations, index ranges, sphere math) and profiling
#    (kernel timers) are the foundation every other layer uses; they know nothing of grids. They
#    may include each other (a kernel launcher in core may time its kernels).
#  * grid is the horizontal/vertical grid as data (connectivity, zones, the grid's own geometry,
#    generator and limited-area cut-out); it needs only core.
#  * geometry holds the factories that derive fields from a finished grid (edge geometry,
#    interpolation coefficients, metrics); comm exchanges halos of a decomposed grid.
#  * stencils are the pure kernels: they see Views and indices only, never a grid object.
#  * statics describes the model's static fields once (interpolation, metric, edge and cell
#    fields) and holds them in one bundle per grid; the granules select from it by name.
#  * diffusion is the granule: it runs stencils on a device grid and exchanges halos. It must not
#    depend on the geometry factories or on file formats, so a host model (ICON) can drive it
#    with its own geometry and without netCDF.
#  * dycore holds ICON's non-hydrostatic dynamical-core programs (solve_nonhydro's stencils) with
#    the same freedom and the same limits as diffusion: its static fields come from the caller.
#  * setup runs the geometry factories and hands their fields to the granule (the one place where
#    geometry meets diffusion).
#  * testcases (Jablonowski-Williamson) build initial states for the granule from a grid.
#  * timeloop runs the granules in ICON's time loop (solve_nh substeps, then the diffusion); it
#    sees the granules and their states, never a file or a factory.
#  * io reads and writes everything below; cli and capi are the drivers on top.
CORE_LAYERS = {"core", "profiling"}
ALLOWED: dict[str, set[str] | None] = {
    "core": CORE_LAYERS,
    "profiling": CORE_LAYERS,
    "grid": {"core"},
    "geometry": {"core", "grid"},
    "comm": {"core", "grid"},
    "stencils": {"core"},
    "statics": {"core"},
    "diffusion": {"core", "grid", "comm", "stencils", "statics", "profiling"},
    "dycore": {"core", "grid", "comm", "stencils", "statics", "profiling"},
    "setup": {"core", "profiling", "grid", "geometry", "comm", "stencils", "statics", "diffusion",
              "dycore"},
    "testcases": {"core", "grid", "geometry", "statics", "diffusion", "dycore"},
    "timeloop": {"core", "profiling", "grid", "comm", "stencils", "statics", "diffusion", "dycore"},
    "io": {"core", "profiling", "grid", "geometry", "comm", "stencils", "statics", "diffusion",
           "dycore", "setup", "testcases", "timeloop"},
    "cli": None,
    "capi": None,
}
# Top-level headers in include/icondiff/ (not in a layer folder) and the layer they belong to.
TOP_LEVEL_HEADERS = {"kokkos_compat.hpp": "core", "config.hpp": "core"}

SOURCE_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".tpp", ".c", ".cc", ".cpp", ".cxx"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
BLOCK_COMMENT_RE = re.compile(r"/\*.*?\*/", re.DOTALL)


def strip_block_comments(text: str) -> str:
    """Blanks /* ... */ comments but keeps their newlines, so line numbers stay right."""
    return BLOCK_COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def layer_of_header(path_below_icondiff: str) -> str | None:
    """Layer of a path relative to include/icondiff/ (or src/): its first folder."""
    parts = Path(path_below_icondiff).parts
    if not parts:
        return None
    if len(parts) == 1:
        return TOP_LEVEL_HEADERS.get(parts[0])
    return parts[0]


def layer_of_file(root: Path, path: Path) -> str | None:
    """Layer of a file in the tree, or None if it is not below include/icondiff or src."""
    rel = path.relative_to(root)
    if rel.parts[:2] == ("include", "icondiff"):
        return layer_of_header(str(Path(*rel.parts[2:])))
    if rel.parts[:1] == ("src",) and len(rel.parts) > 2:
        return rel.parts[1]
    return None  # src/CMakeLists.txt and other files directly in src/


def included_layer(root: Path, including: Path, bracket: str,
                   target: str) -> tuple[str, str] | None:
    """(layer, shown path) of an include, or None if it is not one of icondiff's files."""
    if bracket == '"':
        local = (including.parent / target).resolve()
        if local.is_file():
            try:
                local.relative_to(root.resolve())
            except ValueError:
                return None
            layer = layer_of_file(root.resolve(), local)
            if layer is None:
                return None
            return layer, str(local.relative_to(root.resolve()))
    if target.startswith("icondiff/"):
        below = target[len("icondiff/"):]
        return layer_of_header(below) or "?" + below, target
    return None


def check_tree(root: Path) -> list[str]:
    """All violations in the tree at `root`, one message each, in file and line order."""
    root = root.resolve()
    problems: list[str] = []
    files = []
    for top in (root / "include" / "icondiff", root / "src"):
        if top.is_dir():
            files += [p for p in top.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES]
    for path in sorted(files):
        rel = path.relative_to(root)
        layer = layer_of_file(root, path)
        if layer is None or layer not in ALLOWED:
            problems.append(f"{rel}:1: file is in unknown layer '{layer or rel.parent}' "
                            "(add it to ALLOWED in scripts/check_layers.py)")
            continue
        allowed = ALLOWED[layer]
        text = strip_block_comments(path.read_text(encoding="utf-8", errors="replace"))
        for number, line in enumerate(text.splitlines(), start=1):
            match = INCLUDE_RE.match(line)
            if not match:
                continue
            found = included_layer(root, path, match.group(1), match.group(2).strip())
            if found is None:
                continue
            target_layer, shown = found
            if target_layer.startswith("?") or target_layer not in ALLOWED:
                problems.append(f"{rel}:{number}: layer {layer} includes {shown}, which is in no "
                                "known layer (add it to ALLOWED in scripts/check_layers.py)")
            elif target_layer != layer and allowed is not None and target_layer not in allowed:
                problems.append(
                    f"{rel}:{number}: layer {layer} may not include layer {target_layer} ({shown})")
    return problems


def table_problems(allowed: dict[str, set[str] | None]) -> list[str]:
    """Problems of the table itself: unknown names, a driver used from below, cycles. core and
    profiling count as one layer (they may include each other)."""
    group = {name: ("core" if name in CORE_LAYERS else name) for name in allowed}
    drivers = {name for name, deps in allowed.items() if deps is None}
    problems = []
    edges: dict[str, set[str]] = {group[name]: set() for name in allowed}
    for name, deps in allowed.items():
        for dep in deps or ():
            if dep not in allowed:
                problems.append(f"layer {name} lists unknown layer {dep}")
            elif dep in drivers:
                problems.append(f"layer {name} lists the driver layer {dep}")
            elif group[dep] != group[name]:
                edges[group[name]].add(group[dep])
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            problems.append("cycle " + " -> ".join(path[path.index(node):] + [node]))
            return
        if node in done:
            return
        for dep in sorted(edges[node]):
            visit(dep, path + [node])
        done.add(node)

    for node in sorted(edges):
        visit(node, [])
    return problems


# ---- Self-test: the check must be able to fail -------------------------------------------------
def self_test() -> int:
    """Runs check_tree on synthetic trees with known violations; 0 if it finds exactly them."""
    clean = {
        "include/icondiff/kokkos_compat.hpp": "#include <Kokkos_Core.hpp>\n",
        "include/icondiff/core/types.hpp": "#include <icondiff/config.hpp>\n",
        "include/icondiff/core/launch.hpp": "#include <icondiff/kokkos_compat.hpp>\n",
        "include/icondiff/grid/grid.hpp": "#include <icondiff/core/types.hpp>\n#include <vector>\n",
        "include/icondiff/geometry/edge.hpp": "#include <icondiff/grid/grid.hpp>\n",
        "include/icondiff/diffusion/diffusion.hpp": (
            "#include <icondiff/grid/grid.hpp>\n#include \"icondiff/core/launch.hpp\"\n"),
        "include/icondiff/io/file.hpp": "#include <icondiff/diffusion/diffusion.hpp>\n",
        "src/diffusion/impl.hpp": "#include <icondiff/diffusion/diffusion.hpp>\n",
        "src/diffusion/diffusion.cpp": '#include "impl.hpp"\n#include <fmt/format.h>\n',
        "src/cli/main.cpp": "#include <icondiff/io/file.hpp>\n#include <icondiff_c.h>\n",
        "src/CMakeLists.txt": "add_library(x)\n",
    }
    cases = [
        ("clean tree", {}, []),
        ("grid includes geometry",
         {"include/icondiff/grid/zones.hpp": "// zones\n#include <icondiff/geometry/edge.hpp>\n"},
         ["include/icondiff/grid/zones.hpp:2: layer grid may not include layer geometry "
          "(icondiff/geometry/edge.hpp)"]),
        ("core includes grid with quotes",
         {"include/icondiff/core/bad.hpp": '#include "icondiff/grid/grid.hpp"\n'},
         ["include/icondiff/core/bad.hpp:1: layer core may not include layer grid "
          "(icondiff/grid/grid.hpp)"]),
        ("diffusion source includes io",
         {"src/diffusion/setup.cpp": "#include <vector>\n  #  include <icondiff/io/file.hpp>\n"},
         ["src/diffusion/setup.cpp:2: layer diffusion may not include layer io "
          "(icondiff/io/file.hpp)"]),
        ("relative include into another layer's private header",
         {"src/grid/bad.cpp": '#include "../diffusion/impl.hpp"\n'},
         ["src/grid/bad.cpp:1: layer grid may not include layer diffusion "
          "(src/diffusion/impl.hpp)"]),
        ("include in a block comment is ignored, the one after it is not",
         {"src/stencils/s.cpp": ("/* #include <icondiff/io/file.hpp>\n*/\n"
                                 "#include <icondiff/grid/grid.hpp>\n")},
         ["src/stencils/s.cpp:3: layer stencils may not include layer grid "
          "(icondiff/grid/grid.hpp)"]),
        ("unknown layer folder",
         {"include/icondiff/misc/x.hpp": "#include <icondiff/core/types.hpp>\n"},
         ["include/icondiff/misc/x.hpp:1: file is in unknown layer 'misc' "
          "(add it to ALLOWED in scripts/check_layers.py)"]),
        ("include of an unknown layer",
         {"src/io/x.cpp": "#include <icondiff/misc/x.hpp>\n"},
         ["src/io/x.cpp:1: layer io includes icondiff/misc/x.hpp, which is in no known layer "
          "(add it to ALLOWED in scripts/check_layers.py)"]),
    ]
    failures = 0
    for name, extra, expected in cases:
        with tempfile.TemporaryDirectory(prefix="check_layers_") as tmp:
            root = Path(tmp)
            for rel, text in {**clean, **extra}.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            got = check_tree(root)
        if got != expected:
            failures += 1
            print(f"self-test FAILED: {name}\n  expected: {expected}\n  got:      {got}")
        else:
            print(f"self-test ok: {name}")
    # The table check must be able to fail too.
    for name, table in [("cycle", {"core": {"core"}, "a": {"b"}, "b": {"a"}}),
                        ("unknown layer", {"core": set(), "a": {"nowhere"}}),
                        ("driver used from below", {"core": set(), "a": {"cli"}, "cli": None})]:
        if table_problems(table):
            print(f"self-test ok: table with a {name} is rejected")
        else:
            failures += 1
            print(f"self-test FAILED: table with a {name} is accepted")
    # The real table must describe a layering without cycles, or "below" means nothing.
    for problem in table_problems(ALLOWED):
        failures += 1
        print(f"self-test FAILED: {problem}")
    print("self-test: " + ("FAILED" if failures else "all cases pass"))
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="repository root (default: the repository of this script)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker on synthetic trees instead of checking --root")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = args.root.resolve()
    if not (root / "include" / "icondiff").is_dir():
        print(f"check_layers: {root} has no include/icondiff folder", file=sys.stderr)
        return 2
    problems = check_tree(root)
    for line in problems:
        print(line)
    if problems:
        print(f"check_layers: {len(problems)} layering violation(s); the allowed layers are the "
              "table ALLOWED in scripts/check_layers.py", file=sys.stderr)
        return 1
    print("check_layers: every include follows the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
