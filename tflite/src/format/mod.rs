//! Layer 2, the file format: the flatbuffer reader, the model view (each
//! operator's options as its raw table), the schema's op codes and
//! element types, little-endian arrays over the file's bytes and a
//! tensor's values, and the errors. Imports only `base`.

pub(crate) mod array;
pub(crate) mod error;
pub(crate) mod flatbuffer;
pub(crate) mod model;
pub(crate) mod types;
pub(crate) mod values;
