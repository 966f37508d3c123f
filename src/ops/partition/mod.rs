//! TensorFlow's `dynamic_partition` (TF 2.21), the inverse of
//! [`dynamic_stitch`](crate::ops::stitch). Both import the index types
//! ([`StitchIndex`](crate::StitchIndex), [`IndexSlice`](crate::IndexSlice))
//! and the `[rows] + slice` shape from [`ops::indexed`](crate::ops::indexed),
//! and report through one error enum ([`StitchError`](crate::StitchError)).
//!
//! ## The rule
//! `dynamic_partition(&data, &partitions, Partitions::<NUM>).run()`:
//! - `partitions` holds `i32` or `i64` values, of any rank (a scalar too);
//! - `data.shape` starts with `partitions.shape` (the **prefix rule**); what
//!   follows is the *slice*;
//! - output `i` stacks, in row-major order, the slices `data[j, ...]` whose
//!   `partitions[j] == i`: its shape is `[count_i] + slice`;
//! - a partition value outside `[0, NUM)` is an error naming its position
//!   and value (TensorFlow: `"partitions[j] = v is not in [0, NUM)"`);
//! - `NUM >= 1`.
//!
//! ## What is static, what is `Dyn`
//! Each output's first dim, `count_i`, depends on the partition *values*: it
//! is [`Dyn`](crate::Dyn); the slice dims come from the data's type and stay
//! static. The index-element and prefix rules are compile errors on the
//! static path (`bounds.rs`), `NUM >= 1` a constant evaluated at
//! monomorphisation ([`Partitions::AT_LEAST_ONE`]); the values are checked
//! at run time by the op's one rule ([`partition_slice_dims`]), which every
//! path calls, or, where every shape is static and the types proved the
//! rest, by its last step alone (the values' range and counts, one pass).
//!
//! The round trip, with `dynamic_stitch` (TensorFlow's doc example):
//! ```
//! use shapecheck::prelude::*;
//! use shapecheck::{dynamic_partition, dynamic_stitch, Partitions};
//! let x = Tensor::<f32, shape![6]>::from_array([0.1, -1., 5.2, 4.3, -1., 7.4]);
//! let p = Tensor::<i32, shape![6]>::from_array([1, 0, 1, 1, 0, 1]); // x != -1
//! let ids = Tensor::<i32, shape![6]>::from_fn(|i| i[0] as i32);
//! let [ids0, ids1] = dynamic_partition(&ids, &p, Partitions::<2>).run().unwrap();
//! let [x0, mut x1] = dynamic_partition(&x, &p, Partitions::<2>).run().unwrap();
//! x1.as_mut_slice().iter_mut().for_each(|v| *v += 1.0);
//! let y = dynamic_stitch(&ids0, &x0).pair(&ids1, &x1).run().unwrap();
//! assert_eq!(y.as_slice(), &[1.1, -1., 6.2, 5.3, -1., 8.4]);
//! let err = dynamic_partition(&x, &p, Partitions::<1>).run().unwrap_err();
//! assert_eq!(err.to_string(), "dynamic_partition: partitions[0] = 1 is not in [0, 1)");
//! ```
//! Data that does not start with the partitions' shape does not compile
//! (`ui-tests/partition/fail/partition_prefix.rs`: "dynamic_partition/prefix:
//! data (Dim<4>, Dim<2>) does not start with partitions (Dim<2>,)"):
//! ```compile_fail
//! use shapecheck::prelude::*;
//! let data = Tensor::<f32, shape![4, 2]>::full(1.0);
//! let parts = Tensor::<i32, shape![2]>::from_array([0, 1]);
//! let _ = dynamic_partition(&data, &parts, Partitions::<2>).run_into(&mut [0.0; 8]);
//! ```
//!
//! ## Dynamic path
//! [`partition_slices`] takes run-time dims over slices and writes into a
//! caller's buffer (no heap); with `alloc`,
//! [`DynTensor::dynamic_partition`](crate::DynTensor::dynamic_partition).
//!
//! ## Backward
//! [`dynamic_partition_backward`] (and `_into`, [`partition_backward_slices`],
//! `DynTensor::dynamic_partition_backward`): the inverse scatter, each
//! output's `dout` rows back to the data's positions, typed as the data.
//! See [`backward`].
//!
//! ## Where TensorFlow's docs and implementation differ
//! - The docs say partitions are `int32`; `i64` partitions are accepted here
//!   too.
//! - The docs do not require `num_partitions >= 1`; the GPU kernel does
//!   ("num_partitions must be at least 1"), and so do we.
//!
//! ## Where things are
//! - `rule.rs`: the rule ([`partition_slice_dims`]); every path calls it
//!   (the static forms with static shapes: its values step only);
//! - `bounds.rs`: the same rules at the type level, for the compile errors;
//! - `api.rs`: the static path ([`dynamic_partition`],
//!   [`dynamic_partition_into`]);
//! - `kernel.rs`: the loops, and the dynamic path over slices
//!   ([`partition_slices`]); `dynamic.rs`: `DynTensor::dynamic_partition`.
//!
//! The errors are [`StitchError`](crate::StitchError)'s `Partition*` variants, `NoPartitions`
//! and `BufferTooSmall` (`ops/indexed.rs`).

mod api;
pub mod backward;
mod bounds;
pub(crate) mod dynamic;
mod kernel;
pub mod rule;

pub use api::{dynamic_partition, Partition};
pub use api::{dynamic_partition_bounded, dynamic_partition_bounded_into, dynamic_partition_into};
pub use backward::{
    dynamic_partition_backward, dynamic_partition_backward_into, partition_backward_slices,
};
pub use bounds::*;
#[cfg(feature = "alloc")]
pub use dynamic::DynPartition;
pub use kernel::partition_slices;
pub use rule::partition_slice_dims;

/// The number of partitions, `NUM` (TensorFlow's `num_partitions`), as a
/// type: `Partitions::<3>`. `NUM = 0` does not build.
///
/// ```
/// use shapecheck::prelude::*;
/// let data = tensor![10, 20, 30];
/// let [a, b, c] = dynamic_partition(&data, &tensor![2, 0, 2], Partitions::<3>).run().unwrap();
/// assert_eq!((a.as_slice(), b.as_slice(), c.as_slice()), (&[20][..], &[][..], &[10, 30][..]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Partitions<const NUM: usize>;

impl<const NUM: usize> Partitions<NUM> {
    /// Evaluated wherever a static partition op is used with `NUM`: stable
    /// Rust cannot bound a const generic by `NUM >= 1` without one impl per
    /// value, so this rule is a constant evaluated at monomorphisation
    /// (`cargo build` reports it, `cargo check` does not).
    pub const AT_LEAST_ONE: () = if NUM < 1 {
        crate::ops::const_fail(Self::ZERO)
    };
    const ZERO: &'static str = "dynamic_partition/num: Partitions::<0>: num_partitions must be at least 1 (TensorFlow: \"num_partitions must be at least 1\")";
}
