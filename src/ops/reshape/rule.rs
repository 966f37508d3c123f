//! **The** reshape rule: the element counts agree. Every path calls
//! [`reshape_rule`]; the compile-time check ([`CountsAgree`](super::CountsAgree))
//! calls [`counts_agree`] on the shapes' constant counts.

use super::ReshapeError;
use crate::dims::Dims;

/// `true` when a tensor of `from` elements can take a shape of `to`
/// elements: the whole rule, as a `const fn` the compiler evaluates too.
#[must_use]
pub(crate) const fn counts_agree(from: usize, to: usize) -> bool {
    from == to
}

/// The reshape rule on run-time dims: `Ok` when `to` holds as many elements
/// as `from`; otherwise [`ReshapeError::ElementCount`], or
/// [`ReshapeError::Shape`] (`shape/overflow`) when a count overflows.
///
/// ```
/// use shapecheck::ops::reshape::reshape_rule;
/// use shapecheck::Dims;
/// let d = |s: &[usize]| Dims::new(s).unwrap();
/// assert_eq!(reshape_rule(&d(&[2, 3]), &d(&[3, 2])), Ok(()));
/// assert_eq!(reshape_rule(&d(&[2, 3]), &d(&[6])), Ok(()));
/// assert_eq!(reshape_rule(&d(&[0, 4]), &d(&[5, 0])), Ok(()));
/// assert_eq!(reshape_rule(&d(&[2, 3]), &d(&[4, 2])).unwrap_err().rule(), "reshape/element-count");
/// assert_eq!(reshape_rule(&d(&[2]), &d(&[usize::MAX, 2])).unwrap_err().rule(), "shape/overflow");
/// ```
pub fn reshape_rule(from: &Dims, to: &Dims) -> Result<(), ReshapeError> {
    let from_numel = from.try_numel()?;
    let to_numel = to.try_numel()?;
    if counts_agree(from_numel, to_numel) {
        Ok(())
    } else {
        Err(ReshapeError::ElementCount {
            from: *from,
            to: *to,
            from_numel,
            to_numel,
        })
    }
}
