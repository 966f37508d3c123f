//! Shapes as run-time values: [`Dims`], a small inline list of dims (no
//! heap), and [`ShapeError`], what can be wrong with dims given at run time
//! (a rank beyond [`MAX_RANK`], a data length that does not fit, an element
//! count that overflows). Every operator's error enum wraps [`ShapeError`].
//! `rule_errors!`, the macro that writes every error enum of the crate, is
//! defined here, beside the first enum it writes (`crate::error`
//! re-exports both).
//!
//! The bottom of the crate: this module imports nothing from it.

use core::fmt;

/// The largest rank a shape can have, in the type system and at run time.
pub const MAX_RANK: usize = 8;

/// The dims of a shape as values: a small inline list (no heap), at most
/// [`MAX_RANK`] long. Displays as `[2, 3, 4]`.
///
/// ```
/// use shapecheck::Dims;
/// let d = Dims::new(&[2, 3, 4]).unwrap();
/// assert_eq!(d.to_string(), "[2, 3, 4]");
/// assert_eq!(d.rank(), 3);
/// assert_eq!(d.numel(), Some(24));
/// assert_eq!(d[1], 3); // derefs to `[usize]`
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    len: usize,
    buf: [usize; MAX_RANK],
}

impl Dims {
    /// The dims of a scalar.
    pub const SCALAR: Dims = Dims {
        len: 0,
        buf: [0; MAX_RANK],
    };

    /// Copies `dims`; an error if there are more than [`MAX_RANK`]. A
    /// `const fn`, so that the shape rules (which build their errors from
    /// dims) run at compile time for static shapes.
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::new(&[2, 3]).unwrap().as_slice(), &[2, 3]);
    /// assert_eq!(Dims::new(&[]).unwrap(), Dims::SCALAR);
    /// let err = Dims::new(&[1; 9]).unwrap_err();
    /// assert_eq!(err.rule(), "shape/rank");
    /// assert_eq!(err.to_string(), "rank 9 exceeds the supported maximum of 8");
    /// ```
    // Every index below is guarded by `< MAX_RANK` and the slice's length.
    #[allow(clippy::indexing_slicing)]
    pub const fn new(dims: &[usize]) -> Result<Dims, ShapeError> {
        if dims.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: dims.len() });
        }
        let mut buf = [0usize; MAX_RANK];
        let mut i = 0;
        while i < dims.len() {
            buf[i] = dims[i];
            i += 1;
        }
        Ok(Dims {
            len: dims.len(),
            buf,
        })
    }

    /// The first `rank` entries of a frame array (see [`crate::broadcast`]).
    pub(crate) const fn from_frame(rank: usize, frame: &[usize; MAX_RANK]) -> Dims {
        let (head, _) = frame.split_at(if rank < MAX_RANK { rank } else { MAX_RANK });
        match Dims::new(head) {
            Ok(d) => d,
            Err(_) => Dims::SCALAR,
        }
    }

    /// The dims as a slice.
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::new(&[4, 1]).unwrap().as_slice(), &[4, 1]);
    /// assert!(Dims::SCALAR.as_slice().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn as_slice(&self) -> &[usize] {
        let len = if self.len < MAX_RANK {
            self.len
        } else {
            MAX_RANK
        };
        self.buf.split_at(len).0
    }

    /// The number of dims.
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::new(&[4, 1, 2]).unwrap().rank(), 3);
    /// assert_eq!(Dims::SCALAR.rank(), 0);
    /// ```
    #[inline]
    #[must_use]
    pub const fn rank(&self) -> usize {
        self.len
    }

    /// The element count, `None` if it overflows `usize`.
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::new(&[2, 3]).unwrap().numel(), Some(6));
    /// assert_eq!(Dims::SCALAR.numel(), Some(1));
    /// // a zero dim makes the count 0, even next to huge dims
    /// assert_eq!(Dims::new(&[usize::MAX, 0, 2]).unwrap().numel(), Some(0));
    /// assert_eq!(Dims::new(&[usize::MAX, 2]).unwrap().numel(), None);
    /// ```
    #[must_use]
    pub fn numel(&self) -> Option<usize> {
        // a 0 anywhere makes the count 0, whatever the other dims (as numpy's
        // `size`); only a product of nonzero dims can overflow
        if self.as_slice().contains(&0) {
            return Some(0);
        }
        self.as_slice()
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
    }

    /// The element count, or [`ShapeError::NumelOverflow`].
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::new(&[2, 3]).unwrap().try_numel(), Ok(6));
    /// let err = Dims::new(&[usize::MAX, 2]).unwrap().try_numel().unwrap_err();
    /// assert_eq!(err.rule(), "shape/overflow");
    /// ```
    pub fn try_numel(&self) -> Result<usize, ShapeError> {
        self.numel()
            .ok_or(ShapeError::NumelOverflow { shape: *self })
    }

    /// The dims of data given as `(dims, len)` on the dynamic path: checks the
    /// rank, that the element count fits in `usize`, and that it equals `len`.
    ///
    /// ```
    /// use shapecheck::Dims;
    /// assert_eq!(Dims::for_data(&[2, 3], 6).unwrap().as_slice(), &[2, 3]);
    /// let err = Dims::for_data(&[2, 3], 5).unwrap_err();
    /// assert_eq!(err.rule(), "shape/data-length");
    /// assert_eq!(err.to_string(), "shape [2, 3] holds 6 elements, but the data has 5");
    /// assert_eq!(Dims::for_data(&[usize::MAX, 2], 0).unwrap_err().rule(), "shape/overflow");
    /// ```
    pub fn for_data(dims: &[usize], len: usize) -> Result<Dims, ShapeError> {
        let d = Dims::new(dims)?;
        let numel = d.try_numel()?;
        if numel != len {
            return Err(ShapeError::DataLength {
                shape: d,
                numel,
                len,
            });
        }
        Ok(d)
    }
}

impl Dims {
    /// `Ok` if an output buffer of dims `found` fits an op whose output has
    /// these dims, [`ShapeError::OutputShape`] otherwise.
    pub(crate) fn expect_output(self, found: Dims) -> Result<(), ShapeError> {
        if found != self {
            return Err(ShapeError::OutputShape {
                expected: self,
                found,
            });
        }
        Ok(())
    }
}

impl core::ops::Deref for Dims {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        self.as_slice()
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Defines an error enum whose variants each report one rule.
///
/// Each variant is written as `Variant { fields } => "rule/id", ("message", args…)`:
/// the macro emits the `#[non_exhaustive]`-ready enum (attributes pass
/// through), `pub const fn rule(&self) -> &'static str` (documented by the
/// attributes before `fn rule;`), `Display` (the message, with the fields
/// in scope by name) and `core::error::Error`. The optional last clause
/// `Shape(ShapeError) => |e| rule, ("message", args…);` adds a variant that
/// wraps a [`ShapeError`] (its rule id computed from it, its source the
/// wrapped error) and `From<ShapeError>`, so `?` lifts a shape error into the
/// op's error.
macro_rules! rule_errors {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $var:ident $({ $($(#[$fmeta:meta])* $field:ident : $fty:ty),* $(,)? })?
                    => $rule:literal, ($($msg:tt)+)
            ),* $(,)?
        }
        $(#[$rmeta:meta])*
        fn rule;
        $(
            $(#[$smeta:meta])*
            Shape($sty:ident) => |$e:ident| $srule:expr, ($($smsg:tt)+);
        )?
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$vmeta])*
                $var $({ $($(#[$fmeta])* $field: $fty),* })?,
            )*
            $(
                $(#[$smeta])*
                Shape($sty),
            )?
        }

        impl $name {
            $(#[$rmeta])*
            pub const fn rule(&self) -> &'static str {
                match self {
                    $($name::$var { .. } => $rule,)*
                    $($name::Shape($e) => $srule,)?
                }
            }
        }

        impl core::fmt::Display for $name {
            #[allow(unused_variables)]
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self {
                    $($name::$var $({ $($field),* })? => write!(f, $($msg)+),)*
                    $($name::Shape($e) => write!(f, $($smsg)+),)?
                }
            }
        }

        impl core::error::Error for $name {
            fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
                match self {
                    $($name::Shape($e) => Some($e),)?
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }

        $(
            impl From<$sty> for $name {
                fn from($e: $sty) -> Self {
                    $name::Shape($e)
                }
            }
        )?
    };
}
pub(crate) use rule_errors;

rule_errors! {
    /// A shape that cannot describe the data or the type it was given.
    ///
    /// ```
    /// use shapecheck::prelude::*;
    /// let err = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim::<3>), vec![0.0; 5]).unwrap_err();
    /// assert!(matches!(err, ShapeError::DataLength { numel: 6, len: 5, .. }));
    /// assert_eq!(err.rule(), "shape/data-length");
    /// let err = <shape![Dyn, 3] as Shape>::from_dims(&[2, 4]).unwrap_err();
    /// assert_eq!(err, ShapeError::DimMismatch { axis: 1, expected: 3, found: 4 });
    /// assert_eq!(err.to_string(), "dim 1 is 3 in the shape type, but 4 was given");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum ShapeError {
        /// More dims than the library supports.
        RankTooLarge {
            /// The rank that was asked for.
            rank: usize,
        } => "shape/rank", ("rank {rank} exceeds the supported maximum of {MAX_RANK}"),
        /// A static shape type was given dims of another rank.
        RankMismatch {
            /// The static shape's rank.
            expected: usize,
            /// The rank of the dims given.
            found: usize,
        } => "shape/rank-mismatch",
            ("the shape type has rank {expected}, but dims of rank {found} were given"),
        /// A static dim was given another size.
        DimMismatch {
            /// Which dim.
            axis: usize,
            /// The size in the type.
            expected: usize,
            /// The size given.
            found: usize,
        } => "shape/dim-mismatch",
            ("dim {axis} is {expected} in the shape type, but {found} was given"),
        /// The data does not hold exactly one element per position of the shape.
        DataLength {
            /// The shape.
            shape: Dims,
            /// Its element count.
            numel: usize,
            /// The length of the data.
            len: usize,
        } => "shape/data-length", ("shape {shape} holds {numel} elements, but the data has {len}"),
        /// The product of the dims does not fit in `usize`.
        NumelOverflow {
            /// The shape.
            shape: Dims,
        } => "shape/overflow", ("the element count of shape {shape} overflows usize"),
        /// An output buffer has another shape than the op produces.
        OutputShape {
            /// The shape the op produces.
            expected: Dims,
            /// The shape of the buffer given.
            found: Dims,
        } => "shape/output",
            ("the output buffer has shape {found}, but the op produces shape {expected}"),
        /// A dim of the shape type is [`Branded`](crate::Branded): a brand
        /// comes from [`brand`](crate::brand), never from a size given at run time.
        Branded {
            /// Which dim.
            axis: usize,
        } => "shape/branded",
            ("dim {axis} is branded in the shape type: a brand comes from `brand` or `brand_rows`, not from a size"),
        /// A tensor given a brand has another size at the branded dim.
        BrandSize {
            /// Which dim.
            axis: usize,
            /// The brand's size.
            brand: usize,
            /// The tensor's size there.
            found: usize,
        } => "shape/brand-size",
            ("dim {axis} is {found}, but the brand it was given has size {brand}"),
        /// A [`Bounded`](crate::Bounded) dim was given a size past its
        /// capacity: when a tensor is made, or as an op's result (checked
        /// before anything is written).
        Capacity {
            /// Which dim.
            axis: usize,
            /// The capacity in the shape type.
            capacity: usize,
            /// The size given, or the op's result needs.
            found: usize,
        } => "shape/capacity",
            ("dim {axis} holds at most {capacity} (its capacity in the shape type), but {found} was given"),
        /// The allocator could not provide the buffer.
        Allocation {
            /// Elements requested.
            numel: usize,
        } => "shape/allocation", ("could not allocate a buffer of {numel} elements"),
    }
    /// The stable identifier of what went wrong, `shape/<what>`: not a rule
    /// of one operator but of shapes in general (`shape/rank`,
    /// `shape/rank-mismatch`, `shape/dim-mismatch`, `shape/data-length`,
    /// `shape/overflow`, `shape/output`, `shape/allocation`, `shape/branded`, `shape/brand-size`, `shape/capacity`). The operators'
    /// error enums return it for their `Shape` variant.
    ///
    /// ```
    /// use shapecheck::{Dims, ShapeError};
    /// assert_eq!(Dims::new(&[1; 9]).unwrap_err().rule(), "shape/rank");
    /// assert_eq!(Dims::for_data(&[2, 3], 5).unwrap_err().rule(), "shape/data-length");
    /// ```
    fn rule;
}
