//! A tour of shapecheck: each operator on real data, the static path (shapes
//! as types) and the dynamic escape hatch (shapes as values).
//!
//! Run: `cargo run --example tour`

use shapecheck::prelude::*;
use shapecheck::{multiplex, select, DynTensor};

fn main() {
    literals_and_operators();
    elementwise();
    select_tour();
    multiplex_tour();
    dynamic_tour();
}

fn literals_and_operators() {
    println!("== tensor! literals and operators (numpy broadcasting) ==");
    // the shape comes from the literal: [2, 3] of f64, [2, 1] of f64, [3] of f64
    let x = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let col = tensor![[10.0], [-1.0]];
    let row = tensor![1.0, 0.5, 0.25];
    let z: Tensor<f64, shape![2, 3]> = &x * &row;
    println!("x = {x}\nx * {row} = {z}");
    println!("{col} + {row} = {}", &col + &row);
    println!("x / {col} = {}", &x / &col);
    // `&x * &tensor![1.0, 2.0]` ([2, 3] with [2]) does not compile: see
    // ui-tests/elementwise/fail/operator_vector_mismatch.stderr
    println!();
}

fn elementwise() {
    println!("== elementwise_mul and family (PaddlePaddle, with `axis`) ==");
    let x = Tensor::<f32, shape![2, 3]>::from_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let y = Tensor::<f32, shape![3]>::from_array([10.0, -1.0, 0.5]);
    // axis -1 is numpy's right alignment: y scales the columns
    let z = x.elementwise_mul(&y, Axis::<-1>, Identity);
    println!("x = {x}\ny = {y}\nelementwise_mul(x, y, axis=-1) = {z}");
    // axis 0 places a [2] operand on the rows, and relu is applied to the result
    let r = Tensor::<f32, shape![2]>::from_array([-1.0, 2.0]);
    let z = x.elementwise_mul(&r, Axis::<0>, Relu);
    println!("elementwise_mul(x, [-1, 2], axis=0, act=relu) = {z}");
    // Paddle's documented example: [2, 3, 4, 5] with [3, 4] at axis 1
    let big = Tensor::<f32, shape![2, 3, 4, 5]>::from_fn(|i| i[3] as f32);
    let mid = Tensor::<f32, shape![3, 4]>::from_fn(|i| (i[0] * 4 + i[1]) as f32);
    let out = big.elementwise_add(&mid, Axis::<1>, Identity);
    println!(
        "[2,3,4,5] + [3,4] at axis 1 -> {}, out[1,2,3,4] = {:?}",
        out.dims(),
        out.get(&[1, 2, 3, 4])
    );
    // integer division by zero is an error, not a crash
    let a = Tensor::<i32, shape![2]>::from_array([7, 8]);
    let b = Tensor::<i32, shape![2]>::from_array([2, 0]);
    match a.elementwise_div(&b, Axis::<-1>, Identity) {
        Ok(t) => println!("{t}"),
        Err(e) => println!("elementwise_div([7, 8], [2, 0]) -> error: {e}"),
    }
    println!("(x.elementwise_mul(&y, Axis::<-1>, ..) with y: [3, 4] and x: [2, 3, 4, 5] does not compile:");
    println!(" see ui-tests/elementwise/fail/dim_mismatch.stderr)\n");
}

fn select_tour() {
    println!("== select (OpenVINO Select-1) ==");
    // the example of the OpenVINO spec
    let cond =
        Tensor::<bool, shape![3, 2]>::from_array([[false, false], [true, false], [true, true]]);
    let then = Tensor::<i32, shape![3, 2]>::from_array([[-1, 0], [1, 2], [3, 4]]);
    let els = Tensor::<i32, shape![3, 2]>::from_array([[11, 10], [9, 8], [7, 6]]);
    let out = select(&cond, &then, &els, NoBroadcast);
    println!("none:  cond = {cond}, then = {then}, else = {els}\n       -> {out}");
    // numpy: cond [2, 1] broadcasts both ways against then [3] and else []
    let c = Tensor::<bool, shape![2, 1]>::from_array([[true], [false]]);
    let t = Tensor::<f64, shape![3]>::from_array([1.0, 2.0, 3.0]);
    let e = Tensor::<f64, shape![]>::from_array(-1.0);
    let out = select(&c, &t, &e, Numpy);
    println!(
        "numpy: cond [2, 1], then [3], else [] -> {} {out}",
        out.dims()
    );
    // pdpd: the output has then's shape; else [2] is placed at axis 0
    let c = Tensor::<bool, shape![2, 3]>::from_array([[true, false, true], [false, true, false]]);
    let t = Tensor::<i64, shape![2, 3]>::from_array([[1, 2, 3], [4, 5, 6]]);
    let e = Tensor::<i64, shape![2]>::from_array([-10, -20]);
    let out = select(&c, &t, &e, Pdpd::<0>);
    println!("pdpd (axis 0): then [2, 3], else [2] -> {out}\n");
}

fn multiplex_tour() {
    println!("== multiplex (PaddlePaddle) ==");
    // the seed's example: out[i] = inputs[index[i]][i]
    let inputs = [
        Tensor::<i32, shape![4, 4]>::from_array([
            [0, 0, 3, 4],
            [0, 1, 3, 4],
            [0, 2, 4, 4],
            [0, 3, 3, 4],
        ]),
        Tensor::<i32, shape![4, 4]>::from_array([
            [1, 0, 3, 4],
            [1, 1, 7, 8],
            [1, 2, 4, 2],
            [1, 3, 3, 4],
        ]),
        Tensor::<i32, shape![4, 4]>::from_array([
            [2, 0, 3, 4],
            [2, 1, 7, 8],
            [2, 2, 4, 2],
            [2, 3, 3, 4],
        ]),
        Tensor::<i32, shape![4, 4]>::from_array([
            [3, 0, 3, 4],
            [3, 1, 7, 8],
            [3, 2, 4, 2],
            [3, 3, 3, 4],
        ]),
    ];
    let index = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [1], [2]]);
    match multiplex(&inputs, &index) {
        Ok(out) => println!("index [[3], [0], [1], [2]] -> {out}"),
        Err(e) => println!("error: {e}"),
    }
    // an index value out of range is a run-time error naming the row and the value
    let bad = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [7], [2]]);
    match multiplex(&inputs, &bad) {
        Ok(out) => println!("{out}"),
        Err(e) => println!("index [[3], [0], [7], [2]] -> error: {e}\n"),
    }
}

fn dynamic_tour() {
    println!("== the dynamic escape hatch: shapes known at run time ==");
    let x =
        DynTensor::new(&[2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap_or_else(|e| fail(e));
    let y = DynTensor::new(&[2], vec![10.0f32, 100.0]).unwrap_or_else(|e| fail(e));
    match x.elementwise(BinaryOpKind::Mul, &y, 0, ActivationKind::Identity) {
        Ok(z) => println!(
            "[2, 3] * [2] at axis 0 -> {:?} {:?}",
            z.dims(),
            z.as_slice()
        ),
        Err(e) => println!("error: {e}"),
    }
    match x.elementwise(BinaryOpKind::Mul, &y, -1, ActivationKind::Identity) {
        Ok(z) => println!("{:?}", z.as_slice()),
        Err(e) => println!("[2, 3] * [2] at axis -1 -> error: {e}"),
    }
    // a static shape with a run-time dim: checked when the op runs
    let rows = Tensor::<f32, shape![Dyn, 3], Vec<f32>>::from_vec((Dyn(2), Dim), vec![1.0; 6])
        .unwrap_or_else(|e| fail(e));
    let col = Tensor::<f32, shape![3]>::from_array([1.0, 2.0, 3.0]);
    match rows.try_elementwise(Add, &col, Axis::<-1>, Identity) {
        Ok(z) => println!("[Dyn(2), 3] + [3] -> {z}"),
        Err(e) => println!("error: {e}"),
    }
    // and back to a fully static shape, checked
    let back: Result<Tensor<f32, shape![2, 3], Vec<f32>>, _> = x.clone().try_into();
    println!(
        "DynTensor [2, 3] -> Tensor<f32, shape![2, 3]>: {}",
        if back.is_ok() { "ok" } else { "error" }
    );
    let wrong: Result<Tensor<f32, shape![3, 2], Vec<f32>>, _> = x.try_into();
    if let Err(e) = wrong {
        println!("DynTensor [2, 3] -> Tensor<f32, shape![3, 2]>: error: {e}");
    }
}

fn fail(e: shapecheck::ShapeError) -> ! {
    eprintln!("{e}");
    std::process::exit(1)
}
