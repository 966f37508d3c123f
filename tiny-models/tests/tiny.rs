//! Every recorded case of the seven TinyML models through `model!`'s
//! `predict`, bit for bit TFLite Micro's (`tiny/<model>.json`, recorded by
//! TFLite Micro's own interpreter), and `RAM_BYTES` at each model's
//! liveness floor: `cargo test -p tiny-models -- --ignored`, the models read
//! when the crate builds (`SHAPECHECK_MODELS`, by default `shared/models`
//! beside the repository).

#[cfg(tiny_models)]
mod models {
    use serde_json::Value;
    use tiny_models::*;

    fn cases(file: &str) -> Vec<(String, Vec<i8>, Vec<i8>)> {
        let path = format!("{MODELS_DIR}/tiny/{file}.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let json: Value = serde_json::from_str(&text).unwrap();
        let ints = |v: &Value| -> Vec<i8> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| i8::try_from(x.as_i64().unwrap()).unwrap())
                .collect()
        };
        let cases: Vec<_> = json["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    ints(&c["input"]),
                    ints(&c["out"]),
                )
            })
            .collect();
        assert_eq!(cases.len(), 16, "{file}: 16 recorded cases");
        cases
    }

    macro_rules! tiny {
        ($($test:ident: $net:ident, $module:ident, $file:literal, $floor:literal;)*) => {
            $(
                #[test]
                #[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
                fn $test() {
                    assert_eq!($net::RAM_BYTES, $floor, "{}: RAM_BYTES, the liveness floor", $file);
                    for (name, input, out) in cases($file) {
                        let x = $module::Input::from_slice(&input).unwrap();
                        let y: $module::Output = $net::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {}", $file, name);
                    }
                }
            )*
        };
    }

    tiny! {
        person: Person, person, "person_detect", 55_296;
        vww: Vww, vww, "vww_96_int8", 55_296;
        kws: Kws, kws, "kws_ref_model", 16_000;
        resnet8: Resnet8, resnet8, "pretrainedResnet_quant", 49_152;
        ad: Ad, ad, "ad01_int8", 768;
        sww: Sww, sww, "str_ww_ref_model", 6_656;
        resnet_large: ResnetLarge, resnet_large, "pretrainedResnet_large_int8", 122_880;
    }
}

#[cfg(not(tiny_models))]
#[test]
#[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
fn the_models_were_built() {
    panic!(
        "the TinyML models were not found when tiny-models was built: set SHAPECHECK_MODELS to their directory (by default shared/models beside the repository) and run again"
    );
}
