//! The registry (`OPS`) against its ops' modules: every row is checked on
//! every operator of the repository's models (the one-op oracles of
//! `tests/ops/` and the real models of `tests/models/`) that uses its op.
//! A row whose options decoder, shape rule or types disagree with what the
//! model files hold, or whose `prepare` refuses a model TFLite Micro ran,
//! fails here, naming the model, the operator and the row.

use std::path::PathBuf;

use shapecheck_tflite::{
    op_row, Arena, Arithmetic, Interpreter, Model, Options, OptionsTable, QuantizedMultiplier,
    TensorType, OPS,
};

/// Every model file of the repository's tests, with its bytes.
fn models() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    for sub in ["ops", "models"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "tflite") {
                let name = format!("{sub}/{}", path.file_name().unwrap().to_string_lossy());
                files.push((name, std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

fn dtype_name(t: TensorType) -> String {
    format!("{t:?}").to_lowercase()
}

/// Whether the interpreter takes the whole model.
fn runs(model: &Model<'_>) -> bool {
    let Ok(sizes) = Interpreter::arena_sizes(model) else {
        return false;
    };
    let mut int8 = vec![0i8; sizes.int8];
    let mut int16 = vec![0i16; sizes.int16];
    let mut int32 = vec![0i32; sizes.int32];
    let mut float32 = vec![0f32; sizes.float32];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        int16: &mut int16,
        int32: &mut int32,
        float32: &mut float32,
        multipliers: &mut multipliers,
    };
    Interpreter::new(*model, arena, Arithmetic::Micro).is_ok()
}

#[test]
fn each_op_has_one_row() {
    for (i, row) in OPS.iter().enumerate() {
        let first = OPS.iter().position(|r| r.op == row.op).unwrap();
        assert_eq!(first, i, "{:?} has two rows", row.op);
        assert!(std::ptr::eq(op_row(row.op).unwrap(), row));
    }
}

#[test]
fn every_row_agrees_with_the_models_of_its_op() {
    let models = models();
    let mut seen = vec![0usize; OPS.len()];
    for (name, bytes) in &models {
        let model = Model::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        for op in model.operators() {
            let Some(k) = OPS.iter().position(|r| r.op == op.op()) else {
                continue;
            };
            let row = &OPS[k];
            seen[k] += 1;
            let at = format!("{name}, operator {} ({:?})", op.index(), op.op());
            // the options the reader decoded are the row's table (an op
            // whose kernel reads none may still carry an empty table)
            let decoded = format!("{:?}", op.options());
            let table = format!("{:?}", row.options);
            let kind = decoded.split(['(', ' ', '{']).next().unwrap();
            if row.options == OptionsTable::None {
                assert!(
                    matches!(op.options(), Options::None | Options::Other { .. }),
                    "{at}: options decoded as {decoded}, the row says None"
                );
            } else {
                assert_eq!(
                    kind, table,
                    "{at}: options decoded as {decoded}, the row says {table}"
                );
            }
            // the shape rule gives the file's output shape (or, in a model
            // the interpreter does not run yet, refuses the operands)
            let runs = runs(&model);
            let output = model.tensor(op.output(0).unwrap()).unwrap();
            let file: Vec<usize> = output.shape().iter().map(|d| d as usize).collect();
            match (row.output_shape)(&model, &op) {
                Ok(shape) => assert_eq!(
                    shape.dims(),
                    &file[..],
                    "{at}: the rule's shape against the file's"
                ),
                Err(e) => assert!(
                    !runs,
                    "{at}: the rule refuses a model the interpreter runs: {e}"
                ),
            }
            // in a model the interpreter runs, the row's types name the
            // output's type and one of the inputs'
            if !runs {
                continue;
            }
            let types = row.types;
            let out_type = dtype_name(output.dtype());
            assert!(
                types.contains(&format!("→ {out_type}")),
                "{at}: the output is {out_type}, the row runs {types}"
            );
            let inputs: Vec<String> = (0..op.inputs().len())
                .filter_map(|i| op.input(i).and_then(|t| model.tensor(t)))
                .map(|t| dtype_name(t.dtype()))
                .collect();
            assert!(
                inputs.iter().any(|t| types.contains(t.as_str())),
                "{at}: the inputs are {inputs:?}, the row runs {types}"
            );
        }
    }
    for (row, n) in OPS.iter().zip(&seen) {
        assert!(
            *n > 0,
            "{:?} has a row but no model in tests/ops or tests/models",
            row.op
        );
    }
}

/// The rows that name a typed layer of `shapecheck::ops::layers`: each
/// names its own op's layer, with the options table that layer reads.
/// `model!` writes an op as the layer its row names, so a row naming
/// another op's layer (or none, for an op a layer runs) fails here.
#[test]
fn typed_layers_are_their_ops() {
    use shapecheck_tflite::{BuiltinOp, TypedLayer};
    let layers = [
        (
            BuiltinOp::FULLY_CONNECTED,
            TypedLayer::FullyConnected,
            OptionsTable::FullyConnected,
        ),
        (BuiltinOp::CONV_2D, TypedLayer::Conv2d, OptionsTable::Conv2d),
        (
            BuiltinOp::DEPTHWISE_CONV_2D,
            TypedLayer::DepthwiseConv2d,
            OptionsTable::DepthwiseConv2d,
        ),
        (
            BuiltinOp::AVERAGE_POOL_2D,
            TypedLayer::AveragePool2d,
            OptionsTable::Pool2d,
        ),
        (
            BuiltinOp::MAX_POOL_2D,
            TypedLayer::MaxPool2d,
            OptionsTable::Pool2d,
        ),
        (BuiltinOp::MEAN, TypedLayer::Mean, OptionsTable::Reducer),
        (BuiltinOp::ADD, TypedLayer::Add, OptionsTable::Add),
        (BuiltinOp::PAD, TypedLayer::Pad, OptionsTable::None),
        (
            BuiltinOp::LOGISTIC,
            TypedLayer::Logistic,
            OptionsTable::None,
        ),
        (
            BuiltinOp::QUANTIZE,
            TypedLayer::Quantize,
            OptionsTable::None,
        ),
        (
            BuiltinOp::DEQUANTIZE,
            TypedLayer::Dequantize,
            OptionsTable::None,
        ),
        (
            BuiltinOp::SOFTMAX,
            TypedLayer::Softmax,
            OptionsTable::Softmax,
        ),
        (
            BuiltinOp::RESHAPE,
            TypedLayer::Reshape,
            OptionsTable::Reshape,
        ),
    ];
    for row in &OPS {
        let expected = layers.iter().find(|(op, _, _)| *op == row.op);
        assert_eq!(
            row.typed_layer,
            expected.map(|(_, layer, _)| *layer),
            "{:?}'s row names the typed layer {:?}",
            row.op,
            row.typed_layer
        );
        if let Some((_, _, options)) = expected {
            assert_eq!(
                row.options, *options,
                "{:?}'s layer reads {options:?}",
                row.op
            );
        }
    }
}
