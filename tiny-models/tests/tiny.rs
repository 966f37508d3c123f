//! Every recorded case of the seven TinyML models through `model!`'s
//! `predict`, bit for bit TFLite Micro's (`tiny/<model>.json`, recorded by
//! TFLite Micro's own interpreter), at the default plan (the least RAM
//! within 1.10x the layer-by-layer instructions, issue 70), layer by layer
//! (`schedule = layers`) and, where it is smaller than the default, at
//! the smallest plan the search finds (`ram = N`: streamed runs at their
//! tightest rings); and `RAM_BYTES` at each (layer by layer: each model's
//! liveness floor). The test prints them:
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
                    assert_eq!($net::RAM_BYTES, $ram, "{}: RAM_BYTES at the default plan", $file);
                    println!("{}: RAM_BYTES {} at the default plan, {} layer by layer (the floor)", $file, $net::RAM_BYTES, $layers::RAM_BYTES);
                    for (name, input, out) in cases($file) {
                        let x = $module::Input::from_slice(&input).unwrap();
                        let y: $module::Output = $net::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {} (the default plan)", $file, name);
                        let y = $layers::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {} (layer by layer)", $file, name);
                    }
                }
            )*
        };
    }

    // (test, the default plan, layer by layer, module, file, floor,
    // RAM_BYTES at the default plan)
    tiny! {
        person: Person, PersonLayers, person, "person_detect", 55_296, 14_208;
        vww: Vww, VwwLayers, vww, "vww_96_int8", 55_296, 14_208;
        kws: Kws, KwsLayers, kws, "kws_ref_model", 16_000, 8_536;
        resnet8: Resnet8, Resnet8Layers, resnet8, "pretrainedResnet_quant", 49_152, 26_112;
        ad: Ad, AdLayers, ad, "ad01_int8", 768, 768;
        sww: Sww, SwwLayers, sww, "str_ww_ref_model", 6_656, 5_504;
        resnet_large: ResnetLarge, ResnetLargeLayers, resnet_large, "pretrainedResnet_large_int8", 122_880, 65_280;
    }

    macro_rules! smallest {
        ($($test:ident: $net:ident, $module:ident, $file:literal, $ram:literal;)*) => {
            $(
                #[test]
                #[ignore = "reads the TinyML models from $SHAPECHECK_MODELS"]
                fn $test() {
                    assert_eq!($net::RAM_BYTES, $ram, "{}: RAM_BYTES at its smallest plan", $file);
                    println!("{}: RAM_BYTES {} at its smallest plan (ram = {})", $file, $net::RAM_BYTES, $ram);
                    for (name, input, out) in cases($file) {
                        let x = $module::Input::from_slice(&input).unwrap();
                        let y = $net::predict(&x);
                        assert_eq!(y.as_slice(), &out[..], "{} {} (the smallest plan)", $file, name);
                    }
                }
            )*
        };
    }

    // (test, the smallest plan, module, file, its RAM_BYTES: build.rs's
    // budget)
    smallest! {
        person_smallest: PersonSmallest, person_smallest, "person_detect", 14_208;
        vww_smallest: VwwSmallest, vww_smallest, "vww_96_int8", 14_208;
        kws_smallest: KwsSmallest, kws_smallest, "kws_ref_model", 5_760;
        sww_smallest: SwwSmallest, sww_smallest, "str_ww_ref_model", 4_008;
        resnet8_smallest: Resnet8Smallest, resnet8_smallest, "pretrainedResnet_quant", 26_112;
        resnet_large_smallest: ResnetLargeSmallest, resnet_large_smallest, "pretrainedResnet_large_int8", 65_280;
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
