//! Compile-fail and compile-pass UI tests (trybuild), one folder per operator:
//! `ui-tests/<op>/fail/*.rs` must fail with the reviewed `.stderr` next to
//! them, `ui-tests/<op>/pass/*.rs` must build and run.
//!
//! `SHAPECHECK_UI=<op>` runs only that operator's cases (handy with
//! `TRYBUILD=overwrite` when writing new snapshots).

#[test]
fn ui() {
    let only = std::env::var("SHAPECHECK_UI").ok();
    let t = trybuild::TestCases::new();
    for op in [
        "elementwise",
        "select",
        "multiplex",
        "stitch",
        "shape",
        "tensor_macro",
        "lod",
    ] {
        if only.as_deref().is_some_and(|o| o != op) {
            continue;
        }
        t.compile_fail(format!("ui-tests/{op}/fail/*.rs"));
        t.pass(format!("ui-tests/{op}/pass/*.rs"));
    }
}
