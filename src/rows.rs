//! [`RowShape`]: a shape with a first dim (its rows), and the same shape
//! with another first dim: a run of rows (a LoD sequence, a stitch's
//! output), rows that carry a [brand](crate::Branded), or the first dim
//! kept by `reshape_rows` and the rest reshaped.

use crate::dim::{DimLike, Dyn};
use crate::shape::Shape;

/// A shape of rank at least 1: its first dim is the rows that a LoD's last
/// level indexes. A sequence of `n` rows has shape [`Rows`](Self::Rows), the
/// same dims with the first one `Dyn(n)` (`shape![Dyn, 16]` for sequences
/// of a `shape![Dyn, 16]` or a `shape![100, 16]` tensor).
#[diagnostic::on_unimplemented(
    message = "LoD: a LoD tensor needs a first dim (its rows), but the dense shape {Self} is a scalar",
    label = "shape {Self} has no rows to split into sequences",
    note = "a LoD's last level holds offsets into the dense tensor's first dim: use a shape of rank 1 or more, such as shape![Dyn, 4]"
)]
#[doc(hidden)]
pub trait RowShape: Shape {
    /// The shape of a run of rows: the first dim replaced by [`Dyn`]
    /// (`WithRows<Dyn>`).
    type Rows: Shape;
    /// The same shape with the first dim `D`.
    type WithRows<D: DimLike>: Shape;
    /// The number of rows (the first dim).
    fn rows(&self) -> usize;
    /// The shape of `n` rows.
    fn with_rows(&self, n: usize) -> Self::Rows;
    /// The same shape with the first dim `d` (the other dims kept).
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D>;
    /// The first dim, as a type (what `reshape_rows` keeps).
    type First: DimLike;
    /// The dims after the first, as a shape (a row: what `reshape_rows`
    /// reshapes).
    type Rest: Shape;
    /// The first dim's value.
    fn first(&self) -> Self::First;
    /// The shape `first` followed by `rest`'s dims.
    fn join(first: Self::First, rest: Self::Rest) -> Self;
}

// One impl per rank, 1 to MAX_RANK (8): the rows are the first dim, and a
// run of rows keeps the other dims. `do_not_recommend`: a scalar is then
// reported by `RowShape`'s own message, without a list of these impls.

/// Rank 1.
#[diagnostic::do_not_recommend]
impl<D0: DimLike> RowShape for (D0,) {
    type Rows = (Dyn,);
    type WithRows<D: DimLike> = (D,);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n),)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d,)
    }
    type First = D0;
    type Rest = ();
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, (): ()) -> Self {
        (first,)
    }
}

/// Rank 2.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike> RowShape for (D0, D1) {
    type Rows = (Dyn, D1);
    type WithRows<D: DimLike> = (D, D1);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1)
    }
    type First = D0;
    type Rest = (D1,);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1,)) -> Self {
        (first, r.0)
    }
}

/// Rank 3.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike, D2: DimLike> RowShape for (D0, D1, D2) {
    type Rows = (Dyn, D1, D2);
    type WithRows<D: DimLike> = (D, D1, D2);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1, self.2)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2)
    }
    type First = D0;
    type Rest = (D1, D2);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2)) -> Self {
        (first, r.0, r.1)
    }
}

/// Rank 4.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike, D2: DimLike, D3: DimLike> RowShape for (D0, D1, D2, D3) {
    type Rows = (Dyn, D1, D2, D3);
    type WithRows<D: DimLike> = (D, D1, D2, D3);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1, self.2, self.3)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2, self.3)
    }
    type First = D0;
    type Rest = (D1, D2, D3);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2, D3)) -> Self {
        (first, r.0, r.1, r.2)
    }
}

/// Rank 5.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike, D2: DimLike, D3: DimLike, D4: DimLike> RowShape
    for (D0, D1, D2, D3, D4)
{
    type Rows = (Dyn, D1, D2, D3, D4);
    type WithRows<D: DimLike> = (D, D1, D2, D3, D4);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1, self.2, self.3, self.4)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2, self.3, self.4)
    }
    type First = D0;
    type Rest = (D1, D2, D3, D4);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2, D3, D4)) -> Self {
        (first, r.0, r.1, r.2, r.3)
    }
}

/// Rank 6.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike, D2: DimLike, D3: DimLike, D4: DimLike, D5: DimLike> RowShape
    for (D0, D1, D2, D3, D4, D5)
{
    type Rows = (Dyn, D1, D2, D3, D4, D5);
    type WithRows<D: DimLike> = (D, D1, D2, D3, D4, D5);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1, self.2, self.3, self.4, self.5)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2, self.3, self.4, self.5)
    }
    type First = D0;
    type Rest = (D1, D2, D3, D4, D5);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2, D3, D4, D5)) -> Self {
        (first, r.0, r.1, r.2, r.3, r.4)
    }
}

/// Rank 7.
#[diagnostic::do_not_recommend]
impl<D0: DimLike, D1: DimLike, D2: DimLike, D3: DimLike, D4: DimLike, D5: DimLike, D6: DimLike>
    RowShape for (D0, D1, D2, D3, D4, D5, D6)
{
    type Rows = (Dyn, D1, D2, D3, D4, D5, D6);
    type WithRows<D: DimLike> = (D, D1, D2, D3, D4, D5, D6);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (Dyn(n), self.1, self.2, self.3, self.4, self.5, self.6)
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2, self.3, self.4, self.5, self.6)
    }
    type First = D0;
    type Rest = (D1, D2, D3, D4, D5, D6);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2, D3, D4, D5, D6)) -> Self {
        (first, r.0, r.1, r.2, r.3, r.4, r.5)
    }
}

/// Rank 8.
#[diagnostic::do_not_recommend]
impl<
        D0: DimLike,
        D1: DimLike,
        D2: DimLike,
        D3: DimLike,
        D4: DimLike,
        D5: DimLike,
        D6: DimLike,
        D7: DimLike,
    > RowShape for (D0, D1, D2, D3, D4, D5, D6, D7)
{
    type Rows = (Dyn, D1, D2, D3, D4, D5, D6, D7);
    type WithRows<D: DimLike> = (D, D1, D2, D3, D4, D5, D6, D7);
    #[inline]
    fn rows(&self) -> usize {
        self.0.size()
    }
    #[inline]
    fn with_rows(&self, n: usize) -> Self::Rows {
        (
            Dyn(n),
            self.1,
            self.2,
            self.3,
            self.4,
            self.5,
            self.6,
            self.7,
        )
    }
    #[inline]
    fn with_rows_dim<D: DimLike>(&self, d: D) -> Self::WithRows<D> {
        (d, self.1, self.2, self.3, self.4, self.5, self.6, self.7)
    }
    type First = D0;
    type Rest = (D1, D2, D3, D4, D5, D6, D7);
    #[inline]
    fn first(&self) -> D0 {
        self.0
    }
    #[inline]
    fn join(first: D0, r: (D1, D2, D3, D4, D5, D6, D7)) -> Self {
        (first, r.0, r.1, r.2, r.3, r.4, r.5, r.6)
    }
}

#[cfg(test)]
mod tests {
    use super::RowShape;
    use crate::dim::{Dim, Dyn, One};
    use crate::shape::Shape;

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
