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

/// Each of schema.fbs' `BuiltinOperator` codes once, as the constant of its
/// name and the name of its code: codes 0 to 205 in order, then
/// `TEMP_STREAMING_CONV_2D` (225) after the schema's gap.
macro_rules! op_codes {
    ($($name:ident = $code:literal),+ $(,)?) => {
        impl BuiltinOp {
            $(
                #[doc = concat!("`", stringify!($name), "` (", stringify!($code), ")")]
                pub const $name: BuiltinOp = BuiltinOp($code);
            )+
        }

        /// The schema's name of builtin operator `code`, or `None` if it
        /// names none.
        fn op_name(code: i32) -> Option<&'static str> {
            match code {
                $($code => Some(stringify!($name)),)+
                _ => None,
            }
        }
    };
}

op_codes! {
    ADD = 0,
    AVERAGE_POOL_2D = 1,
    CONCATENATION = 2,
    CONV_2D = 3,
    DEPTHWISE_CONV_2D = 4,
    DEPTH_TO_SPACE = 5,
    DEQUANTIZE = 6,
    EMBEDDING_LOOKUP = 7,
    FLOOR = 8,
    FULLY_CONNECTED = 9,
    HASHTABLE_LOOKUP = 10,
    L2_NORMALIZATION = 11,
    L2_POOL_2D = 12,
    LOCAL_RESPONSE_NORMALIZATION = 13,
    LOGISTIC = 14,
    LSH_PROJECTION = 15,
    LSTM = 16,
    MAX_POOL_2D = 17,
    MUL = 18,
    RELU = 19,
    RELU_N1_TO_1 = 20,
    RELU6 = 21,
    RESHAPE = 22,
    RESIZE_BILINEAR = 23,
    RNN = 24,
    SOFTMAX = 25,
    SPACE_TO_DEPTH = 26,
    SVDF = 27,
    TANH = 28,
    CONCAT_EMBEDDINGS = 29,
    SKIP_GRAM = 30,
    CALL = 31,
    CUSTOM = 32,
    EMBEDDING_LOOKUP_SPARSE = 33,
    PAD = 34,
    UNIDIRECTIONAL_SEQUENCE_RNN = 35,
    GATHER = 36,
    BATCH_TO_SPACE_ND = 37,
    SPACE_TO_BATCH_ND = 38,
    TRANSPOSE = 39,
    MEAN = 40,
    SUB = 41,
    DIV = 42,
    SQUEEZE = 43,
    UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
    STRIDED_SLICE = 45,
    BIDIRECTIONAL_SEQUENCE_RNN = 46,
    EXP = 47,
    TOPK_V2 = 48,
    SPLIT = 49,
    LOG_SOFTMAX = 50,
    DELEGATE = 51,
    BIDIRECTIONAL_SEQUENCE_LSTM = 52,
    CAST = 53,
    PRELU = 54,
    MAXIMUM = 55,
    ARG_MAX = 56,
    MINIMUM = 57,
    LESS = 58,
    NEG = 59,
    PADV2 = 60,
    GREATER = 61,
    GREATER_EQUAL = 62,
    LESS_EQUAL = 63,
    SELECT = 64,
    SLICE = 65,
    SIN = 66,
    TRANSPOSE_CONV = 67,
    SPARSE_TO_DENSE = 68,
    TILE = 69,
    EXPAND_DIMS = 70,
    EQUAL = 71,
    NOT_EQUAL = 72,
    LOG = 73,
    SUM = 74,
    SQRT = 75,
    RSQRT = 76,
    SHAPE = 77,
    POW = 78,
    ARG_MIN = 79,
    FAKE_QUANT = 80,
    REDUCE_PROD = 81,
    REDUCE_MAX = 82,
    PACK = 83,
    LOGICAL_OR = 84,
    ONE_HOT = 85,
    LOGICAL_AND = 86,
    LOGICAL_NOT = 87,
    UNPACK = 88,
    REDUCE_MIN = 89,
    FLOOR_DIV = 90,
    REDUCE_ANY = 91,
    SQUARE = 92,
    ZEROS_LIKE = 93,
    FILL = 94,
    FLOOR_MOD = 95,
    RANGE = 96,
    RESIZE_NEAREST_NEIGHBOR = 97,
    LEAKY_RELU = 98,
    SQUARED_DIFFERENCE = 99,
    MIRROR_PAD = 100,
    ABS = 101,
    SPLIT_V = 102,
    UNIQUE = 103,
    CEIL = 104,
    REVERSE_V2 = 105,
    ADD_N = 106,
    GATHER_ND = 107,
    COS = 108,
    WHERE = 109,
    RANK = 110,
    ELU = 111,
    REVERSE_SEQUENCE = 112,
    MATRIX_DIAG = 113,
    QUANTIZE = 114,
    MATRIX_SET_DIAG = 115,
    ROUND = 116,
    HARD_SWISH = 117,
    IF = 118,
    WHILE = 119,
    NON_MAX_SUPPRESSION_V4 = 120,
    NON_MAX_SUPPRESSION_V5 = 121,
    SCATTER_ND = 122,
    SELECT_V2 = 123,
    DENSIFY = 124,
    SEGMENT_SUM = 125,
    BATCH_MATMUL = 126,
    PLACEHOLDER_FOR_GREATER_OP_CODES = 127,
    CUMSUM = 128,
    CALL_ONCE = 129,
    BROADCAST_TO = 130,
    RFFT2D = 131,
    CONV_3D = 132,
    IMAG = 133,
    REAL = 134,
    COMPLEX_ABS = 135,
    HASHTABLE = 136,
    HASHTABLE_FIND = 137,
    HASHTABLE_IMPORT = 138,
    HASHTABLE_SIZE = 139,
    REDUCE_ALL = 140,
    CONV_3D_TRANSPOSE = 141,
    VAR_HANDLE = 142,
    READ_VARIABLE = 143,
    ASSIGN_VARIABLE = 144,
    BROADCAST_ARGS = 145,
    RANDOM_STANDARD_NORMAL = 146,
    BUCKETIZE = 147,
    RANDOM_UNIFORM = 148,
    MULTINOMIAL = 149,
    GELU = 150,
    DYNAMIC_UPDATE_SLICE = 151,
    RELU_0_TO_1 = 152,
    UNSORTED_SEGMENT_PROD = 153,
    UNSORTED_SEGMENT_MAX = 154,
    UNSORTED_SEGMENT_SUM = 155,
    ATAN2 = 156,
    UNSORTED_SEGMENT_MIN = 157,
    SIGN = 158,
    BITCAST = 159,
    BITWISE_XOR = 160,
    RIGHT_SHIFT = 161,
    STABLEHLO_LOGISTIC = 162,
    STABLEHLO_ADD = 163,
    STABLEHLO_DIVIDE = 164,
    STABLEHLO_MULTIPLY = 165,
    STABLEHLO_MAXIMUM = 166,
    STABLEHLO_RESHAPE = 167,
    STABLEHLO_CLAMP = 168,
    STABLEHLO_CONCATENATE = 169,
    STABLEHLO_BROADCAST_IN_DIM = 170,
    STABLEHLO_CONVOLUTION = 171,
    STABLEHLO_SLICE = 172,
    STABLEHLO_CUSTOM_CALL = 173,
    STABLEHLO_REDUCE = 174,
    STABLEHLO_ABS = 175,
    STABLEHLO_AND = 176,
    STABLEHLO_COSINE = 177,
    STABLEHLO_EXPONENTIAL = 178,
    STABLEHLO_FLOOR = 179,
    STABLEHLO_LOG = 180,
    STABLEHLO_MINIMUM = 181,
    STABLEHLO_NEGATE = 182,
    STABLEHLO_OR = 183,
    STABLEHLO_POWER = 184,
    STABLEHLO_REMAINDER = 185,
    STABLEHLO_RSQRT = 186,
    STABLEHLO_SELECT = 187,
    STABLEHLO_SUBTRACT = 188,
    STABLEHLO_TANH = 189,
    STABLEHLO_SCATTER = 190,
    STABLEHLO_COMPARE = 191,
    STABLEHLO_CONVERT = 192,
    STABLEHLO_DYNAMIC_SLICE = 193,
    STABLEHLO_DYNAMIC_UPDATE_SLICE = 194,
    STABLEHLO_PAD = 195,
    STABLEHLO_IOTA = 196,
    STABLEHLO_DOT_GENERAL = 197,
    STABLEHLO_REDUCE_WINDOW = 198,
    STABLEHLO_SORT = 199,
    STABLEHLO_WHILE = 200,
    STABLEHLO_GATHER = 201,
    STABLEHLO_TRANSPOSE = 202,
    DILATE = 203,
    STABLEHLO_RNG_BIT_GENERATOR = 204,
    REDUCE_WINDOW = 205,
    TEMP_STREAMING_CONV_2D = 225,
}

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
