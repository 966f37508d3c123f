//! [`RowShape`]: a shape with a first dim, the rows a LoD indexes; and the
//! shape of a run of rows (the first dim becomes [`Dyn`]).

use crate::{DimLike, Dyn, Shape};

/// A shape of rank at least 1: its first dim is the rows that a LoD's last
/// level indexes. A sequence of `n` rows has shape [`Rows`](Self::Rows), the
/// same dims with the first one `Dyn(n)` (`shape![Dyn, 16]` for sequences
/// of a `shape![Dyn, 16]` or a `shape![100, 16]` tensor).
#[diagnostic::on_unimplemented(
    message = "LoD: a LoD tensor needs a first dim (its rows), but the dense shape {Self} is a scalar",
    label = "shape {Self} has no rows to split into sequences",
    note = "a LoD's last level holds offsets into the dense tensor's first dim: use a shape of rank 1 or more, such as shape![Dyn, 4]"
)]
pub trait RowShape: Shape {
    /// The shape of a run of rows: the first dim replaced by [`Dyn`].
    type Rows: Shape;
    /// The number of rows (the first dim).
    fn rows(&self) -> usize;
    /// The shape of `n` rows.
    fn with_rows(&self, n: usize) -> Self::Rows;
}

/// `RowShape` for `(D0, $d..)`, then for every shorter tail of the list:
/// one invocation with 7 names covers ranks 8 down to 1.
macro_rules! row_shape {
    ($($d:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<D0: DimLike, $($d: DimLike),*> RowShape for (D0, $($d,)*) {
            type Rows = (Dyn, $($d,)*);
            #[inline]
            fn rows(&self) -> usize {
                self.0.size()
            }
            #[inline]
            #[allow(non_snake_case)]
            fn with_rows(&self, n: usize) -> Self::Rows {
                let (_, $($d,)*) = *self;
                (Dyn(n), $($d,)*)
            }
        }
        row_shape!(@tail $($d),*);
    };
    (@tail) => {};
    (@tail $first:ident $(, $rest:ident)*) => {
        row_shape!($($rest),*);
    };
}

// ranks 1 to MAX_RANK (8): the first dim and up to 7 more
row_shape!(D1, D2, D3, D4, D5, D6, D7);

#[cfg(test)]
mod tests {
    use super::RowShape;
    use crate::{Dim, Dyn, One, Shape};

    #[test]
    fn every_rank_from_1_to_8_has_rows() {
        let r1 = (Dim::<5>,);
        assert_eq!(r1.rows(), 5);
        assert_eq!(r1.with_rows(2), (Dyn(2),));

        let r2 = (Dyn(7), Dim::<3>);
        assert_eq!(r2.rows(), 7);
        assert_eq!(r2.with_rows(0).dims().as_slice(), &[0, 3]);

        type R8 = (Dim<4>, One, Dim<2>, Dyn, One, Dim<1>, Dim<6>, Dyn);
        let r8 = R8::from_dims(&[4, 1, 2, 3, 1, 1, 6, 9]).unwrap();
        assert_eq!(r8.rows(), 4);
        // the type of the rows: the first dim `Dyn`, the others kept
        let rows: (Dyn, One, Dim<2>, Dyn, One, Dim<1>, Dim<6>, Dyn) = r8.with_rows(11);
        assert_eq!(rows.dims().as_slice(), &[11, 1, 2, 3, 1, 1, 6, 9]);
    }
}
