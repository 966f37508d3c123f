//! `tensor!`: a nested array literal to an inline tensor, its shape read from
//! the nesting, a ragged literal reported at the offending row.

use crate::shape::dim_type;
use proc_macro2::{Delimiter, TokenStream as TokenStream2, TokenTree};
use quote::{quote, ToTokens};
use syn::parse::{ParseStream, Parser};
use syn::{Expr, Token};

/// The largest nesting depth `tensor!` accepts (shapecheck's `MAX_RANK`).
const TENSOR_MAX_RANK: usize = 8;

/// The error of a repeat expression, whose length the macro cannot see.
const REPEAT: &str = "tensor!: a repeat expression `[v; n]` is not supported here; write the elements out, or use `Tensor::full`";

/// One element of a literal: a row (an array literal, whose elements are
/// read in turn) or a value, kept as its tokens.
enum Elem {
    Row {
        tokens: TokenStream2,
        elems: Vec<Elem>,
    },
    Value(TokenStream2),
}

pub(crate) fn tensor_impl(krate: &TokenStream2, input: TokenStream2) -> syn::Result<TokenStream2> {
    let top = read_row(input)?;
    // the shape, read along the first element of every level
    let mut dims = vec![top.len()];
    let mut first = top.first();
    while let Some(Elem::Row { tokens, elems }) = first {
        dims.push(elems.len());
        if dims.len() > TENSOR_MAX_RANK {
            return Err(syn::Error::new_spanned(
                tokens,
                format!(
                    "tensor!: the literal is nested more than {TENSOR_MAX_RANK} deep, and a shape has at most {TENSOR_MAX_RANK} dims"
                ),
            ));
        }
        first = elems.first();
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

/// The comma-separated elements of one row, each a row or a value.
fn read_row(input: TokenStream2) -> syn::Result<Vec<Elem>> {
    split_elements
        .parse2(input)?
        .into_iter()
        .map(read_elem)
        .collect()
}

/// An element's tokens as a row if they are one array literal (`[a, b]`,
/// also wrapped in the invisible group a `macro_rules!` fragment adds), else
/// as a value.
fn read_elem(tokens: TokenStream2) -> syn::Result<Elem> {
    let mut trees = tokens.clone().into_iter();
    let (Some(TokenTree::Group(g)), None) = (trees.next(), trees.next()) else {
        return Ok(Elem::Value(tokens));
    };
    match g.delimiter() {
        // a value keeps its invisible group (the fragment's precedence)
        Delimiter::None => Ok(match read_elem(g.stream())? {
            Elem::Value(_) => Elem::Value(tokens),
            row => row,
        }),
        Delimiter::Bracket => {
            let repeat = g
                .stream()
                .into_iter()
                .any(|t| matches!(&t, TokenTree::Punct(p) if p.as_char() == ';'));
            if repeat {
                return Err(syn::Error::new_spanned(&tokens, REPEAT));
            }
            Ok(Elem::Row {
                elems: read_row(g.stream())?,
                tokens,
            })
        }
        _ => Ok(Elem::Value(tokens)),
    }
}

/// Splits a row at the commas between its elements. An element is read as
/// an expression where syn's expression parser takes it whole (so the comma
/// in `f::<A, B>(x)` stays inside), otherwise as the tokens up to the next
/// comma: an array literal, an `if`, a block or a `?` keep their own commas
/// inside a group.
fn split_elements(input: ParseStream) -> syn::Result<Vec<TokenStream2>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        let fork = input.fork();
        let whole = fork.parse::<Expr>().is_ok() && (fork.is_empty() || fork.peek(Token![,]));
        let mut tokens = TokenStream2::new();
        if whole {
            while input.cursor() != fork.cursor() {
                input.parse::<TokenTree>()?.to_tokens(&mut tokens);
            }
        } else {
            while !input.is_empty() && !input.peek(Token![,]) {
                // `tensor![v; n]`: no expression has a `;` outside a group
                if input.peek(Token![;]) {
                    return Err(input.error(REPEAT));
                }
                input.parse::<TokenTree>()?.to_tokens(&mut tokens);
            }
        }
        if tokens.is_empty() {
            return Err(input.error("tensor!: expected an element before this comma"));
        }
        out.push(tokens);
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(out)
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
    elems: &[Elem],
    dims: &[usize],
    path: &mut Vec<usize>,
) -> syn::Result<Vec<TokenStream2>> {
    let depth = path.len();
    let nested = dims.len() > depth + 1;
    let mut out = Vec::with_capacity(elems.len());
    for (i, e) in elems.iter().enumerate() {
        path.push(i);
        let first: Vec<usize> = vec![0; path.len()];
        match (nested, e) {
            (true, Elem::Row { tokens, elems: row }) => {
                let want = dims[depth + 1];
                if row.len() != want {
                    return Err(syn::Error::new_spanned(
                        tokens,
                        format!(
                            "tensor!: {} has {} element{}, but {} has {want}",
                            tensor_path(path),
                            row.len(),
                            if row.len() == 1 { "" } else { "s" },
                            tensor_path(&first),
                        ),
                    ));
                }
                let inner = tensor_check(row, dims, path)?;
                out.push(quote!([#(#inner),*]));
            }
            (true, Elem::Value(tokens)) => {
                return Err(syn::Error::new_spanned(
                    tokens,
                    format!(
                        "tensor!: {} is a single value, but {} has {} element{}",
                        tensor_path(path),
                        tensor_path(&first),
                        dims[depth + 1],
                        if dims[depth + 1] == 1 { "" } else { "s" },
                    ),
                ));
            }
            (false, Elem::Row { tokens, .. }) => {
                return Err(syn::Error::new_spanned(
                    tokens,
                    format!(
                        "tensor!: element {} is a row, but element {} is a single value; every row must be nested equally deep",
                        tensor_index(path),
                        tensor_index(&first),
                    ),
                ));
            }
            (false, Elem::Value(tokens)) => out.push(tokens.clone()),
        }
        path.pop();
    }
    Ok(out)
}
