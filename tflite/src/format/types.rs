//! The enumerations of schema.fbs the reader reports: tensor types,
//! builtin operators, fused activations, padding, weight formats.

use core::fmt;

/// A tensor's element type (schema.fbs `TensorType`). Every value of the
/// schema is reported; a value outside it is
/// [`TfliteError::UnknownDtype`](crate::TfliteError::UnknownDtype).
///
/// ```
/// use shapecheck_tflite::{Model, TensorType};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// assert_eq!(model.tensor(0).unwrap().dtype(), TensorType::Int8);
/// assert_eq!(TensorType::Int32.size_bits(), Some(32));
/// assert_eq!(TensorType::Float32.to_string(), "FLOAT32");
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TensorType {
    /// `FLOAT32` (0)
    Float32,
    /// `FLOAT16` (1)
    Float16,
    /// `INT32` (2)
    Int32,
    /// `UINT8` (3)
    Uint8,
    /// `INT64` (4)
    Int64,
    /// `STRING` (5): variable length, no fixed element size
    String,
    /// `BOOL` (6): one byte each
    Bool,
    /// `INT16` (7)
    Int16,
    /// `COMPLEX64` (8)
    Complex64,
    /// `INT8` (9)
    Int8,
    /// `FLOAT64` (10)
    Float64,
    /// `COMPLEX128` (11)
    Complex128,
    /// `UINT64` (12)
    Uint64,
    /// `RESOURCE` (13): no fixed element size
    Resource,
    /// `VARIANT` (14): no fixed element size
    Variant,
    /// `UINT32` (15)
    Uint32,
    /// `UINT16` (16)
    Uint16,
    /// `INT4` (17): two elements a byte in a constant buffer
    Int4,
}

impl crate::base::write_rust::WriteRust for TensorType {
    fn write_rust(&self, w: &mut dyn core::fmt::Write, k: &str) -> core::fmt::Result {
        match self {
            TensorType::Float32 => crate::base::write_rust::write_path(w, k, "TensorType::Float32"),
            TensorType::Float16 => crate::base::write_rust::write_path(w, k, "TensorType::Float16"),
            TensorType::Int32 => crate::base::write_rust::write_path(w, k, "TensorType::Int32"),
            TensorType::Uint8 => crate::base::write_rust::write_path(w, k, "TensorType::Uint8"),
            TensorType::Int64 => crate::base::write_rust::write_path(w, k, "TensorType::Int64"),
            TensorType::String => crate::base::write_rust::write_path(w, k, "TensorType::String"),
            TensorType::Bool => crate::base::write_rust::write_path(w, k, "TensorType::Bool"),
            TensorType::Int16 => crate::base::write_rust::write_path(w, k, "TensorType::Int16"),
            TensorType::Complex64 => {
                crate::base::write_rust::write_path(w, k, "TensorType::Complex64")
            }
            TensorType::Int8 => crate::base::write_rust::write_path(w, k, "TensorType::Int8"),
            TensorType::Float64 => crate::base::write_rust::write_path(w, k, "TensorType::Float64"),
            TensorType::Complex128 => {
                crate::base::write_rust::write_path(w, k, "TensorType::Complex128")
            }
            TensorType::Uint64 => crate::base::write_rust::write_path(w, k, "TensorType::Uint64"),
            TensorType::Resource => {
                crate::base::write_rust::write_path(w, k, "TensorType::Resource")
            }
            TensorType::Variant => crate::base::write_rust::write_path(w, k, "TensorType::Variant"),
            TensorType::Uint32 => crate::base::write_rust::write_path(w, k, "TensorType::Uint32"),
            TensorType::Uint16 => crate::base::write_rust::write_path(w, k, "TensorType::Uint16"),
            TensorType::Int4 => crate::base::write_rust::write_path(w, k, "TensorType::Int4"),
        }
    }
}

impl TensorType {
    /// The type with schema value `value`, or `None` outside the schema.
    ///
    /// ```
    /// use shapecheck_tflite::TensorType;
    ///
    /// assert_eq!(TensorType::from_schema(9), Some(TensorType::Int8));
    /// assert_eq!(TensorType::from_schema(99), None);
    /// ```
    pub fn from_schema(value: i8) -> Option<Self> {
        Some(match value {
            0 => TensorType::Float32,
            1 => TensorType::Float16,
            2 => TensorType::Int32,
            3 => TensorType::Uint8,
            4 => TensorType::Int64,
            5 => TensorType::String,
            6 => TensorType::Bool,
            7 => TensorType::Int16,
            8 => TensorType::Complex64,
            9 => TensorType::Int8,
            10 => TensorType::Float64,
            11 => TensorType::Complex128,
            12 => TensorType::Uint64,
            13 => TensorType::Resource,
            14 => TensorType::Variant,
            15 => TensorType::Uint32,
            16 => TensorType::Uint16,
            17 => TensorType::Int4,
            _ => return None,
        })
    }

    /// The schema's name, as TFLite prints it.
    ///
    /// ```
    /// use shapecheck_tflite::TensorType;
    ///
    /// assert_eq!(TensorType::Int8.name(), "INT8");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            TensorType::Float32 => "FLOAT32",
            TensorType::Float16 => "FLOAT16",
            TensorType::Int32 => "INT32",
            TensorType::Uint8 => "UINT8",
            TensorType::Int64 => "INT64",
            TensorType::String => "STRING",
            TensorType::Bool => "BOOL",
            TensorType::Int16 => "INT16",
            TensorType::Complex64 => "COMPLEX64",
            TensorType::Int8 => "INT8",
            TensorType::Float64 => "FLOAT64",
            TensorType::Complex128 => "COMPLEX128",
            TensorType::Uint64 => "UINT64",
            TensorType::Resource => "RESOURCE",
            TensorType::Variant => "VARIANT",
            TensorType::Uint32 => "UINT32",
            TensorType::Uint16 => "UINT16",
            TensorType::Int4 => "INT4",
        }
    }

    /// Bits per element in a constant buffer, or `None` for the types of
    /// no fixed size (`STRING`, `RESOURCE`, `VARIANT`), whose buffers the
    /// reader does not size-check.
    ///
    /// ```
    /// use shapecheck_tflite::TensorType;
    ///
    /// assert_eq!(TensorType::Int4.size_bits(), Some(4));
    /// assert_eq!(TensorType::String.size_bits(), None);
    /// ```
    pub fn size_bits(self) -> Option<usize> {
        Some(match self {
            TensorType::Int4 => 4,
            TensorType::Int8 | TensorType::Uint8 | TensorType::Bool => 8,
            TensorType::Int16 | TensorType::Uint16 | TensorType::Float16 => 16,
            TensorType::Int32 | TensorType::Uint32 | TensorType::Float32 => 32,
            TensorType::Int64 | TensorType::Uint64 | TensorType::Float64 => 64,
            TensorType::Complex64 => 64,
            TensorType::Complex128 => 128,
            TensorType::String | TensorType::Resource | TensorType::Variant => return None,
        })
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A builtin operator code (schema.fbs `BuiltinOperator`), as the reader
/// resolves it: `max(builtin_code, deprecated_builtin_code)` of the
/// operator's `OperatorCode`. Every code the schema names is accepted; any
/// other is [`TfliteError::UnknownOpCode`](crate::TfliteError::UnknownOpCode).
/// Compare with the constants (`op == BuiltinOp::FULLY_CONNECTED`, or in a
/// `match`); [`name`](Self::name) gives the schema's name.
///
/// ```
/// use shapecheck_tflite::{BuiltinOp, Model};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let op = model.operator(0).unwrap().op();
/// assert_eq!(op, BuiltinOp::FULLY_CONNECTED);
/// assert_eq!((op.code(), op.name()), (9, "FULLY_CONNECTED"));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinOp(i32);

impl BuiltinOp {
    /// `ADD` (0)
    pub const ADD: BuiltinOp = BuiltinOp(0);
    /// `AVERAGE_POOL_2D` (1)
    pub const AVERAGE_POOL_2D: BuiltinOp = BuiltinOp(1);
    /// `CONCATENATION` (2)
    pub const CONCATENATION: BuiltinOp = BuiltinOp(2);
    /// `CONV_2D` (3)
    pub const CONV_2D: BuiltinOp = BuiltinOp(3);
    /// `DEPTHWISE_CONV_2D` (4)
    pub const DEPTHWISE_CONV_2D: BuiltinOp = BuiltinOp(4);
    /// `DEQUANTIZE` (6)
    pub const DEQUANTIZE: BuiltinOp = BuiltinOp(6);
    /// `FULLY_CONNECTED` (9)
    pub const FULLY_CONNECTED: BuiltinOp = BuiltinOp(9);
    /// `LOGISTIC` (14)
    pub const LOGISTIC: BuiltinOp = BuiltinOp(14);
    /// `MAX_POOL_2D` (17)
    pub const MAX_POOL_2D: BuiltinOp = BuiltinOp(17);
    /// `MUL` (18)
    pub const MUL: BuiltinOp = BuiltinOp(18);
    /// `RELU` (19)
    pub const RELU: BuiltinOp = BuiltinOp(19);
    /// `RELU6` (21)
    pub const RELU6: BuiltinOp = BuiltinOp(21);
    /// `RESHAPE` (22)
    pub const RESHAPE: BuiltinOp = BuiltinOp(22);
    /// `SOFTMAX` (25)
    pub const SOFTMAX: BuiltinOp = BuiltinOp(25);
    /// `TANH` (28)
    pub const TANH: BuiltinOp = BuiltinOp(28);
    /// `CUSTOM` (32): the operator's `custom_code` names it
    pub const CUSTOM: BuiltinOp = BuiltinOp(32);
    /// `PAD` (34)
    pub const PAD: BuiltinOp = BuiltinOp(34);
    /// `MEAN` (40)
    pub const MEAN: BuiltinOp = BuiltinOp(40);
    /// `EXP` (47)
    pub const EXP: BuiltinOp = BuiltinOp(47);
    /// `NEG` (59)
    pub const NEG: BuiltinOp = BuiltinOp(59);
    /// `ELU` (111)
    pub const ELU: BuiltinOp = BuiltinOp(111);
    /// `QUANTIZE` (114)
    pub const QUANTIZE: BuiltinOp = BuiltinOp(114);
    /// `SUB` (41)
    pub const SUB: BuiltinOp = BuiltinOp(41);
    /// `DIV` (42)
    pub const DIV: BuiltinOp = BuiltinOp(42);
    /// `PRELU` (54)
    pub const PRELU: BuiltinOp = BuiltinOp(54);
    /// `MAXIMUM` (55)
    pub const MAXIMUM: BuiltinOp = BuiltinOp(55);
    /// `MINIMUM` (57)
    pub const MINIMUM: BuiltinOp = BuiltinOp(57);
    /// `RSQRT` (76)
    pub const RSQRT: BuiltinOp = BuiltinOp(76);
    /// `LEAKY_RELU` (98)
    pub const LEAKY_RELU: BuiltinOp = BuiltinOp(98);
    /// `SQUARED_DIFFERENCE` (99)
    pub const SQUARED_DIFFERENCE: BuiltinOp = BuiltinOp(99);
    /// `HARD_SWISH` (117)
    pub const HARD_SWISH: BuiltinOp = BuiltinOp(117);

    // the ops that move data
    /// `DEPTH_TO_SPACE` (5)
    pub const DEPTH_TO_SPACE: BuiltinOp = BuiltinOp(5);
    /// `SPACE_TO_DEPTH` (26)
    pub const SPACE_TO_DEPTH: BuiltinOp = BuiltinOp(26);
    /// `GATHER` (36)
    pub const GATHER: BuiltinOp = BuiltinOp(36);
    /// `TRANSPOSE` (39)
    pub const TRANSPOSE: BuiltinOp = BuiltinOp(39);
    /// `STRIDED_SLICE` (45)
    pub const STRIDED_SLICE: BuiltinOp = BuiltinOp(45);
    /// `SPLIT` (49)
    pub const SPLIT: BuiltinOp = BuiltinOp(49);
    /// `PADV2` (60)
    pub const PADV2: BuiltinOp = BuiltinOp(60);
    /// `SLICE` (65)
    pub const SLICE: BuiltinOp = BuiltinOp(65);
    /// `EXPAND_DIMS` (70)
    pub const EXPAND_DIMS: BuiltinOp = BuiltinOp(70);
    /// `PACK` (83)
    pub const PACK: BuiltinOp = BuiltinOp(83);
    /// `UNPACK` (88)
    pub const UNPACK: BuiltinOp = BuiltinOp(88);
    /// `MIRROR_PAD` (100)
    pub const MIRROR_PAD: BuiltinOp = BuiltinOp(100);
    /// `SPLIT_V` (102)
    pub const SPLIT_V: BuiltinOp = BuiltinOp(102);
    /// `L2_NORMALIZATION` (11)
    pub const L2_NORMALIZATION: BuiltinOp = BuiltinOp(11);
    /// `RESIZE_BILINEAR` (23)
    pub const RESIZE_BILINEAR: BuiltinOp = BuiltinOp(23);
    /// `LOG_SOFTMAX` (50)
    pub const LOG_SOFTMAX: BuiltinOp = BuiltinOp(50);
    /// `ARG_MAX` (56)
    pub const ARG_MAX: BuiltinOp = BuiltinOp(56);
    /// `TRANSPOSE_CONV` (67)
    pub const TRANSPOSE_CONV: BuiltinOp = BuiltinOp(67);
    /// `SUM` (74)
    pub const SUM: BuiltinOp = BuiltinOp(74);
    /// `ARG_MIN` (79)
    pub const ARG_MIN: BuiltinOp = BuiltinOp(79);
    /// `REDUCE_MAX` (82)
    pub const REDUCE_MAX: BuiltinOp = BuiltinOp(82);
    /// `REDUCE_MIN` (89)
    pub const REDUCE_MIN: BuiltinOp = BuiltinOp(89);
    /// `RESIZE_NEAREST_NEIGHBOR` (97)
    pub const RESIZE_NEAREST_NEIGHBOR: BuiltinOp = BuiltinOp(97);
    /// `BATCH_MATMUL` (126)
    pub const BATCH_MATMUL: BuiltinOp = BuiltinOp(126);

    /// The operator with schema code `code`, or `None` for a code the
    /// schema does not name.
    ///
    /// ```
    /// use shapecheck_tflite::BuiltinOp;
    ///
    /// assert_eq!(BuiltinOp::from_code(22), Some(BuiltinOp::RESHAPE));
    /// assert_eq!(BuiltinOp::from_code(3).map(|op| op.name()), Some("CONV_2D"));
    /// assert_eq!(BuiltinOp::from_code(-1), None);
    /// assert_eq!(BuiltinOp::from_code(210), None);
    /// ```
    pub fn from_code(code: i32) -> Option<Self> {
        op_name(code).map(|_| BuiltinOp(code))
    }

    /// The schema's code.
    ///
    /// ```
    /// use shapecheck_tflite::BuiltinOp;
    ///
    /// assert_eq!(BuiltinOp::SOFTMAX.code(), 25);
    /// ```
    pub fn code(self) -> i32 {
        self.0
    }

    /// The schema's name (`"DEPTHWISE_CONV_2D"`).
    ///
    /// ```
    /// use shapecheck_tflite::BuiltinOp;
    ///
    /// assert_eq!(BuiltinOp::DEPTHWISE_CONV_2D.name(), "DEPTHWISE_CONV_2D");
    /// ```
    pub fn name(self) -> &'static str {
        op_name(self.0).unwrap_or("UNKNOWN")
    }
}

impl fmt::Display for BuiltinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The schema's name of builtin operator `code`, or `None` if it names none.
fn op_name(code: i32) -> Option<&'static str> {
    if code == 225 {
        return Some("TEMP_STREAMING_CONV_2D");
    }
    OP_NAMES.get(usize::try_from(code).ok()?).copied()
}

/// schema.fbs `BuiltinOperator`, codes 0 to 205 in order (then a gap to
/// 225, `TEMP_STREAMING_CONV_2D`, handled in `op_name`).
const OP_NAMES: [&str; 206] = [
    "ADD",
    "AVERAGE_POOL_2D",
    "CONCATENATION",
    "CONV_2D",
    "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE",
    "DEQUANTIZE",
    "EMBEDDING_LOOKUP",
    "FLOOR",
    "FULLY_CONNECTED",
    "HASHTABLE_LOOKUP", // 10
    "L2_NORMALIZATION",
    "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION",
    "LOGISTIC",
    "LSH_PROJECTION",
    "LSTM",
    "MAX_POOL_2D",
    "MUL",
    "RELU",
    "RELU_N1_TO_1", // 20
    "RELU6",
    "RESHAPE",
    "RESIZE_BILINEAR",
    "RNN",
    "SOFTMAX",
    "SPACE_TO_DEPTH",
    "SVDF",
    "TANH",
    "CONCAT_EMBEDDINGS",
    "SKIP_GRAM", // 30
    "CALL",
    "CUSTOM",
    "EMBEDDING_LOOKUP_SPARSE",
    "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN",
    "GATHER",
    "BATCH_TO_SPACE_ND",
    "SPACE_TO_BATCH_ND",
    "TRANSPOSE",
    "MEAN", // 40
    "SUB",
    "DIV",
    "SQUEEZE",
    "UNIDIRECTIONAL_SEQUENCE_LSTM",
    "STRIDED_SLICE",
    "BIDIRECTIONAL_SEQUENCE_RNN",
    "EXP",
    "TOPK_V2",
    "SPLIT",
    "LOG_SOFTMAX", // 50
    "DELEGATE",
    "BIDIRECTIONAL_SEQUENCE_LSTM",
    "CAST",
    "PRELU",
    "MAXIMUM",
    "ARG_MAX",
    "MINIMUM",
    "LESS",
    "NEG",
    "PADV2", // 60
    "GREATER",
    "GREATER_EQUAL",
    "LESS_EQUAL",
    "SELECT",
    "SLICE",
    "SIN",
    "TRANSPOSE_CONV",
    "SPARSE_TO_DENSE",
    "TILE",
    "EXPAND_DIMS", // 70
    "EQUAL",
    "NOT_EQUAL",
    "LOG",
    "SUM",
    "SQRT",
    "RSQRT",
    "SHAPE",
    "POW",
    "ARG_MIN",
    "FAKE_QUANT", // 80
    "REDUCE_PROD",
    "REDUCE_MAX",
    "PACK",
    "LOGICAL_OR",
    "ONE_HOT",
    "LOGICAL_AND",
    "LOGICAL_NOT",
    "UNPACK",
    "REDUCE_MIN",
    "FLOOR_DIV", // 90
    "REDUCE_ANY",
    "SQUARE",
    "ZEROS_LIKE",
    "FILL",
    "FLOOR_MOD",
    "RANGE",
    "RESIZE_NEAREST_NEIGHBOR",
    "LEAKY_RELU",
    "SQUARED_DIFFERENCE",
    "MIRROR_PAD", // 100
    "ABS",
    "SPLIT_V",
    "UNIQUE",
    "CEIL",
    "REVERSE_V2",
    "ADD_N",
    "GATHER_ND",
    "COS",
    "WHERE",
    "RANK", // 110
    "ELU",
    "REVERSE_SEQUENCE",
    "MATRIX_DIAG",
    "QUANTIZE",
    "MATRIX_SET_DIAG",
    "ROUND",
    "HARD_SWISH",
    "IF",
    "WHILE",
    "NON_MAX_SUPPRESSION_V4", // 120
    "NON_MAX_SUPPRESSION_V5",
    "SCATTER_ND",
    "SELECT_V2",
    "DENSIFY",
    "SEGMENT_SUM",
    "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES",
    "CUMSUM",
    "CALL_ONCE",
    "BROADCAST_TO", // 130
    "RFFT2D",
    "CONV_3D",
    "IMAG",
    "REAL",
    "COMPLEX_ABS",
    "HASHTABLE",
    "HASHTABLE_FIND",
    "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE",
    "REDUCE_ALL", // 140
    "CONV_3D_TRANSPOSE",
    "VAR_HANDLE",
    "READ_VARIABLE",
    "ASSIGN_VARIABLE",
    "BROADCAST_ARGS",
    "RANDOM_STANDARD_NORMAL",
    "BUCKETIZE",
    "RANDOM_UNIFORM",
    "MULTINOMIAL",
    "GELU", // 150
    "DYNAMIC_UPDATE_SLICE",
    "RELU_0_TO_1",
    "UNSORTED_SEGMENT_PROD",
    "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_SUM",
    "ATAN2",
    "UNSORTED_SEGMENT_MIN",
    "SIGN",
    "BITCAST",
    "BITWISE_XOR", // 160
    "RIGHT_SHIFT",
    "STABLEHLO_LOGISTIC",
    "STABLEHLO_ADD",
    "STABLEHLO_DIVIDE",
    "STABLEHLO_MULTIPLY",
    "STABLEHLO_MAXIMUM",
    "STABLEHLO_RESHAPE",
    "STABLEHLO_CLAMP",
    "STABLEHLO_CONCATENATE",
    "STABLEHLO_BROADCAST_IN_DIM", // 170
    "STABLEHLO_CONVOLUTION",
    "STABLEHLO_SLICE",
    "STABLEHLO_CUSTOM_CALL",
    "STABLEHLO_REDUCE",
    "STABLEHLO_ABS",
    "STABLEHLO_AND",
    "STABLEHLO_COSINE",
    "STABLEHLO_EXPONENTIAL",
    "STABLEHLO_FLOOR",
    "STABLEHLO_LOG", // 180
    "STABLEHLO_MINIMUM",
    "STABLEHLO_NEGATE",
    "STABLEHLO_OR",
    "STABLEHLO_POWER",
    "STABLEHLO_REMAINDER",
    "STABLEHLO_RSQRT",
    "STABLEHLO_SELECT",
    "STABLEHLO_SUBTRACT",
    "STABLEHLO_TANH",
    "STABLEHLO_SCATTER", // 190
    "STABLEHLO_COMPARE",
    "STABLEHLO_CONVERT",
    "STABLEHLO_DYNAMIC_SLICE",
    "STABLEHLO_DYNAMIC_UPDATE_SLICE",
    "STABLEHLO_PAD",
    "STABLEHLO_IOTA",
    "STABLEHLO_DOT_GENERAL",
    "STABLEHLO_REDUCE_WINDOW",
    "STABLEHLO_SORT",
    "STABLEHLO_WHILE", // 200
    "STABLEHLO_GATHER",
    "STABLEHLO_TRANSPOSE",
    "DILATE",
    "STABLEHLO_RNG_BIT_GENERATOR",
    "REDUCE_WINDOW",
];

/// A fused activation (schema.fbs `ActivationFunctionType`).
///
/// ```
/// use shapecheck_tflite::{Activation, Model, Options};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let Options::FullyConnected(fc) = model.operator(0).unwrap().options() else { panic!() };
/// assert_eq!(fc.fused_activation, Activation::Relu);
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Activation {
    /// `NONE` (0)
    None,
    /// `RELU` (1)
    Relu,
    /// `RELU_N1_TO_1` (2)
    ReluN1To1,
    /// `RELU6` (3)
    Relu6,
    /// `TANH` (4)
    Tanh,
    /// `SIGN_BIT` (5)
    SignBit,
}

impl Activation {
    /// The schema's name.
    ///
    /// ```
    /// use shapecheck_tflite::Activation;
    ///
    /// assert_eq!(Activation::Tanh.name(), "TANH");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Activation::None => "NONE",
            Activation::Relu => "RELU",
            Activation::ReluN1To1 => "RELU_N1_TO_1",
            Activation::Relu6 => "RELU6",
            Activation::Tanh => "TANH",
            Activation::SignBit => "SIGN_BIT",
        }
    }

    /// The activation with schema value `value`, or `None` outside the schema.
    ///
    /// ```
    /// use shapecheck_tflite::Activation;
    ///
    /// assert_eq!(Activation::from_schema(3), Some(Activation::Relu6));
    /// assert_eq!(Activation::from_schema(6), None);
    /// ```
    pub fn from_schema(value: i8) -> Option<Self> {
        Some(match value {
            0 => Activation::None,
            1 => Activation::Relu,
            2 => Activation::ReluN1To1,
            3 => Activation::Relu6,
            4 => Activation::Tanh,
            5 => Activation::SignBit,
            _ => return None,
        })
    }
}

/// Convolution padding (schema.fbs `Padding`).
///
/// ```
/// use shapecheck_tflite::Padding;
///
/// assert_eq!(Padding::from_schema(0), Some(Padding::Same));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Padding {
    /// `SAME` (0): the output has ceil(input / stride) positions
    Same,
    /// `VALID` (1): no padding
    Valid,
}

impl Padding {
    /// The padding with schema value `value`, or `None` outside the schema.
    ///
    /// ```
    /// use shapecheck_tflite::Padding;
    ///
    /// assert_eq!(Padding::from_schema(1), Some(Padding::Valid));
    /// assert_eq!(Padding::from_schema(2), None);
    /// ```
    pub fn from_schema(value: i8) -> Option<Self> {
        match value {
            0 => Some(Padding::Same),
            1 => Some(Padding::Valid),
            _ => None,
        }
    }
}

/// The weights' layout of a fully connected operator (schema.fbs
/// `FullyConnectedOptionsWeightsFormat`).
///
/// ```
/// use shapecheck_tflite::WeightsFormat;
///
/// assert_eq!(WeightsFormat::from_schema(0), Some(WeightsFormat::Default));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightsFormat {
    /// `DEFAULT` (0): `[out, in]`, row-major
    Default,
    /// `SHUFFLED4x16INT8` (1)
    Shuffled4x16Int8,
}

impl WeightsFormat {
    /// The schema's name.
    ///
    /// ```
    /// use shapecheck_tflite::WeightsFormat;
    ///
    /// assert_eq!(WeightsFormat::Shuffled4x16Int8.name(), "SHUFFLED4x16INT8");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            WeightsFormat::Default => "DEFAULT",
            WeightsFormat::Shuffled4x16Int8 => "SHUFFLED4x16INT8",
        }
    }

    /// The format with schema value `value`, or `None` outside the schema.
    ///
    /// ```
    /// use shapecheck_tflite::WeightsFormat;
    ///
    /// assert_eq!(WeightsFormat::from_schema(1), Some(WeightsFormat::Shuffled4x16Int8));
    /// assert_eq!(WeightsFormat::from_schema(2), None);
    /// ```
    pub fn from_schema(value: i8) -> Option<Self> {
        match value {
            0 => Some(WeightsFormat::Default),
            1 => Some(WeightsFormat::Shuffled4x16Int8),
            _ => None,
        }
    }
}
