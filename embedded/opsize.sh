#!/usr/bin/env bash
# Usage: opsize.sh OBJDUMP NM ELF [ROOT]
# The code of function ROOT (default measured_op) and of every function it
# reaches through direct calls and tail calls (bl / b.w / b to a symbol),
# from the disassembly: prints "TOTAL <bytes>" and then one line per
# function, "<bytes> <name>". The panic machinery (core::panicking, the
# panic handler) is not followed and not counted: it is reached only when a
# check fails, and it is the same `core::fmt` code in every firmware; the
# functions it would have entered through are listed as "panic-path <name>".
set -euo pipefail
objdump=$1 nm=$2 elf=$3 root=${4:-measured_op}
"$objdump" -d --no-show-raw-insn "$elf" |
  awk -v root="$root" -v nmout="$("$nm" -S -t d "$elf")" '
    BEGIN {
      n = split(nmout, lines, "\n")
      for (i = 1; i <= n; i++) {
        split(lines[i], f, " ")
        if (f[4] != "" && f[3] ~ /^[tTwW]$/) size[f[4]] = f[2] + 0
      }
    }
    /^[0-9a-f]+ <.*>:$/ { cur = $2; sub(/^</, "", cur); sub(/>:$/, "", cur); next }
    cur != "" && /\t(bl|b|b\.w|b\.n|beq\.w|bne\.w|bcs\.w|bcc\.w|bhi\.w|bls\.w|bge\.w|blt\.w|bgt\.w|ble\.w)\t[0-9a-f]+ <[^+>]+>/ {
      t = $0; sub(/.*</, "", t); sub(/>.*/, "", t)
      if (t != cur) edges[cur] = edges[cur] " " t
    }
    /\tblx?\tr[0-9]+/ && cur != "" { indirect[cur] = 1 }
    END {
      queue[1] = root; seen[root] = 1; head = 1; tail = 1; total = 0
      while (head <= tail) {
        fn = queue[head++]
        if (fn ~ /panic|rust_begin_unwind|core9panicking/) { panics = panics "panic-path " fn "\n"; continue }
        total += size[fn]; out = out size[fn] " " fn (fn in indirect ? " (indirect calls)" : "") "\n"
        m = split(edges[fn], ts, " ")
        for (i = 1; i <= m; i++) if (!(ts[i] in seen)) { seen[ts[i]] = 1; queue[++tail] = ts[i] }
      }
      printf "TOTAL %d\n%s%s", total, out, panics
    }'
