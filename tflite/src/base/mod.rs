//! Layer 1, what everything uses: a constant's bytes, little-endian arrays
//! over them, a tensor's values, and the Rust writer `model!`'s generated
//! code is made with. Imports nothing of the crate.

pub(crate) mod array;
pub(crate) mod bytes;
pub(crate) mod values;
pub(crate) mod write_rust;
