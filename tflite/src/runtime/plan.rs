//! Where a model's activations go: one arena per element type, each
//! activation tensor at an offset, two tensors that are live at the same
//! operator never overlapping. `model!` places its arena with it when it
//! expands, and the interpreter its buffers (`Plan`, feature `alloc`, and
//! [`Interpreter::planned`](crate::Interpreter::planned), no heap).
//!
//! A tensor is live from the operator that writes it to the last operator
//! that reads it (a `RESHAPE`'s output is a view of its input, so its
//! readers keep the input live). The model's input is the caller's and not
//! in the arena. The **liveness floor** is the largest sum of the sizes of
//! the tensors live at one operator: no placement takes less. `place`
//! searches for a placement inside the floor (for a chain it is found at
//! once: each output at the other end of the arena from its input), and
//! grows the arena only if none is found within its budget of steps.
//!
//! The search itself needs no heap: [`place_in`] and [`activations_in`]
//! work in `usize` scratch the caller gives, so that the interpreter
//! plans on the device ([`Interpreter::planned`](crate::Interpreter::planned)).
//! `place` and `activations` (feature `alloc`) are the same functions
//! over scratch on the heap.

#[cfg(feature = "alloc")]
use alloc::vec;
#[cfg(feature = "alloc")]
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
#[cfg(feature = "alloc")]
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
    floor_of(lifetimes.len(), |i| lifetimes.get(i).copied())
}

/// [`liveness_floor`] of the `n` lifetimes `lifetime` gives.
fn floor_of(n: usize, lifetime: impl Fn(usize) -> Option<Lifetime>) -> usize {
    let all = || (0..n).filter_map(&lifetime);
    let ops = all().map(|l| l.last.saturating_add(1)).max().unwrap_or(0);
    (0..ops)
        .map(|op| {
            all()
                .filter(|l| l.first <= op && op <= l.last)
                .fold(0usize, |sum, l| sum.saturating_add(l.size))
        })
        .max()
        .unwrap_or(0)
}

/// How many placements the search tries for one arena size before it
/// takes a larger one.
const BUDGET: usize = 200_000;

/// Places every lifetime in the smallest arena the search finds, starting
/// at the liveness floor ([`place_in`] over scratch on the heap, feature
/// `alloc`).
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
#[cfg(feature = "alloc")]
pub fn place(lifetimes: &[Lifetime]) -> Placement {
    let n = lifetimes.len();
    let mut scratch = vec![0usize; PLACE_SCRATCH_PER_LIFETIME * n];
    let mut offsets = vec![0usize; n];
    // the lengths are the ones `place_in` asks for: it does not fail
    let size = place_in(lifetimes, &mut offsets, &mut scratch).unwrap_or(0);
    Placement { offsets, size }
}

/// The `usize`s of scratch [`place_in`] needs per lifetime.
pub const PLACE_SCRATCH_PER_LIFETIME: usize = 3;

/// `place` (feature `alloc`) without a heap: writes each lifetime's offset, in the order
/// given, into `offsets` and returns the arena's size, working in
/// `scratch` ([`PLACE_SCRATCH_PER_LIFETIME`] `usize`s per lifetime).
/// `None`, writing nothing, when `offsets` or `scratch` is too short.
///
/// ```
/// use shapecheck_tflite::plan::{place_in, Lifetime, PLACE_SCRATCH_PER_LIFETIME};
///
/// let chain = [(18_432, 0, 1), (36_864, 1, 2), (9_216, 2, 3)]
///     .map(|(size, first, last)| Lifetime { size, first, last });
/// let mut offsets = [0usize; 3];
/// let mut scratch = [0usize; 3 * PLACE_SCRATCH_PER_LIFETIME];
/// assert_eq!(place_in(&chain, &mut offsets, &mut scratch), Some(55_296));
/// // each output at the other end of the arena from its input
/// assert_eq!(offsets, [36_864, 0, 46_080]);
/// assert_eq!(place_in(&chain, &mut offsets, &mut scratch[..8]), None);
/// ```
pub fn place_in(
    lifetimes: &[Lifetime],
    offsets: &mut [usize],
    scratch: &mut [usize],
) -> Option<usize> {
    let n = lifetimes.len();
    if offsets.len() < n {
        return None;
    }
    let size = place_with(n, |i| lifetimes.get(i).copied(), scratch)?;
    let (order, placed) = scratch.split_at(n);
    for (&i, &at) in order.iter().zip(placed) {
        if let Some(slot) = offsets.get_mut(i) {
            *slot = at;
        }
    }
    Some(size)
}

/// The placement of the `n` lifetimes `lifetime` gives, in `scratch`
/// (`3 n` long, else `None`): on return its first `n` are the lifetimes
/// in the order they were placed and the next `n` their offsets, in that
/// order; returns the arena's size.
pub(crate) fn place_with(
    n: usize,
    lifetime: impl Fn(usize) -> Option<Lifetime>,
    scratch: &mut [usize],
) -> Option<usize> {
    let (order, rest) = scratch.split_at_mut_checked(n)?;
    let (offsets, rest) = rest.split_at_mut_checked(n)?;
    let cursors = rest.get_mut(..n)?;
    let get = |i: usize| {
        lifetime(i).unwrap_or(Lifetime {
            size: 0,
            first: 0,
            last: 0,
        })
    };
    let floor = floor_of(n, &lifetime);
    // tensors in the order they are written; a larger one first on a tie
    // (the index last: the order of a stable sort)
    for (k, o) in order.iter_mut().enumerate() {
        *o = k;
    }
    order.sort_unstable_by_key(|&i| {
        let l = get(i);
        (l.first, usize::MAX - l.size, i)
    });
    let ordered = |k: usize| order.get(k).map_or(get(usize::MAX), |&i| get(i));
    let total = (0..n).fold(0usize, |sum, i| sum.saturating_add(get(i).size));
    let mut limit = floor;
    loop {
        let found = search(n, &ordered, limit, offsets, cursors);
        if found || limit >= total {
            if !found {
                // one after another: always fits in the total
                let mut at = 0usize;
                for (k, o) in offsets.iter_mut().enumerate() {
                    *o = at;
                    at = at.saturating_add(ordered(k).size);
                }
            }
            let size = offsets
                .iter()
                .enumerate()
                .map(|(k, &o)| o.saturating_add(ordered(k).size))
                .max()
                .unwrap_or(0);
            return Some(size);
        }
        // grow by a sixteenth of the floor (at least one element)
        limit = limit.saturating_add((floor / 16).max(1)).min(total);
    }
}

/// Places the `n` lifetimes `ordered` gives, in that order, within
/// `limit`, writing their offsets; false when no placement is found
/// within the budget. Depth first, over the few offsets worth trying:
/// the arena's two ends and the edges of the placed tensors it overlaps
/// in time. `cursors[k]`: the next of lifetime `k`'s candidates to try
/// (the search's stack, kept in the caller's scratch).
fn search(
    n: usize,
    ordered: &impl Fn(usize) -> Lifetime,
    limit: usize,
    offsets: &mut [usize],
    cursors: &mut [usize],
) -> bool {
    let mut steps = 0usize;
    let mut k = 0usize;
    if let Some(c) = cursors.first_mut() {
        *c = 0;
    }
    loop {
        if k >= n {
            return true;
        }
        let from = cursors.get(k).copied().unwrap_or(usize::MAX);
        match next_candidate(k, ordered, limit, offsets, from) {
            Some((next, at)) => {
                steps += 1;
                if steps > BUDGET {
                    return false;
                }
                if let (Some(o), Some(c)) = (offsets.get_mut(k), cursors.get_mut(k)) {
                    *o = at;
                    *c = next;
                }
                k += 1;
                if let Some(c) = cursors.get_mut(k) {
                    *c = 0;
                }
            }
            None => match k.checked_sub(1) {
                Some(back) => k = back,
                None => return false,
            },
        }
    }
}

/// Lifetime `k`'s first candidate offset, from its candidate `from` on,
/// that overlaps none of the placed lifetimes live with it: the
/// candidate after it and the offset. The candidates: the end away from
/// the tensor written last that is still live (a chain's output goes to
/// the other end of the arena from its input), the other end, then each
/// live tensor's end and the offset just before its start; one tried
/// once.
fn next_candidate(
    k: usize,
    ordered: &impl Fn(usize) -> Lifetime,
    limit: usize,
    offsets: &[usize],
    from: usize,
) -> Option<(usize, usize)> {
    let me = ordered(k);
    let top = limit.checked_sub(me.size)?;
    // the placed tensors live at the same time as this one, oldest first
    let live = || {
        (0..k).filter_map(move |j| {
            let l = ordered(j);
            let at = *offsets.get(j)?;
            l.overlaps(&me).then(|| (at, at.saturating_add(l.size)))
        })
    };
    let ends = match live().last() {
        Some((at, _)) if at >= limit / 2 => [0, top],
        _ => [top, 0],
    };
    let candidates = || {
        ends.into_iter().chain(live().flat_map(move |(start, end)| {
            [Some(end), start.checked_sub(me.size)]
                .into_iter()
                .flatten()
        }))
    };
    for (i, at) in candidates().enumerate().skip(from) {
        if at > top || candidates().take(i).any(|c| c == at) {
            continue;
        }
        let end = at.saturating_add(me.size);
        if live().all(|(start, stop)| end <= start || stop <= at) {
            return Some((i + 1, at));
        }
    }
    None
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::vec::Vec;

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
/// live). The model's inputs are the caller's. [`activations_in`] over
/// scratch on the heap (feature `alloc`).
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
#[cfg(feature = "alloc")]
pub fn activations(model: &Model<'_>, element: TensorType) -> (Vec<usize>, Vec<Lifetime>) {
    let count = model.tensor_count();
    let mut tables = vec![0usize; ACTIVATION_TABLES_PER_TENSOR * count];
    let mut found = vec![0usize; ACTIVATION_PER_TENSOR * count];
    let n = activations_in(model, element, &mut tables, &mut found).unwrap_or(0);
    let (tensors, lifetimes) = (0..n).filter_map(|k| activation(&found, k)).unzip();
    (tensors, lifetimes)
}

/// The `usize`s of working tables [`activations_in`] needs per tensor of
/// the model.
pub const ACTIVATION_TABLES_PER_TENSOR: usize = 3;

/// The `usize`s [`activations_in`] writes per activation found (at most
/// one per tensor of the model): the tensor, then its lifetime's size,
/// first and last operator ([`activation`]).
pub const ACTIVATION_PER_TENSOR: usize = 4;

/// `activations` (feature `alloc`) without a heap: writes the activations found into
/// `found` (read each with [`activation`]) and returns how many,
/// working in `tables`; each buffer at least its constant
/// ([`ACTIVATION_TABLES_PER_TENSOR`], [`ACTIVATION_PER_TENSOR`]) times
/// the model's tensors long, else `None`, writing nothing.
///
/// ```
/// use shapecheck_tflite::plan::{activation, activations_in, Lifetime};
/// use shapecheck_tflite::{Model, TensorType};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let tensors = model.tensor_count();
/// let (mut tables, mut found) = ([0usize; 64], [0usize; 64]);
/// assert!(tables.len() >= 3 * tensors && found.len() >= 4 * tensors);
/// let n = activations_in(&model, TensorType::Int8, &mut tables, &mut found);
/// assert_eq!(n, Some(3));
/// // the convolution's output: written by operator 1, read by operator 2
/// assert_eq!(activation(&found, 0), Some((2, Lifetime { size: 4000, first: 1, last: 2 })));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn activations_in(
    model: &Model<'_>,
    element: TensorType,
    tables: &mut [usize],
    found: &mut [usize],
) -> Option<usize> {
    const NONE: usize = usize::MAX;
    let count = model.tensor_count();
    if found.len() < ACTIVATION_PER_TENSOR.checked_mul(count)? {
        return None;
    }
    // the tensor whose elements each tensor is (itself, or a reshape's
    // input's), the operator that writes it and the last that reads it
    let (root, rest) = tables.split_at_mut_checked(count)?;
    let (first, rest) = rest.split_at_mut_checked(count)?;
    let last = rest.get_mut(..count)?;
    for (i, r) in root.iter_mut().enumerate() {
        *r = i;
    }
    first.fill(NONE);
    last.fill(NONE);
    for (k, op) in model.operators().enumerate() {
        let inputs = || {
            op.inputs()
                .iter()
                .filter_map(|i| usize::try_from(i).ok())
                .filter(|&i| i < count)
        };
        for i in inputs() {
            if let Some(r) = root.get(i).copied() {
                if let Some(l) = last.get_mut(r) {
                    *l = k;
                }
            }
        }
        for o in op.outputs().iter().filter_map(|i| usize::try_from(i).ok()) {
            if op.op() == BuiltinOp::RESHAPE {
                if let Some(r) = inputs().next().and_then(|i| root.get(i).copied()) {
                    if let Some(slot) = root.get_mut(o) {
                        *slot = r;
                    }
                    continue;
                }
            }
            if let (Some(f), Some(l)) = (first.get_mut(o), last.get_mut(o)) {
                *f = k;
                *l = if *l == NONE { k } else { (*l).max(k) };
            }
        }
    }
    let is_input = |i: usize| {
        model
            .inputs()
            .iter()
            .any(|j| usize::try_from(j).ok() == Some(i))
    };
    let mut n = 0usize;
    for t in model.tensors() {
        let i = t.index();
        if root.get(i) != Some(&i) || is_input(i) || t.dtype() != element {
            continue;
        }
        if let (Some(&f), Some(&l)) = (first.get(i), last.get(i)) {
            if f == NONE || l == NONE {
                continue;
            }
            let at = n.saturating_mul(ACTIVATION_PER_TENSOR);
            if let Some(out) = found.get_mut(at..at.saturating_add(ACTIVATION_PER_TENSOR)) {
                out.copy_from_slice(&[i, t.elements(), f, l]);
                n += 1;
            }
        }
    }
    Some(n)
}

/// The `k`th activation [`activations_in`] wrote into `found`: its tensor
/// and lifetime.
///
/// ```
/// use shapecheck_tflite::plan::{activation, Lifetime};
///
/// let found = [7, 16, 0, 2];
/// assert_eq!(activation(&found, 0), Some((7, Lifetime { size: 16, first: 0, last: 2 })));
/// assert_eq!(activation(&found, 1), None);
/// ```
pub fn activation(found: &[usize], k: usize) -> Option<(usize, Lifetime)> {
    let at = k.checked_mul(ACTIVATION_PER_TENSOR)?;
    match found.get(at..at.checked_add(ACTIVATION_PER_TENSOR)?)? {
        &[tensor, size, first, last] => Some((tensor, Lifetime { size, first, last })),
        _ => None,
    }
}

#[cfg(all(test, feature = "alloc"))]
mod model_tests {
    extern crate std;

    use super::*;
    use alloc::vec::Vec;

    fn floor_and_plan(bytes: &[u8]) -> (usize, usize) {
        let model = Model::parse(bytes).unwrap();
        let (_, lifetimes) = activations(&model, TensorType::Int8);
        (liveness_floor(&lifetimes), place(&lifetimes).size)
    }

    /// Every `.tflite` of the repository's test folders, with its path.
    fn every_model() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let mut all = Vec::new();
        for dir in ["models", "ops", "user"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "tflite"))
                .collect();
            paths.sort();
            for p in paths {
                let bytes = std::fs::read(&p).unwrap();
                all.push((p, bytes));
            }
        }
        all
    }

    #[test]
    fn the_heapless_search_places_every_model_as_the_recursive_one_did() {
        let mut compared = 0;
        for (path, bytes) in every_model() {
            let Ok(model) = Model::parse(&bytes) else {
                continue;
            };
            for element in [
                TensorType::Int8,
                TensorType::Int16,
                TensorType::Int32,
                TensorType::Float32,
            ] {
                let (tensors, mut lifetimes) = activations(&model, element);
                let want = super::reference_search::place(&lifetimes);
                let got = place(&lifetimes);
                assert_eq!((got.offsets, got.size), want, "{path:?} {element:?}");
                // as the interpreter's packed layout asks: outputs live to the end
                let end = model.operator_count().saturating_sub(1);
                for (t, l) in tensors.iter().zip(lifetimes.iter_mut()) {
                    if model
                        .outputs()
                        .iter()
                        .any(|o| usize::try_from(o).ok() == Some(*t))
                    {
                        l.last = end;
                    }
                }
                let want = super::reference_search::place(&lifetimes);
                let got = place(&lifetimes);
                assert_eq!(
                    (got.offsets, got.size),
                    want,
                    "{path:?} {element:?}, stretched"
                );
                compared += 1;
            }
        }
        assert!(compared >= 4 * 60, "{compared} placements compared");
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

/// The placement as it was written before the search ran without a heap
/// (recursive, its candidates in vectors): the no-heap search must place
/// every model of the repository exactly as it did.
#[cfg(all(test, feature = "alloc"))]
mod reference_search {
    use super::{liveness_floor, Lifetime, BUDGET};
    use alloc::vec;
    use alloc::vec::Vec;

    pub(super) fn place(lifetimes: &[Lifetime]) -> (Vec<usize>, usize) {
        let floor = liveness_floor(lifetimes);
        let mut order: Vec<usize> = (0..lifetimes.len()).collect();
        order.sort_by_key(|&i| (lifetimes[i].first, usize::MAX - lifetimes[i].size));
        let ordered: Vec<Lifetime> = order.iter().map(|&i| lifetimes[i]).collect();
        let total: usize = lifetimes.iter().map(|l| l.size).sum();
        let mut limit = floor;
        loop {
            let mut offsets = Vec::new();
            let mut steps = 0;
            let found = search(&ordered, limit, &mut offsets, &mut steps);
            if found || limit >= total {
                if !found {
                    offsets.clear();
                    let mut at = 0;
                    for l in &ordered {
                        offsets.push(at);
                        at += l.size;
                    }
                }
                let mut placed = vec![0usize; lifetimes.len()];
                for (&i, &at) in order.iter().zip(&offsets) {
                    placed[i] = at;
                }
                let size = placed
                    .iter()
                    .zip(lifetimes)
                    .map(|(o, l)| o + l.size)
                    .max()
                    .unwrap_or(0);
                return (placed, size);
            }
            limit = (limit + (floor / 16).max(1)).min(total);
        }
    }

    fn search(
        ordered: &[Lifetime],
        limit: usize,
        offsets: &mut Vec<usize>,
        steps: &mut usize,
    ) -> bool {
        let k = offsets.len();
        let Some(&me) = ordered.get(k) else {
            return true;
        };
        let Some(top) = limit.checked_sub(me.size) else {
            return false;
        };
        let live: Vec<(usize, usize)> = ordered[..k]
            .iter()
            .zip(offsets.iter())
            .filter(|(l, _)| l.overlaps(&me))
            .map(|(l, &at)| (at, at + l.size))
            .collect();
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
            let end = at + me.size;
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
}
