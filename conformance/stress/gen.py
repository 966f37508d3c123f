#!/usr/bin/env python3
"""Stress vectors for the conformance tool: elementwise, select, multiplex.

multiplex follows PaddlePaddle 3.3.1 as measured (op-semantics.md section 3):
the output has the index's rows, fewer index rows are valid, zero-size
candidates are valid.

Writes DIR/elementwise.json, DIR/select.json and DIR/multiplex.json in the
format of tests/vectors/README.md, drawn like the shipped vectors (same case
name families, shapes of rank 0-5 with dims 1-4, small integers and halves)
plus edge shapes: rank 6-8, zero-size dims, dims in the thousands, scalars,
many multiplex candidates and rows.

Every expected `out` / `error` comes from the reference implementation below,
written from /work/shared/spec/op-semantics.md (section 1 C, section 2,
section 3) and tests/vectors/README.md, not from the Rust code.

Python 3.11 standard library only.

    python3 conformance/stress/gen.py --seed 1 --count 600 --out /tmp/stress
    cargo run --release -p conformance -- dynamic /tmp/stress
    cargo run --release -p conformance -- static /tmp/stress
"""

import argparse
import json
import math
import os
import random
import struct

MAX_ELEMS = 20000  # per tensor

FLOAT_DTYPES = ("float32", "float64")
INT_DTYPES = ("int32", "int64")
DTYPES = FLOAT_DTYPES + INT_DTYPES


class Reject(Exception):
    """The framework rejects the input (the message is ours)."""


# ---------------------------------------------------------------------------
# values


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def round_to(dtype, v):
    if dtype == "float32":
        return f32(v)
    if dtype == "float64":
        return float(v)
    return int(v)


def rand_values(rng, dtype, n, nonzero=False):
    if dtype == "bool":
        return [rng.random() < 0.5 for _ in range(n)]
    if dtype in FLOAT_DTYPES:
        pool = [h / 2 for h in range(-6, 7)]  # -3.0 .. 3.0 by halves
    else:
        pool = list(range(-6, 7))
    if nonzero:
        pool = [p for p in pool if p != 0]
    return [rng.choice(pool) for _ in range(n)]


def tensor(shape, dtype, data):
    return {"shape": list(shape), "dtype": dtype, "data": list(data)}


def strides(shape):
    st = [1] * len(shape)
    acc = 1
    for i in range(len(shape) - 1, -1, -1):
        st[i] = acc
        acc *= shape[i]
    return st


def broadcast_index_maps(out_shape, in_shapes):
    """For each input (already padded to len(out_shape)), the flat input index
    of every output element (row-major)."""
    n = numel(out_shape)
    maps = []
    for s in in_shapes:
        assert len(s) == len(out_shape)
        st = strides(s)
        eff = [st[i] if s[i] != 1 else 0 for i in range(len(s))]
        idx = [0] * n
        if n:
            # iterate the output with a counter
            counter = [0] * len(out_shape)
            cur = 0
            for k in range(n):
                idx[k] = cur
                # increment
                j = len(out_shape) - 1
                while j >= 0:
                    counter[j] += 1
                    cur += eff[j]
                    if counter[j] < out_shape[j]:
                        break
                    cur -= eff[j] * counter[j]
                    counter[j] = 0
                    j -= 1
        maps.append(idx)
    return maps


# ---------------------------------------------------------------------------
# 1. Paddle elementwise (rule C of op-semantics.md, plus the README's
#    trailing-1 rule for operands that run past)


def ew_plan(xs, ys, axis):
    """(out_shape, x_padded, y_padded, overflow) or raise Reject."""
    xs, ys = list(xs), list(ys)
    rx, ry = len(xs), len(ys)
    if xs == ys:
        return xs, xs, ys, False
    R = max(rx, ry)
    if rx == ry and axis not in (-1, 0):
        raise Reject(
            f"axis should be -1 or 0 while the dimension of tensor X ({rx}) is equal "
            f"to the dimension of tensor Y ({ry}), but received axis: {axis}"
        )
    if not (-R <= axis < R):
        raise Reject(f"The axis range must be [{-R}, {R}), but axis is {axis}.")
    explicit = axis >= 0
    if axis < 0:
        axis = abs(rx - ry) + axis + 1
    if axis < 0:
        raise Reject(f"Axis should be great than or equal to 0, but received axis is {axis}")
    x_low = rx < ry
    small = list(xs if x_low else ys)
    big = ys if x_low else xs
    overflow = explicit and axis + len(small) > R
    while axis + len(small) > R and small and small[-1] == 1:
        small.pop()
    if axis + len(small) > R:
        raise Reject(
            f"the lower-rank operand runs past the other's last dim at axis {axis} "
            f"(X {xs}, Y {ys})"
        )
    padded = [1] * axis + small + [1] * (R - axis - len(small))
    xp, yp = (padded, big) if x_low else (big, padded)
    out = []
    for i, (a, b) in enumerate(zip(xp, yp)):
        if a == b:
            out.append(a)
        elif a == 1:
            out.append(b)
        elif b == 1:
            out.append(a)
        else:
            raise Reject(
                "Broadcast dimension mismatch. Operands could not be broadcast together "
                f"with the shape of X = {xs} and the shape of Y = {ys}. "
                f"Received [{a}] in X is not equal to [{b}] in Y at i:{i}."
            )
    return out, xp, yp, overflow


def ew_apply(op, dtype, a, b):
    if op == "elementwise_mul":
        r = a * b
    elif op == "elementwise_add":
        r = a + b
    elif op == "elementwise_sub":
        r = a - b
    elif op == "elementwise_div":
        assert dtype in FLOAT_DTYPES and b != 0
        r = a / b
    elif op == "elementwise_max":
        r = a if a > b else b
    elif op == "elementwise_min":
        r = a if a < b else b
    else:
        raise ValueError(op)
    return round_to(dtype, r)


def act_apply(act, dtype, v):
    if act is None:
        return v
    if act == "relu":
        r = v if v > 0 else (0.0 if dtype in FLOAT_DTYPES else 0)
    elif act == "tanh":
        r = math.tanh(v)
    elif act == "sigmoid":
        r = 1.0 / (1.0 + math.exp(-v))
    else:
        raise ValueError(act)
    return round_to(dtype, r)


def ew_reference(case):
    x, y = case["x"], case["y"]
    attrs = case["attrs"]
    out_shape, xp, yp, overflow = ew_plan(x["shape"], y["shape"], attrs["axis"])
    dtype = x["dtype"]
    mx, my = broadcast_index_maps(out_shape, [xp, yp])
    xd, yd = x["data"], y["data"]
    act = attrs.get("act")
    data = [
        act_apply(act, dtype, ew_apply(case["op"], dtype, xd[i], yd[j]))
        for i, j in zip(mx, my)
    ]
    return tensor(out_shape, dtype, data), overflow


def ew_overflows(xs, ys, axis):
    """The README's framework_overflow: the lower-rank operand, placed at an
    explicit axis, runs past the other's last dim (before any trimming)."""
    rx, ry = len(xs), len(ys)
    if list(xs) == list(ys) or rx == ry or axis < 0:
        return False
    R = max(rx, ry)
    if axis >= R:
        return False
    return axis + min(rx, ry) > R


# ---------------------------------------------------------------------------
# 2. OpenVINO Select-1


def sel_plan(mode, axis, cs, ts, es):
    """(out_shape, cond_padded, then_padded, else_padded) or raise Reject."""
    cs, ts, es = list(cs), list(ts), list(es)
    if mode == "none":
        if not (cs == ts == es):
            raise Reject(f"Argument shapes are inconsistent: {cs} {ts} {es}")
        return ts, cs, ts, es
    if mode == "numpy":
        R = max(len(cs), len(ts), len(es))
        pads = [[1] * (R - len(s)) + s for s in (cs, ts, es)]
        out = []
        for i in range(R):
            vals = {p[i] for p in pads} - {1}
            if len(vals) > 1:
                raise Reject(f"Argument shapes are inconsistent: {cs} {ts} {es}")
            out.append(vals.pop() if vals else 1)
        return out, pads[0], pads[1], pads[2]
    if mode == "pdpd":
        out = list(ts)
        R = len(ts)
        placed = {}
        for name, src in (("Else", es), ("Cond", cs)):
            if len(src) > R or axis < -1:
                raise Reject(f"'{name}' tensor shape is not broadcastable.")
            a = R - len(src) if axis == -1 else axis
            s = list(src)
            # trailing 1s are ignored when the source runs past (README)
            while a + len(s) > R and s and s[-1] == 1:
                s.pop()
            if a + len(s) > R:
                raise Reject(f"'{name}' tensor shape is not broadcastable.")
            for i, d in enumerate(s):
                if not (d == ts[a + i] or d == 1):
                    raise Reject(f"'{name}' tensor shape is not broadcastable.")
                if (d, ts[a + i]) in ((1, 0), (0, 1)):
                    # OpenVINO's shape inference and the README's rule differ
                    # here; the generator never draws it (see README.md)
                    raise AssertionError("ambiguous pdpd 0-vs-1 case drawn")
            placed[name] = [1] * a + s + [1] * (R - a - len(s))
        return out, placed["Cond"], ts, placed["Else"]
    raise ValueError(mode)


def sel_reference(case):
    attrs = case["attrs"]
    c, t, e = case["cond"], case["then"], case["else"]
    out_shape, cp, tp, ep = sel_plan(
        attrs["auto_broadcast"], attrs.get("axis", 0), c["shape"], t["shape"], e["shape"]
    )
    mc, mt, me = broadcast_index_maps(out_shape, [cp, tp, ep])
    data = [
        t["data"][j] if c["data"][i] else e["data"][k] for i, j, k in zip(mc, mt, me)
    ]
    return tensor(out_shape, t["dtype"], data)


# ---------------------------------------------------------------------------
# 3. Paddle multiplex


def mux_reference(case):
    ins = case["inputs"]
    idx = case["index"]
    if len(ins) == 0:
        raise Reject("MultiInput(X) shouldn't be empty.")
    if len(idx["shape"]) != 2:
        raise Reject("The index tensor must be a vector with 2 dimensions")
    if idx["shape"][1] != 1:
        raise Reject("The index tensor must be a vector with batchSize x 1.")
    if len(ins) < 2:
        raise Reject("multiplex operator should have more than one candidate input tensors.")
    s0 = ins[0]["shape"]
    if len(s0) < 2:
        raise Reject("The rank of candidate tensors must be not less than 2.")
    if any(t["shape"] != s0 for t in ins):
        raise Reject("All the candidate tensors must have the same size.")
    # PaddlePaddle 3.3.1, measured (op-semantics.md section 3): the output
    # has the index's rows; fewer index rows than candidate rows is valid,
    # more is an error; zero-size candidates are valid
    rows = idx["shape"][0]
    if rows > s0[0]:
        raise Reject(
            "The 2nd-dim of input cannot be smaller than batchSize of the index tensor."
        )
    row_len = numel(s0[1:])
    out = []
    # every index value is checked, whatever the output's size (Paddle reads
    # none when the output is empty; op-semantics allows rejecting them)
    for i, k in enumerate(idx["data"]):
        if k < 0:
            raise Reject("index must be nonnegative.")
        if k >= len(ins):
            raise Reject("index exceeds the number of candidate tensors.")
        out.extend(ins[k]["data"][i * row_len : (i + 1) * row_len])
    return tensor([rows] + s0[1:], ins[0]["dtype"], out)


# ---------------------------------------------------------------------------
# shape drawing


def rand_shape(rng, rank, lo=1, hi=4):
    return [rng.randint(lo, hi) for _ in range(rank)]


def edge_shape(rng, kind):
    """A shape for an edge case: 'rank8', 'zero', 'big' or 'scalar'."""
    if kind == "rank8":
        rank = rng.choice([6, 7, 8, 8])
        while True:
            s = rand_shape(rng, rank, 1, 3)
            if numel(s) <= 3000:
                return s
    if kind == "zero":
        rank = rng.randint(1, 5)
        s = rand_shape(rng, rank, 1, 4)
        s[rng.randrange(rank)] = 0
        return s
    if kind == "big":
        big = rng.choice([1000, 1024, 1500, 2048, 3000, 4096, 5000, 9999])
        rank = rng.randint(1, 3)
        s = [rng.randint(1, 3) for _ in range(rank)]
        s[rng.randrange(rank)] = big
        while numel(s) > MAX_ELEMS // 2:
            i = max(range(rank), key=lambda i: s[i] if s[i] != big else 0)
            if s[i] <= 1:
                break
            s[i] -= 1
        return s
    if kind == "scalar":
        return []
    raise ValueError(kind)


def with_ones(rng, shape, p=0.4):
    return [1 if rng.random() < p else d for d in shape]


def perturb(rng, shape):
    """Change one dim to a different value (never to 1 from a non-1 if avoidable)."""
    if not shape:
        return [rng.randint(2, 4)]
    s = list(shape)
    i = rng.randrange(len(s))
    choices = [v for v in range(0 if 0 in s else 1, 5) if v != s[i]]
    s[i] = rng.choice(choices)
    return s


# ---------------------------------------------------------------------------
# elementwise cases

EW_OPS = [
    ("elementwise_mul", 14),
    ("elementwise_add", 2),
    ("elementwise_sub", 2),
    ("elementwise_div", 2),
    ("elementwise_max", 2),
    ("elementwise_min", 2),
]


def weighted(rng, items):
    total = sum(w for _, w in items)
    r = rng.uniform(0, total)
    for v, w in items:
        r -= w
        if r <= 0:
            return v
    return items[-1][0]


def ew_shapes(rng, kind):
    """(x_shape, y_shape, axis) for a case family."""
    if kind == "full":
        s = rand_shape(rng, rng.randint(1, 5))
        return s, list(s), -1
    if kind == "same_axis":
        # identical shapes: the axis is never checked (rule C, first line)
        # (also out of [-R, R): Paddle's InferMeta and CPU kernel take the
        # same-dims path before looking at the axis)
        s = rand_shape(rng, rng.randint(1, 5))
        axis = rng.choice([rng.randint(1, len(s)), len(s) + 1, -2, -len(s) - 1])
        return s, list(s), axis
    if kind in ("sub", "ones_in_y", "wrong_axis"):
        rx = rng.randint(1, 5)
        x = rand_shape(rng, rx)
        k = rng.randint(1, rx)
        a = rng.randint(0, rx - k)
        y = x[a : a + k]
        if kind == "ones_in_y":
            y = with_ones(rng, y, 0.5)
        axis = a if (a + k != rx or rng.random() < 0.5) else -1
        if kind == "wrong_axis":
            axis = rng.choice([v for v in range(-1, rx) if v != axis] or [-1])
        if rng.random() < 0.2:  # roles swapped: X is the lower-rank one
            x, y = y, x
        return x, y, axis
    if kind == "ones_in_x":
        rx = rng.randint(1, 5)
        x = rand_shape(rng, rx)
        k = rng.randint(1, rx)
        a = rng.randint(0, rx - k)
        y = x[a : a + k]
        x = list(x)
        for i in range(a, a + k):
            if rng.random() < 0.5:
                x[i] = 1
        if rng.random() < 0.3:
            y = rand_shape(rng, k)
        axis = a if (a + k != rx or rng.random() < 0.5) else -1
        return x, y, axis
    if kind == "trail1":
        rx = rng.randint(1, 5)
        x = rand_shape(rng, rx)
        k = rng.randint(1, rx)
        a = rng.randint(0, rx - k)
        y = x[a : a + k] + [1] * rng.randint(1, 3)
        axis = rng.choice([a, a, -1, rng.randint(0, rx - 1)])
        if rng.random() < 0.25:
            x, y = y, x
        return x, y, axis
    if kind == "scalar":
        x = rand_shape(rng, rng.randint(1, 5))
        y = rng.choice([[], [1], [1, 1]])
        axis = rng.choice([-1, -1, rng.randint(0, len(x) - 1)])
        if rng.random() < 0.15:
            x, y = y, x
        return x, y, axis
    if kind == "random":
        x = rand_shape(rng, rng.randint(1, 5))
        y = rand_shape(rng, rng.randint(1, 5))
        R = max(len(x), len(y))
        axis = rng.choice([-1, -1, rng.randint(0, R - 1), rng.randint(0, R)])
        return x, y, axis
    # edge shapes
    if kind == "rank8":
        x = edge_shape(rng, "rank8")
        r = rng.random()
        if r < 0.3:
            y = list(x)
            axis = -1
        elif r < 0.7:
            k = rng.randint(0, len(x))
            a = rng.randint(0, len(x) - k)
            y = with_ones(rng, x[a : a + k], 0.3)
            axis = rng.choice([a, -1])
        else:
            y = rand_shape(rng, rng.randint(1, 8), 1, 3)
            axis = rng.randint(-1, max(len(x), len(y)) - 1)
        if rng.random() < 0.2:
            x, y = y, x
        return x, y, axis
    if kind == "zero":
        x = edge_shape(rng, "zero")
        r = rng.random()
        k = rng.randint(0, len(x))
        a = rng.randint(0, len(x) - k)
        y = list(x[a : a + k])
        if r < 0.3:
            y = with_ones(rng, y, 0.4)
        elif r < 0.5 and y:
            i = rng.randrange(len(y))
            y[i] = rng.choice([0, 1, 2, 5])
        elif r < 0.6:
            y = list(x)
            x = [1 if d == 0 else d for d in x]
        axis = rng.choice([a, -1])
        if rng.random() < 0.2:
            x, y = y, x
        return x, y, axis
    if kind == "big":
        x = edge_shape(rng, "big")
        k = rng.randint(0, len(x))
        a = rng.randint(0, len(x) - k)
        y = with_ones(rng, x[a : a + k], 0.3)
        axis = rng.choice([a, -1])
        if rng.random() < 0.15 and y:
            y = perturb(rng, y)
        if rng.random() < 0.2:
            x, y = y, x
        return x, y, axis
    if kind == "scalars":
        x = rng.choice([[], [1], [3]])
        y = rng.choice([[], [1], [2]])
        return x, y, rng.choice([-1, 0])
    raise ValueError(kind)


EW_KINDS = [
    ("sub", 20),
    ("random", 18),
    ("ones_in_y", 8),
    ("full", 7),
    ("ones_in_x", 7),
    ("trail1", 6),
    ("scalar", 5),
    ("wrong_axis", 4),
    ("same_axis", 2),
    ("rank8", 8),
    ("zero", 6),
    ("big", 5),
    ("scalars", 2),
]


def gen_elementwise(rng, count):
    cases = []
    while len(cases) < count:
        kind = weighted(rng, EW_KINDS)
        x_shape, y_shape, axis = ew_shapes(rng, kind)
        if numel(x_shape) > MAX_ELEMS or numel(y_shape) > MAX_ELEMS:
            continue
        op = weighted(rng, EW_OPS)
        dtype = rng.choice(DTYPES) if op != "elementwise_div" else rng.choice(FLOAT_DTYPES)
        attrs = {"axis": axis}
        if dtype in FLOAT_DTYPES and rng.random() < 0.3:
            attrs["act"] = rng.choice(["relu", "tanh", "sigmoid"])
        case = {
            "name": f"{op}_{kind}",
            "op": op,
            "x": tensor(x_shape, dtype, rand_values(rng, dtype, numel(x_shape))),
            "y": tensor(
                y_shape,
                dtype,
                rand_values(rng, dtype, numel(y_shape), nonzero=op == "elementwise_div"),
            ),
            "attrs": attrs,
        }
        try:
            out, _ = ew_reference(case)
            if numel(out["shape"]) > MAX_ELEMS:
                continue
            case["out"] = out
        except Reject as e:
            case["error"] = str(e)
        if ew_overflows(x_shape, y_shape, axis):
            case["framework_overflow"] = True
            case["note"] = "decided by the seed's rule: trailing size-1 dims of the lower-rank operand are ignored"
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------
# select cases


def sel_shapes(rng, mode, kind):
    """(cond, then, else, axis)."""
    axis = 0
    edge = None
    if kind in ("rank8", "zero", "big"):
        edge = kind
    if mode == "pdpd":
        axis = -1 if rng.random() < 0.3 else 0
        if edge == "rank8":
            t = edge_shape(rng, "rank8")
        elif edge == "zero":
            t = edge_shape(rng, "zero")
        elif edge == "big":
            t = edge_shape(rng, "big")
        else:
            t = rand_shape(rng, rng.randint(0, 4))

        def src():
            k = rng.randint(0, len(t))
            s = t[:k] if axis == 0 else t[len(t) - k :]
            s = with_ones(rng, s, 0.35)
            if axis == 0 and rng.random() < 0.3:
                s = s + [1] * rng.randint(1, 2)
                if len(s) > len(t):
                    s = s[: len(t)] if rng.random() < 0.7 else s
            return s[:8]  # the library's maximum rank

        c, e = src(), src()
        if kind == "mismatch" or (edge and rng.random() < 0.25):
            if rng.random() < 0.5:
                e = perturb(rng, e) if rng.random() < 0.7 else rand_shape(rng, rng.randint(0, 4))
            else:
                c = perturb(rng, c) if rng.random() < 0.7 else rand_shape(rng, rng.randint(0, 4))
        # never draw a 1 against a 0 of then, or a 0 against a 1: OpenVINO's
        # shape inference and the README's one-way rule differ there
        for s in (c, e):
            a = len(t) - len(s) if axis == -1 else axis
            for i, d in enumerate(s):
                if 0 <= a + i < len(t):
                    if d == 1 and t[a + i] == 0:
                        s[i] = 0
                    elif d == 0 and t[a + i] == 1:
                        s[i] = 1
        return c, t, e, axis
    # none / numpy
    if edge == "rank8":
        out = edge_shape(rng, "rank8")
    elif edge == "zero":
        out = edge_shape(rng, "zero")
    elif edge == "big":
        out = edge_shape(rng, "big")
    else:
        out = rand_shape(rng, rng.randint(0, 4))
    if mode == "none":
        c, t, e = list(out), list(out), list(out)
        if kind == "mismatch" or (edge and rng.random() < 0.25):
            which = rng.randrange(3)
            new = perturb(rng, out) if rng.random() < 0.6 else rand_shape(rng, rng.randint(0, 4))
            [c, t, e][which][:] = new
        return c, t, e, axis

    def part():
        k = rng.randint(0, len(out))
        return with_ones(rng, out[len(out) - k :], 0.35)

    c, t, e = part(), part(), part()
    if kind == "mismatch" or (edge and rng.random() < 0.25):
        which = rng.randrange(3)
        lst = [c, t, e]
        lst[which] = (
            perturb(rng, lst[which]) if rng.random() < 0.6 else rand_shape(rng, rng.randint(0, 4))
        )
        c, t, e = lst
    return c, t, e, axis


SEL_KINDS = [
    ("numpy", "valid", 40),
    ("numpy", "mismatch", 18),
    ("none", "valid", 16),
    ("none", "mismatch", 7),
    ("pdpd", "valid", 11),
    ("pdpd", "mismatch", 8),
    ("numpy", "rank8", 4),
    ("numpy", "zero", 4),
    ("numpy", "big", 3),
    ("none", "rank8", 1),
    ("none", "zero", 1),
    ("none", "big", 1),
    ("pdpd", "rank8", 3),
    ("pdpd", "zero", 2),
    ("pdpd", "big", 2),
]


def gen_select(rng, count):
    cases = []
    items = [((m, k), w) for m, k, w in SEL_KINDS]
    while len(cases) < count:
        mode, kind = weighted(rng, items)
        cs, ts, es, axis = sel_shapes(rng, mode, kind)
        if max(numel(cs), numel(ts), numel(es)) > MAX_ELEMS:
            continue
        # OpenVINO's Select takes any element type for then/else, bool too
        dtype = rng.choice(DTYPES) if rng.random() > 0.04 else "bool"
        attrs = {"auto_broadcast": mode}
        if mode == "pdpd":
            attrs["axis"] = axis
        case = {
            "name": f"select_{mode}_{kind}",
            "op": "select",
            "cond": tensor(cs, "bool", [rng.random() < 0.5 for _ in range(numel(cs))]),
            "then": tensor(ts, dtype, rand_values(rng, dtype, numel(ts))),
            "else": tensor(es, dtype, rand_values(rng, dtype, numel(es))),
            "attrs": attrs,
        }
        try:
            out = sel_reference(case)
            if numel(out["shape"]) > MAX_ELEMS:
                continue
            case["out"] = out
        except Reject as e:
            case["error"] = str(e)
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------
# multiplex cases

MUX_KINDS = [
    ("ok", 45),
    ("negative", 13),
    ("out_of_range", 10),
    ("one", 10),
    ("many", 6),
    ("rows", 5),
    ("rank8", 4),
    ("zero", 4),
    ("fewer", 5),
    ("more", 3),
    ("mismatch", 3),
    ("rank1", 2),
    ("index_shape", 2),
    ("none", 1),
]


def gen_multiplex(rng, count):
    cases = []
    while len(cases) < count:
        kind = weighted(rng, MUX_KINDS)
        k = rng.randint(2, 5)
        shape = rand_shape(rng, rng.randint(2, 4), 1, 4)
        shape[0] = rng.randint(1, 5)
        if kind == "one":
            k = 1
        elif kind == "none":
            k = 0
        elif kind == "many":
            k = rng.randint(6, 10)
        elif kind == "rows":
            shape = [rng.choice([1000, 1500, 2048, 3000, 5000]), rng.randint(1, 2)]
            if rng.random() < 0.5:
                shape.append(1)
            k = rng.randint(2, 4)
        elif kind == "rank8":
            shape = rand_shape(rng, rng.choice([6, 7, 8]), 1, 3)
        elif kind == "zero":
            shape[rng.randrange(len(shape))] = 0
        elif kind == "rank1":
            shape = [rng.randint(1, 5)]
        if numel(shape) * max(k, 1) > 4 * MAX_ELEMS or numel(shape) > MAX_ELEMS:
            continue
        dtype = rng.choice(DTYPES)
        shapes = [list(shape) for _ in range(k)]
        if kind == "mismatch" and k >= 2:
            j = rng.randrange(1, k)
            s = list(shape)
            i = rng.randrange(1, len(s))  # keep the row count
            s[i] = rng.choice([v for v in range(1, 5) if v != s[i]])
            shapes[j] = s
        rows = shape[0]
        if kind == "fewer":
            rows = rng.randint(0, shape[0])
        elif kind == "more":
            rows = shape[0] + rng.randint(1, 3)
        ncand = max(k, 1)
        idx = [rng.randrange(ncand) for _ in range(rows)]
        if kind == "negative" and rows:
            idx[rng.randrange(rows)] = rng.choice([-1, -1, -2, -7])
        if kind == "out_of_range" and rows:
            idx[rng.randrange(rows)] = rng.randint(k, k + 3)
        idx_shape = [rows, 1]
        if kind == "index_shape":
            idx_shape = rng.choice([[rows], [rows, 1, 1], [1, rows] if rows != 1 else [1]])
            if idx_shape == [1, rows]:
                pass
        inputs = [tensor(s, dtype, rand_values(rng, dtype, numel(s))) for s in shapes]
        case = {
            "name": f"multiplex_{kind}",
            "op": "multiplex",
            "inputs": inputs,
            "index": tensor(idx_shape, "int32", idx),
        }
        try:
            case["out"] = mux_reference(case)
        except Reject as e:
            case["error"] = str(e)
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=600, help="cases per family")
    ap.add_argument("--out", required=True, help="directory to write")
    ap.add_argument(
        "--families",
        default="elementwise,select,multiplex",
        help="comma-separated subset",
    )
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    gens = {
        "elementwise": (gen_elementwise, "stress generator: Paddle 3.3.1 elementwise rule C"),
        "select": (gen_select, "stress generator: OpenVINO Select-1"),
        "multiplex": (gen_multiplex, "stress generator: paddle.multiplex"),
    }
    for fam in args.families.split(","):
        gen, source = gens[fam]
        # one stream per family, so a family's cases do not depend on the others
        rng = random.Random(f"{args.seed}/{fam}")
        cases = gen(rng, args.count)
        for c in cases:
            for t in [c.get(k) for k in ("x", "y", "cond", "then", "else", "index")] + c.get(
                "inputs", []
            ):
                assert t is None or len(t["shape"]) <= 8, (c["name"], t["shape"])
        path = os.path.join(args.out, f"{fam}.json")
        with open(path, "w") as f:
            json.dump({"op": fam, "source": source, "cases": cases}, f)
        n_err = sum("error" in c for c in cases)
        print(f"{path}: {len(cases)} cases ({n_err} rejected)")


if __name__ == "__main__":
    main()
