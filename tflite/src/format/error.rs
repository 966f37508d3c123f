//! [`TfliteError`]: what is wrong with a file, and where.

use core::fmt;

use crate::format::flatbuffer::Fault;
use crate::format::types::{Activation, BuiltinOp, TensorType};

/// A tensor's name copied into the error (at most [`Name::CAPACITY`] bytes,
/// cut at a character boundary), so that an error needs neither the file's
/// bytes nor an allocator.
///
/// ```
/// use shapecheck_tflite::Name;
///
/// let n = Name::new("dense_2/BiasAdd");
/// assert_eq!(n.as_str(), "dense_2/BiasAdd");
/// assert!(!n.is_cut());
/// let long = "x".repeat(100);
/// assert_eq!(Name::new(&long).as_str().len(), Name::CAPACITY);
/// assert!(Name::new(&long).is_cut());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    bytes: [u8; Name::CAPACITY],
    len: u8,
    cut: bool,
}

impl Name {
    /// The longest name kept whole, in bytes.
    pub const CAPACITY: usize = 48;

    /// `name`, cut to [`CAPACITY`](Self::CAPACITY) bytes at a character
    /// boundary.
    ///
    /// ```
    /// use shapecheck_tflite::Name;
    ///
    /// assert_eq!(Name::new("é").as_str(), "é");
    /// ```
    pub fn new(name: &str) -> Name {
        let mut end = name.len().min(Name::CAPACITY);
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; Name::CAPACITY];
        for (d, s) in bytes.iter_mut().zip(name.as_bytes().iter().take(end)) {
            *d = *s;
        }
        Name {
            bytes,
            len: end as u8,
            cut: end < name.len(),
        }
    }

    /// The name kept (the whole name unless [`is_cut`](Self::is_cut)).
    ///
    /// ```
    /// use shapecheck_tflite::Name;
    ///
    /// assert_eq!(Name::new("").as_str(), "");
    /// ```
    pub fn as_str(&self) -> &str {
        let kept = self.bytes.get(..usize::from(self.len)).unwrap_or(&[]);
        // `new` cut at a character boundary, so this is the whole prefix
        core::str::from_utf8(kept).unwrap_or("")
    }

    /// Whether the name was longer than [`CAPACITY`](Self::CAPACITY) bytes.
    ///
    /// ```
    /// use shapecheck_tflite::Name;
    ///
    /// assert!(!Name::new("short").is_cut());
    /// ```
    pub fn is_cut(&self) -> bool {
        self.cut
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)?;
        if self.cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// Where in the model an error was found: the part of the model being
/// read. Byte offsets are in the error itself.
///
/// ```
/// use shapecheck_tflite::{Name, Place};
///
/// let p = Place::ModelTensor { index: 3, name: Name::new("dense/BiasAdd") };
/// assert_eq!(p.to_string(), "tensor 3 \"dense/BiasAdd\"");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// The file's header or its root `Model` table.
    Model,
    /// Entry `index` of `Model.operator_codes`.
    OperatorCode {
        /// the entry's index
        index: usize,
    },
    /// Subgraph 0 (its own table and vectors).
    Subgraph,
    /// Entry `index` of `Model.buffers`.
    Buffer {
        /// the entry's index
        index: usize,
    },
    /// ModelTensor `index` of subgraph 0 (its name empty if the name itself
    /// could not be read).
    ModelTensor {
        /// the tensor's index
        index: usize,
        /// its name
        name: Name,
    },
    /// Operator `index` of subgraph 0 (its op once known).
    Operator {
        /// the operator's index, in execution order
        index: usize,
        /// its builtin op, once read
        op: Option<BuiltinOp>,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Model => f.write_str("the model table"),
            Place::OperatorCode { index } => write!(f, "operator code {index}"),
            Place::Subgraph => f.write_str("subgraph 0"),
            Place::Buffer { index } => write!(f, "buffer {index}"),
            Place::ModelTensor { index, name } => write!(f, "tensor {index} \"{name}\""),
            Place::Operator {
                index,
                op: Some(op),
            } => write!(f, "operator {index} ({op})"),
            Place::Operator { index, op: None } => write!(f, "operator {index}"),
        }
    }
}

/// Why a `.tflite` file (or a quantization parameter) was rejected. Each
/// names what was wrong and where: the tensor (index and name), operator
/// (index and op), operator code or buffer being read, and the byte offset
/// when the fault is in the layout. The reader returns one of these for
/// every malformed input; it never panics.
///
/// ```
/// use shapecheck_tflite::{Model, TfliteError};
///
/// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite"));
/// let err = Model::parse(&bytes[..100]).unwrap_err();
/// assert!(matches!(err, TfliteError::OutOfBounds { .. }));
/// assert_eq!(
///     err.to_string(),
///     "the model table: its operator codes: 4 bytes at offset 2644, past the end of the 100-byte file"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum TfliteError {
    /// The file is too short for a FlatBuffer's header (8 bytes), or its
    /// file identifier (bytes 4 to 8) is not `TFL3`.
    NotAModel {
        /// the file's length
        len: usize,
        /// its bytes 4 to 8 (zeros past the end)
        identifier: [u8; 4],
    },
    /// `size` bytes at `offset` lie past the end of the `len`-byte file
    /// (`offset` is `usize::MAX` when the offset read is not even
    /// representable, `size` is `usize::MAX` when a count overflows).
    OutOfBounds {
        /// what was being read
        place: Place,
        /// which field of it
        what: &'static str,
        /// the first byte needed
        offset: usize,
        /// how many
        size: usize,
        /// the file's length
        len: usize,
    },
    /// A table's vtable (at the table's position minus the `i32` stored
    /// there) lies outside the file or declares impossible sizes.
    BadVtable {
        /// what was being read
        place: Place,
        /// which table
        what: &'static str,
        /// the table's position
        table: usize,
        /// where its vtable would be
        vtable: i64,
    },
    /// A field's vtable entry points outside its table's inline data.
    FieldOutsideTable {
        /// what was being read
        place: Place,
        /// which field
        what: &'static str,
        /// the table's position
        table: usize,
        /// where the field would be
        offset: usize,
    },
    /// A string is not UTF-8.
    NotUtf8 {
        /// what was being read
        place: Place,
        /// which string
        what: &'static str,
        /// the string's position
        offset: usize,
    },
    /// The model has no subgraph.
    NoSubgraph,
    /// A tensor's type is not a `TensorType` of the schema.
    UnknownDtype {
        /// the tensor
        place: Place,
        /// the value stored
        value: i8,
    },
    /// An operator code names no builtin operator of the schema, read as
    /// `max(builtin_code, deprecated_builtin_code)`.
    UnknownOpCode {
        /// the entry of `operator_codes`
        place: Place,
        /// its `builtin_code`
        builtin_code: i32,
        /// its `deprecated_builtin_code`
        deprecated_builtin_code: i8,
    },
    /// An index (of a tensor, buffer or operator code) is outside its list.
    IndexOutOfRange {
        /// where the index was read
        place: Place,
        /// what it indexes (`"input tensor 2"`, `"buffer"`, ...)
        what: &'static str,
        /// the index stored
        index: i64,
        /// the list's length
        count: usize,
    },
    /// A tensor's shape has a negative dim.
    NegativeDim {
        /// the tensor
        place: Place,
        /// the axis
        axis: usize,
        /// the dim stored
        dim: i32,
    },
    /// A tensor's element count or byte size overflows `usize`.
    TooManyElements {
        /// the tensor
        place: Place,
    },
    /// A constant tensor's buffer does not hold its shape's elements.
    BufferSize {
        /// the tensor
        place: Place,
        /// its type
        dtype: TensorType,
        /// its shape's element count
        elements: usize,
        /// the bytes they take
        expected: usize,
        /// the buffer's bytes
        actual: usize,
    },
    /// A tensor's quantization has a different number of scales and zero
    /// points.
    ScalesZeroPoints {
        /// the tensor
        place: Place,
        /// how many scales
        scales: usize,
        /// how many zero points
        zero_points: usize,
    },
    /// A per-channel quantization (more than one scale) whose
    /// `quantized_dimension` is not an axis of the shape, or whose scales
    /// are not one per slice along it.
    QuantizedDimension {
        /// the tensor
        place: Place,
        /// the `quantized_dimension` stored
        dimension: i32,
        /// the shape's rank
        rank: usize,
        /// the dim along that axis, if it is one
        dim: Option<i32>,
        /// how many scales
        scales: usize,
    },
    /// An enumerated option holds a value outside the schema.
    UnknownEnum {
        /// the operator
        place: Place,
        /// the option (`"fused_activation_function"`, `"padding"`, ...)
        what: &'static str,
        /// the value stored
        value: i8,
    },
    /// An operator's `builtin_options` are of another operator's type.
    OptionsMismatch {
        /// the operator
        place: Place,
        /// the options table the op takes
        expected: &'static str,
        /// the `BuiltinOptions` type stored
        found: u8,
    },
    /// An option holds an impossible value (a stride or dilation below 1).
    BadOption {
        /// the operator
        place: Place,
        /// the option
        what: &'static str,
        /// the value stored
        value: i32,
    },
    /// A slice given to a kernel whose length does not match the layer's
    /// sizes (`expected` is `usize::MAX` when the sizes' product overflows).
    Length {
        /// which slice
        what: &'static str,
        /// the length the sizes call for
        expected: usize,
        /// its length
        actual: usize,
    },
    /// A band kernel's ring (input row `r` at ring row `r % ring_rows`)
    /// that cannot hold every input row its output rows read: they read
    /// input rows `first_row .. first_row + rows`.
    RingTooSmall {
        /// the first input row the output rows read
        first_row: usize,
        /// how many input rows they read, from `first_row` on
        rows: usize,
        /// the rows the ring holds
        ring_rows: usize,
    },
    /// A fused activation that is not a clamp (`TANH`, `SIGN_BIT`).
    UnsupportedActivation {
        /// the activation
        activation: Activation,
    },
    /// A real multiplier given to
    /// [`quantize_multiplier`](crate::quantize_multiplier) that is negative,
    /// NaN or infinite.
    BadMultiplier {
        /// the multiplier
        value: f64,
    },
    /// A kernel parameter outside the range the kernel is defined on (a
    /// depth multiplier below 1, a softmax row whose sum of exponentials
    /// TFLite's fixed point cannot hold, ...).
    KernelParam {
        /// the parameter
        what: &'static str,
        /// its value
        value: i64,
        /// the rule it breaks
        rule: &'static str,
    },
    /// The softmax's input multiplier `beta · input_scale · 2^26` is not
    /// above 1 (TFLite's `QuantizeMultiplierGreaterThanOne` requires it), or
    /// is not a finite number.
    SoftmaxScale {
        /// `beta · input_scale · 2^26`
        value: f64,
    },
    /// An operator neither `shapecheck`'s `model!` nor the
    /// [`Interpreter`](crate::Interpreter) runs: its op has no row in
    /// [`OPS`](crate::OPS), or its options are not the op's. Both say it in
    /// the same words (`model!` as a compile error, after the file's path):
    ///
    /// ```
    /// use shapecheck_tflite::{BuiltinOp, Name, TfliteError};
    ///
    /// let tile = BuiltinOp::from_code(69).unwrap(); // TILE
    /// let err = TfliteError::UnsupportedOp {
    ///     operator: 0,
    ///     op: tile,
    ///     output: 7,
    ///     output_name: Name::new("tile"),
    ///     has_row: false,
    /// };
    /// assert_eq!(
    ///     err.to_string(),
    ///     "operator 0 (TILE), writing tensor 7 \"tile\": `model!` and the `Interpreter` do not run TILE \
    ///      (the ops they run are the rows of `shapecheck::tflite::OPS`)"
    /// );
    /// // an op of OPS whose operator has another op's options
    /// let err = TfliteError::UnsupportedOp {
    ///     operator: 0,
    ///     op: BuiltinOp::ADD,
    ///     output: 7,
    ///     output_name: Name::new("add"),
    ///     has_row: true,
    /// };
    /// assert!(err.to_string().ends_with("`model!` and the `Interpreter` run ADD, but not with these options"));
    /// ```
    UnsupportedOp {
        /// the operator's index
        operator: usize,
        /// its op
        op: BuiltinOp,
        /// the tensor it writes (its output 0)
        output: usize,
        /// that tensor's name
        output_name: Name,
        /// whether the op has a row in [`OPS`](crate::OPS) (then it is
        /// this operator's options that are not run)
        has_row: bool,
    },
    /// An operator of an op the [`Interpreter`](crate::Interpreter) runs,
    /// with an option it does not (a fused `TANH`, a shuffled weights
    /// format, ...).
    UnsupportedOption {
        /// the operator's index
        operator: usize,
        /// its op
        op: BuiltinOp,
        /// the option (`"fused activation"`, `"weights format"`, ...)
        option: &'static str,
        /// its value, as the schema names it
        value: &'static str,
        /// the tensor it writes (its output 0)
        output: usize,
        /// that tensor's name
        output_name: Name,
    },
    /// An operator lacks an operand the op needs.
    MissingOperand {
        /// the operator's index
        operator: usize,
        /// its op
        op: BuiltinOp,
        /// which operand (`"input"`, `"filter"`, `"output"`, ...)
        operand: &'static str,
    },
    /// One operand of an operator (or one of the model's inputs) is not
    /// what the op needs.
    Operand {
        /// the operator's index (`None` for the model's inputs)
        operator: Option<usize>,
        /// its op
        op: Option<BuiltinOp>,
        /// which operand (`"input"`, `"filter"`, `"bias"`, `"output"`, ...)
        operand: &'static str,
        /// the tensor's index
        tensor: usize,
        /// the tensor's name
        name: Name,
        /// what is wrong
        problem: OperandProblem,
    },
    /// A buffer given to the [`Interpreter`](crate::Interpreter) for the
    /// activations of one type is too short.
    Arena {
        /// which buffer (`"int8 activations"`, `"f32 activations"`,
        /// `"multipliers"`)
        what: &'static str,
        /// the elements they need ([`Interpreter::arena_sizes`](crate::Interpreter::arena_sizes))
        needed: usize,
        /// the buffer's length
        given: usize,
    },
    /// Two shapes that do not broadcast: right-aligned, their dims at
    /// `axis` (of the longer shape) differ and neither is 1.
    Broadcast {
        /// the axis, counted in the longer shape
        axis: usize,
        /// the first shape's dim there (1 where it has none)
        first: usize,
        /// the second shape's dim there (1 where it has none)
        second: usize,
    },
    /// A real-valued kernel parameter (a scale, or a multiplier derived
    /// from scales) outside the range the kernel's fixed point is defined
    /// on: a scale that is not a finite number above 0, an `ADD` whose
    /// output scale is too small for its inputs', a `LOGISTIC` output not
    /// quantized as 1/256 from −128.
    KernelScale {
        /// the parameter
        what: &'static str,
        /// its value
        value: f64,
        /// the rule it breaks
        rule: &'static str,
    },
    /// A dynamic-range ("hybrid") quantized model: an operator reads a
    /// float32 activation and int8 constant weights and writes float32 (the converter's
    /// `Optimize.DEFAULT` without a representative dataset). TFLite Micro
    /// runs only full-integer and float32 models, and refuses it; so do
    /// `model!` and the [`Interpreter`](crate::Interpreter), before any
    /// operator is prepared, so that a hybrid layer never passes as a
    /// float one.
    ///
    /// ```
    /// use shapecheck_tflite::{BuiltinOp, Name, TfliteError};
    ///
    /// let err = TfliteError::HybridModel {
    ///     operator: 1,
    ///     op: BuiltinOp::CONV_2D,
    ///     input: 7,
    ///     weights: 6,
    ///     weights_name: Name::new("conv2d_1/convolution"),
    /// };
    /// assert!(err.to_string().starts_with(
    ///     "operator 1 (CONV_2D): a dynamic-range (hybrid) quantized model: its input, tensor 7, is FLOAT32 \
    ///      and its weights, tensor 6 \"conv2d_1/convolution\", INT8"
    /// ));
    /// ```
    HybridModel {
        /// the operator's index
        operator: usize,
        /// its op
        op: BuiltinOp,
        /// its float32 activation input
        input: usize,
        /// its int8 constant input
        weights: usize,
        /// that tensor's name
        weights_name: Name,
    },
    /// A model of float16 weights: an operator reads a FLOAT16 tensor (the
    /// converter's `supported_types = [tf.float16]` stores the weights so
    /// and `DEQUANTIZE`s each to float32 before its layer). TFLite Micro
    /// refuses it; so do `model!` and the
    /// [`Interpreter`](crate::Interpreter), before any operator is
    /// prepared.
    ///
    /// ```
    /// use shapecheck_tflite::{BuiltinOp, Name, TfliteError};
    ///
    /// let err = TfliteError::Float16Weights {
    ///     operator: 0,
    ///     op: BuiltinOp::from_code(6).unwrap(), // DEQUANTIZE
    ///     tensor: 6,
    ///     name: Name::new("conv2d_1/convolution"),
    /// };
    /// assert!(err.to_string().starts_with(
    ///     "operator 0 (DEQUANTIZE): a model of float16 weights: its input, tensor 6 \"conv2d_1/convolution\", is FLOAT16"
    /// ));
    /// ```
    Float16Weights {
        /// the operator's index
        operator: usize,
        /// its op
        op: BuiltinOp,
        /// the FLOAT16 tensor it reads
        tensor: usize,
        /// that tensor's name
        name: Name,
    },
}

/// What is wrong with an operand, in a [`TfliteError::Operand`].
///
/// ```
/// use shapecheck_tflite::{OperandProblem, TensorType};
///
/// let p = OperandProblem::Dtype { expected: TensorType::Int8, found: TensorType::Float32 };
/// assert_eq!(p.to_string(), "its type is FLOAT32, not INT8");
/// let p = OperandProblem::DtypeOneOf {
///     expected: &[TensorType::Int8, TensorType::Int16],
///     found: TensorType::Float32,
/// };
/// assert_eq!(p.to_string(), "its type is FLOAT32, not INT8 or INT16");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum OperandProblem {
    /// Its element type is not the one the op takes.
    Dtype {
        /// the type the op takes here
        expected: TensorType,
        /// the tensor's type
        found: TensorType,
    },
    /// Its element type is none of those the op runs on that operand:
    /// `expected` lists them all (the inputs of its row's
    /// [`types`](crate::OpRow::types)).
    DtypeOneOf {
        /// the types the op takes there, at least two
        expected: &'static [TensorType],
        /// the tensor's type
        found: TensorType,
    },
    /// It has constant data where the op writes or reads an activation, or
    /// none where the op needs a constant.
    Constant {
        /// whether the op needs a constant
        expected: bool,
    },
    /// Its shape has another rank.
    Rank {
        /// the rank the op needs
        expected: usize,
        /// the shape's rank
        found: usize,
    },
    /// A dim of its shape is not the one the other operands call for.
    /// (Not named `Dim`: rustc would then print shapecheck's `Dim` with its
    /// full path in every compile error of a program using both crates.)
    DimSize {
        /// the axis
        axis: u8,
        /// the dim they call for
        expected: usize,
        /// the shape's dim
        found: usize,
    },
    /// Its element count is not the one the other operands call for.
    Elements {
        /// the count they call for
        expected: usize,
        /// its count
        found: usize,
    },
    /// Its quantization is missing or unusable (the reason).
    Quantization(&'static str),
    /// It is also the operator's input (an op cannot write its input).
    IsInput,
    /// The model's input it is given is of another length.
    InputLength {
        /// the tensor's element count
        expected: usize,
        /// the data's length
        found: usize,
    },
}

impl fmt::Display for OperandProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperandProblem::Dtype { expected, found } => {
                write!(f, "its type is {found}, not {expected}")
            }
            OperandProblem::DtypeOneOf { expected, found } => {
                write!(f, "its type is {found}, not ")?;
                let last = expected.len().saturating_sub(1);
                for (k, t) in expected.iter().enumerate() {
                    let sep = match k {
                        0 => "",
                        k if k == last => " or ",
                        _ => ", ",
                    };
                    write!(f, "{sep}{t}")?;
                }
                Ok(())
            }
            OperandProblem::Constant { expected: true } => {
                f.write_str("it has no constant data, and the op needs a constant")
            }
            OperandProblem::Constant { expected: false } => {
                f.write_str("it is a constant, and the op needs an activation")
            }
            OperandProblem::Rank { expected, found } => {
                write!(f, "its shape has rank {found}, not {expected}")
            }
            OperandProblem::DimSize {
                axis,
                expected,
                found,
            } => write!(f, "dim {axis} of its shape is {found}, not {expected}"),
            OperandProblem::Elements { expected, found } => {
                write!(f, "it has {found} elements, not {expected}")
            }
            OperandProblem::Quantization(why) => write!(f, "its quantization {why}"),
            OperandProblem::IsInput => f.write_str("it is also the op's input"),
            OperandProblem::InputLength { expected, found } => write!(
                f,
                "it has {expected} elements, and the data given has {found}"
            ),
        }
    }
}

impl TfliteError {
    /// The error a layout fault becomes while reading `what` of `place`.
    pub(crate) fn from_fault(fault: Fault, place: Place, what: &'static str, len: usize) -> Self {
        match fault {
            Fault::OutOfBounds { offset, size } => TfliteError::OutOfBounds {
                place,
                what,
                offset,
                size,
                len,
            },
            Fault::BadVtable { table, vtable } => TfliteError::BadVtable {
                place,
                what,
                table,
                vtable,
            },
            Fault::FieldOutsideTable { table, offset } => TfliteError::FieldOutsideTable {
                place,
                what,
                table,
                offset,
            },
            Fault::NotUtf8 { offset } => TfliteError::NotUtf8 {
                place,
                what,
                offset,
            },
        }
    }
}

/// How to export a dynamic-range (hybrid) model so that it runs.
const HYBRID_FIX: &str =
    "export with a representative dataset (`converter.representative_dataset`, \
     full-integer int8) or without `Optimize.DEFAULT` (float32)";

/// How to export a float16-weight model so that it runs.
const FLOAT16_FIX: &str =
    "export without `supported_types = [tf.float16]` (float32) or with a representative dataset (int8)";

impl TfliteError {
    /// For an error that names what kind of file the model is
    /// ([`HybridModel`](Self::HybridModel),
    /// [`Float16Weights`](Self::Float16Weights)), how to export it so
    /// that it runs: the end of its message, after `"; "`, which
    /// `model!` prints as a note of its compile error.
    ///
    /// ```
    /// use shapecheck_tflite::{BuiltinOp, Name, TfliteError};
    ///
    /// let err = TfliteError::HybridModel {
    ///     operator: 1,
    ///     op: BuiltinOp::CONV_2D,
    ///     input: 7,
    ///     weights: 6,
    ///     weights_name: Name::new("conv2d_1/convolution"),
    /// };
    /// let fix = err.export_fix().unwrap();
    /// assert!(fix.starts_with("export with a representative dataset"));
    /// assert!(err.to_string().ends_with(&format!("; {fix}")));
    /// assert_eq!(TfliteError::NoSubgraph.export_fix(), None);
    /// ```
    pub fn export_fix(&self) -> Option<&'static str> {
        match self {
            TfliteError::HybridModel { .. } => Some(HYBRID_FIX),
            TfliteError::Float16Weights { .. } => Some(FLOAT16_FIX),
            _ => None,
        }
    }
}

impl fmt::Display for TfliteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TfliteError::NotAModel { len, identifier } if *len < 8 => write!(
                f,
                "not a TFLite model: {len} bytes, shorter than a FlatBuffer's 8-byte header"
            ),
            TfliteError::NotAModel { identifier, .. } => write!(
                f,
                "not a TFLite model: its file identifier (bytes 4 to 8) is {:?}, not \"TFL3\"",
                identifier.escape_ascii().collect::<Ascii4>()
            ),
            TfliteError::OutOfBounds {
                place,
                what,
                offset: usize::MAX,
                len,
                ..
            } => write!(f, "{place}: its {what}: an offset beyond any {len}-byte file"),
            TfliteError::OutOfBounds {
                place,
                what,
                offset,
                size: usize::MAX,
                len,
            } => write!(
                f,
                "{place}: its {what}: a count at offset {offset} whose size overflows, in a {len}-byte file"
            ),
            TfliteError::OutOfBounds {
                place,
                what,
                offset,
                size,
                len,
            } => write!(
                f,
                "{place}: its {what}: {size} bytes at offset {offset}, past the end of the {len}-byte file"
            ),
            TfliteError::BadVtable {
                place,
                what,
                table,
                vtable,
            } => write!(
                f,
                "{place}: the {what} table at offset {table} has no valid vtable (at {vtable})"
            ),
            TfliteError::FieldOutsideTable {
                place,
                what,
                table,
                offset,
            } => write!(
                f,
                "{place}: its {what} field at offset {offset} lies outside its table (at {table})"
            ),
            TfliteError::NotUtf8 {
                place,
                what,
                offset,
            } => write!(f, "{place}: its {what} at offset {offset} is not UTF-8"),
            TfliteError::NoSubgraph => f.write_str("the model has no subgraph"),
            TfliteError::UnknownDtype { place, value } => write!(
                f,
                "{place}: type {value} is not a TFLite tensor type (0 to 17)"
            ),
            TfliteError::UnknownOpCode {
                place,
                builtin_code,
                deprecated_builtin_code,
            } => write!(
                f,
                "{place}: unknown builtin operator {} (builtin_code {builtin_code}, deprecated_builtin_code {deprecated_builtin_code})",
                (*builtin_code).max(i32::from(*deprecated_builtin_code))
            ),
            TfliteError::IndexOutOfRange {
                place,
                what,
                index,
                count,
            } => write!(
                f,
                "{place}: {what} index {index} is out of range (there are {count})"
            ),
            TfliteError::NegativeDim { place, axis, dim } => {
                write!(f, "{place}: dim {axis} of its shape is {dim}, negative")
            }
            TfliteError::TooManyElements { place } => {
                write!(f, "{place}: its element count overflows")
            }
            TfliteError::BufferSize {
                place,
                dtype,
                elements,
                expected,
                actual,
            } => write!(
                f,
                "{place}: its shape holds {elements} {dtype} elements ({expected} bytes) but its buffer has {actual} bytes"
            ),
            TfliteError::ScalesZeroPoints {
                place,
                scales,
                zero_points,
            } => write!(
                f,
                "{place}: its quantization has {scales} scales but {zero_points} zero points"
            ),
            TfliteError::QuantizedDimension {
                place,
                dimension,
                rank,
                dim: Some(dim),
                scales,
            } => write!(
                f,
                "{place}: {scales} per-channel scales along quantized_dimension {dimension}, whose dim is {dim} (rank {rank})"
            ),
            TfliteError::QuantizedDimension {
                place,
                dimension,
                rank,
                dim: None,
                scales,
            } => write!(
                f,
                "{place}: {scales} per-channel scales along quantized_dimension {dimension}, not an axis of its rank-{rank} shape"
            ),
            TfliteError::UnknownEnum { place, what, value } => {
                write!(f, "{place}: {what} {value} is not a value of the schema")
            }
            TfliteError::OptionsMismatch {
                place,
                expected,
                found,
            } => write!(
                f,
                "{place}: its builtin_options are of type {found}, not {expected}"
            ),
            TfliteError::BadOption { place, what, value } => {
                write!(f, "{place}: {what} is {value}, below 1")
            }
            TfliteError::Length {
                what,
                expected: usize::MAX,
                ..
            } => write!(f, "the {what}'s length overflows usize"),
            TfliteError::Length {
                what,
                expected,
                actual,
            } => write!(f, "the {what} has {actual} elements, not {expected}"),
            TfliteError::RingTooSmall {
                first_row,
                rows,
                ring_rows,
            } => write!(
                f,
                "the output rows read input rows {first_row}..{}, {rows} rows, but the ring holds {ring_rows}",
                first_row.saturating_add(*rows)
            ),
            TfliteError::UnsupportedActivation { activation } => write!(
                f,
                "the fused activation {activation:?} is not a clamp: not supported by the int8 kernels"
            ),
            TfliteError::BadMultiplier { value } => write!(
                f,
                "the requantization multiplier {value} is not a finite, non-negative number"
            ),
            TfliteError::KernelParam { what, value, rule } => {
                write!(f, "the {what} is {value}: {rule}")
            }
            TfliteError::SoftmaxScale { value } => write!(
                f,
                "the softmax's input multiplier beta · input scale · 2^26 is {value}, not a finite number above 1"
            ),
            TfliteError::UnsupportedOp {
                operator,
                op,
                output,
                output_name,
                has_row,
            } => {
                write!(
                    f,
                    "operator {operator} ({op}), writing tensor {output} \"{output_name}\": "
                )?;
                if *has_row {
                    write!(
                        f,
                        "`model!` and the `Interpreter` run {op}, but not with these options"
                    )
                } else {
                    write!(
                        f,
                        "`model!` and the `Interpreter` do not run {op} (the ops they run are the rows of `shapecheck::tflite::OPS`)"
                    )
                }
            }
            TfliteError::UnsupportedOption {
                operator,
                op,
                option,
                value,
                output,
                output_name,
            } => write!(
                f,
                "operator {operator} ({op}), writing tensor {output} \"{output_name}\": its {option} {value} is not supported (shapecheck runs the clamps NONE, RELU, RELU_N1_TO_1 and RELU6, and the default weights format)"
            ),
            TfliteError::MissingOperand {
                operator,
                op,
                operand,
            } => write!(f, "operator {operator} ({op}): its {operand} is missing"),
            TfliteError::Operand {
                operator: Some(operator),
                op,
                operand,
                tensor,
                name,
                problem,
            } => {
                write!(f, "operator {operator}")?;
                if let Some(op) = op {
                    write!(f, " ({op})")?;
                }
                write!(f, ": its {operand}, tensor {tensor} \"{name}\": {problem}")
            }
            TfliteError::Operand {
                operator: None,
                operand,
                tensor,
                name,
                problem,
                ..
            } => write!(
                f,
                "the model's {operand}, tensor {tensor} \"{name}\": {problem}"
            ),
            TfliteError::Arena {
                what,
                needed,
                given,
            } => write!(
                f,
                "the {what} need {needed} elements, and their buffer has {given}"
            ),
            TfliteError::Broadcast {
                axis,
                first,
                second,
            } => write!(
                f,
                "the shapes do not broadcast: at axis {axis} their dims are {first} and {second}, neither 1 nor equal"
            ),
            TfliteError::KernelScale { what, value, rule } => {
                write!(f, "the {what} is {value}: {rule}")
            }
            TfliteError::HybridModel {
                operator,
                op,
                input,
                weights,
                weights_name,
            } => write!(
                f,
                "operator {operator} ({op}): a dynamic-range (hybrid) quantized model: its input, tensor {input}, is FLOAT32 \
                 and its weights, tensor {weights} \"{weights_name}\", INT8, and TFLite Micro runs only full-integer \
                 or float32 models; {HYBRID_FIX}"
            ),
            TfliteError::Float16Weights {
                operator,
                op,
                tensor,
                name,
            } => write!(
                f,
                "operator {operator} ({op}): a model of float16 weights: its input, tensor {tensor} \"{name}\", is FLOAT16 \
                 (the converter's `supported_types = [tf.float16]` stores the weights so, a DEQUANTIZE from FLOAT16 to FLOAT32 \
                 before each layer), and TFLite Micro runs only full-integer or float32 models; {FLOAT16_FIX}"
            ),
        }
    }
}

/// The escaped identifier, collected without an allocator (at most 16
/// characters: `\xNN` for each of 4 bytes).
struct Ascii4 {
    chars: [u8; 16],
    len: usize,
}

impl FromIterator<u8> for Ascii4 {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut out = Ascii4 {
            chars: [0; 16],
            len: 0,
        };
        for (slot, b) in out.chars.iter_mut().zip(iter) {
            *slot = b;
            out.len += 1;
        }
        out
    }
}

impl fmt::Debug for Ascii4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.chars.get(..self.len).unwrap_or(&[]);
        write!(f, "\"{}\"", core::str::from_utf8(s).unwrap_or("?"))
    }
}

impl core::error::Error for TfliteError {}
