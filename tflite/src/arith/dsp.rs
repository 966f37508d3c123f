//! What the int8 kernels' DSP loops (issue 64) share: the output stage of
//! four channels ([`Requant4`], [`arch::requant4`]), [`write4`], [`widen`],
//! and the one safety note and arithmetic argument for all their `asm!`.
//! Each kernel's own loops live beside its portable loop (issue 69: one
//! home per kernel), each `asm!` block next to its plain-Rust twin:
//!
//! - `conv/dsp.rs`: the 1×1 convolution's blocked matrix product
//!   (`matmul`, also a fully connected layer's of several batches) and the
//!   k×k convolution's im2col (`conv_im2col`);
//! - `depthwise_conv/dsp.rs`: four channels a word (`depthwise`), one
//!   input channel as a convolution (`depthwise_as_conv`);
//! - `fully_connected/dsp.rs`: one batch (`vec_mat`, `vec_mat_wide`);
//! - `ops/add.rs` (issue 80): the int8 `ADD` over an input, four elements
//!   a word (`add_words`), with no `asm!` of its own: an input's term by
//!   [`arch::scale_halved`], the four sums' output stage by
//!   [`arch::requant4_shared`]. It runs on every target, with the plain
//!   twins where there is no DSP extension (the host, the Cortex-M0).
//!
//! Those modules and this one are the crate's only `unsafe` code (with
//! `bytes::as_i8`'s one line), and why:
//!
//! `SMLAD` multiplies two pairs of signed 16-bit halves and adds both
//! products to a 32-bit accumulator in one instruction; `SXTB16` widens
//! bytes 0 and 2 of a word (or, rotated by 8, bytes 1 and 3) into two
//! 16-bit halves. Four int8 values read as one word become two such pairs,
//! so four multiply-accumulates cost one load shared by the block, two
//! widenings and two `SMLAD`s. [`Requant4`] is TFLite Micro's output
//! stage, double rounding and clamp, for four channels in 37 instructions
//! (`SMMLAR`, `SSAT`, `SSUB8` / `SEL`).
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

use crate::arith::quant::{OutputStage, QuantizedMultiplier, Scale};

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
///
/// A multiplier of 0 (TFLite's for a real multiplier below 2^−31, a channel
/// whose weights' scale is nearly 0: visual wake words has 44 in its 1×1
/// layers) gives the zero point for any accumulator and shift. Its stage is
/// `m2 = −2^31`, `r − 1 = 31`: `SMMLAR` gives `⌊(a + 1) / 2⌋`, in
/// `[−2^30, 2^30]`, whose shift by 31 (after the `− [h < 0]`) is 0 or −1,
/// and `(1 + 2 · zp + 0 or −1) >> 1` is `zp`: one form for every channel.
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

    /// This stage with its four channels' multipliers replaced (a channel
    /// pair's stage built from the one its group shares).
    pub(crate) fn with_channels(self, channels: [[i32; 2]; 4]) -> Self {
        Requant4 { channels, ..self }
    }

    /// This stage with its last two channels replaced by its first two
    /// (a channel pair's stage for two pixels, as the 1×1 and im2col
    /// loops read it: channels `c, c + 1` once).
    #[cfg(not(shapecheck_dsp))]
    pub(crate) fn first_pair(self) -> Self {
        let [c0, c1, _, _] = self.channels;
        self.with_channels([c0, c1, c0, c1])
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
    /// int8 layer's) or 0, the rounding is the double one and the zero
    /// point an int8.
    pub(crate) fn new(
        multipliers: &[QuantizedMultiplier],
        c: usize,
        stage: &OutputStage,
    ) -> Option<Self> {
        Self::for_channels(multipliers, [c, c + 1, c + 2, c + 3], stage)
    }

    /// Whether a multiplier is one the stage takes: in `[2^30, 2^31)`
    /// with a shift in `[−31, −1]`, or 0 (any shift: the output is the zero
    /// point).
    fn takes(m: &QuantizedMultiplier) -> bool {
        m.multiplier() == 0 || (m.multiplier() >= 1 << 30 && (-31..=-1).contains(&m.shift()))
    }

    /// Channel `c`'s part of the stage, `[2m − 2^32, r − 1]` of its
    /// multiplier (the one multiplier, or the channel's); `None` unless
    /// [`Requant4::takes`] it.
    #[inline(always)]
    pub(crate) fn channel(multipliers: &[QuantizedMultiplier], c: usize) -> Option<[i32; 2]> {
        let m = multipliers.get(if multipliers.len() == 1 { 0 } else { c })?;
        Self::takes(m).then(|| {
            if m.multiplier() == 0 {
                // the zero point whatever the accumulator (above)
                [i32::MIN, 31]
            } else {
                [m.multiplier().wrapping_mul(2), -m.shift() - 1]
            }
        })
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

/// The output stage of channels `c … c + 3` into the first four of `ys`:
/// [`Requant4`] where it applies, else [`OutputStage::apply`] channel by
/// channel.
#[inline(always)]
pub(crate) fn write4(
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
pub(crate) fn widen(v: u32) -> u32 {
    let half = |b: u32| u32::from((b as u8 as i8) as i16 as u16);
    half(v) | half(v >> 16) << 16
}

/// The loops over whole words, on the DSP extension.
#[cfg(shapecheck_dsp)]
pub(crate) mod arch {
    use core::arch::asm;

    /// One channel of [`requant4`]: its `[m2, r − 1]` loaded, then
    /// `high_shift!`.
    macro_rules! scale {
        ($a:literal, $at:literal) => {
            concat!("ldrd {m}, {r}, [{q}, #", $at, "]\n", high_shift!($a))
        };
    }

    /// The doubling high product of `$a` by the channel in `{m}` and
    /// `{r}` and the shift by `r − 1`: [`scale_halved`].
    macro_rules! high_shift {
        ($a:literal) => {
            concat!(
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

    /// One value's scaling by a [`super::Requant4`] channel `[m2, r1]`
    /// but the last halving, as [`requant4`] scales each channel: `SMMLAR`,
    /// `ADD` (`asr #31`), `ASR` (the plain-Rust twin's doc has the
    /// arithmetic). What an int8 `ADD` scales its inputs with
    /// (`ops/add.rs`).
    #[inline(always)]
    pub(crate) fn scale_halved(a: i32, [m2, r1]: [i32; 2]) -> i32 {
        let h: i32;
        // SAFETY: registers only
        unsafe {
            asm!(
                high_shift!("h"),
                m = in(reg) m2,
                r = in(reg) r1,
                h = inout(reg) a => h,
                options(pure, nomem, nostack),
            );
        }
        h
    }

    /// The four channels' last steps (`narrow!`), packed into `{a0}`
    /// and clamped to `[lo, hi]` byte by byte.
    macro_rules! pack {
        () => {
            concat!(
                "ldr {m}, [{q}, #32]\n",
                narrow!("a0"),
                narrow!("a1"),
                narrow!("a2"),
                narrow!("a3"),
                "bfi {a0}, {a1}, #8, #8\n",
                "bfi {a0}, {a2}, #16, #8\n",
                "bfi {a0}, {a3}, #24, #8\n",
                "ldrd {m}, {r}, [{q}, #36]\n",
                "ssub8 {a1}, {a0}, {m}\n",
                "sel {a0}, {a0}, {m}\n",
                "ssub8 {a1}, {a0}, {r}\n",
                "sel {a0}, {r}, {a0}\n",
            )
        };
    }

    /// [`super::Requant4`] of four accumulators: the four int8 outputs in
    /// one word, channel `c` in byte 0. 37 instructions.
    #[inline(always)]
    pub(crate) fn requant4(acc: [i32; 4], q: &super::Requant4) -> u32 {
        let [mut a0, a1, a2, a3] = acc;
        // SAFETY: reads the 11 words of `q` (repr(C), word-aligned)
        unsafe {
            asm!(
                scale!("a0", "0"),
                scale!("a1", "8"),
                scale!("a2", "16"),
                scale!("a3", "24"),
                pack!(),
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

    /// [`requant4`] of a stage whose four channels are one (an int8
    /// `ADD`'s, of its one output multiplier): the channel loaded once
    /// rather than four times. 34 instructions.
    #[inline(always)]
    pub(crate) fn requant4_shared(acc: [i32; 4], q: &super::Requant4) -> u32 {
        let [mut a0, a1, a2, a3] = acc;
        // SAFETY: reads the 11 words of `q` (repr(C), word-aligned)
        unsafe {
            asm!(
                "ldrd {m}, {r}, [{q}]",
                high_shift!("a0"),
                high_shift!("a1"),
                high_shift!("a2"),
                high_shift!("a3"),
                pack!(),
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
/// unit tests run the blocked kernels with on the host, and what the int8
/// `ADD`'s word loop runs with there and on the Cortex-M0.
#[cfg(not(shapecheck_dsp))]
pub(crate) mod arch {
    /// One value's scaling by a [`super::Requant4`] channel `[m2, r1]`
    /// (`[2m − 2^32, r − 1]`) but the last halving: `SMMLAR(a, m2, a)`,
    /// the doubling high product `h`, then `(h − [h < 0]) >> (r − 1)`; one
    /// more `(· + 1) >> 1` (or `(· + 1 + 2 · zp) >> 1`) is TFLite's
    /// rounding division by `2^r` ([`super::Requant4`]'s argument). What
    /// the DSP form's three instructions compute, bit for bit for any `a`:
    /// `SMMLAR` keeps bits 32 to 63 of `a · 2^32 + a · m2 + 2^31`, which
    /// is `a` plus the high word of `a · m2 + 2^31` (an `i64` sum that
    /// cannot overflow), wrapping. What an int8 `ADD` scales its inputs
    /// with (`ops/add.rs`), and [`requant4`] each channel.
    #[inline(always)]
    pub(crate) fn scale_halved(a: i32, [m2, r1]: [i32; 2]) -> i32 {
        let high = ((i64::from(a) * i64::from(m2) + (1 << 31)) >> 32) as i32;
        let h = a.wrapping_add(high);
        h.wrapping_add(h >> 31) >> (r1 & 31)
    }

    /// [`requant4`] of a stage whose four channels are one (an int8
    /// `ADD`'s): the DSP form loads the channel once.
    #[inline(always)]
    pub(crate) fn requant4_shared(acc: [i32; 4], q: &super::Requant4) -> u32 {
        requant4(acc, q)
    }

    /// [`super::Requant4`] as the DSP form computes it, step by step:
    /// `SMMLAR`, the shifts, `QADD`, `SSAT`, the bytes' clamp.
    pub(crate) fn requant4(acc: [i32; 4], q: &super::Requant4) -> u32 {
        let mut word = 0u32;
        for (j, (a, channel)) in acc.into_iter().zip(q.channels).enumerate() {
            // SMMLAR, ADD (· asr #31), ASR
            let s = scale_halved(a, channel);
            let y = (s.saturating_add(q.offset) >> 1).clamp(-128, 127);
            let lo = i32::from(q.lo as u8 as i8);
            let hi = i32::from(q.hi as u8 as i8);
            let y = y.max(lo).min(hi);
            word |= u32::from(y as u8) << (8 * j);
        }
        word
    }
}

/// The blocked loops (their plain-Rust form on the host) against the
/// portable kernels, on random shapes and parameters: every pairing of
/// rows and channels (odd counts), depths with and without a tail past the
/// last word, per-tensor and per-channel multipliers, with and without
/// bias. The DSP form runs the same comparison on the Cortex-M4F under QEMU
/// (embedded/tests/dsp_kernels.rs).
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arith::quant::Rounding;
    use proptest::prelude::*;

    extern crate std;
    use std::vec::Vec;

    /// rows, channels, depth, x, w, bias, input zero point, real
    /// multipliers, (output zero point, clamp)
    pub(crate) type Case = (
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

    pub(crate) fn case() -> impl Strategy<Value = Case> {
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
            ms in proptest::array::uniform4(prop_oneof![
                4 => ((1i32 << 30)..=i32::MAX, -31i32..=-1),
                // a zero multiplier (a real one below 2^−31), any shift
                1 => (Just(0i32), -31i32..=30),
            ]),
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

    #[test]
    fn requant4_takes_only_what_it_computes() {
        let stage = OutputStage::new(Rounding::Double, 0, -128, 127);
        let m = |q, s| [QuantizedMultiplier::from_parts(q, s)];
        assert!(Requant4::new(&m(1 << 30, -1), 0, &stage).is_some());
        assert!(Requant4::new(&m(1 << 30, 0), 0, &stage).is_none());
        assert!(Requant4::new(&m((1 << 30) - 1, -3), 0, &stage).is_none());
        assert!(Requant4::new(&m(0, 0), 0, &stage).is_some());
        assert!(Requant4::new(&m(0, 5), 0, &stage).is_some());
        let single = OutputStage::new(Rounding::Single, 0, -128, 127);
        assert!(Requant4::new(&m(1 << 30, -1), 0, &single).is_none());
        let far = OutputStage::new(Rounding::Double, 200, -128, 127);
        assert!(Requant4::new(&m(1 << 30, -1), 0, &far).is_none());
    }
}
