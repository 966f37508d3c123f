@ Hand-counted functions for `count_instructions.py --self-test` and
@ `count_cycles.py --self-test` (the cycles from ../shared/bench/cycles): each
@ `@ expect: NAME N` line is the number of instructions a Cortex-M4 issues
@ in one call of NAME, its return included, counted by hand from the code
@ (and `stack S`: the bytes it writes below its entry SP). The self-test
@ fails if the counter says otherwise. They cover what a per-instruction
@ hook gets wrong (IT instructions, instructions whose IT condition fails),
@ a branch not taken, a call, the FPU, and a long loop of chained blocks.
@
@ Each `@ cycles: NAME A + BP + CD` line is the cycles of one call by the
@ Cortex-M4 TRM's timings (ARM DDI 0439B, Table 3-1 and §3.3.2, the DSP
@ table, the FPU's Table 7-1; see count_cycles.py), counted by hand per
@ instruction in the comments: A fixed cycles, B taken branches (each adding
@ a pipeline refill P, 1 to 3), C divisions (each 2 to 12); the default
@ load/store model (a single load/store after one costs 1, else 2, not after
@ a load that writes its address register nor after a register-offset
@ store). `@ cycles (VARIANT): ...` is the same under a variant of
@ count_cycles.py's VARIANT_NAMES ("store 1": a store with an immediate
@ offset costs 1 and a load pipelines only after a load; "AGU": a load or
@ store whose address register the previous data-processing instruction
@ wrote costs 1 more).
    .syntax unified
    .cpu cortex-m4
    .fpu fpv4-sp-d16
    .thumb
    .text

@ straight-line code, 16- and 32-bit instructions: 4 + bx
    .global check_straight
    .thumb_func
check_straight:
    movs r0, #1
    adds r0, r0, #2
    add.w r0, r0, #3
    mov r1, r0
    bx lr
@ expect: check_straight 5 stack 0
@ cycles: check_straight 5 + 1P
@ (4 data processing of 1, bx 1 + P)

@ a call: push, bl, the 5 of check_straight, pop
    .global check_call
    .thumb_func
check_call:
    push {lr}
    bl check_straight
    pop {pc}
@ expect: check_call 8 stack 4
@ cycles: check_call 10 + 3P
@ (push {lr} 1 + N = 2, bl 1 + P, check_straight 5 + P, pop {pc} 1 + N + P = 2 + P)

@ 10 iterations of 6 (tst, ite, the two conditional instructions of which
@ one fails, subs, bne) + 2 before + bx
    .global check_it_loop
    .thumb_func
check_it_loop:
    movs r0, #10
    movs r1, #0
1:  tst.w r0, #1
    ite eq
    addeq r1, r1, #1
    subne r1, r1, #1
    subs r0, r0, #1
    bne 1b
    bx lr
@ expect: check_it_loop 63 stack 0
@ cycles: check_it_loop 63 + 10P
@ (all 1; bne taken 9 times 1 + P, not taken once 1; bx 1 + P)

@ an IT block whose two instructions both fail, a conditional branch not
@ taken, an ITETE block (two of four fail): 11, all issued
    .global check_it_fail
    .thumb_func
check_it_fail:
    movs r0, #0
    itt ne
    movne r0, #1
    addne r0, r0, #2
    bne 1f
    itete eq
    addeq r0, r0, #3
    subne r0, r0, #3
    addeq r0, r0, #3
    subne r0, r0, #3
1:  bx lr
@ expect: check_it_fail 11 stack 0
@ cycles: check_it_fail 11 + 1P
@ (the four failed instructions 1 each, bne not taken 1, bx 1 + P)

@ the FPU (a fault if it were off): 5 + bx
    .global check_fpu
    .thumb_func
check_fpu:
    vmov.f32 s0, #1.0
    vadd.f32 s0, s0, s0
    vmul.f32 s1, s0, s0
    vcvt.s32.f32 s1, s1
    vmov r0, s1
    bx lr
@ expect: check_fpu 6 stack 0
@ cycles: check_fpu 10 + 1P
@ (vmov imm 1, vadd 1, vmul 1 + 1 as it reads vadd's result, vcvt 1 + 1 likewise,
@ vmov core <- single 2 + 1 likewise, bx 1 + P)

@ 1000 iterations of 4 (subs, it, the conditional add, bne) + 2 + bx
    .global check_big
    .thumb_func
check_big:
    movw r0, #1000
    movs r2, #0
1:  subs r0, r0, #1
    it ne
    addne r2, r2, #1
    bne 1b
    bx lr
@ expect: check_big 4003 stack 0
@ cycles: check_big 4003 + 1000P
@ (bne taken 999 times, bx once)

@ a frame of 64 bytes, one word written at its bottom: 4
    .global check_stack
    .thumb_func
check_stack:
    sub sp, #64
    str r0, [sp]
    add sp, #64
    bx lr
@ expect: check_stack 4 stack 64
@ cycles: check_stack 5 + 1P
@ cycles (store 1): check_stack 4 + 1P
@ cycles (pair + AGU): check_stack 6 + 1P
@ (sub 1, str 2 / 1 with "store 1" / +1 with AGU as sub wrote sp, add 1, bx 1 + P)

@ load/store pipelining (§3.3.2)
    .global check_ldst
    .thumb_func
check_ldst:
    sub sp, #16             @ 1
    mov r1, sp              @ 1
    movs r2, #4             @ 1
    str r1, [sp, #8]        @ 2: not after a load/store ("store 1": 1)
    ldr r0, [r1]            @ 1: after a store, pipelined ("store 1": 2, not after a load)
    ldr r3, [r1, #8]        @ 1: pipelined (r3 = sp)
    ldr r0, [r3]            @ 2: its address is the previous load's destination
    str r1, [r1, r2]        @ 1: pipelined after a load (a register offset)
    ldr r0, [r1, #4]        @ 2: nothing pipelines after a register-offset STR
    ldrd r2, r3, [r1]       @ 3: 1 + N, never pipelined
    ldr r0, [r1]            @ 2: not after LDRD
    add sp, #16             @ 1
    bx lr                   @ 1 + P
@ expect: check_ldst 13 stack 12
@ cycles: check_ldst 19 + 1P
@ cycles (store 1): check_ldst 19 + 1P
@ cycles (pair + AGU): check_ldst 19 + 1P

@ load/store multiple: 1 + N, and POP with PC 1 + N + P
    .global check_multi
    .thumb_func
check_multi:
    push {r4, r5, r6, lr}   @ 5
    mov r0, sp              @ 1
    ldm r0, {r1, r2, r3}    @ 4 (AGU: + 1, r0 from the mov)
    stm r0!, {r1, r2}       @ 3
    pop {r4, r5, r6, pc}    @ 5 + P
@ expect: check_multi 5 stack 16
@ cycles: check_multi 18 + 1P
@ cycles (pair + AGU): check_multi 19 + 1P

@ multiplies and the DSP instructions: 1 each
    .global check_dsp
    .thumb_func
check_dsp:
    movs r0, #3
    movs r1, #5
    smlad r2, r0, r1, r0
    smuad r3, r0, r1
    smlabb r2, r0, r1, r2
    sxtb16 r3, r1
    uxtb16 r3, r1, ror #8
    sxtab16 r2, r2, r1
    qadd r2, r2, r3
    smull r2, r3, r0, r1
    smlal r2, r3, r0, r1
    umull r2, r3, r0, r1
    smmul r2, r0, r1
    smmla r2, r0, r1, r2
    smmlar r2, r0, r1, r2
    mul r2, r0, r1
    mla r2, r0, r1, r2
    ssat r2, #8, r2
    bx lr
@ expect: check_dsp 19 stack 0
@ cycles: check_dsp 19 + 1P

@ divisions: 2 to 12 each (D)
    .global check_div
    .thumb_func
check_div:
    movs r0, #100
    movs r1, #7
    sdiv r2, r0, r1
    udiv r2, r0, r1
    bx lr
@ expect: check_div 5 stack 0
@ cycles: check_div 3 + 1P + 2D

@ the FPU's table (Table 7-1) and its result latency
    .global check_fpu2
    .thumb_func
check_fpu2:
    sub sp, #8              @ 1
    vmov.f32 s0, #1.0       @ 1
    vmov.f32 s1, #2.0       @ 1
    vdiv.f32 s2, s1, s0     @ 14
    vsqrt.f32 s3, s1        @ 14
    vmla.f32 s3, s0, s1     @ 3: s3 is the addend, read a cycle later: no stall
    vfma.f32 s3, s0, s1     @ 3: likewise
    vstr s3, [sp]           @ 2 + 1: it reads vfma's result
    vldr s4, [sp]           @ 2
    vmov r0, s4             @ 2
    vmov s5, r0             @ 2
    vcvt.f32.s32 s5, s5     @ 1
    vadd.f32 s6, s0, s1     @ 1
    vmul.f32 s7, s0, s1     @ 1
    add sp, #8              @ 1
    bx lr                   @ 1 + P
@ expect: check_fpu2 16 stack 8
@ cycles: check_fpu2 51 + 1P

@ branches taken and not, a table branch, and loads of IT blocks whose
@ condition fails (1 cycle, not 2)
    .global check_branch
    .thumb_func
check_branch:
    movs r0, #0             @ 1
    cbnz r0, 1f             @ 1: not taken
    cbz r0, 1f              @ 1 + P
    nop                     @ (skipped)
1:  movs r1, #1             @ 1
    tbb [pc, r1]            @ 2 + P
0:  .byte (2f - 0b) / 2
    .byte (3f - 0b) / 2
    .align 1
2:  bx lr                   @ (not run)
3:  mov r3, sp              @ 1
    cmp r0, #1              @ 1: NE
    itt eq                  @ 1
    ldreq r1, [r3, #-4]     @ 1: fails
    ldreq r1, [r3, #-8]     @ 1: fails
    it ne                   @ 1
    ldrne r1, [r3, #-4]     @ 2: passes
    beq 4f                  @ 1: not taken
    bne 4f                  @ 1 + P
    nop                     @ (skipped)
4:  bx lr                   @ 1 + P
@ expect: check_branch 15 stack 0
@ cycles: check_branch 17 + 4P

@ the address-generation stall of the AGU variant, and "store 1"
    .global check_agu
    .thumb_func
check_agu:
    sub sp, #8              @ 1
    mov r1, sp              @ 1
    str r1, [r1]            @ 2 ("store 1": 1; AGU: + 1, r1 from the mov)
    adds r1, #4             @ 1
    ldr r0, [r1, #-4]       @ 2 (AGU: + 1)
    ldr r2, [r0]            @ 2: its address is the previous load's destination
    add sp, #8              @ 1
    bx lr                   @ 1 + P
@ expect: check_agu 8 stack 8
@ cycles: check_agu 11 + 1P
@ cycles (pair + AGU): check_agu 13 + 1P
@ cycles (store 1): check_agu 10 + 1P
@ cycles (store 1 + AGU): check_agu 12 + 1P
