#!/usr/bin/env python3
"""Writes compile-bench/fused/src/main.rs and compile-bench/chained/src/main.rs:
the same 20 computations of depth 5 (5 nodes from a tensor to the result),
as fused expressions (`x.lazy()` ... `.eval()`) and as plain ops (one
tensor per op; an activation after an op is that op's `act`, a scalar is a
rank-0 tensor, the named division's Result is matched with `let Ok(..) else`,
`map(|v| v * s)` is a multiplication by s, `zip_with` of a
max is `elementwise_max`). Static shapes of rank 0 to 5, f32 and f64, the
operators and the named ops with Paddle's axis, the three activations, two
selects, one map, one zip_with. Timed by run-fused.sh. Usage:
python3 compile-bench/gen_fused.py (rewrites both files)."""
import os
import subprocess

# steps: ("bin", op, rhs, axis) with rhs ("t", shape) or ("s", value) and axis
# None (numpy: the operator, or the named op at -1 for max / min);
# ("act", name); ("map", value) = v * value; ("zip", shape) = max;
# ("select", cond_shape, else) with else ("t", shape) or ("x", shape, value)
# = tensor * value.
EXPRS = [
    ("f32", [2, 3, 4, 5], [("bin", "mul", ("t", [3, 4]), 1), ("bin", "add", ("t", [5]), None),
                           ("act", "relu"), ("bin", "sub", ("s", "0.5"), None), ("bin", "mul", ("t", [4, 5]), None)]),
    ("f32", [4, 8], [("bin", "add", ("t", [8]), None), ("bin", "mul", ("s", "2.0"), None), ("act", "tanh"),
                     ("bin", "max", ("t", [4, 1]), None), ("bin", "div", ("s", "3.0"), None)]),
    ("f64", [2, 3, 4], [("bin", "sub", ("t", [3]), 1), ("act", "relu"), ("bin", "mul", ("s", "1.5"), None),
                        ("bin", "add", ("t", [4]), None), ("act", "sigmoid")]),
    ("f32", [6, 1, 5], [("bin", "mul", ("t", [4, 5]), None), ("bin", "add", ("s", "1.0"), None),
                        ("select", [6, 4, 1], ("t", [5])), ("bin", "sub", ("t", [4, 5]), None), ("act", "relu")]),
    ("f32", [5, 7], [("bin", "min", ("t", [5, 7]), None), ("bin", "mul", ("s", "0.25"), None),
                     ("bin", "add", ("t", [7]), None), ("act", "sigmoid"), ("bin", "sub", ("s", "0.5"), None)]),
    ("f64", [3, 4, 5, 6, 2], [("bin", "add", ("t", [6, 2]), None), ("bin", "mul", ("t", [5, 1, 1]), None),
                              ("act", "relu"), ("bin", "div", ("s", "4.0"), None), ("bin", "add", ("t", [2]), None)]),
    ("f32", [8], [("bin", "mul", ("t", [8]), None), ("bin", "add", ("s", "1.0"), None), ("act", "tanh"),
                  ("bin", "mul", ("s", "3.0"), None), ("bin", "max", ("t", [8]), None)]),
    ("f32", [2, 2, 2], [("bin", "sub", ("t", [2, 1]), None), ("bin", "mul", ("t", [2, 2, 2]), None),
                        ("map", "0.5"), ("bin", "add", ("s", "1.0"), None), ("act", "relu")]),
    ("f32", [4, 3], [("bin", "add", ("t", [3]), None), ("zip", [4, 3]), ("bin", "mul", ("s", "2.0"), None),
                     ("bin", "sub", ("t", [4, 1]), None), ("act", "sigmoid")]),
    ("f64", [3, 3, 3], [("bin", "mul", ("t", [3, 3]), None), ("bin", "add", ("s", "0.1"), None),
                        ("bin", "sub", ("t", [3]), 0), ("act", "relu"), ("bin", "mul", ("s", "2.0"), None)]),
    ("f32", [2, 4, 6], [("bin", "add", ("t", [4]), 1), ("bin", "mul", ("s", "0.5"), None),
                        ("bin", "min", ("t", [2, 4, 6]), None), ("act", "tanh"), ("bin", "add", ("s", "1.0"), None)]),
    ("f32", [7, 2], [("bin", "div", ("s", "2.0"), None), ("bin", "add", ("t", [2]), None),
                     ("select", [7, 1], ("x", [7, 2], "2.0")), ("bin", "sub", ("s", "1.0"), None), ("act", "relu")]),
    ("f64", [2, 3, 4, 5], [("bin", "mul", ("t", [4, 5]), 2), ("bin", "add", ("s", "1.0"), None), ("act", "sigmoid"),
                           ("bin", "mul", ("t", [5]), None), ("bin", "sub", ("s", "0.5"), None)]),
    ("f32", [10], [("bin", "add", ("s", "1.0"), None), ("bin", "mul", ("t", [10]), None), ("act", "relu"),
                   ("bin", "sub", ("t", [10]), None), ("bin", "mul", ("s", "0.1"), None)]),
    ("f32", [3, 1, 4], [("bin", "mul", ("t", [5, 1]), None), ("bin", "add", ("t", [4]), None), ("act", "tanh"),
                        ("bin", "mul", ("s", "2.0"), None), ("bin", "max", ("t", [3, 5, 4]), None)]),
    ("f64", [6, 6], [("bin", "sub", ("t", [6]), None), ("bin", "mul", ("t", [6]), None), ("act", "relu"),
                     ("bin", "add", ("s", "0.5"), None), ("bin", "div", ("t", [6, 1]), None)]),
    ("f32", [2, 3, 2, 3], [("bin", "add", ("t", [3, 2]), 1), ("act", "relu"), ("bin", "mul", ("s", "1.5"), None),
                           ("bin", "sub", ("t", [3]), None), ("act", "sigmoid")]),
    ("f32", [4, 4, 4], [("bin", "mul", ("s", "2.0"), None), ("bin", "add", ("t", [4, 4]), None),
                        ("bin", "div", ("t", [4]), 0), ("act", "relu"), ("bin", "sub", ("s", "0.25"), None)]),
    ("f32", [5, 1], [("bin", "add", ("t", [5]), None), ("bin", "mul", ("s", "0.5"), None),
                     ("bin", "max", ("t", [1, 5]), None), ("act", "tanh"), ("bin", "mul", ("s", "2.0"), None)]),
    ("f64", [3, 4], [("bin", "mul", ("t", [4]), None), ("bin", "sub", ("s", "1.0"), None), ("act", "relu"),
                     ("bin", "add", ("t", [3, 1]), None), ("bin", "mul", ("t", [3, 4]), None)]),
]

SYM = {"mul": "*", "add": "+", "sub": "-", "div": "/"}
ACT = {"relu": "Relu", "tanh": "Tanh", "sigmoid": "Sigmoid"}


def shape(s):
    return "shape![" + ", ".join(map(str, s)) + "]"


def cast(ty):
    return " as f32" if ty == "f64" else ""


def tensor(name, ty, s, v):
    return f"    let {name} = Tensor::<{ty}, {shape(s)}>::full({v});\n"


def operands(i, ty, x, steps):
    """The tensors both programs declare: x, then one per tensor operand."""
    out = tensor(f"x{i}", ty, x, f"{i + 1}.0")
    for k, st in enumerate(steps):
        if st[0] == "bin" and st[2][0] == "t":
            out += tensor(f"y{i}_{k}", ty, st[2][1], f"1.{k + 1}")
        elif st[0] == "zip":
            out += tensor(f"y{i}_{k}", ty, st[1], f"1.{k + 1}")
        elif st[0] == "select":
            out += f"    let c{i}_{k} = Tensor::<bool, {shape(st[1])}>::full(true);\n"
            out += tensor(f"y{i}_{k}", ty, st[2][1], f"1.{k + 1}")
    return out


def bare(e):
    """`e` without parentheses around the whole of it (a function argument)."""
    if not (e.startswith("(") and e.endswith(")")):
        return e
    depth = 0
    for j, ch in enumerate(e):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and j < len(e) - 1:
            return e
    return e[1:-1]


def fused(i, ty, x, steps):
    cur = f"x{i}.lazy()"
    for k, st in enumerate(steps):
        kind = st[0]
        if kind == "bin":
            _, op, rhs, axis = st
            r = f"&y{i}_{k}" if rhs[0] == "t" else rhs[1]
            if axis is not None or op in ("max", "min"):
                cur = f"{cur}.elementwise_{op}({r}, Axis::<{-1 if axis is None else axis}>, Identity)"
            else:
                cur = f"({cur} {SYM[op]} {r})"
        elif kind == "act":
            cur = f"{cur}.{st[1]}()"
        elif kind == "map":
            cur = f"{cur}.map(|v| v * {st[1]})"
        elif kind == "zip":
            cur = f"{cur}.zip_with(&y{i}_{k}, |a, b| if a > b {{ a }} else {{ b }})"
        elif kind == "select":
            e = st[2]
            els = f"&y{i}_{k}" if e[0] == "t" else f"y{i}_{k}.lazy() * {e[2]}"
            cur = f"expr::select(&c{i}_{k}, {bare(cur)}, {els}, Numpy)"
    return operands(i, ty, x, steps) + f"    let z{i} = {cur}.eval();\n    total += z{i}.as_slice()[0]{cast(ty)};\n"


def chained(i, ty, x, steps):
    out = operands(i, ty, x, steps)
    prev = f"x{i}"
    k = 0
    n = 0
    while k < len(steps):
        st = steps[k]
        kind = st[0]
        act = "Identity"
        if k + 1 < len(steps) and steps[k + 1][0] == "act":
            act = ACT[steps[k + 1][1]]
        name = f"z{i}_{n}"
        n += 1
        if kind in ("bin", "map", "zip"):
            if kind == "bin":
                _, op, rhs, axis = st
            elif kind == "map":
                op, rhs, axis = "mul", ("s", st[1]), None
            else:
                op, rhs, axis = "max", ("t", None), None
            if rhs[0] == "s":
                out += f"    let s{i}_{k} = Tensor::<{ty}, shape![]>::full({rhs[1]});\n"
                r = f"&s{i}_{k}"
            else:
                r = f"&y{i}_{k}"
            if act == "Identity" and axis is None and op in SYM:
                out += f"    let {name} = &{prev} {SYM[op]} {r};\n"
            else:
                ax = -1 if axis is None else axis
                call = f"{prev}.elementwise_{op}({r}, Axis::<{ax}>, {act})"
                if op == "div":
                    # the named division returns a Result (an integer zero divisor)
                    out += f"    let Ok({name}) = {call} else {{ return }};\n"
                else:
                    out += f"    let {name} = {call};\n"
            if act != "Identity":
                k += 1  # the activation was the op's
        elif kind == "select":
            e = st[2]
            if e[0] == "t":
                els = f"&y{i}_{k}"
            else:
                out += f"    let s{i}_{k} = Tensor::<{ty}, shape![]>::full({e[2]});\n"
                out += f"    let e{i}_{k} = &y{i}_{k} * &s{i}_{k};\n"
                els = f"&e{i}_{k}"
            out += f"    let {name} = select(&c{i}_{k}, &{prev}, {els}, Numpy);\n"
        else:
            raise ValueError(f"expression {i}: an activation after {steps[k - 1][0]}")
        prev = name
        k += 1
    return out + f"    total += {prev}.as_slice()[0]{cast(ty)};\n"


HEAD = """//! {what}
//! Generated by `python3 compile-bench/gen_fused.py` (edit that, not this);
//! timed by `compile-bench/run-fused.sh` (docs/measurements.md, "Compile
//! time", "Fused expressions").

{uses}
fn main() {{
    let mut total = 0.0f32;
"""

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    for kind, gen, what, uses in [
        ("fused", fused,
         "20 fused expressions of depth 5 on static shapes (operators, named ops with an\n"
         "//! axis, scalars, relu / tanh / sigmoid, two selects, a map, a zip_with), each\n"
         "//! evaluated once; `../chained` is the same 20 computations with plain ops.",
         "use shapecheck::expr;\nuse shapecheck::prelude::*;\n"),
        ("chained", chained,
         "The 20 computations of `../fused` (depth 5 each) written with plain ops: one\n"
         "//! tensor per op, an activation as its op's `act`, a scalar as a rank-0 tensor.",
         "use shapecheck::prelude::*;\n"),
    ]:
        body = HEAD.format(what=what, uses=uses)
        for i, (ty, x, steps) in enumerate(EXPRS):
            assert len(steps) == 5, i
            body += gen(i, ty, x, steps)
        body += '    println!("{total}");\n}\n'
        path = os.path.join(here, kind, "src", "main.rs")
        with open(path, "w") as f:
            f.write(body)
        subprocess.run(["rustfmt", "--edition", "2021", path], check=True)
