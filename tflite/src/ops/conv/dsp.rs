//! The convolution's DSP loops (issue 64; one home per kernel, issue 69),
//! CMSIS-NN's ideas (`arm_nn_mat_mult_nt_t_s8`,
//! `arm_nn_mat_mult_kernel_s8_s16`) written anew:
//!
//! - [`mac_2x2`]: two rows of the left matrix (two pixels of a 1×1
//!   convolution) times two rows of the right one (two output channels), 16
//!   multiply-accumulates in 20 instructions, on the raw int8 values; the
//!   input's zero point enters once per output channel as
//!   `−zero_point · Σ w` ([`matmul`], also a fully connected layer's of
//!   several batches), so the loop never subtracts it;
//! - [`conv_im2col`]: a k×k convolution's two pixels gathered into two
//!   rows (im2col), widened once into 16-bit halves (`SXTB16`), then each
//!   pair of output channels in 18 instructions and 19 cycles per 16
//!   multiply-accumulates in [`arch::wide_run`] (the pixels' four halves
//!   and the weights' two words by single `LDR`s in one pipelined run, with
//!   r7 as a seventh scratch register; the weights widened; 8 `SMLAD`s:
//!   `step_2x2!`), as CMSIS-NN's `arm_nn_mat_mult_kernel_s8_s16`; filters
//!   of up to 576 values (a bounded stack buffer);
//! - [`mac_1x2`]: one row times two rows, the input's offset added to the
//!   widened halves (`SADD16`) when there is a single row to share it (a
//!   fully connected layer of one batch of fewer than 4 rows or more than
//!   640 inputs, and the last 1 to 3 rows of the others).
//!
//! Each `asm!` block (in `mod arch`, under `cfg(shapecheck_dsp)`) sits
//! beside its plain-Rust twin (`cfg(not(shapecheck_dsp))`): the host's unit
//! tests below run the twins, the firmware tests (embedded/tests/
//! dsp_kernels.rs) the asm, both against [`crate::reference`]. The portable
//! loop is in `mod.rs`; the output stage, the safety note and the
//! arithmetic's argument, shared by the kernels' DSP loops, in
//! [`crate::arith::dsp`].

#[cfg(not(shapecheck_dsp))]
use crate::arith::dsp::widen;
use crate::arith::dsp::Requant4;
use crate::arith::quant::{OutputStage, QuantizedMultiplier, Scale};
use crate::base::bytes::copy_forward;
use crate::format::values::Values;
use crate::ops::conv::ConvPairStage;
use core::mem::MaybeUninit;

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
    prepared: Option<&[ConvPairStage]>,
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
    // every channel's output stage the DSP form's: the prepared pairs
    // (made only where it is, checked against the layer when they were
    // given), else one pass over the multipliers, each call
    if (WIDE_MIN_DEPTH..=IM2COL_MAX).contains(&depth)
        && depth.is_multiple_of(8)
        && channels >= 2
        && channels.is_multiple_of(2)
        && (layer_stages(prepared, channels).is_some()
            || Requant4::takes_all(multipliers, channels, stage))
    {
        // the widened rows on the stack sized by the depth's class (a
        // wrapper per class owns them, out of line: only while it runs)
        let ops = Operands {
            x,
            w,
            bias,
            depth,
            zero_point,
            multipliers,
            stage,
            prepared,
        };
        return if depth <= 64 {
            matmul_wide_in::<64, 32, B>(ops, out)
        } else if depth <= 256 {
            matmul_wide_in::<256, 16, B>(ops, out)
        } else {
            matmul_wide_in::<IM2COL_MAX, 16, B>(ops, out)
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

/// [`matmul`]'s operands as [`matmul_wide`] takes them.
struct Operands<'a, B: Values<i32> + ?Sized> {
    x: &'a [i8],
    w: &'a [i8],
    bias: Option<&'a B>,
    depth: usize,
    zero_point: i32,
    multipliers: &'a [QuantizedMultiplier],
    stage: &'a OutputStage,
    /// every channel pair's stage set up once ([`crate::conv_1x1_prepare`]),
    /// else `None`
    prepared: Option<&'a [ConvPairStage]>,
}

/// [`matmul_wide`] with its stack buffers: the widened rows of a depth of
/// at most `N` (`4N` bytes) and the stages of a group of `P` channel
/// pairs (`60P` bytes, `P ≤ 32`). Out of line, so that they are on the
/// stack only while it runs; one small wrapper per size class, the body
/// shared.
#[inline(never)]
fn matmul_wide_in<const N: usize, const P: usize, B: Values<i32> + ?Sized>(
    ops: Operands<'_, B>,
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
    matmul_wide(ops, out, scratch)
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
/// group of channels (as many as `scratch` holds stages for), every
/// pixel pair checked once ([`arch::wide_pixels`]): per pixel pair its
/// rows widened once into `scratch` and every channel pair in one loop.
/// With stages prepared for every channel pair, one group of all the
/// channels, its stages those (nothing set up, each pixel pair widened
/// once). Out of line, shared by the size classes' wrappers
/// ([`matmul_wide_in`]).
#[inline(never)]
fn matmul_wide<B: Values<i32> + ?Sized>(
    ops: Operands<'_, B>,
    out: &mut [i8],
    scratch: Scratch<'_>,
) -> Option<()> {
    let Operands {
        x,
        w,
        bias,
        depth,
        zero_point,
        multipliers,
        stage,
        prepared,
    } = ops;
    let channels = w.len() / depth.max(1);
    let Scratch { wide, stages } = scratch;
    let quant = GroupQuant {
        bias,
        zero_point,
        multipliers,
        stage,
    };
    let prepared = layer_stages(prepared, channels);
    for (first, group) in channel_groups(w, depth, group_pairs(prepared, stages)) {
        let qs = match prepared {
            Some(qs) => qs,
            None => group_stages(group, depth, first, &quant, stages)?,
        };
        // every pixel pair, checked once
        if !arch::wide_pixels(x, depth / 4, wide, group, qs, out, channels, first) {
            return None;
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
/// times those rows ([`arch::mac_2x2_wide`], SMLAD: 15 to 17 instructions
/// for 16 multiply-accumulates, the input's halves read as they are and
/// only the weights widened) from `bias − zero_point · Σ w`, and the output stage
/// [`Requant4`]. Output channels in groups of at most 64 (the constants
/// and stages of one group on the stack), or all in one group where
/// `prepared` holds the layer's stages ([`crate::conv_prepare`]'s, one per
/// channel pair; another length is not read). `None`, with `out` untouched,
/// unless the filter has at most 576 values ([`IM2COL_MAX`]: the two rows
/// are a stack buffer) and the output an even count of channels, the
/// zero point is an int8, the stage applies to every channel and every
/// length matches (the caller's portable loop then runs). Its stack
/// buffers are sized by the filter's class (at most 64, 288 or 576
/// values: 2.3, 3.6 or 5.4 KB; 0.6 KB for a filter of at most 64 values
/// and at most 8 output channels) and owned by an out-of-line wrapper per
/// class ([`conv_im2col_in`]), so that they are on the stack only while
/// it runs, not in the caller's frame under a 1×1 layer's buffers.
#[allow(clippy::too_many_arguments)]
pub(crate) fn conv_im2col<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: &crate::ops::conv::Conv2dDims,
    params: &crate::ops::conv::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
) -> Option<()> {
    let Im2colSizes {
        k,
        image_len,
        out_len,
    } = Im2colSizes::of(dims)?;
    let channels = dims.output_depth;
    let zero_point = params.input_zero_point;
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
    // (the prepared pairs, made only where it is, or one pass over the
    // multipliers)
    if !(layer_stages(prepared, channels).is_some()
        || Requant4::takes_all(multipliers, channels, stage))
    {
        return None;
    }
    // a shallow filter (a first layer's 3×3×1 or 3×3×3) whose filter
    // rows are not whole words: each padded with zero weights to one
    let run = dims.filter_width.checked_mul(dims.input_depth)?;
    if !run.is_multiple_of(4) {
        let row = dims.filter_height.checked_mul(run.next_multiple_of(4))?;
        if row <= SHALLOW_MAX && channels.checked_mul(row)? <= SHALLOW_WEIGHTS {
            return conv_im2col_shallow(input, w, bias, prepared, dims, params, stage, out, row);
        }
    }
    // the stack buffers sized by the filter's class (a wrapper per class
    // owns them, out of line: only while it runs)
    if k <= 64 && channels <= 8 {
        // a first layer's few outputs (person detection's, vww's): the
        // stages of 4 pairs, 240 B
        conv_im2col_in::<64, 128, 4, B>(input, w, bias, prepared, dims, params, stage, out, k)
    } else if k <= 64 {
        conv_im2col_in::<64, 128, 32, B>(input, w, bias, prepared, dims, params, stage, out, k)
    } else if k <= 288 {
        conv_im2col_in::<288, 576, 32, B>(input, w, bias, prepared, dims, params, stage, out, k)
    } else {
        conv_im2col_in::<IM2COL_MAX, { 2 * IM2COL_MAX }, 32, B>(
            input, w, bias, prepared, dims, params, stage, out, k,
        )
    }
}

/// `d` from `s` where both are as long (else nothing): a filter row's run
/// of bytes gathered by [`conv_im2col_rows`], at most 16 bytes without a
/// call to `memcpy` (a byte loop would become one: LLVM turns it into
/// `memcpy`, whose set-up costs more than a run of a 3×3×3 filter row's 9
/// bytes). From 4 bytes on, two fixed-size copies that may overlap: the
/// first and the last 4 (up to 8 bytes) or 8 (up to 16), each a pair of
/// unaligned word loads and stores on the Cortex-M4. Out of line, so that
/// its caller's closure stays small enough to be inlined.
#[inline(never)]
fn copy_run(d: &mut [i8], s: &[i8]) {
    fn two<const N: usize>(d: &mut [i8], s: &[i8]) {
        if let (Some(d0), Some(s0)) = (d.first_chunk_mut::<N>(), s.first_chunk::<N>()) {
            *d0 = *s0;
        }
        if let (Some(d1), Some(s1)) = (d.last_chunk_mut::<N>(), s.last_chunk::<N>()) {
            *d1 = *s1;
        }
    }
    if d.len() != s.len() {
        return;
    }
    match (d, s) {
        ([], []) => {}
        ([d0], [s0]) => *d0 = *s0,
        ([d0, d1], [s0, s1]) => (*d0, *d1) = (*s0, *s1),
        ([d0, d1, d2], [s0, s1, s2]) => (*d0, *d1, *d2) = (*s0, *s1, *s2),
        (d, s) if d.len() <= 8 => two::<4>(d, s),
        (d, s) if d.len() <= 16 => two::<8>(d, s),
        (d, s) => copy_forward(d, s),
    }
}

/// `d` filled with `v` ([`filled`]): the zero point of an im2col row's
/// taps outside the input, up to 576 bytes a border pixel.
fn fill_bytes(d: &mut [i8], v: i8) {
    // SAFETY: the same bytes seen as possibly uninitialized, which
    // `filled` only writes `v` into: they stay initialized `i8`s
    let d = unsafe { &mut *(d as *mut [i8] as *mut [MaybeUninit<i8>]) };
    filled(d, v);
}

/// `d` filled with `v`, and so initialized: its 16-byte steps by
/// [`arch::fill_steps`] (four word stores, where `memset`'s loop stores a
/// word in about 9 cycles on the Cortex-M4; a loop of plain stores LLVM
/// turns into `memset`), then the last 0 to 15 bytes. The im2col rows'
/// buffer set up at the zero point ([`conv_im2col_in`]: only the bytes a
/// filter uses, not the size class's buffer zeroed first).
fn filled(d: &mut [MaybeUninit<i8>], v: i8) -> &mut [i8] {
    let steps = d.len() / 16;
    let (head, tail) = d.split_at_mut(16 * steps);
    arch::fill_steps(head, v);
    for b in tail {
        b.write(v);
    }
    // SAFETY: every byte of `d` was written just above (its `16 · steps`
    // bytes by `fill_steps`, which writes them all for a whole number of
    // steps, the rest by the loop); `MaybeUninit<i8>` lays them out as
    // `i8`s
    unsafe { &mut *(d as *mut [MaybeUninit<i8>] as *mut [i8]) }
}

/// The sizes [`conv_im2col`] and its row loop ([`conv_im2col_rows`]) both
/// read off a convolution's dimensions.
struct Im2colSizes {
    /// the values of one output channel's filter (and of a pixel's im2col
    /// row): rows × columns × input channels
    k: usize,
    /// one image's input values
    image_len: usize,
    /// one image's output values
    out_len: usize,
}

impl Im2colSizes {
    /// `None` if a size overflows.
    fn of(dims: &crate::ops::conv::Conv2dDims) -> Option<Self> {
        let depth = dims.input_depth;
        Some(Im2colSizes {
            k: dims
                .filter_height
                .checked_mul(dims.filter_width)?
                .checked_mul(depth)?,
            image_len: dims
                .input_height
                .checked_mul(dims.input_width)?
                .checked_mul(depth)?,
            out_len: dims
                .output_height
                .checked_mul(dims.output_width)?
                .checked_mul(dims.output_depth)?,
        })
    }
}

/// The largest filter, its rows padded to whole words, that [`conv_im2col`]
/// pads ([`conv_im2col_shallow`]): 3 × 3 over 3 channels is 3 × 12.
const SHALLOW_MAX: usize = 48;

/// The most padded weights (`output channels × padded row`) of
/// [`conv_im2col_shallow`]'s stack buffer (ResNet-8's 16 channels of
/// 3 × 12).
const SHALLOW_WEIGHTS: usize = 576;

/// [`conv_im2col`] of a shallow filter whose rows are not whole words (a
/// first layer's 3×3 over one or three channels): each channel's weights
/// copied into a row of `row` values, each filter row's `filter_width ×
/// input_depth` weights followed by zeros up to a multiple of 4 (`row` is
/// `filter_height` of those, at most 48), so that a pixel's filter rows
/// are whole words in the image too: the two pixels' rows widened
/// straight from it where all their taps are inside (the bytes past each
/// filter row's run meet zero weights), and every channel pair in
/// [`arch::wide_run`]'s loop instead of [`arch::mac_2x2_wide`] and the
/// plain-Rust tail per pair. The sums `Σ w` are the same. At most 576
/// padded weights (a stack buffer, out of line). The caller has checked
/// every length.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn conv_im2col_shallow<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: &crate::ops::conv::Conv2dDims,
    params: &crate::ops::conv::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    row: usize,
) -> Option<()> {
    let k = w.len() / dims.output_depth.max(1);
    let run = dims.filter_width.checked_mul(dims.input_depth)?;
    let padded_run = row / dims.filter_height.max(1);
    // the bytes used zeroed (not the whole buffer: a first layer's 8
    // channels use 96 of its 576), then each filter row's weights copied
    // over its front (runs of at most 16 bytes, without `memcpy`'s set-up:
    // `copy_run`)
    let mut padded = [MaybeUninit::<i8>::uninit(); SHALLOW_WEIGHTS];
    let len = dims.output_depth.checked_mul(row)?;
    let rows = filled(padded.get_mut(..len)?, 0);
    if run == 0
        || padded_run < run
        || row != dims.filter_height.checked_mul(padded_run)?
        || k != dims.filter_height.checked_mul(run)?
        || w.len() != dims.output_depth.checked_mul(k)?
    {
        return None;
    }
    for (to, from) in rows.chunks_exact_mut(row).zip(w.chunks_exact(k)) {
        for (to, from) in to.chunks_exact_mut(padded_run).zip(from.chunks_exact(run)) {
            copy_run(to.get_mut(..run)?, from);
        }
    }
    let padded = &*rows;
    if dims.output_depth <= 8 {
        // a first layer's few outputs: the stages of 4 pairs
        conv_im2col_in::<SHALLOW_MAX, { 2 * SHALLOW_MAX }, 4, B>(
            input, padded, bias, prepared, dims, params, stage, out, row,
        )
    } else {
        conv_im2col_in::<SHALLOW_MAX, { 2 * SHALLOW_MAX }, 32, B>(
            input, padded, bias, prepared, dims, params, stage, out, row,
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
    prepared: Option<&[ConvPairStage]>,
    dims: &crate::ops::conv::Conv2dDims,
    params: &crate::ops::conv::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    row: usize,
) -> Option<()> {
    // the two rows at the zero point (the bytes a padded filter row's run
    // leaves keep it: they meet zero weights), the rest of the class's
    // buffer left as it is
    let mut cols = [const { MaybeUninit::<i8>::uninit() }; C];
    let cols = filled(
        cols.get_mut(..row.checked_mul(2)?)?,
        params.input_zero_point as i8,
    );
    // written before they are read (`arch::widen_rows`, `group_stages`):
    // not zeroed first
    let mut wide = [NO_WORD; N];
    let mut stages = [NO_STAGE; P];
    let scratch = Scratch {
        wide: &mut wide,
        stages: &mut stages,
    };
    conv_im2col_rows(
        input, w, bias, prepared, dims, params, stage, out, cols, scratch, row,
    )
}

/// The body of [`conv_im2col`] (its checks passed) on the buffers of a
/// size class: `cols` holds the two im2col rows (`2 · row` bytes: per
/// filter row its `filter_width × input_depth` values, at `row /
/// filter_height` apart), `scratch` their widened words (`row` words) and
/// a group's stages; `w`'s rows are `row` values (`row > k` where each
/// filter row ends in zero weights, [`conv_im2col_shallow`]'s). Out of
/// line, shared by the classes' wrappers ([`conv_im2col_in`]).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn conv_im2col_rows<B: Values<i32> + ?Sized>(
    input: &[i8],
    w: &[i8],
    bias: Option<&B>,
    prepared: Option<&[ConvPairStage]>,
    dims: &crate::ops::conv::Conv2dDims,
    params: &crate::ops::conv::Conv2dParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    cols: &mut [i8],
    scratch: Scratch<'_>,
    row: usize,
) -> Option<()> {
    use crate::arith::window::Window;
    let depth = dims.input_depth;
    let Im2colSizes {
        k,
        image_len,
        out_len,
    } = Im2colSizes::of(dims)?;
    let channels = dims.output_depth;
    let zero_point = params.input_zero_point;
    let multipliers = params.multipliers;
    // a filter row's run of values in the image, and in an im2col row
    // (padded to whole words with values that meet zero weights)
    let run = dims.filter_width * depth;
    let padded_run = row / dims.filter_height.max(1);
    if padded_run < run || row != dims.filter_height * padded_run || k != dims.filter_height * run {
        return None;
    }
    // each row's runs written before it is read (`inside`, `gather`: all
    // its bytes but a padded run's last ones, which keep the zero point
    // `conv_im2col_in` set and meet zero weights)
    let cols = cols.get_mut(..2 * row)?;
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
            fill_bytes(cols, zero_point as i8);
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
                let to = ky * padded_run + kx * depth;
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
                        (d, s) => copy_run(d, s),
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
        for d in cols.chunks_exact_mut(padded_run.max(1)) {
            match (d.get_mut(..run), image.get(from..from.saturating_add(run))) {
                (None, _) => return false,
                (Some([d0, d1, d2]), Some([s0, s1, s2])) => (*d0, *d1, *d2) = (*s0, *s1, *s2),
                (Some(d), Some(s)) => copy_run(d, s),
                (_, None) => return false,
            }
            from = from.saturating_add(step);
        }
        true
    };
    // a pixel whose taps are all inside (`inside`'s) where a filter row,
    // padded or not, is whole words: the image offset of its first filter
    // row's run (`direct_run` bytes, the next runs `step` apart; a padded
    // run's last bytes, the image's next ones, meet zero weights), its
    // words widened in place of the gathered row's
    let direct_run = if padded_run.is_multiple_of(4) && params.dilation_width == 1 {
        padded_run
    } else {
        0
    };
    let direct_at = |iy0: usize, ox: usize| {
        let x0 = ox
            .checked_mul(params.stride_width)?
            .checked_sub(params.pad_left)?;
        if x0.checked_add(dims.filter_width)? > dims.input_width {
            return None;
        }
        iy0.checked_mul(dims.input_width)?
            .checked_add(x0)?
            .checked_mul(depth)
    };
    // per channel pair of a group: the constants and the output stage
    let quant = GroupQuant {
        bias,
        zero_point,
        multipliers,
        stage,
    };
    let prepared = layer_stages(prepared, channels);
    for (first, group) in channel_groups(w, row, group_pairs(prepared, stages)) {
        let qs = match prepared {
            Some(qs) => qs,
            None => group_stages(group, row, first, &quant, stages)?,
        };
        for (image, out) in input
            .chunks_exact(image_len.max(1))
            .zip(out.chunks_exact_mut(out_len.max(1)))
        {
            // a row's last pixel left without a pair (its row's pixels
            // odd): its im2col row kept in `cols`' first row, its output's
            // offset here, paired with the next row's first pixel
            let mut carried: Option<usize> = None;
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
                let ow = dims.output_width;
                // the row's pairs start at column 1 where its column 0
                // went with the last row's carried pixel
                let start = match carried.take() {
                    Some(at0) => {
                        let (_, c1) = cols.split_at_mut(row);
                        let c1 = c1.get_mut(..row)?;
                        if !full.is_some_and(|iy0| inside(c1, image, iy0, 0)) {
                            gather(c1, image, rows, 0);
                        }
                        let (c0, c1) = cols.split_at(row);
                        let c1 = c1.get(..row)?;
                        let at1 = oy * ow * channels + first;
                        channel_pairs(c0, c1, wide, group, qs, out, at0, Some(at1))?;
                        1
                    }
                    None => 0,
                };
                // the row's pixels whose taps are all inside, the filter
                // rows whole words (`direct_at`'s), from a column of the
                // pairs' parity and in pairs (or to the row's end): checked
                // once and run in one call, straight from the image
                let mut direct = 0..0;
                if let Some(iy0) = full.filter(|_| direct_run > 0) {
                    let sw = params.stride_width.max(1);
                    let lo = params.pad_left.div_ceil(sw).max(start);
                    let lo = lo + (lo - start) % 2;
                    let hi = (dims.input_width.saturating_add(params.pad_left))
                        .checked_sub(dims.filter_width)
                        .map_or(0, |v| v / sw + 1)
                        .min(ow);
                    let end = if hi == ow {
                        ow
                    } else {
                        hi - hi.saturating_sub(lo) % 2
                    };
                    let ends = (lo < end).then(|| (direct_at(iy0, lo), direct_at(iy0, end - 1)));
                    if let (Some((Some(from), Some(_))), Some(pixel_step)) =
                        (ends, sw.checked_mul(depth))
                    {
                        let at = (oy * ow + lo) * channels + first;
                        if arch::direct_pixels(
                            image,
                            (from, pixel_step, end - lo),
                            (direct_run / 4, step, dims.filter_height),
                            wide,
                            group,
                            qs,
                            out,
                            (at, channels),
                        ) {
                            direct = lo..end;
                        }
                    }
                }
                for ox in (start..ow).step_by(2) {
                    if direct.contains(&ox) {
                        continue;
                    }
                    let second = ox + 1 < ow;
                    let at = (oy * ow + ox) * channels + first;
                    // (a pair whose taps are all inside is in `direct`,
                    // unless `direct_pixels` declined it: then gathered)
                    let (c0, c1) = cols.split_at_mut(row);
                    if !full.is_some_and(|iy0| inside(c0, image, iy0, ox)) {
                        gather(c0, image, rows, ox);
                    }
                    if second {
                        let c1 = c1.get_mut(..row)?;
                        if !full.is_some_and(|iy0| inside(c1, image, iy0, ox + 1)) {
                            gather(c1, image, rows, ox + 1);
                        }
                    } else if oy + 1 < dims.output_height {
                        // the row's last pixel alone: on to the next row
                        carried = Some(at);
                        continue;
                    } else {
                        c1.get_mut(..row)?.copy_from_slice(c0);
                    }
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

/// Two pixels' im2col rows widened straight from the image, without
/// gathering them: `rows` runs of `run` bytes each (a multiple of 4), the
/// first pixel's from `image[from[0]]`, the second's from
/// `image[from[1]]`, the next runs `step` bytes on, each pair of runs
/// widened as [`arch::widen_rows`] widens two rows, into the next `run`
/// words of `wide`; the `rows · run` words written, as [`channel_pairs`]
/// widens a gathered pair of rows ([`arch::direct_pixels`]' plain-Rust
/// form; with the DSP extension its `asm!` widens in place). Empty
/// (nothing to read) if `run` is not whole words, a run lies past the
/// image or `wide` is too short.
#[cfg(not(shapecheck_dsp))]
fn widen_runs<'a>(
    image: &[i8],
    from: [usize; 2],
    run: usize,
    step: usize,
    rows: usize,
    wide: &'a mut [MaybeUninit<u32>],
) -> &'a [u32] {
    if !run.is_multiple_of(4) || !arch::widen_strided(image, from, run / 4, step, rows, wide) {
        return &[];
    }
    // SAFETY: `widen_strided` returned `true`: it wrote the first `rows ·
    // run` words of `wide` (which holds them: it checked); `MaybeUninit<u32>`
    // lays them out as `u32`s
    unsafe { core::slice::from_raw_parts(wide.as_ptr().cast::<u32>(), rows * run) }
}

/// What [`group_stages`] reads of a layer's quantization.
struct GroupQuant<'q, B: Values<i32> + ?Sized> {
    bias: Option<&'q B>,
    /// the input's
    zero_point: i32,
    multipliers: &'q [QuantizedMultiplier],
    stage: &'q OutputStage,
}

/// The layer's prepared stages ([`crate::conv_prepare`]'s, made once) as
/// the loops read them, where there is one per channel pair of its
/// `channels` (another length is not read).
fn layer_stages(prepared: Option<&[ConvPairStage]>, channels: usize) -> Option<&[PairStage]> {
    prepared
        .filter(|p| 2 * p.len() == channels)
        .map(as_pair_stages)
}

/// How many channel pairs a group of [`channel_groups`] holds: with the
/// layer's stages prepared, every pair (one group, no stages made per
/// call); else as many as the stack buffer `stages` holds, at most
/// [`IM2COL_CHANNELS`] channels.
fn group_pairs(prepared: Option<&[PairStage]>, stages: &[MaybeUninit<PairStage>]) -> usize {
    prepared.map_or(stages.len().min(IM2COL_CHANNELS / 2), <[PairStage]>::len)
}

/// The output channels of `w` (rows of `k` weights) in groups of `pairs`
/// channel pairs ([`group_pairs`]): each group's first channel and its
/// rows.
fn channel_groups(w: &[i8], k: usize, pairs: usize) -> impl Iterator<Item = (usize, &[i8])> {
    let channels = 2 * pairs.max(1);
    let groups = w.chunks(channels.saturating_mul(k).max(1)).enumerate();
    groups.map(move |(g, group)| (g * channels, group))
}

/// The constants `bias − zero_point · Σ w` and the output stages of the
/// channel pairs of `group` (rows of `k` weights, its first channel
/// `first`) into the front of `stages`, which it returns; `None` if a
/// stage is not a [`Requant4`].
fn group_stages<'a, B: Values<i32> + ?Sized>(
    group: &[i8],
    k: usize,
    first: usize,
    quant: &GroupQuant<'_, B>,
    stages: &'a mut [MaybeUninit<PairStage>],
) -> Option<&'a [PairStage]> {
    let GroupQuant {
        bias,
        zero_point,
        multipliers,
        stage,
    } = *quant;
    // the part of the stage every channel shares (its zero point and
    // clamp), found once: per pair only the two multipliers
    let shared = Requant4::for_channels(multipliers, [first; 4], stage)?;
    let mut n = 0;
    for (pair, ps) in group.chunks_exact(2 * k).zip(stages.iter_mut()) {
        let c = first + 2 * n;
        ps.write(pair_stage(
            pair,
            k,
            c,
            bias,
            zero_point,
            multipliers,
            shared,
        )?);
        n += 1;
    }
    let written = stages.get(..n)?;
    // SAFETY: the first `n` stages were written just above, and
    // `MaybeUninit<PairStage>` has `PairStage`'s layout
    Some(unsafe { core::slice::from_raw_parts(written.as_ptr().cast::<PairStage>(), n) })
}

/// The one rule of a channel pair's stage: channels `c, c + 1` (their
/// weight rows `pair`, `k` each) as `bias − zero_point · Σ w` and the
/// output stage `shared` (a [`Requant4`] of the layer's zero point and
/// clamp) with their two multipliers; `None` if one is not a
/// [`Requant4`]'s. [`group_stages`] at each call, [`prepared_pair`] once.
#[inline(always)]
fn pair_stage<B: Values<i32> + ?Sized>(
    pair: &[i8],
    k: usize,
    c: usize,
    bias: Option<&B>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    shared: Requant4,
) -> Option<PairStage> {
    let (w0, w1) = pair.split_at(k.min(pair.len()));
    // the pair's two biases at once (the callers checked their count)
    let [b0, b1] = bias.and_then(|b| b.chunk::<2>(c)).unwrap_or([0; 2]);
    let (k0, k1) = (folded(b0, zero_point, w0), folded(b1, zero_point, w1));
    let channel = |c: usize| Requant4::channel(multipliers, c);
    let (s0, s1) = (channel(c)?, channel(c + 1)?);
    Some(PairStage {
        constant: [k0, k1, k0, k1],
        requant: shared.with_channels([s0, s1, s0, s1]),
    })
}

/// Channel pair `j`'s stage (channels `2j, 2j + 1`) of a 1×1 convolution
/// of depth `k` (`w` its rows), set up once: [`pair_stage`]'s, in its
/// public form. `None` if the pair is not in `w` or its stage is not a
/// [`Requant4`] (then [`matmul_wide`] does not take the layer).
pub(crate) fn prepared_pair(
    w: &[i8],
    k: usize,
    j: usize,
    bias: Option<&[i32]>,
    zero_point: i32,
    multipliers: &[QuantizedMultiplier],
    stage: &OutputStage,
) -> Option<ConvPairStage> {
    let c = j.checked_mul(2)?;
    let pair = w.get(c.checked_mul(k)?..c.checked_add(2)?.checked_mul(k)?)?;
    let shared = Requant4::for_channels(multipliers, [c; 4], stage)?;
    let ps = pair_stage(pair, k, c, bias, zero_point, multipliers, shared)?;
    Some(ConvPairStage {
        constant: ps.constant,
        requant: ps.requant.words(),
    })
}

/// Prepared stages ([`ConvPairStage`]) as the loops read them: the same
/// sixty bytes ([`PairStage`]'s layout, checked at compile time below).
fn as_pair_stages(prepared: &[ConvPairStage]) -> &[PairStage] {
    // SAFETY: both types are `repr(C)` of fifteen 4-byte words at the same
    // offsets (`constant`: four `i32`s; `requant`: [`Requant4`]'s eight
    // `i32`s, its `i32` offset and its two `u32` clamp words, against
    // eleven `i32`s in [`Requant4::words`]'s order), any bits valid in
    // each, the same size and alignment (asserted below)
    unsafe { core::slice::from_raw_parts(prepared.as_ptr().cast::<PairStage>(), prepared.len()) }
}

const _: () = assert!(
    core::mem::size_of::<ConvPairStage>() == core::mem::size_of::<PairStage>()
        && core::mem::align_of::<ConvPairStage>() == core::mem::align_of::<PairStage>()
        && core::mem::size_of::<PairStage>() == 60
        && core::mem::offset_of!(PairStage, requant) == 16
        && core::mem::offset_of!(ConvPairStage, requant) == 16
);

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
    /// the output stage of the same four (16): [`arch::wide_run`] reads
    /// its first two channels for both pixels
    requant: Requant4,
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

/// The loops over whole words: each `asm!` form (the DSP extension,
/// `cfg(shapecheck_dsp)`) followed by its plain-Rust twin of the same
/// name and signature (`cfg(not(shapecheck_dsp))`, the host's and the
/// unit tests').
mod arch {
    pub(super) use crate::arith::dsp::arch::requant4;
    #[cfg(shapecheck_dsp)]
    use core::arch::asm;
    use core::mem::MaybeUninit;

    #[cfg(shapecheck_dsp)]
    /// One step of the 2×2 block: four columns of two pixels' rows times
    /// two weight rows, 8 `SMLAD`s (16 multiply-accumulates) into `$a00`
    /// (pixel 0, channel 0), `$a01`, `$a10` and `$a11`. The weights: a word
    /// at `$w` (which steps past it) and one at `$skip` = stride − 4 from
    /// there, each widened by two `SXTB16`s into its bytes 0 and 2 and its
    /// bytes 1 and 3. Six scratch registers, `$a` … `$f`. The cycles are
    /// the Cortex-M4's: a single `LDR` costs 1 when it follows another (they
    /// pipeline), else 2; `LDRD` and `LDM` of N words cost 1 + N and never
    /// pipeline. Three forms:
    ///
    /// - `wide`: the pixels' rows widened by [`widen_rows`], four words a
    ///   step at `$x` (which steps 16 bytes; pixel 0's two halves, then
    ///   pixel 1's). The weights' two `LDR`s and pixel 0's two in one run
    ///   (5 cycles), the weights widened into `$c`, `$d` (row 0) and `$e`,
    ///   `$f`, pixel 1's halves by `LDRD` (3): 17 instructions, 20 cycles.
    /// - `wide_ldm`: the same rows, all four words in one `LDM` into `$a`,
    ///   `$b` (pixel 0) and `$c`, `$d` (pixel 1), which must be registers
    ///   in ascending order (5 cycles), then channel by channel: the
    ///   weight row's `LDR` (2), widened into `$e`, `$f`, 4 `SMLAD`s: 15
    ///   instructions, 21 cycles.
    /// - `bytes`: the rows' bytes, a word at `$x` (which steps 4) and one
    ///   at `$skip` from there; the weights as in `wide`, pixel 0's `LDR` in
    ///   their run, pixel 1's after its 4 `SMLAD`s, each widened into `$a`,
    ///   `$b`: 20 instructions, 22 cycles.
    /// - `wide7`: the rows of `wide` with a seventh scratch register, `$g`
    ///   ([`wide_run`]'s r7): all six words in one run of `LDR`s (7
    ///   cycles), pixel 0's halves into `$a`, `$b`, pixel 1's into `$g`,
    ///   `$c`, then weight row 0 widened into `$e`, `$d` times both pixels,
    ///   then row 1 into `$e`, `$f`: 18 instructions, 19 cycles.
    ///
    /// `until "[sp]"` (an address) ends a loop's pass: the loop's end is
    /// loaded from there into `$c` (`$e` in `wide_ldm` and `wide7`) at the end of the
    /// first run of loads (1 cycle) and compared with `$x`, already past
    /// the step, for a `bne` after it (`SXTB16`, `SMLAD`, `LDR` and `LDRD`
    /// leave the flags).
    #[rustfmt::skip]
    macro_rules! step_2x2 {
        // the registers named `{x}`, `{w}`, `{skip}`, `{a00}` … `{a11}`,
        // `{a}` … `{f}`
        ($form:ident $(, until $end:literal)?) => {
            step_2x2!(
                $form, "{x}", "{w}", "{skip}", ["{a00}", "{a01}", "{a10}", "{a11}"],
                ["{a}", "{b}", "{c}", "{d}", "{e}", "{f}"] $(, until $end)?
            )
        };
        // explicit registers where an `LDM` needs them in order: `$x` in
        // r11, the accumulators in r0 … r3, the scratch ones r4, r5, r8,
        // r9, `{e}`, r10 (`{w}`, `{skip}` and `{e}` named)
        (explicit $form:ident $(, until $end:literal)?) => {
            step_2x2!(
                $form, "r11", "{w}", "{skip}", ["r0", "r1", "r2", "r3"],
                ["r4", "r5", "r8", "r9", "{e}", "r10"] $(, until $end)?
            )
        };
        // [`wide_run`]'s seven scratch registers: r4, r5, r8, r9, `{e}`,
        // r10 and r7 (LLVM's frame pointer, which the loop saves and
        // restores itself)
        (explicit7 $form:ident $(, until $end:literal)?) => {
            step_2x2!(
                $form, "r11", "{w}", "{skip}", ["r0", "r1", "r2", "r3"],
                ["r4", "r5", "r8", "r9", "{e}", "r10", "r7"] $(, until $end)?
            )
        };
        // all six words in one run, then weight row 0 times both pixels,
        // then row 1
        (
            wide7, $x:literal, $w:literal, $skip:literal,
            [$a00:literal, $a01:literal, $a10:literal, $a11:literal],
            [$a:literal, $b:literal, $c:literal, $d:literal, $e:literal, $f:literal,
             $g:literal]
            $(, until $end:literal)?
        ) => {
            concat!(
                "ldr ", $d, ", [", $w, "], #4\n",
                "ldr ", $f, ", [", $w, ", ", $skip, "]\n",
                "ldr ", $a, ", [", $x, "], #16\n",
                "ldr ", $b, ", [", $x, ", #-12]\n",
                "ldr ", $g, ", [", $x, ", #-8]\n",
                "ldr ", $c, ", [", $x, ", #-4]\n",
                $(
                    "ldr ", $e, ", ", $end, "\n",
                    "cmp ", $x, ", ", $e, "\n",
                )?
                step_2x2!(@weight $d, $e, [$a, $b] => $a00, [$g, $c] => $a10),
                step_2x2!(@weight $f, $e, [$a, $b] => $a01, [$g, $c] => $a11),
            )
        };
        // one weight word `$w` widened into `$lo` (its bytes 0 and 2) and
        // itself (bytes 1 and 3), times pixel 0's halves into `$acc0` and
        // pixel 1's into `$acc1`: `wide7`'s and `wide_ldm`'s channel
        (
            @weight $w:literal, $lo:literal,
            [$p0:literal, $p1:literal] => $acc0:literal,
            [$q0:literal, $q1:literal] => $acc1:literal
        ) => {
            concat!(
                "sxtb16 ", $lo, ", ", $w, "\n",
                "sxtb16 ", $w, ", ", $w, ", ror #8\n",
                "smlad ", $acc0, ", ", $p0, ", ", $lo, ", ", $acc0, "\n",
                "smlad ", $acc0, ", ", $p1, ", ", $w, ", ", $acc0, "\n",
                "smlad ", $acc1, ", ", $q0, ", ", $lo, ", ", $acc1, "\n",
                "smlad ", $acc1, ", ", $q1, ", ", $w, ", ", $acc1, "\n",
            )
        };
        (
            wide, $x:literal, $w:literal, $skip:literal,
            [$a00:literal, $a01:literal, $a10:literal, $a11:literal],
            [$a:literal, $b:literal, $c:literal, $d:literal, $e:literal, $f:literal]
            $(, until $end:literal)?
        ) => {
            step_2x2!(
                @pixels $x, $w, $skip, [$a00, $a01, $a10, $a11], [$a, $b, $c, $d, $e, $f],
                [$($end)?],
                // pixel 0's halves
                concat!(
                    "ldr ", $a, ", [", $x, "], #16\n",
                    "ldr ", $b, ", [", $x, ", #-12]\n",
                ),
                "",
                // pixel 1's
                concat!("ldrd ", $a, ", ", $b, ", [", $x, ", #-8]\n"),
                ""
            )
        };
        (
            bytes, $x:literal, $w:literal, $skip:literal,
            [$a00:literal, $a01:literal, $a10:literal, $a11:literal],
            [$a:literal, $b:literal, $c:literal, $d:literal, $e:literal, $f:literal]
            $(, until $end:literal)?
        ) => {
            step_2x2!(
                @pixels $x, $w, $skip, [$a00, $a01, $a10, $a11], [$a, $b, $c, $d, $e, $f],
                [$($end)?],
                // pixel 0's word, then its halves
                concat!("ldr ", $b, ", [", $x, "], #4\n"),
                concat!(
                    "sxtb16 ", $a, ", ", $b, "\n",
                    "sxtb16 ", $b, ", ", $b, ", ror #8\n",
                ),
                // pixel 1's
                concat!("ldr ", $b, ", [", $x, ", ", $skip, "]\n"),
                concat!(
                    "sxtb16 ", $a, ", ", $b, "\n",
                    "sxtb16 ", $b, ", ", $b, ", ror #8\n",
                )
            )
        };
        // `wide` and `bytes`: pixel 0 times both weight rows, then pixel 1
        (
            @pixels $x:literal, $w:literal, $skip:literal,
            [$a00:literal, $a01:literal, $a10:literal, $a11:literal],
            [$a:literal, $b:literal, $c:literal, $d:literal, $e:literal, $f:literal],
            [$($end:literal)?],
            $load0:expr, $widen0:expr, $load1:expr, $widen1:expr
        ) => {
            concat!(
                "ldr ", $d, ", [", $w, "], #4\n",
                "ldr ", $f, ", [", $w, ", ", $skip, "]\n",
                $load0,
                $(
                    "ldr ", $c, ", ", $end, "\n",
                    "cmp ", $x, ", ", $c, "\n",
                )?
                "sxtb16 ", $c, ", ", $d, "\n",
                "sxtb16 ", $d, ", ", $d, ", ror #8\n",
                "sxtb16 ", $e, ", ", $f, "\n",
                "sxtb16 ", $f, ", ", $f, ", ror #8\n",
                $widen0,
                "smlad ", $a00, ", ", $a, ", ", $c, ", ", $a00, "\n",
                "smlad ", $a00, ", ", $b, ", ", $d, ", ", $a00, "\n",
                "smlad ", $a01, ", ", $a, ", ", $e, ", ", $a01, "\n",
                "smlad ", $a01, ", ", $b, ", ", $f, ", ", $a01, "\n",
                $load1,
                $widen1,
                "smlad ", $a10, ", ", $a, ", ", $c, ", ", $a10, "\n",
                "smlad ", $a10, ", ", $b, ", ", $d, ", ", $a10, "\n",
                "smlad ", $a11, ", ", $a, ", ", $e, ", ", $a11, "\n",
                "smlad ", $a11, ", ", $b, ", ", $f, ", ", $a11, "\n",
            )
        };
        // both pixels' halves in one `LDM`, then weight row 0 times both
        // pixels, then row 1
        (
            wide_ldm, $x:literal, $w:literal, $skip:literal,
            [$a00:literal, $a01:literal, $a10:literal, $a11:literal],
            [$a:literal, $b:literal, $c:literal, $d:literal, $e:literal, $f:literal]
            $(, until $end:literal)?
        ) => {
            concat!(
                "ldm ", $x, "!, {{", $a, ", ", $b, ", ", $c, ", ", $d, "}}\n",
                "ldr ", $f, ", [", $w, "], #4\n",
                $(
                    "ldr ", $e, ", ", $end, "\n",
                    "cmp ", $x, ", ", $e, "\n",
                )?
                step_2x2!(@weight $f, $e, [$a, $b] => $a00, [$c, $d] => $a10),
                "ldr ", $f, ", [", $w, ", ", $skip, "]\n",
                step_2x2!(@weight $f, $e, [$a, $b] => $a01, [$c, $d] => $a11),
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// One word of each pixel's row, `$a` (pixel 0) and `$b` (pixel 1),
    /// widened into their four halves (r0 … r3: pixel 0's bytes 0 and 2,
    /// its bytes 1 and 3, then pixel 1's, the layout every widened row
    /// has) and stored by one `STM` at `{o}`, which steps past them:
    /// [`widen_words`]' and [`widen_strided_words`]' word.
    #[rustfmt::skip]
    macro_rules! widen_store {
        ($a:literal, $b:literal) => {
            concat!(
                "sxtb16 r0, ", $a, "\n",
                "sxtb16 r1, ", $a, ", ror #8\n",
                "sxtb16 r2, ", $b, "\n",
                "sxtb16 r3, ", $b, ", ror #8\n",
                "stm {o}!, {{r0, r1, r2, r3}}",
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// The body of [`widen_rows`] (and of [`wide_pixels`]' pixel pairs):
    /// `$words` whole words of the rows at `$x0` and `$x1` widened into the
    /// `4 · $words` words at `$o`, an odd first word alone, then two words
    /// of each row a pass. In an `unsafe` block whose caller checked that
    /// the rows hold `4 · $words` bytes and `$o` that many words
    /// (word-aligned, as `STM` needs), `$words` at least 1; unaligned `LDR`
    /// is allowed on the Cortex-M4.
    macro_rules! widen_words {
        ($x0:expr, $x1:expr, $o:expr, $words:expr) => {{
            let words: usize = $words;
            let (mut p0, mut p1, mut o): (*const i8, *const i8, *mut MaybeUninit<u32>) =
                ($x0, $x1, $o);
            if words % 2 == 1 {
                asm!(
                    "ldr {a}, [{x0}], #4",
                    "ldr {b}, [{x1}], #4",
                    widen_store!("{a}", "{b}"),
                    x0 = inout(reg) p0,
                    x1 = inout(reg) p1,
                    o = inout(reg) o,
                    a = out(reg) _,
                    b = out(reg) _,
                    out("r0") _,
                    out("r1") _,
                    out("r2") _,
                    out("r3") _,
                    options(nostack, preserves_flags),
                );
            }
            if words >= 2 {
                asm!(
                    "2:",
                    "ldr {a}, [{x0}], #4",
                    "ldr {b}, [{x1}], #4",
                    "ldr {c}, [{x0}], #4",
                    "ldr {d}, [{x1}], #4",
                    widen_store!("{a}", "{b}"),
                    widen_store!("{c}", "{d}"),
                    "subs {n}, {n}, #1",
                    "bne 2b",
                    x0 = inout(reg) p0 => _,
                    x1 = inout(reg) p1 => _,
                    o = inout(reg) o => _,
                    n = inout(reg) words / 2 => _,
                    a = out(reg) _,
                    b = out(reg) _,
                    c = out(reg) _,
                    d = out(reg) _,
                    out("r0") _,
                    out("r1") _,
                    out("r2") _,
                    out("r3") _,
                    options(nostack),
                );
            }
        }};
    }

    #[cfg(shapecheck_dsp)]
    /// Two im2col rows of `4 · words` bytes each widened into `wide`,
    /// four words per 4 columns: row 0's bytes 0 and 2, its bytes 1 and
    /// 3, then row 1's the same (the halves [`mac_2x2_wide`] multiplies
    /// with the weights' `SXTB16` halves): two words of each row a pass,
    /// their loads in a row and each word's four halves stored by one `STM`
    /// (27 cycles per 8 columns, where a word a pass by `STRD`s took 34).
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
        // SAFETY: checked above: the rows' first `4 · words` bytes are
        // read and the first `4 · words` words of `wide` written
        unsafe { widen_words!(x0.as_ptr(), x1.as_ptr(), wide.as_mut_ptr(), words) };
        // SAFETY: the loop above wrote the first `4 · words` words of `wide`
        // (checked to hold them), which `MaybeUninit<u32>` lays out as `u32`s
        unsafe { core::slice::from_raw_parts(wide.as_ptr().cast::<u32>(), 4 * words) }
    }

    #[cfg(not(shapecheck_dsp))]
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

    #[cfg(shapecheck_dsp)]
    /// Every byte of `d` set to `v`, where `d` is a whole number of
    /// 16-byte steps (else nothing): per step four word stores in a run
    /// (unaligned ones are allowed on the Cortex-M4), 9 cycles with the
    /// loop's branch.
    pub(super) fn fill_steps(d: &mut [MaybeUninit<i8>], v: i8) {
        let steps = d.len() / 16;
        if steps == 0 || !d.len().is_multiple_of(16) {
            return;
        }
        let word = u32::from_ne_bytes([v as u8; 4]);
        // SAFETY: writes the `16 · steps = d.len()` bytes of `d`, four
        // words a step from its start, and nothing else
        unsafe {
            asm!(
                "2:",
                "str {v}, [{o}], #4",
                "str {v}, [{o}], #4",
                "str {v}, [{o}], #4",
                "str {v}, [{o}], #4",
                "subs {n}, {n}, #1",
                "bne 2b",
                o = inout(reg) d.as_mut_ptr() => _,
                n = inout(reg) steps => _,
                v = in(reg) word,
                options(nostack),
            );
        }
    }

    #[cfg(not(shapecheck_dsp))]
    /// [`super::arch`]'s `fill_steps` in plain Rust: the same bytes, the
    /// same check (nothing written unless `d` is whole 16-byte steps).
    pub(super) fn fill_steps(d: &mut [MaybeUninit<i8>], v: i8) {
        if d.len().is_multiple_of(16) {
            for b in d {
                b.write(v);
            }
        }
    }

    #[cfg(shapecheck_dsp)]
    /// [`direct_pixels`]' widening of a pixel pair (its plain-Rust form
    /// `widen_strided`): `$rows` pairs of runs of `$words` words from
    /// `$p0` and `$p1`, each next run `$skip` bytes past the end of the one before
    /// (the runs' step less their length), widened into the words at `$o`
    /// as [`widen_rows`] widens two rows. In an `unsafe` block whose caller
    /// checked that every run is inside the image and the `4 · $words ·
    /// $rows` words at `$o` (word-aligned) are its to write, `$words` and
    /// `$rows` at least 1.
    macro_rules! widen_strided_words {
        ($p0:expr, $p1:expr, $o:expr, $words:expr, $skip:expr, $rows:expr) => {
            asm!(
                "2:",
                // the run's pairs of words; the carry: an odd one first
                "lsrs {n}, {words}, #1",
                "bcc 4f",
                "ldr r1, [{p0}], #4",
                "ldr r3, [{p1}], #4",
                widen_store!("r1", "r3"),
                "4:",
                "cmp {n}, #0",
                "beq 5f",
                "3:",
                "ldr r1, [{p0}], #4",
                "ldr r3, [{p1}], #4",
                "ldr {a}, [{p0}], #4",
                "ldr {b}, [{p1}], #4",
                widen_store!("r1", "r3"),
                widen_store!("{a}", "{b}"),
                "subs {n}, {n}, #1",
                "bne 3b",
                "5:",
                "add {p0}, {p0}, {skip}",
                "add {p1}, {p1}, {skip}",
                "subs {rows}, {rows}, #1",
                "bne 2b",
                p0 = inout(reg) $p0 => _,
                p1 = inout(reg) $p1 => _,
                o = inout(reg) $o => _,
                words = in(reg) $words,
                skip = in(reg) $skip,
                rows = inout(reg) $rows => _,
                n = out(reg) _,
                a = out(reg) _,
                b = out(reg) _,
                out("r0") _,
                out("r1") _,
                out("r2") _,
                out("r3") _,
                options(nostack),
            )
        };
    }

    #[cfg(not(shapecheck_dsp))]
    /// `rows` pairs of runs of `words` words, pixel 0's from
    /// `image[from[0]]` and pixel 1's from `image[from[1]]`, each next run
    /// `step` bytes on, widened as [`widen_rows`] widens two rows into the
    /// front of `wide`, one run pair after another: the plain-Rust form of
    /// [`direct_pixels`]' widening (`widen_strided_words!` with the DSP
    /// extension). `false`, nothing written, unless all fits
    /// ([`strided_fits`]).
    pub(super) fn widen_strided(
        image: &[i8],
        from: [usize; 2],
        words: usize,
        step: usize,
        rows: usize,
        wide: &mut [MaybeUninit<u32>],
    ) -> bool {
        if !strided_fits(image.len(), from, words, step, rows, wide.len()) {
            return false;
        }
        let run = 4 * words;
        for (r, chunk) in wide.chunks_exact_mut(run).take(rows).enumerate() {
            let at = |f: usize| image.get(f + r * step..).unwrap_or(&[]);
            widen_rows(at(from[0]), at(from[1]), chunk, words);
        }
        true
    }

    /// What a pixel pair's strided widening (`widen_strided_words!`,
    /// `widen_strided`) reads and writes fits: `words` and `rows` are not 0, each pixel's
    /// last run (`4 · words` bytes from `from[i] + (rows − 1) · step`) ends
    /// inside an image of `image_len` bytes, and `wide` (`wide_len` words)
    /// holds `4 · words · rows` words.
    fn strided_fits(
        image_len: usize,
        from: [usize; 2],
        words: usize,
        step: usize,
        rows: usize,
        wide_len: usize,
    ) -> bool {
        let Some(run) = words.checked_mul(4) else {
            return false;
        };
        let inside = |f: usize| {
            (rows.max(1) - 1)
                .checked_mul(step)
                .and_then(|l| l.checked_add(f)?.checked_add(run))
                .is_some_and(|e| e <= image_len)
        };
        let fits = rows
            .checked_mul(run)
            .is_some_and(|n| n > 0 && n <= wide_len);
        words > 0 && rows > 0 && fits && inside(from[0]) && inside(from[1])
    }

    #[cfg(shapecheck_dsp)]
    /// `words` words (4 columns each) of the 2×2 block: the two pixels'
    /// rows widened by [`widen_rows`] (`4 · words` words), times the two
    /// weight rows of `ws`, the second `stride` bytes after the first
    /// (`stride ≥ 4`). One loop of two steps, a `wide` one and a `wide_ldm`
    /// one (whose `LDM` loads r4, r5, r8, r9), entered at the second for
    /// an odd `words`. Thirteen registers, the loop's end on the stack as
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
        let x = wide.as_ptr();
        let end = x.wrapping_add(4 * words);
        // SAFETY: checked above: `4 · words` words of `wide` (word-aligned,
        // as LDM and LDRD need) and `4 · words` bytes of each weight row
        // (row 1 at `stride`), which the loop reads a step (4 words, 4
        // bytes of each row) at a time until `end`. The stack is back where
        // it was at the end.
        unsafe {
            asm!(
                "push {{{e}}}",
                // an odd count: the first pass from the second step
                "cmp r4, #0",
                "bne 3f",
                "2:",
                step_2x2!(explicit wide),
                "3:",
                step_2x2!(explicit wide_ldm, until "[sp]"),
                "bne 2b",
                "add sp, sp, #4",
                inout("r11") x => _,
                w = inout(reg) ws.as_ptr() => _,
                e = inout(reg) end => _,
                skip = in(reg) stride - 4,
                inout("r0") a00,
                inout("r1") a01,
                inout("r2") a10,
                inout("r3") a11,
                inout("r4") words % 2 => _,
                out("r5") _,
                out("r8") _,
                out("r9") _,
                out("r10") _,
                options(readonly),
            );
        }
        [a00, a01, a10, a11]
    }

    #[cfg(not(shapecheck_dsp))]
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

    #[cfg(shapecheck_dsp)]
    /// `words` words (4 columns each) of the 2×2 block from the rows'
    /// starts: `xs`, `ws` hold both rows, the second `stride` bytes after
    /// the first, `4 · words` bytes each: one loop of two `bytes` steps,
    /// entered at the second for an odd `words`.
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
        if words == 0 {
            return acc;
        }
        let [mut a00, mut a01, mut a10, mut a11] = acc;
        let x = xs.as_ptr();
        let end = x.wrapping_add(4 * words);
        // SAFETY: the wrapper checked that both rows of `x` and of `w`
        // hold `4 · words` bytes (row 1 at `stride` from row 0), which the
        // loop reads a word of each at a time until `end`. The stack is
        // back where it was at the end.
        unsafe {
            asm!(
                "push {{{e}}}",
                // an odd count: the first pass from the second step
                "cmp {a}, #0",
                "bne 3f",
                "2:",
                step_2x2!(bytes),
                "3:",
                step_2x2!(bytes, until "[sp]"),
                "bne 2b",
                "add sp, sp, #4",
                x = inout(reg) x => _,
                w = inout(reg) ws.as_ptr() => _,
                e = inout(reg) end => _,
                skip = in(reg) stride.wrapping_sub(4),
                a00 = inout(reg) a00,
                a01 = inout(reg) a01,
                a10 = inout(reg) a10,
                a11 = inout(reg) a11,
                a = inout(reg) words % 2 => _,
                b = out(reg) _,
                c = out(reg) _,
                d = out(reg) _,
                f = out(reg) _,
                options(readonly),
            );
        }
        [a00, a01, a10, a11]
    }

    #[cfg(not(shapecheck_dsp))]
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

    #[cfg(shapecheck_dsp)]
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

    #[cfg(shapecheck_dsp)]
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

    #[cfg(shapecheck_dsp)]
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
                step_2x2!(bytes),
                step_2x2!(bytes, until "[sp, #4]"),
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

    #[cfg(not(shapecheck_dsp))]
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

    #[cfg(shapecheck_dsp)]
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

    #[cfg(not(shapecheck_dsp))]
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

    /// What `wide_run` (the `asm!` loop and its plain-Rust twin) reads and
    /// writes fits: `words` is non-zero, `wide` holds `4 · words` words,
    /// `w` the two weight rows (`4 · words` bytes each) of each of `pairs`
    /// channel pairs, and the `2 · pairs` output bytes from `at` and from
    /// `second` (if it is one) are inside an output of `out_len` bytes.
    fn wide_run_fits(
        wide: &[u32],
        words: usize,
        w: &[i8],
        pairs: usize,
        out_len: usize,
        at: usize,
        second: Option<usize>,
    ) -> bool {
        let fits = |start: usize| start.checked_add(2 * pairs).is_some_and(|e| e <= out_len);
        // `w.len() ≥ 8 · words · pairs`, in 64 bits (where the product of
        // two `usize`s does not overflow)
        let steps = words as u64 * pairs as u64;
        pairs > 0
            && words > 0
            && wide.len() >= 4 * words
            && (w.len() / 8) as u64 >= steps
            && fits(at)
            && second.is_none_or(fits)
    }

    #[cfg(shapecheck_dsp)]
    /// The end of a channel pair's stage in [`wide_run`]'s loop, `{e}` at
    /// its [`super::Requant4`]: with the clamp, the offset and the clamp's
    /// ends (words 8 to 10) into r8, r9 and r10 by three `LDR`s in a run;
    /// without it (`full`), the offset alone; then `{e}` past the stage's
    /// eleven words.
    macro_rules! pair_stage_end {
        (clamp) => {
            concat!(
                "ldr r8, [{e}, #32]\n",
                "ldr r9, [{e}, #36]\n",
                "ldr r10, [{e}, #40]\n",
                "add {e}, {e}, #44",
            )
        };
        (full) => {
            concat!("ldr r8, [{e}, #32]\n", "add {e}, {e}, #44")
        };
    }

    #[cfg(shapecheck_dsp)]
    /// [`wide_run`]'s clamp of the four output bytes (r0) to the ends in
    /// r9 and r10, in each byte; none (`full`) where the range is int8's.
    macro_rules! pair_clamp {
        (clamp) => {
            concat!(
                "ssub8 r1, r0, r9\n",
                "sel r0, r0, r9\n",
                "ssub8 r1, r0, r10\n",
                "sel r0, r10, r0",
            )
        };
        (full) => {
            "@ no clamp"
        };
    }

    #[cfg(shapecheck_dsp)]
    /// Where [`pairs_loop`]'s first pass of eight steps enters, for each
    /// channel pair: at step (−words) mod 8 = 7 − r, r = (words − 1) mod
    /// 8 read from bits 2 to 4 of `{skip}` = 4 · words − 4, by a table of
    /// halfword branch offsets (`table`: `TBH`, 2 instructions, 5
    /// cycles); or, where `words` is a multiple of 8, at its first step,
    /// the next instruction (`whole`: none).
    #[rustfmt::skip]
    macro_rules! pair_entry {
        (table) => {
            concat!(
                "ubfx r4, {skip}, #2, #3\n",
                "tbh [pc, r4, lsl #1]\n",
                "13:\n",
                ".hword (12f - 13b) / 2\n",
                ".hword (9f - 13b) / 2\n",
                ".hword (8f - 13b) / 2\n",
                ".hword (7f - 13b) / 2\n",
                ".hword (6f - 13b) / 2\n",
                ".hword (5f - 13b) / 2\n",
                ".hword (4f - 13b) / 2\n",
                ".hword (3f - 13b) / 2",
            )
        };
        (whole) => {
            "@ whole passes: in at the first step"
        };
    }

    #[cfg(shapecheck_dsp)]
    /// [`pairs_loop`] in the form a layer's stages and depth ask for: the
    /// clamp where `$clamps` (its range not int8's own), the first pass
    /// entered with no `TBH` where `$columns` is a multiple of 8 (`whole`
    /// passes); `$skip` is `4 · $columns − 4`. The one dispatch of
    /// [`wide_run`], [`wide_pixels`] and [`direct_pixels`].
    macro_rules! pairs_loop_for {
        ($clamps:expr, $columns:expr, $frame:expr, $w:expr, $stages:expr, $skip:expr) => {
            match ($clamps, $columns % 8 == 0) {
                (true, false) => pairs_loop!(clamp, table, $frame, $w, $stages, $skip),
                (false, false) => pairs_loop!(full, table, $frame, $w, $stages, $skip),
                (true, true) => pairs_loop!(clamp, whole, $frame, $w, $stages, $skip),
                (false, true) => pairs_loop!(full, whole, $frame, $w, $stages, $skip),
            }
        };
    }

    #[cfg(shapecheck_dsp)]
    /// [`wide_run`]'s loop over the channel pairs (and [`wide_pixels`]'
    /// for each pixel pair), with the clamp to `[lo, hi]` in each byte
    /// (`clamp`) or without it (`full`: the range is int8's, which `SSAT`
    /// gave: a ReLU whose zero point is −128, or none), its first pass
    /// entered as `pair_entry!($entry)` says: `$frame` the
    /// loop's six words (see [`wide_run`]), `$w` the weights, `$stages`
    /// the pairs' stages, `$skip` `4 · words − 4`. In an `unsafe` block
    /// whose caller checked what it reads and writes.
    macro_rules! pairs_loop {
        ($clamp:ident, $entry:ident, $frame:expr, $w:expr, $stages:expr, $skip:expr) => {
                asm!(
                    // explicit registers (in ascending order where an LDM loads
                    // them): a00 … a11 in r0 … r3; scratch a, b, c, d, f, g in
                    // r4, r5, r8, r9, r10, r7; x in r11
                    // the frame onto the stack with r7 (LLVM's frame pointer,
                    // a scratch register here, restored at the end) above it:
                    // one `LDM` and one `PUSH`
                    "ldm r11, {{r0, r1, r2, r3, r4, r5}}",
                    "push {{r0, r1, r2, r3, r4, r5, r7}}",
                    // the rows' start (then from each pair's `LDM` of the frame)
                    "ldr r11, [sp, #12]",
                    "2:",
                    // the pair's four constants in one LDM: `{e}` on to its
                    // stage (16)
                    "ldm {e}!, {{r0, r1, r2, r3}}",
                    "str {e}, [sp, #20]",
                    // eight `wide7` steps a pass, the first one entered
                    // where `pair_entry!($entry)` says
                    pair_entry!($entry),
                    "3:",
                    step_2x2!(explicit7 wide7),
                    "4:",
                    step_2x2!(explicit7 wide7),
                    "5:",
                    step_2x2!(explicit7 wide7),
                    "6:",
                    step_2x2!(explicit7 wide7),
                    "7:",
                    step_2x2!(explicit7 wide7),
                    "8:",
                    step_2x2!(explicit7 wide7),
                    "9:",
                    step_2x2!(explicit7 wide7),
                    "12:",
                    step_2x2!(explicit7 wide7, until "[sp, #16]"),
                    "bne 3b",
                    "ldr {e}, [sp, #20]",
                    "add {w}, {w}, {skip}",
                    "add {w}, {w}, #4",
                    // the pair's two channels' multipliers and shifts (the
                    // stage's first four words; pixel 1's channels, its next
                    // four, are the same two) in one LDM, each pixel's outputs
                    // scaled by them
                    "ldm {e}, {{r4, r5, r8, r9}}",
                    "smmlar r0, r0, r4, r0",
                    "smmlar r1, r1, r8, r1",
                    "smmlar r2, r2, r4, r2",
                    "smmlar r3, r3, r8, r3",
                    "add r0, r0, r0, asr #31",
                    "add r1, r1, r1, asr #31",
                    "add r2, r2, r2, asr #31",
                    "add r3, r3, r3, asr #31",
                    "asr r0, r0, r5",
                    "asr r1, r1, r9",
                    "asr r2, r2, r5",
                    "asr r3, r3, r9",
                    // the offset (and the clamp's ends), `{e}` on to the
                    // next pair's constants
                    pair_stage_end!($clamp),
                    // `+ 1 + 2 · zero point` (r8), the halving narrow
                    "qadd r0, r0, r8",
                    "ssat r0, #8, r0, asr #1",
                    "qadd r1, r1, r8",
                    "ssat r1, #8, r1, asr #1",
                    "qadd r2, r2, r8",
                    "ssat r2, #8, r2, asr #1",
                    "qadd r3, r3, r8",
                    "ssat r3, #8, r3, asr #1",
                    "bfi r0, r1, #8, #8",
                    "bfi r0, r2, #16, #8",
                    "bfi r0, r3, #24, #8",
                    pair_clamp!($clamp),
                    // pixel 1's two bytes to r1; one LDM of the frame: pixel
                    // 0's output (r4), from there pixel 1's (r5), the stages'
                    // end (r8), the rows' start for the next pair (r11)
                    "lsr r1, r0, #16",
                    "ldm sp, {{r4, r5, r8, r11}}",
                    "strh r0, [r4], #2",
                    "str r4, [sp]",
                    "strh r1, [r4, r5]",
                    "cmp {e}, r8",
                    "bne 2b",
                    // the frame dropped, r7 restored
                    "add sp, sp, #24",
                    "pop {{r7}}",
                    inout("r11") $frame.as_ptr() => _,
                    w = inout(reg) $w.as_ptr() => _,
                    e = inout(reg) $stages.as_ptr() => _,
                    skip = in(reg) $skip,
                    out("r0") _,
                    out("r1") _,
                    out("r2") _,
                    out("r3") _,
                    out("r4") _,
                    out("r5") _,
                    out("r8") _,
                    out("r9") _,
                    out("r10") _,
                )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// Every channel pair of `stages` (rows of `w`, `4 · words` bytes
    /// each, two per pair) times the two pixels' rows widened in `wide`
    /// ([`widen_rows`]), with the output stage, in one loop: per pair the
    /// constants (one `LDM`), passes of eight `wide7` steps (`step_2x2!`:
    /// 146 instructions and 157 cycles for 128 multiply-accumulates, each
    /// step's six words in one pipelined run, where five `wide` and three
    /// `wide_ldm` steps, with six scratch registers, took 133 and 168; the
    /// first pass enters at step `(−words) mod 8` by a `TBH`, or at its
    /// first step with no branch where `words` is a multiple of 8:
    /// [`pair_entry`]),
    /// the stage of [`requant4`] with the pair's two channels read once
    /// (words 0 to 3 in one `LDM`, for both pixels: a [`super::PairStage`]'s
    /// channels are `c, c + 1, c, c + 1`; 8 cycles where all eleven words by
    /// two `LDM`s took 12) and two halfword stores, pixel 0's at `out[at + 2j]`, pixel 1's at
    /// `out[second + 2j]` (without a second pixel, over pixel 0's: the
    /// callers then pass pixel 0's row twice). Fourteen registers: the
    /// thirteen `asm!` may name and r7, LLVM's frame pointer, which the
    /// loop pushes with its frame and pops at its end (nothing in the loop
    /// calls or unwinds); the loop's pointers on 24 bytes of stack, the four a pair needs (pixel
    /// 0's output, pixel 1's offset from it, the stages' end, the rows'
    /// start) in one `LDM`. `false` (nothing written) unless `words` is
    /// non-zero and the slices hold all that.
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
        if !wide_run_fits(wide, words, w, n, out.len(), at, second) {
            return false;
        }
        // without a second pixel its row is the first's (the callers copy
        // it): its outputs are the first's, written over them
        let base = out.as_mut_ptr();
        let out0 = base.wrapping_add(at);
        let out1 = base.wrapping_add(second.unwrap_or(at));
        let x = wide.as_ptr();
        // the loop's frame, read by one `LDM` per pair (its first four
        // words) and by the steps (the rows' end): pixel 0's next output,
        // from there pixel 1's (past pixel 0's two bytes: − 2, wrapping),
        // the stages' end, the rows' start and end, and `{e}` saved
        let frame: [usize; 6] = [
            out0 as usize,
            (out1 as usize).wrapping_sub(out0 as usize).wrapping_sub(2),
            stages.as_ptr().wrapping_add(n) as usize,
            x as usize,
            x.wrapping_add(4 * words) as usize,
            0,
        ];
        // one layer's output stage: every pair's clamp is the same
        let clamps = stages.first().is_some_and(|s| s.requant.clamps());
        // SAFETY: checked above: each pair's two weight rows (`2k` bytes
        // from its start, the pairs one after another) are inside `w`, the
        // `4 · words` words of `wide` (word-aligned, as LDM needs) inside
        // it, and the `2n` bytes written from `out0` and from `out1` are
        // inside `out`. The stages are read at
        // their repr(C) offsets, word-aligned. The frame is copied to 24
        // bytes of stack, r7 above it, and both the stack pointer and r7
        // (a register no operand may name, used as scratch) restored at the
        // end. The clamp's two words are read,
        // past over, where it is not int8's own range (a no-op after `SSAT`).
        unsafe { pairs_loop_for!(clamps, words, frame, w, stages, k - 4) }
        true
    }

    #[cfg(not(shapecheck_dsp))]
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
        if !wide_run_fits(wide, words, w, stages.len(), out.len(), at, second) {
            return false;
        }
        let k = 4 * words;
        for ((pair, ps), c) in w.chunks_exact(2 * k).zip(stages).zip((0..).step_by(2)) {
            let acc = mac_2x2_wide(wide, pair, k, words, ps.constant);
            // the pair's two channels for both pixels, as the `asm!` reads them
            let requant = ps.requant.first_pair();
            let [b0, b1, b2, b3] = requant4(acc, &requant).to_le_bytes();
            if let Some(o) = out.get_mut(at + c..at + c + 2) {
                o.copy_from_slice(&[b0 as i8, b1 as i8]);
            }
            if let Some(o) = second.and_then(|s| out.get_mut(s + c..s + c + 2)) {
                o.copy_from_slice(&[b2 as i8, b3 as i8]);
            }
        }
        true
    }

    /// What [`wide_pixels`] (both its forms) reads and writes fits,
    /// checked once for all its pixel pairs:
    /// `words` is non-zero, `x` is whole pixels of `4 · words` bytes (at
    /// least one), `wide` holds `4 · words` words, `w` the two weight rows
    /// of each of the `pairs` channel pairs, and pixel `p`'s `2 · pairs`
    /// output bytes from `p · channels + first` are inside `out_len` bytes
    /// (the last pixel's the farthest). The pixels, if it fits.
    fn wide_pixels_fit(
        x: &[i8],
        words: usize,
        wide_len: usize,
        w: &[i8],
        pairs: usize,
        (out_len, channels, first): (usize, usize, usize),
    ) -> Option<usize> {
        let depth = words.checked_mul(4)?;
        let pixels = x.len().checked_div(depth)?;
        // `w.len() ≥ 8 · words · pairs`, in 64 bits (where the product of
        // two `usize`s does not overflow)
        let steps = words as u64 * pairs as u64;
        let last = pixels
            .checked_sub(1)?
            .checked_mul(channels)?
            .checked_add(first)?
            .checked_add(pairs.checked_mul(2)?)?;
        (pairs > 0
            && x.len().is_multiple_of(depth)
            && wide_len >= depth
            && (w.len() / 8) as u64 >= steps
            && last <= out_len)
            .then_some(pixels)
    }

    /// [`wide_run`] over every pixel pair of `x` (pixels of `4 · words`
    /// bytes, the last one alone where their count is odd), pixel `p`'s
    /// outputs at `out[p · channels + first + 2j]` for channel pair `j`:
    /// per pair its rows widened into `wide` ([`widen_rows`]' loop) and
    /// every channel pair in one loop, everything checked once (about 40
    /// cycles a pixel pair around the two loops, where a call of each per
    /// pixel pair took about 200). `false` (nothing written) unless it
    /// fits ([`wide_pixels_fit`]). One function for both forms: the
    /// check, then with the DSP extension the `asm!` loops
    /// ([`widen_words`], [`pairs_loop`]) per pair, without it their
    /// plain-Rust twins ([`widen_rows`], [`wide_run`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn wide_pixels(
        x: &[i8],
        words: usize,
        wide: &mut [MaybeUninit<u32>],
        w: &[i8],
        stages: &[super::PairStage],
        out: &mut [i8],
        channels: usize,
        first: usize,
    ) -> bool {
        let n = stages.len();
        let fit = wide_pixels_fit(x, words, wide.len(), w, n, (out.len(), channels, first));
        let Some(pixels) = fit else {
            return false;
        };
        let depth = 4 * words;
        #[cfg(shapecheck_dsp)]
        {
            let clamps = stages.first().is_some_and(|s| s.requant.clamps());
            let (xs, o, rows) = (x.as_ptr(), out.as_mut_ptr(), wide.as_mut_ptr());
            let stages_end = stages.as_ptr().wrapping_add(n) as usize;
            let mut p = 0;
            while p < pixels {
                // the pair's second pixel, or its first again (the last of
                // an odd count: its outputs written twice, the same)
                let q = if p + 1 < pixels { p + 1 } else { p };
                let (out0, out1) = (
                    o.wrapping_add(p * channels + first),
                    o.wrapping_add(q * channels + first),
                );
                let frame: [usize; 6] = [
                    out0 as usize,
                    (out1 as usize).wrapping_sub(out0 as usize).wrapping_sub(2),
                    stages_end,
                    rows as usize,
                    rows.wrapping_add(words * 4) as usize,
                    0,
                ];
                // SAFETY: checked once above (`wide_pixels_fit`): pixels
                // `p` and `q` (both below `pixels`) are `depth` bytes of
                // `x` each, their `4 · words` widened words fit in `wide`
                // (word-aligned, as `STM` and `LDM` need), each channel
                // pair's two weight rows are inside `w` and the `2n` bytes
                // written from `out0` and from `out1` inside `out` (the
                // last pixel's the farthest). The stages are read at their
                // repr(C) offsets, word-aligned. The frame is copied to 24
                // bytes of stack, r7 above it, and both the stack pointer
                // and r7 restored at the end; the clamp's two words read
                // where it is not int8's own range (a no-op after `SSAT`).
                unsafe {
                    let (x0, x1) = (xs.wrapping_add(p * depth), xs.wrapping_add(q * depth));
                    widen_words!(x0, x1, rows, words);
                    pairs_loop_for!(clamps, words, frame, w, stages, depth - 4)
                }
                p += 2;
            }
        }
        #[cfg(not(shapecheck_dsp))]
        for p in (0..pixels).step_by(2) {
            let q = (p + 1).min(pixels - 1);
            let row = |i: usize| x.get(i * depth..(i + 1) * depth).unwrap_or(&[]);
            let rows = widen_rows(row(p), row(q), wide, words);
            let second = (q > p).then_some(q * channels + first);
            if !wide_run(rows, words, w, stages, out, p * channels + first, second) {
                return false;
            }
        }
        true
    }

    /// What [`direct_pixels`] (both its forms) reads and writes fits,
    /// checked once for all its pixels: at least one pixel, the first and the last pixel's runs (`rows` runs of
    /// `words` words, `step` bytes apart, the last pixel's first at
    /// `from + (pixels − 1) · pixel_step`) inside `image` (the pixels
    /// between lie between them), `wide` holds their `4 · words · rows`
    /// words, `w` the two weight rows of each of the `pairs` channel
    /// pairs, and the last pixel's `2 · pairs` output bytes (from
    /// `at + (pixels − 1) · channels`) are inside `out_len` bytes.
    #[allow(clippy::too_many_arguments)]
    fn direct_pixels_fit(
        image_len: usize,
        (from, pixel_step, pixels): (usize, usize, usize),
        (words, step, rows): (usize, usize, usize),
        wide_len: usize,
        w: &[i8],
        pairs: usize,
        (out_len, at, channels): (usize, usize, usize),
    ) -> bool {
        let Some(last) = pixels.checked_sub(1) else {
            return false;
        };
        let last_from = last
            .checked_mul(pixel_step)
            .and_then(|v| v.checked_add(from));
        let last_out = last
            .checked_mul(channels)
            .and_then(|v| v.checked_add(at)?.checked_add(pairs.checked_mul(2)?));
        // `w.len() ≥ 8 · words · rows · pairs`, in 64 bits
        let steps = words as u64 * rows as u64 * pairs as u64;
        last_from.is_some_and(|l| strided_fits(image_len, [from, l], words, step, rows, wide_len))
            && last_out.is_some_and(|e| e <= out_len)
            && pairs > 0
            && (w.len() / 8) as u64 >= steps
    }

    /// The strided widening and [`wide_run`] over consecutive pixels of an
    /// output row whose taps are all inside the image (an im2col
    /// convolution's, each filter row a run of whole words): pixel `p`'s
    /// runs from `image[from + p · pixel_step]` (`rows` runs of `words`
    /// words, `step` bytes apart), its outputs at `out[at + p · channels +
    /// 2j]` for channel pair `j`; by pairs of pixels (the last one alone
    /// where their count is odd), everything checked once (where a call
    /// of each per pixel pair, with its checks, took about 230 cycles).
    /// `false` (nothing written) unless it fits ([`direct_pixels_fit`]).
    /// One function for both forms: the check, then with the DSP extension
    /// the `asm!` loops ([`widen_strided_words`], [`pairs_loop`]) per pair,
    /// without it their plain-Rust twins ([`super::widen_runs`],
    /// [`wide_run`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn direct_pixels(
        image: &[i8],
        (from, pixel_step, pixels): (usize, usize, usize),
        (words, step, rows): (usize, usize, usize),
        wide: &mut [MaybeUninit<u32>],
        w: &[i8],
        stages: &[super::PairStage],
        out: &mut [i8],
        (at, channels): (usize, usize),
    ) -> bool {
        let n = stages.len();
        if !direct_pixels_fit(
            image.len(),
            (from, pixel_step, pixels),
            (words, step, rows),
            wide.len(),
            w,
            n,
            (out.len(), at, channels),
        ) {
            return false;
        }
        // the pair loop's columns: every run's words, one after another
        let columns = words * rows;
        #[cfg(shapecheck_dsp)]
        {
            let k = 4 * columns;
            let clamps = stages.first().is_some_and(|s| s.requant.clamps());
            let (base, o, cols) = (image.as_ptr(), out.as_mut_ptr(), wide.as_mut_ptr());
            let stages_end = stages.as_ptr().wrapping_add(n) as usize;
            let skip = step.wrapping_sub(4 * words);
            let mut p = 0;
            while p < pixels {
                let q = if p + 1 < pixels { p + 1 } else { p };
                let (out0, out1) = (
                    o.wrapping_add(at + p * channels),
                    o.wrapping_add(at + q * channels),
                );
                let frame: [usize; 6] = [
                    out0 as usize,
                    (out1 as usize).wrapping_sub(out0 as usize).wrapping_sub(2),
                    stages_end,
                    cols as usize,
                    cols.wrapping_add(k) as usize,
                    0,
                ];
                // SAFETY: checked once above (`direct_pixels_fit`): pixels
                // `p` and `q` (both below `pixels`) have their runs inside
                // `image` (between the first pixel's and the last's),
                // their `4 · columns` widened words fit in `wide`
                // (word-aligned, as `STM` and `LDM` need), each channel
                // pair's two weight rows of `k` bytes are inside `w`, and
                // the `2n` bytes written from `out0` and from `out1` inside
                // `out`. The stages are read at their repr(C) offsets,
                // word-aligned; the frame is copied to 24 bytes of stack,
                // r7 above it, both restored at the end.
                unsafe {
                    let (x0, x1) = (
                        base.wrapping_add(from + p * pixel_step),
                        base.wrapping_add(from + q * pixel_step),
                    );
                    widen_strided_words!(x0, x1, cols, words, skip, rows);
                    pairs_loop_for!(clamps, columns, frame, w, stages, k - 4)
                }
                p += 2;
            }
        }
        #[cfg(not(shapecheck_dsp))]
        for p in (0..pixels).step_by(2) {
            let q = (p + 1).min(pixels - 1);
            let pixel = |i: usize| from + i * pixel_step;
            let cols = super::widen_runs(image, [pixel(p), pixel(q)], 4 * words, step, rows, wide);
            let second = (q > p).then_some(at + q * channels);
            if !wide_run(cols, columns, w, stages, out, at + p * channels, second) {
                return false;
            }
        }
        true
    }

    #[cfg(shapecheck_dsp)]
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

    #[cfg(not(shapecheck_dsp))]
    /// [`super::arch`]'s `sum_words` in plain Rust.
    pub(super) fn sum_words(row: &[i8], words: usize) -> i32 {
        if row.len() < 4 * words {
            return 0;
        }
        row.iter()
            .take(4 * words)
            .fold(0i32, |s, &v| s.wrapping_add(i32::from(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::dsp::tests::case;
    use crate::{quantize_multiplier, Conv2dDims, Conv2dParams, Rounding};
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    proptest! {
        #[test]
        fn copy_run_copies_every_byte_or_none(
            source in proptest::collection::vec(any::<i8>(), 0..40),
            short in 0usize..3,
        ) {
            // as long: every byte, for every length through the word pairs'
            // overlaps (4 … 8, 9 … 16) and past them
            let mut d = std::vec![0x55i8; source.len()];
            copy_run(&mut d, &source);
            prop_assert_eq!(&d, &source);
            // shorter by `short` (if that is not none): nothing written
            if short > 0 && source.len() >= short {
                let mut d = std::vec![0x55i8; source.len() - short];
                copy_run(&mut d, &source);
                prop_assert!(d.iter().all(|&v| v == 0x55));
            }
        }

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
            let took = conv_im2col(&image, &filter, bias, None, &dims, &params, &stage, &mut got).is_some();
            prop_assert_eq!(took, kh * kw * depth <= IM2COL_MAX);
            if took {
                prop_assert_eq!(&got, &want);
            }
            // with the layer's stages prepared once (`conv_prepare`): every
            // channel in one group, the same outputs
            let mut stages = std::vec![ConvPairStage { constant: [0; 4], requant: [0; 11] }; pairs];
            // (every multiplier here is below 1: a stage the loops take)
            prop_assert!(crate::conv_prepare(&filter, bias, dims, &params, &mut stages).is_ok());
            let mut got = std::vec![0i8; batches * oh * ow * c];
            let took = conv_im2col(&image, &filter, bias, Some(&stages), &dims, &params, &stage, &mut got).is_some();
            prop_assert_eq!(took, kh * kw * depth <= IM2COL_MAX);
            if took {
                prop_assert_eq!(&got, &want);
            }
        }
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
            prop_assert!(matmul(&x, &w, bias.as_deref(), depth, zp, &multipliers, &stage, None, &mut got).is_some());
            prop_assert_eq!(got, want);
        }
    }
}
