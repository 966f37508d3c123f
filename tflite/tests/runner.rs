//! The host runner, `examples/model.rs`, run as a user runs it (`cargo run
//! --example model -- MODEL INPUTS`): its stdout against the recorded
//! outputs of one public input per model, and its one-line message and
//! exit code 1 on a file that is not a model and on an input of the wrong
//! shape; and given a recording (`tests/ops/<model>.json`, the format of
//! the model set's `tiny/<model>.json`), its line per case, agreeing or
//! not, its count, and exit code 2 when a case disagrees.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `cargo run -q -p shapecheck-tflite --example model -- args` (the target
/// dir is cargo's own: CARGO_TARGET_DIR, when set, is inherited).
fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args([
            "run",
            "-q",
            "-p",
            "shapecheck-tflite",
            "--example",
            "model",
            "--",
        ])
        .args(args)
        .current_dir(manifest_dir())
        .output()
        .expect("cargo runs")
}

/// A file under the test target's temporary dir, holding `text`.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a temporary file");
    path
}

fn case(outputs: &str, model: &str, n: usize) -> Value {
    let path = manifest_dir().join("tests/outputs").join(outputs);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["models"][model]["cases"][n].clone()
}

/// Runs `model_file` on `case`'s input; returns its stdout as JSON.
fn run_case(model_file: &str, case: &Value, name: &str) -> Value {
    let inputs = temp_file(name, &serde_json::to_string(&[&case["input"]]).unwrap());
    let model = manifest_dir().join("tests/models").join(model_file);
    let out = runner(&[model.to_str().unwrap(), inputs.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[test]
fn the_runner_prints_the_recorded_outputs() {
    // speech: TFLite Micro never differed, so `out` is its output too
    let speech = case("speech_outputs.json", "speech", 3);
    let printed = run_case("speech.tflite", &speech, "speech_in.json");
    let want = &speech["out"];
    assert_eq!(printed.as_array().unwrap().len(), 1);
    assert_eq!(printed[0]["shape"], want["shape"]);
    assert_eq!(printed[0]["dtype"], "int8");
    assert_eq!(printed[0]["data"], want["data"]);

    // the int8 sine, on an input where TFLite Micro differs: its output
    let path = manifest_dir().join("tests/outputs/sine_outputs.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let sine = file["models"]["sine_int8"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c.get("out_tflm").is_some())
        .unwrap();
    let printed = run_case("sine.tflite", sine, "sine_in.json");
    assert_eq!(printed[0]["data"], sine["out_tflm"]["data"]);
    assert_ne!(printed[0]["data"], sine["out"]["data"]);

    // the f32 sine: the same f32 values
    let float = case("sine_outputs.json", "sine_float", 20);
    let printed = run_case("sine_float.tflite", &float, "sine_float_in.json");
    assert_eq!(printed[0]["dtype"], "float32");
    let as_f32 = |v: &Value| v.as_f64().unwrap() as f32;
    assert_eq!(
        as_f32(&printed[0]["data"][0]),
        as_f32(&float["out"]["data"][0])
    );
}

#[test]
fn a_file_that_is_not_a_model_is_one_line_and_exit_code_1() {
    let inputs = temp_file("unused_in.json", "[]");
    let not_a_model = manifest_dir().join("Cargo.toml");
    let out = runner(&[not_a_model.to_str().unwrap(), inputs.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("Cargo.toml: not a TFLite model: its file identifier (bytes 4 to 8) is"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_input_of_the_wrong_shape_is_one_line_and_exit_code_1() {
    let inputs = temp_file(
        "wrong_shape_in.json",
        r#"[{"shape": [1, 2], "dtype": "int8", "data": [0, 0]}]"#,
    );
    let model = manifest_dir().join("tests/models/sine.tflite");
    let out = runner(&[model.to_str().unwrap(), inputs.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .ends_with("wrong_shape_in.json: input 0: shape [1, 2], and the model takes [1, 1]\n"),
        "{stderr}"
    );
}

#[test]
fn bad_json_a_wrong_count_and_a_missing_file_are_one_line_and_exit_code_1() {
    let model = manifest_dir().join("tests/models/sine.tflite");
    let model = model.to_str().unwrap();
    let bad = temp_file("bad_in.json", "[{");
    let two = temp_file(
        "two_in.json",
        r#"[{"shape": [1, 1], "dtype": "int8", "data": [0]}, {"shape": [1, 1], "dtype": "int8", "data": [0]}]"#,
    );
    let float = temp_file(
        "float_in.json",
        r#"[{"shape": [1, 1], "dtype": "float32", "data": [0.5]}]"#,
    );
    for (inputs, message) in [
        (bad.to_str().unwrap(), "bad_in.json: not JSON: "),
        (
            two.to_str().unwrap(),
            "two_in.json: 2 input tensors, and the model takes 1",
        ),
        (
            float.to_str().unwrap(),
            "float_in.json: input 0: dtype \"float32\", and the model takes \"int8\"",
        ),
        ("/nonexistent/in.json", "cannot read /nonexistent/in.json: "),
    ] {
        let out = runner(&[model, inputs]);
        assert_eq!(out.status.code(), Some(1), "{inputs}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}

/// `--plan PLAN.svg`: person detection's picture at `model!`'s default
/// plan, one box per placed activation, per streamed run's rings and per
/// layer in place's scratch, each labelled where it fits, a legend naming
/// each kind drawn, a scale fitted to the arena (14,208 B; the floor,
/// 55,296 B, named above it), and its arena, the layer-by-layer arena and
/// the floor printed.
#[test]
fn the_plan_is_drawn() {
    let svg = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("person_detect_plan.svg");
    let model = manifest_dir().join("tests/models/person_detect.tflite");
    let out = runner(&[model.to_str().unwrap(), "--plan", svg.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    // the streamed plan (issue 70) and the layer-by-layer one
    assert_eq!(printed[0]["arena_bytes"], 14_208);
    assert_eq!(printed[0]["layers_bytes"], 55_296);
    assert_eq!(printed[0]["floor_bytes"], 55_296);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg"), "{picture}");
    // one box per whole activation (30 operators write one each, the
    // reshape's output is its input's, the 7 inside the streamed run are
    // never whole and the outputs of the two layers written over their
    // input are in their input's box), one for the run's rings and one
    // for each layer in place's scratch, each with its tooltip
    assert_eq!(
        picture.matches("<rect class=\"slot\"").count(),
        30 - 7 - 2 + 1 + 2
    );
    assert!(
        picture.contains("<title>tensor 63 "),
        "the run's output, 12x12x32"
    );
    assert!(picture.contains(
        "<title>the rings of streamed run 0 (rows [3, 1, 3, 1, 3, 1, 3], band 1): 9600 B"
    ));
    assert!(picture.contains("operator 9's DEPTHWISE_CONV_2D written over it"));
    assert!(picture.contains("<title>the scratch of operator 10, written over its input: 4608 B"));
    // the labels, read without the tooltips (a PNG has none): a tensor's
    // index, short name, bytes and offset; the layers written over their
    // input in their input's box; the run's rings; a scratch
    let labels: Vec<String> = picture
        .split("<text class=\"label\"")
        .skip(1)
        .map(|t| {
            let t = &t[..t.find("</text>").unwrap()];
            t.split("<tspan")
                .skip(1)
                .map(|l| &l[l.find('>').unwrap() + 1..l.find("</tspan>").unwrap()])
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect();
    for label in [
        "t63 Conv2d_4_depthwise | 4,608 B @ 0",
        "t66 Conv2d_4_pointwise | → t67 Conv2d_5_depthwise (op 9) | → t70 Conv2d_5_pointwise (op 10) | 9,216 B @ 4,992",
        "t74 Conv2d_6_pointwise | 4,608 B @ 9,600",
        "streamed run 0: the rings | of ops 0 to 7, a band at a time | 9,600 B @ 4,608",
        "scratch of op 10 | 4,608 B @ 0",
    ] {
        assert!(labels.iter().any(|l| l == label), "{label} not in {labels:#?}");
    }
    // a legend entry for each kind drawn, under the plot
    let legend = &picture[picture.find("<g class=\"legend\">").expect("a legend")..];
    for entry in [
        "a whole activation: from the operator that writes it to the last that reads it",
        "layers written over their input (a→b→c)",
        "a streamed run's rings",
        "the scratch of a layer written over its input",
        "the bytes live at each operator",
        "the arena: model!'s RAM_BYTES",
        "the liveness floor: the most bytes live at one operator",
    ] {
        assert!(legend.contains(entry), "{entry} not in the legend");
    }
    // the scale fits what is drawn: its top is 15,000 B, just above the
    // arena, and the floor, 3.7 times that, is named above it
    assert!(picture.contains("text-anchor=\"end\">15,000</text>"));
    assert!(!picture.contains("text-anchor=\"end\">20,000</text>"));
    assert!(picture.contains("liveness floor: 55,296 B, 3.7× the top of this scale, above it"));
    assert!(picture.contains("arena (RAM_BYTES): 14,208 B"));
}

/// Runs the runner on `tests/ops/<name>.tflite` and `recording`; returns
/// its exit code and stdout's lines.
fn run_recording(name: &str, recording: &std::path::Path) -> (Option<i32>, Vec<String>) {
    let model = manifest_dir()
        .join("tests/ops")
        .join(format!("{name}.tflite"));
    let out = runner(&[model.to_str().unwrap(), recording.to_str().unwrap()]);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code(),
        stdout.lines().map(String::from).collect(),
    )
}

/// The recording `tests/ops/<name>.json`, parsed.
fn recording(name: &str) -> Value {
    let path = manifest_dir()
        .join("tests/ops")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lines the runner prints for a recording whose every case agrees.
fn agreeing_lines(recording: &Value) -> Vec<String> {
    let cases = recording["cases"].as_array().unwrap();
    let mut lines: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(n, case)| {
            format!(
                "case {n} {}: agrees with the recorded output ({} values)",
                case["name"],
                case["out"].as_array().unwrap().len()
            )
        })
        .collect();
    lines.push(format!(
        "{0} of {0} cases agree with the recorded outputs",
        cases.len()
    ));
    lines
}

#[test]
fn a_recording_runs_case_by_case_and_each_agrees() {
    // int8 in and out (an ADD broadcast along the channels), and f32 in
    // and out (QUANTIZE, CONV_2D, DEQUANTIZE): TFLite Micro's outputs
    for name in ["add_broadcast_channel", "float_io_conv"] {
        let path = manifest_dir()
            .join("tests/ops")
            .join(format!("{name}.json"));
        let (code, lines) = run_recording(name, &path);
        assert_eq!(lines, agreeing_lines(&recording(name)), "{name}");
        assert_eq!(code, Some(0), "{name}");
    }
}

#[test]
fn a_case_that_disagrees_is_named_and_the_exit_code_is_2() {
    let name = "add_broadcast_channel";
    let mut changed = recording(name);
    let out = &mut changed["cases"][3]["out"];
    let recorded = out[17].as_i64().unwrap();
    let wrong = if recorded == 127 { 126 } else { recorded + 1 };
    out[17] = wrong.into();
    let path = temp_file("changed_recording.json", &changed.to_string());
    let (code, lines) = run_recording(name, &path);
    let mut want = agreeing_lines(&recording(name));
    want[3] = format!(
        "case 3 \"smooth 3\": disagrees with the recorded output: output 0 differs at 1 of 120 values, \
         the first at index 17: {recorded}, recorded {wrong}"
    );
    want[8] = "7 of 8 cases agree with the recorded outputs".into();
    assert_eq!(lines, want);
    assert_eq!(code, Some(2));
}

#[test]
fn an_f32_output_agrees_within_one_ulp_and_not_beyond() {
    let name = "float_io_conv";
    // the f32 `step` places above the recorded value (f32 bits in order)
    let moved = |step: u32| {
        let mut changed = recording(name);
        let value = &mut changed["cases"][2]["out"][5];
        let x = value.as_f64().unwrap() as f32;
        assert!(
            x > 0.0,
            "a positive value, so a larger bit pattern is larger"
        );
        *value = f64::from(f32::from_bits(x.to_bits() + step)).into();
        temp_file(&format!("moved_{step}.json"), &changed.to_string())
    };
    let (code, lines) = run_recording(name, &moved(1));
    assert_eq!(code, Some(0), "{lines:?}");
    let (code, lines) = run_recording(name, &moved(2));
    assert_eq!(code, Some(2), "{lines:?}");
    assert!(
        lines[2].starts_with(
            "case 2 \"smooth 2\": disagrees with the recorded output: output 0 differs at 1 of 256 values, the first at index 5: "
        ),
        "{lines:?}"
    );
    assert_eq!(lines[8], "7 of 8 cases agree with the recorded outputs");
}
