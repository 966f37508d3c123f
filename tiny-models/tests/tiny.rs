//! Every recorded case of the seven TinyML models through `model!`'s
//! `predict`, bit for bit TFLite Micro's (`tiny/<model>.json`, recorded by
//! TFLite Micro's own interpreter), at a RAM budget (`ram = N`: streamed
//! runs, issue 70) and layer by layer (`schedule = layers`, the default),
//! and `RAM_BYTES` at both (layer by layer: each model's liveness floor);
//! the test prints both:
//! `SHAPECHECK_MODELS=/path/to/models cargo test -p tiny-models --
//! --ignored --nocapture`, the models read when the crate builds
//! (`SHAPECHECK_MODELS`, by default `shared/models` beside the
//! repository).

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
        ($($test:ident: $net:ident, $layers:ident, $module:ident, $file:literal, $floor:literal, $ram:literal;)*) => {
            $(
                #[test]
                #[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
                fn $test() {
                    assert_eq!($layers::RAM_BYTES, $floor, "{}: RAM_BYTES layer by layer, the liveness floor", $file);
                    assert_eq!($net::RAM_BYTES, $ram, "{}: RAM_BYTES at its ram budget", $file);
                    println!("{}: RAM_BYTES {} at its ram budget (streamed), {} layer by layer (the floor)", $file, $net::RAM_BYTES, $layers::RAM_BYTES);
                    for (name, input, out) in cases($file) {
                        let x = $module::Input::from_slice(&input).unwrap();
                        let y: $module::Output = $net::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {} (streamed, at its ram budget)", $file, name);
                        let y = $layers::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {} (layer by layer)", $file, name);
                    }
                }
            )*
        };
    }

    // (test, at its ram budget, layer by layer, module, file, floor,
    // RAM_BYTES at its budget: tiny-models/build.rs's)
    tiny! {
        person: Person, PersonLayers, person, "person_detect", 55_296, 14_208;
        vww: Vww, VwwLayers, vww, "vww_96_int8", 55_296, 14_208;
        kws: Kws, KwsLayers, kws, "kws_ref_model", 16_000, 5_760;
        resnet8: Resnet8, Resnet8Layers, resnet8, "pretrainedResnet_quant", 49_152, 26_112;
        ad: Ad, AdLayers, ad, "ad01_int8", 768, 768;
        sww: Sww, SwwLayers, sww, "str_ww_ref_model", 6_656, 4_008;
        resnet_large: ResnetLarge, ResnetLargeLayers, resnet_large, "pretrainedResnet_large_int8", 122_880, 65_280;
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
