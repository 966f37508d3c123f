// A brand is made only by `brand`: its fields are private.
use core::marker::PhantomData;
use shapecheck::prelude::*;

fn main() {
    let _forged: Branded<'static> = Branded { size: 3, brand: PhantomData };
}
