//! `model!` (feature `tflite`): a `.tflite` file read when the macro
//! expands, written out as plain Rust over `shapecheck::ops::layers`.
//!
//! The file is parsed by `shapecheck_tflite::Model::parse` and checked
//! whole by `Interpreter::new` (every operand's type, shape, constness and
//! quantization against each op's row of `shapecheck_tflite::OPS`, the one
//! table of the ops shapecheck runs, exactly as the interpreter runs it);
//! what the interpreter refuses is a `compile_error!` with its message,
//! which names the operator, its builtin op and its output tensor. The
//! layers' constants are then derived with the reader's own functions
//! (`fully_connected_multiplier`, `activation_range_int8`, `add_params`,
//! `softmax_params`, ...) and written as `static` items. The activations
//! are placed in one arena by `shapecheck_tflite::plan::place` (each tensor at an offset, two
//! that are live at the same operator never overlapping, the arena at the
//! model's liveness floor), and `predict` is one block per layer, which
//! calls the layer's `_into` form on typed views of the arena at those
//! offsets (`ops::layers::Arena`): the first layer reads the caller's
//! input. A RESHAPE is a view of the tensor it reshapes. The model's
//! output is copied out of the arena into the tensor `predict` returns.
//! `RAM_BYTES` is the arena's bytes.
//!
//! The schedule (issue 70, `shapecheck_tflite::schedule`): by default the
//! least RAM whose estimated instructions are at most 1.10x the
//! layer-by-layer plan's, streaming chains of layers a band of rows at a
//! time where that takes less RAM; `ram = N` the fewest estimated
//! instructions within N bytes (or an error naming the smallest the
//! search finds); `schedule = layers` every layer whole, one after
//! another. A streamed run is written by `model/stream.rs`.

use std::collections::HashMap;
use std::path::Path;

mod stream;

use proc_macro2::{Literal, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use shapecheck_tflite::{
    activation_range_f32, activation_range_int8, add_params, fully_connected_multiplier,
    logistic_params, mean_params, op_row, softmax_params, Arena, Arithmetic, Interpreter, Model,
    ModelTensor, Operator, Options, Padding, QuantizedMultiplier, TensorType, TypedLayer,
};

use shapecheck_tflite::schedule::{Goal, Holds, InPlace, LayerInPlace, Run, Schedule};
use syn::parse::{Parse, ParseStream};

mod quant;
mod step_writer;
use syn::{Ident, LitStr, Token, Visibility};

/// `pub Sine = "path/to/sine.tflite"`, then optionally `, ram = 16_384`
/// (the fastest schedule within that many bytes) or `, schedule =
/// layers` (every layer whole, one after another).
struct ModelInput {
    vis: Visibility,
    name: Ident,
    path: LitStr,
    goal: Goal,
}

impl Parse for ModelInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let vis = input.parse()?;
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        let path = input.parse()?;
        // the default plan: the least RAM whose estimated instructions are
        // at most 1.10x the layer-by-layer plan's (issue 70)
        let mut goal = Goal::Default;
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            goal = match key.to_string().as_str() {
                "ram" => Goal::Ram(input.parse::<syn::LitInt>()?.base10_parse()?),
                "schedule" => {
                    let value: Ident = input.parse()?;
                    if value != "layers" {
                        return Err(syn::Error::new(
                            value.span(),
                            "model!: `schedule = layers` is the one schedule named (layer by layer; `ram = BYTES` asks for the fastest plan within a budget, and neither for the default plan)",
                        ));
                    }
                    Goal::Layers
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        "model!: expected `ram = BYTES` or `schedule = layers`",
                    ))
                }
            };
            input.parse::<Option<Token![,]>>()?;
        }
        Ok(ModelInput {
            vis,
            name,
            path,
            goal,
        })
    }
}

/// `model!` on tokens: the model's struct, module and `impl`, or a
/// `compile_error!` at the path naming what is wrong.
///
/// The path is relative to the calling crate's `CARGO_MANIFEST_DIR`; one
/// that starts with `./` or `../` is relative to the directory of the file
/// that calls the macro (`caller`), as `include_bytes!` reads it.
pub(crate) fn model_impl(
    krate: &TokenStream2,
    input: TokenStream2,
    caller: Option<&Path>,
) -> syn::Result<TokenStream2> {
    let ModelInput {
        vis,
        name,
        path,
        goal,
    } = syn::parse2(input)?;
    let fail = |message: String| syn::Error::new(path.span(), message);
    let file = path.value();
    let base = if file.starts_with("./") || file.starts_with("../") {
        caller.and_then(Path::parent).map(Path::to_path_buf).ok_or_else(|| {
            fail("model!: the calling file's directory is not known for a path starting with ./ or ../".into())
        })?
    } else {
        std::env::var_os("CARGO_MANIFEST_DIR")
            .map(std::path::PathBuf::from)
            .ok_or_else(|| {
                fail("model!: CARGO_MANIFEST_DIR is not set (run through cargo)".into())
            })?
    };
    // absolute, as `include_bytes!` below reads a relative path from the
    // calling file's directory, not from where this process reads it
    let full = base.join(&file);
    let full = match std::env::current_dir() {
        Ok(dir) => dir.join(full),
        Err(_) => full,
    };
    let bytes = std::fs::read(&full)
        .map_err(|e| fail(format!("model!: cannot read {}: {e}", full.display())))?;
    let model = Model::parse(&bytes).map_err(|e| fail(format!("model!: {file}: {e}")))?;
    check_with_the_interpreter(model).map_err(|e| fail(format!("model!: {file}: {e}")))?;
    let module = format_ident!("{}", snake_case(&name.to_string()));
    let full_path = full.display().to_string();
    // the typed layers where they cover the model (its code and RAM as
    // they were), else the plan's steps
    if typed_layers_cover(&model) {
        // a RAM budget no schedule meets is the error, not a reason to
        // try the step writer (which runs layer by layer)
        let schedule = match goal {
            Goal::Ram(_) => Some(
                Schedule::search(&model, goal).map_err(|e| fail(format!("model!: {file}: {e}")))?,
            ),
            _ => None,
        };
        let mut writer = Writer::new(krate, model, module.clone());
        writer.goal = goal;
        writer.schedule = schedule;
        if writer.write_all().is_ok() {
            return Ok(writer.finish(&vis, &name, &full_path));
        }
    }
    step_writer::write(krate, model, goal, &vis, &name, &module, &full_path)
        .map_err(|e| fail(format!("model!: {file}: {e}")))
}

/// Whether the typed layers may cover `model`: one input and one output,
/// every op's registry row naming a typed layer
/// (`shapecheck_tflite::OpRow::typed_layer`), every activation (a tensor without
/// constant data) int8 or f32. `Writer` decides the rest (a layer's own
/// operand types); a model it refuses is written by `step_writer`.
fn typed_layers_cover(model: &Model<'_>) -> bool {
    let activations_int8_or_f32 = model
        .tensors()
        .filter(|t| t.data().is_empty())
        .all(|t| matches!(t.dtype(), TensorType::Int8 | TensorType::Float32));
    model.inputs().len() == 1
        && model.outputs().len() == 1
        && model
            .operators()
            .all(|op| op_row(op.op()).is_some_and(|row| row.typed_layer.is_some()))
        && activations_int8_or_f32
}

/// Prepares every operator as the interpreter would run it: any operand it
/// would refuse is the interpreter's error.
fn check_with_the_interpreter(model: Model<'_>) -> Result<(), String> {
    let sizes = Interpreter::arena_sizes(&model).map_err(|e| e.to_string())?;
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
    Interpreter::new(model, arena, Arithmetic::Micro)
        .map(|_| ())
        .map_err(|e| with_the_fix_as_a_note(&e))
}

/// The interpreter's message, and for an error naming what kind of file
/// the model is (a hybrid or a float16-weight export) its fix on a line
/// of its own, as a note.
fn with_the_fix_as_a_note(e: &shapecheck_tflite::TfliteError) -> String {
    let message = e.to_string();
    match e.export_fix() {
        Some(fix) => {
            let rule = message
                .strip_suffix(fix)
                .and_then(|m| m.strip_suffix("; "))
                .unwrap_or(&message);
            format!("{rule}\n = note: {fix}")
        }
        None => message,
    }
}

/// Where a tensor's elements are while `predict` runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    /// the caller's input (borrowed)
    Input,
    /// the arena, from this offset
    Arena(usize),
    /// the output `predict` returns (a tensor of another element type
    /// than the arena's: a DEQUANTIZE's f32 output)
    Output,
}

/// A tensor of the model as `predict` holds it: the layer's output (or the
/// input) whose elements it is, seen through the RESHAPEs since.
#[derive(Clone)]
struct Var {
    place: Place,
    /// that tensor's shape
    base_dims: Vec<usize>,
    /// the shapes of the views taken of it, in order (RESHAPEs)
    views: Vec<Vec<usize>>,
    /// this tensor's shape
    dims: Vec<usize>,
}

/// One operand a layer reads: a tensor `predict` holds, seen as `rows`
/// if given (a fully connected layer's input as `[batches, depth]`).
struct Read {
    var: Var,
    rows: Option<Vec<usize>>,
}

/// What the model's code is made of, written operator by operator.
struct Writer<'k, 'm> {
    krate: &'k TokenStream2,
    /// the module of the constants
    module: Ident,
    model: Model<'m>,
    /// the module's items: constants of each layer
    statics: Vec<TokenStream2>,
    /// `predict`'s blocks, one per layer
    body: Vec<TokenStream2>,
    /// the arena's offset of each activation tensor (`plan::place`)
    offsets: HashMap<usize, usize>,
    /// the arena's elements
    arena_len: usize,
    /// the arena's element type
    element: TensorType,
    /// the model's input and output element types
    input_element: TensorType,
    output_element: TensorType,
    /// what each operator writes where, for the docs: (operator, shape, offset)
    written: Vec<(usize, Vec<usize>, usize)>,
    /// the model's output tensor
    output: Option<usize>,
    vars: HashMap<usize, Var>,
    /// the schedule asked for (`ram = N`, `schedule = layers`)
    goal: Goal,
    /// that schedule, when it was searched before the writer was made (a
    /// `ram = N` budget's, whose error comes first); else searched for
    /// the int8 arena when the writer places it
    schedule: Option<Schedule>,
    /// the liveness floor of the layer-by-layer schedule, in elements
    floor: usize,
    /// each activation's operators, from its writer to its last reader
    lives: HashMap<usize, (usize, usize)>,
    /// each streamed run's rings, for the docs: (run, operators,
    /// elements, offset)
    ring_docs: Vec<(usize, std::ops::Range<usize>, usize, usize)>,
    /// the `ADD`s and layers the schedule writes over an input
    in_place: Vec<InPlace>,
    /// the layers among them, with their bands and scratch
    layers_in_place: Vec<LayerInPlace>,
    /// each layer in place's scratch offset, by operator
    scratch_at: HashMap<usize, usize>,
    /// each layer in place's scratch, for the docs: (operator, elements,
    /// offset)
    scratch_docs: Vec<(usize, usize, usize)>,
}

impl<'k, 'm> Writer<'k, 'm> {
    fn new(krate: &'k TokenStream2, model: Model<'m>, module: Ident) -> Self {
        Writer {
            krate,
            module,
            model,
            statics: Vec::new(),
            body: Vec::new(),
            offsets: HashMap::new(),
            arena_len: 0,
            element: TensorType::Int8,
            input_element: TensorType::Int8,
            output_element: TensorType::Int8,
            written: Vec::new(),
            output: None,
            vars: HashMap::new(),
            goal: Goal::Layers,
            schedule: None,
            floor: 0,
            lives: HashMap::new(),
            ring_docs: Vec::new(),
            in_place: Vec::new(),
            layers_in_place: Vec::new(),
            scratch_at: HashMap::new(),
            scratch_docs: Vec::new(),
        }
    }

    fn tensor(
        &self,
        index: Option<usize>,
        what: &str,
        op: &Operator<'_>,
    ) -> Result<ModelTensor<'m>, String> {
        index
            .and_then(|i| self.model.tensor(i))
            .ok_or_else(|| format!("operator {} ({}) has no {what}", op.index(), op.op()))
    }

    fn var(&self, t: &ModelTensor<'_>) -> Result<Var, String> {
        self.vars.get(&t.index()).cloned().ok_or_else(|| {
            format!(
                "tensor {} \"{}\" is read before an operator writes it",
                t.index(),
                t.name()
            )
        })
    }

    /// Writes every operator, after the model's one input.
    fn write_all(&mut self) -> Result<(), String> {
        if self.model.inputs().len() != 1 || self.model.outputs().len() != 1 {
            return Err(format!(
                "a model of {} inputs and {} outputs: model! writes models of one input and one output",
                self.model.inputs().len(),
                self.model.outputs().len()
            ));
        }
        let input = self
            .model
            .input(0)
            .ok_or_else(|| "the model's input is not a tensor".to_string())?;
        let output = self
            .model
            .output(0)
            .ok_or_else(|| "the model's output is not a tensor".to_string())?;
        for (what, t) in [("input", &input), ("output", &output)] {
            if !matches!(t.dtype(), TensorType::Int8 | TensorType::Float32) {
                return Err(format!(
                    "the {what}, tensor {} \"{}\", is {}: model! writes int8 and float32 models",
                    t.index(),
                    t.name(),
                    t.dtype().name()
                ));
            }
        }
        self.input_element = input.dtype();
        self.output_element = output.dtype();
        // the arena holds int8 activations if the model has any (a float
        // input and output are then QUANTIZE's and DEQUANTIZE's), else f32
        let any_int8 = self
            .model
            .operators()
            .filter_map(|op| op.output(0).and_then(|o| self.model.tensor(o)))
            .any(|t| t.dtype() == TensorType::Int8);
        self.element = if any_int8 {
            TensorType::Int8
        } else {
            TensorType::Float32
        };
        let (tensors, lifetimes) = shapecheck_tflite::plan::activations(&self.model, self.element);
        self.floor = shapecheck_tflite::plan::liveness_floor(&lifetimes);
        // an int8 arena is scheduled (streamed runs, model/stream.rs); an
        // f32 one is layer by layer
        let mut runs: Vec<(usize, Run, usize)> = Vec::new();
        if self.element == TensorType::Int8 {
            let schedule = match self.schedule.take() {
                Some(schedule) => schedule,
                None => Schedule::search(&self.model, self.goal).map_err(|e| e.to_string())?,
            };
            self.arena_len = schedule.arena;
            for slot in &schedule.slots {
                match slot.holds {
                    Holds::Tensor(t) => {
                        self.offsets.insert(t, slot.offset);
                        self.lives
                            .insert(t, (slot.lifetime.first, slot.lifetime.last));
                    }
                    Holds::Rings(n) => {
                        if let Some(run) = schedule.runs.get(n) {
                            runs.push((n, run.clone(), slot.offset));
                        }
                    }
                    Holds::Scratch(op) => {
                        self.scratch_at.insert(op, slot.offset);
                    }
                    _ => return Err("the schedule holds a slot model! does not know".into()),
                }
            }
            // an ADD or a layer written over an input: its output at that
            // input's offset, the input live to the ADD, the output from it
            for add in &schedule.in_place {
                let at = *self
                    .offsets
                    .get(&add.over)
                    .ok_or("an in-place ADD's input has no place in the arena")?;
                let (first, last) = *self
                    .lives
                    .get(&add.over)
                    .ok_or("an in-place ADD's input has no lifetime")?;
                self.offsets.insert(add.output, at);
                self.lives.insert(add.over, (first, add.op));
                self.lives.insert(add.output, (add.op, last));
            }
            self.in_place = schedule.in_place.clone();
            self.layers_in_place = schedule.layers_in_place.clone();
        } else {
            let placement = shapecheck_tflite::plan::place(&lifetimes);
            self.arena_len = placement.size;
            self.lives = tensors
                .iter()
                .zip(&lifetimes)
                .map(|(&t, l)| (t, (l.first, l.last)))
                .collect();
            self.offsets = tensors.into_iter().zip(placement.offsets).collect();
        }
        self.output = Some(output.index());
        let input_dims = dims(&input)?;
        self.vars.insert(
            input.index(),
            Var {
                place: Place::Input,
                base_dims: input_dims.clone(),
                views: Vec::new(),
                dims: input_dims,
            },
        );
        let mut streamed_to = 0;
        for op in self.model.operators() {
            if op.index() < streamed_to {
                continue;
            }
            if let Some((n, run, at)) = runs.iter().find(|(_, r, _)| r.ops.start == op.index()) {
                self.stream_run(*n, run, *at)?;
                streamed_to = run.ops.end;
                continue;
            }
            let output = self.tensor(op.output(0), "output", &op)?;
            let at = |message: String| {
                format!(
                    "operator {} ({}), writing tensor {} \"{}\": {message}",
                    op.index(),
                    op.op(),
                    output.index(),
                    output.name()
                )
            };
            if let Some(o) = self.layers_in_place.iter().find(|o| o.op == op.index()) {
                self.layer_in_place(&op, *o).map_err(at)?;
                continue;
            }
            // check_with_the_interpreter has checked each operator against
            // its row of shapecheck_tflite::OPS (the op's shape rule
            // included): every op below has a row
            let layer = op_row(op.op()).and_then(|row| row.typed_layer);
            match (layer, op.options()) {
                (Some(TypedLayer::FullyConnected), Options::FullyConnected(o)) => {
                    self.fully_connected(&op, &output, o).map_err(at)?
                }
                (Some(TypedLayer::Conv2d), Options::Conv2d(o)) => {
                    self.conv_2d(&op, &output, o).map_err(at)?
                }
                (Some(TypedLayer::DepthwiseConv2d), Options::DepthwiseConv2d(o)) => {
                    self.depthwise_conv(&op, &output, o).map_err(at)?
                }
                (Some(TypedLayer::AveragePool2d), Options::Pool2d(o)) => {
                    self.pool(&op, &output, o, false).map_err(at)?
                }
                (Some(TypedLayer::MaxPool2d), Options::Pool2d(o)) => {
                    self.pool(&op, &output, o, true).map_err(at)?
                }
                (Some(TypedLayer::Mean), _) => self.mean(&op, &output).map_err(at)?,
                (Some(TypedLayer::Add), Options::Add(o)) => {
                    self.add(&op, &output, o).map_err(at)?
                }
                (Some(TypedLayer::Pad), _) => self.pad(&op, &output).map_err(at)?,
                (Some(TypedLayer::Logistic), _) => self.logistic(&op, &output).map_err(at)?,
                (Some(TypedLayer::Quantize), _) => self.quantize(&op, &output).map_err(at)?,
                (Some(TypedLayer::Dequantize), _) => self.dequantize(&op, &output).map_err(at)?,
                (Some(TypedLayer::Softmax), Options::Softmax(o)) => {
                    self.softmax(&op, &output, o.beta).map_err(at)?
                }
                (Some(TypedLayer::Reshape), _) => self.reshape(&op, &output).map_err(at)?,
                _ => return Err(at("shapecheck's layers do not cover this op".into())),
            }
        }
        Ok(())
    }

    /// The type of a tensor of `dims` of element type `element`.
    fn tensor_type(&self, element: TensorType, dims: &[usize]) -> TokenStream2 {
        let krate = self.krate;
        let element = element_type(element);
        let dims = dims.iter().map(|&d| Literal::usize_unsuffixed(d));
        quote!(#krate::Tensor<#element, #krate::shape![#(#dims),*]>)
    }

    fn bytes_of(element: TensorType) -> usize {
        match element {
            TensorType::Float32 => 4,
            _ => 1,
        }
    }

    /// A read operand of `op`: tensor `t` as `predict` holds it.
    fn read(&self, t: &ModelTensor<'_>) -> Result<Read, String> {
        Ok(Read {
            var: self.var(t)?,
            rows: None,
        })
    }

    /// Writes one layer: its operands `reads`, each read from where it is
    /// (the caller's input, or the arena at its offset) and seen through
    /// its views; its output written at its offset in the arena (or, for a
    /// DEQUANTIZE's f32 output, into the output `predict` returns). `call`
    /// makes the `_into` call from the operands' variables and the
    /// output's.
    fn layer(
        &mut self,
        op: &Operator<'_>,
        reads: Vec<Read>,
        output: &ModelTensor<'_>,
        call: impl FnOnce(&[Ident], &Ident) -> TokenStream2,
    ) -> Result<(), String> {
        let krate = self.krate;
        let out_dims = dims(output)?;
        let y_shape = shape_tokens(krate, &out_dims);
        let place = match self.offsets.get(&output.index()) {
            Some(&at) => Place::Arena(at),
            None if Some(output.index()) == self.output => Place::Output,
            None => {
                return Err(format!(
                    "its output, tensor {}, is of neither the arena's type nor the model's output",
                    output.index()
                ))
            }
        };
        let xs: Vec<Ident> = (0..reads.len()).map(|k| format_ident!("x{}", k)).collect();
        let y = format_ident!("y");
        // the operands in the arena, read through one call with the write
        let in_arena: Vec<(usize, &Read)> = reads
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.var.place, Place::Arena(_)))
            .collect();
        let mut lines = Vec::new();
        let arena_shape = |r: &Read| {
            let s = shape_tokens(krate, &r.var.base_dims);
            let at = match r.var.place {
                Place::Arena(at) => at,
                _ => 0,
            };
            let at = Literal::usize_unsuffixed(at);
            (s, at)
        };
        match place {
            Place::Arena(at) => {
                let ya = Literal::usize_unsuffixed(at);
                match in_arena.as_slice() {
                    [] => lines.push(quote!(let mut out = arena.write::<#y_shape, #ya>();)),
                    [(k, r)] => {
                        let (s, a) = arena_shape(r);
                        let x = &xs[*k];
                        lines.push(quote!(let (#x, mut out) = arena.read_write::<#s, #a, #y_shape, #ya>();));
                    }
                    [(k1, r1), (k2, r2)] => {
                        let ((s1, a1), (s2, a2)) = (arena_shape(r1), arena_shape(r2));
                        let (x1, x2) = (&xs[*k1], &xs[*k2]);
                        lines.push(quote!(let (#x1, #x2, mut out) = arena.read2_write::<#s1, #a1, #s2, #a2, #y_shape, #ya>();));
                    }
                    _ => return Err("it reads more than two activations".into()),
                }
                lines.push(quote!(let #y = &mut out;));
            }
            _ => {
                lines.push(quote!(let #y = &mut output;));
                for (k, r) in &in_arena {
                    let (s, a) = arena_shape(r);
                    let x = &xs[*k];
                    lines.push(quote!(let #x = arena.read::<#s, #a>();));
                }
            }
        }
        for (k, r) in reads.iter().enumerate() {
            let x = &xs[k];
            let views: Vec<TokenStream2> = r
                .var
                .views
                .iter()
                .chain(r.rows.iter())
                .map(|d| {
                    let shape = shape_tokens(krate, d);
                    quote!(.reshape::<#shape>())
                })
                .collect();
            match r.var.place {
                Place::Input => lines.push(quote!(let #x = input #(#views)*;)),
                Place::Arena(_) if !views.is_empty() => lines.push(quote!(let #x = #x #(#views)*;)),
                Place::Arena(_) => {}
                Place::Output => {
                    return Err("it reads the model's output, which model! writes last".into())
                }
            }
        }
        let call = call(&xs, &y);
        self.body.push(quote! {{
            #(#lines)*
            #call;
        }});
        if let Place::Arena(at) = place {
            self.written.push((op.index(), out_dims.clone(), at));
        }
        self.vars.insert(
            output.index(),
            Var {
                place,
                base_dims: out_dims.clone(),
                views: Vec::new(),
                dims: out_dims,
            },
        );
        Ok(())
    }

    fn fully_connected(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::FullyConnectedOptions,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let weights = self.tensor(op.input(1), "weights", op)?;
        let bias = op.input(2).and_then(|i| self.model.tensor(i));
        let source = self.var(&input)?;
        let (units, depth) = match dims(&weights)?.as_slice() {
            &[units, depth] => (units, depth),
            _ => return Err("its weights are not [out, in]".into()),
        };
        let batches = source.dims.iter().product::<usize>() / depth.max(1);
        if dims(output)? != [batches, units] {
            return Err(format!(
                "its output's shape {:?} is not [batches, units] = [{batches}, {units}] (keep_num_dims is not covered)",
                dims(output)?
            ));
        }
        // a wider input is read as rows of `depth` (TFLite does the same)
        let rows = (source.dims != [batches, depth]).then(|| vec![batches, depth]);
        let i = op.index();
        let layer = format_ident!("LAYER_{}", i);
        let weights_name = format_ident!("LAYER_{}_WEIGHTS", i);
        let o = dim_type(krate, units);
        let k = dim_type(krate, depth);
        let weights_doc = doc(&format!(
            "Operator {i}'s weights, tensor \"{}\".",
            weights.name()
        ));
        let layer_doc = doc(&format!(
            "Operator {i}: FULLY_CONNECTED, writing \"{}\" ({options:?}).",
            output.name()
        ));
        let (function, layer_item) = if input.dtype() == TensorType::Float32 {
            let values = weights
                .data_as::<f32>()
                .ok_or("its weights are not float32")?;
            let values = float_literals(values.iter())?;
            let w_type = array_type(quote!(f32), &[units, depth]);
            let w_value = nested(&values, &[units, depth]);
            let bias = match bias {
                Some(b) => {
                    let values = b.data_as::<f32>().ok_or("its bias is not float32")?;
                    let values = float_literals(values.iter())?;
                    let name = format_ident!("LAYER_{}_BIAS", i);
                    let n = Literal::usize_unsuffixed(values.len());
                    self.statics.push(quote! {
                        #[doc = "The bias of the layer below."]
                        pub static #name: [f32; #n] = [#(#values),*];
                    });
                    quote!(Some(&#name))
                }
                None => quote!(None),
            };
            let (lo, hi) =
                activation_range_f32(options.fused_activation).map_err(|e| e.to_string())?;
            let (lo, hi) = (float_bound(lo), float_bound(hi));
            self.statics.push(quote! {
                #weights_doc
                pub static #weights_name: #w_type = #w_value;
            });
            (
                format_ident!("fully_connected_f32_into"),
                quote! {
                    #layer_doc
                    pub static #layer: #krate::ops::layers::FullyConnectedF32<'static, #o, #k> =
                        #krate::ops::layers::FullyConnectedF32 {
                            weights: &#weights_name,
                            bias: #bias,
                            output_min: #lo,
                            output_max: #hi,
                        };
                },
            )
        } else {
            let values = weights.data_as::<i8>().ok_or("its weights are not int8")?;
            let values: Vec<Literal> = values
                .iter()
                .map(|v| Literal::i64_unsuffixed(v.into()))
                .collect();
            let w_type = array_type(quote!(i8), &[units, depth]);
            let w_value = nested(&values, &[units, depth]);
            let bias = self.int_bias(i, bias)?;
            let (input_scale, input_zero_point) = per_tensor(&input)?;
            let (output_scale, output_zero_point) = per_tensor(output)?;
            let q = weights
                .quantization()
                .ok_or("its weights are not quantized")?;
            let weights_zero_point = q.zero_point(0).unwrap_or(0);
            let multipliers = self.multipliers(
                i,
                units,
                q.scales().iter().collect(),
                input_scale,
                output_scale,
            )?;
            let (lo, hi) =
                activation_range_int8(options.fused_activation, output_scale, output_zero_point)
                    .map_err(|e| e.to_string())?;
            let clamp = clamp_int8(krate, op, lo, hi);
            let [input_zero_point, weights_zero_point, output_zero_point] = [
                i64::from(input_zero_point),
                weights_zero_point,
                i64::from(output_zero_point),
            ]
            .map(Literal::i64_unsuffixed);
            self.statics.push(quote! {
                #weights_doc
                pub static #weights_name: #w_type = #w_value;
            });
            (
                format_ident!("fully_connected_int8_into"),
                quote! {
                    #layer_doc
                    pub static #layer: #krate::ops::layers::FullyConnectedInt8<'static, #o, #k> =
                        #krate::ops::layers::FullyConnectedInt8 {
                            weights: &#weights_name,
                            bias: #bias,
                            input_zero_point: #input_zero_point,
                            weights_zero_point: #weights_zero_point,
                            output_zero_point: #output_zero_point,
                            multipliers: #multipliers,
                            clamp: #clamp,
                            // TFLite Micro's arithmetic: gemmlowp's two roundings
                            rounding: #krate::tflite::Rounding::Double,
                        };
                },
            )
        };
        self.statics.push(layer_item);
        self.layer(op, vec![Read { var: source, rows }], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::#function(&#x, &#module::#layer, #y))
        })
    }

    /// A layer's int32 bias as a static, or `None`.
    fn int_bias(
        &mut self,
        i: usize,
        bias: Option<ModelTensor<'_>>,
    ) -> Result<TokenStream2, String> {
        let Some(b) = bias else {
            return Ok(quote!(None));
        };
        let values: Vec<i32> = b
            .data_as::<i32>()
            .ok_or("its bias is not int32")?
            .iter()
            .collect();
        let what = format!("Operator {i}'s bias, tensor \"{}\".", b.name());
        Ok(self.bias_static(i, &values, &what))
    }

    /// Operator `i`'s bias `values` as a `static` (`LAYER_{i}_BIAS`, its
    /// docs `what`), and the layer's field that names it.
    fn bias_static(&mut self, i: usize, values: &[i32], what: &str) -> TokenStream2 {
        let values: Vec<Literal> = values
            .iter()
            .map(|&v| Literal::i64_unsuffixed(v.into()))
            .collect();
        let name = format_ident!("LAYER_{}_BIAS", i);
        let n = Literal::usize_unsuffixed(values.len());
        let d = doc(what);
        self.statics.push(quote! {
            #d
            pub static #name: [i32; #n] = [#(#values),*];
        });
        quote!(Some(&#name))
    }

    /// The layer's multipliers, `input_scale · scale / output_scale` for
    /// each of the weights' (or filter's) scales.
    fn multipliers(
        &mut self,
        i: usize,
        channels: usize,
        scales: Vec<f32>,
        input_scale: f32,
        output_scale: f32,
    ) -> Result<TokenStream2, String> {
        let krate = self.krate;
        let each = scales
            .iter()
            .map(|&s| {
                fully_connected_multiplier(input_scale, s, output_scale)
                    .map(|m| {
                        let (m, s) = (
                            Literal::i32_unsuffixed(m.multiplier()),
                            Literal::i32_unsuffixed(m.shift()),
                        );
                        quote!(#krate::tflite::QuantizedMultiplier::from_parts(#m, #s))
                    })
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, _>>()?;
        match each.as_slice() {
            [one] => Ok(quote!(#krate::ops::layers::Multipliers::PerTensor(#one))),
            many if many.len() == channels => {
                let name = format_ident!("LAYER_{}_MULTIPLIERS", i);
                let channels = Literal::usize_unsuffixed(channels);
                self.statics.push(quote! {
                    #[doc = "The per-channel multipliers of the layer below (input scale · channel scale / output scale)."]
                    pub static #name: [#krate::tflite::QuantizedMultiplier; #channels] = [#(#many),*];
                });
                Ok(quote!(#krate::ops::layers::Multipliers::PerChannel(&#name)))
            }
            _ => Err("its scales are neither one nor one per channel".into()),
        }
    }

    /// A constant int8 tensor (a filter, an operand of ADD) as a `static`
    /// nested array of `dims`, named `name`; returns its ident.
    fn int8_static(
        &mut self,
        name: Ident,
        t: &ModelTensor<'_>,
        dims: &[usize],
        what: &str,
    ) -> Result<Ident, String> {
        let values = t
            .data_as::<i8>()
            .ok_or_else(|| format!("its {what} is not int8"))?;
        let values: Vec<Literal> = values
            .iter()
            .map(|v| Literal::i64_unsuffixed(v.into()))
            .collect();
        let ty = array_type(quote!(i8), dims);
        let value = nested(&values, dims);
        let d = doc(&format!("The {what}, tensor \"{}\", {dims:?}.", t.name()));
        self.statics.push(quote! {
            #d
            pub static #name: #ty = #value;
        });
        Ok(name)
    }

    /// A convolution's requantization: its bias, multipliers (one per
    /// `channels` or one), zero points and clamp, as the layer's fields.
    /// With `fold` (a 1×1 convolution's filter, `channels` rows), the input
    /// zero point folded into the bias and written as 0, as its streamed
    /// stage is ([`stream::fold_zero_point`]): each call then sums no
    /// weights.
    fn conv_quantization(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        channels: usize,
        activation: shapecheck_tflite::Activation,
        fold: Option<&ModelTensor<'_>>,
    ) -> Result<TokenStream2, String> {
        let i = op.index();
        let input = self.tensor(op.input(0), "input", op)?;
        let filter = self.tensor(op.input(1), "filter", op)?;
        let bias = op.input(2).and_then(|k| self.model.tensor(k));
        let (input_scale, input_zero_point) = per_tensor(&input)?;
        let (bias, input_zero_point) = match fold {
            Some(filter) if input_zero_point != 0 => {
                let weights: Vec<i8> = filter
                    .data_as::<i8>()
                    .ok_or("its filter is not int8")?
                    .iter()
                    .collect();
                let values: Option<Vec<i32>> = match &bias {
                    Some(b) => Some(
                        b.data_as::<i32>()
                            .ok_or("its bias is not int32")?
                            .iter()
                            .collect(),
                    ),
                    None => None,
                };
                let folded = stream::fold_zero_point(
                    &weights,
                    values.as_deref(),
                    channels,
                    input_zero_point,
                );
                let what = format!(
                    "Operator {i}'s bias with its input zero point ({input_zero_point}) folded in (bias − zero point · Σ w per channel), its zero point written as 0: a 1×1 filter reads no padding."
                );
                (self.bias_static(i, &folded, &what), 0)
            }
            _ => (self.int_bias(i, bias)?, input_zero_point),
        };
        let (output_scale, output_zero_point) = per_tensor(output)?;
        let q = filter.quantization().ok_or("its filter is not quantized")?;
        let multipliers = self.multipliers(
            i,
            channels,
            q.scales().iter().collect(),
            input_scale,
            output_scale,
        )?;
        let (lo, hi) = activation_range_int8(activation, output_scale, output_zero_point)
            .map_err(|e| e.to_string())?;
        let clamp = clamp_int8(self.krate, op, lo, hi);
        let [input_zero_point, output_zero_point] =
            [i64::from(input_zero_point), i64::from(output_zero_point)]
                .map(Literal::i64_unsuffixed);
        Ok(quote! {
            bias: #bias,
            input_zero_point: #input_zero_point,
            output_zero_point: #output_zero_point,
            multipliers: #multipliers,
            clamp: #clamp,
        })
    }

    /// The padding type `Same<SH, SW, DH, DW>` / `Valid<..>` and its value.
    fn padding(
        &self,
        padding: Padding,
        strides: (i32, i32),
        dilations: (i32, i32),
    ) -> (TokenStream2, TokenStream2) {
        let krate = self.krate;
        let lit = |s: i32| Literal::usize_unsuffixed(usize::try_from(s).unwrap_or(0));
        let (sh, sw, dh, dw) = (
            lit(strides.0),
            lit(strides.1),
            lit(dilations.0),
            lit(dilations.1),
        );
        let name = if matches!(padding, Padding::Same) {
            quote!(Same)
        } else {
            quote!(Valid)
        };
        (
            quote!(#krate::ops::layers::#name<#sh, #sw, #dh, #dw>),
            quote!(#krate::ops::layers::#name),
        )
    }

    fn depthwise_conv(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::DepthwiseConv2dOptions,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let filter = self.tensor(op.input(1), "filter", op)?;
        let (kh, kw, c) = match dims(&filter)?.as_slice() {
            &[1, kh, kw, c] => (kh, kw, c),
            _ => return Err("its filter is not [1, kh, kw, c]".into()),
        };
        let i = op.index();
        let filter_name = self.int8_static(
            format_ident!("LAYER_{}_FILTER", i),
            &filter,
            &[kh, kw, c],
            "filter",
        )?;
        let fields = self.conv_quantization(op, output, c, options.fused_activation, None)?;
        let (p_type, p_value) = self.padding(
            options.padding,
            (options.stride_h, options.stride_w),
            (options.dilation_h, options.dilation_w),
        );
        let [kh_t, kw_t, c_t] = [kh, kw, c].map(|d| dim_type(krate, d));
        // the depth multiplier: the filter's channels over the input's
        let input_channels = dims(&input)?.last().copied().unwrap_or(0);
        let m = c
            .checked_div(input_channels)
            .filter(|m| m * input_channels == c)
            .ok_or("its filter's channels are not a multiple of its input's")?;
        let m_t = dim_type(krate, m);
        let m_value = if m == 1 {
            quote!(#krate::One)
        } else {
            quote!(#krate::Dim)
        };
        let layer = format_ident!("LAYER_{}", i);
        let layer_doc = doc(&format!(
            "Operator {i}: DEPTHWISE_CONV_2D, writing \"{}\" ({options:?}).",
            output.name()
        ));
        self.statics.push(quote! {
            #layer_doc
            pub static #layer: #krate::ops::layers::DepthwiseConvInt8<'static, #kh_t, #kw_t, #c_t, #p_type, #m_t> =
                #krate::ops::layers::DepthwiseConvInt8 {
                    filter: &#filter_name,
                    depth_multiplier: #m_value,
                    padding: #p_value,
                    #fields
                };
        });
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::depthwise_conv_int8_into(&#x, &#module::#layer, #y))
        })
    }

    fn conv_2d(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::Conv2dOptions,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let filter = self.tensor(op.input(1), "filter", op)?;
        let (o, kh, kw, ci) = match dims(&filter)?.as_slice() {
            &[o, kh, kw, ci] => (o, kh, kw, ci),
            _ => return Err("its filter is not [o, kh, kw, c]".into()),
        };
        let i = op.index();
        let filter_name = self.int8_static(
            format_ident!("LAYER_{}_FILTER", i),
            &filter,
            &[o, kh, kw, ci],
            "filter",
        )?;
        // a 1×1 filter reads no padding: its zero point folded into its bias
        let fold = ((kh, kw) == (1, 1)).then_some(&filter);
        let fields = self.conv_quantization(op, output, o, options.fused_activation, fold)?;
        let (p_type, p_value) = self.padding(
            options.padding,
            (options.stride_h, options.stride_w),
            (options.dilation_h, options.dilation_w),
        );
        let [o_t, kh_t, kw_t, ci_t] = [o, kh, kw, ci].map(|d| dim_type(krate, d));
        let layer = format_ident!("LAYER_{}", i);
        let layer_doc = doc(&format!(
            "Operator {i}: CONV_2D, writing \"{}\" ({options:?}).",
            output.name()
        ));
        self.statics.push(quote! {
            #layer_doc
            pub static #layer: #krate::ops::layers::Conv2dInt8<'static, #o_t, #kh_t, #kw_t, #ci_t, #p_type> =
                #krate::ops::layers::Conv2dInt8 {
                    filter: &#filter_name,
                    padding: #p_value,
                    #fields
                };
        });
        // its channel pairs set up once, in flash (each call then costs
        // its pixels alone), where the DSP loops take them
        let pairs = self.conv_pairs(op);
        let source = self.read(&input)?;
        if pairs.is_empty() {
            return self.layer(op, vec![source], output, |x, y| {
                let x = &x[0];
                quote!(#krate::ops::layers::conv_2d_int8_into(&#x, &#module::#layer, #y))
            });
        }
        let pairs_name = format_ident!("LAYER_{}_PAIRS", i);
        let pairs_doc = doc(&format!(
            "Operator {i}'s channel pairs, set up when the program was built (`conv_prepare`'s): {} pairs of output channels.",
            pairs.len()
        ));
        let values = pairs.iter().map(|p| stream::pair_tokens(krate, p));
        let len = Literal::usize_unsuffixed(pairs.len());
        self.statics.push(quote! {
            #pairs_doc
            pub static #pairs_name: [#krate::tflite::ConvPairStage; #len] = [#(#values),*];
        });
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::conv_2d_int8_prepared_into(&#x, &#module::#layer, &#module::#pairs_name, #y))
        })
    }

    fn pool(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::Pool2dOptions,
        max: bool,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let (scale, zero_point) = per_tensor(output)?;
        let (lo, hi) = activation_range_int8(options.fused_activation, scale, zero_point)
            .map_err(|e| e.to_string())?;
        let clamp = clamp_int8(krate, op, lo, hi);
        let size = |v: i32| usize::try_from(v).unwrap_or(0);
        let [kh_t, kw_t] =
            [size(options.filter_height), size(options.filter_width)].map(|d| dim_type(krate, d));
        let (p_type, p_value) = self.padding(
            options.padding,
            (options.stride_h, options.stride_w),
            (1, 1),
        );
        let i = op.index();
        let layer = format_ident!("LAYER_{}", i);
        let layer_doc = doc(&format!(
            "Operator {i}: {}, writing \"{}\" ({options:?}).",
            op.op(),
            output.name()
        ));
        self.statics.push(quote! {
            #layer_doc
            pub static #layer: #krate::ops::layers::Pool2d<#kh_t, #kw_t, #p_type> =
                #krate::ops::layers::Pool2d::new(#p_value, #clamp);
        });
        let function = if max {
            format_ident!("max_pool_int8_into")
        } else {
            format_ident!("average_pool_int8_into")
        };
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::#function(&#x, &#module::#layer, #y))
        })
    }

    fn mean(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let (h, w) = match dims(&input)?.as_slice() {
            &[_, h, w, _] => (h, w),
            _ => return Err("its input is not [b, h, w, c]".into()),
        };
        let (input_scale, input_zero_point) = per_tensor(&input)?;
        let (output_scale, output_zero_point) = per_tensor(output)?;
        let params = mean_params(
            input_scale,
            input_zero_point,
            output_scale,
            output_zero_point,
            h * w,
        )
        .map_err(|e| e.to_string())?;
        let i = op.index();
        let name = format_ident!("LAYER_{}", i);
        let params = mean_params_tokens(krate, &params);
        let d = doc(&format!(
            "Operator {i}: MEAN over H and W, writing \"{}\".",
            output.name()
        ));
        let [h_t, w_t] = [h, w].map(|d| dim_type(krate, d));
        let checked = checked_const(
            quote!(#krate::ops::layers::MeanInt8::new(#params)),
            &format!(
                "model!: operator {i} (MEAN): its count of elements is not the input's height · width ({h} · {w})"
            ),
        );
        self.statics.push(quote! {
            #d
            pub static #name: #krate::ops::layers::MeanInt8<#h_t, #w_t> = #checked;
        });
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::mean_int8_into(&#x, &#module::#name, #y))
        })
    }

    fn add(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::AddOptions,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let a = self.tensor(op.input(0), "input1", op)?;
        let b = self.tensor(op.input(1), "input2", op)?;
        let (sa, za) = per_tensor(&a)?;
        let (sb, zb) = per_tensor(&b)?;
        let (so, zo) = per_tensor(output)?;
        let (lo, hi) =
            activation_range_int8(options.fused_activation, so, zo).map_err(|e| e.to_string())?;
        let params = add_params(sa, za, sb, zb, so, zo, lo, hi).map_err(|e| e.to_string())?;
        let i = op.index();
        let name = format_ident!("LAYER_{}", i);
        let params = add_params_tokens(krate, &params);
        let d = doc(&format!(
            "Operator {i}: ADD, writing \"{}\" ({options:?}).",
            output.name()
        ));
        let checked = checked_const(
            quote!(#krate::ops::layers::AddInt8::new(#params)),
            &format!(
                "model!: operator {i} (ADD): its parameters fail `AddParams::check` (a zero point or clamp end outside int8, an empty clamp, or a multiplier not below 1)"
            ),
        );
        self.statics.push(quote! {
            #d
            pub static #name: #krate::ops::layers::AddInt8 = #checked;
        });
        if let Some(add) = self.in_place.iter().find(|a| a.op == i).copied() {
            return self.add_in_place(op, output, add, &a, &b);
        }
        // a constant operand is a tensor made from its static array
        let mut reads = Vec::new();
        let mut constants = Vec::new();
        for (k, t) in [(0usize, &a), (1, &b)] {
            if t.data().is_empty() {
                reads.push((k, self.read(t)?));
            } else {
                let d = dims(t)?;
                let c = self.int8_static(
                    format_ident!("LAYER_{}_INPUT{}", i, k + 1),
                    t,
                    &d,
                    "constant operand",
                )?;
                constants.push((k, c, shape_tokens(krate, &d)));
            }
        }
        let order: Vec<usize> = reads.iter().map(|(k, _)| *k).collect();
        let reads: Vec<Read> = reads.into_iter().map(|(_, r)| r).collect();
        self.layer(op, reads, output, |x, y| {
            let mut operands = [quote!(), quote!()];
            let mut setup = Vec::new();
            for (pos, &k) in order.iter().enumerate() {
                let v = &x[pos];
                operands[k] = quote!(&#v);
            }
            for (k, c, shape) in &constants {
                let v = format_ident!("c{}", k);
                setup.push(quote!(let #v = #krate::Tensor::<i8, #shape>::from_array(#module::#c);));
                operands[*k] = quote!(&#v);
            }
            let [oa, ob] = operands;
            quote! {
                #(#setup)*
                #krate::ops::layers::add_int8_into(#oa, #ob, &#module::#name, #y)
            }
        })
    }

    /// `ADD` operator `op` (its `LAYER_i` written) writing its output over
    /// input `add.operand` (the schedule's [`InPlace`]): the other input
    /// read and that one updated, through one `read_write` of the arena,
    /// which does not build when the two overlap.
    fn add_in_place(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        add: InPlace,
        a: &ModelTensor<'_>,
        b: &ModelTensor<'_>,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let name = format_ident!("LAYER_{}", op.index());
        let (target, other, over) = match add.operand {
            0 => (a, b, quote!(#krate::tflite::AddOver::Input1)),
            _ => (b, a, quote!(#krate::tflite::AddOver::Input2)),
        };
        let out_dims = dims(output)?;
        let target_var = self.var(target)?;
        let at = match target_var.place {
            Place::Arena(at) if target_var.views.is_empty() && target_var.base_dims == out_dims => {
                at
            }
            _ => {
                return Err(
                    "the input it writes over is not a whole tensor of its shape in the arena"
                        .into(),
                )
            }
        };
        if self.offsets.get(&output.index()) != Some(&at) {
            return Err("its output is not placed over the input it writes over".into());
        }
        let shape = shape_tokens(krate, &out_dims);
        let ya = Literal::usize_unsuffixed(at);
        let call =
            quote!(#krate::ops::layers::add_int8_in_place_into(&mut y, &x, #over, &#module::#name));
        let block = if !other.data().is_empty() {
            let d = dims(other)?;
            let c = self.int8_static(
                format_ident!("LAYER_{}_INPUT{}", op.index(), 2 - add.operand),
                other,
                &d,
                "constant operand",
            )?;
            quote! {{
                let x = #krate::Tensor::<i8, #shape>::from_array(#module::#c);
                let mut y = arena.write::<#shape, #ya>();
                #call;
            }}
        } else {
            let v = self.var(other)?;
            if v.dims != out_dims {
                return Err("its other input is not of its output's shape".into());
            }
            let views: Vec<TokenStream2> = v
                .views
                .iter()
                .map(|d| {
                    let s = shape_tokens(krate, d);
                    quote!(.reshape::<#s>())
                })
                .collect();
            match v.place {
                Place::Input => quote! {{
                    let x = input #(#views)*;
                    let mut y = arena.write::<#shape, #ya>();
                    #call;
                }},
                Place::Arena(xa) => {
                    let xs = shape_tokens(krate, &v.base_dims);
                    let xa = Literal::usize_unsuffixed(xa);
                    quote! {{
                        let (x, mut y) = arena.read_write::<#xs, #xa, #shape, #ya>();
                        let x = x #(#views)*;
                        #call;
                    }}
                }
                Place::Output => return Err("it reads the model's output".into()),
            }
        };
        self.body.push(block);
        self.wrote_in_arena(op.index(), output.index(), at, out_dims);
        Ok(())
    }

    /// Operator `op` has written tensor `output`, whole, of `dims`, at
    /// offset `at` of the arena: its line of the docs and its place for
    /// its readers.
    fn wrote_in_arena(&mut self, op: usize, output: usize, at: usize, dims: Vec<usize>) {
        self.written.push((op, dims.clone(), at));
        self.vars.insert(
            output,
            Var {
                place: Place::Arena(at),
                base_dims: dims.clone(),
                views: Vec::new(),
                dims,
            },
        );
    }

    fn pad(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let krate = self.krate;
        let input = self.tensor(op.input(0), "input", op)?;
        let paddings = self.tensor(op.input(1), "paddings", op)?;
        let values: Vec<usize> = paddings
            .data_as::<i32>()
            .ok_or("its paddings are not a constant int32 tensor")?
            .iter()
            .map(|v| usize::try_from(v).map_err(|_| "a padding is negative".to_string()))
            .collect::<Result<_, _>>()?;
        if values.len() != 8 {
            return Err("model! pads 4-D tensors (NHWC)".into());
        }
        let lits = values.iter().map(|&v| Literal::usize_unsuffixed(v));
        let (_, zero_point) = per_tensor(output)?;
        let value = Literal::i64_unsuffixed(i64::from(zero_point));
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::pad_int8_into(&#x, #krate::ops::layers::Paddings::<#(#lits),*>, #value, #y))
        })
    }

    fn logistic(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let (si, zi) = per_tensor(&input)?;
        let (so, zo) = per_tensor(output)?;
        let params = logistic_params(si, zi, so, zo).map_err(|e| e.to_string())?;
        let i = op.index();
        let name = format_ident!("LAYER_{}", i);
        let params = logistic_params_tokens(krate, &params);
        let d = doc(&format!(
            "Operator {i}: LOGISTIC, writing \"{}\".",
            output.name()
        ));
        let checked = checked_const(
            quote!(#krate::ops::layers::LogisticInt8::new(#params)),
            &format!(
                "model!: operator {i} (LOGISTIC): its parameters fail `LogisticParams::check` (an input zero point outside int8, a negative radius, or a multiplier's shift below 0)"
            ),
        );
        self.statics.push(quote! {
            #d
            pub static #name: #krate::ops::layers::LogisticInt8 = #checked;
        });
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::logistic_int8_into(&#x, &#module::#name, #y))
        })
    }

    fn quantize(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let krate = self.krate;
        let input = self.tensor(op.input(0), "input", op)?;
        let (scale, zero_point) = per_tensor(output)?;
        let scale = Literal::f32_unsuffixed(scale);
        let zero_point = Literal::i32_unsuffixed(zero_point);
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::quantize_int8_into(&#x, #scale, #zero_point, #y))
        })
    }

    fn dequantize(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let krate = self.krate;
        let input = self.tensor(op.input(0), "input", op)?;
        let (scale, zero_point) = per_tensor(&input)?;
        let scale = Literal::f32_unsuffixed(scale);
        let zero_point = Literal::i32_unsuffixed(zero_point);
        let source = self.read(&input)?;
        self.layer(op, vec![source], output, |x, y| {
            let x = &x[0];
            quote!(#krate::ops::layers::dequantize_int8_into(&#x, #scale, #zero_point, #y))
        })
    }

    fn softmax(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        beta: f32,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        let input = self.tensor(op.input(0), "input", op)?;
        let source = self.var(&input)?;
        if dims(output)? != source.dims {
            return Err("its output's shape is not its input's".into());
        }
        let (input_scale, _) = per_tensor(&input)?;
        let params = softmax_params(beta, input_scale).map_err(|e| e.to_string())?;
        let m = Literal::i32_unsuffixed(params.input_multiplier.multiplier());
        let s = Literal::i32_unsuffixed(params.input_multiplier.shift());
        let diff_min = Literal::i32_unsuffixed(params.diff_min);
        let i = op.index();
        let name = format_ident!("LAYER_{}", i);
        let d = doc(&format!(
            "Operator {i}: SOFTMAX, writing \"{}\" (beta {beta}, input scale {input_scale}).",
            output.name()
        ));
        self.statics.push(quote! {
            #d
            pub static #name: #krate::tflite::SoftmaxParams = #krate::tflite::SoftmaxParams {
                input_multiplier: #krate::tflite::QuantizedMultiplier::from_parts(#m, #s),
                diff_min: #diff_min,
            };
        });
        self.layer(
            op,
            vec![Read {
                var: source,
                rows: None,
            }],
            output,
            |x, y| {
                let x = &x[0];
                quote!(#krate::ops::layers::softmax_int8_into(&#x, &#module::#name, #y))
            },
        )
    }

    /// `RESHAPE`: a view of the input under the output's shape (nothing copied).
    fn reshape(&mut self, op: &Operator<'_>, output: &ModelTensor<'_>) -> Result<(), String> {
        let input = self.tensor(op.input(0), "input", op)?;
        let mut view = self.var(&input)?;
        let out_dims = dims(output)?;
        view.views.push(out_dims.clone());
        view.dims = out_dims;
        self.vars.insert(output.index(), view);
        Ok(())
    }

    /// The generated items.
    fn finish(self, vis: &Visibility, name: &Ident, path: &str) -> TokenStream2 {
        let krate = self.krate;
        let module = &self.module;
        let output = self.output.and_then(|i| self.vars.get(&i).cloned());
        let Some(output) = output.filter(|o| o.place != Place::Input) else {
            return syn::Error::new(
                Span::call_site(),
                "model!: the model's output is its input or a view of it; model! writes models whose output a layer computes",
            )
            .to_compile_error();
        };
        let input_dims = self
            .vars
            .values()
            .find(|v| v.place == Place::Input && v.views.is_empty())
            .map(|v| v.dims.clone())
            .unwrap_or_default();
        let input_type = self.tensor_type(self.input_element, &input_dims);
        let input_shape = shape_tokens(krate, &input_dims);
        let input_element = element_type(self.input_element);
        let element = element_type(self.element);
        let output_type = self.tensor_type(self.output_element, &output.dims);
        // an output in the arena is copied out into the tensor returned
        let copy_out = match output.place {
            Place::Arena(at) => {
                let s = shape_tokens(krate, &output.base_dims);
                let at = Literal::usize_unsuffixed(at);
                quote! {
                    output
                        .as_mut_slice()
                        .copy_from_slice(arena.read::<#s, #at>().as_slice());
                }
            }
            _ => TokenStream2::new(),
        };
        let element_bytes = Self::bytes_of(self.element);
        let n = self.arena_len;
        let ram_bytes = n * element_bytes;
        let input_bytes = input_dims.iter().product::<usize>() * Self::bytes_of(self.input_element);
        let output_bytes =
            output.dims.iter().product::<usize>() * Self::bytes_of(self.output_element);
        let name_of = |t: TensorType| {
            if t == TensorType::Float32 {
                "f32"
            } else {
                "i8"
            }
        };
        let element_name = name_of(self.element);
        let live = |(first, last): (usize, usize)| {
            if first == last {
                format!("live at operator {first}")
            } else {
                format!("live from operator {first} to {last}")
            }
        };
        let mut ram_doc = self
            .written
            .iter()
            .map(|(op, dims, at)| {
                let elements = dims.iter().product::<usize>();
                let lifetime = self
                    .model
                    .operator(*op)
                    .and_then(|o| o.output(0))
                    .and_then(|t| self.lives.get(&t))
                    .map(|&l| format!(", {}", live(l)))
                    .unwrap_or_default();
                let over = self
                    .in_place
                    .iter()
                    .find(|a| a.op == *op)
                    .map(|a| {
                        format!(
                            ", written over its input {} (tensor {}), which it is the last to read",
                            a.operand + 1,
                            a.over
                        )
                    })
                    .unwrap_or_default();
                doc(&format!(
                    "- operator {op}'s output {dims:?}: {element_name} {at}..{}{lifetime}{over}",
                    at + elements
                ))
            })
            .collect::<Vec<_>>();
        for (op, elements, at) in &self.scratch_docs {
            ram_doc.push(doc(&format!(
                "- operator {op}'s scratch (its input's channels or rows as it writes its output over them): {element_name} {at}..{}, {}",
                at + elements,
                live((*op, *op))
            )));
        }
        for (run, ops, elements, at) in &self.ring_docs {
            ram_doc.push(doc(&format!(
                "- streamed run {run}'s rings (operators {}..{}, their tensors never whole): {element_name} {at}..{}, {}",
                ops.start,
                ops.end,
                at + elements,
                live((ops.start, ops.end.saturating_sub(1)))
            )));
        }
        ram_doc.push(doc(&format!(
            "The liveness floor (layer by layer, each layer's input and output whole: no placement of that schedule takes less) is {} bytes; this plan's arena is {ram_bytes} bytes ({}).",
            self.floor * element_bytes,
            match self.goal {
                Goal::Layers => "layer by layer, `schedule = layers`".to_string(),
                Goal::Ram(n) => format!("`ram = {n}`: the fewest estimated instructions within it"),
                _ => "the default plan: the least RAM within 1.10x the layer-by-layer instructions, `shapecheck_tflite::schedule`".to_string(),
            }
        )));
        let n_lit = Literal::usize_unsuffixed(n);
        let body = &self.body;
        let statics = &self.statics;
        let struct_doc = doc(&format!(
            "The model of `{}`, written by `shapecheck::model!`: [`{name}::predict`] and [`{name}::RAM_BYTES`]; its constants are in [`{module}`].",
            Path::new(path).file_name().and_then(|f| f.to_str()).unwrap_or(path)
        ));
        let module_doc = doc(&format!(
            "The constants of [`{name}`]: its input and output types and quantization, its activation arena and each layer's `static` data."
        ));
        let predict_doc = doc(&format!(
            "Runs the model on `input` (borrowed), layer by layer (`shapecheck::ops::layers`, TFLite Micro's arithmetic): each layer writes its output in place, at its offset in a [`{module}::Arena`] (a local of {ram_bytes} bytes, [`{name}::RAM_BYTES`]); the output is copied out and returned. It cannot fail: every size is the types', and each layer's parameters were checked when the program was built (the `static`s of [`{module}`]). [`{name}::predict_in`] takes the arena from the caller (a `static`)."
        ));
        let predict_in_doc = doc(&format!(
            "[`{name}::predict`] in an arena the caller holds (a `static`, say): nothing of the model on the stack but the layers' frames."
        ));
        let input_doc = doc(&format!(
            "The model's input: {} {input_dims:?}, {input_bytes} bytes (the caller's: `predict` borrows it).",
            name_of(self.input_element)
        ));
        let output_doc = doc(&format!(
            "The model's output: {} {:?}, {output_bytes} bytes, returned by value.",
            name_of(self.output_element),
            output.dims
        ));
        let arena_doc = doc(&format!(
            "`predict`'s activations: one arena of {n} {element_name} ({ram_bytes} bytes; `shapecheck::ops::layers::Arena<{element_name}, {n}>`, its zeros `Arena::new()`, a `const fn`, the spelling of every `model!` module's arena), each tensor and each streamed run's rings at the offset the schedule gave it (two live at the same operator never overlap; a streamed run computes a band of rows at a time, `shapecheck_tflite::stream`, the tensors between its layers never whole, and can go below the liveness floor):"
        ));
        let ram_after = doc(&format!(
            "Not counted: the input and the output, the caller's ({input_bytes} and {output_bytes} bytes), the kernels' own locals (a few words each), and the weights, biases and multipliers, which are `static` (flash). A firmware checks its budget when it builds with [`assert_ram_fits`]: `const _: () = {module}::assert_ram_fits(BUDGET, core::mem::size_of::<{module}::Input>());`."
        ));
        let module_name = module.to_string();
        let assert_ram_fits = quote! {
            /// A firmware's RAM budget, checked when it builds: in a
            /// `const`, fails the build when the [`Arena`]
            /// (`size_of::<Arena>()`, [`RAM_BYTES`] here) and the
            /// `beside` bytes the firmware holds with it (its input, ...)
            /// exceed `budget` bytes, naming the numbers
            /// (`shapecheck::ops::layers::assert_arena_fits`).
            #[track_caller]
            pub const fn assert_ram_fits(budget: usize, beside: usize) {
                #krate::ops::layers::assert_arena_fits(
                    #module_name,
                    RAM_BYTES,
                    ::core::mem::size_of::<Arena>(),
                    beside,
                    budget,
                )
            }
        };
        // the model's quantization, for a firmware feeding real values:
        // the same constants and functions as a step-written module's
        let port = |t: Option<ModelTensor<'m>>, type_name: &str, dims: &[usize]| {
            t.map(|tensor| quant::Port {
                tensor,
                type_name: format_ident!("{type_name}"),
                dims: dims.to_vec(),
            })
        };
        let inputs: Vec<quant::Port<'_>> = port(self.model.input(0), "Input", &input_dims)
            .into_iter()
            .collect();
        let outputs: Vec<quant::Port<'_>> = port(self.model.output(0), "Output", &output.dims)
            .into_iter()
            .collect();
        let (quant_consts, quant_fns) = quant::write(krate, module, &inputs, &outputs);
        quote! {
            #struct_doc
            #vis struct #name;

            #module_doc
            #vis mod #module {
                #input_doc
                pub type Input = #input_type;
                #output_doc
                pub type Output = #output_type;
                #arena_doc
                #(#ram_doc)*
                pub type Arena = #krate::ops::layers::Arena<#element, #n_lit>;
                /// The bytes of `predict`'s activations: its [`Arena`], exactly.
                #[doc = ""]
                #ram_after
                pub const RAM_BYTES: usize = Arena::BYTES;
                #assert_ram_fits
                #quant_consts
                #(#statics)*
                // the file, so that cargo builds again when it changes
                const _: &[u8] = include_bytes!(#path);
            }

            impl #name {
                /// The bytes of `predict`'s activations, the module's
                /// `RAM_BYTES` (which lists them); the input and output
                /// are the caller's.
                pub const RAM_BYTES: usize = #module::RAM_BYTES;

                #predict_doc
                pub fn predict<S, B>(input: &#krate::Tensor<#input_element, S, B>) -> #module::Output
                where
                    S: #krate::ops::layers::ModelInput<#input_shape>,
                    B: #krate::storage::Storage<#input_element>,
                {
                    let mut arena = #module::Arena::new();
                    Self::predict_in(input, &mut arena)
                }

                #predict_in_doc
                pub fn predict_in<S, B>(
                    input: &#krate::Tensor<#input_element, S, B>,
                    arena: &mut #module::Arena,
                ) -> #module::Output
                where
                    S: #krate::ops::layers::ModelInput<#input_shape>,
                    B: #krate::storage::Storage<#input_element>,
                {
                    let input = S::as_input(input);
                    let mut output = #module::Output::zeros();
                    #(#body)*
                    #copy_out
                    output
                }

                #quant_fns
            }
        }
    }
}

/// `ClampInt8::new(lo, hi)` as a constant (in a `static`'s initializer):
/// an empty clamp fails the build, naming the operator.
fn clamp_int8(krate: &TokenStream2, op: &Operator<'_>, lo: i32, hi: i32) -> TokenStream2 {
    let message = format!(
        "model!: operator {} ({}): its clamp [{lo}, {hi}] is empty",
        op.index(),
        op.op()
    );
    let (lo, hi) = (
        Literal::i64_unsuffixed(i64::from(lo)),
        Literal::i64_unsuffixed(i64::from(hi)),
    );
    checked_const(
        quote!(#krate::ops::layers::ClampInt8::new(#lo, #hi)),
        &message,
    )
}

/// A layer's checked constructor `make` (a `const fn` returning a
/// `Result`) as the value of a `static`: evaluated when the program is
/// built, so that parameters its check refuses fail the build with
/// `message` (never a panic at run time: a `static`'s initializer is a
/// constant).
fn checked_const(make: TokenStream2, message: &str) -> TokenStream2 {
    quote! {
        match #make {
            Ok(checked) => checked,
            Err(_) => panic!(#message),
        }
    }
}

/// A `QuantizedMultiplier` as tokens.
fn multiplier_tokens(krate: &TokenStream2, m: QuantizedMultiplier) -> TokenStream2 {
    let (m, s) = (
        Literal::i32_unsuffixed(m.multiplier()),
        Literal::i32_unsuffixed(m.shift()),
    );
    quote!(#krate::tflite::QuantizedMultiplier::from_parts(#m, #s))
}

/// `AddParams { .. }` as tokens.
pub(crate) fn add_params_tokens(
    krate: &TokenStream2,
    p: &shapecheck_tflite::AddParams,
) -> TokenStream2 {
    let [z1, z2, zo, lo, hi] = [
        p.input1_zero_point,
        p.input2_zero_point,
        p.output_zero_point,
        p.output_min,
        p.output_max,
    ]
    .map(Literal::i32_unsuffixed);
    let [m1, m2, mo] = [
        p.input1_multiplier,
        p.input2_multiplier,
        p.output_multiplier,
    ]
    .map(|m| multiplier_tokens(krate, m));
    quote!(#krate::tflite::AddParams {
        input1_zero_point: #z1,
        input1_multiplier: #m1,
        input2_zero_point: #z2,
        input2_multiplier: #m2,
        output_zero_point: #zo,
        output_multiplier: #mo,
        output_min: #lo,
        output_max: #hi,
    })
}

/// `LogisticParams { .. }` as tokens.
fn logistic_params_tokens(
    krate: &TokenStream2,
    p: &shapecheck_tflite::LogisticParams,
) -> TokenStream2 {
    let z = Literal::i32_unsuffixed(p.input_zero_point);
    let r = Literal::i32_unsuffixed(p.input_range_radius);
    let m = multiplier_tokens(krate, p.input_multiplier);
    quote!(#krate::tflite::LogisticParams {
        input_zero_point: #z,
        input_range_radius: #r,
        input_multiplier: #m,
    })
}

/// `MeanParams { .. }` as tokens.
fn mean_params_tokens(krate: &TokenStream2, p: &shapecheck_tflite::MeanParams) -> TokenStream2 {
    let m = Literal::i32_unsuffixed(p.multiplier.multiplier());
    let s = Literal::i32_unsuffixed(p.multiplier.shift());
    let zi = Literal::i32_unsuffixed(p.input_zero_point);
    let zo = Literal::i32_unsuffixed(p.output_zero_point);
    let count = Literal::usize_unsuffixed(p.count);
    quote!(#krate::tflite::MeanParams {
        multiplier: #krate::tflite::QuantizedMultiplier::from_parts(#m, #s),
        input_zero_point: #zi,
        output_zero_point: #zo,
        count: #count,
    })
}

/// A tensor's shape as sizes.
fn dims(t: &ModelTensor<'_>) -> Result<Vec<usize>, String> {
    t.shape()
        .iter()
        .map(|d| {
            usize::try_from(d).map_err(|_| {
                format!(
                    "tensor {} \"{}\" has a dim {d}: model! writes models of static shapes",
                    t.index(),
                    t.name()
                )
            })
        })
        .collect()
}

/// The one scale and zero point of a per-tensor quantized tensor.
fn per_tensor(t: &ModelTensor<'_>) -> Result<(f32, i32), String> {
    let q = t
        .quantization()
        .ok_or_else(|| format!("tensor \"{}\" is not quantized", t.name()))?;
    let zero_point = q
        .zero_point(0)
        .and_then(|z| i32::try_from(z).ok())
        .unwrap_or(0);
    Ok((q.scale(0).unwrap_or(0.0), zero_point))
}

fn element_type(t: TensorType) -> TokenStream2 {
    if t == TensorType::Float32 {
        quote!(f32)
    } else {
        quote!(i8)
    }
}

/// `One` for 1, `Dim<N>` otherwise: the dim `shape!` writes.
fn dim_type(krate: &TokenStream2, d: usize) -> TokenStream2 {
    if d == 1 {
        quote!(#krate::One)
    } else {
        let d = Literal::usize_unsuffixed(d);
        quote!(#krate::Dim<#d>)
    }
}

fn shape_tokens(krate: &TokenStream2, dims: &[usize]) -> TokenStream2 {
    let dims = dims.iter().map(|&d| Literal::usize_unsuffixed(d));
    quote!(#krate::shape![#(#dims),*])
}

/// `[[T; b]; a]` for dims `[a, b]`.
fn array_type(element: TokenStream2, dims: &[usize]) -> TokenStream2 {
    dims.iter().rev().fold(element, |inner, &d| {
        let d = Literal::usize_unsuffixed(d);
        quote!([#inner; #d])
    })
}

/// The nested array literal of `values` (row-major) for `dims`.
fn nested(values: &[Literal], dims: &[usize]) -> TokenStream2 {
    match dims.split_first() {
        None => values.first().map(|v| quote!(#v)).unwrap_or_default(),
        Some((_, rest)) => {
            let row = rest.iter().product::<usize>().max(1);
            let rows = values.chunks(row).map(|chunk| nested(chunk, rest));
            quote!([#(#rows),*])
        }
    }
}

/// f32 literals (exact: Rust prints the shortest decimal that reads back
/// as the same value); a NaN or infinity is refused.
fn float_literals(values: impl Iterator<Item = f32>) -> Result<Vec<Literal>, String> {
    values
        .map(|v| {
            if v.is_finite() {
                Ok(Literal::f32_unsuffixed(v))
            } else {
                Err(format!("a constant is {v}, which a literal cannot write"))
            }
        })
        .collect()
}

/// An f32 clamp bound: `f32::MIN`, `f32::MAX` or a literal.
fn float_bound(v: f32) -> TokenStream2 {
    if v == f32::MIN {
        quote!(f32::MIN)
    } else if v == f32::MAX {
        quote!(f32::MAX)
    } else {
        let v = Literal::f32_unsuffixed(v);
        quote!(#v)
    }
}

fn doc(text: &str) -> TokenStream2 {
    quote!(#[doc = #text])
}

/// `SineFloat` → `sine_float`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `model!` on `path`, called from a file of this crate's directory
    /// (a `../` path is the workspace's), as its text or its error.
    fn expand(path: &str) -> Result<String, String> {
        let input = quote!(pub Sine = #path);
        let caller = Path::new(env!("CARGO_MANIFEST_DIR")).join("caller.rs");
        model_impl(&quote!(::shapecheck), input, Some(&caller))
            .map(|t| t.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn person_detection_streams_a_run_writes_two_layers_in_place_and_documents_them() {
        let input = quote!(pub Sine = "../tflite/tests/models/person_detect.tflite", ram = 14_208);
        let caller = Path::new(env!("CARGO_MANIFEST_DIR")).join("caller.rs");
        let text = model_impl(&quote!(::shapecheck), input, Some(&caller))
            .unwrap()
            .to_string();
        for item in [
            "pub type Arena = :: shapecheck :: ops :: layers :: Arena < i8 , 14208 >",
            "pub static RUN_0 : :: shapecheck :: tflite :: stream :: StreamRun < 'static >",
            "pub static LAYER_9_IN_PLACE : :: shapecheck :: tflite :: stream :: InPlaceLayer < 'static >",
            "arena . write_rings :: <",
            "sine :: RUN_0 . run_prechecked (input . as_slice () , rings . as_mut_slice () , y . as_mut_slice ())",
            "sine :: LAYER_10_IN_PLACE . run_prechecked (x . as_mut_slice () , scratch . as_mut_slice ())",
            "streamed run 0's rings (operators 0..8, their tensors never whole)",
            "operator 9's output [1, 12, 12, 64]: i8 4992..14208, live from operator 9 to 10, written over its input 1 (tensor 66)",
            "operator 10's scratch (its input's channels or rows as it writes its output over them): i8 0..4608, live at operator 10",
            "The liveness floor (layer by layer, each layer's input and output whole: no placement of that schedule takes less) is 55296 bytes; this plan's arena is 14208 bytes",
        ] {
            assert!(text.contains(item), "no {item:?} in {text}");
        }
        let input =
            quote!(pub Sine = "../tflite/tests/models/person_detect.tflite", schedule = layers);
        let caller = Path::new(env!("CARGO_MANIFEST_DIR")).join("caller.rs");
        let layers = model_impl(&quote!(::shapecheck), input, Some(&caller))
            .unwrap()
            .to_string();
        assert!(layers.contains("Arena < i8 , 55296 >"));
        assert!(!layers.contains("StreamRun"));
        // without a budget: the least RAM within 1.10x the layer plan's
        // estimated instructions, a streamed run and two layers written over
        // their input in 14,208 bytes
        let default = expand("../tflite/tests/models/person_detect.tflite").unwrap();
        assert!(default.contains("Arena < i8 , 14208 >"), "{default}");
        assert!(default.contains("StreamRun"));
    }

    /// ResNet-8 at `ram = 26_112` (issue 70): its first block streamed
    /// into its ADD over the block's input, its other ADDs over an input,
    /// each named in the docs. Reads the model from `$SHAPECHECK_MODELS`.
    #[test]
    #[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
    fn resnet8_writes_its_adds_over_their_inputs() {
        let dir = std::env::var("SHAPECHECK_MODELS").unwrap_or("../../shared/models".into());
        let path = format!("{dir}/pretrainedResnet_quant.tflite");
        let input = quote!(pub Sine = #path, ram = 26_112);
        let caller = Path::new(env!("CARGO_MANIFEST_DIR")).join("caller.rs");
        let text = model_impl(&quote!(::shapecheck), input, Some(&caller))
            .unwrap()
            .to_string();
        for item in [
            "pub type Arena = :: shapecheck :: ops :: layers :: Arena < i8 , 26112 >",
            "sine :: RUN_0 . run_over_input_prechecked (y . as_mut_slice () , rings . as_mut_slice ())",
            "Its last stage, operator 3 (ADD), writes each band over the run's input, tensor 22",
            "Its last stage, operator 7 (ADD), writes each band over its other input, tensor 27",
            ":: shapecheck :: ops :: layers :: add_int8_in_place_into (& mut y , & x ,",
            "operator 11's output [1, 8, 8, 64]",
        ] {
            assert!(text.contains(item), "no {item:?} in {text}");
        }
    }

    /// Both kinds of module write the same quantization items and the same
    /// budget check: a step-written model (the U-Net: CONCATENATION,
    /// RESIZE_BILINEAR) its one input's and output's, SPLIT one set per
    /// output, numbered; an int16 model's convert through the int16
    /// functions; an f32 model has none.
    #[test]
    fn every_kind_of_module_writes_its_quantization_and_counts_its_arena() {
        let unet = expand("../tflite/tests/user/user_unet.tflite").unwrap();
        let split = expand("../tflite/tests/ops/split_3.tflite").unwrap();
        let audio = expand("../tflite/tests/user/user_audio_int16.tflite").unwrap();
        let float = expand("../tflite/tests/user/user_float_mlp.tflite").unwrap();
        let sine = expand("../tflite/tests/models/sine.tflite").unwrap();
        for (text, items) in [
            (
                &unet,
                &[
                    "pub const INPUT_SCALE : f32",
                    "pub const INPUT_ZERO_POINT : i32 = - 6",
                    "pub const OUTPUT_ZERO_POINT : i32 = - 128",
                    "pub fn quantize < S , B > (x : & :: shapecheck :: Tensor < f32 , S , B >) -> sine :: Input",
                    "pub fn dequantize (y : & sine :: Output)",
                    "pub const fn new () -> Self",
                    "assert_arena_fits (\"sine\" , RAM_BYTES , :: core :: mem :: size_of :: < Arena > () , beside , budget ,)",
                ][..],
            ),
            (
                &split,
                &[
                    "pub const INPUT_SCALE : f32",
                    "pub const OUTPUT0_SCALE : f32",
                    "pub const OUTPUT2_ZERO_POINT : i32",
                    "pub fn dequantize_output1 (y : & sine :: Output1)",
                ][..],
            ),
            (
                &audio,
                &[
                    "quantize_value_int16 (x , sine :: INPUT_SCALE , sine :: INPUT_ZERO_POINT)",
                    "dequantize_value_int16 (q , sine :: OUTPUT_SCALE , sine :: OUTPUT_ZERO_POINT)",
                ][..],
            ),
            (
                &sine,
                &[
                    "pub const INPUT_SCALE : f32",
                    "assert_arena_fits (\"sine\" , RAM_BYTES , :: core :: mem :: size_of :: < Arena > () , beside , budget ,)",
                ][..],
            ),
        ] {
            for item in items {
                assert!(text.contains(item), "{item} not in {text}");
            }
        }
        assert!(!split.contains("OUTPUT_SCALE :"), "{split}");
        assert!(!split.contains("pub fn dequantize ("), "{split}");
        for absent in ["_SCALE", "fn quantize", "fn dequantize"] {
            assert!(!float.contains(absent), "{absent} in an f32 model: {float}");
        }
    }

    #[test]
    fn sine_becomes_three_static_layers_and_a_predict() {
        let text = expand("../tflite/tests/models/sine.tflite").unwrap();
        for item in [
            "pub struct Sine",
            "pub mod sine",
            "pub static LAYER_0 : :: shapecheck :: ops :: layers :: FullyConnectedInt8 < 'static , :: shapecheck :: Dim < 16 > , :: shapecheck :: One >",
            "pub static LAYER_2_WEIGHTS : [[i8 ; 16] ; 1]",
            "rounding : :: shapecheck :: tflite :: Rounding :: Double",
            // the liveness floor: two 16-wide layers live at operator 1
            "pub type Arena = :: shapecheck :: ops :: layers :: Arena < i8 , 32 >",
            "pub const RAM_BYTES : usize = Arena :: BYTES",
            "let mut out = arena . write :: < :: shapecheck :: shape ! [1 , 16] , 16 > ()",
            "arena . read_write :: < :: shapecheck :: shape ! [1 , 16] , 16 , :: shapecheck :: shape ! [1 , 16] , 0 > ()",
            "fully_connected_int8_into (& x0 , & sine :: LAYER_2 , y)",
            "pub const INPUT_ZERO_POINT : i32 = - 128",
            "pub fn quantize < S , B >",
            "pub fn predict_in < S , B >",
        ] {
            assert!(text.contains(item), "{item} not in {text}");
        }
        assert!(!text.contains("Result <"), "sine's predict cannot fail");
    }

    #[test]
    fn speech_reshapes_as_views_and_checks_its_layers_when_it_builds() {
        let text = expand("../tflite/tests/models/speech.tflite").unwrap();
        // the convolution reads the caller's input as a view, the fully
        // connected layer reads its output from the arena as a view
        assert!(text.contains("let x0 = input . reshape :: <"), "{text}");
        assert!(
            text.contains("let x0 = x0 . reshape :: < :: shapecheck :: shape ! [1 , 4000] > ()")
        );
        assert!(text.contains("Arena < i8 , 4004 >"));
        assert!(text.contains("Multipliers :: PerChannel (& LAYER_1_MULTIPLIERS)"));
        assert!(text.contains("Same < 2 , 2 , 1 , 1 >"));
        // predict returns the output itself: the layers' parameters are
        // checked in the statics' initializers, constants
        assert!(text.contains("-> sine :: Output"), "{text}");
        assert!(!text.contains("Result <"), "speech's predict cannot fail");
        assert!(
            text.contains("clamp : match :: shapecheck :: ops :: layers :: ClampInt8 :: new (- 128 , 127) { Ok (checked) => checked , Err (_) => panic ! (\"model!: operator 1 (DEPTHWISE_CONV_2D): its clamp [-128, 127] is empty\") , }"),
            "{text}"
        );
        assert!(
            !text.contains(")?"),
            "no layer's result is passed on: {text}"
        );
    }

    #[test]
    fn an_unsupported_op_is_the_interpreters_error_in_its_words() {
        // sine.tflite with its first op TILE, which neither path runs
        let path = "../ui-tests/model/sine_tile.tflite";
        let err = expand(path).unwrap_err();
        let bytes = std::fs::read(path).unwrap();
        let interpreter = check_with_the_interpreter(Model::parse(&bytes).unwrap()).unwrap_err();
        assert_eq!(err, format!("model!: {path}: {interpreter}"));
        assert!(
            err.contains(
                "operator 0 (TILE), writing tensor 7 \"sequential_1/dense_2/MatMul;sequential_1/dense_2…\": \
                 `model!` and the `Interpreter` do not run TILE"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_model_without_typed_layers_is_its_plans_steps() {
        // SPLIT into three: no typed layer, three outputs
        let text = expand("../tflite/tests/ops/split_3.tflite").unwrap();
        for item in [
            "use :: shapecheck :: tflite :: compiled as __compiled",
            "pub type Output = (Output0 , Output1 , Output2)",
            "pub type Output0 = :: shapecheck :: Tensor < i8 , :: shapecheck :: shape ! [1 , 5 , 4 , 2] >",
            // the step as a static of its own type, run by its own type's
            // `run`: no `Step` enum, whose loop would link every kernel
            "static STEP_0 : __compiled :: SplitStep = __compiled :: SplitStep {",
            "let mut run = __compiled :: Run :: new (& mut arena . int8 , & mut arena . int16 , & mut arena . int32 , & mut arena . float32 , & MULTIPLIERS ,) ; run . step (& STEP_0 , 0usize .. 0usize) ; }",
            "pub fn predict < S0 , B0 > (x0 : & :: shapecheck :: Tensor < i8 , S0 , B0 >) -> sine :: Output",
            "sine :: run_steps (arena) ;",
            "(y0 , y1 , y2)",
        ] {
            assert!(text.contains(item), "{item} not in {text}");
        }
        // predict returns the outputs: no kernel result is passed on or
        // dropped; and no step is an enum `Step` of every op
        for absent in [
            "Result <",
            "let _",
            ". ok ()",
            "unwrap",
            "?",
            "Step ::",
            "run_prechecked",
        ] {
            assert!(!text.contains(absent), "{absent} in {text}");
        }
    }

    #[test]
    fn the_step_writer_types_tensors_by_their_element() {
        let text = expand("../tflite/tests/ops/int16_add.tflite").unwrap();
        assert!(
            text.contains("pub type Input = :: shapecheck :: Tensor < i16 ,"),
            "{text}"
        );
        assert!(
            text.contains("pub type Output0 = :: shapecheck :: Tensor < i16 ,"),
            "{text}"
        );
        // an int16 step is a static of the int16 step type
        let text = expand("../tflite/tests/ops/int16_mul.tflite").unwrap();
        assert!(
            text.contains(
                "static STEP_2 : __compiled :: BinaryStep <'static , i16 , __compiled :: MulParams > = __compiled :: BinaryStep {"
            ),
            "{text}"
        );
        let text = expand("../tflite/tests/ops/arg_max.tflite").unwrap();
        assert!(text.contains("pub type Output0 = :: shapecheck :: Tensor < i32 , :: shapecheck :: shape ! [1 , 5 , 6] >"), "{text}");
        // RAM_BYTES: the plan's activations across element types (its
        // int32 output, 30 elements), the input not counted
        assert!(text.contains("pub const RAM_BYTES : usize = 120"), "{text}");
    }

    #[test]
    fn a_model_the_interpreter_refuses_is_its_error() {
        // sine with a TILE, an op outside OPS: model!'s error is the
        // interpreter's text, naming the operator, the op and the tensor
        let path = "../ui-tests/model/sine_tile.tflite";
        let err = expand(path).unwrap_err();
        let bytes = std::fs::read(path).unwrap();
        let interpreter = check_with_the_interpreter(Model::parse(&bytes).unwrap()).unwrap_err();
        assert_eq!(err, format!("model!: {path}: {interpreter}"));
        assert!(err.contains("(TILE)") && err.contains("tensor"), "{err}");
    }

    #[test]
    fn a_missing_or_malformed_file_is_an_error_naming_it() {
        let err = expand("../tflite/tests/models/none.tflite").unwrap_err();
        assert!(err.starts_with("model!: cannot read"), "{err}");
        let err = expand("Cargo.toml").unwrap_err();
        assert!(err.starts_with("model!: Cargo.toml: "), "{err}");
    }

    #[test]
    fn names_types_and_literals() {
        assert_eq!(snake_case("SineFloat"), "sine_float");
        assert_eq!(snake_case("Speech"), "speech");
        let ty = array_type(quote!(i8), &[2, 3]).to_string();
        assert_eq!(ty, "[[i8 ; 3] ; 2]");
        let values: Vec<Literal> = (0..6).map(Literal::i64_unsuffixed).collect();
        assert_eq!(
            nested(&values, &[2, 3]).to_string(),
            "[[0 , 1 , 2] , [3 , 4 , 5]]"
        );
        assert_eq!(float_bound(f32::MAX).to_string(), "f32 :: MAX");
        assert!(float_literals([f32::NAN].into_iter()).is_err());
    }
}
