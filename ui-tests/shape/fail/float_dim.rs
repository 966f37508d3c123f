use shapecheck::shape;

type Bad = shape![2, 3.5];

fn main() {
    let _: Option<Bad> = None;
}
