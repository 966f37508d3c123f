//! The activation Paddle's `act` attribute appends to an elementwise op.

use crate::element::{sigmoid_f64, tanh_f64, Element};
use core::fmt;

kind_types!(
    /// An activation, as a type (static path). `Identity` is "no activation".
    trait Activation;
    /// An activation as a value (dynamic path).
    enum ActivationKind default Identity {
        /// No activation (Paddle's `act=None`).
        Identity = "identity",
        /// `max(x, 0)`.
        Relu = "relu",
        /// `tanh(x)`, computed in `f64` and rounded to the element type.
        Tanh = "tanh",
        /// `1 / (1 + e^-x)`, computed in `f64` and rounded to the element type.
        Sigmoid = "sigmoid",
    }
);

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
    ///
    /// ```
    /// use shapecheck::ActivationKind;
    /// assert_eq!(ActivationKind::from_name("relu"), Ok(ActivationKind::Relu));
    /// assert_eq!(ActivationKind::from_name("none"), Ok(ActivationKind::Identity));
    /// assert_eq!(ActivationKind::Sigmoid.name(), "sigmoid");
    /// assert!(ActivationKind::from_name("gelu").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Self, UnknownActivation> {
        match name {
            "" | "none" => Ok(ActivationKind::Identity),
            _ => Self::from_exact_name(name).ok_or(UnknownActivation),
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
