#!/usr/bin/env python3
"""Counts the instructions a Cortex-M4F issues in one call of a function of
a firmware ELF, from its entry to its return, with the unicorn emulator, and
estimates the cycles they take by the Cortex-M4 TRM's instruction timings.

    count_cycles.py ELF [--symbol predict_once] [--read OUTPUT:4[:i8]]
                    [--div 7] [--by-symbol] [--top N] [--list START:END]
                    [--unaligned] [--json FILE]
    count_cycles.py --self-test

A copy of ../shared/bench/cycles/count_cycles.py (issue 80: compare.sh's
cycles column), itself embedded/count_instructions.py (its instruction
count unchanged, its layer-kind rules this project's) with a cycle model
added (../shared/bench/cycles/README.md: the timing table, its sources and
the model's limits): each
executed block is decoded once with capstone (Thumb, M-class) and each
instruction costed by the TRM's tables (the "cycle model" section below
cites the entries), the costs that depend on the neighbours (load/store
pipelining, a branch taken or not, an IT condition failing) from the block
graph: which block ran after which, and how often. Zero wait states; P, the
pipeline refill of a taken branch, is 1 to 3 and reported at each.

QEMU does not count instructions (Debian's qemu-system-arm 7.2 ships no TCG
plugin), so the firmware's function is run again here, alone:

- the ELF's PT_LOAD segments are written into a memory laid out like QEMU's
  mps2-an386 (flash 4 MiB at 0x0, RAM 4 MiB at 0x2000_0000): each at its
  run address (so `.data` holds its initial values, `.bss` is zero) and at
  its load address;
- the CPU is unicorn's Cortex-M4 (Thumb, M-class) with the FPU enabled
  (FPEXC.EN; the firmware's reset code sets CPACR, which is not run here);
- SP is the firmware's `_stack_start` (the top of RAM), LR a return address
  in unused flash; the function is entered with no arguments (the
  comparison firmware's `predict_once()` reads its input from a static and
  writes its output into one) and the run stops when it returns there.

How the count is made: per translated block. Unicorn calls a hook at the
start of every block that executes (a block is straight-line code up to a
branch, so each of its instructions is issued once when it runs); the
instructions of a block are counted once, from its bytes, with Thumb-2's
instruction lengths (a halfword whose top five bits are 0b11101, 0b11110 or
0b11111 starts a 32-bit instruction). This counts what the core issues: IT
instructions, and instructions in an IT block whose condition fails, which
the per-instruction hook (UC_HOOK_CODE) does not report (about a tenth of
the instructions of a small int8 model). (Checked here: the hook does
report the IT instructions themselves; it is the condition-failed ones it
misses: check_it_fail's hook count is 7 of 11, its 4 failed ones missing.) `--self-test` checks the counter
against hand-counted assembly functions (count_check.s) and fails if a
count is off, and the cycle model against the same functions' cycles
counted by hand from the TRM (`@ cycles:` lines).

Anything that is not plain computation in memory fails the count: an access
outside flash and RAM (a peripheral, semihosting's BKPT, a fault), an
interrupt or exception, a return with SP not back where it was.

Prints `instructions: N`, `stack: N B` (the deepest the function wrote
below its entry SP, found by painting all the free RAM, from the end of
the image's .data/.bss up to SP, as the firmware does),
and with `--read SYMBOL:N` the N f32 words at SYMBOL as hex bits (the same
form as the firmware's `output:` line, to compare with QEMU's run); with
`--read SYMBOL:N:i8` the N int8 values there, `i8` and a byte each, as an
int8 firmware prints them (`finish_i8`); then the cycles at P = 1, 2, 3, the
branches and divisions, the cycles per class (load, store, MAC: every
multiply, the SIMD MACs included; SIMD/DSP: the other DSP-extension
instructions, SXTB16 and the like; ALU; branch; FPU), the load/store model's
variants, and as asked the cycles per function symbol (--by-symbol), the
blocks whose cycles exceed their instructions most (--top), the executed
instructions of an address range with their cycles (--list).
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

try:
    from elftools.elf.elffile import ELFFile
    from unicorn import (UC_ARCH_ARM, UC_HOOK_BLOCK, UC_HOOK_CODE, UC_HOOK_INTR,
                         UC_HOOK_MEM_INVALID, UC_MODE_MCLASS, UC_MODE_THUMB, Uc,
                         UcError)
    from unicorn import arm_const
    from unicorn.arm_const import (UC_ARM_REG_FPEXC, UC_ARM_REG_LR, UC_ARM_REG_PC,
                                   UC_ARM_REG_SP, UC_CPU_ARM_CORTEX_M4)
except ImportError as e:  # a missing module is a failure, said plainly
    sys.exit(f"count_cycles: {e} (pip install unicorn pyelftools)")

FLASH, FLASH_SIZE = 0x0000_0000, 4 << 20
RAM, RAM_SIZE = 0x2000_0000, 4 << 20
RETURN = FLASH + FLASH_SIZE - 0x100  # in flash, past any firmware here
PAINT = 0xC5AC5EED
HERE = os.path.dirname(os.path.abspath(__file__))


class CountError(Exception):
    pass


# --- per layer kind (--by-kind) ----------------------------------------------
# The kinds an instruction is attributed to, in the table's order.
KINDS = ("1x1 convolution", "kxk convolution", "convolution (portable)", "depthwise",
         "fully connected", "pooling", "requantization", "other")
MAC_KINDS = {"1x1 convolution", "kxk convolution", "convolution (portable)", "depthwise",
             "fully connected"}
# A function's kind by its qualified name (its crate, the DWARF namespaces
# and its name, generic arguments cut off; a build with
# CARGO_PROFILE_RELEASE_DEBUG=line-tables-only has no namespaces, and LTO
# puts a function's DWARF in the compile unit it is inlined into: its name
# alone, `?::matmul`, the kernels' names being distinct), first match: shapecheck-tflite's DSP kernels
# (each in its kernel's dsp.rs, tflite/src/ops/conv/, its depthwise_conv/ and fully_connected/:
# matmul is the 1x1 convolution, conv_im2col the kxk one, depthwise and
# depthwise_as_conv the depthwise ones, vec_mat the fully connected layer),
# its portable kernels (conv/mod.rs, depthwise_conv/mod.rs,
# fully_connected/mod.rs, pool.rs), the output stage (quant.rs's OutputStage and
# the fixed-point multiply under it, tflite/src/arith/dsp.rs's requant4 and write4), and
# MicroFlow's ops. Anything else (mean, add, pad, softmax, reshape, copies,
# the layers' glue) is "other".
KIND_RULES = [(re.compile(rx), kind) for rx, kind in (
    (r"^(shapecheck_tflite|\?)::((ops::)?(conv::)?dsp::)?matmul$", "1x1 convolution"),
    (r"^(shapecheck_tflite|\?)::((ops::)?(conv::)?dsp::)?conv_im2col$", "kxk convolution"),
    (r"^(shapecheck_tflite|\?)::(ops::)?(conv::)?conv_2d_int8$", "convolution (portable)"),
    (r"^(shapecheck_tflite|\?)::(ops::conv::)?(((depthwise_conv::)?dsp::)?(depthwise|depthwise_as_conv)|"
     r"(depthwise_conv::)?depthwise_conv_int8)$", "depthwise"),
    (r"^(shapecheck_tflite|\?)::(ops::conv::)?(((fully_connected::)?dsp::)?vec_mat|(fully_connected::)?fully_connected_int8)$",
     "fully connected"),
    (r"^(shapecheck_tflite|\?)::(ops::)?(pool::)?(pool|average_pool_int8|max_pool_int8)$", "pooling"),
    (r"^(shapecheck_tflite|\?)::(arith::)?((quant::)?((OutputStage|Scale)::)?(apply|"
     r"multiply_by_quantized_multiplier|saturating_rounding_doubling_high_mul|"
     r"rounding_divide_by_pot|divide_by_pot_up_to_31|high_mul|saturate)|"
     r"(dsp::)?(arch::)?(requant4|write4)|dsp::Requant4::.*)$", "requantization"),
    (r"^(microflow|\?)::(ops::conv_2d::)?conv_2d$", "convolution (portable)"),
    (r"^(microflow|\?)::(ops::depthwise_conv_2d::)?depthwise_conv_2d$", "depthwise"),
    (r"^(microflow|\?)::(ops::fully_connected::)?fully_connected$", "fully connected"),
    (r"^(microflow|\?)::(ops::average_pool_2d::)?average_pool_2d$", "pooling"),
)]


def kind_of(name):
    """The layer kind of a function by its qualified name, or None."""
    for rx, kind in KIND_RULES:
        if rx.search(name):
            return kind
    return None


def paint_kinds(lo, hi, functions):
    """Per halfword of [lo, hi), the index in KINDS of its innermost function
    with a layer kind, and whether it lies in the output stage: `functions`
    are (depth, kind, [(start, end), ...]), depth the nesting of inlined
    calls. Deeper functions paint over shallower ones (the portable
    convolution hands its work to the DSP kernels: theirs wins; a depthwise
    convolution of one input channel runs as the kxk convolution it is,
    dsp::depthwise_as_conv calling conv_im2col, and reads as kxk, as
    model_macs counts its MACs). The output stage is marked apart (the
    second bytearray): `resolve` makes it requantization only inside a
    convolution, depthwise or fully connected layer. A halfword no function
    claims is "other" (resolve gives it its caller's kind)."""
    other = KINDS.index("other")
    paint = bytearray([other]) * ((hi - lo) // 2)
    stage = bytearray(len(paint))
    requant = KINDS.index("requantization")
    one, fc = KINDS.index("1x1 convolution"), KINDS.index("fully connected")
    for _, kind, ranges in sorted(functions, key=lambda f: f[0]):
        k = KINDS.index(kind)
        for start, end in ranges:
            a, b = (max(start, lo) - lo) // 2, (min(end, hi) - lo) // 2
            if a >= b:
                continue
            if k == requant:
                stage[a:b] = b"\x01" * (b - a)
            elif k == one and fc in paint[a:b]:
                # a fully connected layer that runs as a matrix product
                # (dsp::matmul under fully_connected_int8) stays one
                for i in range(a, b):
                    if paint[i] != fc:
                        paint[i] = k
            else:
                paint[a:b] = bytes([k]) * (b - a)
    return paint, stage


MAC_INDEX = frozenset(KINDS.index(k) for k in MAC_KINDS)


def resolve(kind, in_stage, caller):
    """The kind of an instruction: its innermost function's (`kind`), or
    where none has one, the kind of the call it runs under (`caller`: an
    out-of-line helper, a copy, a kernel's loop kept out of line, is its
    layer's); then requantization if it lies in the output stage of a
    convolution, depthwise or fully connected layer (elsewhere, in softmax
    say, the same fixed-point multiply is that op's). Returns the kind and
    the layer's kind (what a call from here passes on)."""
    if kind == KINDS.index("other"):
        kind = caller
    elif kind == KINDS.index("1x1 convolution") and caller == KINDS.index("fully connected"):
        kind = caller  # the matrix product of a fully connected layer, out of line
    if in_stage and kind in MAC_INDEX:
        return KINDS.index("requantization"), kind
    return kind, kind


def dwarf_functions(path, lo, hi):
    """The functions of the ELF's DWARF with a layer kind, as paint_kinds
    takes them: each subprogram and inlined subroutine (LTO inlines the
    kernels into predict_once; the firmware is built with the line tables
    and inline info for this, CARGO_PROFILE_RELEASE_DEBUG=line-tables-only,
    which does not change the code, where full debuginfo does: 64 B more
    .text for person detection at `s`)."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        if not elf.has_dwarf_info():
            raise CountError(f"{path}: no DWARF (build with "
                             "CARGO_PROFILE_RELEASE_DEBUG=line-tables-only)")
        dwarf = elf.get_dwarf_info()
        ranges = dwarf.range_lists()
        names = {}
        out = []

        def qualified(die):
            seen = 0
            while seen < 8:
                a = die.attributes
                if "DW_AT_abstract_origin" in a:
                    die = die.get_DIE_from_attribute("DW_AT_abstract_origin")
                elif "DW_AT_specification" in a:
                    die = die.get_DIE_from_attribute("DW_AT_specification")
                else:
                    break
                seen += 1
            if die.offset in names:
                return names[die.offset]
            parts = []
            d = die
            while d is not None and d.tag != "DW_TAG_compile_unit":
                if "DW_AT_name" in d.attributes:
                    parts.append(re.sub(r"<.*$", "", d.attributes["DW_AT_name"].value.decode(
                        errors="replace")))
                d = d.get_parent()
            if d is not None and len(parts) == 1:  # line tables only: no namespaces
                parts.append("?")
            name = "::".join(reversed(parts))
            names[die.offset] = name
            return name

        def die_ranges(cu, base, die):
            a = die.attributes
            if "DW_AT_low_pc" in a and "DW_AT_high_pc" in a:
                start, high = a["DW_AT_low_pc"].value, a["DW_AT_high_pc"]
                end = high.value if high.form == "DW_FORM_addr" else start + high.value
                return [(start, end)]
            if "DW_AT_ranges" in a and ranges is not None:
                out, b = [], base
                for e in ranges.get_range_list_at_offset(a["DW_AT_ranges"].value, cu=cu):
                    if hasattr(e, "base_address"):
                        b = e.base_address
                    elif e.is_absolute:
                        out.append((e.begin_offset, e.end_offset))
                    else:
                        out.append((b + e.begin_offset, b + e.end_offset))
                return out
            return []

        walk = {"DW_TAG_namespace", "DW_TAG_subprogram", "DW_TAG_inlined_subroutine",
                "DW_TAG_lexical_block"}
        for cu in dwarf.iter_CUs():
            top = cu.get_top_DIE()
            base = top.attributes["DW_AT_low_pc"].value if "DW_AT_low_pc" in top.attributes else 0
            stack = [(child, 0) for child in top.iter_children()]
            while stack:
                die, depth = stack.pop()
                if die.tag not in walk:
                    continue
                inner = depth
                if die.tag in ("DW_TAG_subprogram", "DW_TAG_inlined_subroutine"):
                    inner = depth + 1
                    r = die_ranges(cu, base, die)
                    if r and any(s < hi and e > lo for s, e in r):
                        kind = kind_of(qualified(die))
                        if kind:
                            out.append((inner, kind, r))
                    elif die.tag == "DW_TAG_subprogram" and not r:
                        continue  # a declaration: no code below it
                stack.extend((child, inner) for child in die.iter_children())
        return out


def thumb_count(code):
    """The number of Thumb-2 instructions in `code` (whole instructions)."""
    n = i = 0
    while i < len(code):
        hw = code[i] | (code[i + 1] << 8)
        i += 4 if (hw >> 11) in (0b11101, 0b11110, 0b11111) else 2
        n += 1
    if i != len(code):
        raise CountError(f"a block ends inside an instruction ({len(code)} bytes)")
    return n


# --- the cycle model ---------------------------------------------------------
# What each executed instruction costs on a Cortex-M4(F), from the Cortex-M4
# Technical Reference Manual (ARM DDI 0439B, r0p1; TI reprints the same tables
# for its Cortex-M4F parts: SWCU192 Tables 3-25 to 3-27, SWCU185 "Load/store
# timings"). "The cycle counts are based on a system with zero wait states":
# no flash wait states (core-coupled or ART-accelerated flash), no bus
# contention, no interrupts. P is a pipeline refill, "1 to 3 depending on the
# alignment and width of the target instruction, and whether the processor
# manages to speculate the address early": a parameter (P=2 the midpoint,
# P=1 and P=3 the range). N: the registers in the list, PC included.
#
# Table 3-1, Cortex-M4 instruction set summary (§3.3.1):
#   MOV, MOVW, MOVT, ADD, ADC, ADR, SUB, SBC, RSB, CMP, CMN, AND, EOR, ORR,
#   ORN, BIC, MVN, TST, TEQ, LSL, LSR, ASR, ROR, RRX, CLZ, SSAT, USAT, SXTB,
#   SXTH, UXTB, UXTH, UBFX, SBFX, BFC, BFI, REV, REV16, REVSH, RBIT, NOP  1
#   MOV PC, Rm / ADD PC, PC, Rm                                      1 + P
#   MUL, MLA, MLS, SMULL, UMULL, SMLAL, UMLAL                            1
#   SDIV, UDIV     2 to 12 ("early termination"): a parameter, 7 by default
#   LDR, LDRH, LDRB, LDRSH, LDRSB, LDRT.., LDREX.., STR, STRH, STRB,
#   STRT.., STREX..    2, note: "Neighboring load and store single
#                      instructions can pipeline their address and data
#                      phases. This enables these instructions to complete
#                      in a single execution cycle."
#   LDRD, STRD (N = 2), LDM, STM, PUSH, POP                          1 + N
#   POP / LDM with PC                                            1 + N + P
#   LDR PC, [..]                                                     2 + P
#   B, BL, BX, BLX                                                   1 + P
#   B<cond>, CBZ, CBNZ        1 if not taken ("Conditional branch completes
#                             in a single cycle if the branch is not taken"),
#                             1 + P if taken
#   TBB, TBH                                                         2 + P
#   IT                                                                   1
# Table 3-2, DSP instruction set summary: every one 1 cycle (SMLAD/X,
#   SMLSD/X, SMLA<x><y>, SMLAW<y>, SMLAL<x><y>, SMLALD/X, SMLSLD/X, SMUAD/X,
#   SMUSD/X, SMUL<x><y>, SMULW<y>, SMMUL/R, SMMLA/R, SMMLS/R, UMAAL, USAD8,
#   USADA8, SXTB16, UXTB16, SXTAB16, UXTAB16, SXTAB, SXTAH, UXTAB, UXTAH,
#   PKHBT, PKHTB, QADD, QSUB, QDADD, QDSUB, the parallel adds and subtracts
#   S/Q/SH/U/UQ/UH ADD8/ADD16/SUB8/SUB16/ASX/SAX, SEL, SSAT16, USAT16).
# FPU instruction set (§7.2.3, Table 7-1):
#   VABS, VADD, VSUB, VMUL, VNMUL, VNEG, VCMP(E), VCVT (all kinds), VMOV
#   immediate / float to float, VMRS, VMSR                               1
#   VMOV top or bottom half of a double to or from a core register       1
#   VMOV one float to or from one core register, two floats or a double
#   to or from two core registers                                        2
#   VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS                   3
#   VDIV, VSQRT                                                         14
#   VLDR/VSTR single 2, double 3; VLDM/VSTM/VPUSH/VPOP 1 + N floats,
#   1 + 2N doubles
#   and: "Floating-point arithmetic data processing instructions, such as
#   add, subtract, multiply, divide, square-root, all forms of multiply with
#   accumulate, as well as conversions of all types take one cycle longer if
#   their result is consumed by the following instruction. Both fused and
#   chained multiply with accumulate instructions consume their addend one
#   cycle later" (so not when the result is the next MAC's addend).
# Instructions of an IT block whose condition fails cost 1 each (they are
# issued; a failed load does no access).
#
# Load/store pipelining, the default model (LS_PAIR): a single load or store
# (LDR*, STR*, LDREX/STREX) right after a single load or store costs 1,
# otherwise 2, with the two exceptions §3.3.2 "Load/store timings" states:
# "if the next instruction is an LDR or STR, and the destination of the first
# LDR is not used to compute the address for the next instruction, then one
# cycle is removed from the cost of the next instruction" (a load whose
# destination is the next one's base or index does not pipeline), and "Other
# instructions cannot be pipelined after STR with register offset". "LDRD and
# STRD cannot be pipelined with preceding or following instructions", nor
# "LDM and STM"; VLDR/VSTR are not pipelined here either (the notes name the
# integer single loads and stores).
#
# Two more readings of §3.3.2, reported as sensitivities, not in the default:
#   LS_STORE1 ("trm"): "STR Rx,[Ry,#imm] is always one cycle" (the write
#     buffer takes the data), and "STR can only be pipelined when it follows
#     an LDR, but nothing can be pipelined after the store": a store with an
#     immediate offset costs 1, a load pipelines only after a load;
#   AGU: "Any load or store that generates an address dependent on the
#     result of a preceding data processing operation stalls the pipeline
#     for an additional cycle while the register bank is updated. There is
#     no forwarding path for this scenario." (+1).
# Not modelled: "LDR Rx,[PC,#imm] might add a cycle because of contention with
# the fetch unit" (counted: `literal loads`), unaligned LDR/STR(H) ("A
# halfword aligned word load or store adds one extra cycle ... A byte-aligned
# word load or store adds two extra cycles"; counted with --unaligned), wait
# states, the write buffer filling, the folding of an IT into the preceding
# 16-bit instruction some cores do, branch speculation beyond P.
try:
    import capstone
    from capstone import arm as cs_arm
except ImportError as e:
    sys.exit(f"count_cycles: {e} (pip install capstone)")

CLASSES = ("load", "store", "MAC", "SIMD/DSP", "ALU", "branch", "FPU")
C_LOAD, C_STORE, C_MAC, C_DSP, C_ALU, C_BRANCH, C_FPU = range(len(CLASSES))
LOAD1 = {"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrt", "ldrbt", "ldrht", "ldrsbt",
         "ldrsht", "ldrex", "ldrexb", "ldrexh"}
STORE1 = {"str", "strb", "strh", "strt", "strbt", "strht", "strex", "strexb", "strexh"}
LOADM = {"ldm", "ldmdb", "ldmia", "ldmea", "ldmfd", "pop"}
STOREM = {"stm", "stmdb", "stmia", "stmea", "stmfd", "push"}
VLOADM = {"vldmia", "vldmdb", "vldm", "vpop"}
VSTOREM = {"vstmia", "vstmdb", "vstm", "vpush"}
MACS = {"mul", "mla", "mls", "smull", "umull", "smlal", "umlal", "umaal", "smlabb", "smlabt",
        "smlatb", "smlatt", "smlad", "smladx", "smlalbb", "smlalbt", "smlaltb", "smlaltt",
        "smlald", "smlaldx", "smlawb", "smlawt", "smlsd", "smlsdx", "smlsld", "smlsldx",
        "smmla", "smmlar", "smmls", "smmlsr", "smmul", "smmulr", "smuad", "smuadx", "smulbb",
        "smulbt", "smultb", "smultt", "smulwb", "smulwt", "smusd", "smusdx", "usad8", "usada8"}
DSPS = {"sxtb16", "uxtb16", "sxtab16", "uxtab16", "sxtab", "sxtah", "uxtab", "uxtah", "pkhbt",
        "pkhtb", "qadd", "qsub", "qdadd", "qdsub", "sel", "ssat16", "usat16"} | {
    p + op for p in ("s", "q", "sh", "u", "uq", "uh")
    for op in ("add8", "add16", "sub8", "sub16", "asx", "sax")}
FP_MAC = {"vmla", "vmls", "vnmla", "vnmls", "vfma", "vfms", "vfnma", "vfnms"}
FP_LONG = {"vdiv", "vsqrt"}
# FP instructions whose result takes a cycle longer to reach the next one
FP_LATENT = {"vadd", "vsub", "vmul", "vnmul", "vdiv", "vsqrt", "vcvt", "vcvta", "vcvtb",
             "vcvtt", "vcvtr", "vcvtn", "vcvtp", "vcvtm"} | FP_MAC
BRANCHES = {"b", "bl", "blx", "bx", "cbz", "cbnz", "tbb", "tbh"}
# the loads and stores that may be unaligned (the others fault), and their width
WIDTHS = {"ldr": 4, "ldrt": 4, "str": 4, "strt": 4, "ldrh": 2, "ldrsh": 2, "ldrht": 2,
          "ldrsht": 2, "strh": 2, "strht": 2}
CORE_REG = re.compile(r"^(r\d+|sb|sl|fp|ip|sp|lr|pc)$")
FP_REG = re.compile(r"^([sd])(\d+)$")

# model variants: bit 0 the "trm" store reading, bit 1 the AGU stall
LS_PAIR, LS_STORE1, AGU = 0, 1, 2
VARIANTS = (LS_PAIR, LS_STORE1, LS_PAIR | AGU, LS_STORE1 | AGU)
VARIANT_NAMES = ("pair (default)", "store 1", "pair + AGU", "store 1 + AGU")


def fp_regs(names):
    """Single-precision register names (a double counts as its two halves)."""
    out = set()
    for r in names:
        m = FP_REG.match(r)
        if m:
            n = int(m.group(2))
            out |= {f"s{n}"} if m.group(1) == "s" else {f"s{2 * n}", f"s{2 * n + 1}"}
    return frozenset(out)


class Op:
    """One instruction as the cycle model sees it.

    base: its cycles when it executes and is not pipelined, without P and
      without a division's cycles (`div`); a branch's cycles when taken,
      less P;
    cls: its class (CLASSES), where its cycles go (a taken branch's P goes to
      "branch", and so does the whole of a branch that is only a branch);
    ls: "l" a single load, "s" a single store with an immediate offset, "sr"
      one with a register offset (the instructions that pipeline), else None;
    dest: the registers a load writes; areg: the registers an access's address
      is made of (base, index);
    branch: 0, 1 a conditional branch, 2 an unconditional one (taken unless
      in an IT block whose condition fails);
    cond: in an IT block (its condition may fail);
    fpw, fpr: the FP registers it writes with a result latency, and reads;
    dpw: the core registers a data-processing instruction writes;
    lit: a PC-relative load;
    probe: for a word or halfword LDR/STR (the ones that may be unaligned),
      how to compute its address: (width, base, index or None, shift,
      offset), registers as unicorn's ids."""
    __slots__ = ("addr", "size", "name", "text", "cls", "base", "ls", "dest", "areg", "branch",
                 "cond", "div", "fpw", "fpr", "dpw", "lit", "probe")

    def __repr__(self):
        return f"{self.addr:#x} {self.text}"


def make_op(i, in_it):
    """The Op of capstone instruction `i` (`in_it`: inside an IT block)."""
    op = Op()
    op.addr, op.size = i.address, i.size
    name = i.insn_name()
    op.name = name
    op.text = f"{i.mnemonic} {i.op_str}".strip()
    regs = [(o, i.reg_name(o.reg)) for o in i.operands if o.type == cs_arm.ARM_OP_REG]
    rnames = [r for _, r in regs]
    mem = [o for o in i.operands if o.type == cs_arm.ARM_OP_MEM]
    areg = set()
    for o in mem:
        if o.mem.base:
            areg.add(i.reg_name(o.mem.base))
        if o.mem.index:
            areg.add(i.reg_name(o.mem.index))
    reads, writes = (set(i.reg_name(r) for r in rs) for rs in i.regs_access())
    op.cls, op.base, op.ls, op.dest, op.branch = C_ALU, 1, None, frozenset(), 0
    op.div, op.lit, op.fpw, op.dpw = False, False, frozenset(), frozenset()
    op.probe = None
    if name in WIDTHS and len(mem) == 1:
        m = mem[0]
        shift = m.shift.value if m.shift.type == cs_arm.ARM_SFT_LSL else 0
        uc_reg = lambda r: getattr(arm_const, "UC_ARM_REG_" + i.reg_name(r).upper())
        op.probe = (WIDTHS[name], uc_reg(m.mem.base), uc_reg(m.mem.index) if m.mem.index else None,
                    shift, m.mem.disp)
    op.fpr = fp_regs(reads)
    op.cond = in_it
    has_pc = "pc" in rnames
    if name in LOAD1 or name == "ldrd":
        op.cls = C_LOAD
        op.dest = frozenset(rnames)  # the registers before the memory operand
        op.lit = "pc" in areg
        if name == "ldrd":
            op.base = 3
        elif has_pc:  # LDR PC, [..]: 2 + P
            op.base, op.branch = 2, 2
        else:
            op.base, op.ls = 2, "l"
    elif name in STORE1 or name == "strd":
        op.cls = C_STORE
        if name == "strd":
            op.base = 3
        else:
            op.base = 2
            op.ls = "sr" if any(o.mem.index for o in mem) else "s"
    elif name in LOADM:
        op.cls = C_LOAD
        lst = rnames if name == "pop" else rnames[1:]
        if name != "pop":
            areg.add(rnames[0])
        else:
            areg.add("sp")
        op.dest = frozenset(lst)
        op.base = 1 + len(lst)
        if has_pc:
            op.branch = 2
    elif name in STOREM:
        op.cls = C_STORE
        lst = rnames if name == "push" else rnames[1:]
        areg.add("sp" if name == "push" else rnames[0])
        op.base = 1 + len(lst)
    elif name == "vldr" or name == "vstr":
        op.cls = C_LOAD if name == "vldr" else C_STORE
        op.base = 3 if rnames and rnames[0].startswith("d") else 2
        op.lit = "pc" in areg
    elif name in VLOADM or name in VSTOREM:
        op.cls = C_LOAD if name in VLOADM else C_STORE
        lst = [r for r in rnames if FP_REG.match(r)]
        if name in ("vpush", "vpop"):
            areg.add("sp")
        else:
            areg.add(rnames[0])
        op.base = 1 + sum(2 if r.startswith("d") else 1 for r in lst)
    elif name in BRANCHES:
        op.cls = C_BRANCH
        op.branch = 2
        if name in ("cbz", "cbnz") or (name == "b" and i.cc not in (cs_arm.ARM_CC_AL,
                                                                    cs_arm.ARM_CC_INVALID)
                                       and not in_it):
            op.branch = 1
        op.base = 2 if name in ("tbb", "tbh") else 1
    elif "pc" in writes and name in ("mov", "add"):
        op.cls, op.base, op.branch = C_BRANCH, 1, 2
    elif name in ("sdiv", "udiv"):
        op.div, op.base = True, 0
    elif name in MACS:
        op.cls = C_MAC
    elif name in DSPS:
        op.cls = C_DSP
    elif name.startswith("v") or name == "fmstat":
        op.cls = C_FPU
        if name in FP_MAC:
            op.base = 3
            op.fpr = fp_regs(rnames[1:])  # the addend is consumed a cycle later
        elif name in FP_LONG:
            op.base = 14
        elif name == "vmov":
            core = [r for r in rnames if CORE_REG.match(r)]
            half = any(o.vector_index != -1 for o, _ in regs)
            op.base = 2 if core and not half else 1
        if name in FP_LATENT:
            op.fpw = fp_regs(rnames[:1])
    if op.branch and in_it:
        op.branch = 2  # conditional through its IT block: taken unless it fails
    if op.cls in (C_ALU, C_MAC, C_DSP, C_FPU) and not op.branch:
        op.dpw = frozenset(r for r in writes if CORE_REG.match(r))
    op.areg = frozenset(areg)
    return op


_CS = None


def decode(address, code):
    """The Ops of a translated block (Thumb, M-class)."""
    global _CS
    if _CS is None:
        _CS = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)
        _CS.detail = True
    ops, left, size = [], 0, 0
    for i in _CS.disasm(code, address):
        ops.append(make_op(i, left > 0))
        left = max(0, left - 1)
        if i.insn_name() == "it":
            left = len(i.mnemonic) - 1  # it, itt, ite, ittt, ...: 1 to 4
        size += i.size
    if size != len(code):
        raise CountError(f"capstone decodes {size} of the {len(code)} bytes of the block "
                         f"at {address:#x}")
    return ops


def op_cost(prev, op, variant):
    """The cycles of `op` (not a division's, not a taken branch's P) when it
    executes right after `prev` (None: nothing the model pairs with, as at the
    entry). A branch's own cycles are not here (they depend on whether it is
    taken): only what its predecessor adds."""
    c = 0 if op.branch else op.base
    if op.ls:
        if variant & LS_STORE1:
            if op.ls == "s":
                c = 1
            elif prev is not None and prev.ls == "l" and not (prev.dest & op.areg):
                c = 1
        elif (prev is not None and prev.ls in ("l", "s")
              and not (prev.ls == "l" and prev.dest & op.areg)):
            c = 1
    if prev is not None:
        if variant & AGU and op.areg and prev.dpw & op.areg:
            c += 1
        if prev.fpw and prev.fpw & op.fpr:
            c += 1
    return c


class Tally:
    """Per instruction address: its Op, executions, the fixed cycles under
    each variant, taken branches (each P cycles), divisions (each DIV
    cycles), and cycles it waited on a predecessor or stalled."""
    __slots__ = ("op", "n", "fixed", "taken", "divs", "failed", "pipelined")

    def __init__(self, op):
        self.op, self.n, self.fixed = op, 0, [0] * len(VARIANTS)
        self.taken = self.divs = self.failed = self.pipelined = 0

    def cycles(self, p=2, div=7, v=0):
        return self.fixed[v] + p * self.taken + div * self.divs


END = (RETURN, 0)


def tally(blocks, edges, passed=None, watch=()):
    """Adds up the cycles per instruction address from the block graph:
    `blocks` key (address, size) -> Ops, `edges` (from key or None, to key or
    END) -> times. `watch`: the addresses of the conditional multi-cycle
    instructions of IT blocks, `passed` how often each one's condition
    passed (absent: never); the rest cost 1."""
    per = {}

    def at(op):
        t = per.get(op.addr)
        if t is None:
            t = per[op.addr] = Tally(op)
        return t

    runs = {}
    for (src, dst), n in edges.items():
        if dst != END:
            runs[dst] = runs.get(dst, 0) + n
    nv = len(VARIANTS)
    for key, n in runs.items():
        ops = blocks[key]
        for j, op in enumerate(ops):
            t = at(op)
            t.n += n
            if op.div:
                t.divs += n
            if j == 0:
                continue
            for v in range(nv):
                t.fixed[v] += n * op_cost(ops[j - 1], op, VARIANTS[v])
            if op.ls and op_cost(ops[j - 1], op, 0) == 1:
                t.pipelined += n
            if op.branch and j < len(ops) - 1:
                for v in range(nv):  # a branch the block runs past: not taken
                    t.fixed[v] += n
    for (src, dst), n in edges.items():
        if dst != END:
            op = blocks[dst][0]
            prev = blocks[src][-1] if src is not None else None
            t = at(op)
            for v in range(nv):
                t.fixed[v] += n * op_cost(prev, op, VARIANTS[v])
            if op.ls and op_cost(prev, op, 0) == 1:
                t.pipelined += n
        if src is not None:
            last = blocks[src][-1]
            if last.branch:
                fall = src[0] + src[1]
                taken = dst == END or dst[0] != fall or (last.branch == 2 and not last.cond)
                t = at(last)
                for v in range(nv):
                    t.fixed[v] += n * (last.base if taken else 1)
                if taken:
                    t.taken += n
    for addr in watch:
        ok = (passed or {}).get(addr, 0)
        t = per.get(addr)
        if t is None or t.op.branch:
            continue
        failed = t.n - ok
        t.failed = failed
        if failed <= 0:
            continue
        if t.op.div:  # a failed division: 1 cycle, not DIV
            t.divs -= failed
            for v in range(nv):
                t.fixed[v] += failed
            continue
        for v in range(nv):  # the failed ones cost 1, the mean cost otherwise
            mean = t.fixed[v] / t.n
            t.fixed[v] -= round(failed * (mean - 1))
    return per


def it_watch(blocks):
    """The addresses of the executed instructions of IT blocks whose cycles
    would change if their condition failed (more than 1 cycle, not a
    branch: a branch's outcome is read from the next block)."""
    return sorted({op.addr for ops in blocks.values() for op in ops
                   if op.cond and not op.branch and (op.base > 1 or op.div)})


def load(path):
    """The ELF's loadable segments and its symbols (name -> address)."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        if elf["e_machine"] != "EM_ARM":
            raise CountError(f"{path}: not an ARM ELF")
        segments = [(s["p_vaddr"], s["p_paddr"], s.data(), s["p_memsz"])
                    for s in elf.iter_segments() if s["p_type"] == "PT_LOAD"]
        symtab = elf.get_section_by_name(".symtab")
        if symtab is None:
            raise CountError(f"{path}: no symbol table")
        symbols = {s.name: s["st_value"] for s in symtab.iter_symbols() if s.name}
    return segments, symbols


def model_macs(path):
    """The MACs of one inference of a .tflite model per layer kind (the
    kinds of KINDS: a CONV_2D with a 1x1 filter, with a larger one, a
    DEPTHWISE_CONV_2D (of one input channel: kxk, as the DSP path runs it),
    a FULLY_CONNECTED), and the outputs those layers
    write (each one requantized), read from the flatbuffer: the stored
    shapes (batch 1) of each operator's output and filter."""
    b = open(path, "rb").read()

    def u32(o):
        return struct.unpack_from("<I", b, o)[0]

    def table(pos):
        vt = pos - struct.unpack_from("<i", b, pos)[0]
        vlen = struct.unpack_from("<H", b, vt)[0]

        def field(i):
            if 4 + 2 * i >= vlen:
                return None
            off = struct.unpack_from("<H", b, vt + 4 + 2 * i)[0]
            return pos + off if off else None
        return field

    def vector(at):
        p = at + u32(at)
        return p + 4, u32(p)

    def tables(at):
        p, n = vector(at)
        return [p + 4 * k + u32(p + 4 * k) for k in range(n)]

    def ints(at):
        if at is None:
            return []
        p, n = vector(at)
        return list(struct.unpack_from(f"<{n}i", b, p))

    try:
        model = table(u32(0))
        codes = []
        for oc in tables(model(1)):
            f = table(oc)
            old = struct.unpack_from("<b", b, f(0))[0] if f(0) else 0
            new = struct.unpack_from("<i", b, f(3))[0] if f(3) else 0
            codes.append(max(old, new))
        graph = table(tables(model(2))[0])
        shapes = [ints(table(t)(0)) for t in tables(graph(0))]
        macs = {k: 0 for k in KINDS}
        outputs = 0
        for op in tables(graph(3)):
            f = table(op)
            code = codes[u32(f(0)) if f(0) else 0]
            ins, outs = ints(f(1)), ints(f(2))
            out = 1
            for d in shapes[outs[0]]:
                out *= d
            if code == 3:  # CONV_2D: filter [O, kh, kw, I]
                o, kh, kw, i = shapes[ins[1]]
                macs["1x1 convolution" if kh == kw == 1 else "kxk convolution"] += out * kh * kw * i
            elif code == 4:  # DEPTHWISE_CONV_2D: filter [1, kh, kw, O]
                _, kh, kw, _ = shapes[ins[1]]
                # of one input channel (person detection's first layer): a
                # kxk convolution, as shapecheck-tflite's DSP path runs it
                # (dsp::depthwise_as_conv)
                one = shapes[ins[0]][-1] == 1
                macs["kxk convolution" if one else "depthwise"] += out * kh * kw
            elif code == 9:  # FULLY_CONNECTED: filter [O, I]
                macs["fully connected"] += out * shapes[ins[1]][-1]
            else:
                continue
            outputs += out
    except (struct.error, IndexError, ValueError, TypeError) as e:
        raise CountError(f"{path}: not a .tflite model this reader follows ({e})") from None
    return macs, outputs


def kind_table(kinds, total, macs=None, outputs=0):
    """The lines of the per-kind table."""
    all_macs = sum(macs.values()) if macs else 0
    lines = [f"{'kind':<24}{'instructions':>14}{'share':>9}{'MACs':>12}{'per MAC':>9}"
             f"{'per model MAC':>15}"]
    for kind in KINDS:
        n = kinds[kind]
        m = macs.get(kind, 0) if macs else 0
        own = f"{n / m:.2f}" if m else "-"
        whole = f"{n / all_macs:.2f}" if all_macs else "-"
        lines.append(f"{kind:<24}{n:>14,}{100 * n / total if total else 0:>8.1f}%"
                     f"{(f'{m:,}' if m else '-'):>12}{own:>9}{whole:>15}")
    whole = f"{total / all_macs:.2f}" if all_macs else "-"
    lines.append(f"{'total':<24}{total:>14,}{100.0:>8.1f}%"
                 f"{(f'{all_macs:,}' if all_macs else '-'):>12}{whole:>9}{whole:>15}")
    if outputs:
        r = kinds["requantization"]
        lines.append(f"requantization: {r / outputs:.1f} instructions per output of the "
                     f"convolution, depthwise and fully connected layers ({outputs:,} outputs)")
    return lines


def count(path, symbol="predict_once", read=None, code_hook=False, by_kind=False,
          watch=(), probes=None):
    """Runs `symbol` of the ELF at `path` once; returns a dict of the
    instruction count, the stack depth, and the words read after the run
    (and with `by_kind` the instructions per layer kind, "kinds"); for the
    cycle model, the block graph: "edges" ((from block or None, to block or
    END) -> times, a block being (address, size)) and "code" (block -> its
    bytes); with `watch` (addresses) "passed", how often each of them
    executed with its condition passing (the per-instruction hook does not
    see an instruction of an IT block whose condition fails); with
    `probes` (address -> a word or halfword load/store's Op.probe)
    "unaligned", the unaligned accesses by (address, penalty cycles) ->
    times (§3.3.2). Both are per-address code hooks: a memory hook
    (UC_HOOK_MEM_READ, even one that does nothing) makes unicorn 2.1.4 run
    person detection wrong (a fault at 0xfd4, after an IT block of
    conditional loads), so the address is computed from the registers."""
    segments, symbols = load(path)
    if symbol not in symbols:
        raise CountError(f"{path}: no symbol {symbol}")
    entry = symbols[symbol] & ~1
    sp = symbols.get("_stack_start", RAM + RAM_SIZE)

    uc = Uc(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS)
    uc.ctl_set_cpu_model(UC_CPU_ARM_CORTEX_M4)
    uc.mem_map(FLASH, FLASH_SIZE)
    uc.mem_map(RAM, RAM_SIZE)
    for vaddr, paddr, data, memsz in segments:
        for addr in {vaddr, paddr}:
            uc.mem_write(addr, data)  # the rest up to memsz stays zero
        if memsz < len(data):
            raise CountError(f"{path}: a segment's file size exceeds its memory size")
    # paint all the free RAM below SP, from the end of the image's RAM
    # (.data, .bss, .uninit: cortex-m-rt's heap start `__sheap`) up to SP:
    # the stack is the top of RAM, .data/.bss its bottom, so the painted
    # depth follows the RAM's size (MicroFlow's person detection at `s`
    # takes 338 KB of stack)
    low = RAM
    for vaddr, _, _, memsz in segments:
        if RAM <= vaddr < sp:
            low = max(low, (vaddr + memsz + 3) & ~3)
    heap = symbols.get("__sheap", RAM)
    if RAM <= heap < sp:
        low = max(low, (heap + 3) & ~3)
    uc.mem_write(low, struct.pack("<I", PAINT) * ((sp - low) // 4))

    uc.reg_write(UC_ARM_REG_FPEXC, 0x4000_0000)  # FPU on
    uc.reg_write(UC_ARM_REG_SP, sp)
    uc.reg_write(UC_ARM_REG_LR, RETURN | 1)

    blocks = {}
    state = {"insns": 0, "per_insn": 0, "fault": None, "prev": None}
    edges, code_of, passed, misaligned = {}, {}, {}, {}
    kinds = [0] * len(KINDS)
    if by_kind:
        code = [(v, v + m) for v, _, _, m in segments if v < RAM]
        lo, hi = min(a for a, _ in code), max(b for _, b in code)
        lo &= ~1
        paint, stage = paint_kinds(lo, hi + (hi & 1), dwarf_functions(path, lo, hi))
    other = KINDS.index("other")
    # the calls under way: (return address, the caller's layer kind), so an
    # out-of-line function is attributed to the layer that calls it
    calls = []

    def attribute(address, code, caller):
        """A block's instructions per kind, [(kind index, n), ...], and the
        layer kind its last instruction passes on if it is a call (BL, BLX),
        else None."""
        per = {}
        i = 0
        base = call = None
        while i < len(code):
            at = (address + i - lo) // 2
            inside = 0 <= at < len(paint)
            k, base = resolve(paint[at] if inside else other, inside and stage[at], caller)
            per[k] = per.get(k, 0) + 1
            hw = code[i] | (code[i + 1] << 8)
            if (hw >> 11) in (0b11101, 0b11110, 0b11111):
                hw2 = code[i + 2] | (code[i + 3] << 8) if i + 3 < len(code) else 0
                call = (hw >> 11) == 0b11110 and (hw2 & 0xD000) == 0xD000  # BL
                i += 4
            else:
                call = (hw & 0xFF87) == 0x4780  # BLX register
                i += 2
        return list(per.items()), (base if call else None)

    def on_block(uc, address, size, _):
        key = END if address == RETURN else (address, size)
        e = (state["prev"], key)
        edges[e] = edges.get(e, 0) + 1
        state["prev"] = key
        if address == RETURN:
            return
        if key not in code_of:
            code_of[key] = bytes(uc.mem_read(address, size))
        caller = other
        if by_kind:
            if calls and calls[-1][0] == address:
                calls.pop()
            if calls:
                caller = calls[-1][1]
        n = blocks.get((address, size, caller))
        if n is None:
            code = bytes(uc.mem_read(address, size))
            n = blocks[(address, size, caller)] = (
                thumb_count(code), *(attribute(address, code, caller) if by_kind else ((), None)))
        state["insns"] += n[0]
        for k, m in n[1]:
            kinds[k] += m
        if n[2] is not None:
            calls.append((address + size, n[2]))

    def on_insn(uc, address, size, _):
        if address != RETURN:
            state["per_insn"] += 1

    def on_invalid(uc, access, address, size, value, _):
        state["fault"] = (f"memory access outside flash and RAM at {address:#010x} "
                          f"(pc {uc.reg_read(UC_ARM_REG_PC):#010x})")
        return False

    def on_intr(uc, intno, _):
        state["fault"] = (f"exception {intno} at pc {uc.reg_read(UC_ARM_REG_PC):#010x} "
                          "(semihosting, a fault or an SVC: not plain computation)")
        uc.emu_stop()

    watching = frozenset(watch)
    probes = probes or {}

    def on_code(uc, address, size, _):
        # runs only where the condition passes
        if address in watching:
            passed[address] = passed.get(address, 0) + 1
        probe = probes.get(address)
        if probe is None:
            return
        width, base, index, shift, disp = probe
        if base == UC_ARM_REG_PC:
            at = ((address + 4) & ~3) + disp
        else:
            at = uc.reg_read(base) + disp
        if index is not None:
            at += uc.reg_read(index) << shift
        # §3.3.2: "A byte aligned halfword load or store adds one extra cycle
        # ... A halfword aligned word load or store adds one extra cycle ...
        # A byte-aligned word load or store adds two extra cycles"
        if width == 4 and at & 3:
            extra = 2 if at & 1 else 1
        elif width == 2 and at & 1:
            extra = 1
        else:
            return
        k = (address, extra)
        misaligned[k] = misaligned.get(k, 0) + 1

    uc.hook_add(UC_HOOK_BLOCK, on_block)
    for a in sorted(watching | set(probes)):
        uc.hook_add(UC_HOOK_CODE, on_code, begin=a, end=a)
    if code_hook:
        uc.hook_add(UC_HOOK_CODE, on_insn)
    uc.hook_add(UC_HOOK_MEM_INVALID, on_invalid)
    uc.hook_add(UC_HOOK_INTR, on_intr)
    try:
        uc.emu_start(entry | 1, RETURN)
    except UcError as e:
        raise CountError(f"{path}: {symbol}: {state['fault'] or e}") from None
    if state["fault"]:
        raise CountError(f"{path}: {symbol}: {state['fault']}")
    pc = uc.reg_read(UC_ARM_REG_PC)
    if pc != RETURN:
        raise CountError(f"{path}: {symbol}: stopped at {pc:#010x}, not at its return")
    if uc.reg_read(UC_ARM_REG_SP) != sp:
        raise CountError(f"{path}: {symbol}: returned with SP "
                         f"{uc.reg_read(UC_ARM_REG_SP):#010x}, not {sp:#010x}")
    # the lowest word that is not the paint (a binary search over prefixes,
    # each compared at memcmp's speed: the painted RAM is megabytes)
    data = bytes(uc.mem_read(low, sp - low))
    paint = struct.pack("<I", PAINT) * ((sp - low) // 4)
    ok, bad = 0, len(paint) // 4 + 1  # data[:4 * ok] is paint, data[:4 * bad] is not
    while bad - ok > 1:
        mid = (ok + bad) // 2
        if data[:4 * mid] == paint[:4 * mid]:
            ok = mid
        else:
            bad = mid
    words, lowest = len(paint) // 4, ok
    if lowest == 0:
        raise CountError(f"{path}: {symbol}: the stack reached the end of the painted "
                         f"{sp - low} bytes")
    if state["prev"] != END:
        e = (state["prev"], END)
        edges[e] = edges.get(e, 0) + 1
    import hashlib
    ram = hashlib.sha256(bytes(uc.mem_read(RAM, RAM_SIZE))).hexdigest()
    result = {"instructions": state["insns"], "stack": (words - lowest) * 4, "ram": ram,
              "edges": edges, "code": code_of, "passed": passed,
              "unaligned": misaligned if probes else None}
    if code_hook:
        result["per_insn_hook"] = state["per_insn"]
    if by_kind:
        if sum(kinds) != state["insns"]:
            raise CountError(f"{path}: the kinds' instructions add up to {sum(kinds)}, "
                             f"not {state['insns']}")
        result["kinds"] = dict(zip(KINDS, kinds))
    if read:
        name, n, size = read
        if name not in symbols:
            raise CountError(f"{path}: no symbol {name}")
        result["read"] = bytes(uc.mem_read(symbols[name], size * n))
    return result


# --- estimating and reporting ----------------------------------------------------
def estimate(path, symbol="predict_once", unaligned=False, **kw):
    """Runs `symbol` once (twice where an IT block holds a multi-cycle
    instruction, to learn how often its condition failed) and adds up the
    cycle model: count()'s result with "blocks" (block -> Ops), "per"
    (address -> Tally) and "watch" (the IT block addresses watched)."""
    r = count(path, symbol, **kw)
    blocks = {k: decode(k[0], c) for k, c in r["code"].items()}
    for k, ops in blocks.items():
        if len(ops) != thumb_count(r["code"][k]):
            raise CountError(f"block {k[0]:#x}: capstone reads {len(ops)} instructions, "
                             f"the length rule {thumb_count(r['code'][k])}")
    watch = it_watch(blocks)
    passed = None
    probes = {op.addr: op.probe for ops in blocks.values() for op in ops
              if op.probe} if unaligned else None
    if watch or probes:
        again = count(path, symbol, watch=watch, probes=probes)
        # the hooks must not change what runs (see unicorn_it_pop.py): the
        # same block path and the same RAM at the end
        if again["edges"] != r["edges"] or again["ram"] != r["ram"]:
            raise CountError(f"{path}: {symbol}: the second run (with hooks on "
                             f"{len(watch) + len(probes or ())} instructions) ran differently")
        passed = again["passed"]
        r["unaligned"] = again["unaligned"]
    per = tally(blocks, r["edges"], passed, watch)
    n = sum(t.n for t in per.values())
    if n != r["instructions"]:
        raise CountError(f"{path}: the cycle model saw {n} instructions, the count is "
                         f"{r['instructions']}")
    runs = {}
    for (_, dst), n in r["edges"].items():
        runs[dst] = runs.get(dst, 0) + n
    r.update(blocks=blocks, per=per, watch=watch, runs=runs)
    return r


def split_classes(t, p, div, v):
    """The cycles of one address by class: (class, cycles) pairs (a taken
    branch's P is the branch class's, the rest the instruction's class)."""
    c = t.cycles(p, div, v)
    if t.op.cls == C_BRANCH or not t.taken:
        return ((t.op.cls, c),)
    return ((C_BRANCH, p * t.taken), (t.op.cls, c - p * t.taken))


def summarize(r, div=7):
    """Totals of an estimate(): cycles at P = 1, 2, 3, the variants at P=2,
    cycles and instructions per class at P=2, and the counted events."""
    per = r["per"].values()
    s = {"instructions": r["instructions"], "stack": r["stack"]}
    s["cycles"] = {p: sum(t.cycles(p, div, 0) for t in per) for p in (1, 2, 3)}
    s["variants"] = {VARIANT_NAMES[v]: sum(t.cycles(2, div, v) for t in per)
                     for v in range(len(VARIANTS))}
    cls, ins = [0] * len(CLASSES), [0] * len(CLASSES)
    for t in per:
        ins[t.op.cls] += t.n
        for k, c in split_classes(t, 2, div, 0):
            cls[k] += c
    s["classes"] = dict(zip(CLASSES, cls))
    s["class_instructions"] = dict(zip(CLASSES, ins))
    s["taken branches"] = sum(t.taken for t in per)
    s["not-taken branches"] = sum(t.n - t.taken for t in per if t.op.branch)
    s["divisions"] = sum(t.divs for t in per)
    s["single loads/stores"] = sum(t.n for t in per if t.op.ls)
    s["pipelined loads/stores"] = sum(t.pipelined for t in per)
    s["literal loads"] = sum(t.n for t in per if t.op.lit)
    s["IT-failed multi-cycle"] = sum(t.failed for t in per)
    if r.get("unaligned") is not None:
        s["unaligned accesses"] = sum(r["unaligned"].values())
        s["unaligned cycles"] = sum(e * n for (_, e), n in r["unaligned"].items())
    return s


def function_symbols(path):
    """The ELF's function symbols, sorted: [(start, end, name)], the names
    demangled by c++filt where it is there (Rust v0 and legacy)."""
    with open(path, "rb") as f:
        elf = ELFFile(f)
        symtab = elf.get_section_by_name(".symtab")
        funcs = sorted({(s["st_value"] & ~1, s["st_size"], s.name) for s in symtab.iter_symbols()
                        if s["st_info"]["type"] == "STT_FUNC" and s.name and s["st_size"]})
    names = [n for _, _, n in funcs]
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True).stdout.splitlines()
        if len(out) == len(names):
            names = out
    except (OSError, subprocess.CalledProcessError):
        pass
    return [(a, a + n, name) for (a, n, _), name in zip(funcs, names)]


def short(name, width=60):
    """A demangled name cut to `width` (crate hashes and generic arguments
    dropped)."""
    s = re.sub(r"\[[0-9a-f]{16}\]", "", name)
    s = re.sub(r"::<.*>$", "", s)
    return s if len(s) <= width else "…" + s[-(width - 1):]


def where(funcs, addr):
    """`name+offset` of an address."""
    import bisect
    i = bisect.bisect_right([a for a, _, _ in funcs], addr) - 1
    if i >= 0 and funcs[i][0] <= addr < funcs[i][1]:
        return funcs[i][2], addr - funcs[i][0]
    return "?", addr


def extra_causes(t, p, div, v):
    """The cycles of one address beyond one per instruction, by cause:
    (load/store, branch, other)."""
    extra = t.cycles(p, div, v) - t.n
    if t.op.cls == C_BRANCH:
        return 0, extra, 0
    if t.op.cls in (C_LOAD, C_STORE):
        return extra - p * t.taken, p * t.taken, 0
    return 0, 0, extra


def by_symbol(r, path, p=2, div=7, v=0):
    """Lines of the per-function table: instructions, cycles, CPI and the
    cycles beyond one per instruction, by cause."""
    funcs = function_symbols(path)
    rows = {}
    for addr, t in r["per"].items():
        name = where(funcs, addr)[0]
        row = rows.setdefault(name, [0, 0, 0, 0, 0, 0])
        row[0] += t.n
        row[1] += t.cycles(p, div, v)
        ls, br, other = extra_causes(t, p, div, v)
        row[2] += ls
        row[3] += br
        row[4] += other
        if t.op.ls:
            row[5] += t.n - t.pipelined
    total = sum(row[1] for row in rows.values())
    lines = [f"{'function':<60}{'instructions':>13}{'cycles':>12}{'share':>7}{'CPI':>6}"
             f"{'+ld/st':>11}{'+branch':>10}{'+other':>9}{'unpiped ld/st':>15}"]
    for name, row in sorted(rows.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"{short(name):<60}{row[0]:>13,}{row[1]:>12,}{100 * row[1] / total:>6.1f}%"
                     f"{row[1] / row[0]:>6.2f}{row[2]:>11,}{row[3]:>10,}{row[4]:>9,}"
                     f"{row[5]:>15,}")
    return lines


def hot_blocks(r, path, top=10, p=2, div=7, v=0):
    """Lines on the translated blocks whose cycles exceed their instructions
    the most (each address counted in the lowest block that holds it)."""
    funcs = function_symbols(path)
    owner = {}
    for key in sorted(r["blocks"]):
        for op in r["blocks"][key]:
            owner.setdefault(op.addr, key)
    agg = {}
    for addr, t in r["per"].items():
        a = agg.setdefault(owner[addr], [0, 0, 0, 0, 0, 0, 0])
        a[0] += t.n
        a[1] += t.cycles(p, div, v)
        ls, br, other = extra_causes(t, p, div, v)
        a[2] += ls
        a[3] += br
        a[4] += other
        a[5] = max(a[5], t.n)
        if t.op.ls:
            a[6] += t.n - t.pipelined
    total_extra = sum(a[1] - a[0] for a in agg.values())
    lines = []
    for key, a in sorted(agg.items(), key=lambda kv: -(kv[1][1] - kv[1][0]))[:top]:
        ops = r["blocks"][key]
        name, off = where(funcs, key[0])
        runs = r["runs"].get(key, 0)
        mix = {}
        for op in ops:
            mix[op.name] = mix.get(op.name, 0) + 1
        mixs = " ".join(f"{k}×{n}" for k, n in sorted(mix.items(), key=lambda kv: -kv[1])[:8])
        lines.append(f"{key[0]:#07x} {short(name, 48)}+{off:#x}, {len(ops)} instructions, run "
                     f"{runs:,}×: {a[1]:,} cycles for {a[0]:,} instructions (+{a[1] - a[0]:,}, "
                     f"{100 * (a[1] - a[0]) / total_extra:.1f}% of all extra: ld/st +{a[2]:,}, "
                     f"branch +{a[3]:,}, other +{a[4]:,}; unpipelined ld/st {a[6]:,})")
        lines.append(f"    {mixs}")
    return lines


def listing(r, start, end, p=2, div=7, v=0):
    """The executed instructions in [start, end) with their executions and
    cycles (for looking at a hot loop)."""
    lines = []
    for addr in sorted(a for a in r["per"] if start <= a < end):
        t = r["per"][addr]
        lines.append(f"{addr:#07x} {t.n:>10,} {t.cycles(p, div, v):>11,}  {t.op.text}")
    return lines


def self_test():
    """Assembles count_check.s, counts each function its
    `@ expect: NAME N stack S` lines name, and fails if a count or a stack
    depth is not the hand count."""
    src = os.path.join(HERE, "count_check.s")
    with open(src) as f:
        expect = re.findall(r"@ expect: (\w+) (\d+) stack (\d+)", f.read())
    if not expect:
        raise CountError(f"{src}: no `@ expect:` lines")
    with tempfile.TemporaryDirectory() as tmp:
        obj, elf = os.path.join(tmp, "check.o"), os.path.join(tmp, "check.elf")
        for cmd in (["arm-none-eabi-as", "-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16",
                     "-mthumb", "-o", obj, src],
                    ["arm-none-eabi-ld", "-Ttext=0x400", "-e", "check_straight",
                     "-o", elf, obj]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise CountError(f"{' '.join(cmd)}: {r.stderr.strip()}")
        bad = 0
        for name, n, stack in expect:
            got = count(elf, name, code_hook=True)
            ok = got["instructions"] == int(n) and got["stack"] == int(stack)
            bad += not ok
            print(f"{name}: {got['instructions']} instructions, stack {got['stack']} B; "
                  f"hand count {n}, {stack} B: {'ok' if ok else 'WRONG'} "
                  f"(the per-instruction hook saw {got['per_insn_hook']})")
        # the cycle model against the TRM counted by hand: `@ cycles: NAME
        # A + BP + CD` (A fixed cycles, B taken branches each P cycles, C
        # divisions each D), `@ cycles (VARIANT): ...` for a variant
        with open(src) as f:
            cyc = re.findall(r"@ cycles(?: \(([^)]*)\))?: (\w+) (\d+)(?: \+ (\d+)P)?"
                             r"(?: \+ (\d+)D)?", f.read())
        if not cyc:
            raise CountError(f"{src}: no `@ cycles:` lines")
        runs = {}
        for variant, name, fixed, taken, divs in cyc:
            v = VARIANT_NAMES.index(variant) if variant else 0
            if name not in runs:
                runs[name] = estimate(elf, name)
            per = runs[name]["per"].values()
            got = (sum(t.fixed[v] for t in per), sum(t.taken for t in per),
                   sum(t.divs for t in per))
            want = (int(fixed), int(taken or 0), int(divs or 0))
            ok = got == want
            bad += not ok
            print(f"{name}{' (' + variant + ')' if variant else ''}: {got[0]} + {got[1]}P + "
                  f"{got[2]}D cycles; by the TRM {want[0]} + {want[1]}P + {want[2]}D: "
                  f"{'ok' if ok else 'WRONG'}")
        expect = expect + cyc
    # --by-kind's attribution: names to kinds, and the innermost function
    # with a kind wins (the output stage only inside a MAC layer)
    names = {
        "shapecheck_tflite::dsp::matmul": "1x1 convolution",
        "shapecheck_tflite::ops::conv::dsp::matmul": "1x1 convolution",
        "shapecheck_tflite::ops::conv::dsp::conv_im2col": "kxk convolution",
        "shapecheck_tflite::ops::conv::depthwise_conv::dsp::depthwise": "depthwise",
        "shapecheck_tflite::ops::conv::fully_connected::dsp::vec_mat": "fully connected",
        "shapecheck_tflite::ops::conv::fully_connected::fully_connected_int8": "fully connected",
        "shapecheck_tflite::ops::pool::average_pool_int8": "pooling",
        "shapecheck_tflite::arith::quant::OutputStage::apply": "requantization",
        "shapecheck_tflite::arith::dsp::arch::requant4": "requantization",
        "shapecheck_tflite::arith::dsp::Requant4::new": "requantization",
        "shapecheck_tflite::dsp::conv_im2col": "kxk convolution",
        "shapecheck_tflite::dsp::depthwise_as_conv": "depthwise",
        "shapecheck_tflite::dsp::vec_mat": "fully connected",
        "shapecheck_tflite::dsp::arch::requant4": "requantization",
        "shapecheck_tflite::quant::OutputStage::apply": "requantization",
        "shapecheck_tflite::dsp::Requant4::new": "requantization",
        "shapecheck_tflite::quant::multiply_by_quantized_multiplier": "requantization",
        "shapecheck_tflite::pool::average_pool_int8": "pooling",
        "shapecheck_tflite::softmax::softmax_int8": None,
        "shapecheck_tflite::dsp::arch::mac_2x2": None,
        "?::matmul": "1x1 convolution",
        "?::apply": "requantization",
        "?::new": None,
        "core::matmul": None,
    }
    kinds_bad = [n for n, k in names.items() if kind_of(n) != k]
    K = {k: i for i, k in enumerate(KINDS)}
    paint, stage = paint_kinds(0x100, 0x140, [
        (3, "requantization", [(0x110, 0x118), (0x13c, 0x140)]),
        (1, "1x1 convolution", [(0x100, 0x120)]),
        (2, "pooling", [(0x118, 0x11c)]),
        (1, "depthwise", [(0x120, 0x130)]),
        (2, "kxk convolution", [(0x124, 0x128)]),
        (1, "convolution (portable)", [(0x130, 0x138)]),
        (2, "1x1 convolution", [(0x134, 0x138)]),
    ])
    want = ([K["1x1 convolution"]] * 8 + [K["requantization"]] * 4 + [K["pooling"]] * 2
            + [K["1x1 convolution"]] * 2 + [K["depthwise"]] * 2 + [K["kxk convolution"]] * 2
            + [K["depthwise"]] * 4
            + [K["convolution (portable)"]] * 2 + [K["1x1 convolution"]] * 2 + [K["other"]] * 4)
    got = [resolve(paint[i], stage[i], K["other"])[0] for i in range(len(paint))]
    # an out-of-line function (no kind of its own) called from a depthwise
    # layer: the layer's kind, and its output stage requantization
    got_called = [resolve(paint[i], stage[i], K["depthwise"])[0] for i in (16 + 14, 16 + 15)]
    paint_ok = got == want and got_called == [K["requantization"]] * 2
    got_plain = resolve(K["other"], 0, K["depthwise"])[0]
    paint_ok &= got_plain == K["depthwise"]
    # a fully connected layer through dsp::matmul, inlined or out of line
    fc_paint, fc_stage = paint_kinds(0x100, 0x108, [
        (1, "fully connected", [(0x100, 0x104)]), (2, "1x1 convolution", [(0x100, 0x108)])])
    paint_ok &= list(fc_paint) == [K["fully connected"]] * 2 + [K["1x1 convolution"]] * 2
    paint_ok &= resolve(K["1x1 convolution"], 0, K["fully connected"])[0] == K["fully connected"]
    print(f"by-kind attribution: names {len(names) - len(kinds_bad)} of {len(names)} right"
          f"{' (wrong: ' + ', '.join(kinds_bad) + ')' if kinds_bad else ''}, nesting "
          f"{'ok' if paint_ok else 'WRONG'}")
    bad += bool(kinds_bad) + (not paint_ok)
    if bad:
        raise CountError(f"{bad} of {len(expect) + 2} self-tests failed")
    print(f"count_cycles self-test: {len(expect) + 2} passed, 0 failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("elf", nargs="?")
    ap.add_argument("--symbol", default="predict_once")
    ap.add_argument("--read", metavar="SYMBOL:N[:i8]",
                    help="print N f32 words (or int8 values) at SYMBOL after the run")
    ap.add_argument("--code-hook", action="store_true",
                    help="also count with the per-instruction hook (slow; misses the instructions "
                         "whose IT condition fails)")
    ap.add_argument("--by-kind", action="store_true",
                    help="attribute each instruction to a layer kind by the DWARF inline info "
                         "(a firmware built with CARGO_PROFILE_RELEASE_DEBUG=2) and print the table")
    ap.add_argument("--model", metavar="TFLITE",
                    help="with --by-kind: the model's .tflite file, for the MACs of each kind")
    ap.add_argument("--div", type=int, default=7, metavar="CYCLES",
                    help="cycles of an SDIV/UDIV (the TRM: 2 to 12; default 7)")
    ap.add_argument("--unaligned", action="store_true",
                    help="also count unaligned word/halfword accesses and their penalty cycles "
                         "(a hook on each such load/store: slower)")
    ap.add_argument("--by-symbol", action="store_true",
                    help="print instructions and cycles per function symbol")
    ap.add_argument("--top", type=int, default=0, metavar="N",
                    help="print the N blocks whose cycles exceed their instructions most")
    ap.add_argument("--list", metavar="START:END",
                    help="print the executed instructions in [START, END) (hex) with cycles")
    ap.add_argument("--json", metavar="FILE", help="write the totals as JSON")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    try:
        if a.self_test:
            self_test()
            return
        if not a.elf:
            ap.error("an ELF is needed (or --self-test)")
        read = None
        if a.read:
            name, _, rest = a.read.partition(":")
            n, _, kind = rest.partition(":")
            if kind not in ("", "i8"):
                ap.error(f"--read {a.read}: the element type is i8 or none (f32)")
            read = (name, int(n or 1), 1 if kind == "i8" else 4)
        macs = outputs = None
        if a.model:
            macs, outputs = model_macs(a.model)
        r = estimate(a.elf, a.symbol, a.unaligned, read=read, code_hook=a.code_hook,
                     by_kind=a.by_kind)
        print(f"instructions: {r['instructions']}")
        if a.code_hook:
            print(f"per-instruction hook: {r['per_insn_hook']}")
        print(f"stack: {r['stack']} B")
        if read and read[2] == 1:
            print("output: i8" + "".join(f" {b:02x}" for b in r["read"]))
        elif read:
            words = struct.unpack(f"<{read[1]}I", r["read"])
            print("output: " + " ".join(f"{w:08x}" for w in words))
        if a.by_kind:
            print("by layer kind (each instruction's innermost inlined function with a kind, "
                  "else its caller's):")
            for line in kind_table(r["kinds"], r["instructions"], macs, outputs or 0):
                print(line)
        sm = summarize(r, a.div)
        c, n = sm["cycles"], sm["instructions"]
        print(f"cycles: P=1 {c[1]}, P=2 {c[2]}, P=3 {c[3]} (cycles per instruction at P=2: "
              f"{c[2] / n:.3f}; zero wait states, a division {a.div} cycles)")
        print(f"branches: {sm['taken branches']} taken (each 1 + P), "
              f"{sm['not-taken branches']} not taken; divisions: {sm['divisions']}")
        print(f"single loads/stores: {sm['single loads/stores']}, pipelined after one: "
              f"{sm['pipelined loads/stores']}; literal loads: {sm['literal loads']}; "
              f"multi-cycle instructions whose IT condition failed: "
              f"{sm['IT-failed multi-cycle']}")
        if "unaligned accesses" in sm:
            print(f"unaligned accesses: {sm['unaligned accesses']} (+{sm['unaligned cycles']} "
                  f"cycles, not in the totals above)")
        print("by class at P=2 (cycles, share, instructions):")
        for k in CLASSES:
            print(f"  {k:<10}{sm['classes'][k]:>12}{100 * sm['classes'][k] / c[2]:>7.1f}%"
                  f"{sm['class_instructions'][k]:>12}")
        print("load/store model variants at P=2: " + "; ".join(
            f"{k} {v}" for k, v in sm["variants"].items()))
        if a.by_symbol:
            print("by function at P=2:")
            for line in by_symbol(r, a.elf, 2, a.div):
                print("  " + line)
        if a.top:
            print(f"the {a.top} blocks whose cycles exceed their instructions most, at P=2:")
            for line in hot_blocks(r, a.elf, a.top, 2, a.div):
                print("  " + line)
        if a.list:
            lo, _, hi = a.list.partition(":")
            print("  address   executions  cycles(P=2)  instruction")
            for line in listing(r, int(lo, 16), int(hi, 16), 2, a.div):
                print("  " + line)
        if a.json:
            import json
            with open(a.json, "w") as f:
                json.dump({k: v for k, v in sm.items()}, f, indent=1)
    except CountError as e:
        sys.exit(f"count_cycles: {e}")


if __name__ == "__main__":
    main()
