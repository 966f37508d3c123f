//! A tour of shapecheck: each operator on real data, the static path (shapes
//! as types) and the dynamic escape hatch (shapes as values).
//!
//! Run: `cargo run --example tour`

use shapecheck::ops::Add;
use shapecheck::prelude::*;
use shapecheck::{BinaryOpKind, DynLodTensor, DynY, Lengths};

fn main() {
    literals_and_operators();
    elementwise();
    select_tour();
    multiplex_tour();
    lod_tour();
    stitch_tour();
    dynamic_tour();
    brand_tour();
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
    match multiplex(&inputs, &index).run() {
        Ok(out) => println!("index [[3], [0], [1], [2]] -> {out}"),
        Err(e) => println!("error: {e}"),
    }
    // fewer index rows than candidate rows (Paddle 3.3.1): the output has the
    // index's rows, [2, 4] here, in its type; the candidates' rows 2 and 3 are not read
    let first_two = Tensor::<i32, shape![2, 1]>::from_array([[1], [3]]);
    let fewer: Result<Tensor<i32, shape![2, 4]>, _> = multiplex(&inputs, &first_two).run();
    match fewer {
        Ok(out) => println!("index [[1], [3]] (2 rows of 4) -> {out}"),
        Err(e) => println!("error: {e}"),
    }
    // an index value out of range is a run-time error naming the row and the value
    let bad = Tensor::<i32, shape![4, 1]>::from_array([[3], [0], [7], [2]]);
    match multiplex(&inputs, &bad).run() {
        Ok(out) => println!("{out}"),
        Err(e) => println!("index [[3], [0], [7], [2]] -> error: {e}\n"),
    }
}

fn stitch_tour() {
    println!("== dynamic_stitch / dynamic_partition (TensorFlow) ==");
    // the seed's example: pairs of three ranks in one call, each checked at
    // compile time (data starts with its indices, the slice [2] is shared)
    let i0 = Tensor::<i32, shape![]>::from_array(6);
    let i1 = Tensor::<i32, shape![2]>::from_array([4, 1]);
    let i2 = Tensor::<i32, shape![2, 2]>::from_array([[5, 2], [0, 3]]);
    let d0 = Tensor::<i32, shape![2]>::from_array([61, 62]);
    let d1 = Tensor::<i32, shape![2, 2]>::from_array([[41, 42], [11, 12]]);
    let d2 = Tensor::<i32, shape![2, 2, 2]>::from_array([[[51, 52], [21, 22]], [[1, 2], [31, 32]]]);
    let stitch = dynamic_stitch(&i0, &d0).pair(&i1, &d1).pair(&i2, &d2);
    // the row count is max index + 1, known at run time: the type is (Dyn, Dim<2>)
    match stitch.run() {
        Ok(merged) => println!("merged {:?} -> {merged}", merged.dims()),
        Err(e) => println!("error: {e}"),
    }
    // without a heap: into a caller's buffer, a view of its front
    let mut buf = [0; 16];
    match stitch.run_into(&mut buf) {
        Ok(view) => println!("into a 16-element buffer -> {:?}", view.dims()),
        Err(e) => println!("error: {e}"),
    }
    let mut small = [0; 8];
    if let Err(e) = stitch.run_into(&mut small) {
        println!("into an 8-element buffer -> error: {e}");
    }
    // a negative index: an error naming the pair and the position
    let neg = Tensor::<i32, shape![2]>::from_array([4, -1]);
    if let Err(e) = dynamic_stitch(&i0, &d0).pair(&neg, &d1).run() {
        println!("indices[1] = [4, -1] -> error: {e}");
    }

    // the round trip of TensorFlow's docs: x + 1 where x != -1
    let x = Tensor::<f32, shape![6]>::from_array([0.1, -1., 5.2, 4.3, -1., 7.4]);
    let p = Tensor::<i32, shape![6]>::from_array([1, 0, 1, 1, 0, 1]);
    let ids = Tensor::<i32, shape![6]>::from_fn(|i| i[0] as i32);
    let parted = (
        dynamic_partition(&x, &p, Partitions::<2>).run(),
        dynamic_partition(&ids, &p, Partitions::<2>).run(),
    );
    match parted {
        (Ok([x0, mut x1]), Ok([ids0, ids1])) => {
            println!("partition x by [1, 0, 1, 1, 0, 1] -> {x0} and {x1}");
            x1.as_mut_slice().iter_mut().for_each(|v| *v += 1.0);
            match dynamic_stitch(&ids0, &x0).pair(&ids1, &x1).run() {
                Ok(y) => println!("stitch back after x1 + 1 -> {y}"),
                Err(e) => println!("error: {e}"),
            }
        }
        (Err(e), _) | (_, Err(e)) => println!("error: {e}"),
    }
    // no heap: one buffer of data's size holds every output
    let rows = Tensor::<i32, shape![4, 2]>::from_array([[1, 2], [3, 4], [5, 6], [7, 8]]);
    let mut pbuf = [0; 8];
    for by in [[2, 0, 2, 1], [2, 0, 2, 3]] {
        let by_t = Tensor::<i32, shape![4]>::from_array(by);
        match dynamic_partition(&rows, &by_t, Partitions::<3>).run_into(&mut pbuf) {
            Ok([a, b, c]) => println!("rows by {by:?} into 3 -> {a} {b} {c}"),
            Err(e) => println!("rows by {by:?} into 3 -> error: {e}"),
        }
    }
    // the same on run-time shapes
    let dx = DynTensor::new(&[3], vec![10, 20, 30]).unwrap_or_else(|e| fail(e));
    let dp = DynTensor::new(&[3], vec![1i32, 0, 1]).unwrap_or_else(|e| fail(e));
    match dx.dynamic_partition(&dp, 2) {
        Ok(parts) => println!(
            "DynTensor [10, 20, 30] by [1, 0, 1] -> {:?} and {:?}\n",
            parts[0].as_slice(),
            parts[1].as_slice()
        ),
        Err(e) => println!("error: {e}"),
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

/// A run-time dim checked once and carried as a type: after `brand_rows`,
/// tensors with the same brand meet in the plain forms, no check left.
// `ShapeError` holds the dims inline (no heap), so it is large on purpose
#[allow(clippy::result_large_err)]
fn brand_tour() {
    println!("== a batch dim checked once: brands ==");
    // a batch of 3 rows from the dynamic path, and per-row scales from elsewhere
    let dynamic = DynTensor::new(&[3, 2], vec![1.0f32, -2.0, 3.0, -4.0, 5.0, -6.0])
        .unwrap_or_else(|e| fail(e));
    let x: Tensor<f32, shape![Dyn, 2], Vec<f32>> =
        dynamic.try_into().unwrap_or_else(|e: ShapeError| fail(e));
    let scale =
        Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(3), One), vec![1.0, 10.0, 100.0])
            .unwrap_or_else(|e| fail(e));
    let bias = tensor![0.5f32, 0.5];
    let result = x.with_brand(|x, batch| {
        // the one check: scale has as many rows as x
        let scale = scale.brand_rows(batch)?;
        // three ops, no shape comparison at run time: the types prove it
        let y = x.elementwise_mul(&scale, Axis::<-1>, Identity);
        let z = y.elementwise_add(&bias, Axis::<-1>, Relu);
        let m = &z - &scale;
        Ok::<_, ShapeError>(m.unbrand_rows())
    });
    match result {
        Ok(m) => println!(
            "relu(x * scale + 0.5) - scale, batch of {} -> {m}",
            m.dims()[0]
        ),
        Err(e) => println!("error: {e}"),
    }
    // a batch of another size is refused at the one check
    let short = Tensor::<f32, shape![Dyn, 1], Vec<f32>>::from_vec((Dyn(2), One), vec![1.0, 2.0])
        .unwrap_or_else(|e| fail(e));
    let x = Tensor::<f32, shape![Dyn, 2], Vec<f32>>::from_vec((Dyn(3), Dim), vec![0.0; 6])
        .unwrap_or_else(|e| fail(e));
    if let Err(e) = x.with_brand(|_, batch| short.brand_rows(batch).map(|t| t.unbrand_rows())) {
        println!("a 2-row scale against a 3-row brand -> error: {e}");
    }
    // a brand cannot meet another brand or leave its closure: see
    // ui-tests/brand/fail/*.stderr
    println!();
}

fn fail(e: ShapeError) -> ! {
    eprintln!("{e}");
    std::process::exit(1)
}

/// LoD tensors (Paddle's ragged batches) and lod_reset.
fn lod_tour() {
    println!("== LoD tensors and lod_reset (PaddlePaddle) ==");
    // 6 rows of 2 features, the rows known at run time; a 2-level LoD
    // borrowed as offsets (no heap): 2 paragraphs of 2 sentences each, the
    // sentences of 2, 2, 1 and 1 rows (lengths [[2, 2], [2, 2, 1, 1]])
    let data: Vec<f32> = (1..=12).map(|v| v as f32).collect();
    let dense = Tensor::<f32, shape![Dyn, 2], &[f32]>::with_dims(&[6, 2], &data[..])
        .unwrap_or_else(|e| fail(e));
    let levels = [Offsets::new(&[0, 2, 4]), Offsets::new(&[0, 2, 4, 5, 6])];
    let x = match LodTensor::new(dense, &levels[..]) {
        Ok(x) => x,
        Err(e) => return println!("error: {e}"),
    };
    println!("x: {x:?}");
    // the sequences of the top level, each a sequence of sequences (views, no copy)
    if let Ok(paragraphs) = x.sequences(0) {
        for p in paragraphs {
            print!("paragraph {} (rows {:?}):", p.index(), p.rows());
            for s in p.sequences() {
                print!(" {}", s.tensor());
            }
            println!();
        }
    }
    // lod_reset with target offsets (the seed's example 1, corrected: [0, 4, 6])
    match x.view().lod_reset(Offsets::new(&[0, 4, 6]), false) {
        Ok(out) => println!(
            "lod_reset(target [0, 4, 6]) -> LoD {:?}, same data",
            out.level(0)
        ),
        Err(e) => println!("error: {e}"),
    }
    // the seed's example 1 as written, lengths where Paddle reads offsets
    if let Err(e) = x.view().lod_reset(Offsets::new(&[4, 2]), false) {
        println!("lod_reset(target [4, 2]) -> error: {e}");
    }
    // y's int32 data as offsets, appended, the new level in a caller's buffer
    let y = Tensor::<i32, shape![1, 3]>::from_array([[0, 3, 6]]);
    let mut buf = [0usize; 3];
    match x.view().lod_reset_by_data(&y, true, &mut buf) {
        Ok(out) => println!(
            "lod_reset(y [[0, 3, 6]], append) -> {} levels, the last {:?}",
            out.levels(),
            buf
        ),
        Err(e) => println!("error: {e}"),
    }
    // the dynamic path: Paddle's arguments as they come; y wins over target
    let dense =
        DynTensor::new(&[6, 1], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap_or_else(|e| fail(e));
    let y = DynTensor::new(&[1, 3], vec![0, 2, 6]).unwrap_or_else(|e| fail(e));
    let result = DynLodTensor::from_lengths(dense, &[Lengths::new(&[2, 3, 1])])
        .map_err(|e| e.to_string())
        .and_then(|dx| {
            dx.lod_reset(Some(DynY::data(&y)), Some(Offsets::new(&[0, 6])), false)
                .map_err(|e| e.to_string())
        });
    match result {
        Ok(out) => {
            let lengths: Vec<Vec<usize>> =
                out.lengths().into_iter().map(|l| l.into_vec()).collect();
            println!("dynamic lod_reset(y [[0, 2, 6]], target [0, 6]) -> lengths {lengths:?}\n")
        }
        Err(e) => println!("error: {e}\n"),
    }
}
