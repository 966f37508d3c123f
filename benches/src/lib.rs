//! Benchmarks live in `benches/ops.rs`; this library is empty.
