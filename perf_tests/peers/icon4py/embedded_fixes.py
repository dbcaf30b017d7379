"""Four gaps of gt4py 1.1.10's embedded (numpy) execution that stop ICON4Py 0.2.0's
SolveNonhydro on it, filled in for ``compare_solve_nh.py --backend embedded``.

ICON4Py 0.2.0 runs none of its SolveNonhydro / VelocityAdvection integration tests on the embedded
backend: they are marked ``embedded_remap_error`` (xfail "Embedded backend currently fails in
remap function"), and its stencil tests mark the programs below ``uses_concat_where`` /
``uses_as_offset`` (xfail). Unpatched, ``SolveNonhydro.time_step`` with backend=None stops in its
first program (velocity advection's ``compute_tangential_wind``: ``ValueError: axes don't match
array``); construction works. The gaps are all in how gt4py's embedded field classes index,
select and iterate, none in ICON4Py's arithmetic:

1. **Neighbour tables from a location to the same location** (E2C2E, E2C2EO, C2E2C, C2E2CO):
   ``NdArrayConnectivityField.kind`` calls a connectivity one that changes the field's dimensions
   (``ALTER_DIMS``) only when its codomain is not among its domain's dimensions, so E2C2E
   ((Edge, E2C2E) -> Edge) is taken for a reshuffle of the Edge axis and ``_reshuffling_premap``
   fails. Here a connectivity whose domain has a local (neighbour) dimension is ``ALTER_DIMS``:
   ``_remapping_premap``, the path E2C and C2E already take.
2. **concat_where with a domain condition** (``concat_where(dims.KDim > 0, a, b)``, the only form
   ICON4Py uses; tuples are split by gt4py itself): embedded has only the older mask-field form
   (``'Domain' object has no attribute 'domain'``). Added: the true operand on the condition's
   range, the false operand outside it, on the operands' common range in the other dimensions
   (as the old form). A scalar operand is unbounded: its part ends where the other operand ends
   or, further out, where the program's vertical output range (gt4py's closure column range)
   ends, so that e.g. ``concat_where(KDim >= 1, x(Koff[-1]) ..., 0.0)`` covers level 0 as the
   compiled backends do. Values are only selected.
3. **as_offset** (``field(as_offset(Koff, ikoffset))``: the pressure gradient's and the
   hydrostatic correction's level offsets): not implemented in embedded. Added as a gather: at
   each point of the offset field's domain, the field's value at level k + offset.
4. **Scans** (the vertically implicit solver's tridiagonal sweeps): embedded runs a scan over the
   whole output column (so the forward sweep, whose arguments start at level 1 through
   ``Koff[-1]``, reads level 0 and fails) and calls the scan function once per point and level
   with Python scalars. Here a scan runs over the levels of the output column where all its
   arguments are defined (as the compiled backends' domain inference has it: ICON4Py starts the
   sweep at level 1 with ``concat_where(KDim > 0, ...)``), one level at a time with the function
   applied to the whole horizontal slice at once: the same IEEE operations in the same order per
   point (numpy's elementwise +, -, *, / on arrays round as on scalars).

``install()`` is idempotent and changes gt4py's classes in this process only. Measured (quick
case and the 20-level matrix of compare_solve_nh.py, 2026-11-28): with numpy's SIMD math
disabled (NPY_DISABLE_CPU_FEATURES) every value bit-identical to icondiff and to gtfn_cpu.
"""

from __future__ import annotations

_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    import numpy as np
    from gt4py.next import common
    from gt4py.next.embedded import context as embedded_context, nd_array_field as nd
    from gt4py.next.ffront import experimental

    # ---- 1. neighbour tables from a location to itself ------------------------------------------
    def kind(self):
        local = any(d.kind == common.DimensionKind.LOCAL for d in self.domain.dims)
        alter_dims = local or self.domain.dim_index(self.codomain) is None
        return common.ConnectivityKind.ALTER_STRUCT | (
            common.ConnectivityKind.ALTER_DIMS if alter_dims else common.ConnectivityKind(0))

    nd.NdArrayConnectivityField.kind = property(kind)

    # ---- 2. concat_where(domain, a, b) ----------------------------------------------------------
    old_concat_where = nd.NdArrayField._builtin_func_map.maps[0][experimental.concat_where]
    inf = common.Infinity

    def finite(x):
        return x not in (inf.NEGATIVE, inf.POSITIVE)

    def concat_where(cond, true_field, false_field):
        if not isinstance(cond, common.Domain):
            return old_concat_where(cond, true_field, false_field)
        if cond.ndim != 1:
            raise NotImplementedError(f"concat_where: condition over {cond.dims}")
        dim, r = cond.dims[0], cond.ranges[0]
        cls_ = nd._get_nd_array_class(true_field, false_field)
        xp = cls_.array_ns
        dims_ = common.promote_dims(
            *(x.domain.dims for x in (true_field, false_field) if isinstance(x, common.Field)),
            (dim,))
        t, f = (nd._broadcast(nd._to_field(x, cls_), dims_) for x in (true_field, false_field))
        t, f = nd._intersect_fields(t, f, ignore_dims=dim)
        axis = t.domain.dim_index(dim, allow_missing=False)
        tr, fr = t.domain[dim].unit_range, f.domain[dim].unit_range
        # the result's extent along dim: bounded by the operands (and the condition)
        # (a scalar operand is unbounded: its piece ends at the other operand's end or, when
        # that is nearer, at the end of the program's vertical output range)
        starts = [x for x in (tr.start, fr.start) if finite(x)]
        stops = [x for x in (tr.stop, fr.stop) if finite(x)]
        column = embedded_context.get_closure_column_range(None)
        if isinstance(column, common.NamedRange) and column.dim == dim:
            starts.append(column.unit_range.start)
            stops.append(column.unit_range.stop)
        if not starts or not stops:
            raise NotImplementedError("concat_where: both operands unbounded along " + dim.value)
        bound = common.UnitRange(min(starts), max(stops))
        pieces = []  # (operand, range along dim), in order
        if finite(r.start):
            pieces.append((f, fr & common.UnitRange(inf.NEGATIVE, r.start) & bound))
        pieces.append((t, tr & r & bound))
        if finite(r.stop):
            pieces.append((f, fr & common.UnitRange(r.stop, inf.POSITIVE) & bound))
        while pieces and pieces[0][1].is_empty():
            pieces.pop(0)
        while pieces and pieces[-1][1].is_empty():
            pieces.pop()
        for (_, p), (_, q) in zip(pieces, pieces[1:]):
            if p.is_empty() or q.is_empty() or p.stop != q.start:
                raise ValueError(f"concat_where: non-contiguous result along {dim.value}: "
                                 f"{[p for _, p in pieces]}")
        arrays = []
        for x, p in pieces:
            xr = x.domain[dim].unit_range
            sl = [slice(None)] * x.ndarray.ndim
            if finite(xr.start):
                sl[axis] = slice(p.start - xr.start, p.stop - xr.start)
                arrays.append(x.ndarray[tuple(sl)])
            else:  # a broadcast (scalar) operand: one element along dim
                sl[axis] = slice(0, 1)
                one = x.ndarray[tuple(sl)]
                shape = list(one.shape)
                shape[axis] = len(p)
                arrays.append(xp.broadcast_to(one, tuple(shape)))
        other = [arr.shape for arr in arrays]
        full = [max(s[i] for s in other) for i in range(len(other[0]))]
        arrays = [xp.broadcast_to(arr, tuple(full[:axis] + [arr.shape[axis]] + full[axis + 1:]))
                  for arr in arrays]
        ranges = list(t.domain.ranges)
        ranges[axis] = common.UnitRange(pieces[0][1].start, pieces[-1][1].stop)
        for i, rr in enumerate(ranges):
            if i != axis and not (finite(rr.start) and finite(rr.stop)):
                raise NotImplementedError("concat_where: unbounded result dimension")
        return cls_.from_array(xp.concatenate(arrays, axis=axis),
                               domain=common.Domain(dims=t.domain.dims, ranges=tuple(ranges)))

    nd.NdArrayField._builtin_func_map.maps[0][experimental.concat_where] = concat_where

    # ---- 3. as_offset ---------------------------------------------------------------------------
    class AsOffset:
        """field(as_offset(Koff, offset)): at each point p of the offset field's domain, the
        field's value at p with its Koff coordinate k replaced by k + offset[p]."""

        def __init__(self, dim, offset):
            self.codomain, self.offset = dim, offset

    def as_offset(offset_, field):
        dim = offset_.target[0]
        if offset_.source != dim or len(offset_.target) != 1:
            raise NotImplementedError(f"as_offset on {offset_.value}")
        return AsOffset(dim, field)

    def gather(data, conn):
        off = conn.offset
        if set(data.domain.dims) != set(off.domain.dims):
            raise NotImplementedError(f"as_offset: field {data.domain.dims}, offset "
                                      f"{off.domain.dims}")
        xp = data.array_ns
        dims_ = data.domain.dims
        ranges = []
        for d in dims_:
            r = data.domain[d].unit_range
            ranges.append(off.domain[d].unit_range if d == conn.codomain
                          else r & off.domain[d].unit_range)
        new_domain = common.Domain(dims=dims_, ranges=tuple(ranges))
        # the offset field on the new domain, in the data's dimension order
        o = off.ndarray[tuple(slice(new_domain[d].unit_range.start - off.domain[d].unit_range.start,
                                     new_domain[d].unit_range.stop - off.domain[d].unit_range.start)
                               for d in off.domain.dims)]
        o = xp.transpose(o, [off.domain.dims.index(d) for d in dims_])
        index = []
        for i, d in enumerate(dims_):
            r = new_domain[d].unit_range
            shape = [1] * len(dims_)
            shape[i] = len(r)
            idx = xp.arange(r.start, r.stop).reshape(shape)
            if d == conn.codomain:
                idx = idx + o
            dr = data.domain[d].unit_range
            idx = idx - dr.start
            if idx.size and (idx.min() < 0 or idx.max() >= len(dr)):
                raise IndexError(f"as_offset: index outside the field's {d.value} range {dr}")
            index.append(xp.broadcast_to(idx, new_domain.shape))
        return data.__class__.from_array(data.ndarray[tuple(index)], domain=new_domain,
                                         dtype=data.dtype)

    old_premap = nd.NdArrayField.premap

    def premap(self, *connectivities):
        if len(connectivities) == 1 and isinstance(connectivities[0], AsOffset):
            return gather(self, connectivities[0])
        return old_premap(self, *connectivities)

    nd.NdArrayField.premap = premap
    nd.NdArrayField._builtin_func_map.maps[0][experimental.as_offset] = as_offset
    # ---- 4. scans: over the levels where their arguments are, one level at a time ---------------
    from gt4py.next import utils as gt_utils
    from gt4py.next.embedded import operators as emb_ops
    from gt4py.next.otf import arguments
    from gt4py.next.type_system import type_translation

    def scan_call(self, *args, **kwargs):
        scan_range = embedded_context.get_closure_column_range()
        axis = scan_range.dim
        assert self.axis == axis
        all_args = [*args, *kwargs.values()]
        inter = emb_ops._intersect_scan_args(*all_args)
        levels = scan_range.unit_range
        if axis in inter.dims:
            levels = levels & inter[axis].unit_range
        non_scan = common.Domain(*[nr for nr in inter if nr.dim != axis])
        out_domain = common.Domain(*non_scan, common.NamedRange(axis, levels))
        flat = [a for a in gt_utils.flatten_nested_tuple(tuple(arguments.extract(x)
                                                                 for x in all_args))
                if isinstance(a, common.Field)]
        xp = flat[0].array_ns if flat else np
        cls_ = type(flat[0])

        def at_level(x, k):
            if not isinstance(x, common.Field):
                return x
            if axis in x.domain.dims:
                x = x[(common.NamedIndex(axis, k),)]
            return x[common.Domain(*[nr for nr in non_scan if nr.dim in x.domain.dims])]

        at = gt_utils.tree_map(at_level)
        init_type = type_translation.from_value(self.init)
        outs = []  # one ndarray per output leaf, (non_scan..., level)

        def leaves(x):
            return list(gt_utils.flatten_nested_tuple((arguments.extract(x),)))

        acc = self.init
        order = list(levels) if self.forward else list(reversed(list(levels)))
        results = {}
        for k in order:
            new_args = [at(a, k) if isinstance(a, tuple) else at_level(a, k) for a in args]
            new_kwargs = {n: (at(v, k) if isinstance(v, tuple) else at_level(v, k))
                          for n, v in kwargs.items()}
            acc = self.fun(acc, *new_args, **new_kwargs)
            results[k] = leaves(acc)
        nleaf = len(results[order[0]]) if order else len(leaves(self.init))
        for i in range(nleaf):
            cols = []
            for k in levels:
                v = results[k][i]
                a = v.ndarray if isinstance(v, common.Field) else xp.asarray(v)
                cols.append(xp.broadcast_to(a, non_scan.shape))
            arr = xp.stack(cols, axis=-1) if cols else xp.empty(out_domain.shape)
            outs.append(cls_.from_array(arr, domain=out_domain))
        if isinstance(init_type, ts_mod.ScalarType):
            return outs[0]
        it = iter(outs)

        def rebuild(t):
            return tuple(rebuild(x) if isinstance(x, tuple) else next(it) for x in t)

        return rebuild(arguments.extract(self.init))

    from gt4py.next.type_system import type_specifications as ts_mod

    emb_ops.ScanOperator.__call__ = scan_call
    _installed = True
