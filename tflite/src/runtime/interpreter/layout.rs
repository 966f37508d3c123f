//! Where the interpreter's activations go, without a heap: each tensor's
//! offset in its type's buffer, in a table of `usize`s the caller owns
//! ([`Layout`]: the planner's packed placement, or every tensor at its
//! own place). [`Plan`](super::Plan) and
//! [`Interpreter::planned`](super::Interpreter::planned) both lay out
//! through [`lay_out`], so their places are the same.

use super::ArenaSizes;
use crate::format::error::{Name, Place, TfliteError};
use crate::format::model::Model;
use crate::format::types::{BuiltinOp, TensorType};
use crate::kernel::checker::{slot, Slot};
use crate::runtime::plan::{
    activation, activations_in, place_with, ACTIVATION_PER_TENSOR, ACTIVATION_TABLES_PER_TENSOR,
};

/// Where the activations go in the interpreter's buffers
/// ([`Interpreter::planned`](super::Interpreter::planned), and `Plan`
/// with feature `alloc`).
///
/// ```
/// use shapecheck_tflite::{Interpreter, Layout, Model};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let mut scratch = [0usize; 7 * 12];
/// assert!(scratch.len() >= Interpreter::plan_scratch_len(&model));
/// let packed = Interpreter::planned_sizes(&model, Layout::Packed, &mut scratch)?;
/// let debug = Interpreter::planned_sizes(&model, Layout::Debug, &mut scratch)?;
/// // the input beside the liveness floor, or every tensor at its own place
/// assert_eq!((packed.arena.int8, debug.arena.int8), (1960 + 4004, 7928));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The planner's placement ([`plan::place_in`](crate::runtime::plan::place_in)):
    /// the model's inputs first, then the activations `model!` places, two
    /// that are live at the same operator never overlapping (the model's
    /// outputs live to the end); a `RESHAPE`'s output is its input. After
    /// a run the inputs and outputs hold their values, and an intermediate
    /// tensor may have been overwritten.
    Packed,
    /// Every activation at its own place, as [`Interpreter::new`](super::Interpreter::new)
    /// keeps them: every intermediate tensor can be read after a run.
    Debug,
}

/// A tensor without a place.
pub(crate) const NOWHERE: usize = usize::MAX;

/// The `usize`s of scratch the layout takes per tensor of the model.
pub(crate) const SCRATCH_PER_TENSOR: usize = ACTIVATION_TABLES_PER_TENSOR + ACTIVATION_PER_TENSOR;

/// The element types the interpreter keeps, and their sizes in bytes.
pub(crate) const TYPES: [(TensorType, usize); 4] = [
    (TensorType::Int8, 1),
    (TensorType::Int16, 2),
    (TensorType::Int32, 4),
    (TensorType::Float32, 4),
];

/// The bytes of the activations in buffers of `sizes`.
pub(crate) fn bytes(sizes: &ArenaSizes) -> usize {
    TYPES.iter().fold(0usize, |sum, &(t, size)| {
        sum.saturating_add(elements(sizes, t).saturating_mul(size))
    })
}

/// The elements of `sizes`'s buffer of type `t`.
fn elements(sizes: &ArenaSizes, t: TensorType) -> usize {
    match t {
        TensorType::Int8 => sizes.int8,
        TensorType::Int16 => sizes.int16,
        TensorType::Int32 => sizes.int32,
        _ => sizes.float32,
    }
}

/// The slot of tensor `index` whose offset `places` holds.
pub(crate) fn slot_at(model: &Model<'_>, places: &[usize], index: usize) -> Option<Slot> {
    let at = *places.get(index)?;
    if at == NOWHERE {
        return None;
    }
    let t = model.tensor(index)?;
    Some(Slot {
        dtype: t.dtype(),
        range: at..at.checked_add(t.elements())?,
    })
}

/// Lays out `model`'s activations as `layout` says, working in `scratch`
/// ([`SCRATCH_PER_TENSOR`] per tensor; [`Layout::Debug`] needs none), and
/// writes each tensor's offset in its type's buffer into `places` (one per
/// tensor, [`NOWHERE`] for a tensor without a place) when given. Returns
/// the buffers' lengths (`multipliers` 0) and the bytes of the placed
/// activations, the inputs not counted. Fails with [`TfliteError::Arena`]
/// when `scratch` or `places` is too short, before writing anything, and
/// with [`TfliteError::TooManyElements`] when a sum overflows.
pub(crate) fn lay_out(
    model: &Model<'_>,
    layout: Layout,
    scratch: &mut [usize],
    mut places: Option<&mut [usize]>,
) -> Result<(ArenaSizes, usize), TfliteError> {
    let count = model.tensor_count();
    if let Some(places) = places.as_deref() {
        if places.len() < count {
            return Err(TfliteError::Arena {
                what: "tensor places",
                needed: count,
                given: places.len(),
            });
        }
    }
    if layout == Layout::Debug {
        let mut sizes = super::Interpreter::arena_sizes(model)?;
        sizes.multipliers = 0;
        if let Some(places) = places {
            for (i, p) in places.iter_mut().enumerate().take(count) {
                *p = slot(model, i).map_or(NOWHERE, |s| s.range.start);
            }
        }
        return Ok((sizes, bytes(&sizes)));
    }
    let needed = SCRATCH_PER_TENSOR.saturating_mul(count);
    if scratch.len() < needed {
        return Err(TfliteError::Arena {
            what: "plan scratch",
            needed,
            given: scratch.len(),
        });
    }
    if let Some(places) = places.as_deref_mut() {
        places.fill(NOWHERE);
    }
    let mut sizes = ArenaSizes {
        int8: 0,
        int16: 0,
        int32: 0,
        float32: 0,
        multipliers: 0,
    };
    let mut placed_bytes = 0usize;
    let last_op = model.operator_count().saturating_sub(1);
    let is_output = |index: usize| {
        model
            .outputs()
            .iter()
            .any(|o| usize::try_from(o).ok() == Some(index))
    };
    let too_many = |index: usize| TfliteError::TooManyElements {
        place: Place::ModelTensor {
            index,
            name: Name::new(model.tensor(index).map_or("", |t| t.name())),
        },
    };
    let (tables, found) = scratch.split_at_mut(ACTIVATION_TABLES_PER_TENSOR.saturating_mul(count));
    for (dtype, size) in TYPES {
        // the inputs of this type, side by side at the front
        let mut at = 0usize;
        for index in model
            .inputs()
            .iter()
            .filter_map(|i| usize::try_from(i).ok())
        {
            let Some(t) = model.tensor(index).filter(|t| t.dtype() == dtype) else {
                continue;
            };
            let end = at.checked_add(t.elements()).ok_or(too_many(index))?;
            if let Some(p) = places.as_deref_mut().and_then(|p| p.get_mut(index)) {
                *p = at;
            }
            at = end;
        }
        let base = at;
        let n = activations_in(model, dtype, tables, found).unwrap_or(0);
        // the model's outputs live to the end
        for k in 0..n {
            if let Some((t, _)) = activation(found, k) {
                let last = k
                    .saturating_mul(ACTIVATION_PER_TENSOR)
                    .saturating_add(ACTIVATION_PER_TENSOR - 1);
                if let (true, Some(l)) = (is_output(t), found.get_mut(last)) {
                    *l = last_op;
                }
            }
        }
        let found: &[usize] = found;
        let placed = place_with(n, |k| activation(found, k).map(|(_, l)| l), tables).unwrap_or(0);
        let (order, offsets) = tables.split_at(n);
        for (&k, &offset) in order.iter().zip(offsets.iter().take(n)) {
            let Some((index, l)) = activation(found, k) else {
                continue;
            };
            let start = base.checked_add(offset).ok_or(too_many(index))?;
            start.checked_add(l.size).ok_or(too_many(index))?;
            if let Some(p) = places.as_deref_mut().and_then(|p| p.get_mut(index)) {
                *p = start;
            }
        }
        let total = base.checked_add(placed).ok_or(too_many(count))?;
        match dtype {
            TensorType::Int8 => sizes.int8 = total,
            TensorType::Int16 => sizes.int16 = total,
            TensorType::Int32 => sizes.int32 = total,
            _ => sizes.float32 = total,
        }
        placed_bytes = placed_bytes.saturating_add(placed.saturating_mul(size));
    }
    // a RESHAPE's output is its input's elements, in operator order so that
    // a chain of them reaches the first input
    if let Some(places) = places {
        for op in model.operators().filter(|op| op.op() == BuiltinOp::RESHAPE) {
            if let (Some(i), Some(o)) = (op.input(0), op.output(0)) {
                let input = places.get(i).copied().unwrap_or(NOWHERE);
                if let Some(p) = places.get_mut(o) {
                    *p = input;
                }
            }
        }
    }
    Ok((sizes, placed_bytes))
}
