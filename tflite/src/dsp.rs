//! The int8 kernels' inner loops on the Cortex-M DSP extension (issue 64):
//! the one module of the crate with `unsafe` code, and why.
//!
//! `SMLAD` multiplies two pairs of signed 16-bit halves and adds both
//! products to a 32-bit accumulator in one instruction; `SXTB16` widens
//! bytes 0 and 2 of a word (or, rotated by 8, bytes 1 and 3) into two
//! 16-bit halves. Four int8 values read as one word become two such pairs,
//! so four multiply-accumulates cost one load shared by the block, two
//! widenings and two `SMLAD`s. The loops here are CMSIS-NN's ideas
//! (`arm_nn_mat_mult_nt_t_s8`, `arm_nn_vec_mat_mult_t_s8`), written anew:
//!
//! - [`mac_2x2`]: two rows of the left matrix (two pixels of a 1×1
//!   convolution) times two rows of the right one (two output channels), 16
//!   multiply-accumulates in 20 instructions, on the raw int8 values; the
//!   input's zero point enters once per output channel as
//!   `−zero_point · Σ w` ([`matmul`]), so the loop never subtracts it;
//! - [`mac_1x2`]: one row times two rows, the input's offset added to the
//!   widened halves (`SADD16`) when there is a single row to share it (a
//!   fully connected layer of one batch).
//!
//! Why `asm!`: `core::arch::arm`'s `__smlad` and `__sxtb16` are unstable,
//! and LLVM does not form `SMLAD` from the plain Rust loop. Stable rustc
//! does not set `target_feature = "dsp"` for `thumbv7em-none-eabihf` either,
//! so the build script sets `cfg(shapecheck_dsp)` from the target's name:
//! every `thumbv7em-*` target (ARMv7E-M always has the DSP extension) and
//! `thumbv8m.main-*` when its `dsp` feature is on (it is optional on the
//! Cortex-M33/M35P). Without that cfg (the host, the Cortex-M0) the same
//! functions are plain Rust, used by the unit tests alone: the kernels then
//! keep their portable loops.
//!
//! Safety, once for all: each `asm!` block reads only through the pointers
//! its safe wrapper derived from slices whose lengths it checked first
//! (every word read is inside them), writes only its register operands
//! and leaves the stack pointer where it found it.
//!
//! The arithmetic is the portable kernels' bit for bit: `SMLAD`'s sums wrap
//! modulo 2^32 as `wrapping_add` does (it sets the Q flag, which nothing
//! reads), products of int8 (or of int8 and `x − zero_point` in [−255,
//! 255]) are exact in 16-bit halves, and `Σ (x − zp) · w = Σ x · w − zp ·
//! Σ w` holds modulo 2^32.

use crate::quant::{OutputStage, QuantizedMultiplier, Scale};
use crate::values::Values;

/// `acc[2r + c] += Σ_k x[r·stride + k] · w[c·stride + k]` over `k <
/// len`, for rows `r, c ∈ {0, 1}`: two rows of `x` (pixels) times two rows
/// of `w` (output channels), both at `stride`. `None` if a row is not
/// inside its slice.
#[inline(always)]
pub(crate) fn mac_2x2(
    x: &[i8],
    w: &[i8],
    stride: usize,
    len: usize,
    mut acc: [i32; 4],
) -> Option<[i32; 4]> {
    let end = stride.checked_add(len)?;
    let (x0, x1) = (x.get(..len)?, x.get(stride..end)?);
    let (w0, w1) = (w.get(..len)?, w.get(stride..end)?);
    // the word loop needs the second rows at least a word on (`skip` = stride − 4)
    let words = if stride >= 4 { len / 4 } else { 0 };
    if words > 0 {
        acc = arch::mac_2x2(x.get(..end)?, w.get(..end)?, stride, words, acc);
    }
    let done = words * 4;
    if done < len {
        acc = portable::mac_2x2_rows(x0, x1, w0, w1, done, acc);
    }
    Some(acc)
}

/// `acc[c] += Σ_k (x[k] + offset) · w[c·stride + k]` over `k < x.len()`,
/// for `c ∈ {0, 1}`: one row (a fully connected layer's input) times two
/// rows of `w` at `stride` (0 pairs a row with itself). `offset` is the
/// negated input zero point, in [−128, 128] or 0. `None` if a row of `w`
/// is not inside it or the offset is out of that range.
#[inline(always)]
pub(crate) fn mac_1x2(
    x: &[i8],
    w: &[i8],
    stride: usize,
    offset: i32,
    mut acc: [i32; 2],
) -> Option<[i32; 2]> {
    if !(-128..=128).contains(&offset) {
        return None;
    }
    let len = x.len();
    let end = stride.checked_add(len)?;
    let (w0, w1) = (w.get(..len)?, w.get(stride..end)?);
    let words = len / 4;
    if words > 0 {
        acc = arch::mac_1x2(x, w.get(..end.max(len))?, stride, words, offset, acc);
    }
    for ((&x, &a), &b) in x.iter().zip(w0).zip(w1).skip(words * 4) {
        let x = i32::from(x) + offset;
        acc = [
            acc[0].wrapping_add(x * i32::from(a)),
            acc[1].wrapping_add(x * i32::from(b)),
        ];
    }
    Some(acc)
}

/// The int8 matrix product with TFLite's output stage: row `p` of `x`
/// (`rows` rows of `depth`) times row `c` of `w` (`channels` rows of
/// `depth`), `acc = Σ (x − zero_point) · w + bias[c]`, written requantized
/// to `out[p · channels + c]`. A 1×1 convolution of stride 1 (pixels ×
/// channels) and a fully connected layer of several batches. `None`, with
/// `out` untouched, if a length does not match or there is neither one
/// multiplier nor one per channel (the caller's portable loop then runs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn matmul<B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    bias: Option<&B>,
    depth: usize,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    if depth == 0 || !x.len().is_multiple_of(depth) || !w.len().is_multiple_of(depth) {
        return None;
    }
    let (rows, channels) = (x.len() / depth, w.len() / depth);
    if out.len() != rows.checked_mul(channels)?
        || !(multipliers.len() == 1 || multipliers.len() == channels)
        || bias.is_some_and(|b| b.count() != channels)
    {
        return None;
    }
    let scale = |c: usize| {
        Scale::new(
            multipliers
                .get(if multipliers.len() == 1 { 0 } else { c })
                .copied()
                .unwrap_or(QuantizedMultiplier::ZERO),
        )
    };
    // the part of each accumulator that does not depend on the pixel:
    // bias − zero_point · Σ w, per channel
    let constant = |c: usize, row: &[i8]| {
        let sum = row.iter().fold(0i32, |s, &v| s.wrapping_add(i32::from(v)));
        let b = bias.and_then(|b| b.at(c)).unwrap_or(0);
        b.wrapping_sub(zero_point.wrapping_mul(sum))
    };
    let mut c = 0;
    for pair in w.chunks(2 * depth) {
        let (w0, w1) = pair.split_at(depth.min(pair.len()));
        if w1.is_empty() {
            // the last channel of an odd count: one row times itself twice
            let (k0, m0) = (constant(c, w0), scale(c));
            for (p, xr) in x.chunks_exact(depth).enumerate() {
                let [a, _] = mac_1x2(xr, w0, 0, 0, [k0, k0])?;
                *out.get_mut(p * channels + c)? = stage.apply(a, m0);
            }
            break;
        }
        let (k0, k1) = (constant(c, w0), constant(c + 1, w1));
        let (m0, m1) = (scale(c), scale(c + 1));
        let mut p = 0;
        for xs in x.chunks(2 * depth) {
            let (y0, y1) = if xs.len() == 2 * depth {
                let [a00, a01, a10, a11] = mac_2x2(xs, pair, depth, depth, [k0, k1, k0, k1])?;
                (
                    [stage.apply(a00, m0), stage.apply(a01, m1)],
                    Some([stage.apply(a10, m0), stage.apply(a11, m1)]),
                )
            } else {
                let [a0, a1] = mac_1x2(xs, pair, depth, 0, [k0, k1])?;
                ([stage.apply(a0, m0), stage.apply(a1, m1)], None)
            };
            let at = p * channels + c;
            out.get_mut(at..at + 2)?.copy_from_slice(&y0);
            if let Some(y1) = y1 {
                let at = at + channels;
                out.get_mut(at..at + 2)?.copy_from_slice(&y1);
            }
            p += 2;
        }
        c += 2;
    }
    Some(())
}

/// The fully connected layer of one batch with TFLite's output stage:
/// `acc = Σ (x − zero_point) · w[c] + bias[c]` for each row `c` of `w`
/// (`x.len()` values each), written requantized to `out[c]`, two rows at a
/// time. `None`, with `out` untouched, if a length does not match, there is
/// neither one multiplier nor one per channel, or the zero point is not an
/// int8 (the caller's portable loop then runs).
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
    let scale = |c: usize| {
        Scale::new(
            multipliers
                .get(if multipliers.len() == 1 { 0 } else { c })
                .copied()
                .unwrap_or(QuantizedMultiplier::ZERO),
        )
    };
    let bias_at = |c: usize| bias.and_then(|b| b.at(c)).unwrap_or(0);
    for (pair, (ys, c)) in w
        .chunks(2 * depth)
        .zip(out.chunks_mut(2).zip((0..channels).step_by(2)))
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

/// TFLite's int8 depthwise convolution of depth multiplier 1 on one
/// image, four channels at a time: for each output pixel and each group of
/// four channels, every tap inside the input is one word of the image and
/// one of the filter, widened into halves (the input offset added by
/// `SADD16`) and multiplied channel by channel (`SMLABB` / `SMLATT`), then
/// bias and the output stage as the portable kernel. `None`, with `out`
/// untouched, unless the channels are a multiple of 4, the depth
/// multiplier is 1, the zero point an int8 and every length matches (the
/// caller's portable loop then runs).
pub(crate) fn depthwise<B: Values<i32> + ?Sized>(
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    dims: &crate::DepthwiseConvDims,
    params: &crate::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    use crate::window::Window;
    let depth = dims.input_depth;
    let zero_point = params.input_zero_point;
    let multipliers = params.multipliers;
    if dims.depth_multiplier != 1
        || depth == 0
        || !depth.is_multiple_of(4)
        || !(-128..=127).contains(&zero_point)
        || image.len()
            != dims
                .input_height
                .checked_mul(dims.input_width)?
                .checked_mul(depth)?
        || filter.len()
            != dims
                .filter_height
                .checked_mul(dims.filter_width)?
                .checked_mul(depth)?
        || out.len()
            != dims
                .output_height
                .checked_mul(dims.output_width)?
                .checked_mul(depth)?
        || !(multipliers.len() == 1 || multipliers.len() == depth)
        || bias.is_some_and(|b| b.count() != depth)
    {
        return None;
    }
    let word = |s: &[i8], at: usize| -> Option<u32> {
        let b = s.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([
            b[0] as u8, b[1] as u8, b[2] as u8, b[3] as u8,
        ]))
    };
    let offset = (-zero_point as u32 & 0xffff) * 0x0001_0001;
    let bias_at = |c: usize| bias.and_then(|b| b.at(c)).unwrap_or(0);
    let scale = |c: usize| {
        Scale::new(
            multipliers
                .get(if multipliers.len() == 1 { 0 } else { c })
                .copied()
                .unwrap_or(QuantizedMultiplier::ZERO),
        )
    };
    let mut pixels = out.chunks_exact_mut(depth);
    for oy in 0..dims.output_height {
        let rows = Window::new(
            oy,
            params.stride_height,
            params.pad_top,
            params.dilation_height,
            dims.filter_height,
            dims.input_height,
        );
        for ox in 0..dims.output_width {
            let cols = Window::new(
                ox,
                params.stride_width,
                params.pad_left,
                params.dilation_width,
                dims.filter_width,
                dims.input_width,
            );
            let pixel = pixels.next()?;
            for (g, ys) in pixel.chunks_exact_mut(4).enumerate() {
                let c = 4 * g;
                let mut acc = [bias_at(c), bias_at(c + 1), bias_at(c + 2), bias_at(c + 3)];
                for (ky, iy) in rows.taps() {
                    for (kx, ix) in cols.taps() {
                        let x = word(image, (iy * dims.input_width + ix) * depth + c)?;
                        let f = word(filter, (ky * dims.filter_width + kx) * depth + c)?;
                        acc = arch::mac_4_channels(acc, x, f, offset);
                    }
                }
                for (j, (y, a)) in ys.iter_mut().zip(acc).enumerate() {
                    *y = stage.apply(a, scale(c + j));
                }
            }
        }
    }
    Some(())
}

/// The plain-Rust forms of the loops: the tails past the last whole word,
/// and the whole loops where there is no DSP extension.
mod portable {
    /// [`super::mac_2x2`] from column `from` on, over whole rows.
    #[inline(always)]
    pub(super) fn mac_2x2_rows(
        x0: &[i8],
        x1: &[i8],
        w0: &[i8],
        w1: &[i8],
        from: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let cols = x0.iter().zip(x1).zip(w0.iter().zip(w1)).skip(from);
        cols.fold(acc, |[a00, a01, a10, a11], ((&x0, &x1), (&w0, &w1))| {
            let (x0, x1, w0, w1) = (i32::from(x0), i32::from(x1), i32::from(w0), i32::from(w1));
            [
                a00.wrapping_add(x0 * w0),
                a01.wrapping_add(x0 * w1),
                a10.wrapping_add(x1 * w0),
                a11.wrapping_add(x1 * w1),
            ]
        })
    }
}

/// The loops over whole words, on the DSP extension.
#[cfg(shapecheck_dsp)]
mod arch {
    use core::arch::asm;

    /// Four columns of the 2×2 block: 4 loads, 8 widenings, 8 `SMLAD`s.
    /// `{x}` and `{w}` step past the word; the second rows are at
    /// `{skip}` = stride − 4 from there. Six scratch registers, `{a}` …
    /// `{f}`.
    macro_rules! step_2x2 {
        () => {
            concat!(
                "ldr {b}, [{x}], #4\n",
                "ldr {d}, [{w}], #4\n",
                "ldr {f}, [{w}, {skip}]\n",
                "sxtb16 {a}, {b}\n",
                "sxtb16 {b}, {b}, ror #8\n",
                "sxtb16 {c}, {d}\n",
                "sxtb16 {d}, {d}, ror #8\n",
                "sxtb16 {e}, {f}\n",
                "sxtb16 {f}, {f}, ror #8\n",
                "smlad {a00}, {a}, {c}, {a00}\n",
                "smlad {a00}, {b}, {d}, {a00}\n",
                "smlad {a01}, {a}, {e}, {a01}\n",
                "smlad {a01}, {b}, {f}, {a01}\n",
                "ldr {b}, [{x}, {skip}]\n",
                "sxtb16 {a}, {b}\n",
                "sxtb16 {b}, {b}, ror #8\n",
                "smlad {a10}, {a}, {c}, {a10}\n",
                "smlad {a10}, {b}, {d}, {a10}\n",
                "smlad {a11}, {a}, {e}, {a11}\n",
                "smlad {a11}, {b}, {f}, {a11}\n",
            )
        };
    }

    /// `words` words (4 columns each) of the 2×2 block from the rows'
    /// starts: `xs`, `ws` hold both rows, the second `stride` bytes after
    /// the first, `4 · words` bytes each.
    ///
    /// Thirteen registers: the two pointers, `skip`, four accumulators and
    /// six scratch; the loop's end is kept on the stack (pushed from the
    /// register that then serves as the sixth scratch one) and compared at
    /// the end of each 8 columns.
    #[inline(always)]
    pub(super) fn mac_2x2(
        xs: &[i8],
        ws: &[i8],
        stride: usize,
        words: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let [mut a00, mut a01, mut a10, mut a11] = acc;
        let pairs = words / 2;
        let skip = stride.wrapping_sub(4);
        let (mut x, mut w) = (xs.as_ptr(), ws.as_ptr());
        if pairs > 0 {
            let end = x.wrapping_add(8 * pairs);
            // SAFETY: the wrapper checked that both rows of `x` and of `w`
            // hold `4 · words` bytes (row 1 at `stride` from row 0); the
            // loop reads `8 · pairs <= 4 · words` of each. The stack is
            // back where it was at the end.
            unsafe {
                asm!(
                    "push {{{e}}}",
                    "2:",
                    step_2x2!(),
                    step_2x2!(),
                    "ldr {a}, [sp]",
                    "cmp {x}, {a}",
                    "bne 2b",
                    "add sp, sp, #4",
                    x = inout(reg) x,
                    w = inout(reg) w,
                    e = inout(reg) end => _,
                    skip = in(reg) skip,
                    a00 = inout(reg) a00,
                    a01 = inout(reg) a01,
                    a10 = inout(reg) a10,
                    a11 = inout(reg) a11,
                    a = out(reg) _,
                    b = out(reg) _,
                    c = out(reg) _,
                    d = out(reg) _,
                    f = out(reg) _,
                    options(readonly),
                );
            }
        }
        if words % 2 == 1 {
            // SAFETY: as above, the last word of each row
            unsafe {
                asm!(
                    step_2x2!(),
                    x = inout(reg) x => _,
                    w = inout(reg) w => _,
                    skip = in(reg) skip,
                    a00 = inout(reg) a00,
                    a01 = inout(reg) a01,
                    a10 = inout(reg) a10,
                    a11 = inout(reg) a11,
                    a = out(reg) _,
                    b = out(reg) _,
                    c = out(reg) _,
                    d = out(reg) _,
                    e = out(reg) _,
                    f = out(reg) _,
                    options(readonly, nostack, preserves_flags),
                );
            }
        }
        [a00, a01, a10, a11]
    }

    /// `words` words of one row `x` (its halves offset by `offset`) times
    /// two rows of `ws`, the second `stride` bytes after the first:
    /// thirteen registers.
    #[inline(always)]
    pub(super) fn mac_1x2(
        x: &[i8],
        ws: &[i8],
        stride: usize,
        words: usize,
        offset: i32,
        acc: [i32; 2],
    ) -> [i32; 2] {
        let [mut a0, mut a1] = acc;
        // the offset in both halves
        let offset = (offset as u32 & 0xffff) * 0x0001_0001;
        // SAFETY: the wrapper checked that `x` holds `4 · words` bytes and
        // both rows of `ws` (row 1 at `stride` from row 0) as many.
        unsafe {
            asm!(
                "2:",
                "ldr {b}, [{x}], #4",
                "ldr {d}, [{w}], #4",
                "ldr {f}, [{w}, {skip}]",
                "sxtb16 {a}, {b}",
                "sxtb16 {b}, {b}, ror #8",
                "sadd16 {a}, {a}, {off}",
                "sadd16 {b}, {b}, {off}",
                "sxtb16 {c}, {d}",
                "sxtb16 {d}, {d}, ror #8",
                "sxtb16 {e}, {f}",
                "sxtb16 {f}, {f}, ror #8",
                "smlad {a0}, {a}, {c}, {a0}",
                "smlad {a0}, {b}, {d}, {a0}",
                "smlad {a1}, {a}, {e}, {a1}",
                "smlad {a1}, {b}, {f}, {a1}",
                "subs {n}, {n}, #1",
                "bne 2b",
                x = inout(reg) x.as_ptr() => _,
                w = inout(reg) ws.as_ptr() => _,
                n = inout(reg) words => _,
                skip = in(reg) stride.wrapping_sub(4),
                off = in(reg) offset,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                d = out(reg) _,
                e = out(reg) _,
                f = out(reg) _,
                options(readonly, nostack),
            );
        }
        [a0, a1]
    }

    /// Channels `c … c + 3` of one depthwise tap: `acc[j] += (x_j +
    /// offset) · f_j` for the four bytes of the input word `x` and of the
    /// filter word `f` (`offset` in both halves).
    #[inline(always)]
    pub(super) fn mac_4_channels(acc: [i32; 4], x: u32, f: u32, offset: u32) -> [i32; 4] {
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        // SAFETY: registers only
        unsafe {
            asm!(
                "sxtb16 {xe}, {x}",
                "sxtb16 {xo}, {x}, ror #8",
                "sadd16 {xe}, {xe}, {off}",
                "sadd16 {xo}, {xo}, {off}",
                "sxtb16 {fe}, {f}",
                "sxtb16 {fo}, {f}, ror #8",
                "smlabb {a0}, {xe}, {fe}, {a0}",
                "smlatt {a2}, {xe}, {fe}, {a2}",
                "smlabb {a1}, {xo}, {fo}, {a1}",
                "smlatt {a3}, {xo}, {fo}, {a3}",
                x = in(reg) x,
                f = in(reg) f,
                off = in(reg) offset,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                xe = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(pure, nomem, nostack),
            );
        }
        [a0, a1, a2, a3]
    }
}

/// The same loops in plain Rust where there is no DSP extension: what the
/// unit tests run the blocked kernels with on the host.
#[cfg(not(shapecheck_dsp))]
mod arch {
    /// [`super::mac_2x2`] over `words` whole words.
    pub(super) fn mac_2x2(
        xs: &[i8],
        ws: &[i8],
        stride: usize,
        words: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let len = 4 * words;
        let end = stride + len;
        super::portable::mac_2x2_rows(
            xs.get(..len).unwrap_or(&[]),
            xs.get(stride..end).unwrap_or(&[]),
            ws.get(..len).unwrap_or(&[]),
            ws.get(stride..end).unwrap_or(&[]),
            0,
            acc,
        )
    }

    /// [`super::mac_1x2`] over `words` whole words.
    pub(super) fn mac_1x2(
        x: &[i8],
        ws: &[i8],
        stride: usize,
        words: usize,
        offset: i32,
        acc: [i32; 2],
    ) -> [i32; 2] {
        let len = 4 * words;
        let w0 = ws.get(..len).unwrap_or(&[]);
        let w1 = ws.get(stride..stride + len).unwrap_or(&[]);
        let cols = x.iter().zip(w0).zip(w1);
        cols.fold(acc, |[a0, a1], ((&x, &u), &v)| {
            let x = i32::from(x) + offset;
            [
                a0.wrapping_add(x * i32::from(u)),
                a1.wrapping_add(x * i32::from(v)),
            ]
        })
    }

    /// [`super::depthwise`]'s four channels of one tap.
    pub(super) fn mac_4_channels(acc: [i32; 4], x: u32, f: u32, offset: u32) -> [i32; 4] {
        let offset = i32::from(offset as u16 as i16);
        core::array::from_fn(|j| {
            let xj = i32::from((x >> (8 * j)) as u8 as i8) + offset;
            let fj = i32::from((f >> (8 * j)) as u8 as i8);
            acc[j].wrapping_add(xj * fj)
        })
    }
}

/// The blocked loops (their plain-Rust form on the host) against the
/// portable kernels, on random shapes and parameters: every pairing of
/// rows and channels (odd counts), depths with and without a tail past the
/// last word, per-tensor and per-channel multipliers, with and without
/// bias. The DSP form runs the same comparison on the Cortex-M4F under QEMU
/// (embedded/tests/dsp_kernels.rs).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        conv_2d_int8, fully_connected_int8, quantize_multiplier, Conv2dDims, Conv2dParams,
        FullyConnectedDims, FullyConnectedParams, Rounding,
    };
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    /// rows, channels, depth, x, w, bias, input zero point, real
    /// multipliers, (output zero point, clamp)
    type Case = (
        usize,
        usize,
        usize,
        Vec<i8>,
        Vec<i8>,
        Option<Vec<i32>>,
        i32,
        Vec<f64>,
        (i32, i32, i32),
    );

    fn case() -> impl Strategy<Value = Case> {
        (1usize..7, 1usize..7, 1usize..40).prop_flat_map(|(rows, channels, depth)| {
            (
                Just(rows),
                Just(channels),
                Just(depth),
                proptest::collection::vec(any::<i8>(), rows * depth),
                proptest::collection::vec(any::<i8>(), channels * depth),
                proptest::option::of(proptest::collection::vec(-40_000i32..40_000, channels)),
                -128i32..=127,
                prop_oneof![
                    proptest::collection::vec(1e-4f64..0.5, 1),
                    proptest::collection::vec(1e-4f64..0.5, channels)
                ],
                (-128i32..=127, -128i32..=0, 0i32..=127),
            )
        })
    }

    proptest! {
        #[test]
        fn matmul_is_the_portable_1x1_convolution(
            (rows, channels, depth, x, w, bias, zp, reals, (out_zp, lo, hi)) in case()
        ) {
            let multipliers: Vec<_> = reals.iter().map(|&r| quantize_multiplier(r).unwrap()).collect();
            let dims = Conv2dDims {
                batches: 1, input_height: 1, input_width: rows, input_depth: depth,
                filter_height: 1, filter_width: 1,
                output_height: 1, output_width: rows, output_depth: channels,
            };
            let params = Conv2dParams {
                stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
                pad_top: 0, pad_left: 0, input_zero_point: zp, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: lo, output_max: hi,
                rounding: Rounding::Double,
            };
            let mut want = std::vec![0i8; rows * channels];
            conv_2d_int8(&x, &w[..], bias.as_deref(), dims, &params, &mut want).unwrap();
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; rows * channels];
            prop_assert!(matmul(&x, &w, bias.as_deref(), depth, zp, &multipliers, &stage, &mut got).is_some());
            prop_assert_eq!(got, want);
        }

        #[test]
        fn vec_mat_is_the_portable_fully_connected_layer(
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
            fully_connected_int8(x, &w[..], bias.as_deref(), dims, &params, &mut want).unwrap();
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; channels];
            prop_assert!(vec_mat(x, &w, bias.as_deref(), zp, &multipliers, &stage, &mut got).is_some());
            prop_assert_eq!(got, want);
        }

        #[test]
        fn depthwise_is_the_portable_depthwise_convolution(
            (h, w, groups, kh, kw) in (1usize..7, 1usize..7, 1usize..4, 1usize..4, 1usize..4),
            (sh, sw, dh, dw, pt, pl, oh, ow) in (1usize..3, 1usize..3, 1usize..3, 1usize..3, 0usize..3, 0usize..3, 1usize..7, 1usize..7),
            seed in any::<u64>(),
            (zp, out_zp, lo, hi, per_channel, with_bias) in (-128i32..=127, -128i32..=127, -128i32..=0, 0i32..=127, any::<bool>(), any::<bool>()),
        ) {
            let c = 4 * groups;
            let mut state = seed | 1;
            let mut next = move || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
            let image: Vec<i8> = (0..h * w * c).map(|_| next() as i8).collect();
            let filter: Vec<i8> = (0..kh * kw * c).map(|_| next() as i8).collect();
            let bias: Vec<i32> = (0..c).map(|_| (next() % 200_001) as i32 - 100_000).collect();
            let multipliers: Vec<_> = (0..if per_channel { c } else { 1 })
                .map(|_| QuantizedMultiplier::from_parts((1 << 30) + (next() >> 34) as i32, -((next() % 12) as i32)))
                .collect();
            let dims = crate::DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: c,
                filter_height: kh, filter_width: kw, depth_multiplier: 1,
                output_height: oh, output_width: ow,
            };
            let params = crate::DepthwiseConvParams {
                stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
                pad_top: pt, pad_left: pl, input_zero_point: zp, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: lo, output_max: hi,
                rounding: Rounding::Double,
            };
            let bias = with_bias.then_some(&bias[..]);
            let mut want = std::vec![0i8; oh * ow * c];
            crate::depthwise_conv_int8(&image, &filter[..], bias, dims, &params, &mut want).unwrap();
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; oh * ow * c];
            prop_assert!(depthwise(&image, &filter, bias, &dims, &params, &stage, &mut got).is_some());
            prop_assert_eq!(got, want);
        }
    }
}
