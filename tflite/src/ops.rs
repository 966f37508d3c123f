//! The ops shapecheck runs, one row each ([`OPS`]): the op's code, the
//! options the reader decodes for it, the element types it takes, and its
//! shape rule — the one function that gives its output's shape from its
//! operands and options, which the [`Interpreter`](crate::Interpreter)'s
//! checker and `shapecheck`'s `model!` both call. A new op is its kernel,
//! its options (if any) in the reader, its checker in the interpreter, its
//! writer in `model!`, and one row here.

use crate::depthwise_conv::conv_axis;
use crate::error::{Name, OperandProblem, TfliteError};
use crate::model::{Model, ModelTensor, Operator};
use crate::options::Options;
use crate::types::BuiltinOp;

/// The most dims a shape the ops take has (TFLite Micro broadcasts `ADD`
/// up to 6).
pub const MAX_DIMS: usize = 6;

/// A shape of at most [`MAX_DIMS`] dims, what a shape rule returns.
///
/// ```
/// use shapecheck_tflite::OpShape;
///
/// let s = OpShape::new(&[1, 48, 48, 8]).unwrap();
/// assert_eq!((s.dims(), s.elements()), (&[1, 48, 48, 8][..], Some(18_432)));
/// assert!(OpShape::new(&[1; 7]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpShape {
    dims: [usize; MAX_DIMS],
    rank: usize,
}

impl OpShape {
    /// The shape of `dims`, or `None` past [`MAX_DIMS`] dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[]).unwrap().dims(), &[] as &[usize]);
    /// ```
    pub fn new(dims: &[usize]) -> Option<Self> {
        let mut shape = OpShape {
            dims: [0; MAX_DIMS],
            rank: dims.len(),
        };
        shape.dims.get_mut(..dims.len())?.copy_from_slice(dims);
        Some(shape)
    }

    /// The dims.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().dims(), &[2, 3]);
    /// ```
    pub fn dims(&self) -> &[usize] {
        self.dims.get(..self.rank).unwrap_or(&[])
    }

    /// The element count, `None` on overflow.
    ///
    /// ```
    /// use shapecheck_tflite::OpShape;
    /// assert_eq!(OpShape::new(&[2, 3]).unwrap().elements(), Some(6));
    /// ```
    pub fn elements(&self) -> Option<usize> {
        self.dims()
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
    }
}

/// The options table the reader decodes for an op.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp, OptionsTable};
///
/// assert_eq!(op_row(BuiltinOp::CONV_2D).unwrap().options, OptionsTable::Conv2d);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionsTable {
    /// none: the op has no options the kernel reads
    None,
    /// `Conv2DOptions`
    Conv2d,
    /// `DepthwiseConv2DOptions`
    DepthwiseConv2d,
    /// `Pool2DOptions`
    Pool2d,
    /// `FullyConnectedOptions`
    FullyConnected,
    /// `AddOptions`
    Add,
    /// `ReducerOptions`
    Reducer,
    /// `ReshapeOptions` (or the shape as the second input)
    Reshape,
    /// `SoftmaxOptions`
    Softmax,
    /// `ArgMaxOptions` / `ArgMinOptions`
    ArgMinMax,
    /// `ResizeBilinearOptions` / `ResizeNearestNeighborOptions`
    Resize,
    /// `TransposeConvOptions`
    TransposeConv,
    /// `BatchMatMulOptions`
    BatchMatMul,
    /// `L2NormOptions`
    L2Norm,
}

/// One op shapecheck runs: the interpreter and `model!` refuse every op
/// without a row, naming it.
#[derive(Clone, Copy, Debug)]
pub struct OpRow {
    /// the op
    pub op: BuiltinOp,
    /// the options the reader decodes for it
    pub options: OptionsTable,
    /// the element types it runs, as `input → output`
    pub types: &'static str,
    /// the shape rule: the output's shape from the operator's operands
    /// and options (the interpreter checks the file's output shape
    /// against it; `model!` writes it in the output's type)
    pub output_shape: fn(&Model<'_>, &Operator<'_>) -> Result<OpShape, TfliteError>,
}

/// Every op shapecheck runs.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp, OPS};
///
/// assert_eq!(OPS.len(), 24);
/// assert_eq!(op_row(BuiltinOp::ADD).unwrap().types, "int8, int8 → int8");
/// assert!(op_row(BuiltinOp::TANH).is_none());
/// ```
pub static OPS: [OpRow; 24] = [
    OpRow {
        op: BuiltinOp::FULLY_CONNECTED,
        options: OptionsTable::FullyConnected,
        types: "int8 → int8, float32 → float32",
        output_shape: fully_connected_output,
    },
    OpRow {
        op: BuiltinOp::CONV_2D,
        options: OptionsTable::Conv2d,
        types: "int8 → int8",
        output_shape: conv_2d_output,
    },
    OpRow {
        op: BuiltinOp::DEPTHWISE_CONV_2D,
        options: OptionsTable::DepthwiseConv2d,
        types: "int8 → int8",
        output_shape: depthwise_conv_2d_output,
    },
    OpRow {
        op: BuiltinOp::AVERAGE_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8",
        output_shape: pool_2d_output,
    },
    OpRow {
        op: BuiltinOp::MAX_POOL_2D,
        options: OptionsTable::Pool2d,
        types: "int8 → int8",
        output_shape: pool_2d_output,
    },
    OpRow {
        op: BuiltinOp::MEAN,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: mean_output,
    },
    OpRow {
        op: BuiltinOp::ADD,
        options: OptionsTable::Add,
        types: "int8, int8 → int8",
        output_shape: add_output,
    },
    OpRow {
        op: BuiltinOp::PAD,
        options: OptionsTable::None,
        types: "int8 → int8, float32 → float32",
        output_shape: pad_output,
    },
    OpRow {
        op: BuiltinOp::LOGISTIC,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
    },
    OpRow {
        op: BuiltinOp::SOFTMAX,
        options: OptionsTable::Softmax,
        types: "int8 → int8",
        output_shape: same_as_input,
    },
    OpRow {
        op: BuiltinOp::RESHAPE,
        options: OptionsTable::Reshape,
        types: "int8 → int8, float32 → float32",
        output_shape: reshape_output,
    },
    OpRow {
        op: BuiltinOp::QUANTIZE,
        options: OptionsTable::None,
        types: "float32 → int8",
        output_shape: same_as_input,
    },
    OpRow {
        op: BuiltinOp::DEQUANTIZE,
        options: OptionsTable::None,
        types: "int8 → float32",
        output_shape: same_as_input,
    },
    // reduce.rs, arg_min_max.rs, resize.rs, transpose_conv.rs,
    // batch_matmul.rs, log_softmax.rs, l2_normalization.rs
    OpRow {
        op: BuiltinOp::SUM,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::reduce::reduce_output,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MAX,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::reduce::reduce_output,
    },
    OpRow {
        op: BuiltinOp::REDUCE_MIN,
        options: OptionsTable::Reducer,
        types: "int8 → int8",
        output_shape: crate::reduce::reduce_output,
    },
    OpRow {
        op: BuiltinOp::ARG_MAX,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::arg_min_max::arg_min_max_output,
    },
    OpRow {
        op: BuiltinOp::ARG_MIN,
        options: OptionsTable::ArgMinMax,
        types: "int8 → int32",
        output_shape: crate::arg_min_max::arg_min_max_output,
    },
    OpRow {
        op: BuiltinOp::RESIZE_NEAREST_NEIGHBOR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::resize::resize_output,
    },
    OpRow {
        op: BuiltinOp::RESIZE_BILINEAR,
        options: OptionsTable::Resize,
        types: "int8 → int8",
        output_shape: crate::resize::resize_output,
    },
    OpRow {
        op: BuiltinOp::TRANSPOSE_CONV,
        options: OptionsTable::TransposeConv,
        types: "int8 → int8",
        output_shape: crate::transpose_conv::transpose_conv_output,
    },
    OpRow {
        op: BuiltinOp::BATCH_MATMUL,
        options: OptionsTable::BatchMatMul,
        types: "int8, int8 → int8",
        output_shape: crate::batch_matmul::batch_matmul_output,
    },
    OpRow {
        op: BuiltinOp::LOG_SOFTMAX,
        options: OptionsTable::None,
        types: "int8 → int8",
        output_shape: same_as_input,
    },
    OpRow {
        op: BuiltinOp::L2_NORMALIZATION,
        options: OptionsTable::L2Norm,
        types: "int8 → int8",
        output_shape: same_as_input,
    },
];

/// The row of `op`, or `None` for an op shapecheck does not run.
///
/// ```
/// use shapecheck_tflite::{op_row, BuiltinOp};
/// assert_eq!(op_row(BuiltinOp::MEAN).unwrap().op, BuiltinOp::MEAN);
/// ```
pub fn op_row(op: BuiltinOp) -> Option<&'static OpRow> {
    OPS.iter().find(|row| row.op == op)
}

/// The operator's input `k` as a tensor, or the error naming it.
pub(crate) fn operand<'m>(
    model: &Model<'m>,
    op: &Operator<'_>,
    k: usize,
    name: &'static str,
) -> Result<ModelTensor<'m>, TfliteError> {
    op.input(k)
        .and_then(|i| model.tensor(i))
        .ok_or(TfliteError::MissingOperand {
            operator: op.index(),
            op: op.op(),
            operand: name,
        })
}

/// A tensor's shape as sizes (checked non-negative by `Model::parse`), or
/// the error naming it when it has more than [`MAX_DIMS`] dims.
pub(crate) fn shape_of(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
) -> Result<OpShape, TfliteError> {
    let mut dims = [0usize; MAX_DIMS];
    let shape = t.shape();
    if shape.len() > MAX_DIMS {
        return Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: MAX_DIMS,
                found: shape.len(),
            },
        ));
    }
    for (slot, d) in dims.iter_mut().zip(shape.iter()) {
        *slot = usize::try_from(d).unwrap_or(0);
    }
    Ok(OpShape {
        dims,
        rank: shape.len(),
    })
}

/// The error for operand `name` (tensor `t`) of `op`.
pub(crate) fn operand_problem(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    problem: OperandProblem,
) -> TfliteError {
    TfliteError::Operand {
        operator: Some(op.index()),
        op: Some(op.op()),
        operand: name,
        tensor: t.index(),
        name: Name::new(t.name()),
        problem,
    }
}

/// Checks operand `name` has `rank` dims.
pub(crate) fn need_rank(
    op: &Operator<'_>,
    name: &'static str,
    t: &ModelTensor<'_>,
    rank: usize,
) -> Result<OpShape, TfliteError> {
    let shape = shape_of(op, name, t)?;
    if shape.rank == rank {
        Ok(shape)
    } else {
        Err(operand_problem(
            op,
            name,
            t,
            OperandProblem::Rank {
                expected: rank,
                found: shape.rank,
            },
        ))
    }
}

/// An output size along one axis and the padding before it.
pub(crate) type SizeAndPad = (usize, usize);

/// The rows and columns a convolution or pool of a `[kh, kw]` window on
/// an NHWC input gives ([`conv_axis`] along each), with their padding
/// before: `((rows, pad_top), (columns, pad_left))`.
pub(crate) fn spatial(
    padding: crate::types::Padding,
    input: &OpShape,
    window: (usize, usize),
    strides: (usize, usize),
    dilations: (usize, usize),
) -> Result<(SizeAndPad, SizeAndPad), TfliteError> {
    let rows = conv_axis(padding, input.dims[1], window.0, strides.0, dilations.0)?;
    let columns = conv_axis(padding, input.dims[2], window.1, strides.1, dilations.1)?;
    Ok((
        (rows.output, rows.pad_before),
        (columns.output, columns.pad_before),
    ))
}

/// A strictly positive option as a size (`Model::parse` checked it).
fn size(v: i32) -> usize {
    usize::try_from(v).unwrap_or(0)
}

/// `CONV_2D`: an NHWC input `[B, H, W, C]` and a filter `[O, KH, KW, C]`
/// give `[B, OH, OW, O]`, `OH` and `OW` as the padding, strides and
/// dilations give ([`conv_axis`]).
fn conv_2d_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Options::Conv2d(o) = op.options() else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "Conv2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let filter = operand(model, op, 1, "filter")?;
    let x = need_rank(op, "input", &input, 4)?;
    let f = need_rank(op, "filter", &filter, 4)?;
    if f.dims[3] != x.dims[3] {
        return Err(operand_problem(
            op,
            "filter",
            &filter,
            OperandProblem::DimSize {
                axis: 3,
                expected: x.dims[3],
                found: f.dims[3],
            },
        ));
    }
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (f.dims[1], f.dims[2]),
        (size(o.stride_h), size(o.stride_w)),
        (size(o.dilation_h), size(o.dilation_w)),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, f.dims[0], 0, 0],
        rank: 4,
    })
}

/// `DEPTHWISE_CONV_2D`: an NHWC input `[B, H, W, C]` and a filter
/// `[1, KH, KW, C·M]` give `[B, OH, OW, C·M]`.
fn depthwise_conv_2d_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Options::DepthwiseConv2d(o) = op.options() else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "DepthwiseConv2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let filter = operand(model, op, 1, "filter")?;
    let x = need_rank(op, "input", &input, 4)?;
    let f = need_rank(op, "filter", &filter, 4)?;
    let (input_depth, output_depth) = (x.dims[3], f.dims[3]);
    if f.dims[0] != 1 || input_depth == 0 || !output_depth.is_multiple_of(input_depth) {
        return Err(TfliteError::KernelParam {
            what: "depthwise convolution's output channels",
            value: i64::try_from(output_depth).unwrap_or(i64::MAX),
            rule: "they must be a multiple of the input channels, the filter [1, kh, kw, c]",
        });
    }
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (f.dims[1], f.dims[2]),
        (size(o.stride_h), size(o.stride_w)),
        (size(o.dilation_h), size(o.dilation_w)),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, output_depth, 0, 0],
        rank: 4,
    })
}

/// `AVERAGE_POOL_2D`, `MAX_POOL_2D`: an NHWC input `[B, H, W, C]` gives
/// `[B, OH, OW, C]` for the options' window, padding and strides.
fn pool_2d_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let Options::Pool2d(o) = op.options() else {
        return Err(TfliteError::OptionsMismatch {
            place: crate::error::Place::Operator {
                index: op.index(),
                op: Some(op.op()),
            },
            expected: "Pool2DOptions",
            found: 0,
        });
    };
    let input = operand(model, op, 0, "input")?;
    let x = need_rank(op, "input", &input, 4)?;
    let ((rows, _), (columns, _)) = spatial(
        o.padding,
        &x,
        (size(o.filter_height), size(o.filter_width)),
        (size(o.stride_h), size(o.stride_w)),
        (1, 1),
    )?;
    Ok(OpShape {
        dims: [x.dims[0], rows, columns, x.dims[3], 0, 0],
        rank: 4,
    })
}

/// The output of an op whose output is its input's shape.
fn same_as_input(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    shape_of(op, "input", &input)
}

/// `FULLY_CONNECTED`: weights `[units, depth]`; the input read as rows of
/// `depth` gives `[rows, units]` (keep_num_dims: the input's leading dims
/// and `units`).
fn fully_connected_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let weights = operand(model, op, 1, "weights")?;
    let w = need_rank(op, "weights", &weights, 2)?;
    let (units, depth) = (w.dims[0], w.dims[1]);
    let x = shape_of(op, "input", &input)?;
    let elements = x.elements().unwrap_or(usize::MAX);
    if depth == 0 || !elements.is_multiple_of(depth) {
        return Err(operand_problem(
            op,
            "input",
            &input,
            OperandProblem::Elements {
                expected: depth,
                found: elements,
            },
        ));
    }
    let keep = matches!(op.options(), Options::FullyConnected(o) if o.keep_num_dims);
    let last = x.rank.checked_sub(1);
    match last {
        Some(last) if keep && x.dims.get(last) == Some(&depth) => {
            let mut out = x;
            if let Some(d) = out.dims.get_mut(last) {
                *d = units;
            }
            Ok(out)
        }
        _ => Ok(OpShape {
            dims: [elements / depth, units, 0, 0, 0, 0],
            rank: 2,
        }),
    }
}

/// `MEAN` over the spatial axes 1 and 2 of an NHWC input: `[B, C]`, or
/// `[B, 1, 1, C]` with keep_dims. Other axes are not run.
fn mean_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let axes = operand(model, op, 1, "axes")?;
    let x = need_rank(op, "input", &input, 4)?;
    let values = axes.data_as::<i32>();
    let spatial = match values {
        Some(a) if a.len() == 2 => {
            let (p, q) = (a.get(0).unwrap_or(-1), a.get(1).unwrap_or(-1));
            let norm = |v: i32| if v < 0 { v + 4 } else { v };
            matches!((norm(p), norm(q)), (1, 2) | (2, 1))
        }
        _ => false,
    };
    if !spatial {
        return Err(operand_problem(
            op,
            "axes",
            &axes,
            OperandProblem::Quantization(
                "is not the constant axes [1, 2] (shapecheck's MEAN runs over H and W of an NHWC tensor)",
            ),
        ));
    }
    let keep = matches!(op.options(), Options::Reducer(o) if o.keep_dims);
    let (b, c) = (x.dims[0], x.dims[3]);
    Ok(if keep {
        OpShape {
            dims: [b, 1, 1, c, 0, 0],
            rank: 4,
        }
    } else {
        OpShape {
            dims: [b, c, 0, 0, 0, 0],
            rank: 2,
        }
    })
}

/// `ADD`: numpy broadcasting of the two inputs ([`broadcast_shape`](crate::broadcast_shape)).
fn add_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let a = operand(model, op, 0, "input1")?;
    let b = operand(model, op, 1, "input2")?;
    let (sa, sb) = (shape_of(op, "input1", &a)?, shape_of(op, "input2", &b)?);
    let (dims, rank) = crate::add::broadcast_shape(sa.dims(), sb.dims())?;
    Ok(OpShape { dims, rank })
}

/// `PAD`: each dim plus its paddings before and after, from the constant
/// second input `[rank, 2]` ([`pad_output_shape`](crate::pad_output_shape)).
fn pad_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let x = shape_of(op, "input", &input)?;
    let paddings = pad_amounts(model, op, x.rank)?;
    let (dims, rank) =
        crate::pad::pad_output_shape(x.dims(), paddings.get(..x.rank).unwrap_or(&[]))?;
    Ok(OpShape { dims, rank })
}

/// `PAD`'s paddings, `(before, after)` per dim, from its constant second
/// input `[rank, 2]` of int32.
pub(crate) fn pad_amounts(
    model: &Model<'_>,
    op: &Operator<'_>,
    rank: usize,
) -> Result<[(usize, usize); MAX_DIMS], TfliteError> {
    let t = operand(model, op, 1, "paddings")?;
    let bad = |problem| operand_problem(op, "paddings", &t, problem);
    let shape = need_rank(op, "paddings", &t, 2)?;
    if shape.dims() != [rank, 2] {
        return Err(bad(OperandProblem::Elements {
            expected: rank * 2,
            found: shape.elements().unwrap_or(0),
        }));
    }
    let values = t
        .data_as::<i32>()
        .filter(|v| v.len() == rank * 2)
        .ok_or(bad(OperandProblem::Constant { expected: true }))?;
    let mut out = [(0usize, 0usize); MAX_DIMS];
    for (k, slot) in out.iter_mut().take(rank).enumerate() {
        let before = values.get(2 * k).and_then(|v| usize::try_from(v).ok());
        let after = values.get(2 * k + 1).and_then(|v| usize::try_from(v).ok());
        match (before, after) {
            (Some(b), Some(a)) => *slot = (b, a),
            _ => {
                return Err(bad(OperandProblem::Quantization(
                    "holds a negative padding",
                )))
            }
        }
    }
    Ok(out)
}

/// `RESHAPE`: the new shape (the constant second input, else the
/// options'), one `-1` inferred; without either, the file's output shape.
fn reshape_output(model: &Model<'_>, op: &Operator<'_>) -> Result<OpShape, TfliteError> {
    let input = operand(model, op, 0, "input")?;
    let from_tensor = op
        .input(1)
        .and_then(|i| model.tensor(i))
        .filter(|s| !s.data().is_empty())
        .and_then(|s| s.data_as::<i32>());
    let from_options = match op.options() {
        Options::Reshape(r) => r.new_shape.filter(|s| !s.is_empty()),
        _ => None,
    };
    let Some(new_shape) = from_tensor.or(from_options) else {
        let output =
            op.output(0)
                .and_then(|i| model.tensor(i))
                .ok_or(TfliteError::MissingOperand {
                    operator: op.index(),
                    op: op.op(),
                    operand: "output",
                })?;
        return shape_of(op, "output", &output);
    };
    let (_, inferred) = crate::reshape::reshape_dims(input.elements(), new_shape)?;
    if new_shape.len() > MAX_DIMS {
        return Err(operand_problem(
            op,
            "input",
            &input,
            OperandProblem::Rank {
                expected: MAX_DIMS,
                found: new_shape.len(),
            },
        ));
    }
    let mut dims = [0usize; MAX_DIMS];
    for (slot, d) in dims.iter_mut().zip(new_shape.iter()) {
        *slot = usize::try_from(d).ok().or(inferred).unwrap_or(0);
    }
    Ok(OpShape {
        dims,
        rank: new_shape.len(),
    })
}
