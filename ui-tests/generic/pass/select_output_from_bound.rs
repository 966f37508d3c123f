// select over two generic shapes with only the public bound `SelectWith`,
// its output named from that bound alone (issue 56): `SelectOutput`, or the
// bound's own `Selected`.
use shapecheck::prelude::*;

fn pick<C, T>(c: &Tensor<bool, C>, t: &Tensor<f32, T>, e: &Tensor<f32, T>) -> Owned<f32, SelectOutput<C, T, T, Numpy>>
where
    C: SelectWith<T, T, Numpy>,
    T: StaticShape,
{
    select(c, t, e, Numpy)
}

fn pick_named<C, T>(c: &Tensor<bool, C>, t: &Tensor<f32, T>, e: &Tensor<f32, T>) -> Tensor<f32, C::Selected>
where
    C: SelectWith<T, T, Numpy>,
    T: StaticShape,
{
    select(c, t, e, Numpy)
}

fn main() {
    let c = tensor![[true], [false]];
    let (t, e) = (tensor![1.0f32, 2.0, 3.0], tensor![-1.0f32, -2.0, -3.0]);
    let out: Tensor<f32, shape![2, 3]> = pick(&c, &t, &e);
    assert_eq!(out.as_slice(), &[1.0, 2.0, 3.0, -1.0, -2.0, -3.0]);
    let out: Tensor<f32, shape![2, 3]> = pick_named(&c, &t, &e);
    assert_eq!(out.as_slice(), &[1.0, 2.0, 3.0, -1.0, -2.0, -3.0]);
}
