//! The workloads' inputs, shared by the benches (`benches/ops.rs`,
//! `benches/rayon.rs` and the others; the nanosecond ones in [`small`]):
//! fixed-seed data, so that every bench, run and tool
//! (`shared/bench/peers.py` draws the same shapes) times the same arrays;
//! and the interleaved timing of [`Group`].

use shapecheck::prelude::*;

mod group;
pub mod small;
pub use group::Group;

/// A deterministic pseudo-random stream (xorshift64), so runs are comparable.
pub fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// `n` f32 in [-1, 1) from seed `seed`.
pub fn data(n: usize, seed: u64) -> Vec<f32> {
    let mut r = rng(seed);
    (0..n)
        .map(|_| (r() >> 40) as f32 / (1u64 << 23) as f32 - 1.0)
        .collect()
}

/// `n` bools from seed `seed`.
pub fn bools(n: usize, seed: u64) -> Vec<bool> {
    let mut r = rng(seed);
    (0..n).map(|_| r() & 1 == 1).collect()
}

/// A shuffled permutation of 0..n (Fisher-Yates with a fixed seed).
pub fn permutation(n: usize, seed: u64) -> Vec<i32> {
    let mut p: Vec<i32> = (0..n as i32).collect();
    let mut r = rng(seed);
    for i in (1..n).rev() {
        let j = (r() % (i as u64 + 1)) as usize;
        p.swap(i, j);
    }
    p
}

/// W1's and W2's x: `[256, 128, 256]`.
pub type Big = shape![256, 128, 256];
/// Its element count.
pub const BIG: usize = 256 * 128 * 256;

/// W1's x: `[256, 128, 256]` on the heap.
pub type W1X = Tensor<f32, Big, Vec<f32>>;
/// W1's y: `[128, 256]` on the heap.
pub type W1Y = Tensor<f32, shape![128, 256], Vec<f32>>;

/// W1's operands, x and y.
pub fn w1_inputs() -> (W1X, W1Y) {
    let x = Tensor::from_vec(Default::default(), data(BIG, 1)).unwrap();
    let y = Tensor::from_vec(Default::default(), data(128 * 256, 2)).unwrap();
    (x, y)
}

/// W4's candidates: `[65536, 64]` on the heap.
pub type W4Candidate = Tensor<f32, shape![65536, 64], Vec<f32>>;
/// W4's index: `[65536, 1]` on the heap.
pub type W4Index = Tensor<i32, shape![65536, 1], Vec<i32>>;

/// W4's operands: 4 candidates and an index random in 0..4.
pub fn w4_inputs() -> ([W4Candidate; 4], W4Index) {
    let inputs = core::array::from_fn(|k| {
        Tensor::from_vec(Default::default(), data(65536 * 64, 20 + k as u64)).unwrap()
    });
    let mut r = rng(11);
    let index = (0..65536).map(|_| (r() % 4) as i32).collect();
    (inputs, Tensor::from_vec(Default::default(), index).unwrap())
}

/// W4's hand-written loop, the floor of its `into` form: row `r` of `out`
/// gets row `r` of `cands[index[r]]` (an index value out of range panics).
#[inline]
pub fn hand_gather(cands: &[&[f32]; 4], index: &[i32], out: &mut [f32]) {
    for (row, (dst, &k)) in out.chunks_exact_mut(64).zip(index).enumerate() {
        dst.copy_from_slice(&cands[k as usize][row * 64..row * 64 + 64]);
    }
}

/// Rows of W5-W8.
pub const ROWS: usize = 1 << 20;
/// Rows per stitch pair (4 pairs).
pub const PART: usize = ROWS / 4;
/// Elements per row.
pub const SLICE: usize = 16;

/// One W5 pair's indices: `[2^18]`.
pub type W5Indices = Tensor<i32, shape![262144], Vec<i32>>;
/// One W5 pair's data: `[2^18, 16]`.
pub type W5Data = Tensor<f32, shape![262144, 16], Vec<f32>>;

/// W5's four pairs: a shuffled permutation of 0..2^20 split into 4 equal
/// index lists, each with its `[2^18, 16]` data.
pub fn w5_inputs() -> ([W5Indices; 4], [W5Data; 4]) {
    let perm = permutation(ROWS, 31);
    let indices = core::array::from_fn(|m| {
        Tensor::from_vec(Default::default(), perm[m * PART..(m + 1) * PART].to_vec()).unwrap()
    });
    let datas = core::array::from_fn(|m| {
        Tensor::from_vec(Default::default(), data(PART * SLICE, 40 + m as u64)).unwrap()
    });
    (indices, datas)
}

/// W5's hand-written loop, the floor of its `into` forms: row `j` of
/// `datas[m]` copied to row `indices[m][j]` of `out`, with no index check
/// and no zero fill (W5's indices name every row once).
#[inline]
pub fn hand_scatter(indices: &[W5Indices; 4], datas: &[W5Data; 4], out: &mut [f32]) {
    for (idx, dat) in indices.iter().zip(datas) {
        for (&i, row) in idx
            .as_slice()
            .iter()
            .zip(dat.as_slice().chunks_exact(SLICE))
        {
            let at = i as usize * SLICE;
            out[at..at + SLICE].copy_from_slice(row);
        }
    }
}

/// W7's x: W5's merged output `[2^20, 16]`.
pub type W7X = Tensor<f32, shape![1048576, 16], Vec<f32>>;
/// W7's partitions: `[2^20]`.
pub type W7Parts = Tensor<i32, shape![1048576], Vec<i32>>;

/// W7's operands from W5's: the stitched output, and for each of its rows
/// the pair it came from, so that partitioning by it undoes the stitch.
pub fn w7_inputs(merged: &[f32], indices: &[W5Indices; 4]) -> (W7X, W7Parts) {
    let x = Tensor::from_vec(Default::default(), merged.to_vec()).unwrap();
    let mut parts = vec![0i32; ROWS];
    for (m, idx) in indices.iter().enumerate() {
        for &i in idx.as_slice() {
            parts[i as usize] = m as i32;
        }
    }
    (x, Tensor::from_vec(Default::default(), parts).unwrap())
}

/// The median of `v` (the upper one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The command line of the interleaved benches (`benches/dynamic.rs`,
/// `benches/brand.rs`): a round count (a number) and name filters (words,
/// `|`-separated). `cargo bench` passes `--bench`; criterion's other flags
/// are ignored.
pub struct Args {
    /// The rounds to time (at least 4).
    pub rounds: usize,
    /// The filters: a workload runs if its name holds one (all if none).
    pub filters: Vec<String>,
}

impl Args {
    /// The process's arguments, `default_rounds` when none is a number.
    pub fn parse(default_rounds: usize) -> Self {
        let mut rounds = default_rounds;
        let mut filters = Vec::new();
        for a in std::env::args().skip(1).filter(|a| !a.starts_with('-')) {
            match a.parse::<usize>() {
                Ok(n) => rounds = n.max(4),
                Err(_) => filters.extend(a.split('|').map(str::to_string)),
            }
        }
        Args { rounds, filters }
    }

    /// Whether the workload `name` runs.
    pub fn wants(&self, name: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| name.contains(f.as_str()))
    }
}
