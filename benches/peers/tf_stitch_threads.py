#!/usr/bin/env python3
"""W5 (`tf.dynamic_stitch`) with TensorFlow held to N threads, for the
issue-34 row "`DynTensor` W5 ahead of TensorFlow on one thread": the
frameworks' script (shared/bench/peers.py) times TensorFlow with its own
pool on every core. Same workload: a shuffled permutation of 0..2^20 split
into 4 index lists, data f32[*, 16]; median of 15 runs after 2 warm-ups.

Usage: python3 benches/peers/tf_stitch_threads.py [N]   (N = 1 by default)
"""
import os, sys, time, statistics
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
tf.config.threading.set_intra_op_parallelism_threads(threads)
tf.config.threading.set_inter_op_parallelism_threads(threads)

rng = np.random.default_rng(0)
perm = rng.permutation(1 << 20).astype(np.int32)
idx = np.array_split(perm, 4)
dat = [rng.standard_normal((len(a), 16), dtype=np.float32) for a in idx]
ti = [tf.constant(a) for a in idx]
td = [tf.constant(a) for a in dat]

def run():
    return tf.dynamic_stitch(ti, td)

run(); run()
ts = []
for _ in range(15):
    t = time.perf_counter(); run(); ts.append(time.perf_counter() - t)
print(f"W5 tf.dynamic_stitch, {threads} thread(s): {statistics.median(ts) * 1e3:.2f} ms")
