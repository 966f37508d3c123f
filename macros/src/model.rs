//! `model!` (feature `tflite`): a `.tflite` file read when the macro
//! expands, written out as plain Rust over `shapecheck::ops::layers`.
//!
//! The file is parsed by `shapecheck_tflite::Model::parse` and checked
//! whole by `Interpreter::new` (every operand's type, shape, constness and
//! quantization, exactly as the interpreter that reproduces TFLite runs
//! it); what the interpreter refuses is a `compile_error!` with its
//! message, which names the operator, its builtin op and its output
//! tensor. The layers' constants are then derived with the reader's own
//! functions (`fully_connected_multiplier`, `activation_range_int8`,
//! `softmax_params`, ...) and written as `static` items; `predict` is one
//! block per layer, which calls the layer's `_into` form on views of two
//! activation buffers (`ops::layers::PingPong`): the first layer reads the
//! caller's input and writes buffer `a`, the next reads `a` and writes
//! `b`, and so on; the last writes the output `predict` returns. A RESHAPE
//! is a view of the tensor it reshapes. `RAM_BYTES` is the two buffers'
//! bytes and the output's.

use std::collections::HashMap;
use std::path::Path;

use proc_macro2::{Literal, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use shapecheck_tflite::{
    activation_range_f32, activation_range_int8, fully_connected_multiplier, softmax_params, Arena,
    Arithmetic, BuiltinOp, Interpreter, Model, ModelTensor, Operator, Options, Padding,
    QuantizedMultiplier, TensorType,
};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};

/// `pub Sine = "path/to/sine.tflite"`.
struct ModelInput {
    vis: Visibility,
    name: Ident,
    path: LitStr,
}

impl Parse for ModelInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let vis = input.parse()?;
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        let path = input.parse()?;
        Ok(ModelInput { vis, name, path })
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
    let ModelInput { vis, name, path } = syn::parse2(input)?;
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
    let mut writer = Writer::new(krate, model, module);
    writer
        .write_all()
        .map_err(|e| fail(format!("model!: {file}: {e}")))?;
    Ok(writer.finish(&vis, &name, &full.display().to_string()))
}

/// Prepares every operator as the interpreter would run it: any operand it
/// would refuse is the interpreter's error.
fn check_with_the_interpreter(model: Model<'_>) -> Result<(), String> {
    let sizes = Interpreter::arena_sizes(&model).map_err(|e| e.to_string())?;
    let mut int8 = vec![0i8; sizes.int8];
    let mut float32 = vec![0f32; sizes.float32];
    let mut multipliers = vec![QuantizedMultiplier::ZERO; sizes.multipliers];
    let arena = Arena {
        int8: &mut int8,
        float32: &mut float32,
        multipliers: &mut multipliers,
    };
    Interpreter::new(model, arena, Arithmetic::Micro)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Where a tensor's elements are while `predict` runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    /// the caller's input (borrowed)
    Input,
    /// buffer `a` of the `PingPong`
    A,
    /// buffer `b`
    B,
    /// the output `predict` returns
    Output,
}

/// A tensor of the model as `predict` holds it: the layer's output (or the
/// input) whose elements it is, seen through the RESHAPEs since.
#[derive(Clone)]
struct Var {
    place: Place,
    /// the index of the tensor a layer wrote (or the input's)
    base: usize,
    /// that tensor's shape
    base_dims: Vec<usize>,
    /// the shapes of the views taken of it, in order (RESHAPEs)
    views: Vec<Vec<usize>>,
    /// this tensor's shape
    dims: Vec<usize>,
}

/// One layer's block of `predict`, and the tensor whose proof (`InA`,
/// `InB`) it yields, if it writes a buffer.
struct Step {
    tokens: TokenStream2,
    proof: Option<usize>,
}

/// The proof that a buffer holds tensor `index`, a variable of `predict`.
fn proof_ident(index: usize) -> Ident {
    format_ident!("t{}_held", index)
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
    body: Vec<Step>,
    /// the tensor each buffer (`a`, `b`) holds now
    holds: [Option<usize>; 2],
    /// the elements of each buffer: the largest tensor written there
    sizes: [usize; 2],
    /// what each buffer holds in turn: (operator, shape), for the docs
    written: [Vec<(usize, Vec<usize>)>; 2],
    /// the tensors whose proofs a later layer reads
    read: Vec<usize>,
    /// the model's output tensor, and whether a layer wrote it
    output: Option<usize>,
    output_written: bool,
    /// a layer returns a `Result` (the depthwise convolution)
    fallible: bool,
    vars: HashMap<usize, Var>,
    element: TensorType,
}

impl<'k, 'm> Writer<'k, 'm> {
    fn new(krate: &'k TokenStream2, model: Model<'m>, module: Ident) -> Self {
        Writer {
            krate,
            module,
            model,
            statics: Vec::new(),
            body: Vec::new(),
            holds: [None, None],
            sizes: [0, 0],
            written: [Vec::new(), Vec::new()],
            read: Vec::new(),
            output: None,
            output_written: false,
            fallible: false,
            vars: HashMap::new(),
            element: TensorType::Int8,
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
        self.element = match input.dtype() {
            TensorType::Int8 => TensorType::Int8,
            TensorType::Float32 => TensorType::Float32,
            other => {
                return Err(format!(
                    "the input, tensor {} \"{}\", is {}: model! writes int8 and float32 models",
                    input.index(),
                    input.name(),
                    other.name()
                ))
            }
        };
        self.output = self
            .model
            .outputs()
            .get(0)
            .and_then(|i| usize::try_from(i).ok());
        let input_dims = dims(&input)?;
        self.vars.insert(
            input.index(),
            Var {
                place: Place::Input,
                base: input.index(),
                base_dims: input_dims.clone(),
                views: Vec::new(),
                dims: input_dims,
            },
        );
        for op in self.model.operators() {
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
            match (op.op(), op.options()) {
                (BuiltinOp::FULLY_CONNECTED, Options::FullyConnected(o)) => {
                    self.fully_connected(&op, &output, o).map_err(at)?
                }
                (BuiltinOp::DEPTHWISE_CONV_2D, Options::DepthwiseConv2d(o)) => {
                    self.depthwise_conv(&op, &output, o).map_err(at)?
                }
                (BuiltinOp::SOFTMAX, Options::Softmax(o)) => {
                    self.softmax(&op, &output, o.beta).map_err(at)?
                }
                (BuiltinOp::RESHAPE, _) => self.reshape(&op, &output).map_err(at)?,
                _ => return Err(at("shapecheck's layers do not cover this op".into())),
            }
        }
        Ok(())
    }

    /// The type of a tensor of `dims` of the model's element type.
    fn tensor_type(&self, dims: &[usize]) -> TokenStream2 {
        let krate = self.krate;
        let element = element_type(self.element);
        let dims = dims.iter().map(|&d| Literal::usize_unsuffixed(d));
        quote!(#krate::Tensor<#element, #krate::shape![#(#dims),*]>)
    }

    fn element_bytes(&self) -> usize {
        match self.element {
            TensorType::Float32 => 4,
            _ => 1,
        }
    }

    /// Writes one layer: its input, `source` seen as `rows` if given,
    /// read from where it is; its output written where the chain puts it:
    /// the output `predict` returns for the model's output, else the
    /// buffer the input is not in (`a` for the model's input). `call`
    /// makes the `_into` call from the input's and the output's variables.
    fn layer(
        &mut self,
        op: &Operator<'_>,
        source: &Var,
        rows: Option<Vec<usize>>,
        output: &ModelTensor<'_>,
        call: impl FnOnce(&Ident, &Ident) -> TokenStream2,
    ) -> Result<(), String> {
        let krate = self.krate;
        let out_dims = dims(output)?;
        let slot = |place: Place| match place {
            Place::A => Some(0),
            Place::B => Some(1),
            _ => None,
        };
        if let Some(i) = slot(source.place) {
            if self.holds[i] != Some(source.base) {
                return Err(format!(
                    "it reads tensor {} after a later layer wrote over it: model! writes chains of layers, each reading the one before",
                    source.base
                ));
            }
        }
        let place = if Some(output.index()) == self.output {
            Place::Output
        } else if source.place == Place::A {
            Place::B
        } else if source.place == Place::Output {
            return Err("it reads the model's output, which model! writes last".into());
        } else {
            Place::A
        };
        let mut views: Vec<TokenStream2> = source
            .views
            .iter()
            .chain(rows.iter())
            .map(|d| {
                let shape = shape_tokens(krate, d);
                quote!(.reshape::<#shape>())
            })
            .collect();
        if views.is_empty() {
            views.push(TokenStream2::new());
        }
        let x = format_ident!("x");
        let y = if place == Place::Output {
            format_ident!("output")
        } else {
            format_ident!("y")
        };
        let x_shape = shape_tokens(krate, &source.base_dims);
        let y_shape = shape_tokens(krate, &out_dims);
        let held = source
            .place
            .ne(&Place::Input)
            .then(|| proof_ident(source.base));
        if held.is_some() {
            self.read.push(source.base);
        }
        let call = call(&x, &y);
        let tokens = match (source.place, place) {
            (Place::Input, Place::Output) => quote! {{
                let #x = input #(#views)*;
                #call;
            }},
            (Place::A, Place::Output) => quote! {{
                let #x = buffers.a::<#x_shape>(#held) #(#views)*;
                #call;
            }},
            (Place::B, Place::Output) => quote! {{
                let #x = buffers.b::<#x_shape>(#held) #(#views)*;
                #call;
            }},
            (Place::Input, _) => quote! {{
                let #x = input #(#views)*;
                let (mut #y, held) = buffers.to_a::<#y_shape>();
                #call;
                held
            }},
            (Place::A, _) => quote! {{
                let (#x, mut #y, held) = buffers.a_to_b::<#x_shape, #y_shape>(#held);
                let #x = #x #(#views)*;
                #call;
                held
            }},
            (Place::B, _) | (Place::Output, _) => quote! {{
                let (#x, mut #y, held) = buffers.b_to_a::<#x_shape, #y_shape>(#held);
                let #x = #x #(#views)*;
                #call;
                held
            }},
        };
        let numel = out_dims.iter().product::<usize>();
        let proof = match slot(place) {
            Some(i) => {
                self.holds[i] = Some(output.index());
                self.sizes[i] = self.sizes[i].max(numel);
                self.written[i].push((op.index(), out_dims.clone()));
                Some(output.index())
            }
            None => {
                self.output_written = true;
                None
            }
        };
        self.body.push(Step { tokens, proof });
        self.vars.insert(
            output.index(),
            Var {
                place,
                base: output.index(),
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
        let (function, layer_item) = if self.element == TensorType::Float32 {
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
            let [input_zero_point, weights_zero_point, output_zero_point, lo, hi] = [
                i64::from(input_zero_point),
                weights_zero_point,
                i64::from(output_zero_point),
                i64::from(lo),
                i64::from(hi),
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
                            output_min: #lo,
                            output_max: #hi,
                            // TFLite Micro's arithmetic: gemmlowp's two roundings
                            rounding: #krate::tflite::Rounding::Double,
                        };
                },
            )
        };
        self.statics.push(layer_item);
        self.layer(
            op,
            &source,
            rows,
            output,
            |x, y| quote!(#krate::ops::layers::#function(&#x, &#module::#layer, &mut #y)),
        )
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
        let values = b.data_as::<i32>().ok_or("its bias is not int32")?;
        let values: Vec<Literal> = values
            .iter()
            .map(|v| Literal::i64_unsuffixed(v.into()))
            .collect();
        let name = format_ident!("LAYER_{}_BIAS", i);
        let n = Literal::usize_unsuffixed(values.len());
        let d = doc(&format!("Operator {i}'s bias, tensor \"{}\".", b.name()));
        self.statics.push(quote! {
            #d
            pub static #name: [i32; #n] = [#(#values),*];
        });
        Ok(quote!(Some(&#name)))
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

    fn depthwise_conv(
        &mut self,
        op: &Operator<'_>,
        output: &ModelTensor<'_>,
        options: shapecheck_tflite::DepthwiseConv2dOptions,
    ) -> Result<(), String> {
        let krate = self.krate;
        let module = self.module.clone();
        if options.dilation_h != 1 || options.dilation_w != 1 {
            return Err(format!(
                "dilation {} × {}: shapecheck's depthwise convolution has dilation 1",
                options.dilation_h, options.dilation_w
            ));
        }
        let input = self.tensor(op.input(0), "input", op)?;
        let filter = self.tensor(op.input(1), "filter", op)?;
        let bias = op.input(2).and_then(|i| self.model.tensor(i));
        let source = self.var(&input)?;
        let (kh, kw, c) = match dims(&filter)?.as_slice() {
            &[1, kh, kw, c] => (kh, kw, c),
            _ => return Err("its filter is not [1, kh, kw, c]".into()),
        };
        let i = op.index();
        let values = filter.data_as::<i8>().ok_or("its filter is not int8")?;
        let values: Vec<Literal> = values
            .iter()
            .map(|v| Literal::i64_unsuffixed(v.into()))
            .collect();
        let f_type = array_type(quote!(i8), &[kh, kw, c]);
        let f_value = nested(&values, &[kh, kw, c]);
        let filter_name = format_ident!("LAYER_{}_FILTER", i);
        let f_doc = doc(&format!(
            "Operator {i}'s filter, tensor \"{}\", [kh, kw, c].",
            filter.name()
        ));
        self.statics.push(quote! {
            #f_doc
            pub static #filter_name: #f_type = #f_value;
        });
        let bias = self.int_bias(i, bias)?;
        let (input_scale, input_zero_point) = per_tensor(&input)?;
        let (output_scale, output_zero_point) = per_tensor(output)?;
        let q = filter.quantization().ok_or("its filter is not quantized")?;
        let multipliers =
            self.multipliers(i, c, q.scales().iter().collect(), input_scale, output_scale)?;
        let (lo, hi) =
            activation_range_int8(options.fused_activation, output_scale, output_zero_point)
                .map_err(|e| e.to_string())?;
        let [input_zero_point, output_zero_point, lo, hi] = [
            i64::from(input_zero_point),
            i64::from(output_zero_point),
            i64::from(lo),
            i64::from(hi),
        ]
        .map(Literal::i64_unsuffixed);
        let stride = |s: i32| Literal::usize_unsuffixed(usize::try_from(s).unwrap_or(0));
        let (sh, sw) = (stride(options.stride_h), stride(options.stride_w));
        let padding = if matches!(options.padding, Padding::Same) {
            quote!(Same)
        } else {
            quote!(Valid)
        };
        let [kh_t, kw_t, c_t] = [kh, kw, c].map(|d| dim_type(krate, d));
        let layer = format_ident!("LAYER_{}", i);
        let layer_doc = doc(&format!(
            "Operator {i}: DEPTHWISE_CONV_2D, writing \"{}\" ({options:?}).",
            output.name()
        ));
        self.statics.push(quote! {
            #layer_doc
            pub static #layer: #krate::ops::layers::DepthwiseConvInt8<
                'static, #kh_t, #kw_t, #c_t, #krate::ops::layers::#padding<#sh, #sw>
            > = #krate::ops::layers::DepthwiseConvInt8 {
                filter: &#filter_name,
                bias: #bias,
                padding: #krate::ops::layers::#padding,
                input_zero_point: #input_zero_point,
                output_zero_point: #output_zero_point,
                multipliers: #multipliers,
                output_min: #lo,
                output_max: #hi,
            };
        });
        self.fallible = true;
        self.layer(op, &source, None, output, |x, y| {
            quote!(#krate::ops::layers::depthwise_conv_int8_into(&#x, &#module::#layer, &mut #y)?)
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
            &source,
            None,
            output,
            |x, y| quote!(#krate::ops::layers::softmax_int8_into(&#x, &#module::#name, &mut #y)),
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
        let output = self
            .output
            .and_then(|i| self.vars.get(&i).cloned())
            .filter(|o| o.place == Place::Output && o.views.is_empty());
        let Some(output) = output.filter(|_| self.output_written) else {
            return syn::Error::new(
                Span::call_site(),
                "model!: the model's output is its input or a RESHAPE's view; model! writes models whose output a layer computes",
            )
            .to_compile_error();
        };
        let input_dims = self
            .vars
            .values()
            .find(|v| v.place == Place::Input && v.views.is_empty())
            .map(|v| v.dims.clone())
            .unwrap_or_default();
        let input_type = self.tensor_type(&input_dims);
        let input_shape = shape_tokens(krate, &input_dims);
        let element = element_type(self.element);
        let output_type = self.tensor_type(&output.dims);
        let (returns, returned) = if self.fallible {
            (
                quote!(Result<#module::Output, #krate::tflite::TfliteError>),
                quote!(Ok(output)),
            )
        } else {
            (quote!(#module::Output), quote!(output))
        };
        let element_bytes = self.element_bytes();
        let [a, b] = self.sizes;
        let output_numel = output.dims.iter().product::<usize>();
        let ram_bytes = (a + b + output_numel) * element_bytes;
        let input_bytes = input_dims.iter().product::<usize>() * element_bytes;
        let element_name = if self.element == TensorType::Float32 {
            "f32"
        } else {
            "i8"
        };
        let holds = |written: &[(usize, Vec<usize>)]| {
            if written.is_empty() {
                "unused".to_string()
            } else {
                written
                    .iter()
                    .map(|(op, dims)| format!("operator {op}'s output {dims:?}"))
                    .collect::<Vec<_>>()
                    .join(", then ")
            }
        };
        let ram_doc = [
            format!(
                "- buffer `a`: {} bytes ({a} {element_name}): {}",
                a * element_bytes,
                holds(&self.written[0])
            ),
            format!(
                "- buffer `b`: {} bytes ({b} {element_name}): {}",
                b * element_bytes,
                holds(&self.written[1])
            ),
            format!(
                "- the output: {} bytes ({output_numel} {element_name} {:?}), returned by value",
                output_numel * element_bytes,
                output.dims
            ),
        ]
        .map(|line| doc(&line));
        let a_lit = Literal::usize_unsuffixed(a);
        let b_lit = Literal::usize_unsuffixed(b);
        let zero = if self.element == TensorType::Float32 {
            quote!(0.0)
        } else {
            quote!(0)
        };
        let buffers = if a + b > 0 {
            quote!(let mut buffers = #module::Buffers::new(#zero);)
        } else {
            TokenStream2::new()
        };
        let body = self.body.iter().map(|step| {
            let tokens = &step.tokens;
            match step.proof {
                Some(i) if self.read.contains(&i) => {
                    let proof = proof_ident(i);
                    quote!(let #proof = #tokens;)
                }
                Some(_) => quote!(let _ = #tokens;),
                None => quote!(#tokens),
            }
        });
        let statics = &self.statics;
        let struct_doc = doc(&format!(
            "The model of `{}`, written by `shapecheck::model!`: [`{name}::predict`] and [`{name}::RAM_BYTES`]; its constants are in [`{module}`].",
            Path::new(path).file_name().and_then(|f| f.to_str()).unwrap_or(path)
        ));
        let module_doc = doc(&format!(
            "The constants of [`{name}`]: its input and output types, its activation buffers and each layer's `static` data."
        ));
        let predict_doc = doc(&format!(
            "Runs the model on `input` (borrowed), layer by layer (`shapecheck::ops::layers`, TFLite Micro's arithmetic{}): each layer writes its output in place, into one of the two buffers of a [`{module}::Buffers`] (a local) or, the last, into the output it returns; [`{name}::RAM_BYTES`] counts these.",
            if self.fallible {
                "; the depthwise convolution's `Result` is passed on"
            } else {
                ""
            }
        ));
        let input_doc = doc(&format!(
            "The model's input: {element_name} {input_dims:?}, {input_bytes} bytes (the caller's: `predict` borrows it)."
        ));
        let output_doc = doc(&format!(
            "The model's output: {element_name} {:?}.",
            output.dims
        ));
        let buffers_doc = doc(&format!(
            "`predict`'s two activation buffers, {a} and {b} {element_name} ({} bytes): each layer but the last writes its output into one of them, reading the other (the first reads the input).",
            (a + b) * element_bytes
        ));
        let ram_intro = doc(&format!(
            "The bytes `predict`'s buffers hold, exactly: its two activation buffers ([`Buffers`]) and the output it returns, {ram_bytes} bytes:"
        ));
        let ram_after = doc(&format!(
            "Not counted: the input, the caller's ({input_bytes} bytes, `core::mem::size_of::<Input>()`), the kernels' own locals (a few words each), and the weights, biases and multipliers, which are `static` (flash). A firmware checks its budget when it builds: `const _: () = assert!({module}::RAM_BYTES + core::mem::size_of::<{module}::Input>() <= BUDGET);`."
        ));
        quote! {
            #struct_doc
            #vis struct #name;

            #module_doc
            #vis mod #module {
                #input_doc
                pub type Input = #input_type;
                #output_doc
                pub type Output = #output_type;
                #buffers_doc
                pub type Buffers = #krate::ops::layers::PingPong<#element, #a_lit, #b_lit>;
                #ram_intro
                #(#ram_doc)*
                #[doc = ""]
                #ram_after
                pub const RAM_BYTES: usize = #ram_bytes;
                // RAM_BYTES is the buffers' size to the byte
                const _: () = assert!(
                    RAM_BYTES == Buffers::BYTES + ::core::mem::size_of::<Output>()
                );
                #(#statics)*
                // the file, so that cargo builds again when it changes
                const _: &[u8] = include_bytes!(#path);
            }

            impl #name {
                /// The bytes `predict`'s buffers hold: its two activation
                /// buffers and its output, the same as the module's
                /// `RAM_BYTES` (which lists them); the input is the caller's.
                pub const RAM_BYTES: usize = #module::RAM_BYTES;

                #predict_doc
                pub fn predict<S, B>(input: &#krate::Tensor<#element, S, B>) -> #returns
                where
                    S: #krate::ops::layers::ModelInput<#input_shape>,
                    B: #krate::storage::Storage<#element>,
                {
                    let input = S::as_input(input);
                    #buffers
                    let mut output = #module::Output::zeros();
                    #(#body)*
                    #returned
                }
            }
        }
    }
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
    fn sine_becomes_three_static_layers_and_a_predict() {
        let text = expand("../tflite/tests/models/sine.tflite").unwrap();
        for item in [
            "pub struct Sine",
            "pub mod sine",
            "pub static LAYER_0 : :: shapecheck :: ops :: layers :: FullyConnectedInt8 < 'static , :: shapecheck :: Dim < 16 > , :: shapecheck :: One >",
            "pub static LAYER_2_WEIGHTS : [[i8 ; 16] ; 1]",
            "rounding : :: shapecheck :: tflite :: Rounding :: Double",
            "pub const RAM_BYTES : usize = 33usize",
            "pub type Buffers = :: shapecheck :: ops :: layers :: PingPong < i8 , 16 , 16 >",
            "let (mut y , held) = buffers . to_a :: < :: shapecheck :: shape ! [1 , 16] > ()",
            "buffers . a_to_b :: < :: shapecheck :: shape ! [1 , 16] , :: shapecheck :: shape ! [1 , 16] > (t7_held)",
            "let x = buffers . b :: < :: shapecheck :: shape ! [1 , 16] > (t8_held)",
            "fully_connected_int8_into (& x , & sine :: LAYER_2 , & mut output)",
        ] {
            assert!(text.contains(item), "{item} not in {text}");
        }
        assert!(!text.contains("Result <"), "sine's predict cannot fail");
    }

    #[test]
    fn speech_reshapes_as_views_and_passes_the_convolutions_result_on() {
        let text = expand("../tflite/tests/models/speech.tflite").unwrap();
        // the convolution reads the caller's input as a view, the fully
        // connected layer reads its output from `a` as a view
        assert!(text.contains("let x = input . reshape :: <"), "{text}");
        assert!(text.contains("let x = x . reshape :: < :: shapecheck :: shape ! [1 , 4000] > ()"));
        assert!(text.contains("PingPong < i8 , 4000 , 4 >"));
        assert!(text.contains("Multipliers :: PerChannel (& LAYER_1_MULTIPLIERS)"));
        assert!(text.contains("Same < 2 , 2 >"));
        assert!(
            text.contains("-> Result < sine :: Output , :: shapecheck :: tflite :: TfliteError >")
        );
    }

    #[test]
    fn an_unsupported_op_names_the_op_and_its_tensor() {
        let err = expand("../ui-tests/model/sine_batch_matmul.tflite").unwrap_err();
        assert!(
            err.contains("operator 0 (BATCH_MATMUL), writing tensor 7"),
            "{err}"
        );
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
