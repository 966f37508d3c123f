//! The [prelude](crate::prelude) for code on the dynamic path: the same
//! names, with `select`, `multiplex`, `dynamic_stitch` and
//! `dynamic_partition` taking [`DynTensor`]s, so that code reads as its
//! static form with `DynTensor` in place of `Tensor`. Rust has no
//! overloading: a module uses this prelude or [`crate::prelude`], and names
//! the other path's functions in full (`shapecheck::select`). An export
//! list, as `lib.rs` is: the functions live in each op's `dynamic.rs`.
//!
//! ```
//! use shapecheck::dynamic::prelude::*;
//! let c = DynTensor::new(&[2], vec![true, false]).unwrap();
//! let x = DynTensor::new(&[2], vec![1.0f32, 2.0]).unwrap();
//! let y = DynTensor::new(&[], vec![0.0f32]).unwrap();
//! assert_eq!(select(&c, &x, &y, Numpy).unwrap().as_slice(), &[1.0, 0.0]);
//! // the static path's functions, in full
//! let t = shapecheck::select(&tensor![true, false], &tensor![1, 2], &tensor![0, 0], Numpy);
//! assert_eq!(t.as_slice(), &[1, 0]);
//! ```

pub use crate::ops::multiplex::dynamic::multiplex;
pub use crate::ops::partition::dynamic::dynamic_partition;
pub use crate::ops::select::dynamic::select;
pub use crate::ops::stitch::dynamic::dynamic_stitch;
pub use crate::prelude::*;
