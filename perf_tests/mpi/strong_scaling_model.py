#!/usr/bin/env python3
"""Strong-scaling model of the diffusion granule on R2B9 x 90 levels over 1..1024 nodes.

Inputs, all stated in the output:
  * the halo census (perf_tests/mpi/halo_census, JSON): halo points per location of ICON-like
    METIS decompositions measured on R2B4-R2B6; fitted as halo = a * sqrt(owned cells) per
    location (a rank's halo is its part's perimeter), neighbours per rank ~ its mean;
  * the bytes per halo point of one granule call from the exchange points X1-X4 (NWP regular
    call; X5/X6 belong to the dycore then): two vertex exchanges of u_vert, v_vert (2 vp fields),
    two edge exchanges (z_nabla2_e, vn; 1 wp field each), each over nlev levels;
  * compute: the 276 B per cell-level minimum of performance_model.md moved at a fraction `f` of
    the node's STREAM bandwidth (f measured on this machine; the GPU fraction is an assumption),
    over the owned cells plus the halo line the granule also computes;
  * network: latency, bandwidth per node and a local overhead per exchange (pack and unpack
    kernels, fences), all assumptions given on the command line.
Each exchange costs overhead + neighbours * latency + bytes / bandwidth; the four run one after
the other (the vn exchange overlaps the w stencils in icondiff, ignored here: conservative).
"""
import argparse
import json
import math


def fit(census):
    """a per location in halo = a * sqrt(owned cells), least squares; mean neighbours."""
    coef = {}
    for loc in ("cell", "edge", "vertex"):
        num = sum(r[loc + "_halo"] * math.sqrt(r["cell_owned"]) for r in census)
        den = sum(r["cell_owned"] for r in census)
        coef[loc] = num / den
    # Neighbours saturate at ~6 (hexagon-like parts); use the mean over parts with >= 16 ranks.
    many = [r["neighbours"] for r in census if r["ranks"] >= 16] or [r["neighbours"] for r in census]
    return coef, sum(many) / len(many)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("census", help="halo_census JSON output")
    p.add_argument("--cells", type=int, default=20 * 4 * 4**9, help="R2B9: 20,971,520")
    p.add_argument("--nlev", type=int, default=90)
    p.add_argument("--vp-bytes", type=int, default=8, help="4 in a mixed-precision build")
    p.add_argument("--node-stream-gbs", type=float, default=400.0,
                   help="STREAM triad of one node (default: a 2-socket 64-core CPU node)")
    p.add_argument("--stream-fraction", type=float, default=0.15,
                   help="granule share of STREAM by the 276 B model (measured here: 11-18%%)")
    p.add_argument("--latency-us", type=float, default=2.0)
    p.add_argument("--bandwidth-gbs", type=float, default=20.0, help="per node and direction")
    p.add_argument("--overhead-us", type=float, default=20.0, help="per exchange: kernels, fences")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args()
    census = json.load(open(a.census))
    coef, neighbours = fit(census)
    print(f"fit over {len(census)} measured ranks: halo cells = {coef['cell']:.2f}·√owned, "
          f"edges = {coef['edge']:.2f}·√owned, vertices = {coef['vertex']:.2f}·√owned; "
          f"{neighbours:.1f} neighbours per rank")
    print(f"assumed: node STREAM {a.node_stream_gbs:.0f} GB/s at {100 * a.stream_fraction:.0f}% "
          f"for the granule; network {a.latency_us} µs latency, {a.bandwidth_gbs} GB/s per node; "
          f"{a.overhead_us} µs local overhead per exchange; vp {a.vp_bytes} B")
    print()
    print("| nodes | owned cells per node | halo cells | compute ms | exchange ms | call ms "
          "| exchange share | parallel efficiency |")
    print("|---|---|---|---|---|---|---|---|")
    t1 = None
    dominated = None
    for k in range(0, 11):
        nodes = 2**k
        owned = a.cells / nodes
        halo = {loc: (coef[loc] * math.sqrt(owned) if nodes > 1 else 0.0) for loc in coef}
        work_cells = owned + halo["cell"]
        compute = 276.0 * work_cells * a.nlev / (a.stream_fraction * a.node_stream_gbs * 1e9)
        if nodes > 1:
            vertex_bytes = halo["vertex"] * a.nlev * 2 * a.vp_bytes
            edge_bytes = halo["edge"] * a.nlev * 8
            per = lambda b: (a.overhead_us + min(neighbours, nodes - 1) * a.latency_us) * 1e-6 + \
                b / (a.bandwidth_gbs * 1e9)
            exchange = 2 * per(vertex_bytes) + 2 * per(edge_bytes)
        else:
            exchange = 0.0
        call = compute + exchange
        t1 = t1 or call
        eff = t1 / (nodes * call)
        share = exchange / call
        if dominated is None and exchange >= compute:
            dominated = nodes
        mark = " ← exchange ≥ compute" if exchange >= compute else ""
        print(f"| {nodes} | {owned:,.0f} | {halo['cell']:,.0f} | {compute * 1e3:.3f} | "
              f"{exchange * 1e3:.3f} | {call * 1e3:.3f} | {100 * share:.0f}% | {100 * eff:.0f}%{mark} |")
    print()
    print(f"the halo exchange dominates from {dominated} nodes on" if dominated
          else "the halo exchange stays below the compute time up to 1024 nodes")


if __name__ == "__main__":
    main()
