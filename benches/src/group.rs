//! Rows timed interleaved (`benches/fused.rs`, `benches/small.rs`): each
//! round times a batch of calls of every row of a group, the order rotating,
//! and each row's figure is its median time and the median of its per-round
//! ratio to the group's first row, so that load on a shared machine moves
//! the rows together.

use crate::{median, Args};
use std::hint::black_box;
use std::time::Instant;

/// A group of rows timed together.
pub struct Group<'a> {
    name: &'static str,
    batch: usize,
    rows: Vec<Row<'a>>,
}

/// A row's name and its timed batch: `n` calls of the row's closure, in a
/// loop compiled for that closure (so a nanosecond call is timed without a
/// dynamic call around each one).
type Row<'a> = (&'static str, Box<dyn FnMut(usize) + 'a>);

impl<'a> Group<'a> {
    /// A group named `name` (what a filter matches), timing `batch` calls
    /// of each row per round.
    pub fn new(name: &'static str, batch: usize) -> Self {
        Group {
            name,
            batch,
            rows: Vec::new(),
        }
    }
    /// A row: `f`'s result is dropped outside the timing's view.
    pub fn row<R>(&mut self, name: &'static str, mut f: impl FnMut() -> R + 'a) {
        self.rows.push((
            name,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(f());
                }
            }),
        ));
    }
    /// Times the rows interleaved and prints one line per row.
    pub fn run(mut self, args: &Args) {
        if !args.wants(self.name) {
            return;
        }
        let n = self.rows.len();
        let mut times = vec![Vec::new(); n];
        let mut ratios = vec![Vec::new(); n];
        for round in 0..args.rounds + 2 {
            let mut t = vec![0.0; n];
            for k in 0..n {
                let i = (k + round) % n;
                let f = &mut self.rows[i].1;
                let start = Instant::now();
                f(self.batch);
                t[i] = start.elapsed().as_secs_f64() / self.batch as f64;
            }
            if round >= 2 {
                for i in 0..n {
                    times[i].push(t[i]);
                    ratios[i].push(t[i] / t[0]);
                }
            }
        }
        println!("{}", self.name);
        for (i, (name, _)) in self.rows.iter().enumerate() {
            let t = median(times[i].clone());
            let (v, unit) = if t < 1e-6 {
                (t * 1e9, "ns")
            } else {
                (t * 1e3, "ms")
            };
            println!(
                "  {name:<48} {v:>9.3} {unit}  {:>6.3}x",
                median(ratios[i].clone())
            );
        }
    }
}
