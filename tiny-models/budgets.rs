//! The TinyML models and the RAM budget of each, `ram = N`: the smallest
//! plan the schedule search finds (so that the streamed runs are what is
//! tested and what the firmware runs), the floor where the model does not
//! stream. One table for two build scripts: `tiny-models/build.rs` (the
//! host tests) and `embedded/models/build.rs` (the firmware of issue 70's
//! RAM goals, which includes this file by its path). A planner that finds
//! other plans changes a number here, and both follow.

/// (the model's name in Rust, its file, its RAM budget)
pub const MODELS: [(&str, &str, usize); 7] = [
    ("Person", "person_detect", 14_208),
    ("Vww", "vww_96_int8", 14_208),
    ("Kws", "kws_ref_model", 5_760),
    ("Resnet8", "pretrainedResnet_quant", 26_112),
    ("Ad", "ad01_int8", 768),
    ("Sww", "str_ww_ref_model", 4_008),
    ("ResnetLarge", "pretrainedResnet_large_int8", 65_280),
];
