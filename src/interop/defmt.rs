//! `defmt` (feature `defmt`; no `std`, no `alloc`): [`defmt::Format`] for
//! tensors, dims and the error types, so firmware can log them over RTT.
//!
//! - [`Dims`] logs as its list of dims (`[2, 3]`), [`Dim`], [`One`] and
//!   [`Dyn`] as their size;
//! - a [`Tensor`] (and a `DynTensor`) logs as `Tensor[2, 3] [1, 2, 3, 4, 5,
//!   6]`: its dims, then its elements in row-major order, flat (defmt
//!   encodes the slice and the host prints it; nested brackets would need
//!   formatting on the device);
//! - a [`LodTensor`](crate::LodTensor) logs as its dense tensor followed by
//!   its levels' offsets (`LodTensor[6, 1] [..] lod [[0, 2, 5, 6]]`);
//! - every error type ([`Error`](crate::Error), [`ShapeError`], [`ElementwiseError`],
//!   [`SelectError`], [`MultiplexError`], [`UnknownActivation`],
//!   [`StitchError`](crate::StitchError), [`LodError`](crate::LodError),
//!   [`LodResetError`](crate::LodResetError), [`ReduceError`](crate::ReduceError),
//!   [`SoftmaxError`](crate::SoftmaxError), [`MatmulError`](crate::MatmulError),
//!   [`ReshapeError`](crate::ReshapeError), [`ExprError`](crate::ExprError), and the interop errors of the
//!   features that are on) logs its `Display` message through
//!   [`defmt::Display2Format`]: the same words as on a host, formatted on the
//!   device (an error is logged rarely; one message keeps the two in step).
//!
//! ```no_run
//! # fn log(t: &shapecheck::Tensor<i32, shapecheck::shape![2]>) {
//! defmt::info!("out = {}", t);
//! # }
//! ```

use crate::dim::{Dim, Dyn, One};
use crate::dims::{Dims, ShapeError};
use crate::ops::elementwise::ElementwiseError;
use crate::ops::elementwise::UnknownActivation;
use crate::ops::multiplex::MultiplexError;
use crate::ops::select::SelectError;
use crate::shape::Shape;
use crate::storage::Storage;
use crate::tensor::Tensor;
use ::defmt::{Format, Formatter};

impl Format for Dims {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", self.as_slice())
    }
}

impl<const N: usize> Format for Dim<N> {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{=usize}", N)
    }
}

impl Format for One {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "1")
    }
}

impl Format for Dyn {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{=usize}", self.0)
    }
}

impl<T: Copy + Format, S: Shape, B: Storage<T>> Format for Tensor<T, S, B> {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "Tensor{} {}", self.dims(), self.as_slice())
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy + Format> Format for crate::dynamic::DynTensor<T> {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "Tensor{} {}", self.dims(), self.as_slice())
    }
}

/// `Format` through the error's `Display` message.
impl Format for ShapeError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for ElementwiseError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for SelectError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for MultiplexError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for UnknownActivation {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::stitch::StitchError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::lod::LodError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::lod_reset::LodResetError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::reduce::ReduceError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::softmax::SoftmaxError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::matmul::MatmulError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::ops::reshape::ReshapeError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message.
impl Format for crate::expr::ExprError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

/// `Format` through the error's `Display` message (the wrapped error's).
impl Format for crate::any_error::Error {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}

impl<T: Copy + Format, S: crate::lod::RowShape, B: Storage<T>, L: crate::lod::Levels> Format
    for crate::lod::LodTensor<T, S, B, L>
{
    /// The dense tensor, then each level's offsets.
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(
            f,
            "LodTensor{} {} lod [",
            self.dense().dims(),
            self.as_slice()
        );
        for k in 0..self.levels() {
            if let Some(level) = self.level(k) {
                ::defmt::write!(f, "{}", level.as_slice());
            }
        }
        ::defmt::write!(f, "]");
    }
}

/// `Format` through the error's `Display` message.
#[cfg(feature = "ndarray")]
impl Format for crate::interop::ndarray::NdarrayError {
    fn format(&self, f: Formatter<'_>) {
        ::defmt::write!(f, "{}", ::defmt::Display2Format(self))
    }
}
