//! The library half of the conformance tool: the vector-file reader, shared
//! by the `conformance` binary and the fuzz target `fuzz/fuzz_targets/vectors.rs`
//! (arbitrary bytes must give an error, never a panic).

pub mod vectors;
