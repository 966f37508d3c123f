//! Naive references of the shape rules, written from the spec
//! (`op-semantics.md` and the vectors' README) without the library's code:
//! each returns the output dims and where each operand sits in them, or
//! `None` when the framework rejects (or crashed on) the shapes. The targets
//! compare the library's answer with these, accept or reject alike.

/// The library's rank limit (`shapecheck::MAX_RANK`), restated.
pub const MAX_RANK: usize = 8;

/// An operand placed in the output's frame: its dims, 1 outside them.
pub fn padded(dims: &[usize], at: usize, rank: usize) -> Vec<usize> {
    let mut out = vec![1; rank];
    for (i, &d) in dims.iter().enumerate() {
        if at + i < rank {
            out[at + i] = d;
        }
    }
    out
}

/// Two dims broadcast numpy's way: equal, or one of them 1.
fn merge(a: usize, b: usize) -> Option<usize> {
    if a == b || b == 1 {
        Some(a)
    } else if a == 1 {
        Some(b)
    } else {
        None
    }
}

/// The element count, `None` when it overflows; 0 as soon as a dim is 0.
pub fn count(dims: &[usize]) -> Option<usize> {
    if dims.contains(&0) {
        return Some(0);
    }
    dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// The placed operands and the output of a broadcast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub out: Vec<usize>,
    /// Each operand's dims in the output's frame.
    pub placed: Vec<Vec<usize>>,
}

/// Drops `small`'s trailing 1s while it runs past `rank` from `at`; `None`
/// if it still runs past ("Y's trailing dims of size 1 are ignored").
fn fit(small: &[usize], at: usize, rank: usize) -> Option<&[usize]> {
    let mut s = small;
    while at + s.len() > rank {
        match s.split_last() {
            Some((1, rest)) => s = rest,
            _ => return None,
        }
    }
    Some(s)
}

/// Paddle 3.3.1's elementwise rule with `axis` (op-semantics §1, generation C,
/// plus the `framework_overflow` rule for an operand that runs past the end).
pub fn elementwise(x: &[usize], y: &[usize], axis: isize) -> Option<Frame> {
    if x.len() > MAX_RANK || y.len() > MAX_RANK {
        return None;
    }
    if x == y {
        return Some(Frame {
            out: x.to_vec(),
            placed: vec![x.to_vec(), y.to_vec()],
        });
    }
    let r = x.len().max(y.len());
    let (xp, yp) = if x.len() == y.len() {
        if axis != -1 && axis != 0 {
            return None;
        }
        (x.to_vec(), y.to_vec())
    } else {
        let ri = r as isize;
        if axis < -ri || axis >= ri {
            return None;
        }
        let small_rank = x.len().min(y.len()) as isize;
        let start = if axis < 0 {
            (ri - small_rank) + axis + 1
        } else {
            axis
        };
        if start < 0 {
            return None;
        }
        let start = start as usize;
        if x.len() < y.len() {
            (padded(fit(x, start, r)?, start, r), y.to_vec())
        } else {
            (x.to_vec(), padded(fit(y, start, r)?, start, r))
        }
    };
    let out = xp
        .iter()
        .zip(&yp)
        .map(|(&a, &b)| merge(a, b))
        .collect::<Option<Vec<_>>>()?;
    Some(Frame {
        out,
        placed: vec![xp, yp],
    })
}

/// OpenVINO Select-1's broadcast modes (op-semantics §2, the vectors' README).
#[derive(Clone, Copy, Debug)]
pub enum SelectMode {
    None,
    Numpy,
    Pdpd(isize),
}

/// Select's rule for cond, then, else; `placed` is in that order.
pub fn select(mode: SelectMode, c: &[usize], t: &[usize], e: &[usize]) -> Option<Frame> {
    if c.len() > MAX_RANK || t.len() > MAX_RANK || e.len() > MAX_RANK {
        return None;
    }
    match mode {
        SelectMode::None => (c == t && t == e).then(|| Frame {
            out: t.to_vec(),
            placed: vec![c.to_vec(), t.to_vec(), e.to_vec()],
        }),
        SelectMode::Numpy => {
            let r = c.len().max(t.len()).max(e.len());
            let placed: Vec<Vec<usize>> = [c, t, e]
                .iter()
                .map(|s| padded(s, r - s.len(), r))
                .collect();
            let mut out = Vec::new();
            for i in 0..r {
                out.push(merge(merge(placed[0][i], placed[1][i])?, placed[2][i])?);
            }
            Some(Frame { out, placed })
        }
        SelectMode::Pdpd(axis) => {
            let rt = t.len();
            if axis < -1 || axis > rt as isize {
                return None;
            }
            // one way: each source placed in then's dims, each dim then's or 1
            let place = |s: &[usize]| -> Option<Vec<usize>> {
                if s.len() > rt {
                    return None;
                }
                let at = if axis == -1 {
                    rt - s.len()
                } else {
                    axis as usize
                };
                let p = padded(fit(s, at, rt)?, at, rt);
                p.iter()
                    .zip(t)
                    .all(|(&a, &b)| a == b || a == 1)
                    .then_some(p)
            };
            let (pe, pc) = (place(e)?, place(c)?);
            Some(Frame {
                out: t.to_vec(),
                placed: vec![pc, t.to_vec(), pe],
            })
        }
    }
}

/// Paddle 3.3.1's multiplex shape rule, as measured (op-semantics §3):
/// at least 2 candidates, one shape of rank >= 2 for all, an index of shape
/// `[rows, 1]` with `rows` at most the candidates' first dim (fewer is fine,
/// more is an error); the output is `[rows] + candidate.shape[1..]`.
/// Zero-size candidates are accepted; a row whose element count overflows
/// `usize` is not.
pub fn multiplex(cands: &[&[usize]], index: &[usize]) -> Option<Vec<usize>> {
    let first = cands.first()?;
    if cands.len() < 2 || first.len() < 2 || first.len() > MAX_RANK || index.len() > MAX_RANK {
        return None;
    }
    if cands.iter().any(|c| c != first) {
        return None;
    }
    let [rows, 1] = index else { return None };
    if *rows > first[0] {
        return None;
    }
    // a row's element count (the product of the dims after the first) must
    // fit `usize`, even when a zero row count makes the output empty
    count(&first[1..])?;
    let mut out = first.to_vec();
    out[0] = *rows;
    count(&out)?;
    Some(out)
}
