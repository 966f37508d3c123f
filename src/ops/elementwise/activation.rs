//! The activation Paddle's `act` attribute appends to an elementwise op.

use crate::element::{sigmoid_f64, tanh_f64, Element};
use core::fmt;

kind_types!(
    /// An activation, as a type (static path). `Identity` is "no activation".
    trait Activation => ActivationKind {
        /// No activation (Paddle's `act=None`).
        Identity = ActivationKind::Identity;
        /// `max(x, 0)`.
        Relu = ActivationKind::Relu;
        /// `tanh(x)`, computed in `f64` and rounded to the element type.
        Tanh = ActivationKind::Tanh;
        /// `1 / (1 + e^-x)`, computed in `f64` and rounded to the element type.
        Sigmoid = ActivationKind::Sigmoid;
    }
);

/// An activation as a value (dynamic path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ActivationKind {
    /// No activation.
    #[default]
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// `tanh(x)`.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
}

/// An activation name Paddle does not have here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownActivation;

impl fmt::Display for UnknownActivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown activation: expected one of relu, tanh, sigmoid")
    }
}

impl core::error::Error for UnknownActivation {}

impl ActivationKind {
    /// Parses Paddle's `act` name: `relu`, `tanh`, `sigmoid` (or `""`/`none` for none).
    pub fn from_name(name: &str) -> Result<Self, UnknownActivation> {
        match name {
            "" | "none" | "identity" => Ok(ActivationKind::Identity),
            "relu" => Ok(ActivationKind::Relu),
            "tanh" => Ok(ActivationKind::Tanh),
            "sigmoid" => Ok(ActivationKind::Sigmoid),
            _ => Err(UnknownActivation),
        }
    }

    /// Applies the activation to one value.
    #[inline]
    pub fn apply<T: Element>(self, v: T) -> T {
        match self {
            ActivationKind::Identity => v,
            ActivationKind::Relu => {
                if v > T::default() {
                    v
                } else {
                    T::default()
                }
            }
            ActivationKind::Tanh => T::from_f64(tanh_f64(v.to_f64())),
            ActivationKind::Sigmoid => T::from_f64(sigmoid_f64(v.to_f64())),
        }
    }

    /// Applies the activation to every element of `out` in place.
    pub fn apply_all<T: Element>(self, out: &mut [T]) {
        match self {
            ActivationKind::Identity => {}
            kind => {
                for v in out.iter_mut() {
                    *v = kind.apply(*v);
                }
            }
        }
    }
}
