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
//! - [`conv_im2col`]: a k×k convolution's two pixels gathered into two
//!   rows (im2col), widened once into 16-bit halves (`SXTB16`), then each
//!   pair of output channels in 16 instructions per 16 multiply-accumulates
//!   (`LDRD` of the pixels' halves, the weights widened, 8 `SMLAD`s), as
//!   CMSIS-NN's `arm_nn_mat_mult_kernel_s8_s16`; filters of up to 576
//!   values (a bounded stack buffer);
//! - [`mac_1x2`]: one row times two rows, the input's offset added to the
//!   widened halves (`SADD16`) when there is a single row to share it (a
//!   fully connected layer of one batch of fewer than 4 rows or more than
//!   640 inputs, and the last 1 to 3 rows of the others);
//! - [`vec_mat_wide`]: a fully connected layer of one batch, its input
//!   widened once into 16-bit halves with the offset added, four rows a
//!   pass sharing each `LDRD` of the halves (21 instructions per 16
//!   multiply-accumulates), as CMSIS-NN's `arm_nn_vec_mat_mult_t_s8`
//!   shares each input word between its rows;
//! - [`depthwise`]: four channels a word; a 3×3 filter's taps widened once
//!   per channel group into a table read by `LDRD`, the input's zero point
//!   folded into a per-channel constant for each set of taps inside, one
//!   block of 8 instructions a tap for each pixel; that set-up
//!   ([`depthwise_group`]) made once per layer for a streamed layer's band
//!   calls (`model!` writes it as a `static`, [`crate::DepthwiseGroup`]);
//! - [`Requant4`]: TFLite Micro's output stage, double rounding and clamp,
//!   for four channels in 37 instructions (`SMMLAR`, `SSAT`, `SSUB8` /
//!   `SEL`).
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

use core::mem::MaybeUninit;

use crate::depthwise_conv::DepthwiseGroup;
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

/// `Σ row` in wrapping `i32`: the weights' sum of one output channel
/// (its `− zero_point · Σ w`), whole words by [`arch::sum_words`].
fn sum_bytes(row: &[i8]) -> i32 {
    let words = row.len() / 4;
    let head = arch::sum_words(row, words);
    row.iter()
        .skip(4 * words)
        .fold(head, |s, &v| s.wrapping_add(i32::from(v)))
}

/// A channel's accumulator before its taps, `bias − zero_point · Σ w`
/// over its weights `row` (wrapping, as the accumulator does): `bias`
/// alone, no sum, for a zero point of 0 (as `model!` writes a streamed
/// 1×1 convolution, its zero point folded into its bias).
#[inline(always)]
fn folded(bias: i32, zero_point: i32, row: &[i8]) -> i32 {
    if zero_point == 0 {
        bias
    } else {
        bias.wrapping_sub(zero_point.wrapping_mul(sum_bytes(row)))
    }
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
    // a deep product: each pixel pair's rows widened once for all the
    // channel pairs (16 instructions per 16 MACs), pixel pairs outside
    if (WIDE_MIN_DEPTH..=IM2COL_MAX).contains(&depth)
        && depth.is_multiple_of(8)
        && channels >= 2
        && channels.is_multiple_of(2)
        && Requant4::takes_all(multipliers, channels, stage)
    {
        // the widened rows on the stack sized by the depth's class (a
        // wrapper per class owns them, out of line: only while it runs)
        return if depth <= 64 {
            matmul_wide_in::<64, 32, B>(x, w, bias, depth, zero_point, multipliers, stage, out)
        } else if depth <= 256 {
            matmul_wide_in::<256, 16, B>(x, w, bias, depth, zero_point, multipliers, stage, out)
        } else {
            matmul_wide_in::<IM2COL_MAX, 16, B>(
                x,
                w,
                bias,
                depth,
                zero_point,
                multipliers,
                stage,
                out,
            )
        };
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
    let constant =
        |c: usize, row: &[i8]| folded(bias.and_then(|b| b.at(c)).unwrap_or(0), zero_point, row);
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
        let requant = Requant4::for_channels(multipliers, [c, c + 1, c, c + 1], stage);
        let mut p = 0;
        // the pixel pairs in one loop where the depth is whole 8-byte steps
        let pairs = rows / 2;
        if let (Some(requant), true) = (requant, pairs > 0 && depth.is_multiple_of(8)) {
            let mut state = MatRun {
                constant: [k0, k1, k0, k1],
                requant,
                tail: [0; 5],
            };
            let xs = x.get(..pairs * 2 * depth)?;
            if arch::mac_2x2_run(
                xs,
                pair,
                depth,
                pairs,
                &mut state,
                out.get_mut(c..)?,
                channels,
            ) {
                p = 2 * pairs;
            }
        }
        for xs in x.chunks(2 * depth).skip(p / 2) {
            let (y0, y1) = if xs.len() == 2 * depth {
                let acc = mac_2x2(xs, pair, depth, depth, [k0, k1, k0, k1])?;
                if let Some(q) = &requant {
                    let [b0, b1, b2, b3] = arch::requant4(acc, q).to_le_bytes();
                    ([b0 as i8, b1 as i8], Some([b2 as i8, b3 as i8]))
                } else {
                    let [a00, a01, a10, a11] = acc;
                    (
                        [stage.apply(a00, m0), stage.apply(a01, m1)],
                        Some([stage.apply(a10, m0), stage.apply(a11, m1)]),
                    )
                }
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

/// [`matmul_wide`] with its stack buffers: the widened rows of a depth of
/// at most `N` (`4N` bytes) and the stages of a group of `P` channel
/// pairs (`60P` bytes, `P ≤ 32`). Out of line, so that they are on the
/// stack only while it runs; one small wrapper per size class, the body
/// shared.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn matmul_wide_in<const N: usize, const P: usize, B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    bias: Option<&B>,
    depth: usize,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    // written before they are read (`arch::widen_rows`, `group_stages`):
    // not zeroed first (a memclr of up to 2 KB a call)
    let mut wide = [NO_WORD; N];
    let mut stages = [NO_STAGE; P];
    let scratch = Scratch {
        wide: &mut wide,
        stages: &mut stages,
    };
    matmul_wide(
        x,
        w,
        bias,
        depth,
        zero_point,
        multipliers,
        stage,
        out,
        scratch,
    )
}

/// The stack buffers of [`matmul_wide`] and [`conv_im2col_rows`], owned by
/// a wrapper per size class: the two rows' whole words widened into
/// 16-bit halves (at least the filter's or the depth's values) and the
/// constants and stages of a group of channel pairs, neither zeroed (each
/// written before it is read).
struct Scratch<'a> {
    wide: &'a mut [MaybeUninit<u32>],
    stages: &'a mut [MaybeUninit<PairStage>],
}

/// [`matmul`] of a depth of 8 to 576, a multiple of 8, and an even
/// channel count whose stages are all [`Requant4`]s (checked by it): per
/// group of channels (as many as `scratch` holds stages for) and per
/// pixel pair, the pair's rows widened once
/// into `scratch` and every channel pair in one loop ([`channel_pairs`]).
/// Out of line, shared by the size classes' wrappers ([`matmul_wide_in`]).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn matmul_wide<B: Values<i32> + ?Sized>(
    x: &[i8],
    w: &[i8],
    bias: Option<&B>,
    depth: usize,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    out: &mut [i8],
    scratch: Scratch<'_>,
) -> Option<()> {
    let channels = w.len() / depth.max(1);
    let Scratch { wide, stages } = scratch;
    // the channels of a group: as many as `stages` holds pairs for
    let group_channels = 2 * stages.len().clamp(1, IM2COL_CHANNELS / 2);
    for (g, group) in w.chunks(group_channels * depth).enumerate() {
        let first = g * group_channels;
        let qs = group_stages(
            group,
            depth,
            first,
            bias,
            zero_point,
            multipliers,
            stage,
            stages,
        )?;
        for (p, xs) in x.chunks(2 * depth).enumerate() {
            let (c0, c1) = xs.split_at(depth.min(xs.len()));
            let at = 2 * p * channels + first;
            let (c1, second) = if c1.is_empty() {
                (c0, None)
            } else {
                (c1, Some(at + channels))
            };
            channel_pairs(c0, c1, wide, group, qs, out, at, second)?;
        }
    }
    Some(())
}

/// The largest filter (`rows × columns × input channels`) [`conv_im2col`]
/// takes: 576 values, a 3×3 filter over 64 input channels (ResNet-8's
/// deepest), 10×4 over 14, 5×5 over 23. Its two im2col rows are a stack
/// buffer of `2 × IM2COL_MAX` = 1,152 bytes, and their whole words widened
/// to 16-bit halves another of `4 × IM2COL_MAX` = 2,304 bytes; a larger
/// filter takes the portable loop.
const IM2COL_MAX: usize = 576;
/// The most output channels [`conv_im2col`] and [`matmul_wide`] hold
/// constants and output stages for at once (32 pairs, 60 B each: 1,920 B
/// on the stack, in the size class's wrapper); more channels are taken in
/// groups, the two pixels' rows gathered and widened again for each group
/// (2.5 instructions per pixel pair and filter value: about 0.02 per MAC
/// in groups of 64, 0.04 in groups of 32). [`matmul_wide`]'s classes of
/// depths above 64 take groups of 32 (960 B: vww's stack), the rest 64.
const IM2COL_CHANNELS: usize = 64;
/// The least depth [`matmul`] widens each pixel pair for, with all the
/// channel pairs in one loop ([`arch::wide_run`]; a depth that is not a
/// multiple of 8 keeps [`arch::mac_2x2_run`]'s loop over pixel pairs).
const WIDE_MIN_DEPTH: usize = 8;

/// TFLite's int8 convolution by im2col: for each pair of output pixels of
/// a row, their `filter_height × filter_width × input_depth` input values
/// copied into two rows (a tap outside the input holds the zero point, so
/// it adds nothing) and their whole words widened once into 16-bit halves
/// (`SXTB16`, [`arch::widen_rows`]), then each pair of output channels
/// times those rows ([`arch::mac_2x2_wide`], SMLAD: 16 instructions for 16
/// multiply-accumulates, the input's halves read by `LDRD` and only the
/// weights widened) from `bias − zero_point · Σ w`, and the output stage
/// [`Requant4`]. Output channels in groups of at most 64 (the constants
/// and stages of one group on the stack). `None`, with `out` untouched,
/// unless the filter has at most 576 values ([`IM2COL_MAX`]: the two rows
/// are a stack buffer) and the output an even count of channels, the
/// zero point is an int8, the stage applies to every channel and every
/// length matches (the caller's portable loop then runs). Its stack
/// buffers are sized by the filter's class (at most 64, 288 or 576
/// values: 2.3, 3.6 or 5.4 KB; 0.6 KB for a filter of at most 64 values
/// and at most 8 output channels) and owned by an out-of-line wrapper per
/// class ([`conv_im2col_in`]), so that they are on the stack only while
/// it runs, not in the caller's frame under a 1×1 layer's buffers.
pub(crate) fn conv_im2col<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    dims: &crate::Conv2dDims,
    params: &crate::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let depth = dims.input_depth;
    let k = dims
        .filter_height
        .checked_mul(dims.filter_width)?
        .checked_mul(depth)?;
    let channels = dims.output_depth;
    let zero_point = params.input_zero_point;
    let image_len = dims
        .input_height
        .checked_mul(dims.input_width)?
        .checked_mul(depth)?;
    let out_len = dims
        .output_height
        .checked_mul(dims.output_width)?
        .checked_mul(channels)?;
    let multipliers = params.multipliers;
    if k == 0
        || k > IM2COL_MAX
        || channels < 2
        || !channels.is_multiple_of(2)
        || !(-128..=127).contains(&zero_point)
        || w.len() != k.checked_mul(channels)?
        || input.len() != image_len.checked_mul(dims.batches)?
        || out.len() != out_len.checked_mul(dims.batches)?
        || !(multipliers.len() == 1 || multipliers.len() == channels)
        || bias.is_some_and(|b| b.count() != channels)
    {
        return None;
    }
    // every channel pair's output stage first: `None` before any output
    if !Requant4::takes_all(multipliers, channels, stage) {
        return None;
    }
    // a shallow filter (a first layer's 3×3×1 or 3×3×3) whose rows are
    // not whole words: its rows padded with zero weights
    if !k.is_multiple_of(4) && k <= SHALLOW_MAX {
        let row = k.next_multiple_of(4);
        if channels.checked_mul(row)? <= SHALLOW_WEIGHTS {
            return conv_im2col_shallow(input, w, bias, dims, params, stage, out, row);
        }
    }
    // the stack buffers sized by the filter's class (a wrapper per class
    // owns them, out of line: only while it runs)
    if k <= 64 && channels <= 8 {
        // a first layer's few outputs (person detection's, vww's): the
        // stages of 4 pairs, 240 B
        conv_im2col_in::<64, 128, 4, B>(input, w, bias, dims, params, stage, out, k)
    } else if k <= 64 {
        conv_im2col_in::<64, 128, 32, B>(input, w, bias, dims, params, stage, out, k)
    } else if k <= 288 {
        conv_im2col_in::<288, 576, 32, B>(input, w, bias, dims, params, stage, out, k)
    } else {
        conv_im2col_in::<IM2COL_MAX, { 2 * IM2COL_MAX }, 32, B>(
            input, w, bias, dims, params, stage, out, k,
        )
    }
}

/// The largest filter that [`conv_im2col`] pads to a multiple of 4 values
/// ([`conv_im2col_shallow`]).
const SHALLOW_MAX: usize = 32;
/// The most padded weights (`output channels × padded row`) of
/// [`conv_im2col_shallow`]'s stack buffer.
const SHALLOW_WEIGHTS: usize = 512;

/// [`conv_im2col`] of a shallow filter (`k` of at most 32 values, not a
/// multiple of 4: a first layer's 3×3 over one or three channels): each
/// channel's weights copied into a row of `row` (`k` rounded up to 4)
/// whose tail is zero, so that the two pixels' rows (gathered as `k`
/// values, the tail left as it is: it meets zero weights) run in
/// [`arch::wide_run`]'s loop over all the channel pairs instead of
/// [`arch::mac_2x2_wide`] and the plain-Rust tail per pair. The sums `Σ w`
/// are the same. At most 512 padded weights (a stack buffer, out of
/// line). The caller has checked every length.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn conv_im2col_shallow<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    dims: &crate::Conv2dDims,
    params: &crate::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    row: usize,
) -> Option<()> {
    let k = w.len() / dims.output_depth.max(1);
    // each row written whole below (its weights, then zeros): not zeroed
    // first
    let mut padded = [const { MaybeUninit::<i8>::uninit() }; SHALLOW_WEIGHTS];
    let len = dims.output_depth.checked_mul(row)?;
    let rows = padded.get_mut(..len)?;
    if k == 0 || row < k || w.len() != dims.output_depth.checked_mul(k)? {
        return None;
    }
    for (to, from) in rows.chunks_exact_mut(row).zip(w.chunks_exact(k)) {
        let (head, tail) = to.split_at_mut(k);
        for (t, &v) in head.iter_mut().zip(from) {
            t.write(v);
        }
        for t in tail {
            t.write(0);
        }
    }
    // SAFETY: `output_depth` rows of `row` values were written just above
    // (`w` holds `output_depth` rows of `k ≤ row`), `len` values in all,
    // which `MaybeUninit<i8>` lays out as `i8`s
    let padded = unsafe { core::slice::from_raw_parts(rows.as_ptr().cast::<i8>(), len) };
    if dims.output_depth <= 8 {
        // a first layer's few outputs: the stages of 4 pairs
        conv_im2col_in::<SHALLOW_MAX, { 2 * SHALLOW_MAX }, 4, B>(
            input, padded, bias, dims, params, stage, out, row,
        )
    } else {
        conv_im2col_in::<SHALLOW_MAX, { 2 * SHALLOW_MAX }, 32, B>(
            input, padded, bias, dims, params, stage, out, row,
        )
    }
}

/// [`conv_im2col_rows`] with its stack buffers: the two im2col rows of a
/// filter of at most `N` values (`C = 2N` bytes), their widened words
/// (`4N` bytes) and the stages of a group of `P` channel pairs (`60P`
/// bytes, `P ≤ 32`). Out
/// of line, so that they are on the stack only while it runs; one small
/// wrapper per size class, the body shared. `w`'s rows are `row` values
/// (the filter's, or padded with zero weights).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn conv_im2col_in<const N: usize, const C: usize, const P: usize, B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    dims: &crate::Conv2dDims,
    params: &crate::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    row: usize,
) -> Option<()> {
    let mut cols = [0i8; C];
    // written before they are read (`arch::widen_rows`, `group_stages`):
    // not zeroed first
    let mut wide = [NO_WORD; N];
    let mut stages = [NO_STAGE; P];
    let scratch = Scratch {
        wide: &mut wide,
        stages: &mut stages,
    };
    conv_im2col_rows(
        input, w, bias, dims, params, stage, out, &mut cols, scratch, row,
    )
}

/// The body of [`conv_im2col`] (its checks passed) on the buffers of a
/// size class: `cols` holds the two im2col rows (`2 · row` bytes, the
/// filter's `k` values gathered at the front of each), `scratch` their
/// widened words (`row` words) and a group's stages; `w`'s rows are `row`
/// values (`row > k` where they end in zero weights). Out of line, shared
/// by the classes' wrappers ([`conv_im2col_in`]).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn conv_im2col_rows<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    dims: &crate::Conv2dDims,
    params: &crate::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    cols: &mut [i8],
    scratch: Scratch<'_>,
    row: usize,
) -> Option<()> {
    use crate::window::Window;
    let depth = dims.input_depth;
    let k = dims
        .filter_height
        .checked_mul(dims.filter_width)?
        .checked_mul(depth)?;
    let channels = dims.output_depth;
    let zero_point = params.input_zero_point;
    let image_len = dims
        .input_height
        .checked_mul(dims.input_width)?
        .checked_mul(depth)?;
    let out_len = dims
        .output_height
        .checked_mul(dims.output_width)?
        .checked_mul(channels)?;
    let multipliers = params.multipliers;
    if row < k {
        return None;
    }
    let cols = cols.get_mut(..2 * row)?;
    cols.fill(zero_point as i8);
    // the two rows' whole words widened into 16-bit halves, once per pixel
    // pair for all the channel pairs (the rest of a row, `k mod 4` bytes,
    // is read from `cols`)
    let Scratch { wide, stages } = scratch;
    // one pixel's values into `row` of `cols`, the filter rows inside the
    // input (`rows`) found once per output row
    let gather = |cols: &mut [i8], image: &[i8], rows: Window, ox: usize| {
        let taps = Window::new(
            ox,
            params.stride_width,
            params.pad_left,
            params.dilation_width,
            dims.filter_width,
            dims.input_width,
        );
        if rows.len() < dims.filter_height || taps.len() < dims.filter_width {
            // a tap outside: the zero point there
            for v in cols.iter_mut() {
                *v = zero_point as i8;
            }
        }
        // the taps of a filter row inside the input: one run of bytes in
        // both where the filter is not dilated, else a run per tap
        let (run, per_tap) = if params.dilation_width == 1 {
            (taps.len() * depth, false)
        } else {
            (depth, true)
        };
        for (ky, iy) in rows.taps() {
            for (kx, ix) in taps.taps() {
                let from = (iy * dims.input_width + ix) * depth;
                let to = (ky * dims.filter_width + kx) * depth;
                if let (Some(d), Some(s)) =
                    (cols.get_mut(to..to + run), image.get(from..from + run))
                {
                    // a few bytes without a call (a byte loop would
                    // become one: LLVM turns it into `memcpy`)
                    match (d, s) {
                        ([d0], [s0]) => *d0 = *s0,
                        ([d0, d1], [s0, s1]) => (*d0, *d1) = (*s0, *s1),
                        ([d0, d1, d2], [s0, s1, s2]) => (*d0, *d1, *d2) = (*s0, *s1, *s2),
                        ([d0, d1, d2, d3], [s0, s1, s2, s3]) => {
                            (*d0, *d1, *d2, *d3) = (*s0, *s1, *s2, *s3)
                        }
                        (d, s) => d.copy_from_slice(s),
                    }
                }
                if !per_tap {
                    break;
                }
            }
        }
    };
    // a pixel whose taps are all inside the input, its filter rows' input
    // row `iy0` (the next ones `dilation_height` apart) and the filter not
    // dilated along the width: `filter_height` runs of
    // `filter_width × depth` bytes, without the windows; `false` (nothing
    // written) for any other pixel
    let run = dims.filter_width * depth;
    let step = params
        .dilation_height
        .saturating_mul(dims.input_width)
        .saturating_mul(depth);
    let inside = |cols: &mut [i8], image: &[i8], iy0: usize, ox: usize| {
        let Some(x0) = ox
            .checked_mul(params.stride_width)
            .and_then(|b| b.checked_sub(params.pad_left))
        else {
            return false;
        };
        if params.dilation_width != 1 || x0.saturating_add(dims.filter_width) > dims.input_width {
            return false;
        }
        let mut from = (iy0 * dims.input_width + x0) * depth;
        for d in cols.chunks_exact_mut(run.max(1)) {
            match (d, image.get(from..from.saturating_add(run))) {
                ([d0, d1, d2], Some([s0, s1, s2])) => (*d0, *d1, *d2) = (*s0, *s1, *s2),
                (d, Some(s)) => d.copy_from_slice(s),
                (_, None) => return false,
            }
            from = from.saturating_add(step);
        }
        true
    };
    // per channel pair of a group: the constants and the output stage
    let group_channels = 2 * stages.len().clamp(1, IM2COL_CHANNELS / 2);
    for (g, group) in w.chunks(group_channels * row).enumerate() {
        let first = g * group_channels;
        let qs = group_stages(
            group,
            row,
            first,
            bias,
            zero_point,
            multipliers,
            stage,
            stages,
        )?;
        for (image, out) in input
            .chunks_exact(image_len.max(1))
            .zip(out.chunks_exact_mut(out_len.max(1)))
        {
            for oy in 0..dims.output_height {
                let rows = Window::new(
                    oy,
                    params.stride_height,
                    params.pad_top,
                    params.dilation_height,
                    dims.filter_height,
                    dims.input_height,
                );
                // the filter rows' first input row where all are inside
                let full = match rows.taps().next() {
                    Some((_, iy0)) if rows.len() == dims.filter_height => Some(iy0),
                    _ => None,
                };
                for ox in (0..dims.output_width).step_by(2) {
                    let second = ox + 1 < dims.output_width;
                    let (c0, c1) = cols.split_at_mut(row);
                    let c0 = c0.get_mut(..k)?;
                    if !full.is_some_and(|iy0| inside(c0, image, iy0, ox)) {
                        gather(c0, image, rows, ox);
                    }
                    if second {
                        let c1 = c1.get_mut(..k)?;
                        if !full.is_some_and(|iy0| inside(c1, image, iy0, ox + 1)) {
                            gather(c1, image, rows, ox + 1);
                        }
                    } else {
                        c1.get_mut(..k)?.copy_from_slice(c0);
                    }
                    let at = (oy * dims.output_width + ox) * channels + first;
                    let (c0, c1) = cols.split_at(row);
                    let c1 = c1.get(..row)?;
                    let second = second.then_some(at + channels);
                    channel_pairs(c0, c1, wide, group, qs, out, at, second)?;
                }
            }
        }
    }
    Some(())
}

/// The constants `bias − zero_point · Σ w` and the output stages of the
/// channel pairs of `group` (rows of `k` weights, its first channel
/// `first`) into the front of `stages`, which it returns; `None` if a
/// stage is not a [`Requant4`].
#[allow(clippy::too_many_arguments)]
fn group_stages<'a, B: Values<i32> + ?Sized>(
    group: &[i8],
    k: usize,
    first: usize,
    bias: Option<&B>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
    stages: &'a mut [MaybeUninit<PairStage>],
) -> Option<&'a [PairStage]> {
    // the part of the stage every channel shares (its zero point and
    // clamp), found once: per pair only the two multipliers
    let shared = Requant4::for_channels(multipliers, [first; 4], stage)?;
    let channel = |c: usize| Requant4::channel(multipliers, c);
    let mut n = 0;
    for (pair, ps) in group.chunks_exact(2 * k).zip(stages.iter_mut()) {
        let c = first + 2 * n;
        let (w0, w1) = pair.split_at(k);
        // the pair's two biases at once (the callers checked their count)
        let [b0, b1] = bias.and_then(|b| b.chunk::<2>(c)).unwrap_or([0; 2]);
        let (k0, k1) = (folded(b0, zero_point, w0), folded(b1, zero_point, w1));
        let (s0, s1) = (channel(c)?, channel(c + 1)?);
        ps.write(PairStage {
            constant: [k0, k1, k0, k1],
            requant: Requant4 {
                channels: [s0, s1, s0, s1],
                ..shared
            },
        });
        n += 1;
    }
    let written = stages.get(..n)?;
    // SAFETY: the first `n` stages were written just above, and
    // `MaybeUninit<PairStage>` has `PairStage`'s layout
    Some(unsafe { core::slice::from_raw_parts(written.as_ptr().cast::<PairStage>(), n) })
}

/// One channel pair's room for its constants and stage (a group's stack
/// buffer is an array of these, written before it is read: not zeroed).
const NO_STAGE: MaybeUninit<PairStage> = MaybeUninit::uninit();
/// One word of a stack buffer of widened halves, written before it is read
/// ([`arch::widen_rows`]): not zeroed.
const NO_WORD: MaybeUninit<u32> = MaybeUninit::uninit();

/// Two pixels' rows `c0`, `c1` (`k` values each) times every channel pair
/// of `group` (rows of `k` weights), with its constants and stages: the
/// rows' whole words widened once into `wide`, then, where `k` is a
/// multiple of 4, every pair in one `asm!` loop ([`arch::wide_run`]),
/// else per pair [`arch::mac_2x2_wide`], the last `k mod 4` columns in
/// plain Rust, and [`Requant4`]; pixel 0's two outputs written at
/// `out[at + 2j]`, pixel 1's at `out[second + 2j]` if it is one.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn channel_pairs(
    c0: &[i8],
    c1: &[i8],
    wide: &mut [MaybeUninit<u32>],
    group: &[i8],
    stages: &[PairStage],
    out: &mut [i8],
    at: usize,
    second: Option<usize>,
) -> Option<()> {
    let k = c0.len();
    let words = k / 4;
    // the words written (empty if the rows or `wide` are too short: the
    // loops below then check their lengths and decline)
    let wide = arch::widen_rows(c0, c1, wide, words);
    if k.is_multiple_of(4) && arch::wide_run(wide, words, group, stages, out, at, second) {
        return Some(());
    }
    for ((pair, ps), c) in group.chunks_exact(2 * k).zip(stages).zip((0..).step_by(2)) {
        let mut acc = arch::mac_2x2_wide(wide, pair, k, words, ps.constant);
        if 4 * words < k {
            let (w0, w1) = pair.split_at(k);
            acc = portable::mac_2x2_rows(c0, c1, w0, w1, 4 * words, acc);
        }
        let [b0, b1, b2, b3] = arch::requant4(acc, &ps.requant).to_le_bytes();
        out.get_mut(at + c..at + c + 2)?
            .copy_from_slice(&[b0 as i8, b1 as i8]);
        if let Some(at) = second {
            out.get_mut(at + c..at + c + 2)?
                .copy_from_slice(&[b2 as i8, b3 as i8]);
        }
    }
    Some(())
}

/// A depthwise convolution of one input channel (a first layer, person
/// detection's: 96×96×1, depth multiplier 8) as the convolution it is:
/// its filter `[1, h, w, M]` transposed into `[M, h, w, 1]` on the stack
/// (at most 1024 values), then [`conv_im2col`]. `None` as that, or for
/// more than one input channel.
pub(crate) fn depthwise_as_conv<B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    dims: &crate::DepthwiseConvDims,
    params: &crate::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let taps = dims.filter_height.checked_mul(dims.filter_width)?;
    let m = dims.depth_multiplier;
    // every value of `..len` written by the transposition below: not
    // zeroed first (a memclr of 1 KB a call)
    let mut w = [const { MaybeUninit::<i8>::uninit() }; 1024];
    let len = taps.checked_mul(m)?;
    if dims.input_depth != 1 || m == 0 || len > w.len() || filter.len() != len {
        return None;
    }
    // w[c · taps + t] = filter[t · m + c]: `taps` rows of `m`, each
    // (t, c) once, so each of the `len` places once
    for (t, row) in filter.chunks_exact(m).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            w.get_mut(c * taps + t)?.write(v);
        }
    }
    // SAFETY: `filter` is `taps` rows of `m` (its length is `len`), so the
    // loop above wrote `w[c · taps + t]` for every `t < taps`, `c < m`:
    // each of `w[..len]`, which `MaybeUninit<i8>` lays out as `i8`s
    let w = unsafe { core::slice::from_raw_parts(w.as_ptr().cast::<i8>(), len) };
    let conv_dims = crate::Conv2dDims {
        batches: dims.batches,
        input_height: dims.input_height,
        input_width: dims.input_width,
        input_depth: 1,
        filter_height: dims.filter_height,
        filter_width: dims.filter_width,
        output_height: dims.output_height,
        output_width: dims.output_width,
        output_depth: m,
    };
    let conv_params = crate::Conv2dParams {
        stride_height: params.stride_height,
        stride_width: params.stride_width,
        dilation_height: params.dilation_height,
        dilation_width: params.dilation_width,
        pad_top: params.pad_top,
        pad_left: params.pad_left,
        input_zero_point: params.input_zero_point,
        output_zero_point: params.output_zero_point,
        multipliers: params.multipliers,
        output_min: params.output_min,
        output_max: params.output_max,
        rounding: params.rounding,
    };
    conv_im2col(input, w, bias, &conv_dims, &conv_params, stage, out)
}

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
/// `LDRD` of the halves ([`arch::mac_4_rows`]: 21 instructions per 16
/// MACs and the loop's 2 per 32), the columns past the last whole word
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
    let mut halves = [0u32; WIDE_INPUTS / 2];
    let halves = halves.get_mut(..2 * words)?;
    arch::widen_offset(x.get(..4 * words)?, halves, offset);
    let halves = &*halves;
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
        // the per-tensor stage by reference (no copy a pass)
        let per_channel;
        let requant = if multipliers.len() == 1 {
            per_tensor.as_ref()
        } else {
            per_channel = Requant4::new(multipliers, c, stage);
            per_channel.as_ref()
        };
        write4(ys, acc, requant, stage, &scale, c);
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

/// The output stage of four channels at once, on the DSP extension:
/// TFLite Micro's double rounding and clamp bit for bit in 7 instructions
/// an output and 8 for the four's clamp and packing ([`arch::requant4`]).
///
/// For a multiplier `m` in `[2^30, 2^31)` the doubling high product
/// `(a · m + 2^30) >> 31` is `SMMLAR(a, m2, a)` with `m2 = 2m − 2^32`:
/// `(a · 2^32 + a · (2m − 2^32) + 2^31) >> 32 = (2am + 2^31) >> 32`, one
/// instruction, exact because the quotient fits an `i32` (it is within
/// `±(2^31 − 1)`). The rounding division of that `h` by `2^r`, ties away
/// from zero, is `((h − [h < 0]) >> (r − 1) + 1) >> 1` for `r ≥ 1` (the
/// `+ 1` cannot overflow: `h − [h < 0] ≤ 2^31 − 2`), and the output zero
/// point joins the `+ 1` as `+ 2 · zp` (`QADD`: a sum that saturates is far
/// outside int8 either way), the final `>> 1` inside `SSAT`'s shift. The
/// four bytes are clamped to `[lo, hi]` together (`SSUB8` / `SEL`).
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Requant4 {
    /// per channel `[2m − 2^32, r − 1]` (wrapping to `i32`)
    channels: [[i32; 2]; 4],
    /// `1 + 2 · zero point`
    offset: i32,
    /// the clamp's ends in each byte
    lo: u32,
    hi: u32,
}

impl Requant4 {
    /// Its words, in its layout's order (a prepared depthwise group's
    /// form, [`DepthwiseGroup::requant`]).
    pub(crate) fn words(&self) -> [i32; 11] {
        let [[m0, r0], [m1, r1], [m2, r2], [m3, r3]] = self.channels;
        let (lo, hi) = (self.lo as i32, self.hi as i32);
        [m0, r0, m1, r1, m2, r2, m3, r3, self.offset, lo, hi]
    }

    /// The stage of [`Requant4::words`].
    pub(crate) fn from_words([m0, r0, m1, r1, m2, r2, m3, r3, offset, lo, hi]: [i32; 11]) -> Self {
        Requant4 {
            channels: [[m0, r0], [m1, r1], [m2, r2], [m3, r3]],
            offset,
            lo: lo as u32,
            hi: hi as u32,
        }
    }

    /// Whether the clamp to `[lo, hi]` does anything after the saturation
    /// to int8 (it does not when the range is int8's own).
    #[cfg(shapecheck_dsp)]
    pub(crate) fn clamps(&self) -> bool {
        self.lo != 0x8080_8080 || self.hi != 0x7f7f_7f7f
    }

    /// The stage of channels `c … c + 3`; `None` (the caller then takes
    /// [`OutputStage::apply`]) unless every multiplier is in `[2^30, 2^31)`
    /// with a shift in `[−31, −1]` (a real multiplier below 1/2, as every
    /// int8 layer's), the rounding is the double one and the zero point an
    /// int8.
    pub(crate) fn new(
        multipliers: &[QuantizedMultiplier],
        c: usize,
        stage: &OutputStage,
    ) -> Option<Self> {
        Self::for_channels(multipliers, [c, c + 1, c + 2, c + 3], stage)
    }

    /// Whether a multiplier is one the stage takes: in `[2^30, 2^31)`
    /// with a shift in `[−31, −1]`.
    fn takes(m: &QuantizedMultiplier) -> bool {
        m.multiplier() >= 1 << 30 && (-31..=-1).contains(&m.shift())
    }

    /// Channel `c`'s part of the stage, `[2m − 2^32, r − 1]` of its
    /// multiplier (the one multiplier, or the channel's); `None` unless
    /// [`Requant4::takes`] it.
    #[inline(always)]
    fn channel(multipliers: &[QuantizedMultiplier], c: usize) -> Option<[i32; 2]> {
        let m = multipliers.get(if multipliers.len() == 1 { 0 } else { c })?;
        Self::takes(m).then(|| [m.multiplier().wrapping_mul(2), -m.shift() - 1])
    }

    /// Whether [`Requant4::for_channels`] takes every channel of
    /// `0..channels` (one multiplier, or one per channel): a layer's check
    /// before any output, in one pass over its multipliers.
    pub(crate) fn takes_all(
        multipliers: &[QuantizedMultiplier],
        channels: usize,
        stage: &OutputStage,
    ) -> bool {
        let used = if multipliers.len() == 1 { 1 } else { channels };
        stage.double_int8().is_some()
            && multipliers
                .get(..used)
                .is_some_and(|ms| ms.iter().all(Self::takes))
    }

    /// [`Requant4::new`] for the channels `cs` (the 2 pixels × 2 channels
    /// block of [`matmul`]: `[c, c + 1, c, c + 1]`).
    pub(crate) fn for_channels(
        multipliers: &[QuantizedMultiplier],
        cs: [usize; 4],
        stage: &OutputStage,
    ) -> Option<Self> {
        let (zero_point, lo, hi) = stage.double_int8()?;
        let channel = |c: usize| Self::channel(multipliers, c);
        let [c0, c1, c2, c3] = cs;
        let (s0, s1) = (channel(c0)?, channel(c1)?);
        // a channel pair's block (`[c, c + 1, c, c + 1]`): two stages, not four
        let channels = if (c2, c3) == (c0, c1) {
            [s0, s1, s0, s1]
        } else {
            [s0, s1, channel(c2)?, channel(c3)?]
        };
        let byte = |v: i32| (v as u8 as u32) * 0x0101_0101;
        Some(Requant4 {
            channels,
            offset: 1 + 2 * zero_point,
            lo: byte(lo),
            hi: byte(hi),
        })
    }
}

/// What [`arch::mac_2x2_run`] reads of one pair of output channels while
/// it runs over the pixel pairs of a 1×1 convolution, at fixed offsets.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct MatRun {
    /// `bias − zero_point · Σ w` for channels `c, c + 1, c, c + 1` (0)
    constant: [i32; 4],
    /// the output stage of the same four (16)
    requant: Requant4,
    /// the weights' first row, the output's next pair and its end, the
    /// channel count, the depth (60; filled in by the loop's wrapper)
    tail: [usize; 5],
}

/// One pair of output channels as [`arch::wide_run`] reads it, at fixed
/// offsets (the first 60 bytes of [`MatRun`]'s layout).
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct PairStage {
    /// `bias − zero_point · Σ w` for channels `c, c + 1, c, c + 1` (0)
    constant: [i32; 4],
    /// the output stage of the same four (16)
    requant: Requant4,
}

/// What [`arch::dw3x3_run`] reads of one channel group while it runs
/// along a row of interior pixels, at fixed offsets: the constants, the
/// widened 3×3 filter, the output stage, and the run's pointers and steps
/// (filled in by it).
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Run3 {
    /// `bias − zero_point · Σ w` per channel (offset 0)
    constant: [i32; 4],
    /// the filter's taps widened: bytes 0 and 2, then 1 and 3 (16)
    table: [u32; 18],
    /// the output stage (88)
    requant: Requant4,
    /// the output's next word and its end, the output's and the image's
    /// step from pixel to pixel (132)
    tail: [usize; 4],
}

/// The order in which [`depthwise`] runs its classes of pixels (row class,
/// column class: 0 all three taps inside, 1 all but the first, 2 all but
/// the last), grouped by the first tap inside (the filter's first, second,
/// fourth, fifth).
const CLASS_ORDER: [(usize, usize); 9] = [
    (0, 0),
    (0, 2),
    (2, 0),
    (2, 2),
    (0, 1),
    (2, 1),
    (1, 0),
    (1, 2),
    (1, 1),
];

/// TFLite's int8 depthwise convolution of depth multiplier 1 on one
/// image, four channels at a time (one word of the image and of the
/// filter). Channel group by channel group: the group's nine filter words
/// of a 3×3 filter widened once into halves, `bias − zero_point · Σ w`
/// per channel, then over the output pixels: a pixel whose 3×3 taps are
/// all inside the input is one `asm!` block ([`arch::dw3x3`], 8
/// instructions a tap: `LDR`, `LDRD` of the widened filter, two `SXTB16`,
/// `SMLABB` / `SMLATT` per channel); a border pixel (or another filter
/// size) adds the input offset (`SADD16`) tap by tap over the taps inside.
/// The output stage is [`Requant4`] where it applies. Each group's
/// set-up ([`depthwise_group`]) is read from `prepared` where it holds one
/// per group of 4 channels (a streamed layer's, made once per layer: its
/// band calls then cost their pixels alone), else made here. `None`, with `out`
/// untouched, unless the channels are a multiple of 4, the depth
/// multiplier is 1, the zero point an int8 and every length matches (the
/// caller's portable loop then runs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn depthwise<B: Values<i32> + ?Sized>(
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
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
    let offset = (-zero_point as u32 & 0xffff) * 0x0001_0001;
    let scale = |c: usize| {
        Scale::new(
            multipliers
                .get(if multipliers.len() == 1 { 0 } else { c })
                .copied()
                .unwrap_or(QuantizedMultiplier::ZERO),
        )
    };
    let three = dims.filter_height == 3 && dims.filter_width == 3;
    // the steps between taps in the image: a column, a row
    let column = params.dilation_width.checked_mul(depth)?;
    let row = params
        .dilation_height
        .checked_mul(dims.input_width)?
        .checked_mul(depth)?;
    // which taps of a 3×3 window are inside: all (class 0), all but the
    // first (1), all but the last (2); `None` for any other window
    let class = |w: Window| match (w.taps().next(), w.len()) {
        (Some((0, at)), 3) => Some((0, at)),
        (Some((1, at)), 2) => Some((1, at)),
        (Some((0, at)), 2) => Some((2, at)),
        _ => None,
    };
    // per axis and class, the output positions of that class (a range:
    // the windows move monotonically) and the input position of the first
    // tap inside at the range's start; `complete` if every position has a
    // class
    let spans = |n: usize, stride: usize, pad: usize, dilation: usize, size: usize| {
        let mut spans: [Option<(usize, usize, usize)>; 3] = [None; 3];
        // no classes but a 3×3 filter's: no runs, every pixel on the
        // general path
        if !three {
            return (spans, false, false);
        }
        let mut complete = true;
        for o in 0..n {
            match class(Window::new(o, stride, pad, dilation, 3, size)) {
                Some((k, at)) => match spans.get_mut(k) {
                    Some(Some(span)) if span.1 == o => span.1 = o + 1,
                    Some(span @ None) => *span = Some((o, o + 1, at)),
                    // not a range: no runs at all (never seen)
                    _ => return ([None; 3], false, false),
                },
                None => complete = false,
            }
        }
        (spans, complete, true)
    };
    let (row_spans, rows_complete, rows_ranges) = spans(
        dims.output_height,
        params.stride_height,
        params.pad_top,
        params.dilation_height,
        dims.input_height,
    );
    let (col_spans, cols_complete, cols_ranges) = spans(
        dims.output_width,
        params.stride_width,
        params.pad_left,
        params.dilation_width,
        dims.input_width,
    );
    // the image's and the output's steps from one output row to the next
    let image_rows = params
        .stride_height
        .checked_mul(dims.input_width)?
        .checked_mul(depth)?;
    let out_rows = dims.output_width.checked_mul(depth)?;
    // the image's step from one output column to the next
    let pixel_step = params.stride_width.checked_mul(depth)?;
    // the filter's step from one row of taps to the next
    let filter_row = dims.filter_width.checked_mul(depth)?;
    // the prepared groups, where there is one per group of 4 channels
    let prepared = prepared.filter(|p| p.len() == depth / 4);
    // the classes of pixels the DSP runs take (rows × columns with the same
    // taps inside), once per call: the classes whose first tap inside is
    // the filter's first (the table as it is), then those that start at
    // its second tap, its fourth and its fifth (CLASS_ORDER)
    let runs_apply = three && rows_ranges && cols_ranges;
    let mut classes: [Option<ClassRuns>; 9] = [None; 9];
    if runs_apply {
        for (slot, (rc, cc)) in classes.iter_mut().zip(CLASS_ORDER) {
            let (Some(Some((oy0, oy1, iy0))), Some(Some((ox0, ox1, ix0)))) =
                (row_spans.get(rc).copied(), col_spans.get(cc).copied())
            else {
                continue;
            };
            let (n_rows, n_cols) = (oy1 - oy0, ox1 - ox0);
            // runs along the class's longer side
            let (runs, pixels, (image_run, out_run), (image_pixel, out_pixel)) = if n_cols >= n_rows
            {
                (n_rows, n_cols, (image_rows, out_rows), (pixel_step, depth))
            } else {
                (n_cols, n_rows, (pixel_step, depth), (image_rows, out_rows))
            };
            *slot = Some(ClassRuns {
                rc,
                cc,
                tap: 3 * usize::from(rc == 1) + usize::from(cc == 1),
                runs,
                pixels,
                steps: [image_run, out_run, image_pixel, out_pixel],
                first: (iy0 * dims.input_width + ix0) * depth,
                at: (oy0 * dims.output_width + ox0) * depth,
            });
        }
    }
    for c in (0..depth).step_by(4) {
        // the group's set-up: prepared once per layer, or made here
        let made;
        let group = match prepared.and_then(|p| p.get(c / 4)) {
            Some(g) => g,
            None => {
                made = depthwise_group(filter, bias, dims, params, stage, c)?;
                &made
            }
        };
        let bias4 = group.bias;
        let table = &group.table;
        let constants = &group.constants;
        let requant = group.requant.map(Requant4::from_words);
        // whether the DSP runs compute this group's pixels of the classes
        let runs_done = runs_apply && requant.is_some();
        // the group's state once, then each class's runs (its geometry
        // made once per call, above), its table copied at most three times
        if let Some(requant) = requant.filter(|_| runs_apply) {
            let mut st = Run3 {
                constant: bias4,
                table: *table,
                requant,
                tail: [0; 4],
            };
            let mut first_tap = 0;
            for k in classes.iter().flatten() {
                if k.tap != first_tap {
                    let from = table.get(2 * k.tap..)?;
                    st.table.get_mut(..from.len())?.copy_from_slice(from);
                    first_tap = k.tap;
                }
                st.constant = *constants.get(k.rc)?.get(k.cc)?;
                class_runs(image, out, &mut st, k, c, column, row)?;
            }
        }
        if runs_done && rows_complete && cols_complete {
            continue;
        }
        for oy in 0..dims.output_height {
            let rows = Window::new(
                oy,
                params.stride_height,
                params.pad_top,
                params.dilation_height,
                dims.filter_height,
                dims.input_height,
            );
            let row_class = if three { class(rows) } else { None };
            let mut ox = 0;
            while ox < dims.output_width {
                let cols = Window::new(
                    ox,
                    params.stride_width,
                    params.pad_left,
                    params.dilation_width,
                    dims.filter_width,
                    dims.input_width,
                );
                let col_class = if three { class(cols) } else { None };
                if let (true, Some(_), Some(_)) = (runs_done, row_class, col_class) {
                    // done above
                    ox += 1;
                    continue;
                }
                let acc = match (row_class, col_class) {
                    (Some((rc, iy)), Some((cc, ix))) => {
                        let first = (iy * dims.input_width + ix) * depth + c;
                        let (nr, nc) = (3 - usize::from(rc > 0), 3 - usize::from(cc > 0));
                        let reach = (nr - 1) * row + (nc - 1) * column + 4;
                        let block = image.get(first..first.checked_add(reach)?)?;
                        let t =
                            table.get(2 * (3 * usize::from(rc == 1) + usize::from(cc == 1))..)?;
                        if t.len() < 2 * (3 * (nr - 1) + nc) {
                            return None;
                        }
                        let k = *constants.get(rc)?.get(cc)?;
                        match (nr, nc) {
                            (3, 3) => arch::dw3x3(block, t, column, row, k),
                            (2, 3) => arch::dw2x3(block, t, column, row, k),
                            (3, 2) => arch::dw3x2(block, t, column, row, k),
                            _ => arch::dw2x2(block, t, column, row, k),
                        }
                    }
                    _ => match (rows.taps().next(), cols.taps().next()) {
                        // the taps inside as runs along the window's longer
                        // side (the sum's order does not change its value)
                        (Some((ky, iy)), Some((kx, ix))) => {
                            let ((runs, x_run, f_run), (n, x_tap, f_tap)) =
                                if cols.len() >= rows.len() {
                                    ((rows.len(), row, filter_row), (cols.len(), column, depth))
                                } else {
                                    ((cols.len(), column, depth), (rows.len(), row, filter_row))
                                };
                            let mut xs = image.get((iy * dims.input_width + ix) * depth + c..)?;
                            let mut fs = filter.get((ky * dims.filter_width + kx) * depth + c..)?;
                            let mut acc = bias4;
                            for _ in 0..runs {
                                acc = tap_run(xs, x_tap, fs, f_tap, n, offset, acc)?;
                                xs = xs.get(x_run..).unwrap_or(&[]);
                                fs = fs.get(f_run..).unwrap_or(&[]);
                            }
                            acc
                        }
                        // no tap inside: the bias alone
                        _ => bias4,
                    },
                };
                let at = (oy * dims.output_width + ox) * depth + c;
                write4(
                    out.get_mut(at..at + 4)?,
                    acc,
                    requant.as_ref(),
                    stage,
                    &scale,
                    c,
                );
                ox += 1;
            }
        }
    }
    Some(())
}

/// The set-up of channels `c … c + 3` of [`depthwise`], the same for
/// every band of a layer: the bias; for a 3×3 filter, its nine words
/// widened (bytes 0, 2 and 1, 3 of each tap's word) and `bias −
/// zero_point · Σ w` per channel over the taps inside, for each pair of
/// row and column classes (else those constants are the bias and the table
/// 0); the output stage as [`Requant4`]'s words where it applies. `None`
/// where the filter or the multipliers do not hold the group's channels.
/// The one rule of [`crate::depthwise_prepare`] and of [`depthwise`]'s
/// calls without it.
pub(crate) fn depthwise_group<B: Values<i32> + ?Sized>(
    filter: &[i8],
    bias: Option<&B>,
    dims: &crate::DepthwiseConvDims,
    params: &crate::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    c: usize,
) -> Option<DepthwiseGroup> {
    let depth = dims.input_depth;
    let zero_point = params.input_zero_point;
    let bias_at = |c: usize| bias.and_then(|b| b.at(c)).unwrap_or(0);
    let word = |at: usize| -> Option<u32> {
        let b = filter.get(at..at.checked_add(4)?)?.first_chunk::<4>()?;
        Some(u32::from_le_bytes(b.map(|v| v as u8)))
    };
    let bias4 = [bias_at(c), bias_at(c + 1), bias_at(c + 2), bias_at(c + 3)];
    let mut table = [0u32; 18];
    let mut constants = [[bias4; 3]; 3];
    if dims.filter_height == 3 && dims.filter_width == 3 {
        // the filter's nine words, a tap each (a byte per channel)
        let mut words = [0u32; 9];
        for ((pair, w), t) in table.chunks_exact_mut(2).zip(&mut words).zip(0usize..) {
            let f = word(t.checked_mul(depth)?.checked_add(c)?)?;
            if let [even, odd] = pair {
                *even = widen(f);
                *odd = widen(f >> 8);
            }
            *w = f;
        }
        // channel by channel, Σ w over the taps inside: each row's
        // weights summed over the columns of each column class, then
        // those sums over the rows of each row class (at most 9 · 128
        // in size, so their product with the zero point is the sum of
        // the taps' products)
        let [t0, t1, t2, t3, t4, t5, t6, t7, t8] = words;
        for (j, shift) in [0, 8, 16, 24].iter().enumerate() {
            let w = |t: u32| i32::from((t >> shift) as u8 as i8);
            // per row, its sums over each column class
            let [a0, a1, a2] = class_sums([w(t0), w(t1), w(t2)]);
            let [b0, b1, b2] = class_sums([w(t3), w(t4), w(t5)]);
            let [c0, c1, c2] = class_sums([w(t6), w(t7), w(t8)]);
            // per column class, those sums over each row class
            let columns = [
                class_sums([a0, b0, c0]),
                class_sums([a1, b1, c1]),
                class_sums([a2, b2, c2]),
            ];
            for (cc, sums) in columns.iter().enumerate() {
                for (rs, sum) in constants.iter_mut().zip(sums) {
                    if let Some(k) = rs.get_mut(cc).and_then(|k| k.get_mut(j)) {
                        *k = k.wrapping_sub(zero_point.wrapping_mul(*sum));
                    }
                }
            }
        }
    }
    Some(DepthwiseGroup {
        bias: bias4,
        table,
        constants,
        requant: Requant4::new(params.multipliers, c, stage).map(|q| q.words()),
    })
}

/// One class of [`depthwise`]'s pixels (the same taps inside): its row
/// and column class, the filter's first tap inside, its runs along its
/// longer side and the pixels a run, the image's and the output's steps
/// from run to run and from pixel to pixel, and the image's and the
/// output's offsets of its first pixel (channel 0).
#[derive(Clone, Copy)]
struct ClassRuns {
    rc: usize,
    cc: usize,
    tap: usize,
    runs: usize,
    pixels: usize,
    steps: [usize; 4],
    first: usize,
    at: usize,
}

/// The runs of class `k` for channels `c … c + 3`, their table and
/// constants in `st`: [`arch::dw3x3_run`] or its border forms. `None` if a
/// run does not lie inside `image` and `out`.
#[inline(always)]
fn class_runs(
    image: &[i8],
    out: &mut [i8],
    st: &mut Run3,
    k: &ClassRuns,
    c: usize,
    column: usize,
    row: usize,
) -> Option<()> {
    let [image_run, out_run, image_pixel, out_pixel] = k.steps;
    let first = k.first.checked_add(c)?;
    let at = k.at.checked_add(c)?;
    for i in 0..k.runs {
        let image = image.get(first.checked_add(i.checked_mul(image_run)?)?..)?;
        let out = out.get_mut(at.checked_add(i.checked_mul(out_run)?)?..)?;
        let go = (image_pixel, k.pixels, out_pixel);
        let done = match (k.rc > 0, k.cc > 0) {
            (false, false) => arch::dw3x3_run(image, st, column, row, go.0, go.1, out, go.2),
            (true, false) => arch::dw2x3_run(image, st, column, row, go.0, go.1, out, go.2),
            (false, true) => arch::dw3x2_run(image, st, column, row, go.0, go.1, out, go.2),
            (true, true) => arch::dw2x2_run(image, st, column, row, go.0, go.1, out, go.2),
        };
        if !done {
            return None;
        }
    }
    Some(())
}

/// `acc` plus `(x + offset) · f` for channels `c … c + 3` of `n` taps of
/// [`depthwise`]'s general path ([`arch::mac_4_channels`] each): the image
/// words at the start of `xs` and every `x_step` bytes after it, the
/// filter words at the start of `fs` and every `f_step` bytes after it.
/// `None` if a word lies past the end of its slice.
#[inline(always)]
fn tap_run(
    mut xs: &[i8],
    x_step: usize,
    mut fs: &[i8],
    f_step: usize,
    n: usize,
    offset: u32,
    mut acc: [i32; 4],
) -> Option<[i32; 4]> {
    let word = |b: &[i8; 4]| u32::from_le_bytes(b.map(|v| v as u8));
    for _ in 0..n {
        let (x, f) = (xs.first_chunk::<4>()?, fs.first_chunk::<4>()?);
        acc = arch::mac_4_channels(acc, word(x), word(f), offset);
        xs = xs.get(x_step..).unwrap_or(&[]);
        fs = fs.get(f_step..).unwrap_or(&[]);
    }
    Some(acc)
}

/// The sums of three taps' weights along one axis of a 3×3 filter, for
/// each class of [`depthwise`]'s windows: all three taps inside (class 0),
/// all but the first (1), all but the last (2).
#[inline(always)]
fn class_sums([first, middle, last]: [i32; 3]) -> [i32; 3] {
    [first + middle + last, middle + last, first + middle]
}

/// The output stage of channels `c … c + 3` into the first four of `ys`:
/// [`Requant4`] where it applies, else [`OutputStage::apply`] channel by
/// channel.
#[inline(always)]
fn write4(
    ys: &mut [i8],
    acc: [i32; 4],
    requant: Option<&Requant4>,
    stage: &OutputStage,
    scale: &impl Fn(usize) -> Scale,
    c: usize,
) {
    if let Some(q) = requant {
        if let Some(ys) = ys.first_chunk_mut::<4>() {
            *ys = arch::requant4(acc, q).to_le_bytes().map(|b| b as i8);
        }
    } else {
        for (j, (y, a)) in ys.iter_mut().zip(acc).enumerate() {
            *y = stage.apply(a, scale(c + j));
        }
    }
}

/// `SXTB16`: bytes 0 and 2 of `v`, sign-extended into the two halves.
fn widen(v: u32) -> u32 {
    let half = |b: u32| u32::from((b as u8 as i8) as i16 as u16);
    half(v) | half(v >> 16) << 16
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
    use core::mem::MaybeUninit;

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

    /// Two im2col rows of `4 · words` bytes each widened into `wide`,
    /// four words per 4 columns: row 0's bytes 0 and 2, its bytes 1 and
    /// 3, then row 1's the same (the halves [`mac_2x2_wide`] multiplies
    /// with the weights' `SXTB16` halves). 10 instructions per 4 columns.
    #[inline(always)]
    pub(super) fn widen_rows<'a>(
        x0: &[i8],
        x1: &[i8],
        wide: &'a mut [MaybeUninit<u32>],
        words: usize,
    ) -> &'a [u32] {
        if words == 0 || x0.len() < 4 * words || x1.len() < 4 * words || wide.len() < 4 * words {
            return &[];
        }
        // SAFETY: checked above: `4 · words` bytes of each row are read and
        // `4 · words` words of `wide` (word-aligned, as STRD needs) are
        // written; unaligned LDR is allowed on the Cortex-M4.
        unsafe {
            asm!(
                "2:",
                "ldr {a}, [{x0}], #4",
                "ldr {b}, [{x1}], #4",
                "sxtb16 {c}, {a}",
                "sxtb16 {a}, {a}, ror #8",
                "sxtb16 {d}, {b}",
                "sxtb16 {b}, {b}, ror #8",
                "strd {c}, {a}, [{o}], #16",
                "strd {d}, {b}, [{o}, #-8]",
                "subs {n}, {n}, #1",
                "bne 2b",
                x0 = inout(reg) x0.as_ptr() => _,
                x1 = inout(reg) x1.as_ptr() => _,
                o = inout(reg) wide.as_mut_ptr() => _,
                n = inout(reg) words => _,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                d = out(reg) _,
                options(nostack),
            );
        }
        // SAFETY: the loop above wrote the first `4 · words` words of `wide`
        // (checked to hold them), which `MaybeUninit<u32>` lays out as `u32`s
        unsafe { core::slice::from_raw_parts(wide.as_ptr().cast::<u32>(), 4 * words) }
    }

    /// Four columns of the 2×2 block from the widened rows: 2 loads and 4
    /// widenings of the weights, 2 `LDRD`s of the rows' halves, 8
    /// `SMLAD`s: 16 instructions for 16 multiply-accumulates. `{x}` steps
    /// 16 bytes, `{w}` 4; the second weight row at `{skip}` = stride − 4.
    macro_rules! step_wide {
        () => {
            concat!(
                "ldr {d}, [{w}], #4\n",
                "ldr {f}, [{w}, {skip}]\n",
                "sxtb16 {c}, {d}\n",
                "sxtb16 {d}, {d}, ror #8\n",
                "sxtb16 {e}, {f}\n",
                "sxtb16 {f}, {f}, ror #8\n",
                "ldrd {a}, {b}, [{x}], #16\n",
                "smlad {a00}, {a}, {c}, {a00}\n",
                "smlad {a00}, {b}, {d}, {a00}\n",
                "smlad {a01}, {a}, {e}, {a01}\n",
                "smlad {a01}, {b}, {f}, {a01}\n",
                "ldrd {a}, {b}, [{x}, #-8]\n",
                "smlad {a10}, {a}, {c}, {a10}\n",
                "smlad {a10}, {b}, {d}, {a10}\n",
                "smlad {a11}, {a}, {e}, {a11}\n",
                "smlad {a11}, {b}, {f}, {a11}\n",
            )
        };
    }

    /// `words` words (4 columns each) of the 2×2 block: the two pixels'
    /// rows widened by [`widen_rows`] (`4 · words` words), times the two
    /// weight rows of `ws`, the second `stride` bytes after the first
    /// (`stride ≥ 4`). Thirteen registers, the loop's end on the stack as
    /// in [`mac_2x2`]. Nothing is read unless the slices hold all that.
    #[inline(always)]
    pub(super) fn mac_2x2_wide(
        wide: &[u32],
        ws: &[i8],
        stride: usize,
        words: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let w_need = stride.checked_add(4 * words);
        if words == 0 || stride < 4 || wide.len() < 4 * words || w_need.is_none_or(|n| ws.len() < n)
        {
            return acc;
        }
        let [mut a00, mut a01, mut a10, mut a11] = acc;
        let pairs = words / 2;
        let skip = stride - 4;
        let (mut x, mut w) = (wide.as_ptr(), ws.as_ptr());
        if pairs > 0 {
            let end = x.wrapping_add(8 * pairs);
            // SAFETY: checked above: `4 · words` words of `wide` (aligned,
            // as LDRD needs) and `4 · words` bytes of each weight row (row 1
            // at `stride`); the loop reads `8 · pairs <= 4 · words` words
            // and bytes of each. The stack is back where it was at the end.
            unsafe {
                asm!(
                    "push {{{e}}}",
                    "2:",
                    step_wide!(),
                    step_wide!(),
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
            // SAFETY: as above, the last word of each
            unsafe {
                asm!(
                    step_wide!(),
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

    /// One channel of [`mac_2x2_run`]'s output stage (the stage at 16 in
    /// the state `{e}`).
    macro_rules! mat_scale {
        ($a:literal, $at:literal) => {
            concat!(
                "ldrd {a}, {b}, [{e}, #",
                $at,
                "]\n",
                "smmlar {",
                $a,
                "}, {",
                $a,
                "}, {a}, {",
                $a,
                "}\n",
                "add {",
                $a,
                "}, {",
                $a,
                "}, {",
                $a,
                "}, asr #31\n",
                "asr {",
                $a,
                "}, {",
                $a,
                "}, {b}\n",
            )
        };
    }

    /// The last steps of one channel, `+ 1 + 2 · zero point` in `{a}`.
    macro_rules! mat_narrow {
        ($a:literal) => {
            concat!(
                "qadd {",
                $a,
                "}, {",
                $a,
                "}, {a}\n",
                "ssat {",
                $a,
                "}, #8, {",
                $a,
                "}, asr #1\n",
            )
        };
    }

    /// `pairs` pixel pairs of a 1×1 convolution (rows of `x`, `depth`
    /// bytes each) times the two weight rows of `w`, with the output
    /// stage, in one loop: per pair the constants, `depth / 8` steps of
    /// the 2×2 block (40 instructions for 32 multiply-accumulates), the
    /// stage of [`requant4`] and two halfword stores, pixel `2i`'s at
    /// `out[2i · channels]`, pixel `2i + 1`'s a row on. Thirteen
    /// registers: the state pointer and the inner loop's end go to the
    /// stack during the inner loop. `false` (nothing written) unless the
    /// depth is a non-zero multiple of 8 and the slices hold all that.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn mac_2x2_run(
        x: &[i8],
        w: &[i8],
        depth: usize,
        pairs: usize,
        state: &mut super::MatRun,
        out: &mut [i8],
        channels: usize,
    ) -> bool {
        let x_need = pairs.checked_mul(2).and_then(|v| v.checked_mul(depth));
        let w_need = depth.checked_mul(2);
        let out_need = pairs
            .checked_sub(1)
            .and_then(|v| v.checked_mul(2 * channels))
            .and_then(|v| v.checked_add(channels + 2));
        match (x_need, w_need, out_need) {
            (Some(xn), Some(wn), Some(on))
                if depth >= 8
                    && depth.is_multiple_of(8)
                    && xn <= x.len()
                    && wn <= w.len()
                    && on <= out.len()
                    && channels >= 2 => {}
            _ => return false,
        }
        let start = out.as_mut_ptr() as usize;
        state.tail = [
            w.as_ptr() as usize,
            start,
            start + pairs * 2 * channels,
            channels,
            depth,
        ];
        // SAFETY: checked above: each pair's two rows of `x` (`2 · depth`
        // bytes from its start) and the two rows of `w` are inside their
        // slices, the inner loop reading 8 bytes of each row a step until
        // row 0's end; the two halfwords of pair `i` are stored at
        // `2i · channels` and one row (`channels`) on, inside `out` up to
        // the last pair's. Unaligned LDR / STRH are allowed on the
        // Cortex-M4; the LDRDs read the word-aligned state. 8 bytes of
        // stack are used and given back.
        unsafe {
            asm!(
                "2:",
                "ldrd {a00}, {a01}, [{e}, #0]",
                "ldrd {a10}, {a11}, [{e}, #8]",
                "ldr {w}, [{e}, #60]",
                "ldr {a}, [{e}, #76]",
                "add {a}, {x}, {a}",
                "sub sp, sp, #8",
                "str {e}, [sp]",
                "str {a}, [sp, #4]",
                "3:",
                step_2x2!(),
                step_2x2!(),
                "ldr {a}, [sp, #4]",
                "cmp {x}, {a}",
                "bne 3b",
                "ldr {e}, [sp]",
                "add sp, sp, #8",
                "add {x}, {x}, {skip}",
                "add {x}, {x}, #4",
                mat_scale!("a00", "16"),
                mat_scale!("a01", "24"),
                mat_scale!("a10", "32"),
                mat_scale!("a11", "40"),
                "ldr {a}, [{e}, #48]",
                mat_narrow!("a00"),
                mat_narrow!("a01"),
                mat_narrow!("a10"),
                mat_narrow!("a11"),
                "bfi {a00}, {a01}, #8, #8",
                "bfi {a00}, {a10}, #16, #8",
                "bfi {a00}, {a11}, #24, #8",
                "ldrd {a}, {b}, [{e}, #52]",
                "ssub8 {a01}, {a00}, {a}",
                "sel {a00}, {a00}, {a}",
                "ssub8 {a01}, {a00}, {b}",
                "sel {a00}, {b}, {a00}",
                "ldrd {a}, {b}, [{e}, #64]",
                "ldr {c}, [{e}, #72]",
                "strh {a00}, [{a}]",
                "lsr {a00}, {a00}, #16",
                "strh {a00}, [{a}, {c}]",
                "add {a}, {a}, {c}, lsl #1",
                "str {a}, [{e}, #64]",
                "cmp {a}, {b}",
                "bne 2b",
                x = inout(reg) x.as_ptr() => _,
                w = out(reg) _,
                e = inout(reg) state as *mut super::MatRun => _,
                skip = in(reg) depth - 4,
                a00 = out(reg) _,
                a01 = out(reg) _,
                a10 = out(reg) _,
                a11 = out(reg) _,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                d = out(reg) _,
                f = out(reg) _,
            );
        }
        true
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

    /// One row's 4 columns for [`mac_4_rows`]: the weights' word at
    /// `{p}` (post-incremented, or at `{skip}` past it), widened, times
    /// the input's halves `{xl}` (bytes 0 and 2) and `{xh}` (1 and 3).
    macro_rules! row_4 {
        ($load:literal, $acc:literal) => {
            concat!(
                $load,
                "\n",
                "sxtb16 {u}, {t}\n",
                "sxtb16 {t}, {t}, ror #8\n",
                "smlad {",
                $acc,
                "}, {xl}, {u}, {",
                $acc,
                "}\n",
                "smlad {",
                $acc,
                "}, {xh}, {t}, {",
                $acc,
                "}\n",
            )
        };
    }

    /// 4 columns of the four rows: an `LDRD` of the input's halves, then
    /// per row a load, two widenings and two `SMLAD`s (21 instructions).
    macro_rules! step_4_rows {
        () => {
            concat!(
                "ldrd {xl}, {xh}, [{x}], #8\n",
                row_4!("ldr {t}, [{p0}], #4", "a0"),
                row_4!("ldr {t}, [{p0}, {skip}]", "a1"),
                row_4!("ldr {t}, [{p2}], #4", "a2"),
                row_4!("ldr {t}, [{p2}, {skip}]", "a3"),
            )
        };
    }

    /// The whole words of `x` widened into `halves`, two words per input
    /// word: bytes 0 and 2 plus `offset`, then bytes 1 and 3 plus `offset`,
    /// in 16-bit halves (`offset` in [−127, 128]: every sum fits). 7
    /// instructions per 4 inputs. Nothing if `halves` is shorter than
    /// `x.len() / 2`.
    #[inline(always)]
    pub(super) fn widen_offset(x: &[i8], halves: &mut [u32], offset: i32) {
        let words = x.len() / 4;
        if words == 0 || halves.len() < 2 * words {
            return;
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
    }

    /// `acc[r] += Σ` over the first `4 · words` columns of the input's
    /// `halves` ([`widen_offset`]) times row `r` of `rows` (row `r` at
    /// `r · stride`), for the four rows: 21 instructions per 4 columns
    /// (16 MACs), two blocks a loop. `acc` unchanged if a row or the
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
        // SAFETY: reads the `2 · words` words of `halves` (word-aligned
        // for LDRD) and `len` bytes of each row, all inside the slices as
        // checked above
        unsafe {
            asm!(
                "tst {n}, #1",
                "beq 3f",
                step_4_rows!(),
                "3:",
                "lsrs {n}, {n}, #1",
                "beq 4f",
                "2:",
                step_4_rows!(),
                step_4_rows!(),
                "subs {n}, {n}, #1",
                "bne 2b",
                "4:",
                x = inout(reg) halves.as_ptr() => _,
                p0 = inout(reg) rows.as_ptr() => _,
                p2 = inout(reg) p2.as_ptr() => _,
                n = inout(reg) words => _,
                skip = in(reg) stride.wrapping_sub(4),
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                xl = out(reg) _,
                xh = out(reg) _,
                t = out(reg) _,
                u = out(reg) _,
                options(readonly, nostack),
            );
        }
        [a0, a1, a2, a3]
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

    /// One tap of [`dw3x3`]: the image word at `$at`, the widened filter
    /// words at `$f` bytes into the table.
    macro_rules! tap {
        ($at:literal, $f:literal) => {
            concat!(
                "ldr {x}, ",
                $at,
                "\n",
                "ldrd {fe}, {fo}, [{t}, #",
                $f,
                "]\n",
                "sxtb16 {xo}, {x}, ror #8\n",
                "sxtb16 {x}, {x}\n",
                "smlabb {a0}, {x}, {fe}, {a0}\n",
                "smlatt {a2}, {x}, {fe}, {a2}\n",
                "smlabb {a1}, {xo}, {fo}, {a1}\n",
                "smlatt {a3}, {xo}, {fo}, {a3}\n",
            )
        };
    }

    /// Channels `c … c + 3` of one output pixel over 3 × 3 taps of a
    /// 3×3 filter: `acc[j] += Σ x_j · f_j`, the image's from `block[0]` (a
    /// column `column` bytes on, a row `row` on), the filter's from `table`
    /// (per tap of the 3×3, its word widened: bytes 0 and 2, then 1 and 3;
    /// from the block's first tap on). 74 instructions for 36
    /// multiply-accumulates, twelve registers.
    #[inline(always)]
    pub(super) fn dw3x3(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        // SAFETY: the wrapper checked that `block` holds 2 rows and
        // 2 columns past its start and a word, the farthest word read,
        // and that `table` holds the 18 words read (at most 18 · 4
        // bytes on, word-aligned as LDRD needs).
        unsafe {
            asm!(
                tap!("[{p}]", "0"),
                tap!("[{p}, {d}]", "8"),
                tap!("[{p}, {d}, lsl #1]", "16"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "24"),
                tap!("[{p}, {d}]", "32"),
                tap!("[{p}, {d}, lsl #1]", "40"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "48"),
                tap!("[{p}, {d}]", "56"),
                tap!("[{p}, {d}, lsl #1]", "64"),
                p = inout(reg) block.as_ptr() => _,
                t = in(reg) table.as_ptr(),
                d = in(reg) column,
                r = in(reg) row,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                x = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
        [a0, a1, a2, a3]
    }

    /// Channels `c … c + 3` of one output pixel over 2 × 3 taps of a
    /// 3×3 filter: `acc[j] += Σ x_j · f_j`, the image's from `block[0]` (a
    /// column `column` bytes on, a row `row` on), the filter's from `table`
    /// (per tap of the 3×3, its word widened: bytes 0 and 2, then 1 and 3;
    /// from the block's first tap on). 49 instructions for 24
    /// multiply-accumulates, twelve registers.
    #[inline(always)]
    pub(super) fn dw2x3(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        // SAFETY: the wrapper checked that `block` holds 1 rows and
        // 2 columns past its start and a word, the farthest word read,
        // and that `table` holds the 12 words read (at most 18 · 4
        // bytes on, word-aligned as LDRD needs).
        unsafe {
            asm!(
                tap!("[{p}]", "0"),
                tap!("[{p}, {d}]", "8"),
                tap!("[{p}, {d}, lsl #1]", "16"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "24"),
                tap!("[{p}, {d}]", "32"),
                tap!("[{p}, {d}, lsl #1]", "40"),
                p = inout(reg) block.as_ptr() => _,
                t = in(reg) table.as_ptr(),
                d = in(reg) column,
                r = in(reg) row,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                x = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
        [a0, a1, a2, a3]
    }

    /// Channels `c … c + 3` of one output pixel over 3 × 2 taps of a
    /// 3×3 filter: `acc[j] += Σ x_j · f_j`, the image's from `block[0]` (a
    /// column `column` bytes on, a row `row` on), the filter's from `table`
    /// (per tap of the 3×3, its word widened: bytes 0 and 2, then 1 and 3;
    /// from the block's first tap on). 50 instructions for 24
    /// multiply-accumulates, twelve registers.
    #[inline(always)]
    pub(super) fn dw3x2(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        // SAFETY: the wrapper checked that `block` holds 2 rows and
        // 1 columns past its start and a word, the farthest word read,
        // and that `table` holds the 16 words read (at most 18 · 4
        // bytes on, word-aligned as LDRD needs).
        unsafe {
            asm!(
                tap!("[{p}]", "0"),
                tap!("[{p}, {d}]", "8"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "24"),
                tap!("[{p}, {d}]", "32"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "48"),
                tap!("[{p}, {d}]", "56"),
                p = inout(reg) block.as_ptr() => _,
                t = in(reg) table.as_ptr(),
                d = in(reg) column,
                r = in(reg) row,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                x = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
        [a0, a1, a2, a3]
    }

    /// Channels `c … c + 3` of one output pixel over 2 × 2 taps of a
    /// 3×3 filter: `acc[j] += Σ x_j · f_j`, the image's from `block[0]` (a
    /// column `column` bytes on, a row `row` on), the filter's from `table`
    /// (per tap of the 3×3, its word widened: bytes 0 and 2, then 1 and 3;
    /// from the block's first tap on). 33 instructions for 16
    /// multiply-accumulates, twelve registers.
    #[inline(always)]
    pub(super) fn dw2x2(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        // SAFETY: the wrapper checked that `block` holds 1 rows and
        // 1 columns past its start and a word, the farthest word read,
        // and that `table` holds the 10 words read (at most 18 · 4
        // bytes on, word-aligned as LDRD needs).
        unsafe {
            asm!(
                tap!("[{p}]", "0"),
                tap!("[{p}, {d}]", "8"),
                "add {p}, {p}, {r}",
                tap!("[{p}]", "24"),
                tap!("[{p}, {d}]", "32"),
                p = inout(reg) block.as_ptr() => _,
                t = in(reg) table.as_ptr(),
                d = in(reg) column,
                r = in(reg) row,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                x = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
        [a0, a1, a2, a3]
    }

    /// The clamp of [`dw3x3_run`]'s loop to `[lo, hi]` in each byte
    /// (`clamp`), or none (`full`: the range is int8's, which `SSAT` gave).
    macro_rules! run_clamp {
        (clamp) => {
            concat!(
                "ldrd {fe}, {fo}, [{s}, #124]\n",
                "ssub8 {a1}, {a0}, {fe}\n",
                "sel {a0}, {a0}, {fe}\n",
                "ssub8 {a1}, {a0}, {fo}\n",
                "sel {a0}, {fo}, {a0}\n",
            )
        };
        (full) => {
            "@ no clamp"
        };
    }

    /// The loop of [`dw3x3_run`] and its border forms over the pixels of a
    /// run: the constants, the taps (`$taps!()`), the output stage, the
    /// clamp (`run_clamp!($clamp)`), the store and the steps. In an
    /// `unsafe` block whose wrapper checked what it reads and writes.
    macro_rules! run_loop {
        ($taps:ident, $clamp:ident, $image:expr, $state:expr, $column:expr, $row:expr) => {
            asm!(
                "2:",
                "ldrd {a0}, {a1}, [{s}, #0]",
                "ldrd {a2}, {a3}, [{s}, #8]",
                $taps!(),
                run_scale!("a0", "88"),
                run_scale!("a1", "96"),
                run_scale!("a2", "104"),
                run_scale!("a3", "112"),
                "ldr {fe}, [{s}, #120]",
                run_narrow!("a0"),
                run_narrow!("a1"),
                run_narrow!("a2"),
                run_narrow!("a3"),
                "bfi {a0}, {a1}, #8, #8",
                "bfi {a0}, {a2}, #16, #8",
                "bfi {a0}, {a3}, #24, #8",
                run_clamp!($clamp),
                "ldrd {fe}, {fo}, [{s}, #132]",
                "str {a0}, [{fe}]",
                "ldrd {x}, {xo}, [{s}, #140]",
                "add {fe}, {fe}, {x}",
                "str {fe}, [{s}, #132]",
                "add {p}, {p}, {xo}",
                "cmp {fe}, {fo}",
                "bne 2b",
                p = inout(reg) $image.as_ptr() => _,
                s = in(reg) $state as *mut super::Run3,
                d = in(reg) $column,
                r = in(reg) $row,
                a0 = out(reg) _,
                a1 = out(reg) _,
                a2 = out(reg) _,
                a3 = out(reg) _,
                x = out(reg) _,
                xo = out(reg) _,
                fe = out(reg) _,
                fo = out(reg) _,
                options(nostack),
            )
        };
    }

    /// One tap of [`dw3x3_run`]: the image word at `$at`, the widened
    /// filter words at `$f` bytes into the state.
    macro_rules! run_tap {
        ($at:literal, $f:literal) => {
            concat!(
                "ldr {x}, ",
                $at,
                "\n",
                "ldrd {fe}, {fo}, [{s}, #",
                $f,
                "]\n",
                "sxtb16 {xo}, {x}, ror #8\n",
                "sxtb16 {x}, {x}\n",
                "smlabb {a0}, {x}, {fe}, {a0}\n",
                "smlatt {a2}, {x}, {fe}, {a2}\n",
                "smlabb {a1}, {xo}, {fo}, {a1}\n",
                "smlatt {a3}, {xo}, {fo}, {a3}\n",
            )
        };
    }

    /// The taps of [`dw3x3_run`]'s loop.
    macro_rules! dw3x3_taps {
        () => {
            concat!(
                run_tap!("[{p}]", "16"),
                run_tap!("[{p}, {d}]", "24"),
                run_tap!("[{p}, {d}, lsl #1]", "32"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "40"),
                run_tap!("[{p}, {d}]", "48"),
                run_tap!("[{p}, {d}, lsl #1]", "56"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "64"),
                run_tap!("[{p}, {d}]", "72"),
                run_tap!("[{p}, {d}, lsl #1]", "80"),
            )
        };
    }

    /// The taps of [`dw2x3_run`]'s loop.
    macro_rules! dw2x3_taps {
        () => {
            concat!(
                run_tap!("[{p}]", "16"),
                run_tap!("[{p}, {d}]", "24"),
                run_tap!("[{p}, {d}, lsl #1]", "32"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "40"),
                run_tap!("[{p}, {d}]", "48"),
                run_tap!("[{p}, {d}, lsl #1]", "56"),
            )
        };
    }

    /// The taps of [`dw3x2_run`]'s loop.
    macro_rules! dw3x2_taps {
        () => {
            concat!(
                run_tap!("[{p}]", "16"),
                run_tap!("[{p}, {d}]", "24"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "40"),
                run_tap!("[{p}, {d}]", "48"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "64"),
                run_tap!("[{p}, {d}]", "72"),
            )
        };
    }

    /// The taps of [`dw2x2_run`]'s loop.
    macro_rules! dw2x2_taps {
        () => {
            concat!(
                run_tap!("[{p}]", "16"),
                run_tap!("[{p}, {d}]", "24"),
                "add {p}, {p}, {r}\n",
                run_tap!("[{p}]", "40"),
                run_tap!("[{p}, {d}]", "48"),
            )
        };
    }

    /// One channel of [`dw3x3_run`]'s output stage: the doubling high
    /// product and the shift by `r − 1`, the stage at 88 in the state.
    macro_rules! run_scale {
        ($a:literal, $at:literal) => {
            concat!(
                "ldrd {fe}, {fo}, [{s}, #",
                $at,
                "]\n",
                "smmlar {",
                $a,
                "}, {",
                $a,
                "}, {fe}, {",
                $a,
                "}\n",
                "add {",
                $a,
                "}, {",
                $a,
                "}, {",
                $a,
                "}, asr #31\n",
                "asr {",
                $a,
                "}, {",
                $a,
                "}, {fo}\n",
            )
        };
    }

    /// The last steps of one channel: `+ 1 + 2 · zero point` (in `{fe}`),
    /// `>> 1`, saturated to int8.
    macro_rules! run_narrow {
        ($a:literal) => {
            concat!(
                "qadd {",
                $a,
                "}, {",
                $a,
                "}, {fe}\n",
                "ssat {",
                $a,
                "}, #8, {",
                $a,
                "}, asr #1\n",
            )
        };
    }

    /// Channels `c … c + 3` of `pixels` interior pixels of one output row,
    /// 3×3 taps each, in one loop: per pixel the constants, the nine taps
    /// ([`dw3x3`]'s), [`requant4`]'s output stage and one word stored,
    /// 120 instructions for 36 multiply-accumulates. The image's first
    /// tap of pixel `i` at `image[i · pixel_step]`, its output at
    /// `out[i · out_step]`. `false` (nothing written) if a slice is too
    /// short for that.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn dw3x3_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        let Some(last) = pixels.checked_sub(1) else {
            return false;
        };
        let reach = row
            .checked_mul(2)
            .and_then(|r| r.checked_add(column.checked_mul(2)?))
            .and_then(|r| r.checked_add(4));
        let image_need = last
            .checked_mul(pixel_step)
            .and_then(|v| v.checked_add(reach?));
        let out_need = last.checked_mul(out_step).and_then(|v| v.checked_add(4));
        match (image_need, out_need) {
            (Some(i), Some(o)) if i <= image.len() && o <= out.len() => {}
            _ => return false,
        }
        let start = out.as_mut_ptr() as usize;
        state.tail = [
            start,
            start + pixels * out_step,
            out_step,
            pixel_step.wrapping_sub(2 * row),
        ];
        let clamps = state.requant.clamps();
        // SAFETY: checked above: every pixel's nine words are inside
        // `image` (the farthest `2 · row + 2 · column` past its first, the
        // last pixel's first at `last · pixel_step`) and every word stored
        // inside `out` (the last at `last · out_step`); unaligned words are
        // allowed on the Cortex-M4 (LDR, STR; the LDRDs read the state,
        // which is word-aligned). The loop ends when the output pointer
        // reaches `start + pixels · out_step`, after `pixels` stores. The
        // state is read, and its output pointer written, through `state`;
        // the clamp's two words only where it is not the int8 range itself
        // (a no-op after `SSAT`).
        unsafe {
            if clamps {
                run_loop!(dw3x3_taps, clamp, image, state, column, row)
            } else {
                run_loop!(dw3x3_taps, full, image, state, column, row)
            }
        }
        true
    }

    /// [`dw3x3_run`] over 2 × 3 taps of the filter (a border's: the
    /// state's table starts at the first tap inside),: per pixel the constants, the nine taps
    /// ([`dw3x3`]'s), [`requant4`]'s output stage and one word stored,
    /// 120 instructions for 36 multiply-accumulates. The image's first
    /// tap of pixel `i` at `image[i · pixel_step]`, its output at
    /// `out[i · out_step]`. `false` (nothing written) if a slice is too
    /// short for that.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn dw2x3_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        let Some(last) = pixels.checked_sub(1) else {
            return false;
        };
        let reach = row
            .checked_mul(1)
            .and_then(|r| r.checked_add(column.checked_mul(2)?))
            .and_then(|r| r.checked_add(4));
        let image_need = last
            .checked_mul(pixel_step)
            .and_then(|v| v.checked_add(reach?));
        let out_need = last.checked_mul(out_step).and_then(|v| v.checked_add(4));
        match (image_need, out_need) {
            (Some(i), Some(o)) if i <= image.len() && o <= out.len() => {}
            _ => return false,
        }
        let start = out.as_mut_ptr() as usize;
        state.tail = [
            start,
            start + pixels * out_step,
            out_step,
            pixel_step.wrapping_sub(1 * row),
        ];
        let clamps = state.requant.clamps();
        // SAFETY: checked above: every pixel's nine words are inside
        // `image` (the farthest `2 · row + 2 · column` past its first, the
        // last pixel's first at `last · pixel_step`) and every word stored
        // inside `out` (the last at `last · out_step`); unaligned words are
        // allowed on the Cortex-M4 (LDR, STR; the LDRDs read the state,
        // which is word-aligned). The loop ends when the output pointer
        // reaches `start + pixels · out_step`, after `pixels` stores. The
        // state is read, and its output pointer written, through `state`;
        // the clamp's two words only where it is not the int8 range itself
        // (a no-op after `SSAT`).
        unsafe {
            if clamps {
                run_loop!(dw2x3_taps, clamp, image, state, column, row)
            } else {
                run_loop!(dw2x3_taps, full, image, state, column, row)
            }
        }
        true
    }

    /// [`dw3x3_run`] over 3 × 2 taps of the filter (a border's: the
    /// state's table starts at the first tap inside),: per pixel the constants, the nine taps
    /// ([`dw3x3`]'s), [`requant4`]'s output stage and one word stored,
    /// 120 instructions for 36 multiply-accumulates. The image's first
    /// tap of pixel `i` at `image[i · pixel_step]`, its output at
    /// `out[i · out_step]`. `false` (nothing written) if a slice is too
    /// short for that.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn dw3x2_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        let Some(last) = pixels.checked_sub(1) else {
            return false;
        };
        let reach = row
            .checked_mul(2)
            .and_then(|r| r.checked_add(column.checked_mul(1)?))
            .and_then(|r| r.checked_add(4));
        let image_need = last
            .checked_mul(pixel_step)
            .and_then(|v| v.checked_add(reach?));
        let out_need = last.checked_mul(out_step).and_then(|v| v.checked_add(4));
        match (image_need, out_need) {
            (Some(i), Some(o)) if i <= image.len() && o <= out.len() => {}
            _ => return false,
        }
        let start = out.as_mut_ptr() as usize;
        state.tail = [
            start,
            start + pixels * out_step,
            out_step,
            pixel_step.wrapping_sub(2 * row),
        ];
        let clamps = state.requant.clamps();
        // SAFETY: checked above: every pixel's nine words are inside
        // `image` (the farthest `2 · row + 2 · column` past its first, the
        // last pixel's first at `last · pixel_step`) and every word stored
        // inside `out` (the last at `last · out_step`); unaligned words are
        // allowed on the Cortex-M4 (LDR, STR; the LDRDs read the state,
        // which is word-aligned). The loop ends when the output pointer
        // reaches `start + pixels · out_step`, after `pixels` stores. The
        // state is read, and its output pointer written, through `state`;
        // the clamp's two words only where it is not the int8 range itself
        // (a no-op after `SSAT`).
        unsafe {
            if clamps {
                run_loop!(dw3x2_taps, clamp, image, state, column, row)
            } else {
                run_loop!(dw3x2_taps, full, image, state, column, row)
            }
        }
        true
    }

    /// [`dw3x3_run`] over 2 × 2 taps of the filter (a border's: the
    /// state's table starts at the first tap inside),: per pixel the constants, the nine taps
    /// ([`dw3x3`]'s), [`requant4`]'s output stage and one word stored,
    /// 120 instructions for 36 multiply-accumulates. The image's first
    /// tap of pixel `i` at `image[i · pixel_step]`, its output at
    /// `out[i · out_step]`. `false` (nothing written) if a slice is too
    /// short for that.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn dw2x2_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        let Some(last) = pixels.checked_sub(1) else {
            return false;
        };
        let reach = row
            .checked_mul(1)
            .and_then(|r| r.checked_add(column.checked_mul(1)?))
            .and_then(|r| r.checked_add(4));
        let image_need = last
            .checked_mul(pixel_step)
            .and_then(|v| v.checked_add(reach?));
        let out_need = last.checked_mul(out_step).and_then(|v| v.checked_add(4));
        match (image_need, out_need) {
            (Some(i), Some(o)) if i <= image.len() && o <= out.len() => {}
            _ => return false,
        }
        let start = out.as_mut_ptr() as usize;
        state.tail = [
            start,
            start + pixels * out_step,
            out_step,
            pixel_step.wrapping_sub(1 * row),
        ];
        let clamps = state.requant.clamps();
        // SAFETY: checked above: every pixel's nine words are inside
        // `image` (the farthest `2 · row + 2 · column` past its first, the
        // last pixel's first at `last · pixel_step`) and every word stored
        // inside `out` (the last at `last · out_step`); unaligned words are
        // allowed on the Cortex-M4 (LDR, STR; the LDRDs read the state,
        // which is word-aligned). The loop ends when the output pointer
        // reaches `start + pixels · out_step`, after `pixels` stores. The
        // state is read, and its output pointer written, through `state`;
        // the clamp's two words only where it is not the int8 range itself
        // (a no-op after `SSAT`).
        unsafe {
            if clamps {
                run_loop!(dw2x2_taps, clamp, image, state, column, row)
            } else {
                run_loop!(dw2x2_taps, full, image, state, column, row)
            }
        }
        true
    }

    /// One channel of [`requant4`]: the doubling high product and the
    /// shift by `r − 1`.
    macro_rules! scale {
        ($a:literal, $at:literal) => {
            concat!(
                "ldrd {m}, {r}, [{q}, #",
                $at,
                "]\n",
                "smmlar {",
                $a,
                "}, {",
                $a,
                "}, {m}, {",
                $a,
                "}\n",
                "add {",
                $a,
                "}, {",
                $a,
                "}, {",
                $a,
                "}, asr #31\n",
                "asr {",
                $a,
                "}, {",
                $a,
                "}, {r}\n",
            )
        };
    }

    /// The last steps of one channel: `+ 1 + 2 · zero point`, `>> 1`,
    /// saturated to int8.
    macro_rules! narrow {
        ($a:literal) => {
            concat!(
                "qadd {",
                $a,
                "}, {",
                $a,
                "}, {m}\n",
                "ssat {",
                $a,
                "}, #8, {",
                $a,
                "}, asr #1\n",
            )
        };
    }

    /// Every channel pair of `stages` (rows of `w`, `4 · words` bytes
    /// each, two per pair) times the two pixels' rows widened in `wide`
    /// ([`widen_rows`]), with the output stage, in one loop: per pair the
    /// constants, `words / 2` double steps of [`mac_2x2_wide`]'s block
    /// (35 instructions for 32 multiply-accumulates; an odd `words`
    /// enters the loop at its second step), the stage of [`requant4`] and
    /// two halfword stores, pixel 0's at `out[at + 2j]`, pixel 1's at
    /// `out[second + 2j]` (without a second pixel, over pixel 0's: the
    /// callers then pass pixel 0's row twice). Thirteen registers; the
    /// loop's pointers on 24 bytes of stack. `false` (nothing written)
    /// unless `words` is non-zero and the slices hold all that.
    #[inline(always)]
    pub(super) fn wide_run(
        wide: &[u32],
        words: usize,
        w: &[i8],
        stages: &[super::PairStage],
        out: &mut [i8],
        at: usize,
        second: Option<usize>,
    ) -> bool {
        let n = stages.len();
        let k = 4 * words;
        let fits = |start: usize| start.checked_add(2 * n).is_some_and(|e| e <= out.len());
        if n == 0
            || words == 0
            || wide.len() < 4 * words
            || w.len() < 2 * k * n
            || !fits(at)
            || second.is_some_and(|s| !fits(s))
        {
            return false;
        }
        // without a second pixel its row is the first's (the callers copy
        // it): its outputs are the first's, written over them
        let base = out.as_mut_ptr();
        let out0 = base.wrapping_add(at);
        let out1 = base.wrapping_add(second.unwrap_or(at));
        let x = wide.as_ptr();
        let frame: [usize; 6] = [
            x.wrapping_add(4 * words) as usize,
            0,
            out0 as usize,
            out1 as usize,
            stages.as_ptr().wrapping_add(n) as usize,
            x as usize,
        ];
        // SAFETY: checked above: each pair's two weight rows (`2k` bytes
        // from its start, the pairs one after another) are inside `w`, the
        // `4 · words` words of `wide` (word-aligned, as LDRD needs) inside
        // it, and the `2n` bytes written from `out0` and from `out1` are
        // inside `out`. The stages are read at
        // their repr(C) offsets, word-aligned. The frame is copied to 24
        // bytes of stack and the stack pointer restored at the end.
        unsafe {
            asm!(
                "sub sp, sp, #24",
                "ldrd {a}, {b}, [{x}, #0]",
                "strd {a}, {b}, [sp, #0]",
                "ldrd {a}, {b}, [{x}, #8]",
                "strd {a}, {b}, [sp, #8]",
                "ldrd {a}, {b}, [{x}, #16]",
                "strd {a}, {b}, [sp, #16]",
                "2:",
                "ldrd {a00}, {a01}, [{e}, #0]",
                "ldrd {a10}, {a11}, [{e}, #8]",
                "ldr {x}, [sp, #20]",
                "str {e}, [sp, #4]",
                // an odd word count (`skip` = 4 · words − 4 without bit 2)
                // enters at the second step
                "tst {skip}, #4",
                "beq 4f",
                "3:",
                step_wide!(),
                "4:",
                step_wide!(),
                "ldr {a}, [sp]",
                "cmp {x}, {a}",
                "bne 3b",
                "ldr {e}, [sp, #4]",
                "add {w}, {w}, {skip}",
                "add {w}, {w}, #4",
                mat_scale!("a00", "16"),
                mat_scale!("a01", "24"),
                mat_scale!("a10", "32"),
                mat_scale!("a11", "40"),
                "ldr {a}, [{e}, #48]",
                mat_narrow!("a00"),
                mat_narrow!("a01"),
                mat_narrow!("a10"),
                mat_narrow!("a11"),
                "bfi {a00}, {a01}, #8, #8",
                "bfi {a00}, {a10}, #16, #8",
                "bfi {a00}, {a11}, #24, #8",
                "ldrd {a}, {b}, [{e}, #52]",
                "ssub8 {a01}, {a00}, {a}",
                "sel {a00}, {a00}, {a}",
                "ssub8 {a01}, {a00}, {b}",
                "sel {a00}, {b}, {a00}",
                "ldrd {a}, {b}, [sp, #8]",
                "strh {a00}, [{a}], #2",
                "lsr {a00}, {a00}, #16",
                "strh {a00}, [{b}], #2",
                "strd {a}, {b}, [sp, #8]",
                "add {e}, {e}, #60",
                "ldr {a}, [sp, #16]",
                "cmp {e}, {a}",
                "bne 2b",
                "add sp, sp, #24",
                x = inout(reg) frame.as_ptr() => _,
                w = inout(reg) w.as_ptr() => _,
                e = inout(reg) stages.as_ptr() => _,
                skip = in(reg) k - 4,
                a00 = out(reg) _,
                a01 = out(reg) _,
                a10 = out(reg) _,
                a11 = out(reg) _,
                a = out(reg) _,
                b = out(reg) _,
                c = out(reg) _,
                d = out(reg) _,
                f = out(reg) _,
            );
        }
        true
    }

    /// `Σ` of the first `4 · words` bytes of `row` (0 if it is shorter):
    /// per word a load, two `SXTB16`s, `SADD16` and `SMLAD` by 1.
    #[inline(always)]
    pub(super) fn sum_words(row: &[i8], words: usize) -> i32 {
        let mut acc = 0i32;
        if words == 0 || row.len() < 4 * words {
            return 0;
        }
        // SAFETY: reads the `4 · words` bytes of `row` checked above
        // (unaligned LDR is allowed on the Cortex-M4)
        unsafe {
            asm!(
                "2:",
                "ldr {a}, [{p}], #4",
                "sxtb16 {b}, {a}",
                "sxtb16 {a}, {a}, ror #8",
                "sadd16 {a}, {a}, {b}",
                "smlad {acc}, {a}, {one}, {acc}",
                "subs {n}, {n}, #1",
                "bne 2b",
                p = inout(reg) row.as_ptr() => _,
                n = inout(reg) words => _,
                acc = inout(reg) acc,
                one = in(reg) 0x0001_0001u32,
                a = out(reg) _,
                b = out(reg) _,
                options(readonly, nostack),
            );
        }
        acc
    }

    /// [`super::Requant4`] of four accumulators: the four int8 outputs in
    /// one word, channel `c` in byte 0. 37 instructions.
    #[inline(always)]
    pub(super) fn requant4(acc: [i32; 4], q: &super::Requant4) -> u32 {
        let [mut a0, a1, a2, a3] = acc;
        // SAFETY: reads the 11 words of `q` (repr(C), word-aligned)
        unsafe {
            asm!(
                scale!("a0", "0"),
                scale!("a1", "8"),
                scale!("a2", "16"),
                scale!("a3", "24"),
                "ldr {m}, [{q}, #32]",
                narrow!("a0"),
                narrow!("a1"),
                narrow!("a2"),
                narrow!("a3"),
                "bfi {a0}, {a1}, #8, #8",
                "bfi {a0}, {a2}, #16, #8",
                "bfi {a0}, {a3}, #24, #8",
                "ldrd {m}, {r}, [{q}, #36]",
                "ssub8 {a1}, {a0}, {m}",
                "sel {a0}, {a0}, {m}",
                "ssub8 {a1}, {a0}, {r}",
                "sel {a0}, {r}, {a0}",
                q = in(reg) q as *const super::Requant4,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1 => _,
                a2 = inout(reg) a2 => _,
                a3 = inout(reg) a3 => _,
                m = out(reg) _,
                r = out(reg) _,
                options(readonly, nostack),
            );
        }
        a0 as u32
    }
}

/// The same loops in plain Rust where there is no DSP extension: what the
/// unit tests run the blocked kernels with on the host.
#[cfg(not(shapecheck_dsp))]
mod arch {
    /// [`super::arch`]'s `widen_rows` in plain Rust: the same layout,
    /// the same checks (nothing written, an empty slice returned, if a
    /// row or `wide` is too short).
    pub(super) fn widen_rows<'a>(
        x0: &[i8],
        x1: &[i8],
        wide: &'a mut [core::mem::MaybeUninit<u32>],
        words: usize,
    ) -> &'a [u32] {
        if words == 0 || x0.len() < 4 * words || x1.len() < 4 * words || wide.len() < 4 * words {
            return &[];
        }
        let word = |r: &[i8]| {
            let b = |i: usize| u32::from(r.get(i).copied().unwrap_or(0) as u8);
            b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24
        };
        for ((g, a), b) in wide
            .chunks_exact_mut(4)
            .zip(x0.chunks_exact(4))
            .zip(x1.chunks_exact(4))
            .take(words)
        {
            let (a, b) = (word(a), word(b));
            let halves = [
                super::widen(a),
                super::widen(a >> 8),
                super::widen(b),
                super::widen(b >> 8),
            ];
            for (to, h) in g.iter_mut().zip(halves) {
                to.write(h);
            }
        }
        // SAFETY: the loop above wrote the first `4 · words` words of
        // `wide` (checked to hold them, as the rows their bytes), which
        // `MaybeUninit<u32>` lays out as `u32`s
        unsafe { core::slice::from_raw_parts(wide.as_ptr().cast::<u32>(), 4 * words) }
    }

    /// [`super::arch`]'s `wide_run` in plain Rust: [`mac_2x2_wide`] and
    /// [`requant4`] pair by pair, the same checks.
    pub(super) fn wide_run(
        wide: &[u32],
        words: usize,
        w: &[i8],
        stages: &[super::PairStage],
        out: &mut [i8],
        at: usize,
        second: Option<usize>,
    ) -> bool {
        let n = stages.len();
        let k = 4 * words;
        let fits = |start: usize| start.checked_add(2 * n).is_some_and(|e| e <= out.len());
        if n == 0
            || words == 0
            || wide.len() < 4 * words
            || w.len() < 2 * k * n
            || !fits(at)
            || second.is_some_and(|s| !fits(s))
        {
            return false;
        }
        for ((pair, ps), c) in w.chunks_exact(2 * k).zip(stages).zip((0..).step_by(2)) {
            let acc = mac_2x2_wide(wide, pair, k, words, ps.constant);
            let [b0, b1, b2, b3] = requant4(acc, &ps.requant).to_le_bytes();
            if let Some(o) = out.get_mut(at + c..at + c + 2) {
                o.copy_from_slice(&[b0 as i8, b1 as i8]);
            }
            if let Some(o) = second.and_then(|s| out.get_mut(s + c..s + c + 2)) {
                o.copy_from_slice(&[b2 as i8, b3 as i8]);
            }
        }
        true
    }

    /// [`super::arch`]'s `sum_words` in plain Rust.
    pub(super) fn sum_words(row: &[i8], words: usize) -> i32 {
        if row.len() < 4 * words {
            return 0;
        }
        row.iter()
            .take(4 * words)
            .fold(0i32, |s, &v| s.wrapping_add(i32::from(v)))
    }

    /// [`super::arch`]'s `mac_2x2_wide` in plain Rust.
    pub(super) fn mac_2x2_wide(
        wide: &[u32],
        ws: &[i8],
        stride: usize,
        words: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        // the widened rows back to bytes: halves (0, 2) and (1, 3)
        let mut rows = [[0i8; 4]; 2];
        let mut acc = acc;
        for (i, g) in wide.chunks_exact(4).take(words).enumerate() {
            for (r, row) in rows.iter_mut().enumerate() {
                let (lo, hi) = (
                    g.get(2 * r).copied().unwrap_or(0),
                    g.get(2 * r + 1).copied().unwrap_or(0),
                );
                *row = [lo as i8, hi as i8, (lo >> 16) as i8, (hi >> 16) as i8];
            }
            let w0 = ws.get(4 * i..4 * i + 4).unwrap_or(&[]);
            let w1 = ws.get(stride + 4 * i..stride + 4 * i + 4).unwrap_or(&[]);
            acc = super::portable::mac_2x2_rows(&rows[0], &rows[1], w0, w1, 0, acc);
        }
        acc
    }

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

    /// [`super::matmul`]'s loop over pixel pairs: [`mac_2x2`] and
    /// [`requant4`] pair by pair, as the DSP loop.
    pub(super) fn mac_2x2_run(
        x: &[i8],
        w: &[i8],
        depth: usize,
        pairs: usize,
        state: &mut super::MatRun,
        out: &mut [i8],
        channels: usize,
    ) -> bool {
        if depth < 8
            || !depth.is_multiple_of(8)
            || pairs == 0
            || x.len() < pairs * 2 * depth
            || w.len() < 2 * depth
            || out.len() < (pairs - 1) * 2 * channels + channels + 2
            || channels < 2
        {
            return false;
        }
        for (i, xs) in x.chunks_exact(2 * depth).take(pairs).enumerate() {
            let acc = mac_2x2(xs, w, depth, depth / 4, state.constant);
            let [b0, b1, b2, b3] = requant4(acc, &state.requant).to_le_bytes();
            let at = 2 * i * channels;
            for (o, b) in [
                (at, b0),
                (at + 1, b1),
                (at + channels, b2),
                (at + channels + 1, b3),
            ] {
                if let Some(y) = out.get_mut(o) {
                    *y = b as i8;
                }
            }
        }
        true
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

    /// [`super::arch`]'s `widen_offset` in plain Rust: the same layout.
    pub(super) fn widen_offset(x: &[i8], halves: &mut [u32], offset: i32) {
        let half = |v: i8| u32::from((i32::from(v) + offset) as i16 as u16);
        for (word, pair) in x.chunks_exact(4).zip(halves.chunks_exact_mut(2)) {
            if let ([b0, b1, b2, b3], [lo, hi]) = (word, pair) {
                *lo = half(*b0) | half(*b2) << 16;
                *hi = half(*b1) | half(*b3) << 16;
            }
        }
    }

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

    /// [`super::depthwise`]'s blocks of `rows` × `cols` taps of a 3×3
    /// filter: the `SMLABB` / `SMLATT` on the widened filter as the DSP
    /// form computes them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dw_block(
        block: &[i8],
        table: &[u32],
        rows: usize,
        cols: usize,
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        let mut acc = acc;
        for (t, pair) in table.chunks_exact(2).enumerate().take(3 * rows) {
            let (r, c) = (t / 3, t % 3);
            if c >= cols {
                continue;
            }
            let at = r * row + c * column;
            let x = block.get(at..at + 4).unwrap_or(&[0; 4]);
            let (even, odd) = (
                pair.first().copied().unwrap_or(0),
                pair.get(1).copied().unwrap_or(0),
            );
            for (j, (a, &x)) in acc.iter_mut().zip(x).enumerate() {
                let half = if j % 2 == 0 { even } else { odd } >> (16 * (j / 2));
                *a = a.wrapping_add(i32::from(x) * i32::from(half as u16 as i16));
            }
        }
        acc
    }

    /// [`dw_block`] of 3 × 3 taps.
    pub(super) fn dw3x3(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        dw_block(block, table, 3, 3, column, row, acc)
    }

    /// [`dw_block`] of 2 × 3 taps.
    pub(super) fn dw2x3(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        dw_block(block, table, 2, 3, column, row, acc)
    }

    /// [`dw_block`] of 3 × 2 taps.
    pub(super) fn dw3x2(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        dw_block(block, table, 3, 2, column, row, acc)
    }

    /// [`dw_block`] of 2 × 2 taps.
    pub(super) fn dw2x2(
        block: &[i8],
        table: &[u32],
        column: usize,
        row: usize,
        acc: [i32; 4],
    ) -> [i32; 4] {
        dw_block(block, table, 2, 2, column, row, acc)
    }

    /// [`super::depthwise`]'s runs of pixels over `rows` × `cols` taps:
    /// [`dw_block`] and [`requant4`] pixel by pixel, as the DSP loops.
    #[allow(clippy::too_many_arguments)]
    fn dw_run(
        image: &[i8],
        state: &mut super::Run3,
        (rows, cols): (usize, usize),
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        let reach = (rows - 1) * row + (cols - 1) * column + 4;
        if pixels == 0
            || image.len() < (pixels - 1) * pixel_step + reach
            || out.len() < (pixels - 1) * out_step + 4
        {
            return false;
        }
        for i in 0..pixels {
            let block = image.get(i * pixel_step..).unwrap_or(&[]);
            let acc = dw_block(block, &state.table, rows, cols, column, row, state.constant);
            let word = requant4(acc, &state.requant).to_le_bytes();
            if let Some(ys) = out.get_mut(i * out_step..i * out_step + 4) {
                for (y, b) in ys.iter_mut().zip(word) {
                    *y = b as i8;
                }
            }
        }
        true
    }

    /// [`dw_run`] over 3 × 3 taps.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dw3x3_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        dw_run(
            image,
            state,
            (3, 3),
            column,
            row,
            pixel_step,
            pixels,
            out,
            out_step,
        )
    }

    /// [`dw_run`] over 2 × 3 taps.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dw2x3_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        dw_run(
            image,
            state,
            (2, 3),
            column,
            row,
            pixel_step,
            pixels,
            out,
            out_step,
        )
    }

    /// [`dw_run`] over 3 × 2 taps.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dw3x2_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        dw_run(
            image,
            state,
            (3, 2),
            column,
            row,
            pixel_step,
            pixels,
            out,
            out_step,
        )
    }

    /// [`dw_run`] over 2 × 2 taps.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn dw2x2_run(
        image: &[i8],
        state: &mut super::Run3,
        column: usize,
        row: usize,
        pixel_step: usize,
        pixels: usize,
        out: &mut [i8],
        out_step: usize,
    ) -> bool {
        dw_run(
            image,
            state,
            (2, 2),
            column,
            row,
            pixel_step,
            pixels,
            out,
            out_step,
        )
    }

    /// [`super::Requant4`] as the DSP form computes it, step by step:
    /// `SMMLAR`, the shifts, `QADD`, `SSAT`, the bytes' clamp.
    pub(super) fn requant4(acc: [i32; 4], q: &super::Requant4) -> u32 {
        let mut word = 0u32;
        for (j, (a, [m2, r1])) in acc.into_iter().zip(q.channels).enumerate() {
            let a64 = i64::from(a);
            // SMMLAR: (a · 2^32 + a · m2 + 2^31) >> 32, wrapping to 32 bits
            let h = ((i128::from(a64) << 32) + i128::from(a64) * i128::from(m2) + (1 << 31)) >> 32;
            let h = h as i32;
            let v = h.wrapping_add(h >> 31);
            let s = v >> (r1 & 31);
            let y = (s.saturating_add(q.offset) >> 1).clamp(-128, 127);
            let lo = i32::from(q.lo as u8 as i8);
            let hi = i32::from(q.hi as u8 as i8);
            let y = y.max(lo).min(hi);
            word |= u32::from(y as u8) << (8 * j);
        }
        word
    }

    /// [`super::depthwise`]'s four channels of one tap.
    pub(super) fn mac_4_channels(acc: [i32; 4], x: u32, f: u32, offset: u32) -> [i32; 4] {
        let offset = i32::from(offset as u16 as i16);
        let mut acc = acc;
        for (j, a) in acc.iter_mut().enumerate() {
            let xj = i32::from((x >> (8 * j)) as u8 as i8) + offset;
            let fj = i32::from((f >> (8 * j)) as u8 as i8);
            *a = a.wrapping_add(xj * fj);
        }
        acc
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
        quantize_multiplier, Conv2dDims, Conv2dParams, FullyConnectedDims, FullyConnectedParams,
        Rounding,
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
        (
            1usize..7,
            prop_oneof![1usize..7, 60usize..70],
            prop_oneof![1usize..40, 32usize..90],
        )
            .prop_flat_map(|(rows, channels, depth)| {
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
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn requant4_is_the_output_stage(
            acc in prop_oneof![any::<[i32; 4]>(), proptest::array::uniform4(-70_000i32..70_000)],
            ms in proptest::array::uniform4(((1i32 << 30)..=i32::MAX, -31i32..=-1)),
            per_channel in any::<bool>(),
            (zp, lo, hi) in (-128i32..=127, -200i32..=127, -128i32..=200),
        ) {
            let ms: Vec<_> = ms.iter().map(|&(m, s)| QuantizedMultiplier::from_parts(m, s)).collect();
            let ms = if per_channel { &ms[..] } else { &ms[..1] };
            let stage = OutputStage::new(Rounding::Double, zp, lo, hi);
            let q = Requant4::new(ms, 0, &stage).unwrap();
            let got = arch::requant4(acc, &q).to_le_bytes();
            for j in 0..4 {
                let m = ms[if per_channel { j } else { 0 }];
                prop_assert_eq!(got[j] as i8, crate::reference::requantize(acc[j], m, Rounding::Double, zp, lo, hi), "channel {}", j);
            }
        }
    }

    proptest! {
        #[test]
        fn conv_im2col_is_the_reference_convolution(
            (h, w, depth, kh, kw, pairs) in (1usize..8, 1usize..8, prop_oneof![1usize..4, 4usize..40], 1usize..5, 1usize..5, prop_oneof![1usize..5, 30usize..40]),
            (sh, sw, dh, dw, pt, pl, oh, ow) in (1usize..3, 1usize..3, 1usize..3, 1usize..3, 0usize..3, 0usize..3, 1usize..7, 1usize..7),
            seed in any::<u64>(),
            (batches, zp, out_zp, lo, hi, per_channel, with_bias) in (1usize..3, -128i32..=127, -128i32..=127, -128i32..=0, 0i32..=127, any::<bool>(), any::<bool>()),
        ) {
            let c = 2 * pairs;
            let mut state = seed | 1;
            let mut next = move || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
            let image: Vec<i8> = (0..batches * h * w * depth).map(|_| next() as i8).collect();
            let filter: Vec<i8> = (0..c * kh * kw * depth).map(|_| next() as i8).collect();
            let bias: Vec<i32> = (0..c).map(|_| (next() % 200_001) as i32 - 100_000).collect();
            let multipliers: Vec<_> = (0..if per_channel { c } else { 1 })
                .map(|_| quantize_multiplier(1e-4 + (next() % 1000) as f64 * 4e-4).unwrap())
                .collect();
            let dims = Conv2dDims {
                batches, input_height: h, input_width: w, input_depth: depth,
                filter_height: kh, filter_width: kw,
                output_height: oh, output_width: ow, output_depth: c,
            };
            let params = Conv2dParams {
                stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
                pad_top: pt, pad_left: pl, input_zero_point: zp, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: lo, output_max: hi,
                rounding: Rounding::Double,
            };
            let bias = with_bias.then_some(&bias[..]);
            let mut want = std::vec![0i8; batches * oh * ow * c];
            crate::reference::conv_2d(&image, &filter, bias, dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; batches * oh * ow * c];
            let took = conv_im2col(&image, &filter, bias, &dims, &params, &stage, &mut got).is_some();
            prop_assert_eq!(took, kh * kw * depth <= IM2COL_MAX);
            if took {
                prop_assert_eq!(got, want);
            }
        }
    }

    proptest! {
        #[test]
        fn depthwise_as_conv_is_the_reference_depthwise_convolution(
            (h, w, m, kh, kw) in (1usize..8, 1usize..8, 1usize..10, 1usize..4, 1usize..4),
            (sh, sw, pt, pl, oh, ow) in (1usize..3, 1usize..3, 0usize..3, 0usize..3, 1usize..7, 1usize..7),
            seed in any::<u64>(),
            (zp, out_zp, per_channel) in (-128i32..=127, -128i32..=127, any::<bool>()),
        ) {
            let mut state = seed | 1;
            let mut next = move || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; state };
            let image: Vec<i8> = (0..h * w).map(|_| next() as i8).collect();
            let filter: Vec<i8> = (0..kh * kw * m).map(|_| next() as i8).collect();
            let bias: Vec<i32> = (0..m).map(|_| (next() % 200_001) as i32 - 100_000).collect();
            let multipliers: Vec<_> = (0..if per_channel { m } else { 1 })
                .map(|_| quantize_multiplier(1e-4 + (next() % 1000) as f64 * 4e-4).unwrap())
                .collect();
            let dims = crate::DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: 1,
                filter_height: kh, filter_width: kw, depth_multiplier: m,
                output_height: oh, output_width: ow,
            };
            let params = crate::DepthwiseConvParams {
                stride_height: sh, stride_width: sw, dilation_height: 1, dilation_width: 1,
                pad_top: pt, pad_left: pl, input_zero_point: zp, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: -128, output_max: 127,
                rounding: Rounding::Double,
            };
            let mut want = std::vec![0i8; oh * ow * m];
            crate::reference::depthwise_conv(&image, &filter, Some(&bias), dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, -128, 127);
            let mut got = std::vec![0i8; oh * ow * m];
            let took = depthwise_as_conv(&image, &filter, Some(&bias[..]), &dims, &params, &stage, &mut got).is_some();
            prop_assert_eq!(took, m % 2 == 0);
            if took {
                prop_assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn requant4_takes_only_what_it_computes() {
        let stage = OutputStage::new(Rounding::Double, 0, -128, 127);
        let m = |q, s| [QuantizedMultiplier::from_parts(q, s)];
        assert!(Requant4::new(&m(1 << 30, -1), 0, &stage).is_some());
        assert!(Requant4::new(&m(1 << 30, 0), 0, &stage).is_none());
        assert!(Requant4::new(&m((1 << 30) - 1, -3), 0, &stage).is_none());
        let single = OutputStage::new(Rounding::Single, 0, -128, 127);
        assert!(Requant4::new(&m(1 << 30, -1), 0, &single).is_none());
        let far = OutputStage::new(Rounding::Double, 200, -128, 127);
        assert!(Requant4::new(&m(1 << 30, -1), 0, &far).is_none());
    }

    proptest! {
        #[test]
        fn matmul_is_the_reference_1x1_convolution(
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
            crate::reference::conv_2d(&x, &w, bias.as_deref(), dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; rows * channels];
            prop_assert!(matmul(&x, &w, bias.as_deref(), depth, zp, &multipliers, &stage, &mut got).is_some());
            prop_assert_eq!(got, want);
        }

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

        #[test]
        fn depthwise_is_the_reference_depthwise_convolution(
            (h, w, groups, kh, kw) in (1usize..9, 1usize..9, 1usize..4, prop_oneof![Just(3usize), 1usize..7], prop_oneof![Just(3usize), 1usize..7]),
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
            crate::reference::depthwise_conv(&image, &filter, bias, dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, lo, hi);
            let mut got = std::vec![0i8; oh * ow * c];
            prop_assert!(depthwise(&image, &filter, bias, None, &dims, &params, &stage, &mut got).is_some());
            prop_assert_eq!(&got, &want);
            // the same with every group set up once, before the call
            let groups: Vec<_> = (0..c).step_by(4)
                .map(|g| depthwise_group(&filter, bias, &dims, &params, &stage, g).unwrap())
                .collect();
            let mut prepared = std::vec![0i8; oh * ow * c];
            prop_assert!(depthwise(&image, &filter, bias, Some(&groups), &dims, &params, &stage, &mut prepared).is_some());
            prop_assert_eq!(prepared, want);
        }
    }
}
