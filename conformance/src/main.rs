//! The conformance tool: runs the recorded framework vectors through
//! shapecheck's dynamic API (`conformance dynamic DIR`) or its static API
//! (`conformance static DIR`: one generated program per case, compiled and
//! run), and prints one line per family, `FAMILY: N passed, N failed`,
//! followed by the failing cases (`name#index: why`). Exits non-zero on any
//! failure. Families the project does not implement are reported as failed.
//!
//! Pass rule ([`judge`]): accepted exactly where the framework accepted,
//! with the recorded output shape and dtype and values bit for bit (tanh
//! and sigmoid activations within 1e-6 relative); rejected exactly where it
//! rejected or crashed (`framework_overflow` cases follow their recorded
//! `out`/`error`), by the rule the library's own run-time validator names
//! for the case, at that rule's stage (static mode: a compile error for a
//! rule the compiler enforces on static shapes; every error of the case
//! must carry the rule's identifier). A case recording neither or both of
//! `out` and `error` is a failure of the vector file.
//!
//! Gradient families: a vector file whose `op` is `<family>_grad` (kept in
//! `tests/vectors/grad/`, run as `conformance dynamic tests/vectors/grad`
//! or `static`) runs the op's backward on the case's forward inputs and
//! `dout`; the case passes when every gradient in its `grads` is produced,
//! keyed and shaped as recorded, with equal values (-0.0 equal to 0.0;
//! elementwise_div and tanh/sigmoid within 1e-6 relative with a floor of 4
//! ulps of the dtype times the gradient's largest magnitude,
//! [`judge::Tolerance::GradRelative`]). Dynamic mode returns
//! [`judge::Outcome::Gradients`]; a static program returns
//! `emit_grads(vec![("x", emit(..)), ..])` (a list of `emit`s for a list
//! input).
//!
//! Dynamic mode goes through the public `DynTensor` methods
//! (`elementwise`, `select`, `multiplex`, `dynamic_stitch`,
//! `dynamic_partition`) and `DynLodTensor::lod_reset`; inputs whose element
//! types the op cannot take together are reported as rejected by the types.
//!
//! Static mode (see [`static_mode`]): generated crates go under
//! `<workspace>/target/conformance-static/<set>/<family>/` (`<set>` named
//! after the folder of vectors, so that each folder keeps its crates and an
//! unchanged rerun rebuilds nothing that built) and share the target dir
//! `target/conformance-static/target`. Environment overrides:
//! `SHAPECHECK_ROOT` (the workspace to test, default: the one this tool was
//! built in), `CONFORMANCE_WORK_DIR` (where to generate and build),
//! `CONFORMANCE_STATIC_RELEASE=1` (build the generated crates in release mode).

mod families;
mod judge;
mod static_mode;
mod typed;

use conformance::vectors;

use judge::{judge, Outcome, Validation};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use vectors::Case;

const USAGE: &str = "usage: conformance (dynamic|static) DIR";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Dynamic,
    Static,
}

/// The cases of one family, in file order.
struct FamilyCases<'a> {
    name: String,
    cases: Vec<&'a Case>,
}

fn group(files: &[vectors::VectorFile]) -> Vec<FamilyCases<'_>> {
    let mut out: Vec<FamilyCases<'_>> = vec![];
    // every file's family (an empty file's too), and each case in its own
    // family: a file may hold two (`vectors::family_of`)
    for f in files {
        family_at(&mut out, &f.family);
        for c in &f.cases {
            let k = family_at(&mut out, &c.family);
            if let Some(g) = out.get_mut(k) {
                g.cases.push(c);
            }
        }
    }
    out
}

/// The position of family `name` in `out`, added (with no case) if new.
fn family_at(out: &mut Vec<FamilyCases<'_>>, name: &str) -> usize {
    if let Some(k) = out.iter().position(|g| g.name == name) {
        return k;
    }
    out.push(FamilyCases {
        name: name.to_string(),
        cases: vec![],
    });
    out.len() - 1
}

fn run_dynamic(fam: &dyn families::Family, case: &Case) -> Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fam.dynamic(case))) {
        Ok(o) => o,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Outcome::Broken(format!("the dynamic API panicked: {msg}"))
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, dir) = match args.as_slice() {
        [m, d] if m == "dynamic" => (Mode::Dynamic, PathBuf::from(d)),
        [m, d] if m == "static" => (Mode::Static, PathBuf::from(d)),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let files = match vectors::load_dir(&dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::from(2);
        }
    };
    if files.is_empty() {
        eprintln!("conformance: no *.json vector files in {}", dir.display());
        return ExitCode::from(2);
    }
    let started = Instant::now();
    let builder = static_mode::Builder::from_env().for_vectors(&dir);
    // one static run at a time per work dir (concurrent runs would rewrite
    // each other's generated crates); held until the process exits
    let _lock = if mode == Mode::Static {
        eprintln!(
            "conformance: static mode, generated crates in {}",
            builder.work.display()
        );
        match builder.lock() {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("conformance: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    if mode == Mode::Dynamic {
        // a panic is caught per case and reported as a failure; keep stderr quiet
        std::panic::set_hook(Box::new(|_| {}));
    }

    let mut any_failed = false;
    let mut report = String::new();
    for group in group(&files) {
        let fam = families::lookup(&group.name);
        let validations: Vec<Result<Validation, String>> = group
            .cases
            .iter()
            .map(|c| match fam {
                Some(f) => f.validate(c, mode == Mode::Static),
                None => Err("no family".into()),
            })
            .collect();
        let outcomes: Vec<Outcome> = match fam {
            None => group
                .cases
                .iter()
                .map(|_| {
                    Outcome::Broken(format!(
                        "shapecheck does not implement the {} family",
                        group.name
                    ))
                })
                .collect(),
            Some(fam) => match mode {
                Mode::Dynamic => group.cases.iter().map(|c| run_dynamic(fam, c)).collect(),
                Mode::Static => {
                    static_mode::run_family(&builder, &group.name, fam, &group.cases, &validations)
                }
            },
        };
        let mut failures = vec![];
        for ((case, outcome), validation) in group.cases.iter().zip(&outcomes).zip(&validations) {
            let tol = fam
                .map(|f| f.tolerance(case))
                .unwrap_or(judge::Tolerance::Exact);
            if let Err(why) = judge(case, outcome, tol, validation, mode == Mode::Static) {
                failures.push(format!("  {}: {why}", case.label()));
            }
        }
        let passed = group.cases.len() - failures.len();
        report += &format!(
            "{}: {passed} passed, {} failed\n",
            group.name,
            failures.len()
        );
        for f in &failures {
            report += f;
            report += "\n";
        }
        let constructed = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Rejected(judge::Stage::Construction, _)))
            .count();
        if constructed > 0 {
            report += &format!(
                "{}: {constructed} of them rejected by construction (inputs the API cannot express)\n",
                group.name
            );
        }
        any_failed |= !failures.is_empty();
        eprintln!(
            "conformance: {} done ({:.1}s)",
            group.name,
            started.elapsed().as_secs_f64()
        );
    }
    print!("{report}");
    eprintln!(
        "conformance: {} mode took {:.1}s",
        if mode == Mode::Static {
            "static"
        } else {
            "dynamic"
        },
        started.elapsed().as_secs_f64()
    );
    if any_failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
