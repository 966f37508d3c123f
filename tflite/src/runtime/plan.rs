//! Where a model's activations go (feature `alloc`): one arena per
//! element type, each activation tensor at an offset, two tensors that are
//! live at the same operator never overlapping. `model!` places its
//! arena with it when it expands, and [`Plan`](crate::Plan) the
//! interpreter's buffers.
//!
//! A tensor is live from the operator that writes it to the last operator
//! that reads it (a `RESHAPE`'s output is a view of its input, so its
//! readers keep the input live). The model's input is the caller's and not
//! in the arena. The **liveness floor** is the largest sum of the sizes of
//! the tensors live at one operator: no placement takes less. [`place`]
//! searches for a placement inside the floor (for a chain it is found at
//! once: each output at the other end of the arena from its input), and
//! grows the arena only if none is found within its budget of steps.

use alloc::vec;
use alloc::vec::Vec;

use crate::format::model::Model;
use crate::format::types::{BuiltinOp, TensorType};

/// One activation to place: its size in elements and the operators
/// (by position in the run) from its writer to its last reader.
///
/// ```
/// use shapecheck_tflite::plan::Lifetime;
///
/// let l = Lifetime { size: 16, first: 0, last: 2 };
/// assert_eq!(l.size, 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lifetime {
    /// its elements
    pub size: usize,
    /// the operator that writes it (its position in the run)
    pub first: usize,
    /// the last operator that reads it
    pub last: usize,
}

impl Lifetime {
    fn overlaps(&self, other: &Lifetime) -> bool {
        self.first <= other.last && other.first <= self.last
    }
}

/// A placement: each lifetime's offset, in the order given, and the
/// arena's size (the largest end).
///
/// ```
/// use shapecheck_tflite::plan::{place, Lifetime};
///
/// let p = place(&[Lifetime { size: 4, first: 0, last: 1 }]);
/// assert_eq!((p.offsets, p.size), (vec![0], 4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// each lifetime's offset, in elements, in the order given
    pub offsets: Vec<usize>,
    /// the arena's elements
    pub size: usize,
}

/// The largest sum of sizes live at one operator: no placement takes
/// less.
///
/// ```
/// use shapecheck_tflite::plan::{liveness_floor, Lifetime};
///
/// let l = |size, first, last| Lifetime { size, first, last };
/// assert_eq!(liveness_floor(&[l(4, 0, 1), l(8, 1, 2), l(2, 2, 3)]), 12);
/// ```
pub fn liveness_floor(lifetimes: &[Lifetime]) -> usize {
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
///
/// ```
/// use shapecheck_tflite::plan::{liveness_floor, place, Lifetime};
///
/// // a chain: each tensor read by the next operator only
/// let chain = [(18_432, 0, 1), (36_864, 1, 2), (9_216, 2, 3)]
///     .map(|(size, first, last)| Lifetime { size, first, last });
/// let p = place(&chain);
/// assert_eq!((liveness_floor(&chain), p.size), (55_296, 55_296));
/// ```
pub fn place(lifetimes: &[Lifetime]) -> Placement {
    let floor = liveness_floor(lifetimes);
    // tensors in the order they are written; a larger one first on a tie
    let mut order: Vec<usize> = (0..lifetimes.len()).collect();
    order.sort_by_key(|&i| {
        let l = lifetimes.get(i).copied().unwrap_or(Lifetime {
            size: 0,
            first: 0,
            last: 0,
        });
        (l.first, usize::MAX - l.size)
    });
    let ordered: Vec<Lifetime> = order
        .iter()
        .filter_map(|&i| lifetimes.get(i).copied())
        .collect();
    let total = lifetimes
        .iter()
        .fold(0usize, |sum, l| sum.saturating_add(l.size));
    let mut limit = floor;
    loop {
        let mut offsets = Vec::with_capacity(ordered.len());
        let mut steps = 0;
        let found = search(&ordered, limit, &mut offsets, &mut steps);
        if found || limit >= total {
            if !found {
                // one after another: always fits in the total
                offsets.clear();
                let mut at = 0usize;
                for l in &ordered {
                    offsets.push(at);
                    at = at.saturating_add(l.size);
                }
            }
            // back to the order given
            let mut placed = vec![0usize; lifetimes.len()];
            for (&i, &at) in order.iter().zip(&offsets) {
                if let Some(slot) = placed.get_mut(i) {
                    *slot = at;
                }
            }
            let size = placed
                .iter()
                .zip(lifetimes)
                .map(|(o, l)| o.saturating_add(l.size))
                .max()
                .unwrap_or(0);
            return Placement {
                offsets: placed,
                size,
            };
        }
        // grow by a sixteenth of the floor (at least one element)
        limit = limit.saturating_add((floor / 16).max(1)).min(total);
    }
}

/// Places `ordered[offsets.len()..]` after `ordered[..offsets.len()]`,
/// placed at `offsets`, within `limit`; false when no placement is found
/// within the budget. Depth first, over the few offsets worth trying: the
/// arena's two ends and the edges of the placed tensors it overlaps in
/// time.
fn search(ordered: &[Lifetime], limit: usize, offsets: &mut Vec<usize>, steps: &mut usize) -> bool {
    let k = offsets.len();
    let (Some(&me), Some(before)) = (ordered.get(k), ordered.get(..k)) else {
        return true;
    };
    let Some(top) = limit.checked_sub(me.size) else {
        return false;
    };
    // the placed tensors live at the same time as this one, oldest first
    let live: Vec<(usize, usize)> = before
        .iter()
        .zip(offsets.iter())
        .filter(|(l, _)| l.overlaps(&me))
        .map(|(l, &at)| (at, at.saturating_add(l.size)))
        .collect();
    // the end away from the tensor written last that is still live: a
    // chain's output goes to the other end of the arena from its input
    let mut candidates = match live.last() {
        Some(&(at, _)) if at >= limit / 2 => vec![0, top],
        _ => vec![top, 0],
    };
    for &(start, end) in &live {
        candidates.push(end);
        if let Some(at) = start.checked_sub(me.size) {
            candidates.push(at);
        }
    }
    let mut tried = Vec::new();
    for at in candidates {
        if tried.contains(&at) || at > top {
            continue;
        }
        tried.push(at);
        let end = at.saturating_add(me.size);
        if !live.iter().all(|&(start, stop)| end <= start || stop <= at) {
            continue;
        }
        *steps += 1;
        if *steps > BUDGET {
            return false;
        }
        offsets.push(at);
        if search(ordered, limit, offsets, steps) {
            return true;
        }
        offsets.pop();
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
/// live). The model's inputs are the caller's.
///
/// ```
/// use shapecheck_tflite::plan::{activations, liveness_floor};
/// use shapecheck_tflite::{Model, TensorType};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let (tensors, lifetimes) = activations(&model, TensorType::Int8);
/// assert_eq!(tensors, [2, 6, 9]); // the convolution's, the logits, the scores
/// assert_eq!(liveness_floor(&lifetimes), 4000 + 4);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn activations(model: &Model<'_>, element: TensorType) -> (Vec<usize>, Vec<Lifetime>) {
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
            if let Some(r) = root.get(i).copied() {
                if let Some(l) = last.get_mut(r) {
                    *l = Some(k);
                }
            }
        }
        for o in op.outputs().iter().filter_map(|i| usize::try_from(i).ok()) {
            if op.op() == BuiltinOp::RESHAPE {
                if let Some(r) = inputs.first().and_then(|&i| root.get(i).copied()) {
                    if let Some(slot) = root.get_mut(o) {
                        *slot = r;
                    }
                    continue;
                }
            }
            if let (Some(f), Some(l)) = (first.get_mut(o), last.get_mut(o)) {
                *f = Some(k);
                *l = Some(l.unwrap_or(k).max(k));
            }
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
        if root.get(i) != Some(&i) || inputs.contains(&i) || t.dtype() != element {
            continue;
        }
        if let (Some(Some(first)), Some(Some(last))) = (first.get(i), last.get(i)) {
            tensors.push(i);
            lifetimes.push(Lifetime {
                size: t.elements(),
                first: *first,
                last: *last,
            });
        }
    }
    (tensors, lifetimes)
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use crate::{Model, TensorType};

    fn floor_and_plan(bytes: &[u8]) -> (usize, usize) {
        let model = Model::parse(bytes).unwrap();
        let (_, lifetimes) = activations(&model, TensorType::Int8);
        (liveness_floor(&lifetimes), place(&lifetimes).size)
    }

    #[test]
    fn the_projects_models_are_planned_at_their_floor() {
        let speech = include_bytes!("../../tests/models/speech.tflite");
        assert_eq!(floor_and_plan(speech), (4004, 4004));
        let sine = include_bytes!("../../tests/models/sine.tflite");
        assert_eq!(floor_and_plan(sine), (32, 32));
        let person = include_bytes!("../../tests/models/person_detect.tflite");
        assert_eq!(floor_and_plan(person), (55_296, 55_296));
    }
}
