//! Malformed models: each fault is the error that names it, never a panic.
//!
//! Small models are written by a FlatBuffer builder of this file (tables
//! laid out front to back, offsets patched after), one fault at a time, and
//! the real sine.tflite is truncated at every length and has its words and
//! bits overwritten.

use shapecheck_tflite::{
    Activation, BuiltinOp, Model, Name, Options, Padding, Place, TensorType, TfliteError,
};

const SINE: &[u8] = include_bytes!("models/sine.tflite");
const SPEECH: &[u8] = include_bytes!("models/speech.tflite");
const SINE_FLOAT: &[u8] = include_bytes!("models/sine_float.tflite");

// --- a small FlatBuffer builder ----------------------------------------------

/// A field's value.
#[derive(Clone, Debug)]
enum V {
    Byte(u8),
    Int(i32),
    Float(f32),
    Long(u64),
    Table(Obj),
    Ints(Vec<i32>),
    Floats(Vec<f32>),
    Longs(Vec<i64>),
    Bytes(Vec<u8>),
    Tables(Vec<Obj>),
    Str(Vec<u8>),
}

/// A table: (field id, value) pairs; absent ids are absent fields.
#[derive(Clone, Debug, Default)]
struct Obj(Vec<(usize, V)>);

impl Obj {
    fn set(mut self, id: usize, v: V) -> Obj {
        self.0.retain(|(i, _)| *i != id);
        self.0.push((id, v));
        self
    }
}

fn push_u16(b: &mut Vec<u8>, v: usize) {
    b.extend_from_slice(&u16::try_from(v).unwrap().to_le_bytes());
}

fn push_u32(b: &mut Vec<u8>, v: u32) {
    b.extend_from_slice(&v.to_le_bytes());
}

fn patch_offset(b: &mut [u8], at: usize, target: usize) {
    let rel = u32::try_from(target - at).unwrap();
    b[at..at + 4].copy_from_slice(&rel.to_le_bytes());
}

/// Writes the vtable then the table; returns the table's position.
fn write_table(b: &mut Vec<u8>, obj: &Obj) -> usize {
    let slots = obj.0.iter().map(|(id, _)| id + 1).max().unwrap_or(0);
    let mut layout = Vec::new();
    let mut inline = 4;
    for (id, v) in &obj.0 {
        let size = match v {
            V::Byte(_) => 1,
            V::Long(_) => 8,
            _ => 4,
        };
        layout.push((*id, inline));
        inline += size;
    }
    let vtable = b.len();
    push_u16(b, 4 + 2 * slots);
    push_u16(b, inline);
    for id in 0..slots {
        let at = layout.iter().find(|(i, _)| *i == id).map_or(0, |(_, o)| *o);
        push_u16(b, at);
    }
    let table = b.len();
    b.extend_from_slice(&i32::try_from(table - vtable).unwrap().to_le_bytes());
    let mut children = Vec::new();
    for (_, v) in &obj.0 {
        match v {
            V::Byte(x) => b.push(*x),
            V::Int(x) => b.extend_from_slice(&x.to_le_bytes()),
            V::Float(x) => b.extend_from_slice(&x.to_le_bytes()),
            V::Long(x) => b.extend_from_slice(&x.to_le_bytes()),
            _ => {
                children.push((b.len(), v));
                push_u32(b, 0);
            }
        }
    }
    for (at, v) in children {
        let target = write_child(b, v);
        patch_offset(b, at, target);
    }
    table
}

fn write_child(b: &mut Vec<u8>, v: &V) -> usize {
    let at = b.len();
    match v {
        V::Table(o) => return write_table(b, o),
        V::Ints(xs) => {
            push_u32(b, xs.len() as u32);
            xs.iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
        }
        V::Floats(xs) => {
            push_u32(b, xs.len() as u32);
            xs.iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
        }
        V::Longs(xs) => {
            push_u32(b, xs.len() as u32);
            xs.iter()
                .for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
        }
        V::Bytes(xs) | V::Str(xs) => {
            push_u32(b, xs.len() as u32);
            b.extend_from_slice(xs);
            if matches!(v, V::Str(_)) {
                b.push(0);
            }
        }
        V::Tables(objs) => {
            push_u32(b, objs.len() as u32);
            let slots = b.len();
            b.resize(slots + 4 * objs.len(), 0);
            for (i, o) in objs.iter().enumerate() {
                let t = write_table(b, o);
                patch_offset(b, slots + 4 * i, t);
            }
        }
        V::Byte(_) | V::Int(_) | V::Float(_) | V::Long(_) => unreachable!("inline"),
    }
    at
}

/// A file: root offset, `TFL3`, then the root table.
fn build(root: &Obj) -> Vec<u8> {
    let mut b = vec![0, 0, 0, 0, b'T', b'F', b'L', b'3'];
    let root_pos = write_table(&mut b, root);
    patch_offset(&mut b, 0, root_pos);
    b
}

// --- a small valid model: one int8 fully connected layer ---------------------

fn tensor(name: &str, shape: &[i32], dtype: i8, buffer: i32) -> Obj {
    Obj::default()
        .set(0, V::Ints(shape.to_vec()))
        .set(1, V::Byte(dtype as u8))
        .set(2, V::Int(buffer))
        .set(3, V::Str(name.as_bytes().to_vec()))
}

fn quant(scales: &[f32], zero_points: &[i64], dimension: i32) -> Obj {
    Obj::default()
        .set(2, V::Floats(scales.to_vec()))
        .set(3, V::Longs(zero_points.to_vec()))
        .set(6, V::Int(dimension))
}

fn opcode(deprecated: i8, builtin: i32) -> Obj {
    Obj::default()
        .set(0, V::Byte(deprecated as u8))
        .set(2, V::Int(1))
        .set(3, V::Int(builtin))
}

fn fc_options(activation: i8) -> Obj {
    Obj::default().set(0, V::Byte(activation as u8))
}

/// The parts of a one-subgraph model, edited by each test before `file`.
#[derive(Clone)]
struct Parts {
    opcodes: Vec<Obj>,
    tensors: Vec<Obj>,
    operators: Vec<Obj>,
    buffers: Vec<Obj>,
    inputs: Vec<i32>,
    outputs: Vec<i32>,
}

impl Parts {
    /// input [1,2] int8 · weights [3,2] int8 + bias [3] int32 → output [1,3] int8, ReLU.
    fn fc() -> Parts {
        let q = |s: f32, zp: i64| V::Table(quant(&[s], &[zp], 0));
        Parts {
            opcodes: vec![opcode(9, 9)],
            tensors: vec![
                tensor("input", &[1, 2], 9, 0).set(4, q(0.5, -1)),
                tensor("weights", &[3, 2], 9, 1).set(4, q(0.25, 0)),
                tensor("bias", &[3], 2, 2).set(4, q(0.125, 0)),
                tensor("output", &[1, 3], 9, 0).set(4, q(1.0, 3)),
            ],
            operators: vec![Obj::default()
                .set(0, V::Int(0))
                .set(1, V::Ints(vec![0, 1, 2]))
                .set(2, V::Ints(vec![3]))
                .set(3, V::Byte(8))
                .set(4, V::Table(fc_options(1)))],
            buffers: vec![
                Obj::default(),
                Obj::default().set(0, V::Bytes(vec![1, 2, 3, 4, 5, 0xff])),
                Obj::default().set(
                    0,
                    V::Bytes([7i32, -8, 9].iter().flat_map(|x| x.to_le_bytes()).collect()),
                ),
            ],
            inputs: vec![0],
            outputs: vec![3],
        }
    }

    fn file(&self) -> Vec<u8> {
        let subgraph = Obj::default()
            .set(0, V::Tables(self.tensors.clone()))
            .set(1, V::Ints(self.inputs.clone()))
            .set(2, V::Ints(self.outputs.clone()))
            .set(3, V::Tables(self.operators.clone()))
            .set(4, V::Str(b"main".to_vec()));
        let root = Obj::default()
            .set(0, V::Int(3))
            .set(1, V::Tables(self.opcodes.clone()))
            .set(2, V::Tables(vec![subgraph]))
            .set(3, V::Str(b"built by the test".to_vec()))
            .set(4, V::Tables(self.buffers.clone()));
        build(&root)
    }

    fn parse_err(&self) -> TfliteError {
        let file = self.file();
        match Model::parse(&file) {
            Ok(_) => panic!("accepted"),
            Err(e) => e,
        }
    }
}

fn tensor_place(index: usize, name: &str) -> Place {
    Place::ModelTensor {
        index,
        name: Name::new(name),
    }
}

const FC0: Place = Place::Operator {
    index: 0,
    op: Some(BuiltinOp::FULLY_CONNECTED),
};

// --- the builder's model is read back ------------------------------------------

#[test]
fn the_built_model_reads_back() {
    let file = Parts::fc().file();
    let m = Model::parse(&file).unwrap();
    assert_eq!(
        (m.version(), m.description(), m.subgraph_name()),
        (3, "built by the test", "main")
    );
    assert_eq!(
        (m.tensor_count(), m.operator_count(), m.buffer_count()),
        (4, 1, 3)
    );
    let w = m.tensor(1).unwrap();
    assert_eq!(
        (w.name(), w.dtype(), w.elements()),
        ("weights", TensorType::Int8, 6)
    );
    assert_eq!(
        w.data_as::<i8>().unwrap().iter().collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, -1]
    );
    let b = m.tensor(2).unwrap();
    assert_eq!(
        b.data_as::<i32>().unwrap().iter().collect::<Vec<_>>(),
        [7, -8, 9]
    );
    let q = m.tensor(0).unwrap().quantization().unwrap();
    assert_eq!((q.scale(0), q.zero_point(0)), (Some(0.5), Some(-1)));
    let op = m.operator(0).unwrap();
    assert_eq!(op.op(), BuiltinOp::FULLY_CONNECTED);
    let Options::FullyConnected(o) = op.options() else {
        panic!("{:?}", op.options())
    };
    assert_eq!(o.fused_activation, Activation::Relu);
}

// --- the op code: max(builtin_code, deprecated_builtin_code) -------------------

#[test]
fn the_op_is_the_larger_of_the_two_codes() {
    for (deprecated, builtin, want) in [
        (9, 9, BuiltinOp::FULLY_CONNECTED),
        (9, 0, BuiltinOp::FULLY_CONNECTED), // an old file: builtin_code left at ADD
        (0, 9, BuiltinOp::FULLY_CONNECTED),
    ] {
        let mut p = Parts::fc();
        p.opcodes = vec![opcode(deprecated, builtin)];
        let file = p.file();
        let m = Model::parse(&file).unwrap();
        assert_eq!(
            m.operator(0).unwrap().op(),
            want,
            "({deprecated}, {builtin})"
        );
    }
    // codes of 127 and up live in builtin_code alone, beside the placeholder 127
    let mut p = Parts::fc();
    p.opcodes = vec![opcode(127, 150)];
    p.operators[0] = p.operators[0].clone().set(3, V::Byte(0));
    let file = p.file();
    let op = Model::parse(&file).unwrap().operator(0).unwrap();
    assert_eq!((op.op().code(), op.op().name()), (150, "GELU"));
    assert_eq!(op.options(), Options::None);
    // both 0: ADD itself
    let mut p = Parts::fc();
    p.opcodes = vec![opcode(0, 0)];
    p.operators[0] = p.operators[0]
        .clone()
        .set(3, V::Byte(11))
        .set(4, V::Table(Obj::default()));
    let file = p.file();
    let op = Model::parse(&file).unwrap().operator(0).unwrap();
    let Options::Add(add) = op.options() else {
        panic!("{:?}", op.options())
    };
    assert_eq!(op.op(), BuiltinOp::ADD);
    assert_eq!(add.fused_activation, shapecheck_tflite::Activation::None);
}

#[test]
fn an_unknown_op_code_is_an_error() {
    for (deprecated, builtin) in [(0, 206), (0, 300), (-1, -5), (0, i32::MAX)] {
        let mut p = Parts::fc();
        p.opcodes = vec![opcode(deprecated, builtin)];
        let err = p.parse_err();
        assert_eq!(
            err,
            TfliteError::UnknownOpCode {
                place: Place::OperatorCode { index: 0 },
                builtin_code: builtin,
                deprecated_builtin_code: deprecated,
            }
        );
        assert!(
            err.to_string()
                .starts_with("operator code 0: unknown builtin operator"),
            "{err}"
        );
    }
}

#[test]
fn an_opcode_index_out_of_range_is_an_error() {
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(0, V::Int(3));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::IndexOutOfRange {
            place: Place::Operator { index: 0, op: None },
            what: "operator code",
            index: 3,
            count: 1,
        }
    );
    assert_eq!(
        err.to_string(),
        "operator 0: operator code index 3 is out of range (there are 1)"
    );
}

// --- tensors -------------------------------------------------------------------

#[test]
fn an_unknown_dtype_is_an_error() {
    for value in [18, 99, -1] {
        let mut p = Parts::fc();
        p.tensors[1] = p.tensors[1].clone().set(1, V::Byte(value as u8));
        let err = p.parse_err();
        assert_eq!(
            err,
            TfliteError::UnknownDtype {
                place: tensor_place(1, "weights"),
                value,
            }
        );
        assert_eq!(
            err.to_string(),
            format!("tensor 1 \"weights\": type {value} is not a TFLite tensor type (0 to 17)")
        );
    }
}

#[test]
fn every_schema_dtype_is_reported() {
    // an activation (no data) of each type: no size check applies
    for value in 0..=17i8 {
        let mut p = Parts::fc();
        p.tensors.push(tensor("extra", &[2], value, 0));
        let file = p.file();
        let m = Model::parse(&file).unwrap();
        let dtype = m.tensor(4).unwrap().dtype();
        assert_eq!(TensorType::from_schema(value), Some(dtype));
    }
}

#[test]
fn a_buffer_that_does_not_match_its_shape_is_an_error() {
    let mut p = Parts::fc();
    p.buffers[1] = Obj::default().set(0, V::Bytes(vec![1, 2, 3, 4, 5]));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::BufferSize {
            place: tensor_place(1, "weights"),
            dtype: TensorType::Int8,
            elements: 6,
            expected: 6,
            actual: 5,
        }
    );
    assert_eq!(
        err.to_string(),
        "tensor 1 \"weights\": its shape holds 6 INT8 elements (6 bytes) but its buffer has 5 bytes"
    );
    // the int32 bias: 3 elements are 12 bytes, not 6
    let mut p = Parts::fc();
    p.tensors[2] = p.tensors[2].clone().set(2, V::Int(1));
    assert!(matches!(
        p.parse_err(),
        TfliteError::BufferSize {
            expected: 12,
            actual: 6,
            ..
        }
    ));
    // a shape that claims more elements than the buffer
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1].clone().set(0, V::Ints(vec![3, 4]));
    assert!(matches!(
        p.parse_err(),
        TfliteError::BufferSize {
            elements: 12,
            actual: 6,
            ..
        }
    ));
}

#[test]
fn int4_buffers_hold_two_elements_a_byte() {
    let mut p = Parts::fc();
    p.tensors.push(tensor("packed", &[5], 17, 1)); // 5 int4 = 3 bytes, buffer has 6
    assert!(matches!(
        p.parse_err(),
        TfliteError::BufferSize {
            expected: 3,
            actual: 6,
            ..
        }
    ));
    let mut p = Parts::fc();
    p.tensors.push(tensor("packed", &[12], 17, 1));
    let file = p.file();
    assert_eq!(
        Model::parse(&file).unwrap().tensor(4).unwrap().elements(),
        12
    );
}

#[test]
fn a_negative_dim_is_an_error() {
    let mut p = Parts::fc();
    p.tensors[3] = p.tensors[3].clone().set(0, V::Ints(vec![1, -3]));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::NegativeDim {
            place: tensor_place(3, "output"),
            axis: 1,
            dim: -3,
        }
    );
    assert_eq!(
        err.to_string(),
        "tensor 3 \"output\": dim 1 of its shape is -3, negative"
    );
}

#[test]
fn an_overflowing_element_count_is_an_error() {
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1].clone().set(0, V::Ints(vec![i32::MAX; 4]));
    assert_eq!(
        p.parse_err(),
        TfliteError::TooManyElements {
            place: tensor_place(1, "weights"),
        }
    );
}

#[test]
fn a_buffer_index_out_of_range_is_an_error() {
    let mut p = Parts::fc();
    p.tensors[2] = p.tensors[2].clone().set(2, V::Int(9));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::IndexOutOfRange {
            place: tensor_place(2, "bias"),
            what: "buffer",
            index: 9,
            count: 3,
        }
    );
    assert_eq!(
        err.to_string(),
        "tensor 2 \"bias\": buffer index 9 is out of range (there are 3)"
    );
}

#[test]
fn a_name_that_is_not_utf8_is_an_error() {
    let mut p = Parts::fc();
    p.tensors[0] = p.tensors[0].clone().set(3, V::Str(vec![b'a', 0xff]));
    let err = p.parse_err();
    assert!(
        matches!(err, TfliteError::NotUtf8 { place, what: "name", .. } if place == tensor_place(0, "")),
        "{err:?}"
    );
}

#[test]
fn a_long_name_is_cut_in_the_error() {
    let long = "layer/".repeat(20);
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1]
        .clone()
        .set(1, V::Byte(77))
        .set(3, V::Str(long.clone().into_bytes()));
    let err = p.parse_err();
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!("tensor 1 \"{}…\"", &long[..Name::CAPACITY])),
        "{shown}"
    );
}

// --- quantization ----------------------------------------------------------------

#[test]
fn scales_and_zero_points_must_pair_up() {
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1]
        .clone()
        .set(4, V::Table(quant(&[0.1, 0.2, 0.3], &[0], 0)));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::ScalesZeroPoints {
            place: tensor_place(1, "weights"),
            scales: 3,
            zero_points: 1,
        }
    );
    assert_eq!(
        err.to_string(),
        "tensor 1 \"weights\": its quantization has 3 scales but 1 zero points"
    );
}

#[test]
fn per_channel_scales_must_run_along_an_axis_of_their_count() {
    // weights [3, 2]: 3 scales along dim 0 is right
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1]
        .clone()
        .set(4, V::Table(quant(&[0.1, 0.2, 0.3], &[0, 0, 0], 0)));
    let file = p.file();
    let m = Model::parse(&file).unwrap();
    let q = m.tensor(1).unwrap().quantization().unwrap();
    assert!(q.is_per_channel());
    assert_eq!((q.quantized_dimension(), q.scale(2)), (0, Some(0.3)));
    // along dim 1 (of 2) it is not
    let mut p = Parts::fc();
    p.tensors[1] = p.tensors[1]
        .clone()
        .set(4, V::Table(quant(&[0.1, 0.2, 0.3], &[0, 0, 0], 1)));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::QuantizedDimension {
            place: tensor_place(1, "weights"),
            dimension: 1,
            rank: 2,
            dim: Some(2),
            scales: 3,
        }
    );
    assert_eq!(
        err.to_string(),
        "tensor 1 \"weights\": 3 per-channel scales along quantized_dimension 1, whose dim is 2 (rank 2)"
    );
    // nor along an axis the shape does not have
    for dimension in [2, -1] {
        let mut p = Parts::fc();
        p.tensors[1] = p.tensors[1]
            .clone()
            .set(4, V::Table(quant(&[0.1, 0.2, 0.3], &[0, 0, 0], dimension)));
        assert!(matches!(
            p.parse_err(),
            TfliteError::QuantizedDimension {
                dim: None,
                rank: 2,
                ..
            }
        ));
    }
}

#[test]
fn a_quantization_without_scales_is_none() {
    let mut p = Parts::fc();
    p.tensors[0] = p.tensors[0].clone().set(4, V::Table(Obj::default()));
    let file = p.file();
    assert!(Model::parse(&file)
        .unwrap()
        .tensor(0)
        .unwrap()
        .quantization()
        .is_none());
}

// --- operators -----------------------------------------------------------------

#[test]
fn operator_tensor_indices_are_checked() {
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(1, V::Ints(vec![0, 7, 2]));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::IndexOutOfRange {
            place: FC0,
            what: "input tensor",
            index: 7,
            count: 4,
        }
    );
    assert_eq!(
        err.to_string(),
        "operator 0 (FULLY_CONNECTED): input tensor index 7 is out of range (there are 4)"
    );
    // -1 is an absent optional input (a bias-less layer), not an output
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(1, V::Ints(vec![0, 1, -1]));
    let file = p.file();
    let op = Model::parse(&file).unwrap().operator(0).unwrap();
    assert_eq!((op.input(1), op.input(2)), (Some(1), None));
    for bad in [-1, -2, 4] {
        let mut p = Parts::fc();
        p.operators[0] = p.operators[0].clone().set(2, V::Ints(vec![bad]));
        assert!(matches!(
            p.parse_err(),
            TfliteError::IndexOutOfRange {
                what: "output tensor",
                ..
            }
        ));
    }
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(1, V::Ints(vec![-2, 1, 2]));
    assert!(matches!(
        p.parse_err(),
        TfliteError::IndexOutOfRange { index: -2, .. }
    ));
}

#[test]
fn subgraph_inputs_and_outputs_are_checked() {
    let mut p = Parts::fc();
    p.outputs = vec![3, 4];
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::IndexOutOfRange {
            place: Place::Subgraph,
            what: "output tensor",
            index: 4,
            count: 4,
        }
    );
    let mut p = Parts::fc();
    p.inputs = vec![-1];
    assert!(matches!(
        p.parse_err(),
        TfliteError::IndexOutOfRange {
            place: Place::Subgraph,
            ..
        }
    ));
}

#[test]
fn options_outside_the_schema_are_errors() {
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(4, V::Table(fc_options(6)));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::UnknownEnum {
            place: FC0,
            what: "fused_activation_function",
            value: 6,
        }
    );
    assert_eq!(
        err.to_string(),
        "operator 0 (FULLY_CONNECTED): fused_activation_function 6 is not a value of the schema"
    );
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0]
        .clone()
        .set(4, V::Table(fc_options(0).set(1, V::Byte(2))));
    assert!(matches!(
        p.parse_err(),
        TfliteError::UnknownEnum {
            what: "weights_format",
            value: 2,
            ..
        }
    ));
}

#[test]
fn options_of_another_op_are_an_error() {
    let mut p = Parts::fc();
    p.operators[0] = p.operators[0].clone().set(3, V::Byte(9));
    let err = p.parse_err();
    assert_eq!(
        err,
        TfliteError::OptionsMismatch {
            place: FC0,
            expected: "FullyConnectedOptions",
            found: 9,
        }
    );
    assert_eq!(
        err.to_string(),
        "operator 0 (FULLY_CONNECTED): its builtin_options are of type 9, not FullyConnectedOptions"
    );
}

#[test]
fn absent_options_are_the_schema_s_defaults() {
    let mut p = Parts::fc();
    p.operators[0] = Obj::default()
        .set(1, V::Ints(vec![0, 1, 2]))
        .set(2, V::Ints(vec![3]));
    let file = p.file();
    let op = Model::parse(&file).unwrap().operator(0).unwrap();
    let Options::FullyConnected(o) = op.options() else {
        panic!()
    };
    assert_eq!(
        (o.fused_activation, o.keep_num_dims),
        (Activation::None, false)
    );
}

fn depthwise(options: Obj) -> Parts {
    let mut p = Parts::fc();
    p.opcodes = vec![opcode(4, 0)];
    p.operators[0] = p.operators[0]
        .clone()
        .set(3, V::Byte(2))
        .set(4, V::Table(options));
    p
}

#[test]
fn depthwise_options_are_read_and_checked() {
    let good = Obj::default()
        .set(0, V::Byte(1))
        .set(1, V::Int(1))
        .set(2, V::Int(3))
        .set(3, V::Int(2))
        .set(4, V::Byte(3));
    let file = depthwise(good.clone()).file();
    let op = Model::parse(&file).unwrap().operator(0).unwrap();
    assert_eq!(op.op(), BuiltinOp::DEPTHWISE_CONV_2D);
    let Options::DepthwiseConv2d(o) = op.options() else {
        panic!()
    };
    assert_eq!(
        (o.padding, o.stride_w, o.stride_h, o.depth_multiplier),
        (Padding::Valid, 1, 3, 2)
    );
    assert_eq!(
        (o.fused_activation, o.dilation_w, o.dilation_h),
        (Activation::Relu6, 1, 1)
    );
    for (id, what) in [
        (1, "stride_w"),
        (2, "stride_h"),
        (5, "dilation_w_factor"),
        (6, "dilation_h_factor"),
    ] {
        let err = depthwise(good.clone().set(id, V::Int(0))).parse_err();
        assert_eq!(
            err,
            TfliteError::BadOption {
                place: Place::Operator {
                    index: 0,
                    op: Some(BuiltinOp::DEPTHWISE_CONV_2D)
                },
                what,
                value: 0,
            }
        );
        assert_eq!(
            err.to_string(),
            format!("operator 0 (DEPTHWISE_CONV_2D): {what} is 0, below 1")
        );
    }
    let err = depthwise(good.set(0, V::Byte(2))).parse_err();
    assert!(matches!(
        err,
        TfliteError::UnknownEnum {
            what: "padding",
            value: 2,
            ..
        }
    ));
}

#[test]
fn reshape_and_softmax_options_are_read() {
    let mut p = Parts::fc();
    p.opcodes = vec![opcode(22, 22), opcode(25, 25)];
    p.operators = vec![
        Obj::default()
            .set(0, V::Int(0))
            .set(1, V::Ints(vec![0]))
            .set(2, V::Ints(vec![3]))
            .set(3, V::Byte(17))
            .set(4, V::Table(Obj::default().set(0, V::Ints(vec![1, -1])))),
        Obj::default()
            .set(0, V::Int(1))
            .set(1, V::Ints(vec![3]))
            .set(2, V::Ints(vec![3]))
            .set(3, V::Byte(9))
            .set(4, V::Table(Obj::default().set(0, V::Float(0.5)))),
    ];
    let file = p.file();
    let m = Model::parse(&file).unwrap();
    let Options::Reshape(r) = m.operator(0).unwrap().options() else {
        panic!()
    };
    assert!(r.new_shape.unwrap().eq_slice(&[1, -1]));
    let Options::Softmax(s) = m.operator(1).unwrap().options() else {
        panic!()
    };
    assert_eq!(s.beta, 0.5);
}

// --- the layout ------------------------------------------------------------------

#[test]
fn not_a_model_is_an_error() {
    for bytes in [&b""[..], b"TFL3", b"1234567"] {
        let err = Model::parse(bytes).unwrap_err();
        assert!(matches!(err, TfliteError::NotAModel { len, .. } if len == bytes.len()));
        assert!(
            err.to_string()
                .contains("shorter than a FlatBuffer's 8-byte header"),
            "{err}"
        );
    }
    let err = Model::parse(b"\x08\0\0\0PNG\x0a....").unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a TFLite model: its file identifier (bytes 4 to 8) is \"PNG\\n\", not \"TFL3\""
    );
}

#[test]
fn a_model_without_subgraphs_is_an_error() {
    let root = Obj::default().set(0, V::Int(3)).set(2, V::Tables(vec![]));
    assert_eq!(
        Model::parse(&build(&root)).unwrap_err(),
        TfliteError::NoSubgraph
    );
    assert_eq!(
        Model::parse(&build(&Obj::default())).unwrap_err(),
        TfliteError::NoSubgraph
    );
}

#[test]
fn a_vtable_outside_the_file_is_an_error() {
    let mut file = Parts::fc().file();
    let root = u32::from_le_bytes(file[0..4].try_into().unwrap()) as usize;
    for soffset in [i32::MIN, i32::MAX, -(file.len() as i32), root as i32 + 1] {
        file[root..root + 4].copy_from_slice(&soffset.to_le_bytes());
        let err = Model::parse(&file).unwrap_err();
        assert!(
            matches!(err, TfliteError::BadVtable { place: Place::Model, what: "root", table, .. } if table == root),
            "{soffset}: {err:?}"
        );
        assert!(
            err.to_string().starts_with(&format!(
                "the model table: the root table at offset {root} has no valid vtable"
            )),
            "{err}"
        );
    }
}

#[test]
fn a_field_outside_its_table_is_an_error() {
    let mut file = Parts::fc().file();
    // the builder writes the root's vtable first, at 8: its field 0 entry at 12
    file[12..14].copy_from_slice(&500u16.to_le_bytes());
    let err = Model::parse(&file).unwrap_err();
    assert!(
        matches!(
            err,
            TfliteError::FieldOutsideTable {
                place: Place::Model,
                what: "version",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn an_offset_past_the_end_is_an_error() {
    let file = Parts::fc().file();
    let mut bad = file.clone();
    bad[0..4].copy_from_slice(&(file.len() as u32 + 100).to_le_bytes());
    let err = Model::parse(&bad).unwrap_err();
    assert!(
        matches!(
            err,
            TfliteError::OutOfBounds {
                place: Place::Model,
                what: "root",
                ..
            }
        ),
        "{err:?}"
    );
    // a vector whose count runs past the end
    let mut bad = file.clone();
    let shape_count = {
        // the weights' shape [3, 2]: its count 2 precedes the dims 3, 2
        let dims: Vec<u8> = [2u32, 3, 2].iter().flat_map(|x| x.to_le_bytes()).collect();
        file.windows(12).position(|w| w == dims).unwrap()
    };
    bad[shape_count..shape_count + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Model::parse(&bad).unwrap_err();
    assert!(
        matches!(err, TfliteError::OutOfBounds { what: "shape", .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("tensor 1 \"weights\": its shape: 17179869180 bytes at offset"),
        "{err}"
    );
}

// --- the real files, damaged ---------------------------------------------------------

#[test]
fn every_truncation_of_sine_is_an_error() {
    for len in 0..SINE.len() {
        let r = Model::parse(&SINE[..len]);
        let err = r
            .err()
            .unwrap_or_else(|| panic!("truncated to {len} bytes: accepted"));
        assert!(!err.to_string().is_empty());
    }
    assert!(Model::parse(SINE).is_ok());
}

#[test]
fn every_truncation_of_speech_past_its_header_is_an_error() {
    // every 7th length (18,800 parses of the whole file are slow in debug)
    for len in (0..SPEECH.len()).step_by(7) {
        assert!(
            Model::parse(&SPEECH[..len]).is_err(),
            "truncated to {len} bytes: accepted"
        );
    }
}

/// Reads everything a model exposes, as a caller would.
fn walk(m: &Model<'_>) -> usize {
    let mut n = m.description().len() + m.subgraph_name().len();
    for t in m.tensors() {
        n += t.name().len() + t.shape().len() + t.data().len() + t.elements().min(1);
        if let Some(q) = t.quantization() {
            n += q.scales().iter().filter(|s| s.is_finite()).count() + q.zero_points().len();
        }
    }
    for o in m.operators() {
        n += o.inputs().len() + o.outputs().len() + o.op().name().len();
        for k in 0..o.inputs().len() {
            if let Some(i) = o.input(k) {
                assert!(m.tensor(i).is_some());
            }
        }
    }
    for k in 0..m.inputs().len() {
        assert!(m.input(k).is_some());
    }
    n
}

#[test]
fn overwritten_words_never_panic() {
    for model in [SINE, SINE_FLOAT] {
        let mut errors = 0;
        for at in (0..model.len() - 3).step_by(2) {
            let word = u32::from_le_bytes(model[at..at + 4].try_into().unwrap());
            for v in [
                0,
                1,
                0xffff_ffff,
                0x7fff_ffff,
                0x8000_0000,
                model.len() as u32,
                model.len() as u32 - 4,
                word ^ 0x8000_0000,
                word.wrapping_add(4),
                word.wrapping_sub(4),
                word ^ 0xffff,
            ] {
                let mut bad = model.to_vec();
                bad[at..at + 4].copy_from_slice(&v.to_le_bytes());
                match Model::parse(&bad) {
                    Ok(m) => {
                        walk(&m);
                    }
                    Err(e) => {
                        errors += 1;
                        assert!(!e.to_string().is_empty());
                    }
                }
            }
        }
        assert!(errors > 1000, "only {errors} rejections");
    }
}

#[test]
fn flipped_bits_never_panic() {
    for at in 0..SINE.len() {
        for bit in 0..8 {
            let mut bad = SINE.to_vec();
            bad[at] ^= 1 << bit;
            if let Ok(m) = Model::parse(&bad) {
                walk(&m);
            }
        }
    }
}

#[test]
fn buffers_outside_the_flatbuffer_are_read_and_checked() {
    // files over 2 GB keep data at an offset from the file's start (> 1)
    let mut p = Parts::fc();
    p.buffers[1] = Obj::default().set(1, V::Long(8)).set(2, V::Long(6));
    let file = p.file();
    let m = Model::parse(&file).unwrap();
    assert_eq!(m.tensor(1).unwrap().data(), &file[8..14]);
    for (offset, size) in [
        (1 << 40, 6),
        (8, 1 << 40),
        (u64::MAX, 6),
        (file.len() as u64 - 3, 6),
    ] {
        let mut p = Parts::fc();
        p.buffers[1] = Obj::default().set(1, V::Long(offset)).set(2, V::Long(size));
        let err = p.parse_err();
        assert!(
            matches!(err, TfliteError::OutOfBounds { place, what: "external buffer data", .. } if place == tensor_place(1, "weights")),
            "{offset} {size}: {err:?}"
        );
    }
}

#[test]
fn a_1d_tensor_may_name_any_axis_for_one_scale_per_element() {
    // person_detect.tflite's depthwise biases: [8] with 8 scales "along
    // dim 3"; TFLite Micro loads them, and so does the reader
    let mut p = Parts::fc();
    p.tensors[2] = p.tensors[2]
        .clone()
        .set(4, V::Table(quant(&[0.1, 0.2, 0.3], &[0, 0, 0], 3)));
    let file = p.file();
    let m = Model::parse(&file).unwrap();
    let q = m.tensor(2).unwrap().quantization().unwrap();
    assert_eq!((q.quantized_dimension(), q.scales().len()), (3, 3));
    // a count that is not the 1-D tensor's length is still refused
    let mut p = Parts::fc();
    p.tensors[2] = p.tensors[2]
        .clone()
        .set(4, V::Table(quant(&[0.1, 0.2], &[0, 0], 3)));
    assert!(matches!(
        p.parse_err(),
        TfliteError::QuantizedDimension {
            dim: None,
            rank: 1,
            scales: 2,
            ..
        }
    ));
}
