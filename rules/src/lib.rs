//! The shape rules of `shapecheck`'s operators, each written once.
//!
//! Every function here is a `const fn` over ranks, axes and dims (`usize`,
//! `isize`, slices) that returns a small verdict: where an operand's dims go
//! in the output ([`align::Placed`]), which placement an axis means
//! ([`elementwise::Placement`]), whether a rank or an axis is accepted. Two
//! callers read the same functions:
//!
//! - `shapecheck`'s run-time rules (`ops/<op>/rule.rs`), which map each
//!   verdict to the op's typed error (with its message, its `rule()` and its
//!   shapes), at run time for the dynamic path and at compile time for static
//!   shapes;
//! - `shapecheck-macros`, whose generators of the per-rank type-level impls
//!   write one impl per verdict: a generated table is the function's table.
//!
//! So the type-level and run-time forms of a rule cannot place a dim
//! differently. `no_std`, no dependencies, no `unsafe`; nothing here panics
//! (ranks are at most a few dozen, so no arithmetic overflows).
//!
//! ```
//! use shapecheck_rules::elementwise::{placement, Placement};
//! // Paddle's elementwise rule: Y [3] placed in X [2, 3, 4] at axis 1
//! assert_eq!(placement(3, 1, 1), Placement::At(1));
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod align;
pub mod axis;
pub mod elementwise;
pub mod indexed;
pub mod matmul;
pub mod multiplex;
pub mod select;
