//! The quantization a `model!` module gives its inputs and outputs, the
//! same for both kinds of module (typed layers or the plan's steps):
//! each int8 or int16 input and output quantized per tensor gets its
//! scale and zero point as constants and a function between it and f32
//! values, TFLite Micro's `QUANTIZE` / `DEQUANTIZE` arithmetic.
//!
//! One input: `INPUT_SCALE`, `INPUT_ZERO_POINT` and `Net::quantize(&x)`;
//! several: `INPUT0_SCALE`, `INPUT0_ZERO_POINT`, `Net::quantize_input0(&x)`,
//! `INPUT1_...`, in the model's input order. One output: `OUTPUT_SCALE`,
//! `OUTPUT_ZERO_POINT` and `Net::dequantize(&y)`; several: `OUTPUT0_SCALE`,
//! ..., `Net::dequantize_output0(&y.0)`. An f32 or int32 tensor, or one
//! without a single scale, has none.

use proc_macro2::{Literal, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use shapecheck_tflite::{ModelTensor, TensorType};
use syn::Ident;

use super::{doc, per_tensor, shape_tokens};

/// One input or output of the model as its module names it.
pub(super) struct Port<'a> {
    /// The model's tensor.
    pub(super) tensor: ModelTensor<'a>,
    /// Its type in the module: `Input`, `Input0`, `Output`, `Output0`, ...
    pub(super) type_name: Ident,
    /// Its dims.
    pub(super) dims: Vec<usize>,
}

/// The tensor's scale and zero point when it is an int8 or int16 tensor
/// quantized per tensor with a positive, finite scale.
fn quantized(t: &ModelTensor<'_>) -> Option<(f32, i32)> {
    if !matches!(t.dtype(), TensorType::Int8 | TensorType::Int16) {
        return None;
    }
    let q = t.quantization()?;
    if q.is_per_channel() {
        return None;
    }
    let (scale, zero_point) = per_tensor(t).ok()?;
    (scale.is_finite() && scale > 0.0).then_some((scale, zero_point))
}

/// The module's quantization constants and the model struct's
/// `quantize` / `dequantize` functions, for every quantized input and
/// output (the module's file doc above names them).
pub(super) fn write(
    krate: &TokenStream2,
    module: &Ident,
    inputs: &[Port<'_>],
    outputs: &[Port<'_>],
) -> (TokenStream2, TokenStream2) {
    let (mut consts, mut fns) = (TokenStream2::new(), TokenStream2::new());
    for (i, port) in inputs.iter().enumerate() {
        let Some((scale, zero_point)) = quantized(&port.tensor) else {
            continue;
        };
        let (prefix, fname, what) = if inputs.len() == 1 {
            (
                "INPUT".to_string(),
                format_ident!("quantize"),
                "input".to_string(),
            )
        } else {
            (
                format!("INPUT{i}"),
                format_ident!("quantize_input{i}"),
                format!("input {i}"),
            )
        };
        consts.extend(constants(port, (scale, zero_point), &prefix, &what));
        let (s, z) = (
            format_ident!("{prefix}_SCALE"),
            format_ident!("{prefix}_ZERO_POINT"),
        );
        let ty = &port.type_name;
        let shape = shape_tokens(krate, &port.dims);
        let (element, convert) = if port.tensor.dtype() == TensorType::Int16 {
            ("int16", quote!(quantize_value_int16))
        } else {
            ("int8", quote!(quantize_value))
        };
        let d = doc(&format!(
            "Real values to the model's {element} {what}, [`{module}::{ty}`], as TFLite Micro's `QUANTIZE` computes them (`round(x / {prefix}_SCALE) + {prefix}_ZERO_POINT`, ties away from zero, clamped to {element})."
        ));
        fns.extend(quote! {
            #d
            pub fn #fname<S, B>(x: &#krate::Tensor<f32, S, B>) -> #module::#ty
            where
                S: #krate::ops::layers::ModelInput<#shape>,
                B: #krate::storage::Storage<f32>,
            {
                let x = S::as_input(x);
                let mut q = #module::#ty::zeros();
                for (q, &x) in q.as_mut_slice().iter_mut().zip(x.as_slice()) {
                    *q = #krate::tflite::#convert(x, #module::#s, #module::#z);
                }
                q
            }
        });
    }
    for (i, port) in outputs.iter().enumerate() {
        let Some((scale, zero_point)) = quantized(&port.tensor) else {
            continue;
        };
        let (prefix, fname, what) = if outputs.len() == 1 {
            (
                "OUTPUT".to_string(),
                format_ident!("dequantize"),
                "output".to_string(),
            )
        } else {
            (
                format!("OUTPUT{i}"),
                format_ident!("dequantize_output{i}"),
                format!("output {i}"),
            )
        };
        consts.extend(constants(port, (scale, zero_point), &prefix, &what));
        let (s, z) = (
            format_ident!("{prefix}_SCALE"),
            format_ident!("{prefix}_ZERO_POINT"),
        );
        let ty = &port.type_name;
        let shape = shape_tokens(krate, &port.dims);
        let (element, convert) = if port.tensor.dtype() == TensorType::Int16 {
            ("int16", quote!(dequantize_value_int16))
        } else {
            ("int8", quote!(dequantize_value))
        };
        let d = doc(&format!(
            "The model's {element} {what}, [`{module}::{ty}`], as real values (`{prefix}_SCALE · (q − {prefix}_ZERO_POINT)`, TFLite Micro's `DEQUANTIZE`)."
        ));
        fns.extend(quote! {
            #d
            pub fn #fname(y: &#module::#ty) -> #krate::Tensor<f32, #shape> {
                let mut real = #krate::Tensor::<f32, #shape>::zeros();
                for (r, &q) in real.as_mut_slice().iter_mut().zip(y.as_slice()) {
                    *r = #krate::tflite::#convert(q, #module::#s, #module::#z);
                }
                real
            }
        });
    }
    (consts, fns)
}

/// The two constants of one input or output, `{prefix}_SCALE` and
/// `{prefix}_ZERO_POINT`, documented with the tensor they describe.
fn constants(
    port: &Port<'_>,
    (scale, zero_point): (f32, i32),
    prefix: &str,
    what: &str,
) -> TokenStream2 {
    let (s, z) = (
        format_ident!("{prefix}_SCALE"),
        format_ident!("{prefix}_ZERO_POINT"),
    );
    let t = &port.tensor;
    let ty = &port.type_name;
    let scale_doc = doc(&format!(
        "The scale of the model's {what} ([`{ty}`], tensor {} \"{}\", {}): a real value is `{prefix}_SCALE · (q − {prefix}_ZERO_POINT)`.",
        t.index(),
        t.name(),
        t.dtype().name().to_lowercase()
    ));
    let zero_doc = doc(&format!(
        "The zero point of the model's {what} ([`{ty}`]): the {} value of a real 0.",
        t.dtype().name().to_lowercase()
    ));
    let (sl, zl) = (
        Literal::f32_unsuffixed(scale),
        Literal::i32_unsuffixed(zero_point),
    );
    quote! {
        #scale_doc
        pub const #s: f32 = #sl;
        #zero_doc
        pub const #z: i32 = #zl;
    }
}
