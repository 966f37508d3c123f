//! `tensor!`: a nested array literal to an inline tensor, its shape read from
//! the nesting, a ragged literal reported at the offending row.

use crate::shape::dim_type;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

/// The largest nesting depth `tensor!` accepts (shapecheck's `MAX_RANK`).
const TENSOR_MAX_RANK: usize = 8;

pub(crate) fn tensor_impl(krate: &TokenStream2, input: TokenStream2) -> syn::Result<TokenStream2> {
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    let top: Vec<Expr> = parser.parse2(input)?.into_iter().collect();
    // the shape, read along the first element of every level
    let mut dims = vec![top.len()];
    let mut first = top.first();
    while let Some(e) = first {
        match tensor_row(e)? {
            Some(row) => {
                dims.push(row.len());
                if dims.len() > TENSOR_MAX_RANK {
                    return Err(syn::Error::new_spanned(
                        e,
                        format!(
                            "tensor!: the literal is nested more than {TENSOR_MAX_RANK} deep, and a shape has at most {TENSOR_MAX_RANK} dims"
                        ),
                    ));
                }
                first = row.first().copied();
            }
            None => break,
        }
    }
    // every other row must have the same length and depth as the first one
    let mut path = Vec::new();
    let items = tensor_check(&top, &dims, &mut path)?;
    let types = dims
        .iter()
        .map(|&n| {
            let lit: Expr = syn::parse_quote!(#n);
            dim_type(krate, &lit)
        })
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(quote! {
        #krate::Tensor::<_, (#(#types,)*)>::from_array([#(#items),*])
    })
}

/// The elements of `e` if it is a row (an array literal), `None` if it is a value.
fn tensor_row(e: &Expr) -> syn::Result<Option<Vec<&Expr>>> {
    match e {
        // an array passed through a `macro_rules!` fragment arrives wrapped in
        // an invisible group
        Expr::Group(g) => tensor_row(&g.expr),
        Expr::Array(a) => Ok(Some(a.elems.iter().collect())),
        Expr::Repeat(r) => Err(syn::Error::new_spanned(
            r,
            "tensor!: a repeat expression `[v; n]` is not supported here; write the elements out, or use `Tensor::full`",
        )),
        _ => Ok(None),
    }
}

/// `row 1` for a top-level row, `row [1, 2]` deeper down.
fn tensor_path(path: &[usize]) -> String {
    format!("row {}", tensor_index(path))
}

/// `1` at the top level, `[1, 2]` deeper down.
fn tensor_index(path: &[usize]) -> String {
    match path {
        [i] => i.to_string(),
        _ => format!(
            "[{}]",
            path.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Checks the elements of one row at depth `path.len()` against `dims`, and
/// returns them as tokens (rows re-emitted as array literals).
fn tensor_check(
    elems: &[impl core::borrow::Borrow<Expr>],
    dims: &[usize],
    path: &mut Vec<usize>,
) -> syn::Result<Vec<TokenStream2>> {
    let depth = path.len();
    let nested = dims.len() > depth + 1;
    let mut out = Vec::with_capacity(elems.len());
    for (i, e) in elems.iter().enumerate() {
        let e = e.borrow();
        path.push(i);
        let row = tensor_row(e)?;
        let first: Vec<usize> = vec![0; path.len()];
        match (nested, row) {
            (true, Some(row)) => {
                let want = dims[depth + 1];
                if row.len() != want {
                    return Err(syn::Error::new_spanned(
                        e,
                        format!(
                            "tensor!: {} has {} element{}, but {} has {want}",
                            tensor_path(path),
                            row.len(),
                            if row.len() == 1 { "" } else { "s" },
                            tensor_path(&first),
                        ),
                    ));
                }
                let inner = tensor_check(&row, dims, path)?;
                out.push(quote!([#(#inner),*]));
            }
            (true, None) => {
                return Err(syn::Error::new_spanned(
                    e,
                    format!(
                        "tensor!: {} is a single value, but {} has {} element{}",
                        tensor_path(path),
                        tensor_path(&first),
                        dims[depth + 1],
                        if dims[depth + 1] == 1 { "" } else { "s" },
                    ),
                ));
            }
            (false, Some(_)) => {
                return Err(syn::Error::new_spanned(
                    e,
                    format!(
                        "tensor!: element {} is a row, but element {} is a single value; every row must be nested equally deep",
                        tensor_index(path),
                        tensor_index(&first),
                    ),
                ));
            }
            (false, None) => out.push(quote!(#e)),
        }
        path.pop();
    }
    Ok(out)
}
