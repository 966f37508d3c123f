"""Builds the user-style models of tflite/tests/user/ and records them with
TFLite Micro's own interpreter (the `tflite-micro` wheel), as a user would
export a Keras model: TF 2.21's converter, full integer, per-channel
weights, a representative dataset (16x8 mode for `*_int16`; no
quantization for `*_float`). Random weights, seed fixed; shapes small and
odd so that layout bugs show.

    python3 -m venv env && env/bin/pip install tensorflow-cpu==2.21.0 tflite-micro
    env/bin/python gen_user_models.py OUTDIR

Writes OUTDIR/<name>.tflite and OUTDIR/<name>.json: the recording's form
is tflite/tests/ops/'s (`cases`, each with `input`, `out` and every
activation in `tensors`, by tensor index), 8 cases, case 0 a constant
input (the input's zero point), the others random.
"""
import json
import sys

import numpy as np
import tensorflow as tf
from tflite_micro.python.tflite_micro import runtime

L = tf.keras.layers
SEED = 73


class ArgMax(L.Layer):
    """`tf.math.argmax` over the last axis, int32: Keras has no such layer."""

    def call(self, x):
        return tf.math.argmax(x, axis=-1, output_type=tf.int32)


class Split(L.Layer):
    """`tf.split` in two along the last axis."""

    def call(self, x):
        return tf.split(x, 2, axis=-1)


def mobilenet_v3_block():
    """MobileNetV3's inverted residual with hard-swish and squeeze-and-excite,
    then a classifier head ending in an argmax."""
    x = inp = L.Input((17, 15, 3), batch_size=1)
    x = L.Conv2D(8, 3, strides=2, padding="same")(x)
    x = L.Activation("hard_swish")(x)
    y = L.DepthwiseConv2D(3, padding="same")(x)
    y = L.ReLU()(y)
    s = L.GlobalAveragePooling2D(keepdims=True)(y)
    s = L.Conv2D(4, 1, activation="relu")(s)
    s = L.Conv2D(8, 1, activation="hard_sigmoid")(s)
    y = L.Multiply()([y, s])
    y = L.Conv2D(8, 1)(y)
    x = L.Add()([x, y])
    x = L.GlobalAveragePooling2D()(x)
    x = L.Dense(6)(x)
    return tf.keras.Model(inp, ArgMax()(x))


def unet():
    """A U-Net: a skip joined by Concatenate after a Conv2DTranspose, a
    bilinear resize, LeakyReLU."""
    x = inp = L.Input((12, 10, 2), batch_size=1)
    skip = L.Conv2D(6, 3, padding="same")(x)
    skip = L.LeakyReLU(0.2)(skip)
    d = L.MaxPooling2D(2)(skip)
    d = L.Conv2D(10, 3, padding="same", activation="relu")(d)
    u = L.Conv2DTranspose(6, 3, strides=2, padding="same")(d)
    x = L.Concatenate()([u, skip])
    x = L.Conv2D(4, 3, padding="same")(x)
    x = L.Resizing(18, 15, interpolation="bilinear")(x)
    x = L.Conv2D(1, 1, activation="sigmoid")(x)
    return tf.keras.Model(inp, x)


def conv1d_gap():
    """Conv1D, PReLU, GlobalAveragePooling1D (MEAN over one axis of a
    rank-3 tensor), GlobalMaxPooling1D, Concatenate, softmax."""
    x = inp = L.Input((31, 5), batch_size=1)
    x = L.Conv1D(8, 5, padding="same")(x)
    x = L.PReLU(shared_axes=[1])(x)
    x = L.Conv1D(12, 3, strides=2)(x)
    x = L.ReLU(6.0)(x)
    a = L.GlobalAveragePooling1D()(x)
    m = L.GlobalMaxPooling1D()(x)
    x = L.Concatenate()([a, m])
    x = L.Dense(4, activation="softmax")(x)
    return tf.keras.Model(inp, x)


def gated_heads():
    """A split into gated heads: tanh · sigmoid, Permute, Cropping1D."""
    x = inp = L.Input((20, 6), batch_size=1)
    x = L.Dense(10)(x)
    a, b = Split()(x)
    x = L.Multiply()([L.Activation("tanh")(a), L.Activation("sigmoid")(b)])
    x = L.Permute((2, 1))(x)
    x = L.Cropping1D((1, 2))(x)
    x = L.Flatten()(x)
    x = L.Dense(3)(x)
    return tf.keras.Model(inp, x)


def layernorm_elu():
    """LayerNormalization and a SeparableConv2D with ELU: float islands."""
    x = inp = L.Input((9, 7, 3), batch_size=1)
    x = L.SeparableConv2D(6, 3, padding="same", activation="elu")(x)
    x = L.Reshape((63, 6))(x)
    x = L.LayerNormalization()(x)
    x = L.Dense(5)(x)
    x = L.Maximum()([x, L.Dense(5)(x)])
    return tf.keras.Model(inp, x)


def audio_int16():
    """An audio-style model in 16x8 mode: conv, depthwise, pool, dense,
    tanh, softmax on int16 activations."""
    x = inp = L.Input((24, 10, 1), batch_size=1)
    x = L.Conv2D(6, (5, 3), strides=(2, 1), padding="same", activation="relu")(x)
    x = L.DepthwiseConv2D(3, padding="same", activation="relu")(x)
    x = L.AveragePooling2D(2)(x)
    x = L.Flatten()(x)
    x = L.Dense(8, activation="tanh")(x)
    x = L.Dense(4, activation="softmax")(x)
    return tf.keras.Model(inp, x)


def float_mlp():
    """A float32 model exported without quantization."""
    x = inp = L.Input((12,), batch_size=1)
    x = L.Dense(16, activation="relu")(x)
    x = L.Dense(8, activation="elu")(x)
    x = L.Dense(3)(x)
    return tf.keras.Model(inp, x)


def attention():
    """A small self-attention block (Keras MultiHeadAttention: BATCH_MATMUL,
    SOFTMAX, transposes) with a residual and a ZeroPadding1D."""
    x = inp = L.Input((10, 8), batch_size=1)
    a = L.MultiHeadAttention(num_heads=2, key_dim=4)(x, x)
    x = L.Add()([x, a])
    x = L.ZeroPadding1D((1, 2))(x)
    x = L.Conv1D(6, 3)(x)
    x = L.GlobalMaxPooling1D()(x)
    x = L.Dense(3)(x)
    return tf.keras.Model(inp, x)


def padded_resnet():
    """ZeroPadding2D, a strided convolution, Cropping2D, nearest-neighbour
    resize, MaxPooling, Minimum and Subtract."""
    x = inp = L.Input((14, 11, 3), batch_size=1)
    x = L.ZeroPadding2D(((1, 2), (2, 1)))(x)
    x = L.Conv2D(8, 3, strides=2, activation="relu6")(x)
    y = L.Cropping2D(((1, 1), (0, 1)))(x)
    y = L.Resizing(8, 6, interpolation="nearest")(y)
    y = L.Conv2D(8, 1)(y)
    x = L.Subtract()([x, y])
    x = L.Minimum()([x, L.Conv2D(8, 1)(x)])
    x = L.MaxPooling2D(2, padding="same")(x)
    x = L.Flatten()(x)
    x = L.Dense(5)(x)
    return tf.keras.Model(inp, x)


MODELS = {
    "user_mobilenet_v3_block": (mobilenet_v3_block, "int8"),
    "user_unet": (unet, "int8"),
    "user_conv1d_gap": (conv1d_gap, "int8"),
    "user_gated_heads": (gated_heads, "int8"),
    "user_layernorm_elu": (layernorm_elu, "int8"),
    "user_audio_int16": (audio_int16, "int16"),
    "user_float_mlp": (float_mlp, "float"),
    "user_attention": (attention, "int8"),
    "user_padded_resnet": (padded_resnet, "int8"),
}


def spread_weights(model, rng):
    """Random weights spread per output channel, non-zero biases."""
    for layer in model.layers:
        ws = layer.get_weights()
        if not ws:
            continue
        new = []
        for w in ws:
            if w.ndim == 1:
                new.append(rng.normal(0.0, 0.2, w.shape).astype(np.float32))
            else:
                scale = rng.uniform(0.3, 1.5, w.shape[-1]).astype(np.float32)
                new.append((rng.normal(0.0, 0.5, w.shape) * scale).astype(np.float32))
        layer.set_weights(new)


def convert(model, mode, shape, rng):
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if mode == "float":
        return converter.convert()

    def representative():
        for _ in range(64):
            yield [rng.normal(0.0, 1.0, shape).astype(np.float32)]

    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative
    if mode == "int16":
        converter.target_spec.supported_ops = [
            tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8
        ]
        converter.inference_input_type = tf.int16
        if model.output.dtype == "float32":
            converter.inference_output_type = tf.int16
    else:
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        if model.output.dtype == "float32":
            converter.inference_output_type = tf.int8
    return converter.convert()


def tensor_info(details):
    q = details.get("quantization_parameters", {})
    scales = q.get("scales", [])
    zeros = q.get("zero_points", [])
    info = {"shape": [int(d) for d in details["shape"]], "dtype": np.dtype(details["dtype"]).name}
    if len(scales):
        info["scale"] = float(scales[0])
        info["zero_point"] = int(zeros[0])
    return info


def record(name, flatbuffer, rng):
    interp = runtime.Interpreter.from_bytes(
        flatbuffer, intrepreter_config=runtime.InterpreterConfig.kPreserveAllTensors
    )
    ind = interp.get_input_details(0)
    outd = interp.get_output_details(0)
    dtype = np.dtype(ind["dtype"])
    shape = [int(d) for d in ind["shape"]]
    info = tensor_info(ind)
    lite = tf.lite.Interpreter(model_content=flatbuffer)
    names = {t["index"]: t["name"] for t in lite.get_tensor_details()}
    count = len(names)
    cases = []
    for k in range(8):
        if dtype == np.float32:
            x = np.zeros(shape, np.float32) if k == 0 else rng.normal(0, 1, shape).astype(np.float32)
        elif dtype == np.int16:
            if k == 0:
                x = np.full(shape, info.get("zero_point", 0), np.int16)
            else:
                x = (rng.integers(-128, 128, shape) * 256 + rng.integers(0, 256, shape)).astype(np.int16)
        else:
            if k == 0:
                x = np.full(shape, info.get("zero_point", 0), np.int8)
            else:
                x = rng.integers(-128, 128, shape).astype(np.int8)
        interp.reset()
        interp.set_input(x, 0)
        interp.invoke()
        out = interp.get_output(0)
        tensors = {}
        for i in range(count):
            t = interp.GetTensor(i, 0)
            if not isinstance(t, dict) or np.asarray(t["tensor_data"]).size == 0:
                continue
            t = np.asarray(t["tensor_data"])
            tensors[str(i)] = {
                "name": names.get(i, ""),
                "shape": [int(d) for d in t.shape],
                "dtype": t.dtype.name,
                "data": t.reshape(-1).tolist(),
            }
        cases.append({
            "name": "zero point" if k == 0 else f"random {k}",
            "input": x.flatten().tolist(),
            "out": np.asarray(out).flatten().tolist(),
            "tensors": tensors,
        })
    return {
        "model": f"{name}.tflite",
        "recorded_by": "tflite-micro wheel interpreter",
        "seed": SEED,
        "input": info,
        "output": tensor_info(outd),
        "cases": cases,
    }


def ops_of(flatbuffer):
    """The model's builtin ops, in order, as TFLite's analyzer names them."""
    lite = tf.lite.Interpreter(model_content=flatbuffer)
    return [op["op_name"] for op in lite._get_ops_details()]


def main():
    outdir = sys.argv[1]
    only = sys.argv[2:] or list(MODELS)
    for name in only:
        build, mode = MODELS[name]
        tf.keras.utils.set_random_seed(SEED)
        rng = np.random.default_rng(SEED)
        model = build()
        spread_weights(model, rng)
        shape = [int(d) for d in model.input.shape]
        flatbuffer = convert(model, mode, shape, rng)
        with open(f"{outdir}/{name}.tflite", "wb") as f:
            f.write(flatbuffer)
        rec = record(name, flatbuffer, np.random.default_rng(SEED + 1))
        with open(f"{outdir}/{name}.json", "w") as f:
            json.dump(rec, f, separators=(",", ":"))
        print(name, len(flatbuffer), "bytes", ops_of(flatbuffer))


if __name__ == "__main__":
    main()
