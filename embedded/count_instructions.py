#!/usr/bin/env python3
"""Counts the instructions a Cortex-M4F issues in one call of a function of
a firmware ELF, from its entry to its return, with the unicorn emulator.

    count_instructions.py ELF [--symbol predict_once] [--read OUTPUT:4[:i8]]
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
below its entry SP, found by painting the free RAM as the firmware does),
and with `--read SYMBOL:N` the N f32 words at SYMBOL as hex bits (the same
form as the firmware's `output:` line, to compare with QEMU's run); with
`--read SYMBOL:N:i8` the N int8 values there, `i8` and a byte each, as an
int8 firmware prints them (`finish_i8`).
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
    from unicorn.arm_const import (UC_ARM_REG_FPEXC, UC_ARM_REG_LR, UC_ARM_REG_PC,
                                   UC_ARM_REG_SP, UC_CPU_ARM_CORTEX_M4)
except ImportError as e:  # a missing module is a failure, said plainly
    sys.exit(f"count_instructions: {e} (pip install unicorn pyelftools)")

FLASH, FLASH_SIZE = 0x0000_0000, 4 << 20
RAM, RAM_SIZE = 0x2000_0000, 4 << 20
RETURN = FLASH + FLASH_SIZE - 0x100  # in flash, past any firmware here
PAINT = 0xC5AC5EED
PAINT_DEPTH = 256 << 10  # the RAM below SP painted for the stack figure
HERE = os.path.dirname(os.path.abspath(__file__))


class CountError(Exception):
    pass


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


def count(path, symbol="predict_once", read=None, code_hook=False):
    """Runs `symbol` of the ELF at `path` once; returns a dict of the
    instruction count, the stack depth, and the words read after the run."""
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
    # paint the free stack below SP (nothing of the image lies there: the
    # stack is the top of RAM, .data/.bss its bottom)
    low = max(RAM, sp - PAINT_DEPTH)
    for vaddr, _, _, memsz in segments:
        if RAM <= vaddr < sp:
            low = max(low, (vaddr + memsz + 3) & ~3)
    uc.mem_write(low, struct.pack("<I", PAINT) * ((sp - low) // 4))

    uc.reg_write(UC_ARM_REG_FPEXC, 0x4000_0000)  # FPU on
    uc.reg_write(UC_ARM_REG_SP, sp)
    uc.reg_write(UC_ARM_REG_LR, RETURN | 1)

    blocks = {}
    state = {"insns": 0, "per_insn": 0, "fault": None}

    def on_block(uc, address, size, _):
        if address == RETURN:
            return
        n = blocks.get((address, size))
        if n is None:
            n = blocks[(address, size)] = thumb_count(bytes(uc.mem_read(address, size)))
        state["insns"] += n

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
    words = struct.unpack(f"<{(sp - low) // 4}I", uc.mem_read(low, sp - low))
    lowest = next((i for i, w in enumerate(words) if w != PAINT), len(words))
    if lowest == 0:
        raise CountError(f"{path}: {symbol}: the stack reached the end of the painted "
                         f"{sp - low} bytes")
    result = {"instructions": state["insns"], "stack": (len(words) - lowest) * 4}
    if code_hook:
        result["per_insn_hook"] = state["per_insn"]
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
    if bad:
        raise CountError(f"{bad} of {len(expect)} hand-counted functions counted wrong")
    print(f"count_instructions self-test: {len(expect)} passed, 0 failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("elf", nargs="?")
    ap.add_argument("--symbol", default="predict_once")
    ap.add_argument("--read", metavar="SYMBOL:N[:i8]",
                    help="print N f32 words (or int8 values) at SYMBOL after the run")
    ap.add_argument("--code-hook", action="store_true",
                    help="also count with the per-instruction hook (slow; misses IT instructions)")
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
        r = count(a.elf, a.symbol, read, a.code_hook)
        print(f"instructions: {r['instructions']}")
        if a.code_hook:
            print(f"per-instruction hook: {r['per_insn_hook']}")
        print(f"stack: {r['stack']} B")
        if read and read[2] == 1:
            print("output: i8" + "".join(f" {b:02x}" for b in r["read"]))
        elif read:
            words = struct.unpack(f"<{read[1]}I", r["read"])
            print("output: " + " ".join(f"{w:08x}" for w in words))
    except CountError as e:
        sys.exit(f"count_instructions: {e}")


if __name__ == "__main__":
    main()
