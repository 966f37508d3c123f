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
    };
}

row_shape!();
row_shape!(D1);
row_shape!(D1, D2);
row_shape!(D1, D2, D3);
row_shape!(D1, D2, D3, D4);
row_shape!(D1, D2, D3, D4, D5);
row_shape!(D1, D2, D3, D4, D5, D6);
row_shape!(D1, D2, D3, D4, D5, D6, D7);
