//! Procedural macros for `shapecheck`.
//!
//! - [`shape!`]: the user-facing shape type macro;
//! - [`tensor!`]: the tensor literal macro (shape read from the nesting);
//! - `impl_shape_tuples!`, `impl_elementwise_rules!`, `impl_select_rules!`,
//!   `impl_multiplex_rules!`: used once each inside `shapecheck` to generate
//!   the per-rank impls of its shape traits (rank padding, numpy
//!   right-alignment, Paddle's axis placement), so that none is written by hand.
//!   They expand to paths under `crate::`, so they only work inside `shapecheck`.

use proc_macro::TokenStream;
use proc_macro2::{Ident, Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, LitInt, Token};

/// A shape type from a list of dims: `shape![2, 1, Dyn, N]` is
/// `(Dim<2>, One, Dyn, Dim<{ N }>)`. See `shapecheck::shape!`.
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    let dims = match parser.parse(input) {
        Ok(d) => d,
        Err(e) => return e.to_compile_error().into(),
    };
    let mut types = Vec::new();
    for expr in dims.iter() {
        match dim_type(expr) {
            Ok(t) => types.push(t),
            Err(e) => return e.to_compile_error().into(),
        }
    }
    quote!((#(#types,)*)).into()
}

fn dim_type(expr: &Expr) -> syn::Result<TokenStream2> {
    match expr {
        // a literal passed through a `macro_rules!` fragment arrives wrapped in
        // an invisible group: look inside, so that `1` is still `One`
        Expr::Group(g) => dim_type(&g.expr),
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) => {
                let n: usize = int.base10_parse().map_err(|_| {
                    syn::Error::new_spanned(
                        int,
                        "a dim must be a non-negative integer that fits in usize",
                    )
                })?;
                if n == 1 {
                    Ok(quote!(::shapecheck::One))
                } else {
                    let lit = LitInt::new(&n.to_string(), int.span());
                    Ok(quote!(::shapecheck::Dim<#lit>))
                }
            }
            _ => Err(syn::Error::new_spanned(
                lit,
                "a dim is an integer, `Dyn`, or a const expression",
            )),
        },
        Expr::Path(p) if p.path.is_ident("Dyn") => Ok(quote!(::shapecheck::Dyn)),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
            Err(syn::Error::new_spanned(u, "a dim cannot be negative"))
        }
        other => Ok(quote!(::shapecheck::Dim<{ #other }>)),
    }
}

fn parse_max_rank(input: TokenStream) -> usize {
    syn::parse::<LitInt>(input)
        .ok()
        .and_then(|l| l.base10_parse().ok())
        .unwrap_or(8)
}

fn idents(prefix: &str, n: usize) -> Vec<Ident> {
    (0..n).map(|i| format_ident!("{}{}", prefix, i)).collect()
}

fn tuple(items: &[Ident]) -> TokenStream2 {
    quote!((#(#items,)*))
}

/// An `isize` const argument, braced so that negative values parse.
fn axis_arg(axis: isize) -> TokenStream2 {
    let lit = syn::LitInt::new(&format!("{}isize", axis.unsigned_abs()), Span::call_site());
    if axis < 0 {
        quote!({ -#lit })
    } else {
        quote!({ #lit })
    }
}

/// `Shape` and `StaticShape` for tuples of rank 1 to N.
#[proc_macro]
pub fn impl_shape_tuples(input: TokenStream) -> TokenStream {
    let max = parse_max_rank(input);
    let mut out = TokenStream2::new();
    for r in 1..=max {
        let d = idents("D", r);
        let t = tuple(&d);
        let idx: Vec<syn::Index> = (0..r).map(syn::Index::from).collect();
        let pos: Vec<usize> = (0..r).collect();
        let vals = idents("n", r);
        // nested array type: D0::Arr<D1::Arr<...<T>>>
        let mut arr = quote!(T);
        for di in d.iter().rev() {
            arr = quote!(<#di as crate::dim::StaticDim>::Arr<#arr>);
        }
        let mut filled = quote!(v);
        for di in d.iter().rev() {
            filled = quote!(<#di as crate::dim::StaticDim>::arr_filled(#filled));
        }
        let d0 = &d[0];
        let mut as_slice = quote!(<#d0 as crate::dim::StaticDim>::arr_as_slice(a));
        let mut as_mut = quote!(<#d0 as crate::dim::StaticDim>::arr_as_mut_slice(a));
        for di in d.iter().skip(1) {
            as_slice = quote!(<#di as crate::dim::StaticDim>::flatten(#as_slice));
            as_mut = quote!(<#di as crate::dim::StaticDim>::flatten_mut(#as_mut));
        }
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike),*> crate::shape::Shape for #t {
                const RANK: usize = #r;
                const IS_STATIC: bool = true #(&& <#d as crate::dim::DimLike>::STATIC.is_some())*;
                #[inline]
                fn dims(&self) -> crate::shape::Dims {
                    crate::shape::Dims::new(&[#(crate::dim::DimLike::size(self.#idx)),*])
                        .unwrap_or(crate::shape::Dims::SCALAR)
                }
                fn from_dims(dims: &[usize]) -> ::core::result::Result<Self, crate::error::ShapeError> {
                    let &[#(#vals),*] = dims else {
                        return Err(crate::error::ShapeError::RankMismatch { expected: #r, found: dims.len() });
                    };
                    Ok((#(crate::shape::dim_from_size::<#d>(#pos, #vals)?,)*))
                }
            }
            impl<#(#d: crate::dim::StaticDim),*> crate::shape::StaticShape for #t {
                const DIMS: &'static [usize] = &[#(<#d as crate::dim::StaticDim>::SIZE),*];
                const NUMEL: usize = 1 #(* <#d as crate::dim::StaticDim>::SIZE)*;
                type Array<T: Copy> = #arr;
                #[inline(always)]
                fn array_filled<T: Copy>(v: T) -> Self::Array<T> { #filled }
                #[inline(always)]
                fn array_as_slice<T: Copy>(a: &Self::Array<T>) -> &[T] { #as_slice }
                #[inline(always)]
                fn array_as_mut_slice<T: Copy>(a: &mut Self::Array<T>) -> &mut [T] { #as_mut }
            }
        });
    }
    out.into()
}

/// `ElementwiseShapes` for every pair of ranks 0..=N and every axis Paddle accepts.
#[proc_macro]
pub fn impl_elementwise_rules(input: TokenStream) -> TokenStream {
    let max = parse_max_rank(input);
    let mut out = TokenStream2::new();
    for rx in 0..=max {
        for ry in 0..=max {
            out.extend(elementwise_rank_pair(rx, ry));
        }
    }
    out.into()
}

fn elementwise_rank_pair(rx: usize, ry: usize) -> TokenStream2 {
    let xs = idents("X", rx);
    let ys = idents("Y", ry);
    let xt = tuple(&xs);
    let yt = tuple(&ys);
    let generics = quote!(#(#xs: crate::dim::DimLike,)* #(#ys: crate::dim::DimLike,)*);
    let mut out = TokenStream2::new();
    let at = |o: usize| {
        let o = LitInt::new(&format!("{o}usize"), Span::call_site());
        quote!(crate::rules::At<#o>)
    };
    // the axis rule: which placement each axis means
    let mut axis_impl = |axis: isize, place: TokenStream2, gate: Option<TokenStream2>| {
        let ax = axis_arg(axis);
        let wh = gate.map(|g| quote!(where #g)).unwrap_or_default();
        out.extend(quote! {
            impl<#generics> crate::rules::ElementwiseAxis<#xt, #yt> for crate::ops::elementwise::Axis<#ax> #wh {
                type Place = #place;
            }
        });
    };
    let r = rx.max(ry);
    let rs = rx.min(ry);
    let x_is_small = rx < ry;
    if rx == ry {
        for axis in -16isize..16 {
            if axis == -1 || axis == 0 {
                axis_impl(axis, at(0), None);
            } else {
                axis_impl(axis, quote!(crate::rules::Identical), None);
            }
        }
    } else {
        let d = (r - rs) as isize;
        for axis in -(r as isize)..(r as isize) {
            let o = if axis >= 0 { axis } else { d + axis + 1 };
            if o < 0 {
                let ax = axis_arg(axis);
                axis_impl(
                    axis,
                    quote!(crate::rules::BeforeStart),
                    Some(
                        quote!((): crate::rules::ElementwiseAxisBeforeStart<#xt, #yt, crate::ops::elementwise::Axis<#ax>>),
                    ),
                );
            } else if o as usize + rs <= r {
                axis_impl(axis, at(o as usize), None);
            } else {
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{}usize", r - o as usize), Span::call_site()),
                );
                axis_impl(axis, quote!(crate::rules::AtTrimmed<#ol, #kl>), None);
            }
        }
    }
    // the alignment rule: one impl per placement
    let align = |place: TokenStream2, o: usize, kept: usize, rule: TokenStream2| {
        let mut preds = Vec::new();
        let mut out_dims = Vec::new();
        let mut out_vals = Vec::new();
        for i in 0..r {
            if i >= o && i < o + kept {
                let j = i - o;
                let (xd, yd, xv, yv) = if x_is_small {
                    (&xs[j], &ys[i], syn::Index::from(j), syn::Index::from(i))
                } else {
                    (&xs[i], &ys[j], syn::Index::from(i), syn::Index::from(j))
                };
                preds.push(quote!(#xd: #rule<#yd, #xt, #yt, Ax>));
                out_dims.push(quote!(<#xd as #rule<#yd, #xt, #yt, Ax>>::Out));
                out_vals.push(quote!(#rule::<#yd, #xt, #yt, Ax>::merge(x.#xv, y.#yv)));
            } else {
                let (ld, lv, src) = if x_is_small {
                    (&ys[i], syn::Index::from(i), quote!(y))
                } else {
                    (&xs[i], syn::Index::from(i), quote!(x))
                };
                out_dims.push(quote!(#ld));
                out_vals.push(quote!(#src.#lv));
            }
        }
        for j in kept..rs {
            let sd = if x_is_small { &xs[j] } else { &ys[j] };
            preds.push(quote!(#sd: crate::rules::ElementwiseDroppableDim<#xt, #yt, Ax>));
        }
        let (x_at, y_at) = if x_is_small { (o, 0usize) } else { (0usize, o) };
        // a rank-0 output is `()`: an empty body says so without a unit expression
        let body = if out_vals.is_empty() {
            quote!()
        } else {
            quote!((#(#out_vals,)*))
        };
        quote! {
            impl<#generics Ax> crate::rules::ElementwiseAlign<#xt, #yt, Ax> for #place
            where #(#preds,)*
            {
                type Output = (#(#out_dims,)*);
                const X_AT: usize = #x_at;
                const Y_AT: usize = #y_at;
                #[inline(always)]
                #[allow(unused_variables)]
                fn output(x: &#xt, y: &#yt) -> Self::Output { #body }
            }
        }
    };
    if rx == ry {
        out.extend(align(
            at(0),
            0,
            r,
            quote!(crate::rules::ElementwiseBroadcastDim),
        ));
        out.extend(align(
            quote!(crate::rules::Identical),
            0,
            r,
            quote!(crate::rules::ElementwiseSameDim),
        ));
    } else {
        // o = r only happens for a scalar operand (rs = 0) at axis -1
        for o in 0..=r {
            if o + rs <= r {
                out.extend(align(
                    at(o),
                    o,
                    rs,
                    quote!(crate::rules::ElementwiseBroadcastDim),
                ));
            } else if o < r {
                let kept = r - o;
                let (ol, kl) = (
                    LitInt::new(&format!("{o}usize"), Span::call_site()),
                    LitInt::new(&format!("{kept}usize"), Span::call_site()),
                );
                out.extend(align(
                    quote!(crate::rules::AtTrimmed<#ol, #kl>),
                    o,
                    kept,
                    quote!(crate::rules::ElementwiseBroadcastDim),
                ));
            }
        }
    }
    out
}

/// The pairwise numpy and "none" rules of select, and the pdpd placements.
#[proc_macro]
pub fn impl_select_rules(input: TokenStream) -> TokenStream {
    let max = parse_max_rank(input);
    let mut out = TokenStream2::new();
    for ra in 0..=max {
        for rb in 0..=max {
            let a = idents("A", ra);
            let b = idents("B", rb);
            let at = tuple(&a);
            let bt = tuple(&b);
            let generics =
                quote!(#(#a: crate::dim::DimLike,)* #(#b: crate::dim::DimLike,)* C, T, E);
            // numpy: right-aligned, two-way
            let r = ra.max(rb);
            let mut preds = Vec::new();
            let mut dims = Vec::new();
            let mut vals = Vec::new();
            for i in 0..r {
                let ai = (i + ra).checked_sub(r);
                let bi = (i + rb).checked_sub(r);
                match (ai, bi) {
                    (Some(p), Some(q)) => {
                        let (ad, bd) = (&a[p], &b[q]);
                        let (pv, qv) = (syn::Index::from(p), syn::Index::from(q));
                        preds.push(quote!(#ad: crate::rules::SelectNumpyDim<#bd, C, T, E>));
                        dims.push(quote!(<#ad as crate::rules::SelectNumpyDim<#bd, C, T, E>>::Out));
                        vals.push(quote!(crate::rules::SelectNumpyDim::<#bd, C, T, E>::merge(x.#pv, y.#qv)));
                    }
                    (Some(p), None) => {
                        let ad = &a[p];
                        let pv = syn::Index::from(p);
                        dims.push(quote!(#ad));
                        vals.push(quote!(x.#pv));
                    }
                    (None, Some(q)) => {
                        let bd = &b[q];
                        let qv = syn::Index::from(q);
                        dims.push(quote!(#bd));
                        vals.push(quote!(y.#qv));
                    }
                    (None, None) => {}
                }
            }
            out.extend(quote! {
                impl<#generics> crate::rules::SelectNumpyPair<#bt, C, T, E> for #at
                where #(#preds,)*
                {
                    type Output = (#(#dims,)*);
                    #[inline(always)]
                    #[allow(unused_variables, clippy::unused_unit)]
                    fn output(x: &Self, y: &#bt) -> Self::Output { (#(#vals,)*) }
                }
            });
            // none: identical shapes
            if ra == rb {
                let preds: Vec<_> = a
                    .iter()
                    .zip(&b)
                    .map(|(p, q)| quote!(#p: crate::rules::SelectSameDim<#q, C, T, E>))
                    .collect();
                let dims: Vec<_> = a
                    .iter()
                    .zip(&b)
                    .map(|(p, q)| quote!(<#p as crate::rules::SelectSameDim<#q, C, T, E>>::Out))
                    .collect();
                let vals: Vec<_> = (0..ra)
                    .map(|i| {
                        let q = &b[i];
                        let iv = syn::Index::from(i);
                        quote!(crate::rules::SelectSameDim::<#q, C, T, E>::merge(x.#iv, y.#iv))
                    })
                    .collect();
                out.extend(quote! {
                    impl<#generics> crate::rules::SelectSamePair<#bt, C, T, E> for #at
                    where #(#preds,)*
                    {
                        type Output = (#(#dims,)*);
                        #[inline(always)]
                        #[allow(unused_variables, clippy::unused_unit)]
                        fn output(x: &Self, y: &#bt) -> Self::Output { (#(#vals,)*) }
                    }
                });
            }
            // pdpd: source A placed in destination B at an axis, one way
            if ra <= rb {
                for axis in -1isize..=(max as isize) {
                    let ax = axis_arg(axis);
                    let o = if axis < 0 { rb - ra } else { axis as usize };
                    if o > rb {
                        continue;
                    }
                    let kept = ra.min(rb - o);
                    let mut preds = Vec::new();
                    for (j, ad) in a.iter().enumerate() {
                        if j < kept {
                            let bd = &b[o + j];
                            preds.push(quote!(#ad: crate::rules::SelectPdpdDim<#bd, C, T, E, #ax>));
                        } else {
                            preds.push(
                                quote!(#ad: crate::rules::SelectPdpdDroppableDim<C, T, E, #ax>),
                            );
                        }
                    }
                    out.extend(quote! {
                        impl<#generics> crate::rules::SelectPdpdInto<#bt, C, T, E, #ax> for #at
                        where #(#preds,)*
                        {
                            const AT: usize = #o;
                        }
                    });
                }
            }
        }
    }
    out.into()
}

/// `MultiplexShapes` for every candidate rank 0..=N, and `MultiplexIndexShape`
/// for every index rank 0..=N.
///
/// `MultiplexShapes<IS>` has one impl per candidate rank, for any `IS`: rank 0
/// and 1 require the gate `MultiplexCandidateRank` (implemented by no type),
/// the others `IS: MultiplexIndexShape<S>`. That one holds for an index of
/// rank 2 whose rows equal the candidates' first dim and whose second dim is 1;
/// other index ranks require the gate `MultiplexIndexRank`. The index shape is
/// always the `Self` type of the bound, so rustc waits until it knows the
/// index's type before deciding (and names the failing rule in the error).
#[proc_macro]
pub fn impl_multiplex_rules(input: TokenStream) -> TokenStream {
    let max = parse_max_rank(input);
    let mut out = TokenStream2::new();
    for r in 0..=max {
        let d = idents("D", r);
        let t = tuple(&d);
        if r < 2 {
            out.extend(quote! {
                impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> crate::rules::MultiplexShapes<IS> for #t
                where IS: crate::rules::MultiplexCandidateRank<#t>
                {}
            });
            continue;
        }
        let d0 = &d[0];
        out.extend(quote! {
            impl<#(#d: crate::dim::DimLike,)* IS: crate::shape::Shape> crate::rules::MultiplexShapes<IS> for #t
            where IS: crate::rules::MultiplexIndexShape<#t>
            {}
            impl<#(#d: crate::dim::DimLike,)* I0: crate::dim::DimLike, I1: crate::dim::DimLike>
                crate::rules::MultiplexIndexShape<#t> for (I0, I1)
            where
                I0: crate::rules::MultiplexRowsDim<#d0, #t, (I0, I1)>,
                I1: crate::rules::MultiplexIndexCols<#t, (I0, I1)>,
            {}
        });
    }
    for q in 0..=max {
        if q == 2 {
            continue;
        }
        let j = idents("J", q);
        let jt = tuple(&j);
        out.extend(quote! {
            impl<#(#j: crate::dim::DimLike,)* S: crate::shape::Shape> crate::rules::MultiplexIndexShape<S> for #jt
            where #jt: crate::rules::MultiplexIndexRank<S>
            {}
        });
    }
    out.into()
}

/// An inline tensor from a nested array literal: `tensor![[1.0, 2.0], [3.0, 4.0]]`
/// is `Tensor::<_, shape![2, 2]>::from_array([[1.0, 2.0], [3.0, 4.0]])`.
/// See `shapecheck::tensor!`.
#[proc_macro]
pub fn tensor(input: TokenStream) -> TokenStream {
    match tensor_impl(input.into()) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// The largest nesting depth `tensor!` accepts (shapecheck's `MAX_RANK`).
const TENSOR_MAX_RANK: usize = 8;

fn tensor_impl(input: TokenStream2) -> syn::Result<TokenStream2> {
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
            dim_type(&lit)
        })
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(quote! {
        ::shapecheck::Tensor::<_, (#(#types,)*)>::from_array([#(#items),*])
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
