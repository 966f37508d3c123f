@ Hand-counted functions for `count_instructions.py --self-test`: each
@ `@ expect: NAME N` line is the number of instructions a Cortex-M4 issues
@ in one call of NAME, its return included, counted by hand from the code
@ (and `stack S`: the bytes it writes below its entry SP). The self-test
@ fails if the counter says otherwise. They cover what a per-instruction
@ hook gets wrong (IT instructions, instructions whose IT condition fails),
@ a branch not taken, a call, the FPU, and a long loop of chained blocks.
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

@ a call: push, bl, the 5 of check_straight, pop
    .global check_call
    .thumb_func
check_call:
    push {lr}
    bl check_straight
    pop {pc}
@ expect: check_call 8 stack 4

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

@ a frame of 64 bytes, one word written at its bottom: 4
    .global check_stack
    .thumb_func
check_stack:
    sub sp, #64
    str r0, [sp]
    add sp, #64
    bx lr
@ expect: check_stack 4 stack 64
