//! TFLite's `SPLIT`, `SPLIT_V` and `UNPACK` on slices: one input cut
//! along an axis into pieces, as TFLite Micro's `split.cc`, `split_v.cc`
//! and `unpack.cc` copy them. One rule: `SPLIT` cuts equal pieces,
//! `SPLIT_V` pieces of the sizes given (one of them −1, the rest), and
//! `UNPACK` pieces of 1 whose axis the outputs drop. Any element type;
//! the values are copied unchanged (int8 outputs share the input's scale
//! and zero point).

use crate::arith::dims::{check_length, element_count};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::error::TfliteError;
use crate::format::model::{Model, Operator, OptionsReader};
use crate::kernel::checker::Checker;
use crate::kernel::shape::{operand, shape_of, OpShape, MAX_DIMS};
use crate::kernel::step::Buffers;
pub use crate::shared::moves::MAX_SPLITS;
use crate::shared::moves::{
    constant_i32, count, op_shape, options_mismatch, positive_axis, prepare_cut, run_cut, wide,
    MoveCut, Places,
};

/// The `BuiltinOptions` type of `SplitOptions`.
const SPLIT_OPTIONS: u8 = 35;
/// The `BuiltinOptions` type of `UnpackOptions`.
const UNPACK_OPTIONS: u8 = 64;
/// The `BuiltinOptions` type of `SplitVOptions`.
const SPLIT_V_OPTIONS: u8 = 79;

/// `SplitOptions` (`SPLIT`: the axis is the op's input 0, a constant).
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/split_3.tflite")))?;
/// let Options::Split(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.num_splits, 3);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitOptions {
    /// `num_splits`: the outputs
    pub num_splits: i32,
}

/// `SplitVOptions` (`SPLIT_V`: the sizes are input 1, the axis input 2).
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/split_v.tflite")))?;
/// let Options::SplitV(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(o.num_splits, 3);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitVOptions {
    /// `num_splits`: the outputs
    pub num_splits: i32,
}

/// `UnpackOptions`.
///
/// ```
/// use shapecheck_tflite::{Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/unpack.tflite")))?;
/// let Options::Unpack(o) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!((o.num, o.axis), (3, 1));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnpackOptions {
    /// `num`: the outputs, the input's dim at the axis
    pub num: i32,
    /// `axis`
    pub axis: i32,
}

/// Reads `SPLIT`'s options (its row's `read_options`, called by
/// [`Model::parse`](crate::Model::parse) for each operator).
pub(crate) fn read_split_options<'a>(r: &OptionsReader<'a>) -> Result<SplitOptions, TfliteError> {
    let num_splits = match r.table(SPLIT_OPTIONS, "SplitOptions")? {
        Some(t) => t.i32(0, 0).map_err(r.fault("num_splits"))?,
        None => 0,
    };
    Ok(SplitOptions { num_splits })
}

/// Reads `SPLIT_V`'s options (its row's `read_options`).
pub(crate) fn read_split_v_options<'a>(
    r: &OptionsReader<'a>,
) -> Result<SplitVOptions, TfliteError> {
    let num_splits = match r.table(SPLIT_V_OPTIONS, "SplitVOptions")? {
        Some(t) => t.i32(0, 0).map_err(r.fault("num_splits"))?,
        None => 0,
    };
    Ok(SplitVOptions { num_splits })
}

/// Reads `UNPACK`'s options (its row's `read_options`).
pub(crate) fn read_unpack_options<'a>(r: &OptionsReader<'a>) -> Result<UnpackOptions, TfliteError> {
    let (num, axis) = match r.table(UNPACK_OPTIONS, "UnpackOptions")? {
        Some(t) => (
            t.i32(0, 0).map_err(r.fault("num"))?,
            t.i32(1, 0).map_err(r.fault("axis"))?,
        ),
        None => (0, 0),
    };
    Ok(UnpackOptions { num, axis })
}

/// A `SPLIT`'s or `SPLIT_V`'s parameters: the axis and each piece's size
/// along it ([`split_params`], [`split_v_params`]).
///
/// ```
/// use shapecheck_tflite::{SplitParams, MAX_SPLITS};
///
/// let mut sizes = [0; MAX_SPLITS];
/// sizes[..2].copy_from_slice(&[1, 2]);
/// let p = SplitParams { axis: 0, count: 2, sizes };
/// assert_eq!(p.sizes(), &[1, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitParams {
    /// the axis cut, in `[0, rank)`
    pub axis: usize,
    /// the pieces (outputs), at most [`MAX_SPLITS`]
    pub count: usize,
    /// the first `count` are the pieces' sizes along the axis
    pub sizes: [usize; MAX_SPLITS],
}

impl crate::base::write_rust::WriteRust for SplitParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SplitParams",
            &[
                ("axis", &self.axis),
                ("count", &self.count),
                ("sizes", &self.sizes),
            ],
        )
    }
}

impl SplitParams {
    /// The pieces' sizes along the axis.
    ///
    /// ```
    /// use shapecheck_tflite::split_params;
    ///
    /// assert_eq!(split_params(&[1, 5, 4, 6], -1, 3)?.sizes(), &[2, 2, 2]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn sizes(&self) -> &[usize] {
        self.sizes.get(..self.count).unwrap_or(&[])
    }
}

/// The pieces' count as a size, checked to be in `1..=MAX_SPLITS`.
fn piece_count(what: &'static str, n: i32) -> Result<usize, TfliteError> {
    usize::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_SPLITS).contains(n))
        .ok_or(TfliteError::KernelParam {
            what,
            value: i64::from(n),
            rule: "a split writes 1 to 16 outputs",
        })
}

/// `SPLIT`'s rule on the axis cut, the one [`split_params`] applies and
/// `shapecheck`'s typed layer checks at compile time: a dim of `dim` cut
/// into `pieces` equal pieces gives pieces of `dim / pieces`, when
/// `pieces` is 1 to [`MAX_SPLITS`] and divides `dim` (`None` otherwise).
///
/// ```
/// use shapecheck_tflite::split_piece;
///
/// assert_eq!(split_piece(6, 3), Some(2));
/// assert_eq!(split_piece(6, 4), None);
/// assert_eq!(split_piece(6, 0), None);
/// assert_eq!(split_piece(34, 17), None); // more than 16 pieces
/// ```
pub const fn split_piece(dim: usize, pieces: usize) -> Option<usize> {
    if pieces == 0 || pieces > MAX_SPLITS || !dim.is_multiple_of(pieces) {
        None
    } else {
        Some(dim / pieces)
    }
}

/// A `SPLIT`'s parameters, as TFLite Micro's `split.cc` checks them: the
/// axis (the constant input 0, negative from the end) of an input of
/// `input_shape`, cut into `num_splits` equal pieces.
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range, a
/// count outside 1 to [`MAX_SPLITS`], or one that does not divide the
/// dim.
///
/// ```
/// use shapecheck_tflite::split_params;
///
/// // split_3.tflite: [1, 5, 4, 6] in 3 on axis −1
/// let p = split_params(&[1, 5, 4, 6], -1, 3)?;
/// assert_eq!((p.axis, p.sizes()), (3, &[2, 2, 2][..]));
/// assert!(split_params(&[1, 5, 4, 6], -1, 4).is_err()); // 4 does not divide 6
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn split_params(
    input_shape: &[usize],
    axis: i32,
    num_splits: i32,
) -> Result<SplitParams, TfliteError> {
    let axis = positive_axis("SPLIT's axis", axis, input_shape.len())?;
    let n = piece_count("SPLIT's num_splits", num_splits)?;
    let dim = input_shape.get(axis).copied().unwrap_or(0);
    let Some(piece) = split_piece(dim, n) else {
        return Err(TfliteError::KernelParam {
            what: "SPLIT's num_splits",
            value: i64::from(num_splits),
            rule: "it must divide the input's dim at the axis",
        });
    };
    let mut sizes = [0usize; MAX_SPLITS];
    for s in sizes.iter_mut().take(n) {
        *s = piece;
    }
    Ok(SplitParams {
        axis,
        count: n,
        sizes,
    })
}

/// A `SPLIT_V`'s parameters, as TFLite's `split_v.cc` reads them: the
/// axis (negative from the end) of an input of `input_shape`, and the
/// pieces' sizes `size_splits`, one of which may be −1 (what the others
/// leave of the dim).
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range, no
/// size or more than [`MAX_SPLITS`], a size below −1, two −1s, or sizes
/// that do not add up to the dim.
///
/// ```
/// use shapecheck_tflite::split_v_params;
///
/// // split_v.tflite: [1, 6, 5, 3] in 1, 3 and 2 on axis 1
/// assert_eq!(split_v_params(&[1, 6, 5, 3], 1, &[1, 3, 2])?.sizes(), &[1, 3, 2]);
/// assert_eq!(split_v_params(&[1, 6, 5, 3], 1, &[1, -1, 2])?.sizes(), &[1, 3, 2]);
/// assert!(split_v_params(&[1, 6, 5, 3], 1, &[1, 3, 3]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn split_v_params(
    input_shape: &[usize],
    axis: i32,
    size_splits: &[i32],
) -> Result<SplitParams, TfliteError> {
    let axis = positive_axis("SPLIT_V's axis", axis, input_shape.len())?;
    let n = piece_count(
        "SPLIT_V's size count",
        i32::try_from(size_splits.len()).unwrap_or(i32::MAX),
    )?;
    let dim = input_shape.get(axis).copied().unwrap_or(0);
    let mut sizes = [0usize; MAX_SPLITS];
    let mut inferred = None;
    let mut known = 0usize;
    for (k, (slot, &s)) in sizes.iter_mut().zip(size_splits).enumerate() {
        match s {
            -1 if inferred.is_none() => inferred = Some(k),
            _ => {
                *slot = usize::try_from(s).map_err(|_| TfliteError::KernelParam {
                    what: "SPLIT_V's size",
                    value: i64::from(s),
                    rule: "a size is at least 0, or one of them −1 for the rest",
                })?;
                known = known.saturating_add(*slot);
            }
        }
    }
    let rest = dim.checked_sub(known);
    match (inferred, rest) {
        (Some(k), Some(rest)) => {
            if let Some(slot) = sizes.get_mut(k) {
                *slot = rest;
            }
        }
        (None, Some(0)) => {}
        _ => {
            return Err(TfliteError::KernelParam {
                what: "SPLIT_V's sum of sizes",
                value: wide(known),
                rule: "the sizes must add up to the input's dim at the axis",
            })
        }
    }
    Ok(SplitParams {
        axis,
        count: n,
        sizes,
    })
}

/// The shape of output `k` of a `SPLIT` or `SPLIT_V` of `params` on an
/// input of `input_shape`: the input's, with piece `k`'s size at the axis.
///
/// Fails with [`TfliteError::KernelParam`] for `k` past the pieces or an
/// axis past the input's rank.
///
/// ```
/// use shapecheck_tflite::{split_output_shape, split_v_params};
///
/// let p = split_v_params(&[1, 6, 5, 3], 1, &[1, 3, 2])?;
/// assert_eq!(split_output_shape(&[1, 6, 5, 3], &p, 1)?.dims(), &[1, 3, 5, 3]);
/// assert!(split_output_shape(&[1, 6, 5, 3], &p, 3).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn split_output_shape(
    input_shape: &[usize],
    params: &SplitParams,
    k: usize,
) -> Result<OpShape, TfliteError> {
    let size = params
        .sizes()
        .get(k)
        .copied()
        .ok_or(TfliteError::KernelParam {
            what: "split's output",
            value: wide(k),
            rule: "there is one output per piece",
        })?;
    let mut dims = [0usize; MAX_DIMS];
    let rank = input_shape.len();
    dims.get_mut(..rank)
        .ok_or(TfliteError::KernelParam {
            what: "split's input rank",
            value: wide(rank),
            rule: "a shape has at most 6 dims",
        })?
        .copy_from_slice(input_shape);
    let axis = dims.get_mut(params.axis).ok_or(TfliteError::KernelParam {
        what: "split's axis",
        value: wide(params.axis),
        rule: "an axis must be below the input's rank",
    })?;
    *axis = size;
    op_shape("split's output rank", dims.get(..rank).unwrap_or(&[]))
}

/// TFLite's `SPLIT` and `SPLIT_V`: `input` (of `input_shape`, row-major)
/// cut along `params.axis` into `outputs`, output `k` of
/// [`split_output_shape`]`(input_shape, params, k)`.
///
/// Fails, with every output untouched, when there are not
/// `params.count` outputs, the sizes do not add up to the input's dim
/// ([`TfliteError::KernelParam`]), or the input or an output is not as
/// long as its shape's element count ([`TfliteError::Length`]).
///
/// ```
/// use shapecheck_tflite::{split, split_params};
///
/// let (mut a, mut b) = ([0i8; 2], [0i8; 2]);
/// let p = split_params(&[2, 2], 1, 2)?;
/// split(&[1, 2, 3, 4], &[2, 2], &p, &mut [&mut a, &mut b])?;
/// assert_eq!((a, b), ([1, 3], [2, 4]));
/// assert!(split(&[1, 2, 3], &[2, 2], &p, &mut [&mut a, &mut b]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn split<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &SplitParams,
    outputs: &mut [&mut [T]],
) -> Result<(), TfliteError> {
    if outputs.len() != params.count {
        return Err(TfliteError::Length {
            what: "split's outputs",
            expected: params.count,
            actual: outputs.len(),
        });
    }
    let dim = input_shape.get(params.axis).copied();
    if dim
        != Some(
            params
                .sizes()
                .iter()
                .fold(0usize, |a, &s| a.saturating_add(s)),
        )
    {
        return Err(TfliteError::KernelParam {
            what: "split's axis",
            value: wide(params.axis),
            rule: "the pieces' sizes must add up to the input's dim at the axis",
        });
    }
    check_length("split's input", input_shape, input.len())?;
    for (k, out) in outputs.iter().enumerate() {
        let shape = split_output_shape(input_shape, params, k)?;
        check_length("split's output", shape.dims(), out.len())?;
    }
    count(
        "split's input",
        input_shape.get(..params.axis).unwrap_or(&[]),
    )?;
    count(
        "split's input",
        input_shape
            .get(params.axis.saturating_add(1)..)
            .unwrap_or(&[]),
    )?;
    split_prechecked(input, input_shape, params, outputs);
    Ok(())
}

/// [`split`] without its checks, for a caller that has made them hold
/// already (the typed layer of `shapecheck`, whose shapes are types
/// checked against [`split_piece`] when it is built): `params.count`
/// outputs, the sizes add up to the input's dim at the axis, and the
/// lengths are the shapes'. On operands that break this, what it writes
/// is unspecified, but it never panics and never writes outside the
/// outputs.
///
/// ```
/// use shapecheck_tflite::{split_params, split_prechecked};
///
/// let (mut a, mut b) = ([0i8; 2], [0i8; 2]);
/// let p = split_params(&[2, 2], 1, 2)?;
/// split_prechecked(&[1, 2, 3, 4], &[2, 2], &p, &mut [&mut a, &mut b]);
/// assert_eq!((a, b), ([1, 3], [2, 4]));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn split_prechecked<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &SplitParams,
    outputs: &mut [&mut [T]],
) {
    let outer = element_count(input_shape.get(..params.axis).unwrap_or(&[])).unwrap_or(0);
    let inner = element_count(
        input_shape
            .get(params.axis.saturating_add(1)..)
            .unwrap_or(&[]),
    )
    .unwrap_or(0);
    cut(input, params.sizes(), outer, inner, outputs);
}

/// An `UNPACK`'s parameters ([`unpack_params`]).
///
/// ```
/// use shapecheck_tflite::UnpackParams;
///
/// const THREE_ON_AXIS_1: UnpackParams = UnpackParams { axis: 1, num: 3 };
/// assert_eq!(THREE_ON_AXIS_1.num, 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnpackParams {
    /// the axis the outputs drop, in `[0, rank)`
    pub axis: usize,
    /// the outputs: the input's dim at the axis
    pub num: usize,
}

impl crate::base::write_rust::WriteRust for UnpackParams {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "UnpackParams",
            &[("axis", &self.axis), ("num", &self.num)],
        )
    }
}

/// An `UNPACK`'s parameters, as TFLite's `unpack.cc` checks them: the
/// `axis` (negative from the end) of an input of `input_shape`, whose dim
/// there must be `num`, the outputs.
///
/// Fails with [`TfliteError::KernelParam`] for an axis out of range, or
/// a `num` outside 1 to [`MAX_SPLITS`] or unequal to the dim.
///
/// ```
/// use shapecheck_tflite::unpack_params;
///
/// // unpack.tflite: [1, 3, 5, 4] on axis 1
/// assert_eq!(unpack_params(&[1, 3, 5, 4], 1, 3)?.axis, 1);
/// assert!(unpack_params(&[1, 3, 5, 4], 1, 4).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn unpack_params(
    input_shape: &[usize],
    axis: i32,
    num: i32,
) -> Result<UnpackParams, TfliteError> {
    let axis = positive_axis("UNPACK's axis", axis, input_shape.len())?;
    let n = piece_count("UNPACK's num", num)?;
    if input_shape.get(axis) != Some(&n) {
        return Err(TfliteError::KernelParam {
            what: "UNPACK's num",
            value: i64::from(num),
            rule: "it must be the input's dim at the axis",
        });
    }
    Ok(UnpackParams { axis, num: n })
}

/// The shape of each output of an `UNPACK` of `params` on an input of
/// `input_shape`: the input's without the axis.
///
/// Fails with [`TfliteError::KernelParam`] for an axis past the rank.
///
/// ```
/// use shapecheck_tflite::{unpack_output_shape, unpack_params};
///
/// let p = unpack_params(&[1, 3, 5, 4], 1, 3)?;
/// assert_eq!(unpack_output_shape(&[1, 3, 5, 4], &p)?.dims(), &[1, 5, 4]);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn unpack_output_shape(
    input_shape: &[usize],
    params: &UnpackParams,
) -> Result<OpShape, TfliteError> {
    if params.axis >= input_shape.len() {
        return Err(TfliteError::KernelParam {
            what: "UNPACK's axis",
            value: wide(params.axis),
            rule: "an axis must be below the input's rank",
        });
    }
    let mut dims = [0usize; MAX_DIMS];
    let mut rank = 0usize;
    for (k, &d) in input_shape.iter().enumerate() {
        if k != params.axis {
            if let Some(slot) = dims.get_mut(rank) {
                *slot = d;
            }
            rank = rank.saturating_add(1);
        }
    }
    op_shape("UNPACK's output rank", dims.get(..rank).unwrap_or(&dims))
}

/// TFLite's `UNPACK`: `input` (of `input_shape`, row-major) cut along
/// `params.axis` into its `params.num` slices, each into its output of
/// [`unpack_output_shape`].
///
/// Fails, with every output untouched, when there are not `params.num`
/// outputs or that is not the input's dim at the axis, or the input or
/// an output is not as long as its shape's element count.
///
/// ```
/// use shapecheck_tflite::{unpack, unpack_params};
///
/// let (mut a, mut b) = ([0i8; 2], [0i8; 2]);
/// let p = unpack_params(&[2, 2], 1, 2)?;
/// unpack(&[1, 2, 3, 4], &[2, 2], &p, &mut [&mut a, &mut b])?;
/// assert_eq!((a, b), ([1, 3], [2, 4]));
/// assert!(unpack(&[1, 2, 3, 4], &[2, 2], &p, &mut [&mut a]).is_err());
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
pub fn unpack<T: Copy>(
    input: &[T],
    input_shape: &[usize],
    params: &UnpackParams,
    outputs: &mut [&mut [T]],
) -> Result<(), TfliteError> {
    if input_shape.get(params.axis) != Some(&params.num) || params.num > MAX_SPLITS {
        return Err(TfliteError::KernelParam {
            what: "UNPACK's num",
            value: wide(params.num),
            rule: "it must be the input's dim at the axis, at most 16",
        });
    }
    let mut sizes = [1usize; MAX_SPLITS];
    for s in sizes.iter_mut().skip(params.num) {
        *s = 0;
    }
    let as_split = SplitParams {
        axis: params.axis,
        count: params.num,
        sizes,
    };
    // the same pieces as a split into sizes of 1; the outputs' shapes
    // drop the axis of 1, which leaves their lengths as they are
    split(input, input_shape, &as_split, outputs)
}

/// Writes, for each of `outer` steps, each piece's block of
/// `sizes[k] · inner` input values to output `k`. The lengths were
/// checked: the input holds `outer` runs of all the blocks, and output
/// `k` `outer` of its blocks.
fn cut<T: Copy>(
    input: &[T],
    sizes: &[usize],
    outer: usize,
    inner: usize,
    outputs: &mut [&mut [T]],
) {
    let mut at = 0usize;
    for o in 0..outer {
        for (&size, out) in sizes.iter().zip(outputs.iter_mut()) {
            let b = size.saturating_mul(inner);
            let start = o.saturating_mul(b);
            let end = at.saturating_add(b);
            if let (Some(src), Some(dst)) = (
                input.get(at..end),
                out.get_mut(start..start.saturating_add(b)),
            ) {
                dst.copy_from_slice(src);
            }
            at = end;
        }
    }
}

/// The constant scalar axis of input `k` of a split.
fn axis_operand(model: &Model<'_>, op: &Operator<'_>, k: usize) -> Result<i32, TfliteError> {
    let axis = constant_i32(model, op, k, "axis")?;
    match (axis.len(), axis.get(0)) {
        (1, Some(a)) => Ok(a),
        _ => Err(TfliteError::KernelParam {
            what: "split's axis count",
            value: wide(axis.len()),
            rule: "the axis is one int32 value",
        }),
    }
}

/// `SPLIT`'s parameters from its operands: the axis (input 0), the input
/// (input 1) and the options' count.
pub(crate) fn split_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(SplitParams, OpShape), TfliteError> {
    let Ok(o) = read_split_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "SplitOptions"));
    };
    let axis = axis_operand(model, op, 0)?;
    let input = operand(model, op, 1, "input")?;
    let shape = shape_of(op, "input", &input)?;
    Ok((split_params(shape.dims(), axis, o.num_splits)?, shape))
}

/// `SPLIT_V`'s parameters from its operands: the input (input 0), the
/// sizes (input 1) and the axis (input 2).
pub(crate) fn split_v_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(SplitParams, OpShape), TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    let sizes = constant_i32(model, op, 1, "size_splits")?;
    let mut values = [0i32; MAX_SPLITS];
    if sizes.len() > MAX_SPLITS {
        return Err(TfliteError::KernelParam {
            what: "SPLIT_V's size count",
            value: wide(sizes.len()),
            rule: "a split writes 1 to 16 outputs",
        });
    }
    for (slot, s) in values.iter_mut().zip(sizes.iter()) {
        *slot = s;
    }
    let axis = axis_operand(model, op, 2)?;
    let params = split_v_params(shape.dims(), axis, values.get(..sizes.len()).unwrap_or(&[]))?;
    Ok((params, shape))
}

/// `UNPACK`'s parameters from its operands and options.
pub(crate) fn unpack_operands(
    model: &Model<'_>,
    op: &Operator<'_>,
) -> Result<(UnpackParams, OpShape), TfliteError> {
    let Ok(o) = read_unpack_options(&op.raw_options()) else {
        return Err(options_mismatch(op, "UnpackOptions"));
    };
    let input = operand(model, op, 0, "input")?;
    let shape = shape_of(op, "input", &input)?;
    Ok((unpack_params(shape.dims(), o.axis, o.num)?, shape))
}

/// `SPLIT`'s row in [`OPS`](crate::OPS): output 0's shape (every output's).
pub(crate) fn split_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape) = split_operands(model, op)?;
    split_output_shape(shape.dims(), &params, 0)
}

/// `SPLIT_V`'s row in [`OPS`](crate::OPS): output 0's shape.
pub(crate) fn split_v_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape) = split_v_operands(model, op)?;
    split_output_shape(shape.dims(), &params, 0)
}

/// `UNPACK`'s row in [`OPS`](crate::OPS): every output's shape.
pub(crate) fn unpack_row(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let (params, shape) = unpack_operands(model, op)?;
    unpack_output_shape(shape.dims(), &params)
}

// The interpreter's steps of the three ops: `prepare` (their rows', in
// `OPS`) checks the operator's operands, every output's shape among
// them, and derives the parameters once; the step's `run` runs the
// kernel on int8 or f32 activations.

/// The places of a split of `params` of input `k` (of `shape`), each
/// output checked to have its piece's shape.
fn split_places(
    c: &Checker<'_>,
    k: usize,
    shape: &OpShape,
    params: &SplitParams,
) -> Result<Places<MAX_SPLITS>, TfliteError> {
    let empty = op_shape("split's output", &[])?;
    let mut shapes = [empty; MAX_SPLITS];
    for (j, s) in shapes.iter_mut().enumerate().take(params.count) {
        *s = split_output_shape(shape.dims(), params, j)?;
    }
    prepare_cut(c, k, shapes.get(..params.count).unwrap_or(&[]))
}

/// `SPLIT`'s row in `OPS`: checks the operator (the axis its constant
/// input 0, the data input 1) and prepares its step.
pub(crate) fn prepare_split<'m, S: From<SplitStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = split_operands(&c.model, &c.op)?;
    let places = split_places(c, 1, &shape, &params)?;
    Ok(S::from(SplitStep {
        places,
        shape,
        params,
    }))
}

/// `SPLIT_V`'s row in `OPS`: checks the operator (the data input 0, the
/// constant sizes and axis inputs 1 and 2) and prepares its step.
pub(crate) fn prepare_split_v<'m, S: From<SplitStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = split_v_operands(&c.model, &c.op)?;
    let places = split_places(c, 0, &shape, &params)?;
    Ok(S::from(SplitStep {
        places,
        shape,
        params,
    }))
}

/// `SPLIT`'s and `SPLIT_V`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct SplitStep {
    pub places: Places<MAX_SPLITS>,
    pub shape: OpShape,
    pub params: SplitParams,
}

impl crate::base::write_rust::WriteRust for SplitStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "SplitStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveCut for SplitStep {
    fn apply<T: Copy>(&self, input: &[T], outputs: &mut [&mut [T]]) -> Result<(), TfliteError> {
        split(input, self.shape.dims(), &self.params, outputs)
    }
}

impl SplitStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_cut(b, &self.places, self)
    }
}

/// `UNPACK`'s row in `OPS`: checks the operator and prepares its step.
pub(crate) fn prepare_unpack<'m, S: From<UnpackStep>>(
    c: &Checker<'m>,
    _shape: &OpShape,
    _scratch: &mut [QuantizedMultiplier],
) -> Result<S, TfliteError> {
    let (params, shape) = unpack_operands(&c.model, &c.op)?;
    let each = unpack_output_shape(shape.dims(), &params)?;
    let shapes = [each; MAX_SPLITS];
    let places = prepare_cut(c, 0, shapes.get(..params.num).unwrap_or(&[]))?;
    Ok(S::from(UnpackStep {
        places,
        shape,
        params,
    }))
}

/// `UNPACK`'s interpreter step.
#[derive(Clone)]
#[doc(hidden)]
pub struct UnpackStep {
    pub places: Places<MAX_SPLITS>,
    pub shape: OpShape,
    pub params: UnpackParams,
}

impl crate::base::write_rust::WriteRust for UnpackStep {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "UnpackStep",
            &[
                ("places", &self.places),
                ("shape", &self.shape),
                ("params", &self.params),
            ],
        )
    }
}

impl MoveCut for UnpackStep {
    fn apply<T: Copy>(&self, input: &[T], outputs: &mut [&mut [T]]) -> Result<(), TfliteError> {
        unpack(input, self.shape.dims(), &self.params, outputs)
    }
}

impl UnpackStep {
    /// Runs the step over the interpreter's buffers.
    pub(crate) fn run(&self, b: &mut Buffers<'_>) -> Result<(), TfliteError> {
        run_cut(b, &self.places, self)
    }
}
