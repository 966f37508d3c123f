//! The fully connected layer's DSP loops (issue 64; one home per kernel,
//! issue 69), CMSIS-NN's `arm_nn_vec_mat_mult_t_s8` written anew:
//!
//! - [`vec_mat`]: one batch, two rows at a time ([`mac_1x2`]) when there
//!   are fewer than 4 rows or more than 640 inputs, else
//! - [`vec_mat_wide`]: the input widened once into 16-bit halves with the
//!   offset added, four rows a pass sharing each load of the halves (22
//!   instructions per 16 multiply-accumulates), as CMSIS-NN's
//!   `arm_nn_vec_mat_mult_t_s8` shares each input word between its rows.
//!
//! Several batches take the convolution's matrix product
//! ([`crate::ops::conv::dsp::matmul`]). Each `asm!` block (in `mod arch`, under
//! `cfg(shapecheck_dsp)`) sits beside its plain-Rust twin
//! (`cfg(not(shapecheck_dsp))`): the host's unit tests below run the
//! twins, the firmware tests (embedded/tests/dsp_kernels.rs) the asm, both
//! against [`crate::reference`]. The portable loop is in `mod.rs`; the
//! output stage, the safety note and the arithmetic's argument, shared by
//! the kernels' DSP loops, in [`crate::arith::dsp`].

use crate::arith::dsp::arch::requant4_shared;
use crate::arith::dsp::{write4, Requant4};
use crate::arith::quant::{OutputStage, QuantizedMultiplier, Scale};
use crate::format::values::Values;
use crate::ops::conv::dsp::mac_1x2;
use core::mem::MaybeUninit;

/// The most inputs [`vec_mat`] widens once into 16-bit halves: 1,280 B of
/// stack while the layer runs (the anomaly detector's widest layer, 640
/// inputs); a wider layer takes the loop of two rows at a time.
const WIDE_INPUTS: usize = 640;

/// The fully connected layer of one batch with TFLite's output stage:
/// `acc = Σ (x − zero_point) · w[c] + bias[c]` for each row `c` of `w`
/// (`x.len()` values each), written requantized to `out[c]`. Up to
/// [`WIDE_INPUTS`] inputs and from 4 rows on, the input is widened once
/// into 16-bit halves with the offset added ([`vec_mat_wide`]) and the
/// rows run four at a time; otherwise two at a time ([`mac_1x2`]). `None`,
/// with `out` untouched, if a length does not match, there is neither one
/// multiplier nor one per channel, or the zero point is not an int8 (the
/// caller's portable loop then runs).
pub(crate) fn vec_mat<B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    bias: Option<&B>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let depth = x.len();
    let channels = out.len();
    if depth == 0
        || w.len() != depth.checked_mul(channels)?
        || !(multipliers.len() == 1 || multipliers.len() == channels)
        || bias.is_some_and(|b| b.count() != channels)
        || !(-128..=127).contains(&zero_point)
    {
        return None;
    }
    if channels >= 4 && (4..=WIDE_INPUTS).contains(&depth) {
        return vec_mat_wide(x, w, bias, zero_point, multipliers, stage, out);
    }
    vec_mat_pairs(x, w, 0, bias, zero_point, multipliers, stage, out)
}

/// [`vec_mat`]'s rows from `c0` on (`w` and `out` start at row `c0`), two
/// at a time ([`mac_1x2`]), each output through [`OutputStage::apply`].
/// The caller checked the lengths.
#[allow(clippy::too_many_arguments)]
fn vec_mat_pairs<B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    c0: usize,
    bias: Option<&B>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let depth = x.len();
    let scale = scales(multipliers);
    let bias_at = |c: usize| bias.and_then(|b| b.at(c)).unwrap_or(0);
    for (pair, (ys, c)) in w
        .chunks(2 * depth)
        .zip(out.chunks_mut(2).zip((c0..).step_by(2)))
    {
        // the last row of an odd count is paired with itself (stride 0)
        let stride = if ys.len() == 2 { depth } else { 0 };
        let acc = [bias_at(c), bias_at(c + ys.len() - 1)];
        let acc = mac_1x2(x, pair, stride, -zero_point, acc)?;
        for (j, (y, a)) in ys.iter_mut().zip(acc).enumerate() {
            *y = stage.apply(a, scale(c + j));
        }
    }
    Some(())
}

/// Channel `c`'s [`Scale`] of one multiplier (per-tensor) or one per
/// channel.
fn scales(multipliers: &[QuantizedMultiplier]) -> impl Fn(usize) -> Scale + '_ {
    move |c: usize| {
        Scale::new(
            multipliers
                .get(if multipliers.len() == 1 { 0 } else { c })
                .copied()
                .unwrap_or(QuantizedMultiplier::ZERO),
        )
    }
}

/// [`vec_mat`] of at least 4 rows and 4 and at most [`WIDE_INPUTS`]
/// inputs (the caller checked the lengths): the input's whole words
/// widened once into 16-bit halves with `−zero_point` added
/// ([`arch::widen_offset`], CMSIS-NN's `arm_nn_vec_mat_mult_t_s8` takes
/// the offset per row pass instead), then four rows a pass sharing each
/// load of the halves ([`arch::mac_4_rows`]: 22 instructions per 16
/// MACs and the loop's 3 per 128), the columns past the last whole word
/// in plain Rust, four outputs by [`Requant4`] where it applies; the
/// last 1 to 3 rows by [`vec_mat_pairs`]. Out of line: the halves are on
/// the stack only while it runs.
#[inline(never)]
fn vec_mat_wide<B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    bias: Option<&B>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let depth = x.len();
    let words = depth / 4;
    let offset = -zero_point;
    // not zeroed (1,280 B cleared per layer cost as much as the anomaly
    // detector's output stages): `widen_offset` writes the words it returns
    let mut halves = [MaybeUninit::<u32>::uninit(); WIDE_INPUTS / 2];
    let halves = arch::widen_offset(x.get(..4 * words)?, &mut halves, offset);
    if halves.len() != 2 * words {
        return None;
    }
    let tail = x.get(4 * words..)?;
    let scale = scales(multipliers);
    // one multiplier: its stage once for the layer
    let per_tensor = if multipliers.len() == 1 {
        Requant4::new(multipliers, 0, stage)
    } else {
        None
    };
    let groups = out.len() / 4;
    let (head, rest) = out.split_at_mut(4 * groups);
    let (w4, w_rest) = w.split_at(4 * groups * depth);
    for ((rows, ys), c) in w4
        .chunks_exact(4 * depth)
        .zip(head.chunks_exact_mut(4))
        .zip((0..).step_by(4))
    {
        // the four biases at once (vec_mat checked their count: the
        // group is inside), then the taps past the last whole word, if any
        let mut acc = bias.and_then(|b| b.chunk::<4>(c)).unwrap_or([0; 4]);
        if !tail.is_empty() {
            for (a, row) in acc.iter_mut().zip(rows.chunks_exact(depth)) {
                let row_tail = row.get(4 * words..).unwrap_or(&[]);
                *a = tail.iter().zip(row_tail).fold(*a, |s, (&x, &w)| {
                    s.wrapping_add((i32::from(x) + offset) * i32::from(w))
                });
            }
        }
        let acc = arch::mac_4_rows(halves, rows, depth, words, acc);
        // the per-tensor stage by reference (no copy a pass), its one
        // channel loaded once for the four outputs
        if let (Some(q), Some(ys)) = (per_tensor.as_ref(), ys.first_chunk_mut::<4>()) {
            *ys = requant4_shared(acc, q).to_le_bytes().map(|b| b as i8);
            continue;
        }
        let requant = Requant4::new(multipliers, c, stage);
        write4(ys, acc, requant.as_ref(), stage, &scale, c);
    }
    if rest.is_empty() {
        return Some(());
    }
    vec_mat_pairs(
        x,
        w_rest,
        4 * groups,
        bias,
        zero_point,
        multipliers,
        stage,
        rest,
    )
}

/// The loops over whole words: each `asm!` form (the DSP extension,
/// `cfg(shapecheck_dsp)`) followed by its plain-Rust twin of the same
/// name and signature (`cfg(not(shapecheck_dsp))`, the host's and the
/// unit tests').
mod arch {
    #[cfg(shapecheck_dsp)]
    use core::arch::asm;
    use core::mem::MaybeUninit;

    #[cfg(shapecheck_dsp)]
    /// Two rows' 4 columns for [`mac_4_rows`]: their weights' words at
    /// `$p` (post-incremented) and at `{skip}` past it, loaded in a row
    /// into `{t}` and `{v}`, each widened and times the input's halves
    /// `{xl}` (bytes 0 and 2) and `{xh}` (1 and 3) into `$a` and `$b`
    /// (row 0's even bytes into `{u}`, row 1's into `{t}`, free by then).
    macro_rules! rows_2 {
        ($p:literal, $a:literal, $b:literal $(, $end:literal)?) => {
            concat!(
                "ldr {t}, [",
                $p,
                "], #4\n",
                "ldr {v}, [",
                $p,
                ", {skip}]\n",
                $(
                    "ldr {u}, ", $end, "\n",
                    "cmp {x}, {u}\n",
                )?
                "sxtb16 {u}, {t}\n",
                "sxtb16 {t}, {t}, ror #8\n",
                "smlad {",
                $a,
                "}, {xl}, {u}, {",
                $a,
                "}\n",
                "smlad {",
                $a,
                "}, {xh}, {t}, {",
                $a,
                "}\n",
                "sxtb16 {t}, {v}\n",
                "sxtb16 {v}, {v}, ror #8\n",
                "smlad {",
                $b,
                "}, {xl}, {t}, {",
                $b,
                "}\n",
                "smlad {",
                $b,
                "}, {xh}, {v}, {",
                $b,
                "}\n",
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// 4 columns of the four rows: the input's two halves, then per pair
    /// of rows their two words, loaded in a row (pipelined: the first four
    /// loads 5 cycles, the second pair 3), each widened and multiplied by
    /// two `SMLAD`s (22 instructions, 24 cycles; an `LDRD` of the halves
    /// and a load per row took 29).
    macro_rules! step_4_rows {
        ($($end:literal)?) => {
            concat!(
                "ldr {xl}, [{x}], #8\n",
                "ldr {xh}, [{x}, #-4]\n",
                rows_2!("{p0}", "a0", "a1" $(, $end)?),
                rows_2!("{p2}", "a2", "a3"),
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// The whole words of `x` widened into `halves`, two words per input
    /// word: bytes 0 and 2 plus `offset`, then bytes 1 and 3 plus `offset`,
    /// in 16-bit halves (`offset` in [−127, 128]: every sum fits). 7
    /// instructions per 4 inputs. The words written, `2 · (x.len() / 4)`
    /// of them (none if `halves` is shorter than that).
    #[inline(always)]
    pub(super) fn widen_offset<'a>(
        x: &[i8],
        halves: &'a mut [MaybeUninit<u32>],
        offset: i32,
    ) -> &'a [u32] {
        let words = x.len() / 4;
        if words == 0 || halves.len() < 2 * words {
            return &[];
        }
        let offset = (offset as u32 & 0xffff) * 0x0001_0001;
        // SAFETY: reads the `4 · words` bytes of `x` and writes the
        // `2 · words` words of `halves` checked above (unaligned LDR is
        // allowed on the Cortex-M4; `halves` is word-aligned for STRD)
        unsafe {
            asm!(
                "2:",
                "ldr {a}, [{x}], #4",
                "sxtb16 {b}, {a}",
                "sxtb16 {a}, {a}, ror #8",
                "sadd16 {b}, {b}, {off}",
                "sadd16 {a}, {a}, {off}",
                "strd {b}, {a}, [{d}], #8",
                "subs {n}, {n}, #1",
                "bne 2b",
                x = inout(reg) x.as_ptr() => _,
                d = inout(reg) halves.as_mut_ptr() => _,
                n = inout(reg) words => _,
                off = in(reg) offset,
                a = out(reg) _,
                b = out(reg) _,
                options(nostack),
            );
        }
        // SAFETY: the loop above wrote the first `2 · words` words of
        // `halves` (checked to hold them), which `MaybeUninit<u32>` lays
        // out as `u32`s
        unsafe { core::slice::from_raw_parts(halves.as_ptr().cast::<u32>(), 2 * words) }
    }

    #[cfg(not(shapecheck_dsp))]
    /// [`super::arch`]'s `widen_offset` in plain Rust: the same layout,
    /// the same words returned.
    pub(super) fn widen_offset<'a>(
        x: &[i8],
        halves: &'a mut [MaybeUninit<u32>],
        offset: i32,
    ) -> &'a [u32] {
        let words = x.len() / 4;
        let Some(halves) = halves.get_mut(..2 * words).filter(|_| words > 0) else {
            return &[];
        };
        let half = |v: i8| u32::from((i32::from(v) + offset) as i16 as u16);
        for (word, pair) in x.chunks_exact(4).zip(halves.chunks_exact_mut(2)) {
            if let ([b0, b1, b2, b3], [lo, hi]) = (word, pair) {
                lo.write(half(*b0) | half(*b2) << 16);
                hi.write(half(*b1) | half(*b3) << 16);
            }
        }
        // SAFETY: the loop above wrote every word of `halves` (its
        // `2 · words` words, a pair per whole word of `x`)
        unsafe { core::slice::from_raw_parts(halves.as_ptr().cast::<u32>(), 2 * words) }
    }

    #[cfg(shapecheck_dsp)]
    /// `acc[r] += Σ` over the first `4 · words` columns of the input's
    /// `halves` ([`widen_offset`]) times row `r` of `rows` (row `r` at
    /// `r · stride`), for the four rows: 22 instructions per 4 columns
    /// (16 MACs), eight blocks a pass (the first entered at the block that
    /// leaves whole passes), the end on the stack. `acc` unchanged if a row or the
    /// halves are shorter than that.
    #[inline(always)]
    pub(super) fn mac_4_rows(
        halves: &[u32],
        rows: &[i8],
        stride: usize,
        words: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let len = 4 * words;
        if words == 0
            || halves.len() < 2 * words
            || stride < len
            || rows.len() < stride.saturating_mul(3).saturating_add(len)
        {
            return acc;
        }
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        let p2 = rows.get(2 * stride..).unwrap_or(&[]);
        // the halves' end, where the loop stops: on the stack (thirteen
        // registers hold the rest)
        let end = halves.as_ptr().wrapping_add(2 * words);
        // SAFETY: reads the `2 · words` words of `halves` (word-aligned
        // for LDRD) and `len` bytes of each row, all inside the slices as
        // checked above; the loop ends when `x` reaches `end`, after
        // `words` steps. The one word pushed is popped before the end.
        unsafe {
            asm!(
                // eight steps a pass; the first pass enters at step
                // (−words) mod 8, by a table of halfword branch offsets
                // (TBH) indexed by words mod 8 (bits 3 to 5 of `8 ·
                // words`). A pass's first step compares `{x}`, past its
                // halves, with the end − 56 (on the stack, loaded after
                // the weights: pipelined), for the `BNE` after its last; a
                // first pass entered later is the last one if there are
                // fewer than 8 words (`LSRS`: Z set)
                "sub {t}, {v}, {x}",
                "sub {v}, {v}, #56",
                "push {{{v}}}",
                "lsrs {u}, {t}, #6",
                "ubfx {t}, {t}, #3, #3",
                "tbh [pc, {t}, lsl #1]",
                "13:",
                ".hword (2f - 13b) / 2",
                ".hword (9f - 13b) / 2",
                ".hword (8f - 13b) / 2",
                ".hword (7f - 13b) / 2",
                ".hword (6f - 13b) / 2",
                ".hword (5f - 13b) / 2",
                ".hword (4f - 13b) / 2",
                ".hword (3f - 13b) / 2",
                "2:",
                step_4_rows!("[sp]"),
                "3:",
                step_4_rows!(),
                "4:",
                step_4_rows!(),
                "5:",
                step_4_rows!(),
                "6:",
                step_4_rows!(),
                "7:",
                step_4_rows!(),
                "8:",
                step_4_rows!(),
                "9:",
                step_4_rows!(),
                "bne 2b",
                "add sp, sp, #4",
                x = inout(reg) halves.as_ptr() => _,
                p0 = inout(reg) rows.as_ptr() => _,
                p2 = inout(reg) p2.as_ptr() => _,
                skip = in(reg) stride.wrapping_sub(4),
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                xl = out(reg) _,
                xh = out(reg) _,
                t = out(reg) _,
                u = out(reg) _,
                v = inout(reg) end => _,
                options(readonly),
            );
        }
        [a0, a1, a2, a3]
    }

    #[cfg(not(shapecheck_dsp))]
    /// [`super::arch`]'s `mac_4_rows` in plain Rust, reading the halves.
    pub(super) fn mac_4_rows(
        halves: &[u32],
        rows: &[i8],
        stride: usize,
        words: usize,
        mut acc: [i32; 4],
    ) -> [i32; 4] {
        let len = 4 * words;
        for (r, a) in acc.iter_mut().enumerate() {
            let row = rows.get(r * stride..r * stride + len).unwrap_or(&[]);
            for (pair, w) in halves.chunks_exact(2).zip(row.chunks_exact(4)) {
                if let ([lo, hi], [w0, w1, w2, w3]) = (pair, w) {
                    let h = |v: u32| i32::from(v as u16 as i16);
                    let xs = [h(*lo), h(*hi), h(*lo >> 16), h(*hi >> 16)];
                    for (x, w) in xs.iter().zip([w0, w1, w2, w3]) {
                        *a = a.wrapping_add(x * i32::from(*w));
                    }
                }
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::dsp::tests::case;
    use crate::{quantize_multiplier, FullyConnectedDims, FullyConnectedParams, Rounding};
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    proptest! {
        #[test]
        fn vec_mat_is_the_reference_fully_connected_layer(
            (_rows, channels, depth, x, w, bias, zp, reals, (out_zp, lo, hi)) in case()
        ) {
            let x = &x[..depth];
            let multipliers: Vec<_> = reals.iter().map(|&r| quantize_multiplier(r).unwrap()).collect();
            let dims = FullyConnectedDims { batches: 1, input_dim: depth, units: channels };
            let params = FullyConnectedParams {
                input_zero_point: zp, weights_zero_point: 0, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: lo, output_max: hi,
                rounding: Rounding::Double,
            };
            let mut want = std::vec![0i8; channels];
            crate::reference::fully_connected(x, &w, bias.as_deref(), dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; channels];
            prop_assert!(vec_mat(x, &w, bias.as_deref(), zp, &multipliers, &stage, &mut got).is_some());
            prop_assert_eq!(got, want);
        }
    }
}
