//! Large heap results are advised to use transparent huge pages (Linux,
//! feature `std`, see `storage.rs`): the advice must reach the result's
//! memory, and results must be the same as without it (an `_into` form into
//! a buffer nobody advised, and a naive loop).
#![cfg(all(target_os = "linux", feature = "std"))]

use shapecheck::ops::Mul;
use shapecheck::prelude::*;
use shapecheck::{select, DynTensor};

/// `[64, 128, 256]` f32: 8 MiB, above the 4 MiB threshold.
type X = shape![64, 128, 256];
const N: usize = 64 * 128 * 256;

fn data(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// The `VmFlags` of the mapping holding `addr`, from /proc/self/smaps.
fn vm_flags(addr: usize) -> Option<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for line in smaps.lines() {
        let head = line.split_whitespace().next().unwrap_or("");
        if let Some((lo, hi)) = head.split_once('-')
            && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        {
            inside = lo <= addr && addr < hi;
            continue;
        }
        if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
            return Some(flags.trim().to_string());
        }
    }
    None
}

/// Whether the kernel has transparent huge pages at all (without them the
/// advice fails and is ignored, which is right, but nothing can be seen).
fn kernel_has_thp() -> bool {
    std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists()
}

/// Asserts that the middle of `buf` is in a mapping advised `MADV_HUGEPAGE`
/// (`hg` in its flags).
fn assert_advised<T>(buf: &[T], what: &str) {
    if !kernel_has_thp() {
        return;
    }
    let mid = buf.as_ptr() as usize + std::mem::size_of_val(buf) / 2;
    let flags = vm_flags(mid).unwrap_or_default();
    assert!(
        flags.split_whitespace().any(|f| f == "hg"),
        "{what}: the result's mapping was not advised: VmFlags: {flags}"
    );
}

#[test]
fn static_allocating_result_is_advised_and_unchanged() {
    let x = Tensor::<f32, X, Vec<f32>>::from_vec(Default::default(), data(N, 1)).unwrap();
    let y =
        Tensor::<f32, shape![128, 256], Vec<f32>>::from_vec(Default::default(), data(128 * 256, 2))
            .unwrap();
    let z = x.elementwise_mul(&y, Axis::<-1>, Identity);
    assert_advised(z.as_slice(), "elementwise_mul");

    let mut into = Tensor::<f32, X, Vec<f32>>::from_vec(Default::default(), vec![0.0; N]).unwrap();
    x.elementwise_mul_into(&y, Axis::<-1>, Identity, &mut into);
    assert_eq!(z.as_slice(), into.as_slice());
    let (xs, ys) = (x.as_slice(), y.as_slice());
    for (i, &v) in z.as_slice().iter().enumerate() {
        assert_eq!(v, xs[i] * ys[i % (128 * 256)], "element {i}");
    }
}

#[test]
fn fallible_and_dynamic_results_are_advised_and_unchanged() {
    let xv = data(N, 3);
    let yv = data(256, 4);
    // try_ form: a `Dyn` dim, so the result comes from the fallible allocation
    let x = Tensor::<f32, shape![Dyn, 128, 256], Vec<f32>>::with_dims(&[64, 128, 256], xv.clone())
        .unwrap();
    let y = Tensor::<f32, shape![256], Vec<f32>>::from_vec(Default::default(), yv.clone()).unwrap();
    let z = x.try_elementwise(Mul, &y, Axis::<-1>, Identity).unwrap();
    assert_advised(z.as_slice(), "try_elementwise");

    let dx = DynTensor::new(&[64, 128, 256], xv.clone()).unwrap();
    let dy = DynTensor::new(&[256], yv.clone()).unwrap();
    let dz = dx
        .elementwise(
            shapecheck::BinaryOpKind::Mul,
            &dy,
            -1,
            shapecheck::ActivationKind::Identity,
        )
        .unwrap();
    assert_advised(dz.as_slice(), "DynTensor::elementwise");
    assert_eq!(z.as_slice(), dz.as_slice());
    for (i, &v) in dz.as_slice().iter().enumerate() {
        assert_eq!(v, xv[i] * yv[i % 256], "element {i}");
    }

    // a non-zero fill is written after the advice: every element is it
    let full = DynTensor::full(&[N], 1.5f32).unwrap();
    assert_advised(full.as_slice(), "DynTensor::full");
    assert!(full.as_slice().iter().all(|&v| v == 1.5));
}

#[test]
fn allocating_select_is_advised_and_unchanged() {
    type Sq = shape![1024, 2048];
    let n = 1024 * 2048;
    let mut s = 7u32;
    let cond: Vec<bool> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s & 1 == 1
        })
        .collect();
    let c = Tensor::<bool, Sq, Vec<bool>>::from_vec(Default::default(), cond.clone()).unwrap();
    let t = Tensor::<f32, Sq, Vec<f32>>::from_vec(Default::default(), data(n, 5)).unwrap();
    let e =
        Tensor::<f32, shape![2048], Vec<f32>>::from_vec(Default::default(), data(2048, 6)).unwrap();
    let out = select(&c, &t, &e, Numpy);
    assert_advised(out.as_slice(), "select");
    for (i, &v) in out.as_slice().iter().enumerate() {
        let want = if cond[i] {
            t.as_slice()[i]
        } else {
            e.as_slice()[i % 2048]
        };
        assert_eq!(v, want, "element {i}");
    }
}

#[test]
fn partition_outputs_are_advised_and_unchanged() {
    // 2^18 rows of 16 f32 (16 MiB), into 2 outputs of 8 MiB
    let rows = 1 << 18;
    let d = data(rows * 16, 8);
    let p: Vec<i32> = (0..rows as i32).map(|r| (r * 7 / 3) % 2).collect();
    let x = Tensor::<f32, shape![262144, 16], Vec<f32>>::from_vec(Default::default(), d.clone())
        .unwrap();
    let parts =
        Tensor::<i32, shape![262144], Vec<i32>>::from_vec(Default::default(), p.clone()).unwrap();
    let outs = shapecheck::dynamic_partition(&x, &parts, shapecheck::Partitions::<2>)
        .run()
        .unwrap();
    let dyn_outs = x.to_dyn().dynamic_partition(&parts.to_dyn(), 2).unwrap();
    for (k, (out, dyn_out)) in outs.iter().zip(&dyn_outs).enumerate() {
        assert_advised(out.as_slice(), "dynamic_partition");
        assert_advised(dyn_out.as_slice(), "DynTensor::dynamic_partition");
        let want: Vec<f32> = d
            .chunks_exact(16)
            .zip(&p)
            .filter(|&(_, &q)| q == k as i32)
            .flat_map(|(row, _)| row.iter().copied())
            .collect();
        assert_eq!(out.as_slice(), &want[..], "output {k}");
        assert_eq!(dyn_out.as_slice(), &want[..], "dynamic output {k}");
    }
}
