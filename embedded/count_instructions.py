#!/usr/bin/env python3
"""Counts the instructions a Cortex-M4F issues in one call of a function of
a firmware ELF, from its entry to its return, with the unicorn emulator.

    count_instructions.py ELF [--symbol predict_once] [--read OUTPUT:4[:i8]] [--by-symbol]
    count_instructions.py --self-test

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
the instructions of a small int8 model). `--self-test` checks the counter
against hand-counted assembly functions (count_check.s) and fails if a
count is off.

Anything that is not plain computation in memory fails the count: an access
outside flash and RAM (a peripheral, semihosting's BKPT, a fault), an
interrupt or exception, a return with SP not back where it was.

Prints `instructions: N`, `stack: N B` (the deepest the function wrote
below its entry SP, found by painting all the free RAM, from the end of
the image's .data/.bss up to SP, as the firmware does),
and with `--read SYMBOL:N` the N f32 words at SYMBOL as hex bits (the same
form as the firmware's `output:` line, to compare with QEMU's run); with
`--read SYMBOL:N:i8` the N int8 values there, `i8` and a byte each, as an
int8 firmware prints them (`finish_i8`).
"""
import argparse
import bisect
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
    from unicorn.arm_const import (UC_ARM_REG_FPEXC, UC_ARM_REG_LR, UC_ARM_REG_PC,
                                   UC_ARM_REG_SP, UC_CPU_ARM_CORTEX_M4)
except ImportError as e:  # a missing module is a failure, said plainly
    sys.exit(f"count_instructions: {e} (pip install unicorn pyelftools)")

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


def functions(path):
    """The ELF's functions as sorted (start, end, name) (its symbol table's
    STT_FUNC entries of a size), for `--by-symbol`."""
    with open(path, "rb") as f:
        symtab = ELFFile(f).get_section_by_name(".symtab")
        out = sorted(((s["st_value"] & ~1), (s["st_value"] & ~1) + s["st_size"], s.name)
                     for s in symtab.iter_symbols()
                     if s["st_info"]["type"] == "STT_FUNC" and s["st_size"] > 0)
    return out


def count(path, symbol="predict_once", read=None, code_hook=False, by_kind=False,
          by_symbol=False):
    """Runs `symbol` of the ELF at `path` once; returns a dict of the
    instruction count, the stack depth, and the words read after the run
    (and with `by_kind` the instructions per layer kind, "kinds"; with
    `by_symbol` per function of the symbol table a block lies in,
    "symbols": what LTO kept out of line, with what it inlined)."""
    segments, symbols = load(path)
    per_symbol = {}
    if by_symbol:
        table = functions(path)
        starts = [a for a, _, _ in table]
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
    state = {"insns": 0, "per_insn": 0, "fault": None}
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
        if address == RETURN:
            return
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
        if by_symbol:
            i = bisect.bisect_right(starts, address) - 1
            name = table[i][2] if i >= 0 and address < table[i][1] else "?"
            per_symbol[name] = per_symbol.get(name, 0) + n[0]
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

    uc.hook_add(UC_HOOK_BLOCK, on_block)
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
    result = {"instructions": state["insns"], "stack": (words - lowest) * 4}
    if by_symbol:
        result["symbols"] = per_symbol
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
    print(f"count_instructions self-test: {len(expect) + 2} passed, 0 failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("elf", nargs="?")
    ap.add_argument("--symbol", default="predict_once")
    ap.add_argument("--read", metavar="SYMBOL:N[:i8]",
                    help="print N f32 words (or int8 values) at SYMBOL after the run")
    ap.add_argument("--code-hook", action="store_true",
                    help="also count with the per-instruction hook (slow; misses IT instructions)")
    ap.add_argument("--by-kind", action="store_true",
                    help="attribute each instruction to a layer kind by the DWARF inline info "
                         "(a firmware built with CARGO_PROFILE_RELEASE_DEBUG=2) and print the table")
    ap.add_argument("--by-symbol", action="store_true",
                    help="also print the instructions per function of the ELF's symbol table "
                         "(each block credited to the function it lies in, with what LTO "
                         "inlined there), the 25 largest")
    ap.add_argument("--model", metavar="TFLITE",
                    help="with --by-kind: the model's .tflite file, for the MACs of each kind")
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
        r = count(a.elf, a.symbol, read, a.code_hook, a.by_kind, a.by_symbol)
        print(f"instructions: {r['instructions']}")
        if a.code_hook:
            print(f"per-instruction hook: {r['per_insn_hook']}")
        print(f"stack: {r['stack']} B")
        if read and read[2] == 1:
            print("output: i8" + "".join(f" {b:02x}" for b in r["read"]))
        elif read:
            words = struct.unpack(f"<{read[1]}I", r["read"])
            print("output: " + " ".join(f"{w:08x}" for w in words))
        if a.by_symbol:
            print("by function (each block's function in the symbol table):")
            top = sorted(r["symbols"].items(), key=lambda x: -x[1])[:25]
            for name, n in top:
                print(f"{n:>12,} {100 * n / r['instructions']:5.1f} %  {name}")
        if a.by_kind:
            print("by layer kind (each instruction's innermost inlined function with a kind, "
                  "else its caller's):")
            for line in kind_table(r["kinds"], r["instructions"], macs, outputs or 0):
                print(line)
    except CountError as e:
        sys.exit(f"count_instructions: {e}")


if __name__ == "__main__":
    main()
