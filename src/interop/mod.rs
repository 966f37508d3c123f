//! Interop with other crates, each behind its own feature (all off by
//! default; none turns on `std`, and only `ndarray` turns on `alloc`).
//!
//! | feature | module | what |
//! |---|---|---|
//! | `ndarray` | [`mod@ndarray`] | zero-copy views both ways, owned conversions, `DynTensor` ↔ `ArrayD` |
//! | `nalgebra` | [`mod@nalgebra`] | `SMatrix` / `DMatrix` ↔ 2-D tensors (a transposing copy) |
//! | `generic-array` | [`generic_array`] | `GenericArray<T, N>` as storage; [`TDim<N>`](generic_array::TDim), a dim from a typenum length |
//! | `serde` | [`serde`] | `Serialize` / `Deserialize` for tensors, `DynTensor` and `Dims` |
//! | `defmt` | [`defmt`] | `defmt::Format` for tensors, dims and the error types |
//! | `half` | [`half`] | `f16` and `bf16` elements |

#[cfg(feature = "ndarray")]
#[cfg_attr(docsrs, doc(cfg(feature = "ndarray")))]
pub mod ndarray;

#[cfg(feature = "half")]
#[cfg_attr(docsrs, doc(cfg(feature = "half")))]
pub mod half;

#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;

#[cfg(feature = "nalgebra")]
#[cfg_attr(docsrs, doc(cfg(feature = "nalgebra")))]
pub mod nalgebra;

#[cfg(feature = "generic-array")]
#[cfg_attr(docsrs, doc(cfg(feature = "generic-array")))]
pub mod generic_array;

#[cfg(feature = "defmt")]
#[cfg_attr(docsrs, doc(cfg(feature = "defmt")))]
pub mod defmt;
