//! `shape!` (dims to a tuple of dim types) and the `Shape` / `FixedShape`
//! impls of every tuple rank.

use crate::common::{idents, tuple};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, LitInt, Token};

/// Splits `PATH ; rest` into the path to the library (`$crate` from the
/// wrappers) and the rest. Without a top-level `;` the path is `::shapecheck`
/// (a dim or a literal never has one outside a block or a bracket).
pub(crate) fn split_crate_path(input: TokenStream2) -> (TokenStream2, TokenStream2) {
    let tokens: Vec<proc_macro2::TokenTree> = input.into_iter().collect();
    let semi = tokens
        .iter()
        .position(|t| matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ';'));
    match semi {
        Some(i) => (
            tokens[..i].iter().cloned().collect(),
            tokens[i + 1..].iter().cloned().collect(),
        ),
        None => (quote!(::shapecheck), tokens.into_iter().collect()),
    }
}

/// `shape!` on tokens: the tuple of dim types, paths under `krate`.
pub(crate) fn shape_impl(krate: &TokenStream2, input: TokenStream2) -> syn::Result<TokenStream2> {
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    let types = parser
        .parse2(input)?
        .iter()
        .map(|expr| dim_type(krate, expr))
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(quote!((#(#types,)*)))
}

pub(crate) fn dim_type(krate: &TokenStream2, expr: &Expr) -> syn::Result<TokenStream2> {
    match expr {
        // a literal passed through a `macro_rules!` fragment arrives wrapped in
        // an invisible group: look inside, so that `1` is still `One`
        Expr::Group(g) => dim_type(krate, &g.expr),
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) => {
                let n: usize = int.base10_parse().map_err(|_| {
                    syn::Error::new_spanned(
                        int,
                        "a dim must be a non-negative integer that fits in usize",
                    )
                })?;
                if n == 1 {
                    Ok(quote!(#krate::One))
                } else {
                    let lit = LitInt::new(&n.to_string(), int.span());
                    Ok(quote!(#krate::Dim<#lit>))
                }
            }
            _ => Err(syn::Error::new_spanned(
                lit,
                "a dim is an integer, `Dyn`, or a const expression",
            )),
        },
        Expr::Path(p) if p.path.is_ident("Dyn") => Ok(quote!(#krate::Dyn)),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
            Err(syn::Error::new_spanned(u, "a dim cannot be negative"))
        }
        other => Ok(quote!(#krate::Dim<{ #other }>)),
    }
}

/// `Shape` and `FixedShape` for tuples of rank 1 to N.
pub(crate) fn shape_tuples(max: usize) -> TokenStream2 {
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
        // nested `arr_from_fn` calls, the flat row-major index built as
        // ((i0 * SIZE1 + i1) * SIZE2 + i2) ...
        let is = idents("i", r);
        let mut flat = quote!(0usize);
        for (di, ii) in d.iter().zip(&is) {
            flat = quote!((#flat * <#di as crate::dim::StaticDim>::SIZE + #ii));
        }
        let mut from_fn = quote!(f(#flat));
        for (di, ii) in d.iter().zip(&is).rev() {
            from_fn = quote!(<#di as crate::dim::StaticDim>::arr_from_fn(|#ii: usize| #from_fn));
        }
        let mut kind = quote!(crate::dim::kind::Fixed);
        for di in d.iter().rev() {
            kind =
                quote!(<<#di as crate::dim::DimLike>::Kind as crate::dim::kind::Kind>::Join<#kind>);
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
                type Kind = #kind;
                type Placeholder<const P: usize> = (#(<#d as crate::dim::DimLike>::Placeholder<P>,)*);
                type Room = (#(<#d as crate::dim::DimLike>::Room,)*);
                #[inline]
                fn dims(&self) -> crate::shape::Dims {
                    crate::shape::Dims::new(&[#(crate::dim::DimLike::size(self.#idx)),*])
                        .unwrap_or(crate::shape::Dims::SCALAR)
                }
                #[inline(always)]
                fn first_size(&self) -> usize {
                    crate::dim::DimLike::size(self.0)
                }
                fn from_dims(dims: &[usize]) -> ::core::result::Result<Self, crate::error::ShapeError> {
                    let &[#(#vals),*] = dims else {
                        return Err(crate::error::ShapeError::RankMismatch { expected: #r, found: dims.len() });
                    };
                    Ok((#(crate::dim::dim_from_size::<#d>(#pos, #vals)?,)*))
                }
            }
            impl<#(#d: crate::dim::DimLike),*> crate::shape::SameOrScalar<#t> for #t {}
            impl<#(#d: crate::dim::DimLike),*> crate::shape::SameOrScalar<()> for #t {}
            impl<#(#d: crate::dim::DimLike),*> crate::shape::SameOutput<#t> for #t {
                type SameOut = #t;
                #[inline(always)]
                fn same_out(self) -> #t { self }
            }
            impl<#(#d: crate::dim::DimLike),*> crate::shape::SameOutput<()> for #t {
                type SameOut = #t;
                #[inline(always)]
                fn same_out(self) -> #t { self }
            }
            impl<#(#d: crate::dim::StaticDim),*> crate::shape::PlaceholderDims for #t {
                const DIMS: &'static [usize] = &[#(<#d as crate::dim::StaticDim>::SIZE),*];
            }
            #[diagnostic::do_not_recommend]
            impl<#(#d: crate::dim::ProvenDim),*> crate::shape::ProvenShape for #t {
                type Proven = #t;
            }
            impl<#(#d: crate::dim::StaticDim),*> crate::shape::FixedShape for #t {
                const DIMS: &'static [usize] = &[#(<#d as crate::dim::StaticDim>::SIZE),*];
                const NUMEL: usize = 1 #(* <#d as crate::dim::StaticDim>::SIZE)*;
                type Array<T: Copy> = #arr;
                #[inline(always)]
                fn array_filled<T: Copy>(v: T) -> Self::Array<T> { #filled }
                #[inline(always)]
                fn array_from_fn<T: Copy>(mut f: impl FnMut(usize) -> T) -> Self::Array<T> { #from_fn }
                #[inline(always)]
                fn array_as_slice<T: Copy>(a: &Self::Array<T>) -> &[T] { #as_slice }
                #[inline(always)]
                fn array_as_mut_slice<T: Copy>(a: &mut Self::Array<T>) -> &mut [T] { #as_mut }
            }
        });
    }
    out
}
