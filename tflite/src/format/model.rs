//! [`Model`]: a `.tflite` file read in place, subgraph 0's tensors and
//! operators checked once by [`Model::parse`] and then read without errors.

use crate::format::array::{Array, LeNumber};
use crate::format::error::{Name, Place, TfliteError};
use crate::format::flatbuffer::{bytes_at, u32_at, Fault, Table, Vector};
use crate::format::types::{BuiltinOp, TensorType};

/// A `.tflite` model, read in place from its bytes (a FlatBuffer of
/// TFLite's schema.fbs): subgraph 0's tensors, operators, inputs and
/// outputs, and the operator codes and buffers they use.
///
/// [`parse`](Self::parse) checks everything the accessors read: every
/// offset, length and index, every tensor's type, shape, buffer size and
/// quantization, every operator's code, tensor indices and options. After
/// it succeeds nothing can fail: [`tensor`](Self::tensor) and
/// [`operator`](Self::operator) return `None` only for an index past the
/// end. Other subgraphs (control flow) are counted but not read.
///
/// ```
/// use shapecheck_tflite::{BuiltinOp, Model, TensorType};
///
/// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite"));
/// let model = Model::parse(bytes)?;
/// assert_eq!(model.operator_count(), 3);
/// for op in model.operators() {
///     assert_eq!(op.op(), BuiltinOp::FULLY_CONNECTED);
/// }
/// let input = model.input(0).unwrap();
/// assert_eq!((input.dtype(), input.shape().iter().collect::<Vec<_>>()), (TensorType::Int8, vec![1, 1]));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Model<'a> {
    bytes: &'a [u8],
    version: u32,
    description: &'a str,
    opcodes: Vector<'a>,
    buffers: Vector<'a>,
    subgraph_count: usize,
    subgraph_name: &'a str,
    tensors: Vector<'a>,
    operators: Vector<'a>,
    inputs: Array<'a, i32>,
    outputs: Array<'a, i32>,
}

/// A tensor of subgraph 0: its name, shape, type, constant data (empty for
/// an activation) and quantization, all checked against each other.
///
/// ```
/// use shapecheck_tflite::{Model, TensorType};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
/// let bias = model.tensor(5).unwrap();
/// assert_eq!(bias.dtype(), TensorType::Int32);
/// assert_eq!(bias.elements(), 16);
/// assert_eq!(bias.data().len(), 64);
/// let q = bias.quantization().unwrap();
/// assert_eq!((q.scales().len(), q.zero_points().get(0)), (1, Some(0)));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ModelTensor<'a> {
    index: usize,
    name: &'a str,
    shape: Array<'a, i32>,
    shape_signature: Array<'a, i32>,
    dtype: TensorType,
    buffer_index: usize,
    data: &'a [u8],
    elements: usize,
    quantization: Option<Quantization<'a>>,
    is_variable: bool,
    is_sparse: bool,
}

/// A tensor's affine quantization: real = scale · (q − zero_point), with one
/// scale and zero point for the whole tensor, or one per slice along
/// [`quantized_dimension`](Self::quantized_dimension) (per-channel).
///
/// ```
/// use shapecheck_tflite::Model;
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let filter = model.tensor(8).unwrap().quantization().unwrap();
/// assert!(filter.is_per_channel());
/// assert_eq!((filter.quantized_dimension(), filter.scales().len()), (3, 8));
/// assert_eq!(filter.zero_point(7), Some(0));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Quantization<'a> {
    scales: Array<'a, f32>,
    zero_points: Array<'a, i64>,
    quantized_dimension: usize,
}

/// An operator of subgraph 0: its builtin op (read as
/// `max(builtin_code, deprecated_builtin_code)`), its input and output
/// tensor indices, and its options.
///
/// ```
/// use shapecheck_tflite::{BuiltinOp, Model, Options, Padding};
///
/// let model = Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
/// let conv = model.operator(1).unwrap();
/// assert_eq!(conv.op(), BuiltinOp::DEPTHWISE_CONV_2D);
/// assert_eq!((conv.input(0), conv.input(1), conv.input(2), conv.output(0)), (Some(4), Some(8), Some(0), Some(2)));
/// let Options::DepthwiseConv2d(o) = conv.options() else { panic!() };
/// assert_eq!((o.padding, o.stride_h, o.stride_w, o.depth_multiplier), (Padding::Same, 2, 2, 8));
/// # Ok::<(), shapecheck_tflite::TfliteError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Operator<'a> {
    index: usize,
    op: BuiltinOp,
    version: i32,
    custom_code: Option<&'a str>,
    opcode_index: usize,
    inputs: Array<'a, i32>,
    outputs: Array<'a, i32>,
    raw_options: OptionsReader<'a>,
}

/// One entry of `Model.operator_codes`, resolved.
struct OpCode<'a> {
    op: BuiltinOp,
    version: i32,
    custom_code: Option<&'a str>,
}

/// `Array::new` on a vector read as 4- or 8-byte elements: its byte length
/// is a whole number of them by construction.
pub(crate) fn array<'a, T: LeNumber>(v: Vector<'a>) -> Array<'a, T> {
    Array::new(v.bytes()).unwrap_or_else(Array::empty)
}

impl<'a> Model<'a> {
    /// Reads and checks a `.tflite` file in place, as [`Model::parse`]
    /// does, with `check_options` deciding each operator's options table
    /// (the registry's decoders: this layer does not know the ops).
    pub(crate) fn parse_with(
        bytes: &'a [u8],
        check_options: fn(&Operator<'a>) -> Result<(), TfliteError>,
    ) -> Result<Self, TfliteError> {
        let len = bytes.len();
        let identifier = bytes_at(bytes, 4, 4).ok();
        if identifier != Some(b"TFL3".as_slice()) {
            let mut id = [0u8; 4];
            for (d, s) in id.iter_mut().zip(bytes.iter().skip(4)) {
                *d = *s;
            }
            return Err(TfliteError::NotAModel {
                len,
                identifier: id,
            });
        }
        let at = |what: &'static str| {
            move |f: Fault| TfliteError::from_fault(f, Place::Model, what, len)
        };
        let root_pos = u32_at(bytes, 0).map_err(at("root offset"))?;
        let root = Table::at(bytes, usize::try_from(root_pos).unwrap_or(usize::MAX))
            .map_err(at("root"))?;
        let version = root.u32(0, 0).map_err(at("version"))?;
        let opcodes = root.vector(1, 4).map_err(at("operator codes"))?;
        let subgraphs = root.vector(2, 4).map_err(at("subgraphs"))?;
        let description = root.string(3).map_err(at("description"))?.unwrap_or("");
        let buffers = root.vector(4, 4).map_err(at("buffers"))?;
        if subgraphs.len() == 0 {
            return Err(TfliteError::NoSubgraph);
        }
        let at = |what: &'static str| {
            move |f: Fault| TfliteError::from_fault(f, Place::Subgraph, what, len)
        };
        let sg = subgraphs.table(0).map_err(at("table"))?;
        let tensors = sg.vector(0, 4).map_err(at("tensors"))?;
        let inputs = sg.vector(1, 4).map_err(at("inputs"))?;
        let outputs = sg.vector(2, 4).map_err(at("outputs"))?;
        let operators = sg.vector(3, 4).map_err(at("operators"))?;
        let subgraph_name = sg.string(4).map_err(at("name"))?.unwrap_or("");
        let model = Model {
            bytes,
            version,
            description,
            opcodes,
            buffers,
            subgraph_count: subgraphs.len(),
            subgraph_name,
            tensors,
            operators,
            inputs: array(inputs),
            outputs: array(outputs),
        };
        for i in 0..opcodes.len() {
            model.read_opcode(i)?;
        }
        for i in 0..tensors.len() {
            model.read_tensor(i)?;
        }
        for i in 0..operators.len() {
            check_options(&model.read_operator(i)?)?;
        }
        for (what, list) in [
            ("input tensor", model.inputs),
            ("output tensor", model.outputs),
        ] {
            model.check_indices(Place::Subgraph, what, list, false)?;
        }
        Ok(model)
    }

    /// The schema version the file declares (3 for current files).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.version(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The model's description (the converter's, e.g. `"MLIR Converted."`),
    /// empty if absent.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.description(), "TOCO Converted.");
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn description(&self) -> &'a str {
        self.description
    }

    /// The model's bytes.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.as_bytes().len(), 2680);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// How many subgraphs the file has (only subgraph 0 is read).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.subgraph_count(), 1);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn subgraph_count(&self) -> usize {
        self.subgraph_count
    }

    /// Subgraph 0's name, empty if absent.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.subgraph_name(), "main");
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn subgraph_name(&self) -> &'a str {
        self.subgraph_name
    }

    /// How many entries `Model.buffers` has.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.buffer_count() >= 7);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn buffer_count(&self) -> usize {
        self.buffers.len()
    }

    /// How many entries `Model.operator_codes` has.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.operator_code_count(), 4);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn operator_code_count(&self) -> usize {
        self.opcodes.len()
    }

    /// How many tensors subgraph 0 has.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.tensor_count(), 10);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn tensor_count(&self) -> usize {
        self.tensors.len()
    }

    /// ModelTensor `index` of subgraph 0, or `None` past the end.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.tensor(8).unwrap().shape().iter().collect::<Vec<_>>(), [1, 10, 8, 8]);
    /// assert!(model.tensor(10).is_none());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn tensor(&self, index: usize) -> Option<ModelTensor<'a>> {
        // checked by `parse`: an error here is only an index past the end
        self.read_tensor(index).ok()
    }

    /// Subgraph 0's tensors, in index order.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let constants = model.tensors().filter(|t| !t.data().is_empty()).count();
    /// assert_eq!(constants, 6); // three weights, three biases
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn tensors(&self) -> impl Iterator<Item = ModelTensor<'a>> + 'a {
        let model = *self;
        (0..self.tensor_count()).filter_map(move |i| model.tensor(i))
    }

    /// How many operators subgraph 0 has.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.operator_count(), 4);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn operator_count(&self) -> usize {
        self.operators.len()
    }

    /// Operator `index` of subgraph 0 (in execution order), or `None` past
    /// the end.
    ///
    /// ```
    /// use shapecheck_tflite::BuiltinOp;
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.operator(3).unwrap().op(), BuiltinOp::SOFTMAX);
    /// assert!(model.operator(4).is_none());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn operator(&self, index: usize) -> Option<Operator<'a>> {
        self.read_operator(index).ok()
    }

    /// Subgraph 0's operators, in execution order.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let names: Vec<_> = model.operators().map(|o| o.op().name()).collect();
    /// assert_eq!(names, ["RESHAPE", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "SOFTMAX"]);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn operators(&self) -> impl Iterator<Item = Operator<'a>> + 'a {
        let model = *self;
        (0..self.operator_count()).filter_map(move |i| model.operator(i))
    }

    /// Subgraph 0's input tensor indices (each checked to be a tensor).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert!(model.inputs().eq_slice(&[3]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn inputs(&self) -> Array<'a, i32> {
        self.inputs
    }

    /// Subgraph 0's output tensor indices (each checked to be a tensor).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert!(model.outputs().eq_slice(&[9]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn outputs(&self) -> Array<'a, i32> {
        self.outputs
    }

    /// The tensor of subgraph input `k`, or `None` past the end.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.input(0).unwrap().elements(), 1960);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn input(&self, k: usize) -> Option<ModelTensor<'a>> {
        self.tensor(usize::try_from(self.inputs.get(k)?).ok()?)
    }

    /// The tensor of subgraph output `k`, or `None` past the end.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.output(0).unwrap().elements(), 4);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn output(&self, k: usize) -> Option<ModelTensor<'a>> {
        self.tensor(usize::try_from(self.outputs.get(k)?).ok()?)
    }

    /// Checks that every index of `list` is a tensor (or -1, an absent
    /// optional input, where `optional`).
    fn check_indices(
        &self,
        place: Place,
        what: &'static str,
        list: Array<'a, i32>,
        optional: bool,
    ) -> Result<(), TfliteError> {
        let count = self.tensor_count();
        for index in list {
            let ok = match usize::try_from(index) {
                Ok(i) => i < count,
                Err(_) => optional && index == -1,
            };
            if !ok {
                return Err(TfliteError::IndexOutOfRange {
                    place,
                    what,
                    index: i64::from(index),
                    count,
                });
            }
        }
        Ok(())
    }

    fn read_opcode(&self, index: usize) -> Result<OpCode<'a>, TfliteError> {
        let place = Place::OperatorCode { index };
        let len = self.bytes.len();
        let at = |what: &'static str| move |f: Fault| TfliteError::from_fault(f, place, what, len);
        let t = self.opcodes.table(index).map_err(at("table"))?;
        let deprecated_builtin_code = t.i8(0, 0).map_err(at("deprecated_builtin_code"))?;
        let custom_code = t.string(1).map_err(at("custom_code"))?;
        let version = t.i32(2, 1).map_err(at("version"))?;
        let builtin_code = t.i32(3, 0).map_err(at("builtin_code"))?;
        // schema.fbs: old files keep the op in the byte-wide deprecated
        // field (builtin_code then 0, ADD); new files put codes of 127 and
        // up in builtin_code alone. The larger of the two is the op.
        let code = builtin_code.max(i32::from(deprecated_builtin_code));
        let op = BuiltinOp::from_code(code).ok_or(TfliteError::UnknownOpCode {
            place,
            builtin_code,
            deprecated_builtin_code,
        })?;
        Ok(OpCode {
            op,
            version,
            custom_code,
        })
    }

    fn read_tensor(&self, index: usize) -> Result<ModelTensor<'a>, TfliteError> {
        let len = self.bytes.len();
        let mut place = Place::ModelTensor {
            index,
            name: Name::new(""),
        };
        let t = self
            .tensors
            .table(index)
            .map_err(|f| TfliteError::from_fault(f, place, "table", len))?;
        let name = t
            .string(3)
            .map_err(|f| TfliteError::from_fault(f, place, "name", len))?
            .unwrap_or("");
        place = Place::ModelTensor {
            index,
            name: Name::new(name),
        };
        let at = |what: &'static str| move |f: Fault| TfliteError::from_fault(f, place, what, len);
        let shape: Array<'a, i32> = array(t.vector(0, 4).map_err(at("shape"))?);
        let dtype_value = t.i8(1, 0).map_err(at("type"))?;
        let dtype = TensorType::from_schema(dtype_value).ok_or(TfliteError::UnknownDtype {
            place,
            value: dtype_value,
        })?;
        let buffer = t.u32(2, 0).map_err(at("buffer index"))?;
        let buffer_index = usize::try_from(buffer)
            .ok()
            .filter(|b| *b < self.buffers.len())
            .ok_or(TfliteError::IndexOutOfRange {
                place,
                what: "buffer",
                index: i64::from(buffer),
                count: self.buffers.len(),
            })?;
        let b = self
            .buffers
            .table(buffer_index)
            .map_err(at("buffer table"))?;
        let inline = b.vector(0, 1).map_err(at("buffer data"))?;
        // files over 2 GB keep the data outside the FlatBuffer, at an
        // offset from the file's start (valid when above 1)
        let offset = b.u64(1, 0).map_err(at("buffer offset"))?;
        let size = b.u64(2, 0).map_err(at("buffer size"))?;
        let data = if offset > 1 {
            let start = usize::try_from(offset).unwrap_or(usize::MAX);
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            bytes_at(self.bytes, start, size).map_err(at("external buffer data"))?
        } else {
            inline.bytes()
        };
        let quantization = match t.table(4).map_err(at("quantization"))? {
            Some(q) => Quantization::read(q, place, len, shape)?,
            None => None,
        };
        let is_variable = t.bool(5).map_err(at("is_variable"))?;
        let is_sparse = t.table(6).map_err(at("sparsity"))?.is_some();
        let shape_signature = array(t.vector(7, 4).map_err(at("shape_signature"))?);

        let mut elements: usize = 1;
        for (axis, dim) in shape.iter().enumerate() {
            let d =
                usize::try_from(dim).map_err(|_| TfliteError::NegativeDim { place, axis, dim })?;
            elements = elements
                .checked_mul(d)
                .ok_or(TfliteError::TooManyElements { place })?;
        }
        // a sparse tensor's buffer holds its non-zero values only
        if let (false, false, Some(bits)) = (data.is_empty(), is_sparse, dtype.size_bits()) {
            let expected = elements
                .checked_mul(bits)
                .map(|b| b / 8 + usize::from(b % 8 != 0))
                .ok_or(TfliteError::TooManyElements { place })?;
            if expected != data.len() {
                return Err(TfliteError::BufferSize {
                    place,
                    dtype,
                    elements,
                    expected,
                    actual: data.len(),
                });
            }
        }
        Ok(ModelTensor {
            index,
            name,
            shape,
            shape_signature,
            dtype,
            buffer_index,
            data,
            elements,
            quantization,
            is_variable,
            is_sparse,
        })
    }

    fn read_operator(&self, index: usize) -> Result<Operator<'a>, TfliteError> {
        let len = self.bytes.len();
        let mut place = Place::Operator { index, op: None };
        let t = self
            .operators
            .table(index)
            .map_err(|f| TfliteError::from_fault(f, place, "table", len))?;
        let opcode = t
            .u32(0, 0)
            .map_err(|f| TfliteError::from_fault(f, place, "opcode_index", len))?;
        let opcode_index = usize::try_from(opcode)
            .ok()
            .filter(|i| *i < self.opcodes.len())
            .ok_or(TfliteError::IndexOutOfRange {
                place,
                what: "operator code",
                index: i64::from(opcode),
                count: self.opcodes.len(),
            })?;
        let code = self.read_opcode(opcode_index)?;
        place = Place::Operator {
            index,
            op: Some(code.op),
        };
        let at = |what: &'static str| move |f: Fault| TfliteError::from_fault(f, place, what, len);
        let inputs = array(t.vector(1, 4).map_err(at("inputs"))?);
        let outputs = array(t.vector(2, 4).map_err(at("outputs"))?);
        self.check_indices(place, "input tensor", inputs, true)?;
        self.check_indices(place, "output tensor", outputs, false)?;
        let options_type = t.u8(3, 0).map_err(at("builtin_options_type"))?;
        let table = t.table(4).map_err(at("builtin_options"))?;
        let raw_options = OptionsReader {
            options_type,
            table,
            place,
            len,
        };
        Ok(Operator {
            index,
            op: code.op,
            version: code.version,
            custom_code: code.custom_code,
            opcode_index,
            inputs,
            outputs,
            raw_options,
        })
    }
}

/// What an op's options decoder reads: the operator's options table, of
/// the type the file names, and where it is (for errors).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OptionsReader<'a> {
    pub(crate) options_type: u8,
    pub(crate) table: Option<Table<'a>>,
    pub(crate) place: Place,
    pub(crate) len: usize,
}

impl<'a> OptionsReader<'a> {
    /// The options table, which must be of type `ty` (the schema's
    /// `name`) or absent (`None`: the schema's defaults).
    pub(crate) fn table(
        &self,
        ty: u8,
        name: &'static str,
    ) -> Result<Option<Table<'a>>, TfliteError> {
        if self.options_type == ty || self.options_type == 0 {
            Ok(self.table.filter(|_| self.options_type == ty))
        } else {
            Err(TfliteError::OptionsMismatch {
                place: self.place,
                expected: name,
                found: self.options_type,
            })
        }
    }

    /// The error a layout fault becomes while reading option `what`.
    pub(crate) fn fault(&self, what: &'static str) -> impl Fn(Fault) -> TfliteError {
        let (place, len) = (self.place, self.len);
        move |f: Fault| TfliteError::from_fault(f, place, what, len)
    }

    /// The error: option `what` holds `value`, outside its schema enum.
    pub(crate) fn enum_value(&self, value: i8, what: &'static str) -> TfliteError {
        TfliteError::UnknownEnum {
            place: self.place,
            what,
            value,
        }
    }

    /// `value` of option `what`, which must be at least 1.
    pub(crate) fn at_least_1(&self, value: i32, what: &'static str) -> Result<i32, TfliteError> {
        if value >= 1 {
            Ok(value)
        } else {
            Err(TfliteError::BadOption {
                place: self.place,
                what,
                value,
            })
        }
    }
}

impl<'a> Quantization<'a> {
    /// The quantization table `q` of the tensor at `place` with `shape`:
    /// `None` when it has no scales (a float tensor's empty table).
    fn read(
        q: Table<'a>,
        place: Place,
        len: usize,
        shape: Array<'a, i32>,
    ) -> Result<Option<Self>, TfliteError> {
        let at = |what: &'static str| move |f: Fault| TfliteError::from_fault(f, place, what, len);
        let scales: Array<'a, f32> = array(q.vector(2, 4).map_err(at("scales"))?);
        let zero_points: Array<'a, i64> = array(q.vector(3, 8).map_err(at("zero points"))?);
        let dimension = q.i32(6, 0).map_err(at("quantized_dimension"))?;
        if scales.is_empty() {
            return Ok(None);
        }
        if scales.len() != zero_points.len() {
            return Err(TfliteError::ScalesZeroPoints {
                place,
                scales: scales.len(),
                zero_points: zero_points.len(),
            });
        }
        let axis = usize::try_from(dimension).ok();
        let dim = axis.and_then(|a| shape.get(a));
        // a 1-D tensor with one scale per element, whatever axis the file
        // names: person_detect.tflite's depthwise biases say 3. TFLite
        // Micro loads them (it reads a bias's int32 values only); TFLite's
        // own interpreter refuses them.
        let per_element_of_1d = shape.len() == 1
            && axis.is_some()
            && shape.get(0).and_then(|d| usize::try_from(d).ok()) == Some(scales.len());
        let fits = match dim {
            // one scale for the whole tensor, or one per slice along the axis
            Some(d) => scales.len() == 1 || usize::try_from(d).ok() == Some(scales.len()),
            None => (scales.len() == 1 && (dimension == 0 || axis.is_some())) || per_element_of_1d,
        };
        let quantized_dimension = axis
            .filter(|_| fits)
            .ok_or(TfliteError::QuantizedDimension {
                place,
                dimension,
                rank: shape.len(),
                dim,
                scales: scales.len(),
            })?;
        Ok(Some(Quantization {
            scales,
            zero_points,
            quantized_dimension,
        }))
    }

    /// The scales: one (per-tensor) or one per slice along
    /// [`quantized_dimension`](Self::quantized_dimension).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let q = model.tensor(0).unwrap().quantization().unwrap();
    /// assert_eq!(q.scales().get(0), Some(0.024573976_f32));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn scales(&self) -> Array<'a, f32> {
        self.scales
    }

    /// The zero points, one per scale.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let q = model.tensor(0).unwrap().quantization().unwrap();
    /// assert!(q.zero_points().eq_slice(&[-128]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn zero_points(&self) -> Array<'a, i64> {
        self.zero_points
    }

    /// The axis the scales run along when there are several (checked to be
    /// an axis of the shape, with one scale per slice, except for a 1-D
    /// tensor with one scale per element, which may name any axis, as
    /// person_detect.tflite's biases name 3 and TFLite Micro accepts); the
    /// file's value (usually 0) otherwise.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.tensor(8).unwrap().quantization().unwrap().quantized_dimension(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn quantized_dimension(&self) -> usize {
        self.quantized_dimension
    }

    /// Whether there is more than one scale.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(!model.tensor(6).unwrap().quantization().unwrap().is_per_channel());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn is_per_channel(&self) -> bool {
        self.scales.len() > 1
    }

    /// The scale of channel `c` (the only scale for every `c` when
    /// per-tensor), or `None` past the last channel.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let q = model.tensor(6).unwrap().quantization().unwrap();
    /// assert_eq!(q.scale(5), q.scale(0));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn scale(&self, c: usize) -> Option<f32> {
        self.scales.get(if self.is_per_channel() { c } else { 0 })
    }

    /// The zero point of channel `c` (the only one for every `c` when
    /// per-tensor), or `None` past the last channel.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.tensor(9).unwrap().quantization().unwrap().zero_point(0), Some(7));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn zero_point(&self, c: usize) -> Option<i64> {
        self.zero_points
            .get(if self.is_per_channel() { c } else { 0 })
    }
}

impl<'a> ModelTensor<'a> {
    /// The tensor's index in subgraph 0.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.tensor(4).unwrap().index(), 4);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The tensor's name, empty if absent.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert!(!model.tensor(8).unwrap().name().is_empty());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The stored shape (a batch dim of -1 in the signature is 1 here).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert!(model.tensor(2).unwrap().shape().eq_slice(&[1, 25, 20, 8]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn shape(&self) -> Array<'a, i32> {
        self.shape
    }

    /// The shape signature (-1 for a dim left open), empty if absent.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.tensor(0).unwrap().shape_signature().get(0), Some(-1));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn shape_signature(&self) -> Array<'a, i32> {
        self.shape_signature
    }

    /// The element type.
    ///
    /// ```
    /// use shapecheck_tflite::TensorType;
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// assert!(model.tensors().all(|t| t.dtype() == TensorType::Float32));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn dtype(&self) -> TensorType {
        self.dtype
    }

    /// The number of elements of the shape (1 for a scalar).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.tensor(7).unwrap().elements(), 16000);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn elements(&self) -> usize {
        self.elements
    }

    /// The index of the tensor's entry in `Model.buffers` (0, the empty
    /// buffer, for most activations).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.tensor(6).unwrap().buffer_index() > 0);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn buffer_index(&self) -> usize {
        self.buffer_index
    }

    /// The constant data, little-endian and row-major (checked to hold
    /// exactly the shape's elements), or empty for an activation.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.tensor(8).unwrap().data().len(), 640);
    /// assert!(model.tensor(2).unwrap().data().is_empty());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The constant data read as `T`, if `T` is the tensor's type (`i8`
    /// for `INT8`, `i32` for `INT32`, `f32` for `FLOAT32`, ...); empty
    /// for an activation.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// let shape = model.tensor(5).unwrap().data_as::<i32>().unwrap();
    /// assert!(shape.eq_slice(&[-1, 49, 40, 1]));
    /// assert!(model.tensor(5).unwrap().data_as::<f32>().is_none());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn data_as<T: LeNumber>(&self) -> Option<Array<'a, T>> {
        if T::DTYPE != self.dtype {
            return None;
        }
        Array::new(self.data)
    }

    /// The quantization, or `None` for a tensor without scales.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine_float.tflite")))?;
    /// assert!(model.tensor(0).unwrap().quantization().is_none());
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn quantization(&self) -> Option<Quantization<'a>> {
        self.quantization
    }

    /// Whether the tensor is a variable (state kept between runs).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.tensors().all(|t| !t.is_variable()));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn is_variable(&self) -> bool {
        self.is_variable
    }

    /// Whether the tensor has sparsity parameters (its buffer then holds
    /// the non-zero values only, and is not size-checked).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.tensors().all(|t| !t.is_sparse()));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn is_sparse(&self) -> bool {
        self.is_sparse
    }
}

impl<'a> Operator<'a> {
    /// The operator's index in subgraph 0 (execution order).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.operator(2).unwrap().index(), 2);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The builtin op: `max(builtin_code, deprecated_builtin_code)` of its
    /// operator code.
    ///
    /// ```
    /// use shapecheck_tflite::BuiltinOp;
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// // speech.tflite keeps its ops in deprecated_builtin_code (builtin_code is 0, ADD)
    /// assert_eq!(model.operator(0).unwrap().op(), BuiltinOp::RESHAPE);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn op(&self) -> BuiltinOp {
        self.op
    }

    /// The op's version (the schema's default is 1).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/speech.tflite")))?;
    /// assert_eq!(model.operator(1).unwrap().version(), 3);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn version(&self) -> i32 {
        self.version
    }

    /// The custom op's name, for [`BuiltinOp::CUSTOM`].
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.operator(0).unwrap().custom_code(), None);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn custom_code(&self) -> Option<&'a str> {
        self.custom_code
    }

    /// The index of its entry in `Model.operator_codes`.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.operator(1).unwrap().opcode_index(), 0);
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn opcode_index(&self) -> usize {
        self.opcode_index
    }

    /// The input tensor indices, -1 for an absent optional input (each
    /// other checked to be a tensor).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.operator(0).unwrap().inputs().eq_slice(&[0, 6, 5]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn inputs(&self) -> Array<'a, i32> {
        self.inputs
    }

    /// The output tensor indices (each checked to be a tensor).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert!(model.operator(0).unwrap().outputs().eq_slice(&[7]));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn outputs(&self) -> Array<'a, i32> {
        self.outputs
    }

    /// The tensor index of input `k`, or `None` if there is no input `k`
    /// or it is an absent optional input (-1).
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// let fc = model.operator(2).unwrap();
    /// assert_eq!((fc.input(0), fc.input(1), fc.input(2), fc.input(3)), (Some(8), Some(2), Some(1), None));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn input(&self, k: usize) -> Option<usize> {
        usize::try_from(self.inputs.get(k)?).ok()
    }

    /// The tensor index of output `k`, or `None` if there is no output `k`.
    ///
    /// ```
    /// # let model = shapecheck_tflite::Model::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/models/sine.tflite")))?;
    /// assert_eq!(model.operator(2).unwrap().output(0), Some(9));
    /// # Ok::<(), shapecheck_tflite::TfliteError>(())
    /// ```
    pub fn output(&self, k: usize) -> Option<usize> {
        usize::try_from(self.outputs.get(k)?).ok()
    }

    /// The options table as the file gives it, for the op's own decoder
    /// (each op's module reads its options from it; the registry's
    /// [`Operator::options`] is the decoded view).
    pub(crate) fn raw_options(&self) -> OptionsReader<'a> {
        self.raw_options
    }
}
