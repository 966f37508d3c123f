//! `model!`'s step writer: a model its typed layers do not cover (an op
//! without a typed layer, several inputs or outputs, int16 or int32
//! tensors, activations of several element types) is prepared with
//! `shapecheck_tflite::Plan` when the macro expands, exactly as the
//! `Interpreter` runs it, and written as constants: each prepared step as
//! a `static` of its own step type (`static STEP_3: compiled::Conv2dStep
//! = ...`, the value written by its type's `WriteRust`, beside the step in
//! its op's module), the plan's multipliers as a `static` array, and a
//! `predict` that copies its inputs into their places in the arena, runs
//! the steps in order, each by its own type's `run`
//! (`run.step(&STEP_3, ..)`, `compiled::Run::step`), and copies its
//! outputs out into typed tensors. Naming each step's type is what makes
//! a model link only its own ops' kernels: a loop over the interpreter's
//! `Step` enum would link every op's.

use std::str::FromStr;

use proc_macro2::{Literal, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use shapecheck_tflite::compiled;
use shapecheck_tflite::schedule::Goal;
use shapecheck_tflite::{Arithmetic, Layout, Model, ModelTensor, Plan, TensorType};
use syn::{Ident, Visibility};

use super::{dims, doc, quant, shape_tokens};

/// One input or output of the model: its element type, dims, and where
/// the plan puts it (its element type's buffer, from `start`).
struct Io {
    index: usize,
    element: TensorType,
    dims: Vec<usize>,
    start: usize,
}

/// The Rust element type of a tensor type the step writer takes.
fn element_tokens(t: TensorType) -> Option<TokenStream2> {
    match t {
        TensorType::Int8 => Some(quote!(i8)),
        TensorType::Int16 => Some(quote!(i16)),
        TensorType::Int32 => Some(quote!(i32)),
        TensorType::Float32 => Some(quote!(f32)),
        _ => None,
    }
}

/// The arena's field of a tensor type's buffer.
fn buffer_field(t: TensorType) -> Ident {
    match t {
        TensorType::Int16 => format_ident!("int16"),
        TensorType::Int32 => format_ident!("int32"),
        TensorType::Float32 => format_ident!("float32"),
        _ => format_ident!("int8"),
    }
}

/// The model's input or output `t` as `predict` takes or returns it.
fn io(plan: &Plan<'_>, t: &ModelTensor<'_>, what: &str) -> Result<Io, String> {
    let place = |message: &str| {
        format!(
            "the {what}, tensor {} \"{}\", {message}",
            t.index(),
            t.name()
        )
    };
    if element_tokens(t.dtype()).is_none() {
        return Err(place(&format!(
            "is {}: model! writes int8, int16, int32 and float32 tensors",
            t.dtype().name()
        )));
    }
    let (dtype, range) =
        compiled::slot(plan, t.index()).ok_or_else(|| place("has no place in the plan's arena"))?;
    if dtype != t.dtype() || range.len() != t.elements() {
        return Err(place("is not where the plan puts it"));
    }
    Ok(Io {
        index: t.index(),
        element: t.dtype(),
        dims: dims(t)?,
        start: range.start,
    })
}

/// Text written by the tflite crate (`compiled::write_*`) as tokens.
fn tokens(text: &str) -> Result<TokenStream2, String> {
    TokenStream2::from_str(text).map_err(|e| format!("the written steps do not lex: {e}"))
}

/// The model's struct, module and `impl`, written over its plan's steps.
pub(super) fn write(
    krate: &TokenStream2,
    model: Model<'_>,
    goal: Goal,
    vis: &Visibility,
    name: &Ident,
    module: &Ident,
    path: &str,
) -> Result<TokenStream2, String> {
    let plan = Plan::new(model, Arithmetic::Micro, Layout::Packed).map_err(|e| e.to_string())?;
    let inputs = (0..model.inputs().len())
        .map(|i| {
            let t = model
                .input(i)
                .ok_or_else(|| format!("the model's input {i} is not a tensor"))?;
            io(&plan, &t, &format!("input {i}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let outputs = (0..model.outputs().len())
        .map(|i| {
            let t = model
                .output(i)
                .ok_or_else(|| format!("the model's output {i} is not a tensor"))?;
            io(&plan, &t, &format!("output {i}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if outputs.is_empty() {
        return Err("the model has no output".into());
    }
    // the written expressions name `compiled`'s items through a `use` in
    // the module (`krate` may be `$crate`, which has no text)
    let k = "__compiled";
    let kt = quote!(#krate::tflite::compiled);
    let (mut statics, mut calls) = (String::new(), String::new());
    let step_count = compiled::write_steps(&plan, &mut statics, &mut calls, k)
        .map_err(|_| "the steps cannot be written".to_string())?;
    let (statics, calls) = (tokens(&statics)?, tokens(&calls)?);
    let mut text = String::new();
    let multiplier_count = compiled::write_multipliers(&plan, &mut text, k)
        .map_err(|_| "the multipliers cannot be written".to_string())?;
    let multipliers = tokens(&text)?;
    let multiplier_count = Literal::usize_unsuffixed(multiplier_count);

    let sizes = plan.arena_sizes();
    let (n8, n16, n32, nf) = (
        Literal::usize_unsuffixed(sizes.int8),
        Literal::usize_unsuffixed(sizes.int16),
        Literal::usize_unsuffixed(sizes.int32),
        Literal::usize_unsuffixed(sizes.float32),
    );
    let arena_bytes = sizes.int8 + 2 * sizes.int16 + 4 * sizes.int32 + 4 * sizes.float32;
    let ram_bytes = plan.activation_bytes();
    // the plan's layer-by-layer schedule is the only one of a step-written
    // model: a budget below it cannot be met
    if let Goal::Ram(budget) = goal {
        if ram_bytes > budget {
            return Err(format!(
                "ram = {budget}: the smallest plan needs RAM_BYTES = {ram_bytes} (this model's ops run layer by layer, none streamed)"
            ));
        }
    }
    let input_bytes = arena_bytes.saturating_sub(ram_bytes);

    let tensor = |io: &Io| {
        let element = element_tokens(io.element).unwrap_or_else(|| quote!(i8));
        let shape = shape_tokens(krate, &io.dims);
        quote!(#krate::Tensor<#element, #shape>)
    };
    let element_name = |t: TensorType| t.name().to_lowercase();
    // the input types: `Input` for one, `Input0`, `Input1`, ... for several
    let input_names: Vec<Ident> = if inputs.len() == 1 {
        vec![format_ident!("Input")]
    } else {
        (0..inputs.len())
            .map(|i| format_ident!("Input{i}"))
            .collect()
    };
    let input_types = inputs.iter().zip(&input_names).map(|(io, n)| {
        let t = tensor(io);
        let d = doc(&format!(
            "The model's input {}: {} {:?} (tensor {}).",
            n,
            element_name(io.element),
            io.dims,
            io.index
        ));
        quote!(#d pub type #n = #t;)
    });
    let output_names: Vec<Ident> = (0..outputs.len())
        .map(|i| format_ident!("Output{i}"))
        .collect();
    let output_types = outputs.iter().zip(&output_names).map(|(io, n)| {
        let t = tensor(io);
        let d = doc(&format!(
            "The model's output {}: {} {:?} (tensor {}).",
            n,
            element_name(io.element),
            io.dims,
            io.index
        ));
        quote!(#d pub type #n = #t;)
    });
    let output_type = if outputs.len() == 1 {
        quote!(Output0)
    } else {
        quote!((#(#output_names),*))
    };
    // each quantized input's and output's constants and conversions, named
    // as the typed layers' module names them (`Output` for one output)
    let ports = |ios: &[Io], names: &[Ident], single: &str| {
        ios.iter()
            .zip(names)
            .filter_map(|(io, n)| {
                model.tensor(io.index).map(|tensor| quant::Port {
                    tensor,
                    type_name: if ios.len() == 1 {
                        format_ident!("{single}")
                    } else {
                        n.clone()
                    },
                    dims: io.dims.clone(),
                })
            })
            .collect::<Vec<_>>()
    };
    let (quant_consts, quant_fns) = quant::write(
        krate,
        module,
        &ports(&inputs, &input_names, "Input"),
        &ports(&outputs, &output_names, "Output"),
    );

    // predict's parameters: x0, x1, ... with their shape and storage types
    let xs: Vec<Ident> = (0..inputs.len()).map(|i| format_ident!("x{i}")).collect();
    let ss: Vec<Ident> = (0..inputs.len()).map(|i| format_ident!("S{i}")).collect();
    let bs: Vec<Ident> = (0..inputs.len()).map(|i| format_ident!("B{i}")).collect();
    let params: Vec<TokenStream2> = inputs
        .iter()
        .zip(&xs)
        .zip(ss.iter().zip(&bs))
        .map(|((io, x), (s, b))| {
            let element = element_tokens(io.element).unwrap_or_else(|| quote!(i8));
            quote!(#x: &#krate::Tensor<#element, #s, #b>)
        })
        .collect();
    let bounds: Vec<TokenStream2> = inputs
        .iter()
        .zip(ss.iter().zip(&bs))
        .map(|(io, (s, b))| {
            let element = element_tokens(io.element).unwrap_or_else(|| quote!(i8));
            let shape = shape_tokens(krate, &io.dims);
            quote! {
                #s: #krate::ops::layers::ModelInput<#shape>,
                #b: #krate::storage::Storage<#element>,
            }
        })
        .collect();
    let copy_in = inputs.iter().zip(&xs).zip(&ss).map(|((io, x), s)| {
        let field = buffer_field(io.element);
        let start = Literal::usize_unsuffixed(io.start);
        quote! {
            let #x = #s::as_input(#x);
            #kt::copy_in(&mut arena.#field, #start, #x.as_slice());
        }
    });
    let ys: Vec<Ident> = (0..outputs.len()).map(|i| format_ident!("y{i}")).collect();
    let copy_out = outputs
        .iter()
        .zip(&ys)
        .zip(&output_names)
        .map(|((io, y), n)| {
            let field = buffer_field(io.element);
            let start = Literal::usize_unsuffixed(io.start);
            quote! {
                let mut #y = #module::#n::zeros();
                #kt::copy_out(&arena.#field, #start, #y.as_mut_slice());
            }
        });
    let returned = if ys.len() == 1 {
        quote!(y0)
    } else {
        quote!((#(#ys),*))
    };

    let file = std::path::Path::new(path)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(path);
    let struct_doc = doc(&format!(
        "The model of `{file}`, written by `shapecheck::model!`: [`{name}::predict`] and [`{name}::RAM_BYTES`]; its types and prepared steps are in [`{module}`]."
    ));
    let module_doc = doc(&format!(
        "The constants of [`{name}`]: its input and output types and quantization, its arena, and its {step_count} operators prepared when the program was built (`static`, in flash), as the `shapecheck::tflite::Interpreter` runs them."
    ));
    let arena_doc = doc(&format!(
        "`predict`'s buffers, one per element type (int8 {n8}, int16 {n16}, int32 {n32}, f32 {nf} elements; {arena_bytes} bytes): the model's inputs at the front of their type's buffer, then the activations, each at the place the planner gave it (two tensors live at the same operator never overlap). `Arena::new()` is a `const fn`, so that a firmware can hold one in a `static`."
    ));
    let ram_doc = doc(&format!(
        "The bytes of `predict`'s activations across element types, its inputs not counted: {ram_bytes} (the plan's `activation_bytes`; the [`Arena`] holds {input_bytes} more, a copy of the inputs, which [`assert_ram_fits`] counts: a firmware holding its input and the arena holds both). Not counted either: the outputs, returned by value, the kernels' own locals, and the constants, multipliers and prepared steps, which are `static` (flash)."
    ));
    let predict_doc = doc(&format!(
        "Runs the model on its input{} (borrowed, in the model's input order), operator by operator (TFLite Micro's arithmetic, the `Interpreter`'s kernels), in a [`{module}::Arena`] on the stack ({arena_bytes} bytes), and returns {}. It cannot fail: every size is the types', and each operator was checked when the program was built. [`{name}::predict_in`] takes the arena from the caller (a `static`).",
        if inputs.len() == 1 { "" } else { "s" },
        if outputs.len() == 1 {
            "its output".to_string()
        } else {
            format!("its {} outputs as a tuple, in the model's output order", outputs.len())
        }
    ));
    let predict_in_doc = doc(&format!(
        "[`{name}::predict`] in an arena the caller holds (a `static`, say)."
    ));
    let module_name = module.to_string();
    let ram_bytes_lit = Literal::usize_unsuffixed(ram_bytes);
    let bytes_doc = doc(&format!(
        "The arena's bytes, `size_of::<Arena>()`: [`RAM_BYTES`] ({ram_bytes}) and the copy of the inputs `predict_in` writes into it ({input_bytes}), and the padding of its arrays' alignment, if any. [`assert_ram_fits`] counts it whole."
    ));
    let input_types: Vec<TokenStream2> = input_types.collect();
    let output_types: Vec<TokenStream2> = output_types.collect();
    let copy_in: Vec<TokenStream2> = copy_in.collect();
    let copy_out: Vec<TokenStream2> = copy_out.collect();
    Ok(quote! {
        #struct_doc
        #vis struct #name;

        #module_doc
        #vis mod #module {
            #(#input_types)*
            #(#output_types)*
            /// What `predict` returns: the output, or a tuple of the outputs.
            pub type Output = #output_type;

            #arena_doc
            pub struct Arena {
                /// the int8 tensors
                pub int8: [i8; #n8],
                /// the int16 tensors
                pub int16: [i16; #n16],
                /// the int32 tensors
                pub int32: [i32; #n32],
                /// the f32 tensors
                pub float32: [f32; #nf],
            }

            impl Arena {
                #bytes_doc
                pub const BYTES: usize = ::core::mem::size_of::<Self>();

                /// An arena of zeros.
                pub const fn new() -> Self {
                    Arena {
                        int8: [0; #n8],
                        int16: [0; #n16],
                        int32: [0; #n32],
                        float32: [0.0; #nf],
                    }
                }
            }

            impl ::core::default::Default for Arena {
                fn default() -> Self {
                    Self::new()
                }
            }

            #ram_doc
            pub const RAM_BYTES: usize = #ram_bytes_lit;

            /// A firmware's RAM budget, checked when it builds: in a
            /// `const`, fails the build when the [`Arena`]
            /// (`size_of::<Arena>()`: [`RAM_BYTES`] and the copy of the
            /// inputs `predict_in` writes into it) and the `beside` bytes
            /// the firmware holds with it (its input, ...) exceed `budget`
            /// bytes, naming the numbers
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

            #quant_consts

            use #kt as __compiled;
            pub(super) static MULTIPLIERS: [#kt::QuantizedMultiplier; #multiplier_count] = #multipliers;
            #statics

            /// Runs the prepared steps in order over `arena`, each by its
            /// own step type's `run`.
            pub(super) fn run_steps(arena: &mut Arena) {
                let mut run = __compiled::Run::new(
                    &mut arena.int8,
                    &mut arena.int16,
                    &mut arena.int32,
                    &mut arena.float32,
                    &MULTIPLIERS,
                );
                #calls
            }

            // the file, so that cargo builds again when it changes
            const _: &[u8] = include_bytes!(#path);
        }

        impl #name {
            /// The bytes of `predict`'s activations, the module's
            /// `RAM_BYTES`; the inputs and outputs are the caller's.
            pub const RAM_BYTES: usize = #module::RAM_BYTES;

            #predict_doc
            pub fn predict<#(#ss, #bs),*>(#(#params),*) -> #module::Output
            where
                #(#bounds)*
            {
                let mut arena = #module::Arena::new();
                Self::predict_in(#(#xs,)* &mut arena)
            }

            #predict_in_doc
            pub fn predict_in<#(#ss, #bs),*>(#(#params,)* arena: &mut #module::Arena) -> #module::Output
            where
                #(#bounds)*
            {
                #(#copy_in)*
                #module::run_steps(arena);
                #(#copy_out)*
                #returned
            }

            #quant_fns
        }
    })
}
