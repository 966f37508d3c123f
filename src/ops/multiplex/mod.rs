//! `multiplex` (PaddlePaddle): row i of the output is row i of candidate `index[i]`.

/// An index element type: `i32` or `i64`.
pub trait IndexElement: Copy + 'static {
    /// The value as `i64`.
    fn to_i64(self) -> i64;
}
impl IndexElement for i32 {
    fn to_i64(self) -> i64 {
        self as i64
    }
}
impl IndexElement for i64 {
    fn to_i64(self) -> i64 {
        self
    }
}

/// Why multiplex rejected its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiplexError {
    /// A shape problem not specific to this op.
    Shape(crate::error::ShapeError),
}
