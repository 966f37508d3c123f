//! The checks every op's `prepare` makes of its operands ([`Checker`]),
//! each failing with the error that names the operator, the operand and
//! its tensor; and where an activation lives in the interpreter's buffers.

use core::ops::Range;

use crate::arith::activation::{
    activation_range_int16, activation_range_int8, fully_connected_multiplier,
};
use crate::arith::quant::QuantizedMultiplier;
use crate::format::array::{Array, LeNumber};
use crate::format::error::{Name, OperandProblem, TfliteError};
use crate::format::model::{Model, ModelTensor, Operator};
use crate::format::types::{Activation, TensorType};
use crate::kernel::shape::OpShape;

/// Where an activation tensor lives: its type's buffer, and its elements
/// there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Slot {
    pub dtype: TensorType,
    pub range: Range<usize>,
}

impl crate::base::write_rust::WriteRust for Slot {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "Slot",
            &[("dtype", &self.dtype), ("range", &self.range)],
        )
    }
}

/// An operand that is an activation or a constant of the model (its
/// elements `T`: int8 unless named, f32 for `float_ops`' binary ops).
#[derive(Clone)]
#[doc(hidden)]
pub enum Source<'m, T: LeNumber = i8> {
    Activation(Range<usize>),
    Constant(Array<'m, T>),
}

impl<T: LeNumber> crate::base::write_rust::WriteRust for Source<'_, T> {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            Source::Activation(s) => {
                crate::base::write_rust::write_tuple(w, k, "Source::Activation", &[s])
            }
            Source::Constant(s) => {
                crate::base::write_rust::write_tuple(w, k, "Source::Constant", &[s])
            }
        }
    }
}

/// The requantization of a quantized layer: zero points, clamp, and how
/// many multipliers the scratch holds.
#[derive(Clone)]
#[doc(hidden)]
pub struct Quantized {
    pub input_zero_point: i32,
    pub weights_zero_point: i32,
    pub output_zero_point: i32,
    pub output_min: i32,
    pub output_max: i32,
    pub channels: usize,
}

impl crate::base::write_rust::WriteRust for Quantized {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        crate::base::write_rust::write_struct(
            w,
            k,
            "Quantized",
            &[
                ("input_zero_point", &self.input_zero_point),
                ("weights_zero_point", &self.weights_zero_point),
                ("output_zero_point", &self.output_zero_point),
                ("output_min", &self.output_min),
                ("output_max", &self.output_max),
                ("channels", &self.channels),
            ],
        )
    }
}

/// The error for `operand` of `op` (`None`: the model's inputs), tensor
/// `t`, and its `problem`.
pub(crate) fn operand_error(
    op: Option<&Operator<'_>>,
    operand: &'static str,
    t: &ModelTensor<'_>,
    problem: OperandProblem,
) -> TfliteError {
    TfliteError::Operand {
        operator: op.map(|o| o.index()),
        op: op.map(|o| o.op()),
        operand,
        tensor: t.index(),
        name: Name::new(t.name()),
        problem,
    }
}

/// Whether a tensor is an activation (no constant data) of a type the
/// interpreter keeps.
pub(crate) fn is_activation(t: &ModelTensor<'_>) -> bool {
    t.data().is_empty()
        && matches!(
            t.dtype(),
            TensorType::Int8 | TensorType::Int16 | TensorType::Int32 | TensorType::Float32
        )
}

/// Refuses the two kinds of export TFLite Micro does not run, which no
/// operator's own check names for what they are: a dynamic-range
/// ("hybrid") quantized model, whose operator reads a float32 activation
/// and int8 constant weights and writes float32
/// ([`TfliteError::HybridModel`]), and a model
/// of float16 weights, whose operator reads a FLOAT16 tensor
/// ([`TfliteError::Float16Weights`]). The one check of the file's kind,
/// run on the whole model before any operator is prepared (by
/// `Interpreter::new` and by every path that prepares steps, and so by
/// `model!`), so that the first error is what the file is, whichever
/// operator comes first, and a hybrid layer never passes as a float one.
pub(crate) fn check_export_kind(model: &Model<'_>) -> Result<(), TfliteError> {
    for op in model.operators() {
        let inputs = || {
            (0..op.inputs().len())
                .filter_map(|k| op.input(k))
                .filter_map(|t| model.tensor(t))
        };
        if let Some(t) = inputs().find(|t| t.dtype() == TensorType::Float16) {
            return Err(TfliteError::Float16Weights {
                operator: op.index(),
                op: op.op(),
                tensor: t.index(),
                name: Name::new(t.name()),
            });
        }
        // a hybrid layer's activations are float32 both in and out (an
        // int8 layer with a float32 input is an operand's type error)
        let float_output = op
            .output(0)
            .and_then(|t| model.tensor(t))
            .is_some_and(|t| t.dtype() == TensorType::Float32);
        let float_activation =
            inputs().find(|t| t.dtype() == TensorType::Float32 && t.data().is_empty());
        let int8_constant =
            inputs().find(|t| t.dtype() == TensorType::Int8 && !t.data().is_empty());
        if let (true, Some(input), Some(weights)) = (float_output, float_activation, int8_constant)
        {
            return Err(TfliteError::HybridModel {
                operator: op.index(),
                op: op.op(),
                input: input.index(),
                weights: weights.index(),
                weights_name: Name::new(weights.name()),
            });
        }
    }
    Ok(())
}

/// A tensor's shape as sizes (checked non-negative by `Model::parse`).
pub(crate) fn dim(t: &ModelTensor<'_>, axis: usize) -> usize {
    t.shape()
        .get(axis)
        .and_then(|d| usize::try_from(d).ok())
        .unwrap_or(0)
}

/// Where activation tensor `index` of `model` lives, or `None` for a
/// constant, a tensor of a type the interpreter does not keep, or an index
/// past the end: after the activations of the same type before it, in
/// index order.
pub(crate) fn slot(model: &Model<'_>, index: usize) -> Option<Slot> {
    let t = model.tensor(index)?;
    if !is_activation(&t) {
        return None;
    }
    let start = model
        .tensors()
        .take(index)
        .filter(|o| is_activation(o) && o.dtype() == t.dtype())
        .fold(0usize, |sum, o| sum.saturating_add(o.elements()));
    Some(Slot {
        dtype: t.dtype(),
        range: start..start.saturating_add(t.elements()),
    })
}

/// `(&arena[input], &mut arena[output])`, or `None` when they overlap
/// (an operator writing its own input) or lie outside.
pub(crate) fn split<'s, T>(
    arena: &'s mut [T],
    input: &Range<usize>,
    output: &Range<usize>,
) -> Option<(&'s [T], &'s mut [T])> {
    if input.end <= output.start {
        let (before, after) = arena.split_at_mut(output.start.min(arena.len()));
        let out = after.get_mut(..output.len())?;
        Some((before.get(input.clone())?, out))
    } else if output.end <= input.start {
        let (before, after) = arena.split_at_mut(input.start.min(arena.len()));
        let inp = after.get(..input.len())?;
        Some((inp, before.get_mut(output.clone())?))
    } else {
        None
    }
}

/// `(&arena[a], &arena[b], &mut arena[output])` for two inputs that may
/// overlap each other but not the output, or `None` when one does or a
/// range lies outside.
pub(crate) fn split2<'s, T>(
    arena: &'s mut [T],
    a: &Range<usize>,
    b: &Range<usize>,
    output: &Range<usize>,
) -> Option<(&'s [T], &'s [T], &'s mut [T])> {
    let disjoint = |r: &Range<usize>| r.end <= output.start || output.end <= r.start;
    if !disjoint(a) || !disjoint(b) {
        return None;
    }
    let (before, rest) = arena.split_at_mut(output.start.min(arena.len()));
    let (out, after) = rest.split_at_mut(output.len().min(rest.len()));
    if out.len() != output.len() {
        return None;
    }
    let (before, after) = (&*before, &*after);
    let pick = |r: &Range<usize>| {
        if r.end <= output.start {
            before.get(r.clone())
        } else {
            after.get(r.start - output.end..r.end - output.end)
        }
    };
    Some((pick(a)?, pick(b)?, out))
}

/// One operator being checked against what its op needs: each check
/// returns the error naming the operator, the operand and its tensor.
/// The most activations one operator reads and writes (its activation
/// inputs and outputs together) that the interpreter checks.
pub(crate) const MAX_OPERANDS: usize = 32;

pub(crate) struct Checker<'m> {
    pub(crate) model: Model<'m>,
    pub(crate) op: Operator<'m>,
    pub(crate) output: ModelTensor<'m>,
    /// where the operator's activations are: (tensor, its slot)
    slots: [Option<(usize, Slot)>; MAX_OPERANDS],
}

impl<'m> Checker<'m> {
    /// The checker of `op`, each activation at [`slot`]'s place (the
    /// crate's tests'); fails when it has no output, or its output is its
    /// input.
    #[cfg(test)]
    pub(crate) fn new(model: Model<'m>, op: Operator<'m>) -> Result<Self, TfliteError> {
        Self::with_slots(model, op, |i| slot(&model, i))
    }

    /// The checker of `op` whose activations are where `slot_of` says (a
    /// [`Plan`](crate::Plan)'s layout); fails as [`new`](Self::new) does,
    /// and when the op has more than [`MAX_OPERANDS`] operands.
    pub(crate) fn with_slots(
        model: Model<'m>,
        op: Operator<'m>,
        slot_of: impl Fn(usize) -> Option<Slot>,
    ) -> Result<Self, TfliteError> {
        let output =
            op.output(0)
                .and_then(|i| model.tensor(i))
                .ok_or(TfliteError::MissingOperand {
                    operator: op.index(),
                    op: op.op(),
                    operand: "output",
                })?;
        let mut slots: [Option<(usize, Slot)>; MAX_OPERANDS] = core::array::from_fn(|_| None);
        let operands = op.inputs().iter().chain(op.outputs().iter());
        let mut free = slots.iter_mut();
        for index in operands.filter_map(|i| usize::try_from(i).ok()) {
            if let Some(at) = slot_of(index) {
                let entry = free.next().ok_or(TfliteError::KernelParam {
                    what: "number of activations one operator reads and writes",
                    value: i64::try_from(op.inputs().len().saturating_add(op.outputs().len()))
                        .unwrap_or(i64::MAX),
                    rule: "the interpreter takes at most 32",
                })?;
                *entry = Some((index, at));
            }
        }
        let checker = Checker {
            model,
            op,
            output,
            slots,
        };
        if op.input(0) == Some(output.index()) {
            return Err(checker.fail("output", &output, OperandProblem::IsInput));
        }
        Ok(checker)
    }

    /// The error: the op runs, but not with this operator's options.
    pub(crate) fn unsupported(&self) -> TfliteError {
        self.unsupported_op(true)
    }

    /// The error: the interpreter does not run this operator; `has_row`,
    /// whether its op has a row in the registry.
    pub(crate) fn unsupported_op(&self, has_row: bool) -> TfliteError {
        TfliteError::UnsupportedOp {
            operator: self.op.index(),
            op: self.op.op(),
            output: self.output.index(),
            output_name: Name::new(self.output.name()),
            has_row,
        }
    }

    /// Checks the file's output shape is `shape`, the op's rule's.
    pub(crate) fn output_shape(&self, shape: &OpShape) -> Result<(), TfliteError> {
        let output = &self.output;
        self.rank("output", output, shape.dims().len())?;
        for (axis, &d) in shape.dims().iter().enumerate() {
            self.dim("output", output, axis, d)?;
        }
        Ok(())
    }

    /// The clamp of `activation` at the output's scale and zero point,
    /// within the output's type (int16 for TFLite's 16x8 mode, else int8);
    /// a fused activation that is no clamp (`TANH`) is refused, naming the
    /// operator.
    pub(crate) fn clamp(
        &self,
        activation: Activation,
        scale: f32,
        zero_point: i32,
    ) -> Result<(i32, i32), TfliteError> {
        let range = if self.output.dtype() == TensorType::Int16 {
            activation_range_int16(activation, scale, zero_point)
        } else {
            activation_range_int8(activation, scale, zero_point)
        };
        range.map_err(|e| match e {
            TfliteError::UnsupportedActivation { activation } => {
                self.unsupported_option("fused activation", activation.name())
            }
            other => other,
        })
    }

    /// The error: this operator's `option` has a `value` the interpreter
    /// does not run.
    pub(crate) fn unsupported_option(
        &self,
        option: &'static str,
        value: &'static str,
    ) -> TfliteError {
        TfliteError::UnsupportedOption {
            operator: self.op.index(),
            op: self.op.op(),
            option,
            value,
            output: self.output.index(),
            output_name: Name::new(self.output.name()),
        }
    }

    /// The error: operand `name`, tensor `t`, has `problem`.
    pub(crate) fn fail(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        problem: OperandProblem,
    ) -> TfliteError {
        operand_error(Some(&self.op), name, t, problem)
    }

    /// Input `k`, which the op needs.
    pub(crate) fn input(
        &self,
        k: usize,
        name: &'static str,
    ) -> Result<ModelTensor<'m>, TfliteError> {
        self.optional(k).ok_or(TfliteError::MissingOperand {
            operator: self.op.index(),
            op: self.op.op(),
            operand: name,
        })
    }

    /// Input `k`, if the op has it (an absent optional input is -1).
    pub(crate) fn optional(&self, k: usize) -> Option<ModelTensor<'m>> {
        self.op.input(k).and_then(|i| self.model.tensor(i))
    }

    pub(crate) fn dtype(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: TensorType,
    ) -> Result<(), TfliteError> {
        if t.dtype() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Dtype {
                    expected,
                    found: t.dtype(),
                },
            ))
        }
    }

    pub(crate) fn elements(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: usize,
    ) -> Result<(), TfliteError> {
        if t.elements() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Elements {
                    expected,
                    found: t.elements(),
                },
            ))
        }
    }

    pub(crate) fn rank(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        expected: usize,
    ) -> Result<(), TfliteError> {
        if t.shape().len() == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::Rank {
                    expected,
                    found: t.shape().len(),
                },
            ))
        }
    }

    pub(crate) fn dim(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        axis: usize,
        expected: usize,
    ) -> Result<(), TfliteError> {
        let found = dim(t, axis);
        if found == expected {
            Ok(())
        } else {
            Err(self.fail(
                name,
                t,
                OperandProblem::DimSize {
                    axis: u8::try_from(axis).unwrap_or(u8::MAX),
                    expected,
                    found,
                },
            ))
        }
    }

    /// Checks `t` is a constant (or empty).
    pub(crate) fn constant(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
    ) -> Result<(), TfliteError> {
        if t.data().is_empty() && t.elements() > 0 {
            Err(self.fail(name, t, OperandProblem::Constant { expected: true }))
        } else {
            Ok(())
        }
    }

    /// Where activation `t` lives; fails for a constant.
    pub(crate) fn activation(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
    ) -> Result<Slot, TfliteError> {
        let index = t.index();
        let at = self.slots.iter().flatten().find(|(i, _)| *i == index);
        at.map(|(_, s)| s.clone()).ok_or(self.fail(
            name,
            t,
            OperandProblem::Constant { expected: false },
        ))
    }

    /// The one scale and zero point of `t`: an int8 zero point, or 0 for
    /// an int16 tensor (TFLite's 16x8 mode quantizes int16 symmetrically).
    pub(crate) fn per_tensor(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
    ) -> Result<(f32, i32), TfliteError> {
        let fail = |why| self.fail(name, t, OperandProblem::Quantization(why));
        let q = t.quantization().ok_or(fail("is missing"))?;
        if q.is_per_channel() {
            return Err(fail("is per-channel, and the op needs one scale"));
        }
        if t.dtype() == TensorType::Int16 {
            return match q.zero_point(0) {
                Some(0) | None => Ok((q.scale(0).unwrap_or(0.0), 0)),
                Some(_) => Err(fail(
                    "has a zero point other than 0 (an int16 tensor's is 0)",
                )),
            };
        }
        let zero_point = q
            .zero_point(0)
            .and_then(|z| i32::try_from(z).ok())
            .filter(|z| (-128..=127).contains(z))
            .ok_or(fail("has a zero point outside the int8 range"))?;
        Ok((q.scale(0).unwrap_or(0.0), zero_point))
    }

    /// The scales of quantized weights or filter `t`: one, or one per
    /// channel along `axis` (`channels` of them); and its zero point, the
    /// same for every channel.
    pub(crate) fn channel_scales(
        &self,
        name: &'static str,
        t: &ModelTensor<'m>,
        axis: usize,
        channels: usize,
    ) -> Result<(Array<'m, f32>, i32), TfliteError> {
        let fail = |why| self.fail(name, t, OperandProblem::Quantization(why));
        let q = t.quantization().ok_or(fail("is missing"))?;
        if q.is_per_channel() && (q.quantized_dimension() != axis || q.scales().len() != channels) {
            return Err(fail(
                "is per-channel along another axis than the output channels",
            ));
        }
        let first = q.zero_points().get(0).unwrap_or(0);
        if q.zero_points().iter().any(|z| z != first) {
            return Err(fail("has zero points that differ between channels"));
        }
        let zero_point = i32::try_from(first)
            .ok()
            .filter(|z| (-128..=127).contains(z))
            .ok_or(fail("has a zero point outside the int8 range"))?;
        Ok((q.scales(), zero_point))
    }

    /// Writes the multiplier `input_scale · scale / output_scale` of each
    /// of weights or filter `t`'s `scales` into `scratch`; returns how many.
    pub(crate) fn write_multipliers(
        &self,
        name: &'static str,
        t: &ModelTensor<'_>,
        scales: Array<'m, f32>,
        (input_scale, output_scale): (f32, f32),
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<usize, TfliteError> {
        if scratch.len() < scales.len() {
            return Err(TfliteError::Arena {
                what: "multipliers",
                needed: scales.len(),
                given: scratch.len(),
            });
        }
        for (slot, scale) in scratch.iter_mut().zip(scales) {
            *slot = fully_connected_multiplier(input_scale, scale, output_scale).map_err(|_| {
                self.fail(
                    name,
                    t,
                    OperandProblem::Quantization(
                        "gives a multiplier (input scale · its scale / output scale) that is not a finite, non-negative number",
                    ),
                )
            })?;
        }
        Ok(scales.len())
    }

    /// A convolution's (`CONV_2D`'s, `DEPTHWISE_CONV_2D`'s) bias checked
    /// (int32, or int64 for an int16 input), and its requantization: the input's and output's zero points, the
    /// filter's scales along `axis` (`channels` of them, or one) with zero
    /// point 0 turned into multipliers in `scratch`, the fused activation's
    /// clamp.
    pub(crate) fn filter_quantization(
        &self,
        (input, filter, bias): (&ModelTensor<'m>, &ModelTensor<'m>, Option<&ModelTensor<'m>>),
        axis: usize,
        channels: usize,
        activation: Activation,
        scratch: &mut [QuantizedMultiplier],
    ) -> Result<Quantized, TfliteError> {
        let output = &self.output;
        if let Some(bias) = bias {
            let bias_type = if input.dtype() == TensorType::Int16 {
                TensorType::Int64
            } else {
                TensorType::Int32
            };
            self.dtype("bias", bias, bias_type)?;
            self.elements("bias", bias, channels)?;
            self.constant("bias", bias)?;
        }
        let (input_scale, input_zero_point) = self.per_tensor("input", input)?;
        let (output_scale, output_zero_point) = self.per_tensor("output", output)?;
        let (scales, filter_zero_point) = self.channel_scales("filter", filter, axis, channels)?;
        if filter_zero_point != 0 {
            return Err(self.fail(
                "filter",
                filter,
                OperandProblem::Quantization("has a zero point other than 0"),
            ));
        }
        let channels = self.write_multipliers(
            "filter",
            filter,
            scales,
            (input_scale, output_scale),
            scratch,
        )?;
        let (output_min, output_max) = self.clamp(activation, output_scale, output_zero_point)?;
        Ok(Quantized {
            input_zero_point,
            weights_zero_point: 0,
            output_zero_point,
            output_min,
            output_max,
            channels,
        })
    }

    /// A binary op's operand: an activation, or a constant read in place
    /// (the caller has checked its type is `T`'s).
    pub(crate) fn source<T: LeNumber>(
        &self,
        name: &'static str,
        t: &ModelTensor<'m>,
    ) -> Result<Source<'m, T>, TfliteError> {
        if t.data().is_empty() && t.elements() > 0 {
            Ok(Source::Activation(self.activation(name, t)?.range))
        } else {
            Ok(Source::Constant(t.data_as().unwrap_or_else(Array::empty)))
        }
    }
}
