//! The depthwise convolution's DSP loops (issue 64; one home per kernel,
//! issue 69):
//!
//! - [`depthwise`]: four channels a word; a 3×3 filter's taps widened once
//!   per channel group into a table read by `LDRD`, the input's zero point
//!   folded into a per-channel constant for each set of taps inside, one
//!   block of 8 instructions a tap for each pixel;
//! - [`depthwise_as_conv`]: one input channel, the convolution it is (the
//!   convolution's im2col, [`crate::ops::conv::dsp`]).
//!
//! Each `asm!` block (in `mod arch`, under `cfg(shapecheck_dsp)`) sits
//! beside its plain-Rust twin (`cfg(not(shapecheck_dsp))`): the host's unit
//! tests below run the twins, the firmware tests (embedded/tests/
//! dsp_kernels.rs) the asm, both against [`crate::reference`]. The portable
//! loop is in `mod.rs`; the output stage, the safety note and the
//! arithmetic's argument, shared by the kernels' DSP loops, in
//! [`crate::arith::dsp`].

use crate::arith::dsp::{widen, write4, Requant4};
use crate::arith::quant::{OutputStage, QuantizedMultiplier, Scale};
use crate::format::values::Values;
use crate::ops::conv::depthwise_conv::DepthwiseGroup;
use crate::ops::conv::dsp::conv_im2col;
use core::mem::MaybeUninit;

/// A depthwise convolution of one input channel (a first layer, person
/// detection's: 96×96×1, depth multiplier 8) as the convolution it is:
/// its filter `[1, h, w, M]` transposed into `[M, h, w, 1]` on the stack
/// (at most 1024 values), then [`conv_im2col`]. `None` as that, or for
/// more than one input channel.
pub(crate) fn depthwise_as_conv<B: Values<i32> + ?Sized>(
    input: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
    params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
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
    let conv_dims = crate::ops::conv::Conv2dDims {
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
    let conv_params = crate::ops::conv::Conv2dParams {
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
    conv_im2col(input, w, bias, None, &conv_dims, &conv_params, stage, out)
}

/// What [`arch::dw3x3_run`] reads of one channel group while it runs
/// over the runs of one class of pixels, at fixed offsets: the constants,
/// the output stage, and the runs' pointers and steps (filled in by it).
/// The widened filter is read where the group holds it (from the class's
/// first tap inside), not copied here.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Run3 {
    /// `bias − zero_point · Σ w` per channel (offset 0)
    constant: [i32; 4],
    /// the output stage (16)
    requant: Requant4,
    /// the output's next word and the run's end, the output's and the
    /// image's step from pixel to pixel (60)
    tail: [usize; 4],
    /// the current run's first image word, the image's step from run to
    /// run, the output's from a run's end to the next one's end and to
    /// the next one's start, the runs left after the current one (76)
    runs: [usize; 5],
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
///
/// The output's pixels lie `out_step` values apart (`depth` where the
/// output is the layer's own tensor; more where it is a group of channels
/// inside a wider one, which `out` starts at): pixel `p`'s channels at
/// `out[p · out_step..][..depth]`, and no other value of `out` written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn depthwise<B: Values<i32> + ?Sized>(
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
    params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    out_step: usize,
) -> Option<()> {
    depthwise_with(
        None, image, filter, bias, prepared, dims, params, stage, out, out_step,
    )
}

/// [`depthwise`] with the classes of its pixels made by the caller
/// (`given`: [`RunClasses::new`] of the same `dims`, strides, paddings,
/// dilations and `out_step`, once for a layer's many calls), or made
/// here (`None`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn depthwise_with<B: Values<i32> + ?Sized>(
    given: Option<&RunClasses>,
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
    params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    out: &mut [i8],
    out_step: usize,
) -> Option<()> {
    use crate::arith::window::Window;
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
        || out_step < depth
        || out.len()
            != out_len(
                dims.output_height.checked_mul(dims.output_width)?,
                depth,
                out_step,
            )?
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
    // another filter than 3×3 whose every window lies inside the image (a
    // VALID layer: the streaming wake word's k×1): no window per pixel
    if !three {
        let prepared = prepared.filter(|p| p.len() == depth / 4);
        let lines = Lines {
            column,
            row,
            offset,
        };
        let inside = depthwise_inside(
            image, filter, bias, prepared, dims, params, stage, &scale, lines, out, out_step,
        );
        if inside.is_some() {
            return inside;
        }
    }
    // the filter's step from one row of taps to the next
    let filter_row = dims.filter_width.checked_mul(depth)?;
    // the prepared groups, where there is one per group of 4 channels
    let prepared = prepared.filter(|p| p.len() == depth / 4);
    // the classes the DSP runs take: the caller's (made once per layer)
    // or made here, once per call
    let mut made;
    let (classes, (runs_apply, rows_complete, cols_complete)) = match given {
        Some(runs) => (
            &runs.classes,
            (runs.runs_apply, runs.rows_complete, runs.cols_complete),
        ),
        None => {
            made = [None; 9];
            let flags = RunClasses::fill(&mut made, dims, params, out_step)?;
            (&made, flags)
        }
    };
    // the runs' state, once a call (each group its constants and output
    // stage, each class's runs their pointers and steps)
    let mut st = Run3 {
        constant: [0; 4],
        requant: Requant4::from_words([0; 11]),
        tail: [0; 4],
        runs: [0; 5],
    };
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
        // made once per call, above), the table read from its first tap
        if let Some(requant) = requant.filter(|_| runs_apply) {
            st.requant = requant;
            for k in classes.iter().flatten() {
                st.constant = *constants.get(k.rc)?.get(k.cc)?;
                let from = table.get(2 * k.tap..)?;
                class_runs(image, out, &mut st, from, k, c, column, row)?;
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
            // a row of a class whose every column has one: the runs
            // computed all of it
            if runs_done && cols_complete && row_class.is_some() {
                continue;
            }
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
                                acc = arch::tap_line(xs, x_tap, fs, f_tap, n, offset, acc)?;
                                xs = xs.get(x_run..).unwrap_or(&[]);
                                fs = fs.get(f_run..).unwrap_or(&[]);
                            }
                            acc
                        }
                        // no tap inside: the bias alone
                        _ => bias4,
                    },
                };
                let at = (oy * dims.output_width + ox) * out_step + c;
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

/// Which taps of a 3×3 window are inside: all (class 0), all but the
/// first (1), all but the last (2), with the input position of the first
/// tap inside; `None` for any other window.
#[inline(always)]
fn class(w: crate::arith::window::Window) -> Option<(usize, usize)> {
    match (w.taps().next(), w.len()) {
        (Some((0, at)), 3) => Some((0, at)),
        (Some((1, at)), 2) => Some((1, at)),
        (Some((0, at)), 2) => Some((2, at)),
        _ => None,
    }
}

/// The classes of a layer's pixels that [`depthwise`]'s DSP runs take
/// (rows × columns with the same 3×3 taps inside), each with its runs'
/// geometry, and whether they are every row and every column: a function
/// of the layer's dims, strides, paddings, dilations and output step
/// alone, the same for every group of channels and every call on the
/// same dims. [`depthwise`] makes them once per call; a caller whose
/// layer is many calls of one group each (a depthwise layer in place)
/// makes them once and passes them ([`depthwise_with`]).
#[derive(Clone, Copy)]
pub(crate) struct RunClasses {
    classes: [Option<ClassRuns>; 9],
    runs_apply: bool,
    rows_complete: bool,
    cols_complete: bool,
}

impl RunClasses {
    /// No class (every pixel on the general path), to be made by
    /// [`RunClasses::make`].
    pub(crate) const NONE: RunClasses = RunClasses {
        classes: [None; 9],
        runs_apply: false,
        rows_complete: false,
        cols_complete: false,
    };

    /// The classes of a layer of `dims` and `params` whose output's
    /// pixels lie `out_step` values apart; `None` if a size overflows.
    pub(crate) fn new(
        dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
        params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
        out_step: usize,
    ) -> Option<Self> {
        let mut made = RunClasses::NONE;
        let (runs_apply, rows_complete, cols_complete) =
            RunClasses::fill(&mut made.classes, dims, params, out_step)?;
        made.runs_apply = runs_apply;
        made.rows_complete = rows_complete;
        made.cols_complete = cols_complete;
        Some(made)
    }

    /// [`RunClasses::new`]'s classes written into `classes` (all `None`
    /// before), its flags returned: `(runs_apply, rows_complete,
    /// cols_complete)`. Inlined into [`depthwise_with`], over a local
    /// array: returned by value, or as a struct made in place, its 470
    /// bytes cost a copy or a clear each call. `None` if a size
    /// overflows.
    #[inline(always)]
    fn fill(
        classes: &mut [Option<ClassRuns>; 9],
        dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
        params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
        out_step: usize,
    ) -> Option<(bool, bool, bool)> {
        use crate::arith::window::Window;
        let depth = dims.input_depth;
        let three = dims.filter_height == 3 && dims.filter_width == 3;
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
            // the last output whose window is whole: `o · stride + 2 ·
            // dilation ≤ pad + size − 1` (every one between two whole windows
            // is whole: they move monotonically)
            let last_whole = pad
                .checked_add(size)
                .and_then(|v| v.checked_sub(1 + 2 * dilation.max(1)))
                .and_then(|v| v.checked_div(stride));
            let mut complete = true;
            let mut o = 0;
            while o < n {
                let mut next = o + 1;
                match class(Window::new(o, stride, pad, dilation, 3, size)) {
                    Some((k, at)) => {
                        // a whole window: on to the last whole one at once, if
                        // it is one (no window computed between)
                        if let Some(last) = last_whole.filter(|&l| k == 0 && l > o && l < n) {
                            let whole = Window::new(last, stride, pad, dilation, 3, size);
                            if matches!(class(whole), Some((0, _))) {
                                next = last + 1;
                            }
                        }
                        match spans.get_mut(k) {
                            Some(Some(span)) if span.1 == o => span.1 = next,
                            Some(span @ None) => *span = Some((o, next, at)),
                            // not a range: no runs at all (never seen)
                            _ => return ([None; 3], false, false),
                        }
                    }
                    None => complete = false,
                }
                o = next;
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
        let out_rows = dims.output_width.checked_mul(out_step)?;
        // the image's step from one output column to the next
        let pixel_step = params.stride_width.checked_mul(depth)?;
        // the classes of pixels the DSP runs take (rows × columns with the same
        // taps inside), once per call: the classes whose first tap inside is
        // the filter's first (the table as it is), then those that start at
        // its second tap, its fourth and its fifth (CLASS_ORDER)
        let runs_apply = three && rows_ranges && cols_ranges;
        if runs_apply {
            for (slot, (rc, cc)) in classes.iter_mut().zip(CLASS_ORDER) {
                let (Some(Some((oy0, oy1, iy0))), Some(Some((ox0, ox1, ix0)))) =
                    (row_spans.get(rc).copied(), col_spans.get(cc).copied())
                else {
                    continue;
                };
                let (n_rows, n_cols) = (oy1 - oy0, ox1 - ox0);
                // runs along the class's longer side
                let (runs, pixels, (image_run, out_run), (image_pixel, out_pixel)) =
                    if n_cols >= n_rows {
                        (
                            n_rows,
                            n_cols,
                            (image_rows, out_rows),
                            (pixel_step, out_step),
                        )
                    } else {
                        (
                            n_cols,
                            n_rows,
                            (pixel_step, out_step),
                            (image_rows, out_rows),
                        )
                    };
                // the spans of its runs (`None`, before anything is written,
                // if one overflows: never seen)
                *slot = Some(ClassRuns::new(
                    (rc, cc),
                    runs,
                    pixels,
                    [image_run, out_run, image_pixel, out_pixel],
                    (iy0 * dims.input_width + ix0) * depth,
                    (oy0 * dims.output_width + ox0) * out_step,
                )?);
            }
        }
        Some((runs_apply, rows_complete, cols_complete))
    }
}

/// The length of an output of `pixels` pixels of `depth` values each, the
/// pixels `out_step` values apart: the last pixel ends the slice (0 for no
/// pixel); `None` if it overflows.
#[inline(always)]
pub(crate) fn out_len(pixels: usize, depth: usize, out_step: usize) -> Option<usize> {
    match pixels.checked_sub(1) {
        Some(last) => last.checked_mul(out_step)?.checked_add(depth),
        None => Some(0),
    }
}

/// The bias of channels `c … c + 3` (0 without one, or past its end).
#[inline(always)]
fn group_bias<B: Values<i32> + ?Sized>(bias: Option<&B>, c: usize) -> [i32; 4] {
    let at = |c: usize| bias.and_then(|b| b.at(c)).unwrap_or(0);
    [at(c), at(c + 1), at(c + 2), at(c + 3)]
}

/// The set-up of channels `c … c + 3` of [`depthwise`], the same for
/// every band of a layer: the bias; for a 3×3 filter, its nine words
/// widened (bytes 0, 2 and 1, 3 of each tap's word) and `bias −
/// zero_point · Σ w` per channel over the taps inside, for each pair of
/// row and column classes (else those constants are the bias and the table
/// 0); the output stage as [`Requant4`]'s words where it applies. `None`
/// where the filter or the multipliers do not hold the group's channels.
/// The one rule of [`crate::depthwise_prepare`] and of [`depthwise`]'s
/// calls without it (inlined: it returns a 280-byte group, which a call
/// would copy).
#[inline(always)]
pub(crate) fn depthwise_group<B: Values<i32> + ?Sized>(
    filter: &[i8],
    bias: Option<&B>,
    dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
    params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    c: usize,
) -> Option<DepthwiseGroup> {
    let depth = dims.input_depth;
    let zero_point = params.input_zero_point;
    let word = |at: usize| -> Option<u32> {
        let b = filter.get(at..at.checked_add(4)?)?.first_chunk::<4>()?;
        Some(u32::from_le_bytes(b.map(|v| v as u8)))
    };
    let bias4 = group_bias(bias, c);
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
    /// the image's bytes from the first pixel's first tap to the last
    /// pixel's (`(runs − 1) · image_run + (pixels − 1) · image_pixel`),
    /// and the output's from the first pixel's word to the last one's
    spans: (usize, usize),
}

impl ClassRuns {
    /// A class of `runs` runs of `pixels` pixels (each at least 1), its
    /// steps `[image_run, out_run, image_pixel, out_pixel]`, its first
    /// pixel's image and output offsets (channel 0), and the spans of its
    /// runs, made here once from these: [`arch::dw3x3_run`]'s check.
    /// `None` if there is no run or pixel or a span overflows. Inlined
    /// into its one caller (out of line, its 11-word result cost a copy).
    #[inline(always)]
    fn new(
        (rc, cc): (usize, usize),
        runs: usize,
        pixels: usize,
        steps: [usize; 4],
        first: usize,
        at: usize,
    ) -> Option<Self> {
        let [image_run, out_run, image_pixel, out_pixel] = steps;
        let (last_run, last) = (runs.checked_sub(1)?, pixels.checked_sub(1)?);
        let span = |run: usize, pixel: usize| {
            last_run
                .checked_mul(run)?
                .checked_add(last.checked_mul(pixel)?)
        };
        Some(ClassRuns {
            rc,
            cc,
            tap: 3 * usize::from(rc == 1) + usize::from(cc == 1),
            runs,
            pixels,
            steps,
            first,
            at,
            spans: (span(image_run, image_pixel)?, span(out_run, out_pixel)?),
        })
    }
}

/// The runs of class `k` for channels `c … c + 3`, their constants in
/// `st`, their widened filter `table` (from the class's first tap inside):
/// [`arch::dw3x3_run`] or its border forms, every run in one call. `None`
/// (nothing written) if a run does not lie inside `image` and `out`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn class_runs(
    image: &[i8],
    out: &mut [i8],
    st: &mut Run3,
    table: &[u32],
    k: &ClassRuns,
    c: usize,
    column: usize,
    row: usize,
) -> Option<()> {
    let image = image.get(k.first.checked_add(c)?..)?;
    let out = out.get_mut(k.at.checked_add(c)?..)?;
    let done = match (k.rc > 0, k.cc > 0) {
        (false, false) => arch::dw3x3_run(image, st, table, column, row, k, out),
        (true, false) => arch::dw2x3_run(image, st, table, column, row, k, out),
        (false, true) => arch::dw3x2_run(image, st, table, column, row, k, out),
        (true, true) => arch::dw2x2_run(image, st, table, column, row, k, out),
    };
    done.then_some(())
}

/// The steps of [`depthwise_inside`]'s taps in the image (a column, a
/// row) and the input's offset (`−zero point`, in both halves).
#[derive(Clone, Copy)]
struct Lines {
    column: usize,
    row: usize,
    offset: u32,
}

/// [`depthwise`] where every output pixel's window lies whole inside the
/// image (the first and the last along each axis: the windows move
/// monotonically), for a filter other than 3×3: per group of 4 channels
/// (its bias and output stage prepared, or made as [`depthwise_group`] does) and
/// per pixel, the filter's taps as lines along its longer side, each line
/// one loop ([`arch::tap_line`]), then the output stage. `None` unless
/// every window is whole and every length holds (the caller's general
/// loop then runs, over the whole output).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn depthwise_inside<B: Values<i32> + ?Sized>(
    image: &[i8],
    filter: &[i8],
    bias: Option<&B>,
    prepared: Option<&[DepthwiseGroup]>,
    dims: &crate::ops::conv::depthwise_conv::DepthwiseConvDims,
    params: &crate::ops::conv::depthwise_conv::DepthwiseConvParams<'_>,
    stage: &OutputStage,
    scale: &impl Fn(usize) -> Scale,
    lines: Lines,
    out: &mut [i8],
    out_step: usize,
) -> Option<()> {
    use crate::arith::window::Window;
    let depth = dims.input_depth;
    // the input position of output 0's first tap, if every window along
    // the axis is whole
    let whole = |n: usize, stride: usize, pad: usize, dilation: usize, size: usize, taps: usize| {
        let complete = |w: Window| w.len() == taps && w.taps().next().is_some_and(|(k, _)| k == 0);
        let first = Window::new(0, stride, pad, dilation, taps, size);
        let last = Window::new(n.checked_sub(1)?, stride, pad, dilation, taps, size);
        if !complete(first) || !complete(last) {
            return None;
        }
        first.taps().next().map(|(_, at)| at)
    };
    let y0 = whole(
        dims.output_height,
        params.stride_height,
        params.pad_top,
        params.dilation_height,
        dims.input_height,
        dims.filter_height,
    )?;
    let x0 = whole(
        dims.output_width,
        params.stride_width,
        params.pad_left,
        params.dilation_width,
        dims.input_width,
        dims.filter_width,
    )?;
    let Lines {
        column,
        row,
        offset,
    } = lines;
    // the taps as lines along the filter's longer side: `lines` of `n`
    // taps, a tap `x_tap` on in the image and `f_tap` in the filter, a
    // line `x_line` and `f_line` on
    let filter_row = dims.filter_width.checked_mul(depth)?;
    let (lines, (n, x_tap, f_tap), (x_line, f_line)) = if dims.filter_width >= dims.filter_height {
        (
            dims.filter_height,
            (dims.filter_width, column, depth),
            (row, filter_row),
        )
    } else {
        (
            dims.filter_width,
            (dims.filter_height, row, filter_row),
            (column, depth),
        )
    };
    let image_row = dims.input_width.checked_mul(depth)?;
    let (y_step, x_step) = (
        params.stride_height.checked_mul(image_row)?,
        params.stride_width.checked_mul(depth)?,
    );
    let origin = y0
        .checked_mul(image_row)?
        .checked_add(x0.checked_mul(depth)?)?;
    for c in (0..depth).step_by(4) {
        // the group's bias and output stage, prepared or made (its 3×3
        // table and constants are not used here)
        let (bias4, requant) = match prepared.and_then(|p| p.get(c / 4)) {
            Some(g) => (g.bias, g.requant.map(Requant4::from_words)),
            None => (
                group_bias(bias, c),
                Requant4::new(params.multipliers, c, stage),
            ),
        };
        let fs = filter.get(c..)?;
        let mut at = c;
        for oy in 0..dims.output_height {
            let mut first = origin
                .checked_add(oy.checked_mul(y_step)?)?
                .checked_add(c)?;
            for _ in 0..dims.output_width {
                let mut acc = bias4;
                for l in 0..lines {
                    let xs = image.get(first.checked_add(l.checked_mul(x_line)?)?..)?;
                    let fs = fs.get(l.checked_mul(f_line)?..)?;
                    acc = arch::tap_line(xs, x_tap, fs, f_tap, n, offset, acc)?;
                }
                write4(
                    out.get_mut(at..at.checked_add(4)?)?,
                    acc,
                    requant.as_ref(),
                    stage,
                    scale,
                    c,
                );
                first = first.checked_add(x_step)?;
                at = at.checked_add(out_step)?;
            }
        }
    }
    Some(())
}

/// The sums of three taps' weights along one axis of a 3×3 filter, for
/// each class of [`depthwise`]'s windows: all three taps inside (class 0),
/// all but the first (1), all but the last (2).
#[inline(always)]
fn class_sums([first, middle, last]: [i32; 3]) -> [i32; 3] {
    [first + middle + last, middle + last, first + middle]
}

/// The loops over whole words: each `asm!` form (the DSP extension,
/// `cfg(shapecheck_dsp)`) followed by its plain-Rust twin of the same
/// name and signature (`cfg(not(shapecheck_dsp))`, the host's and the
/// unit tests').
mod arch {
    #[cfg(not(shapecheck_dsp))]
    use crate::arith::dsp::arch::requant4;
    #[cfg(shapecheck_dsp)]
    use core::arch::asm;

    /// The one check of both `tap_line`s: `n ≥ 1` taps whose words (the
    /// last `(n − 1) · step` bytes past each slice's start) are inside
    /// `xs` and `fs`, and an image step of at least 1 where there are two
    /// taps or more (the DSP loop ends when the image pointer has stepped).
    fn line_fits(xs: &[i8], x_step: usize, fs: &[i8], f_step: usize, n: usize) -> bool {
        let reach = |step: usize| n.checked_sub(1)?.checked_mul(step)?.checked_add(4);
        reach(x_step).is_some_and(|r| r <= xs.len())
            && reach(f_step).is_some_and(|r| r <= fs.len())
            && (n <= 1 || x_step > 0)
    }

    #[cfg(shapecheck_dsp)]
    /// One tap of [`tap_line`]: `acc[j] += (x_j + offset) · f_j` for the
    /// four bytes of the image word at `{p}` and of the filter word at
    /// `{q}` (`SXTAB16` widens and adds the offset, in both halves of
    /// `{off}`), both pointers then stepped (`{dx}`, `{df}`); the odd
    /// channels' filter halves in `$fo`. 12 instructions for 4
    /// multiply-accumulates, the two loads pipelined.
    macro_rules! line_tap {
        ($fo:literal) => {
            concat!(
                "ldr {x}, [{p}]\n",
                "ldr {f}, [{q}]\n",
                "add {p}, {p}, {dx}\n",
                "add {q}, {q}, {df}\n",
                "sxtab16 {xo}, {off}, {x}, ror #8\n",
                "sxtab16 {x}, {off}, {x}\n",
                "sxtb16 ",
                $fo,
                ", {f}, ror #8\n",
                "sxtb16 {f}, {f}\n",
                "smlabb {a0}, {x}, {f}, {a0}\n",
                "smlatt {a2}, {x}, {f}, {a2}\n",
                "smlabb {a1}, {xo}, ",
                $fo,
                ", {a1}\n",
                "smlatt {a3}, {xo}, ",
                $fo,
                ", {a3}\n",
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// Channels `c … c + 3` of `n` taps of a line (a filter's row or
    /// column): `acc[j] += Σ (x_j + offset) · f_j`, the image words at the
    /// start of `xs` and every `x_step` bytes after it, the filter words at
    /// the start of `fs` and every `f_step` bytes after it (`offset` in
    /// both halves). Pairs of [`line_tap`]s in one loop, entered at its
    /// second tap for an odd `n` (the loop's end on the stack, its register
    /// the taps' scratch, as in the convolution's loops). `None` (nothing read)
    /// unless `n ≥ 1` and the slices hold every word.
    #[inline(always)]
    pub(super) fn tap_line(
        xs: &[i8],
        x_step: usize,
        fs: &[i8],
        f_step: usize,
        n: usize,
        offset: u32,
        acc: [i32; 4],
    ) -> Option<[i32; 4]> {
        if !line_fits(xs, x_step, fs, f_step, n) {
            return None;
        }
        let [mut a0, mut a1, mut a2, mut a3] = acc;
        let p = xs.as_ptr();
        let end = p.wrapping_add(n * x_step);
        // SAFETY: checked above: the words of taps `0 … n − 1`, the last
        // `(n − 1) · step` bytes past each slice's start. With an odd `n`
        // the loop is entered at its second tap; it ends when `{p}`
        // reaches `end`, after the `n` taps (`x_step` is at least 1 when
        // `n ≥ 2`). The stack is back where it was at the end.
        unsafe {
            asm!(
                "cmp {x}, #0",
                "push {{{e}}}",
                "bne 3f",
                "2:",
                line_tap!("{e}"),
                "3:",
                line_tap!("{e}"),
                "ldr {x}, [sp]",
                "cmp {p}, {x}",
                "bne 2b",
                "add sp, sp, #4",
                p = inout(reg) p => _,
                q = inout(reg) fs.as_ptr() => _,
                e = inout(reg) end => _,
                x = inout(reg) n % 2 => _,
                dx = in(reg) x_step,
                df = in(reg) f_step,
                off = in(reg) offset,
                a0 = inout(reg) a0,
                a1 = inout(reg) a1,
                a2 = inout(reg) a2,
                a3 = inout(reg) a3,
                xo = out(reg) _,
                f = out(reg) _,
                options(readonly),
            );
        }
        Some([a0, a1, a2, a3])
    }

    #[cfg(not(shapecheck_dsp))]
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

    /// The one check of both forms of [`dw3x3_run`]'s family over `rows` ×
    /// `cols` taps: every pixel's taps (the farthest `(rows − 1) · row +
    /// (cols − 1) · column` bytes past its first, and a word) inside
    /// `image` (the last pixel's first `k.spans.0` bytes on), every word
    /// stored inside `out` (the last `k.spans.1` bytes on), and the taps'
    /// widened words (two a tap, the last at `2 · (3 · (rows − 1) + cols −
    /// 1)`) inside `table`. `k`'s spans are its runs' (made with them,
    /// [`super::ClassRuns::new`], of at least one run of one pixel).
    /// Inlined: `rows` and `cols` are each form's constants.
    #[inline(always)]
    fn runs_fit(
        image: &[i8],
        table: &[u32],
        (rows, cols): (usize, usize),
        column: usize,
        row: usize,
        k: &super::ClassRuns,
        out: &[i8],
    ) -> bool {
        let reach = rows
            .checked_sub(1)
            .and_then(|r| row.checked_mul(r))
            .and_then(|r| r.checked_add(column.checked_mul(cols.checked_sub(1)?)?))
            .and_then(|r| r.checked_add(4));
        let (image_span, out_span) = k.spans;
        reach
            .and_then(|r| r.checked_add(image_span))
            .is_some_and(|n| n <= image.len())
            && out_span.checked_add(4).is_some_and(|n| n <= out.len())
            && rows >= 1
            && table.len() >= 2 * (3 * (rows - 1) + cols)
    }

    #[cfg(not(shapecheck_dsp))]
    /// [`super::depthwise`]'s runs of pixels over `rows` × `cols` taps:
    /// [`dw_block`] and [`requant4`] run by run and pixel by pixel, as the
    /// DSP loops, the same check.
    #[allow(clippy::too_many_arguments)]
    fn dw_run(
        image: &[i8],
        state: &mut super::Run3,
        table: &[u32],
        (rows, cols): (usize, usize),
        column: usize,
        row: usize,
        k: &super::ClassRuns,
        out: &mut [i8],
    ) -> bool {
        if !runs_fit(image, table, (rows, cols), column, row, k, out) {
            return false;
        }
        let [image_run, out_run, pixel_step, out_step] = k.steps;
        for r in 0..k.runs {
            for i in 0..k.pixels {
                let first = r * image_run + i * pixel_step;
                let block = image.get(first..).unwrap_or(&[]);
                let acc = dw_block(block, table, rows, cols, column, row, state.constant);
                let word = requant4(acc, &state.requant).to_le_bytes();
                let at = r * out_run + i * out_step;
                if let Some(ys) = out.get_mut(at..at + 4) {
                    for (y, b) in ys.iter_mut().zip(word) {
                        *y = b as i8;
                    }
                }
            }
        }
        true
    }

    #[cfg(not(shapecheck_dsp))]
    /// [`super::arch`]'s `tap_line` in plain Rust: the same checks, the
    /// taps one by one.
    pub(super) fn tap_line(
        xs: &[i8],
        x_step: usize,
        fs: &[i8],
        f_step: usize,
        n: usize,
        offset: u32,
        acc: [i32; 4],
    ) -> Option<[i32; 4]> {
        if !line_fits(xs, x_step, fs, f_step, n) {
            return None;
        }
        let offset = i32::from(offset as u16 as i16);
        let mut acc = acc;
        for t in 0..n {
            let (x, f) = (xs.get(t * x_step..)?, fs.get(t * f_step..)?);
            for (j, a) in acc.iter_mut().enumerate() {
                let xj = i32::from(*x.get(j)?) + offset;
                let fj = i32::from(*f.get(j)?);
                *a = a.wrapping_add(xj * fj);
            }
        }
        Some(acc)
    }

    #[cfg(shapecheck_dsp)]
    /// One tap of the depthwise loops: the image word at `$at`, the widened
    /// filter words at `$base + $f` bytes into `$table` (a block's table,
    /// `{t}`, from 0; a run's state, `{s}`, from 16). Three single loads in
    /// a row (the M4 pipelines the second and third: 4 cycles, where an
    /// `LDR` and an `LDRD` take 5).
    macro_rules! tap {
        ($table:literal, $base:literal, $at:literal, $f:literal) => {
            concat!(
                "ldr {x}, ",
                $at,
                "\n",
                "ldr {fe}, [",
                $table,
                ", #",
                $base,
                "+",
                $f,
                "]\n",
                "ldr {fo}, [",
                $table,
                ", #",
                $base,
                "+",
                $f,
                "+4]\n",
                "sxtb16 {xo}, {x}, ror #8\n",
                "sxtb16 {x}, {x}\n",
                "smlabb {a0}, {x}, {fe}, {a0}\n",
                "smlatt {a2}, {x}, {fe}, {a2}\n",
                "smlabb {a1}, {xo}, {fo}, {a1}\n",
                "smlatt {a3}, {xo}, {fo}, {a3}\n",
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// One row of a 3×3 filter's taps from `{p}` (columns `{d}` apart):
    /// its three taps, or its first two (a border's), the widened words of
    /// each at `$f0`, `$f1`, `$f2` past `$base` in `$table`.
    macro_rules! tap_row {
        ($table:literal, $base:literal, 3, $f0:literal, $f1:literal, $f2:literal) => {
            concat!(
                tap!($table, $base, "[{p}]", $f0),
                tap!($table, $base, "[{p}, {d}]", $f1),
                tap!($table, $base, "[{p}, {d}, lsl #1]", $f2),
            )
        };
        ($table:literal, $base:literal, 2, $f0:literal, $f1:literal, $f2:literal) => {
            concat!(
                tap!($table, $base, "[{p}]", $f0),
                tap!($table, $base, "[{p}, {d}]", $f1),
            )
        };
    }

    #[cfg(shapecheck_dsp)]
    /// The taps of `$rows` × `$cols` of a 3×3 filter (rows `{r}` apart):
    /// all 3 × 3, or a border's first two rows or columns, or a corner's
    /// 2 × 2; tap `i` of the filter's widened words at `$base + 8i` in
    /// `$table`. The one definition of the interior's taps and the
    /// borders'.
    macro_rules! taps {
        ($table:literal, $base:literal, 3, $cols:tt) => {
            concat!(
                tap_row!($table, $base, $cols, "0", "8", "16"),
                "add {p}, {p}, {r}\n",
                tap_row!($table, $base, $cols, "24", "32", "40"),
                "add {p}, {p}, {r}\n",
                tap_row!($table, $base, $cols, "48", "56", "64"),
            )
        };
        ($table:literal, $base:literal, 2, $cols:tt) => {
            concat!(
                tap_row!($table, $base, $cols, "0", "8", "16"),
                "add {p}, {p}, {r}\n",
                tap_row!($table, $base, $cols, "24", "32", "40"),
            )
        };
    }

    /// One block function of the depthwise family, `$name` over `$rows` ×
    /// `$cols` taps of a 3×3 filter (`taps!`, from the table's start):
    /// with the DSP extension one `asm!` block, twelve registers; without
    /// it, [`dw_block`] over the same taps. The one definition of the
    /// interior block and its three border forms.
    macro_rules! dw_block_fn {
        ($(#[$doc:meta])* $name:ident, ($rows:tt, $cols:tt)) => {
            #[cfg(shapecheck_dsp)]
            $(#[$doc])*
            #[inline(always)]
            pub(super) fn $name(
                block: &[i8],
                table: &[u32],
                column: usize,
                row: usize,
                acc: [i32; 4],
            ) -> [i32; 4] {
                let [mut a0, mut a1, mut a2, mut a3] = acc;
                // SAFETY: the wrapper checked that `block` holds the rows
                // (`row` apart) and columns (`column` apart) its taps reach
                // past its start and a word, the farthest word read, and
                // that `table` holds the words read (at most 18 · 4 bytes
                // on, word-aligned as LDRD needs).
                unsafe {
                    asm!(
                        taps!("{t}", "0", $rows, $cols),
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

            #[cfg(not(shapecheck_dsp))]
            $(#[$doc])*
            pub(super) fn $name(
                block: &[i8],
                table: &[u32],
                column: usize,
                row: usize,
                acc: [i32; 4],
            ) -> [i32; 4] {
                dw_block(block, table, $rows, $cols, column, row, acc)
            }
        };
    }

    dw_block_fn!(
        /// Channels `c … c + 3` of one output pixel over 3 × 3 taps of a
        /// 3×3 filter: `acc[j] += Σ x_j · f_j`, the image's from `block[0]`
        /// (a column `column` bytes on, a row `row` on), the filter's from
        /// `table` (per tap of the 3×3, its word widened: bytes 0 and 2,
        /// then 1 and 3; from the block's first tap on). 74 instructions
        /// for 36 multiply-accumulates.
        dw3x3, (3, 3)
    );
    dw_block_fn!(
        /// [`dw3x3`] over 2 × 3 taps (a border's): 49 instructions for 24
        /// multiply-accumulates.
        dw2x3, (2, 3)
    );
    dw_block_fn!(
        /// [`dw3x3`] over 3 × 2 taps (a border's): 50 instructions for 24
        /// multiply-accumulates.
        dw3x2, (3, 2)
    );
    dw_block_fn!(
        /// [`dw3x3`] over 2 × 2 taps (a corner's): 33 instructions for 16
        /// multiply-accumulates.
        dw2x2, (2, 2)
    );

    #[cfg(shapecheck_dsp)]
    /// The clamp of [`dw3x3_run`]'s loop to `[lo, hi]` in each byte
    /// (`clamp`), or none (`full`: the range is int8's, which `SSAT` gave).
    macro_rules! run_clamp {
        (clamp) => {
            concat!(
                "ldrd {fe}, {fo}, [{s}, #52]\n",
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

    #[cfg(shapecheck_dsp)]
    /// The loop of [`dw3x3_run`] and its border forms over the pixels of
    /// its runs: per pixel the constants, the taps (`taps!`), the output
    /// stage, the clamp (`run_clamp!($clamp)`), the store and the steps;
    /// per run the next run's pointers from the state (`runs`: 17
    /// instructions a run, where a call per run took about 150). In an
    /// `unsafe` block whose wrapper checked what it reads and writes.
    macro_rules! run_loop {
        ($rows:tt, $cols:tt, $clamp:ident, $image:expr, $state:expr, $table:expr, $column:expr, $row:expr) => {
            asm!(
                "2:",
                // the constants by single loads, which the first tap's
                // three loads continue (one pipelined run of seven)
                "ldr {a0}, [{s}, #0]",
                "ldr {a1}, [{s}, #4]",
                "ldr {a2}, [{s}, #8]",
                "ldr {a3}, [{s}, #12]",
                taps!("{t}", "0", $rows, $cols),
                run_scale!("0", "1", "16"),
                run_scale!("2", "3", "32"),
                "ldr {fe}, [{s}, #48]",
                run_narrow!("a0"),
                run_narrow!("a1"),
                run_narrow!("a2"),
                run_narrow!("a3"),
                "bfi {a0}, {a1}, #8, #8",
                "bfi {a0}, {a2}, #16, #8",
                "bfi {a0}, {a3}, #24, #8",
                run_clamp!($clamp),
                // the tail by single loads in a row, the store after them
                // (pipelined: 6 cycles, where two `LDRD`s and it take 8)
                "ldr {fe}, [{s}, #60]",
                "ldr {x}, [{s}, #68]",
                "ldr {xo}, [{s}, #72]",
                "ldr {fo}, [{s}, #64]",
                "str {a0}, [{fe}]",
                "add {fe}, {fe}, {x}",
                "str {fe}, [{s}, #60]",
                "add {p}, {p}, {xo}",
                "cmp {fe}, {fo}",
                "bne 2b",
                // the run done: the next one, if any is left, from its
                // first image word (the run's, one step on) and its output
                // start and end (the run's end, plus the steps between)
                "ldr {x}, [{s}, #92]",
                "cmp {x}, #0",
                "beq 5f",
                "ldr {p}, [{s}, #76]",
                "ldr {xo}, [{s}, #80]",
                "ldr {fe}, [{s}, #64]",
                "ldr {fo}, [{s}, #88]",
                "sub {x}, {x}, #1",
                "str {x}, [{s}, #92]",
                "add {p}, {p}, {xo}",
                "str {p}, [{s}, #76]",
                "ldr {xo}, [{s}, #84]",
                "add {fo}, {fe}, {fo}",
                "add {fe}, {fe}, {xo}",
                "str {fo}, [{s}, #60]",
                "str {fe}, [{s}, #64]",
                "b 2b",
                "5:",
                p = inout(reg) $image.as_ptr() => _,
                s = in(reg) $state as *mut super::Run3,
                t = in(reg) $table.as_ptr(),
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

    #[cfg(shapecheck_dsp)]
    /// Two channels of [`dw3x3_run`]'s output stage, `{a$c}` and
    /// `{a$d}`: their multipliers and shifts (at `$at` in the state, the
    /// stage at 16) by four single loads in a row (5 cycles, where two
    /// `LDRD`s take 6), then per channel the doubling high product and the
    /// shift by `r − 1`.
    macro_rules! run_scale {
        ($c:literal, $d:literal, $at:literal) => {
            concat!(
                "ldr {fe}, [{s}, #",
                $at,
                "]\n",
                "ldr {fo}, [{s}, #",
                $at,
                "+4]\n",
                "ldr {x}, [{s}, #",
                $at,
                "+8]\n",
                "ldr {xo}, [{s}, #",
                $at,
                "+12]\n",
                "smmlar {a",
                $c,
                "}, {a",
                $c,
                "}, {fe}, {a",
                $c,
                "}\n",
                "smmlar {a",
                $d,
                "}, {a",
                $d,
                "}, {x}, {a",
                $d,
                "}\n",
                "add {a",
                $c,
                "}, {a",
                $c,
                "}, {a",
                $c,
                "}, asr #31\n",
                "add {a",
                $d,
                "}, {a",
                $d,
                "}, {a",
                $d,
                "}, asr #31\n",
                "asr {a",
                $c,
                "}, {a",
                $c,
                "}, {fo}\n",
                "asr {a",
                $d,
                "}, {a",
                $d,
                "}, {xo}\n",
            )
        };
    }

    #[cfg(shapecheck_dsp)]
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

    /// One run of [`dw3x3_run`]'s family, `$name` over `$rows` × `$cols`
    /// taps (`taps!`, its loop's): with the DSP extension the checks,
    /// the state's tail and the loop ([`run_loop`]); without it, [`dw_run`] over
    /// the same taps. The one definition of the interior run and its
    /// three border forms.
    macro_rules! dw_run_fn {
        ($(#[$doc:meta])* $name:ident, ($rows:tt, $cols:tt)) => {
            #[cfg(shapecheck_dsp)]
            $(#[$doc])*
            #[inline(always)]
            pub(super) fn $name(
                image: &[i8],
                state: &mut super::Run3,
                table: &[u32],
                column: usize,
                row: usize,
                k: &super::ClassRuns,
                out: &mut [i8],
            ) -> bool {
                if !runs_fit(image, table, ($rows, $cols), column, row, k, out) {
                    return false;
                }
                let [image_run, out_run, pixel_step, out_step] = k.steps;
                // the run's end, from its start: `pixels · out_step`
                // (wrapping: only compared with, the check above bounds it)
                let span = k.pixels.wrapping_mul(out_step);
                let start = out.as_mut_ptr() as usize;
                state.tail = [
                    start,
                    start.wrapping_add(span),
                    out_step,
                    pixel_step.wrapping_sub(($rows - 1) * row),
                ];
                state.runs = [
                    image.as_ptr() as usize,
                    image_run,
                    out_run,
                    out_run.wrapping_sub(span),
                    k.runs - 1,
                ];
                let clamps = state.requant.clamps();
                // SAFETY: checked above (`runs_fit`): every pixel's taps
                // (a word each, the farthest `(rows − 1) · row + (cols −
                // 1) · column` past its first, pixel `i` of run `r`'s
                // first at `r · image_run + i · pixel_step`) are inside
                // `image` and every word stored inside `out` (at `r ·
                // out_run + i · out_step`); unaligned words are allowed on
                // the Cortex-M4 (LDR, STR). Each run ends when the output
                // pointer reaches its start plus `pixels · out_step`,
                // after `pixels` stores (one, if `out_step` is 0); the
                // next run starts one step on in the image and the output
                // (`state.runs`), and the loop ends after `runs` of them,
                // counted down in the state. The state is read, and its
                // pointers and count written, through `state`; the
                // clamp's two words only where it is not the int8 range
                // itself (a no-op after `SSAT`). The table's words read,
                // the taps', are inside it (checked above).
                unsafe {
                    if clamps {
                        run_loop!($rows, $cols, clamp, image, state, table, column, row)
                    } else {
                        run_loop!($rows, $cols, full, image, state, table, column, row)
                    }
                }
                true
            }

            #[cfg(not(shapecheck_dsp))]
            $(#[$doc])*
            pub(super) fn $name(
                image: &[i8],
                state: &mut super::Run3,
                table: &[u32],
                column: usize,
                row: usize,
                k: &super::ClassRuns,
                out: &mut [i8],
            ) -> bool {
                dw_run(image, state, table, ($rows, $cols), column, row, k, out)
            }
        };
    }

    dw_run_fn!(
        /// Channels `c … c + 3` of a class's interior pixels, `k.runs`
        /// runs of `k.pixels`, 3×3 taps each, in one loop: per pixel the
        /// constants, the nine taps ([`dw3x3`]'s), [`requant4`]'s output
        /// stage and one word stored, 120 instructions for 36
        /// multiply-accumulates. With `k.steps` = `[image_run, out_run,
        /// pixel_step, out_step]`, the image's first tap of pixel `i` of
        /// run `r` at `image[r · image_run + i · pixel_step]`, its output
        /// at `out[r · out_run + i · out_step]`. `false` (nothing written)
        /// if a slice is too short for that.
        dw3x3_run, (3, 3)
    );
    dw_run_fn!(
        /// [`dw3x3_run`] over 2 × 3 taps of the filter (a border's: the
        /// state's table starts at the first tap inside).
        dw2x3_run, (2, 3)
    );
    dw_run_fn!(
        /// [`dw3x3_run`] over 3 × 2 taps of the filter (a border's: the
        /// state's table starts at the first tap inside).
        dw3x2_run, (3, 2)
    );
    dw_run_fn!(
        /// [`dw3x3_run`] over 2 × 2 taps of the filter (a corner's: the
        /// state's table starts at the first tap inside).
        dw2x2_run, (2, 2)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{quantize_multiplier, Rounding};
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    /// A random image, filter and bias (`image`, `filter` and `channels`
    /// values) and multipliers (one, or one per channel) from `seed`.
    fn random_layer(
        seed: u64,
        image: usize,
        filter: usize,
        channels: usize,
        per_channel: bool,
    ) -> (Vec<i8>, Vec<i8>, Vec<i32>, Vec<QuantizedMultiplier>) {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let image = (0..image).map(|_| next() as i8).collect();
        let filter = (0..filter).map(|_| next() as i8).collect();
        let bias = (0..channels)
            .map(|_| (next() % 200_001) as i32 - 100_000)
            .collect();
        let multipliers = (0..if per_channel { channels } else { 1 })
            .map(|_| {
                let mantissa = (1 << 30) + (next() >> 34) as i32;
                QuantizedMultiplier::from_parts(mantissa, -((next() % 12) as i32))
            })
            .collect();
        (image, filter, bias, multipliers)
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
            let dims = crate::ops::conv::depthwise_conv::DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: 1,
                filter_height: kh, filter_width: kw, depth_multiplier: m,
                output_height: oh, output_width: ow,
            };
            let params = crate::ops::conv::depthwise_conv::DepthwiseConvParams {
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

    proptest! {
        #[test]
        fn depthwise_inside_is_the_reference_depthwise_convolution(
            (k, column, short, extra, groups) in (1usize..17, any::<bool>(), 1usize..4, 0usize..9, 1usize..4),
            (sh, sw, dh, dw) in (1usize..3, 1usize..3, 1usize..3, 1usize..3),
            seed in any::<u64>(),
            (zp, out_zp, per_channel, prepare) in (-128i32..=127, -128i32..=127, any::<bool>(), any::<bool>()),
        ) {
            // a line of k taps (k×1 or 1×k), every window inside (VALID)
            let c = 4 * groups;
            let (kh, kw) = if column { (k, 1) } else { (1, k) };
            let long = (k - 1) * if column { dh } else { dw } + 1 + extra;
            let (h, w) = if column { (long, short) } else { (short, long) };
            let (oh, ow) = ((h - (kh - 1) * dh - 1) / sh + 1, (w - (kw - 1) * dw - 1) / sw + 1);
            let (image, filter, bias, multipliers) = random_layer(seed, h * w * c, kh * kw * c, c, per_channel);
            let dims = crate::ops::conv::depthwise_conv::DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: c,
                filter_height: kh, filter_width: kw, depth_multiplier: 1,
                output_height: oh, output_width: ow,
            };
            let params = crate::ops::conv::depthwise_conv::DepthwiseConvParams {
                stride_height: sh, stride_width: sw, dilation_height: dh, dilation_width: dw,
                pad_top: 0, pad_left: 0, input_zero_point: zp, output_zero_point: out_zp,
                multipliers: &multipliers, output_min: -128, output_max: 127,
                rounding: Rounding::Double,
            };
            let mut want = std::vec![0i8; oh * ow * c];
            crate::reference::depthwise_conv(&image, &filter, Some(&bias[..]), dims, &params, &mut want);
            let stage = OutputStage::new(Rounding::Double, out_zp, -128, 127);
            let groups: Vec<_> = (0..c).step_by(4)
                .map(|g| depthwise_group(&filter, Some(&bias[..]), &dims, &params, &stage, g).unwrap())
                .collect();
            let prepared = prepare.then_some(&groups[..]);
            let lines = Lines { column: dw * c, row: dh * w * c, offset: (-zp as u32 & 0xffff) * 0x0001_0001 };
            let scale = |c: usize| Scale::new(multipliers[if per_channel { c } else { 0 }]);
            let mut got = std::vec![0i8; oh * ow * c];
            prop_assert!(depthwise_inside(&image, &filter, Some(&bias[..]), prepared, &dims, &params, &stage, &scale, lines, &mut got, c).is_some());
            prop_assert_eq!(got, want);
        }

        #[test]
        fn depthwise_is_the_reference_depthwise_convolution(
            (h, w, groups, kh, kw) in (1usize..9, 1usize..9, 1usize..4, prop_oneof![Just(3usize), 1usize..7], prop_oneof![Just(3usize), 1usize..7]),
            (sh, sw, dh, dw, pt, pl, oh, ow) in (1usize..3, 1usize..3, 1usize..3, 1usize..3, 0usize..3, 0usize..3, 1usize..7, 1usize..7),
            seed in any::<u64>(),
            (zp, out_zp, lo, hi, per_channel, with_bias) in (-128i32..=127, -128i32..=127, -128i32..=0, 0i32..=127, any::<bool>(), any::<bool>()),
            (extra, skip) in (0usize..3, 0usize..3),
        ) {
            let c = 4 * groups;
            let (image, filter, bias, multipliers) = random_layer(seed, h * w * c, kh * kw * c, c, per_channel);
            let dims = crate::ops::conv::depthwise_conv::DepthwiseConvDims {
                batches: 1, input_height: h, input_width: w, input_depth: c,
                filter_height: kh, filter_width: kw, depth_multiplier: 1,
                output_height: oh, output_width: ow,
            };
            let params = crate::ops::conv::depthwise_conv::DepthwiseConvParams {
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
            prop_assert!(depthwise(&image, &filter, bias, None, &dims, &params, &stage, &mut got, c).is_some());
            prop_assert_eq!(&got, &want);
            // the same with every group set up once, before the call
            let groups: Vec<_> = (0..c).step_by(4)
                .map(|g| depthwise_group(&filter, bias, &dims, &params, &stage, g).unwrap())
                .collect();
            let mut prepared = std::vec![0i8; oh * ow * c];
            prop_assert!(depthwise(&image, &filter, bias, Some(&groups), &dims, &params, &stage, &mut prepared, c).is_some());
            prop_assert_eq!(prepared, want.clone());
            // the same into a tensor of `wider` channels, from its channel
            // `from` (a group's place in an in-place layer): those channels
            // are the output, every other value untouched
            let (wider, from) = (c + 4 * extra, 4 * skip.min(extra));
            let mut into = std::vec![99i8; from + (oh * ow - 1) * wider + c];
            prop_assert!(depthwise(&image, &filter, bias, Some(&groups), &dims, &params, &stage, &mut into[from..], wider).is_some());
            // and with the classes made once beforehand (a layer in place's)
            let classes = RunClasses::new(&dims, &params, wider).unwrap();
            let mut given = std::vec![99i8; into.len()];
            prop_assert!(depthwise_with(Some(&classes), &image, &filter, bias, Some(&groups), &dims, &params, &stage, &mut given[from..], wider).is_some());
            prop_assert_eq!(&given, &into);
            let mut expected = std::vec![99i8; into.len()];
            for (p, px) in want.chunks(c).enumerate() {
                expected[from + p * wider..][..c].copy_from_slice(px);
            }
            prop_assert_eq!(into, expected);
        }
    }
}
