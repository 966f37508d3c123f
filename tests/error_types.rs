//! Every error type the crate exports, listed once: each op's (and the
//! shape and fused-expression errors) converts into `shapecheck::Error`, so
//! `?` carries it across ops, and, under the feature `defmt`, every one
//! (the interop errors of the features that are on too) is `defmt::Format`.
//! A type without the conversion or the impl fails to build here, and
//! `the_list_is_every_error_type_in_src` fails when `src/` defines an error
//! type the list does not name.

use shapecheck::{
    ElementwiseError, Error, ExprError, LodError, LodResetError, MatmulError, MultiplexError,
    ReduceError, ReshapeError, SelectError, ShapeError, SoftmaxError, StitchError,
};

/// The error types that convert into [`Error`], by name.
const INTO_ERROR: &[&str] = &[
    "ShapeError",
    "ElementwiseError",
    "SelectError",
    "MultiplexError",
    "StitchError",
    "ReshapeError",
    "LodResetError",
    "LodError",
    "ExprError",
    "MatmulError",
    "ReduceError",
    "SoftmaxError",
];

/// Error types that are not an op's rule and so convert into nothing: the
/// one error itself, a parse error of an activation's name, the interop
/// errors of the features (each returned by a conversion, not by an op).
const OTHER: &[&str] = &["Error", "UnknownActivation", "NdarrayError"];

fn converts<E: Into<Error>>() {}

#[test]
fn every_op_error_converts_into_the_one_error() {
    converts::<ShapeError>();
    converts::<ElementwiseError>();
    converts::<SelectError>();
    converts::<MultiplexError>();
    converts::<StitchError>();
    converts::<ReshapeError>();
    converts::<LodResetError>();
    converts::<LodError>();
    converts::<ExprError>();
    converts::<MatmulError>();
    converts::<ReduceError>();
    converts::<SoftmaxError>();
    assert_eq!(INTO_ERROR.len(), 12);
}

#[cfg(feature = "defmt")]
#[test]
fn every_error_type_is_defmt_format() {
    fn formats<E: defmt::Format>() {}
    formats::<Error>();
    formats::<ShapeError>();
    formats::<ElementwiseError>();
    formats::<SelectError>();
    formats::<MultiplexError>();
    formats::<StitchError>();
    formats::<ReshapeError>();
    formats::<LodResetError>();
    formats::<LodError>();
    formats::<ExprError>();
    formats::<MatmulError>();
    formats::<ReduceError>();
    formats::<SoftmaxError>();
    formats::<shapecheck::ops::elementwise::UnknownActivation>();
    #[cfg(feature = "ndarray")]
    formats::<shapecheck::interop::ndarray::NdarrayError>();
}

/// The names `src/` defines as `pub enum` / `pub struct` ending in `Error`
/// (and `UnknownActivation`), read from the files.
fn error_types_in_src() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).expect("src/ is readable") {
            let p = e.expect("a readable entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("a readable file");
                for line in text.lines() {
                    let t = line.trim_start();
                    for kw in ["pub enum ", "pub struct "] {
                        if let Some(rest) = t.strip_prefix(kw) {
                            let name: String = rest
                                .chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect();
                            if name.ends_with("Error") || name == "UnknownActivation" {
                                out.push(name);
                            }
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(std::path::Path::new("src"), &mut out);
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_list_is_every_error_type_in_src() {
    let found = error_types_in_src();
    assert!(found.len() >= 12, "the scan found too few: {found:?}");
    for name in &found {
        assert!(
            INTO_ERROR.contains(&name.as_str()) || OTHER.contains(&name.as_str()),
            "src/ defines the error type {name}, which tests/error_types.rs does not list: give it a `From` into `shapecheck::Error` and a `defmt::Format` impl (src/interop/defmt.rs), and list it here"
        );
    }
    for name in INTO_ERROR.iter().chain(OTHER) {
        assert!(
            found.iter().any(|f| f == name),
            "{name} is listed but no longer defined in src/"
        );
    }
}
