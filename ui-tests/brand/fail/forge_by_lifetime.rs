// A brand's lifetime is invariant: a function cannot turn one brand into
// another (here, one that would outlive every closure), so two sizes never
// share a brand.
use shapecheck::prelude::*;

fn forever(rows: Branded<'_>) -> Branded<'static> {
    rows
}

fn main() {
    brand(2, |rows| {
        let _ = forever(rows);
    });
}
