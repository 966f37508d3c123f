use shapecheck::shape;

type Bad = shape![2, -3];

fn main() {
    let _: Option<Bad> = None;
}
