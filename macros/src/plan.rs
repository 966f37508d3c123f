//! Where `model!` puts a model's activations: one arena, each activation
//! tensor at an offset, two tensors that are live at the same operator
//! never overlapping.
//!
//! A tensor is live from the operator that writes it to the last operator
//! that reads it (a `RESHAPE`'s output is a view of its input, so its
//! readers keep the input live). The model's input is the caller's and not
//! in the arena. The **liveness floor** is the largest sum of the sizes of
//! the tensors live at one operator: no placement takes less. [`place`]
//! searches for a placement inside the floor (for a chain it is found at
//! once: each output at the other end of the arena from its input), and
//! grows the arena only if none is found within its budget of steps.

/// One activation to place: its size in elements and the operators
/// (by position in the run) from its writer to its last reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lifetime {
    pub(crate) size: usize,
    pub(crate) first: usize,
    pub(crate) last: usize,
}

impl Lifetime {
    fn overlaps(&self, other: &Lifetime) -> bool {
        self.first <= other.last && other.first <= self.last
    }
}

/// A placement: each lifetime's offset, in the order given, and the
/// arena's size (the largest end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    pub(crate) offsets: Vec<usize>,
    pub(crate) size: usize,
}

/// The largest sum of sizes live at one operator.
pub(crate) fn liveness_floor(lifetimes: &[Lifetime]) -> usize {
    let ops = lifetimes.iter().map(|l| l.last + 1).max().unwrap_or(0);
    (0..ops)
        .map(|op| {
            lifetimes
                .iter()
                .filter(|l| l.first <= op && op <= l.last)
                .map(|l| l.size)
                .sum::<usize>()
        })
        .max()
        .unwrap_or(0)
}

/// How many placements the search tries for one arena size before it
/// takes a larger one.
const BUDGET: usize = 200_000;

/// Places every lifetime in the smallest arena the search finds, starting
/// at the liveness floor.
pub(crate) fn place(lifetimes: &[Lifetime]) -> Placement {
    let floor = liveness_floor(lifetimes);
    // tensors in the order they are written; a larger one first on a tie
    let mut order: Vec<usize> = (0..lifetimes.len()).collect();
    order.sort_by_key(|&i| {
        let l = lifetimes[i];
        (l.first, usize::MAX - l.size)
    });
    let total: usize = lifetimes.iter().map(|l| l.size).sum();
    let mut limit = floor;
    loop {
        let mut offsets = vec![usize::MAX; lifetimes.len()];
        let mut steps = 0;
        if search(lifetimes, &order, 0, limit, &mut offsets, &mut steps) {
            let size = offsets
                .iter()
                .zip(lifetimes)
                .map(|(o, l)| o + l.size)
                .max()
                .unwrap_or(0);
            return Placement { offsets, size };
        }
        if limit >= total {
            // unreachable: everything side by side always fits; kept so
            // that the loop cannot run forever
            let mut at = 0;
            let offsets = lifetimes
                .iter()
                .map(|l| {
                    let o = at;
                    at += l.size;
                    o
                })
                .collect();
            return Placement { offsets, size: at };
        }
        // grow by a sixteenth of the floor at a time
        limit = (limit + (floor / 16).max(1)).min(total);
    }
}

/// Places `order[k..]` inside `limit`, depth first over the candidate
/// offsets of each: the arena's two ends and the edges of the placed
/// tensors it overlaps in time.
fn search(
    lifetimes: &[Lifetime],
    order: &[usize],
    k: usize,
    limit: usize,
    offsets: &mut Vec<usize>,
    steps: &mut usize,
) -> bool {
    let Some(&i) = order.get(k) else {
        return true;
    };
    let me = lifetimes[i];
    if me.size > limit {
        return false;
    }
    let placed: Vec<(usize, usize)> = order[..k]
        .iter()
        .filter(|&&j| lifetimes[j].overlaps(&me))
        .map(|&j| (offsets[j], offsets[j] + lifetimes[j].size))
        .collect();
    // the end away from the tensor written last that is still live: a
    // chain's output goes to the other end of the arena from its input
    let newest = order[..k]
        .iter()
        .rev()
        .find(|&&j| lifetimes[j].overlaps(&me))
        .map(|&j| offsets[j]);
    let top = limit - me.size;
    let mut candidates = match newest {
        Some(at) if at >= limit / 2 => vec![0, top],
        _ => vec![top, 0],
    };
    for &(start, end) in &placed {
        candidates.push(end);
        if let Some(before) = start.checked_sub(me.size) {
            candidates.push(before);
        }
    }
    let mut tried = Vec::new();
    for at in candidates {
        if tried.contains(&at) || at + me.size > limit {
            continue;
        }
        tried.push(at);
        let free = placed
            .iter()
            .all(|&(start, end)| at + me.size <= start || end <= at);
        if !free {
            continue;
        }
        *steps += 1;
        if *steps > BUDGET {
            return false;
        }
        offsets[i] = at;
        if search(lifetimes, order, k + 1, limit, offsets, steps) {
            return true;
        }
        offsets[i] = usize::MAX;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(size: usize, first: usize, last: usize) -> Lifetime {
        Lifetime { size, first, last }
    }

    /// No two lifetimes that meet in time meet in the arena, and all fit.
    fn assert_valid(lifetimes: &[Lifetime], p: &Placement) {
        for (i, a) in lifetimes.iter().enumerate() {
            assert!(p.offsets[i] + a.size <= p.size);
            for (j, b) in lifetimes.iter().enumerate().skip(i + 1) {
                if a.overlaps(b) {
                    let (oa, ob) = (p.offsets[i], p.offsets[j]);
                    assert!(
                        oa + a.size <= ob || ob + b.size <= oa,
                        "{i} {a:?} at {oa} and {j} {b:?} at {ob}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_chain_alternates_ends_at_the_floor() {
        // person detection's first layers: 18,432 → 36,864 → 9,216 → ...
        let sizes = [18_432, 36_864, 9_216, 18_432, 18_432, 18_432, 4_608, 9_216];
        let lifetimes: Vec<_> = sizes
            .iter()
            .enumerate()
            .map(|(i, &s)| l(s, i, i + 1))
            .collect();
        let p = place(&lifetimes);
        assert_valid(&lifetimes, &p);
        assert_eq!((liveness_floor(&lifetimes), p.size), (55_296, 55_296));
    }

    #[test]
    fn a_residual_block_reaches_its_floor() {
        // x → conv a → conv b; shortcut conv s reads x; add(b, s)
        let lifetimes = [
            l(16, 0, 3), // x, read by the shortcut at op 3... and op 1
            l(16, 1, 2), // a
            l(16, 2, 4), // b
            l(16, 3, 4), // s
            l(16, 4, 5), // add
        ];
        let p = place(&lifetimes);
        assert_valid(&lifetimes, &p);
        assert_eq!(p.size, liveness_floor(&lifetimes));
    }

    #[test]
    fn random_graphs_are_valid_and_usually_at_the_floor() {
        // a small deterministic generator: no dependency for this
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..200 {
            let count = 2 + next(12);
            let lifetimes: Vec<_> = (0..count)
                .map(|i| l(1 + next(64), i, i + 1 + next(3)))
                .collect();
            let p = place(&lifetimes);
            assert_valid(&lifetimes, &p);
            assert!(p.size >= liveness_floor(&lifetimes));
        }
    }
}

/// The activations of `model` to place, and the tensor each is: every
/// tensor an operator writes whose type is `element`, a `RESHAPE`'s
/// output excepted (a view of its input: its readers keep its input
/// live). The model's input is the caller's.
pub(crate) fn activations(
    model: &shapecheck_tflite::Model<'_>,
    element: shapecheck_tflite::TensorType,
) -> (Vec<usize>, Vec<Lifetime>) {
    use shapecheck_tflite::BuiltinOp;
    let count = model.tensor_count();
    // the tensor whose elements each tensor is (itself, or a reshape's input's)
    let mut root: Vec<usize> = (0..count).collect();
    let mut first: Vec<Option<usize>> = vec![None; count];
    let mut last: Vec<Option<usize>> = vec![None; count];
    for (k, op) in model.operators().enumerate() {
        let inputs: Vec<usize> = op
            .inputs()
            .iter()
            .filter_map(|i| usize::try_from(i).ok())
            .filter(|&i| i < count)
            .collect();
        for &i in &inputs {
            let r = root[i];
            last[r] = Some(k);
        }
        for o in op.outputs().iter().filter_map(|i| usize::try_from(i).ok()) {
            if o >= count {
                continue;
            }
            if op.op() == BuiltinOp::RESHAPE {
                if let Some(&i) = inputs.first() {
                    root[o] = root[i];
                    continue;
                }
            }
            first[o] = Some(k);
            last[o] = Some(last[o].unwrap_or(k).max(k));
        }
    }
    let inputs: Vec<usize> = model
        .inputs()
        .iter()
        .filter_map(|i| usize::try_from(i).ok())
        .collect();
    let mut tensors = Vec::new();
    let mut lifetimes = Vec::new();
    for t in model.tensors() {
        let i = t.index();
        if root[i] != i || inputs.contains(&i) || t.dtype() != element {
            continue;
        }
        if let (Some(first), Some(last)) = (first[i], last[i]) {
            tensors.push(i);
            lifetimes.push(Lifetime {
                size: t.elements(),
                first,
                last,
            });
        }
    }
    (tensors, lifetimes)
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use shapecheck_tflite::{Model, TensorType};

    fn floor_and_plan(bytes: &[u8]) -> (usize, usize) {
        let model = Model::parse(bytes).unwrap();
        let (_, lifetimes) = activations(&model, TensorType::Int8);
        (liveness_floor(&lifetimes), place(&lifetimes).size)
    }

    #[test]
    fn the_projects_models_are_planned_at_their_floor() {
        let speech = include_bytes!("../../tflite/tests/models/speech.tflite");
        assert_eq!(floor_and_plan(speech), (4004, 4004));
        let sine = include_bytes!("../../tflite/tests/models/sine.tflite");
        assert_eq!(floor_and_plan(sine), (32, 32));
        let person = include_bytes!("../../tflite/tests/models/person_detect.tflite");
        assert_eq!(floor_and_plan(person), (55_296, 55_296));
    }
}

/// The MLPerf Tiny models, read from the directory `SHAPECHECK_MODELS`
/// names, by default `shared/models` beside the repository: `cargo test -p
/// shapecheck-macros --features tflite -- --ignored`. Fails when they are
/// missing.
#[cfg(test)]
mod tiny_tests {
    use super::*;
    use shapecheck_tflite::{Model, TensorType};

    #[test]
    #[ignore = "reads the MLPerf Tiny models from $SHAPECHECK_MODELS"]
    fn the_tiny_models_are_planned_at_their_floor() {
        // SHAPECHECK_MODELS, or shared/models beside the repository
        let dir = std::env::var("SHAPECHECK_MODELS")
            .unwrap_or_else(|_| format!("{}/../../shared/models", env!("CARGO_MANIFEST_DIR")));
        for (file, floor) in [
            ("person_detect.tflite", 55_296),
            ("vww_96_int8.tflite", 55_296),
            ("kws_ref_model.tflite", 16_000),
            ("pretrainedResnet_quant.tflite", 49_152),
            ("ad01_int8.tflite", 768),
            ("str_ww_ref_model.tflite", 6_656),
            ("pretrainedResnet_large_int8.tflite", 122_880),
        ] {
            let bytes = std::fs::read(format!("{dir}/{file}"))
                .unwrap_or_else(|e| panic!("{dir}/{file} (SHAPECHECK_MODELS): {e}"));
            let model = Model::parse(&bytes).unwrap();
            let (_, lifetimes) = activations(&model, TensorType::Int8);
            assert_eq!(liveness_floor(&lifetimes), floor, "{file}");
            assert_eq!(place(&lifetimes).size, floor, "{file}");
        }
    }
}
