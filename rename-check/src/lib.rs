//! shapecheck under another name (`tensors`, see Cargo.toml): if this builds,
//! the paths its macros generate go through `$crate`, not `::shapecheck`.
#![no_std]

use tensors::prelude::*;

/// `shape!` with every kind of dim, `tensor!` and an op on the result.
pub fn scaled() -> Tensor<i32, shape![2, 3]> {
    let x = tensors::tensor![[1, 2, 3], [4, 5, 6]];
    let y: Tensor<i32, tensors::shape![1, 3]> = tensor![[10, 20, 30]];
    x.elementwise_mul(&y, Axis::<-1>, Identity)
}

/// A shape with a run-time dim and a const-expression dim.
pub type Rows<const N: usize> = shape![Dyn, N, 1];

/// `multiplex!` under the new name.
pub fn pick() -> Option<Tensor<i32, shape![2, 2]>> {
    let a = tensor![[1, 2], [3, 4]];
    let b = tensor![[5, 6], [7, 8]];
    let index = Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]);
    tensors::multiplex!(index; a, b).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn renamed_library_works() {
        assert_eq!(super::scaled().as_slice(), &[10, 40, 90, 40, 100, 180]);
        let p = super::pick().map(|t| *t.as_slice().first().unwrap_or(&0));
        assert_eq!(p, Some(5));
    }
}
