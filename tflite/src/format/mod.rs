//! Layer 2, the file format: the flatbuffer reader, the model view (each
//! operator's options as its raw table), the schema's op codes and
//! element types, and the errors. Imports only `base`.

pub(crate) mod error;
pub(crate) mod flatbuffer;
pub(crate) mod model;
pub(crate) mod types;
