@ The inner blocks of the int8 kernels, alone, for `bounds.py`: what the
@ Cortex-M4's timings allow per multiply-accumulate, by the cycle model of
@ count_cycles.py. Each function runs its block over the data bounds.py
@ generates (bounds_data.s: the labels `*_x`, `*_w`), stores its
@ accumulators at `result`, and returns; bounds.py checks them against
@ the sums in Python, so a block whose cycles are reported computes what
@ the kernel must. Register counts are the point: r0 to r12 and lr are the
@ fourteen a loop may hold (sp and pc are not; r7, LLVM's frame pointer,
@ is pushed here as in the project's `asm!` loops).
    .syntax unified
    .cpu cortex-m4
    .fpu fpv4-sp-d16
    .thumb
    .text

@ --- the 1x1 convolution: 64 steps of 4 depth values (K = 256) ------------

@ b2x2: today's step (conv/dsp.rs `step_2x2!(wide7)`): 2 pixels x 2
@ channels, 16 MACs a step. Pixels widened once per pixel pair, 16 B a step:
@ pixel 0's halves (bytes 0 and 2, bytes 1 and 3), then pixel 1's. Weights
@ in the file's layout: row 1 is K bytes after row 0 (a register, `skip`).
@ Fourteen registers: 4 accumulators, 7 scratch, x, w, skip. Passes of 8
@ steps, the end compared with a word on the stack.
    .global b2x2
    .thumb_func
b2x2:
    push {r4-r11, lr}
    sub sp, sp, #8
    movw r11, #:lower16:b2x2_x
    movt r11, #:upper16:b2x2_x
    add r12, r11, #1024
    str r12, [sp]
    movw lr, #:lower16:b2x2_w
    movt lr, #:upper16:b2x2_w
    mov r6, #252            @ skip = K - 4
    movs r0, #0
    movs r1, #0
    movs r2, #0
    movs r3, #0
    .global b2x2_loop
b2x2_loop:
1:
    .rept 8
    ldr r9, [lr], #4        @ row 0's word
    ldr r10, [lr, r6]       @ row 1's word
    ldr r4, [r11], #16      @ pixel 0, bytes 0 and 2
    ldr r5, [r11, #-12]     @ pixel 0, bytes 1 and 3
    ldr r7, [r11, #-8]      @ pixel 1
    ldr r8, [r11, #-4]
    sxtb16 r12, r9
    sxtb16 r9, r9, ror #8
    smlad r0, r4, r12, r0
    smlad r0, r5, r9, r0
    smlad r2, r7, r12, r2
    smlad r2, r8, r9, r2
    sxtb16 r12, r10
    sxtb16 r10, r10, ror #8
    smlad r1, r4, r12, r1
    smlad r1, r5, r10, r1
    smlad r3, r7, r12, r3
    smlad r3, r8, r10, r3
    .endr
    ldr r12, [sp]
    cmp r11, r12
    bne 1b
    .global b2x2_end
b2x2_end:
    movw r12, #:lower16:result
    movt r12, #:upper16:result
    stm r12, {r0-r3}
    add sp, sp, #8
    pop {r4-r11, pc}

@ b3x2: 3 pixels x 2 channels, 24 MACs a step, each weight word widened
@ once for three pixels. Fourteen registers only with the two weight rows
@ interleaved word by word (row 0's word, then row 1's: a layout `model!`
@ could write in flash; the file's layout needs `skip`, a fifteenth): 6
@ accumulators, 2 weight words, their low halves' register, 3 pixel
@ halves, x, w. Pixels widened once per three, 24 B a step: pixel 2's
@ bytes 1 and 3, then the three pixels' bytes 0 and 2, then pixels 0 and
@ 1's bytes 1 and 3. The low halves first (5 loads in a run), then the
@ high halves (3 loads in a run).
    .global b3x2
    .thumb_func
b3x2:
    push {r4-r11, lr}
    sub sp, sp, #8
    movw r11, #:lower16:b3x2_x
    movt r11, #:upper16:b3x2_x
    add r12, r11, #1536
    str r12, [sp]
    movw lr, #:lower16:b3x2_w
    movt lr, #:upper16:b3x2_w
    movs r0, #0
    movs r1, #0
    movs r2, #0
    movs r3, #0
    movs r4, #0
    movs r5, #0
    .global b3x2_loop
b3x2_loop:
1:
    .rept 8
    ldr r6, [lr], #8        @ row 0's word
    ldr r7, [lr, #-4]       @ row 1's word
    ldr r9, [r11, #4]       @ pixel 0, bytes 0 and 2
    ldr r10, [r11, #8]      @ pixel 1
    ldr r12, [r11, #12]     @ pixel 2
    sxtb16 r8, r6
    smlad r0, r9, r8, r0
    smlad r1, r10, r8, r1
    smlad r2, r12, r8, r2
    sxtb16 r8, r7
    smlad r3, r9, r8, r3
    smlad r4, r10, r8, r4
    smlad r5, r12, r8, r5
    ldr r9, [r11, #16]      @ pixel 0, bytes 1 and 3
    ldr r10, [r11, #20]     @ pixel 1
    ldr r12, [r11], #24     @ pixel 2
    sxtb16 r6, r6, ror #8
    smlad r0, r9, r6, r0
    smlad r1, r10, r6, r1
    smlad r2, r12, r6, r2
    sxtb16 r7, r7, ror #8
    smlad r3, r9, r7, r3
    smlad r4, r10, r7, r4
    smlad r5, r12, r7, r5
    .endr
    ldr r8, [sp]
    cmp r11, r8
    bne 1b
    .global b3x2_end
b3x2_end:
    movw r12, #:lower16:result
    movt r12, #:upper16:result
    stm r12, {r0-r5}
    add sp, sp, #8
    pop {r4-r11, pc}

@ b2x3: 2 pixels x 3 channels, 24 MACs a step, each pixel half loaded once
@ for three channels. Fourteen registers only with the three weight rows
@ interleaved word by word (the file's layout needs `skip`): 6
@ accumulators, 3 weight words, their low halves' register, 2 pixel
@ halves, x, w. Pixels widened once per pixel pair, 16 B a step: pixel
@ 1's bytes 1 and 3, the two pixels' bytes 0 and 2, pixel 0's bytes 1 and
@ 3. The low halves first (5 loads in a run), then the high halves (2).
    .global b2x3
    .thumb_func
b2x3:
    push {r4-r11, lr}
    sub sp, sp, #8
    movw r11, #:lower16:b2x3_x
    movt r11, #:upper16:b2x3_x
    add r12, r11, #1024
    str r12, [sp]
    movw lr, #:lower16:b2x3_w
    movt lr, #:upper16:b2x3_w
    movs r0, #0
    movs r1, #0
    movs r2, #0
    movs r3, #0
    movs r4, #0
    movs r5, #0
    .global b2x3_loop
b2x3_loop:
1:
    .rept 8
    ldr r6, [lr], #12       @ row 0's word
    ldr r7, [lr, #-8]       @ row 1's word
    ldr r8, [lr, #-4]       @ row 2's word
    ldr r10, [r11, #4]      @ pixel 0, bytes 0 and 2
    ldr r12, [r11, #8]      @ pixel 1
    sxtb16 r9, r6
    smlad r0, r10, r9, r0
    smlad r3, r12, r9, r3
    sxtb16 r9, r7
    smlad r1, r10, r9, r1
    smlad r4, r12, r9, r4
    sxtb16 r9, r8
    smlad r2, r10, r9, r2
    smlad r5, r12, r9, r5
    ldr r10, [r11, #12]     @ pixel 0, bytes 1 and 3
    ldr r12, [r11], #16     @ pixel 1
    sxtb16 r6, r6, ror #8
    smlad r0, r10, r6, r0
    smlad r3, r12, r6, r3
    sxtb16 r7, r7, ror #8
    smlad r1, r10, r7, r1
    smlad r4, r12, r7, r4
    sxtb16 r8, r8, ror #8
    smlad r2, r10, r8, r2
    smlad r5, r12, r8, r5
    .endr
    ldr r8, [sp]
    cmp r11, r8
    bne 1b
    .global b2x3_end
b2x3_end:
    movw r12, #:lower16:result
    movt r12, #:upper16:result
    stm r12, {r0-r5}
    add sp, sp, #8
    pop {r4-r11, pc}

@ --- the depthwise convolution: 72 taps of 4 channels ---------------------

@ dw_tap: today's tap (depthwise_conv/dsp.rs `tap!`), 4 MACs: the image
@ word (4 channels), the filter's two widened words (channels 0 and 2,
@ channels 1 and 3), two SXTB16, SMLABB / SMLATT. Tap i's image word at
@ 4i, its filter words at 8i (immediate offsets, as the unrolled taps).
    .global dw_tap
    .thumb_func
dw_tap:
    push {r4-r11, lr}
    movw r4, #:lower16:dw_tap_x
    movt r4, #:upper16:dw_tap_x
    movw r5, #:lower16:dw_tap_w
    movt r5, #:upper16:dw_tap_w
    movs r0, #0
    movs r1, #0
    movs r2, #0
    movs r3, #0
    .global dw_tap_loop
dw_tap_loop:
    .set i, 0
    .rept 72
    ldr r8, [r4, #(4 * i)]
    ldr r10, [r5, #(8 * i)]
    ldr r11, [r5, #(8 * i + 4)]
    sxtb16 r9, r8, ror #8
    sxtb16 r8, r8
    smlabb r0, r8, r10, r0
    smlatt r2, r8, r10, r2
    smlabb r1, r9, r11, r1
    smlatt r3, r9, r11, r3
    .set i, i + 1
    .endr
    .global dw_tap_end
dw_tap_end:
    movw r12, #:lower16:result
    movt r12, #:upper16:result
    stm r12, {r0-r3}
    pop {r4-r11, pc}

@ dw_pair: two taps of 4 channels by SMLAD, 8 MACs: the two image words
@ interleaved by PKHBT / PKHTB (taps t and u's channels 0 and 1, then 2
@ and 3), each widened by SXTB16 into (channel c of t, of u); the filter
@ as one word per channel, (tap t, tap u), four words a pair at 16j. Pair
@ j's image words at 8j and 8j + 4. Five scratch registers.
    .global dw_pair
    .thumb_func
dw_pair:
    push {r4-r11, lr}
    movw r4, #:lower16:dw_pair_x
    movt r4, #:upper16:dw_pair_x
    movw r5, #:lower16:dw_pair_w
    movt r5, #:upper16:dw_pair_w
    movs r0, #0
    movs r1, #0
    movs r2, #0
    movs r3, #0
    .global dw_pair_loop
dw_pair_loop:
    .set j, 0
    .rept 36
    ldr r7, [r4, #(8 * j)]
    ldr r8, [r4, #(8 * j + 4)]
    ldr r9, [r5, #(16 * j)]
    ldr r10, [r5, #(16 * j + 4)]
    pkhbt r11, r7, r8, lsl #16
    pkhtb r8, r8, r7, asr #16
    sxtb16 r7, r11
    smlad r0, r7, r9, r0
    sxtb16 r7, r11, ror #8
    smlad r1, r7, r10, r1
    ldr r9, [r5, #(16 * j + 8)]
    ldr r10, [r5, #(16 * j + 12)]
    sxtb16 r7, r8
    smlad r2, r7, r9, r2
    sxtb16 r7, r8, ror #8
    smlad r3, r7, r10, r3
    .set j, j + 1
    .endr
    .global dw_pair_end
dw_pair_end:
    movw r12, #:lower16:result
    movt r12, #:upper16:result
    stm r12, {r0-r3}
    pop {r4-r11, pc}

    .bss
    .balign 4
    .global result
result:
    .space 32
