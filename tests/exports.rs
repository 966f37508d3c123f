//! The export list (issue 22): the prelude is what users need, the crate
//! root re-exports the prelude and the rest, and the prelude shadows no
//! name of Rust's own preludes.

/// The prelude brings every op a user calls, its markers, errors and the
/// bounds generic code names: one import, then each op.
mod through_the_prelude {
    use shapecheck::prelude::*;

    #[test]
    fn every_op() {
        let x = tensor![[1.0f32, 2.0], [3.0, 4.0]];
        let y = x.elementwise_mul(&tensor![10.0f32, 20.0], Axis::<-1>, Relu);
        assert_eq!(y.as_slice(), &[10.0, 40.0, 30.0, 80.0]);
        let picked = select(&tensor![[true], [false]], &x, &y, Numpy);
        assert_eq!(picked.as_slice(), &[1.0, 2.0, 30.0, 80.0]);
        let rows = multiplex(
            &[x, y],
            &Tensor::<i32, shape![2, 1]>::from_array([[1], [0]]),
        )
        .run()
        .unwrap();
        assert_eq!(rows.as_slice(), &[10.0, 40.0, 3.0, 4.0]);
        let merged = dynamic_stitch(&tensor![1, 0], &tensor![5, 6])
            .run()
            .unwrap();
        assert_eq!(merged.as_slice(), &[6, 5]);
        let parts = dynamic_partition(&tensor![5, 6, 7], &tensor![1, 0, 1], Partitions::<2>).run();
        assert_eq!(parts.unwrap()[1].as_slice(), &[5, 7]);
        let err: Result<_, ShapeError> = DynTensor::new(&[2], vec![1.0f32]);
        assert!(err.is_err());
        let (a, b) = (tensor![[1, 2]], tensor![[3, 4]]);
        let first = Tensor::<i32, shape![1, 1]>::from_array([[1]]);
        assert_eq!(multiplex!(first; a, b).unwrap().as_slice(), &[3, 4]);
    }

    /// Generic code names the rules as bounds without another import.
    fn scale<S: BroadcastWith<Y>, Y: StaticShape>(
        x: &Tensor<f32, S>,
        y: &Tensor<f32, Y>,
    ) -> Tensor<f32, BroadcastOf<S, Y>> {
        x * y
    }

    #[test]
    fn generic_bounds() {
        let z = scale(&tensor![[1.0f32], [2.0]], &tensor![3.0f32, 4.0]);
        assert_eq!(z.as_slice(), &[3.0, 4.0, 6.0, 8.0]);
    }
}

/// `use std::ops::*` beside the prelude: no name is ambiguous (the op
/// markers `Mul`, `Add`, `Sub`, `Div` live in `shapecheck::ops`).
mod beside_std_ops {
    use shapecheck::prelude::*;
    #[allow(unused_imports)]
    use std::ops::*;

    fn mix<T: Add<Output = T> + Mul<Output = T> + Sub<Output = T> + Div<Output = T> + Copy>(
        a: T,
        b: T,
        c: T,
    ) -> T {
        a * b + a - b / c
    }

    #[test]
    fn no_ambiguous_name() {
        assert_eq!(mix(2, 3, 3), 2 * 3 + 2 - 1);
        let x = tensor![1.0f32, 2.0];
        let z = x
            .try_elementwise(shapecheck::ops::Mul, &x, Axis::<-1>, Identity)
            .unwrap();
        assert_eq!(z.as_slice(), &[1.0, 4.0]);
    }
}

/// The crate root re-exports the prelude and the rest: `use shapecheck::*`
/// compiles the same programs, and reaches the plumbing-free extras.
mod through_the_root {
    use shapecheck::*;

    #[test]
    fn the_prelude_and_the_rest() {
        let x: Tensor<f32, shape![2]> = tensor![1.0f32, 2.0];
        let y = x.elementwise_add(&x, Axis::<-1>, Identity);
        assert_eq!(y.as_slice(), &[2.0, 4.0]);
        // beyond the prelude: the dynamic path's rule functions
        let dims = select_output_dims(AutoBroadcast::Numpy, &[2, 1], &[3], &[]).unwrap();
        assert_eq!(dims.as_slice(), &[2, 3]);
        assert_eq!(MAX_RANK, 8);
    }
}

/// The surface a user meets: at most 32 traits shown in the docs (every
/// other trait is `#[doc(hidden)]` plumbing or private), and at most 40
/// names in the prelude. Read from the sources: a `pub trait` whose
/// attributes do not include `#[doc(hidden)]` is shown by rustdoc (every
/// module that holds one is public); the prelude's names are those of its
/// `pub use` lines.
mod the_surface {
    use std::fs;
    use std::path::Path;

    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((
                    path.display().to_string(),
                    fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }

    /// The names of the `pub trait`s not marked `#[doc(hidden)]`.
    fn shown_traits() -> Vec<String> {
        let mut files = Vec::new();
        sources(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let mut shown = Vec::new();
        for (_, text) in &files {
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some(rest) = line.trim_start().strip_prefix("pub trait ") else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // the attribute block above it: attributes, their argument lines and doc comments
                let mut hidden = false;
                let mut j = i;
                while j > 0 {
                    j -= 1;
                    let above = lines[j].trim();
                    if above.starts_with("///") {
                        continue;
                    }
                    if above.starts_with("#[")
                        || above.starts_with(")]")
                        || above.ends_with("\",")
                        || above.ends_with('"')
                    {
                        hidden |= above == "#[doc(hidden)]";
                        continue;
                    }
                    break;
                }
                if !hidden && !shown.contains(&name) {
                    shown.push(name);
                }
            }
        }
        shown.sort();
        shown
    }

    fn prelude_names() -> Vec<String> {
        let lib =
            fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
        let start = lib.find("pub mod prelude {").unwrap();
        let body = &lib[start..start + lib[start..].find("\n}").unwrap()];
        let mut names = Vec::new();
        for item in body.split("pub use ").skip(1) {
            let item = &item[..item.find(';').unwrap()];
            match (item.find('{'), item.rfind('}')) {
                (Some(open), Some(close)) => names.extend(
                    item[open + 1..close]
                        .split(',')
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .map(String::from),
                ),
                _ => names.push(item.rsplit("::").next().unwrap().trim().to_string()),
            }
        }
        names
    }

    // 30 until the compute core: reduce and softmax add the one public
    // trait each op has under issue 56's recipe (`Reduce`, `SoftmaxAxis`)
    #[test]
    fn at_most_34_traits_are_shown() {
        let shown = shown_traits();
        // 31 with matmul's one public trait, `MatmulShapes` (issue 56's
        // recipe: one shown trait per op, which brings the others' down)
        // 34 with `FixedShape`: a static shape's constants, split from
        // `StaticShape` so that `shape.rs` names no operator (issue 56)
        assert!(
            shown.len() <= 34,
            "{} traits shown in the docs: {shown:?}",
            shown.len()
        );
        // the ones users write, at least
        for t in [
            "DimLike",
            "Shape",
            "StaticShape",
            "BroadcastWith",
            "SelectWith",
            "Storage",
        ] {
            assert!(shown.iter().any(|s| s == t), "{t} is not shown: {shown:?}");
        }
    }

    /// Small enough to read in one screen; it grew from 40 when the names
    /// the README's generic section uses (`Owned`, `Room`, `try_select`)
    /// and the one error type (`Error`) joined it (issue 56).
    /// 47 with matmul's transpose markers (`NoTrans`, `Trans`), so that
    /// one body under the glob import runs `try_matmul` on `Tensor` and
    /// `DynTensor` alike (issue 65).
    #[test]
    fn at_most_47_names_in_the_prelude() {
        let names = prelude_names();
        assert!(
            names.len() <= 47,
            "{} names in the prelude: {names:?}",
            names.len()
        );
    }

    /// The counters see what they count: a planted trait and the prelude's first name.
    #[test]
    fn the_counters_see_their_items() {
        assert!(shown_traits().len() >= 20);
        assert!(prelude_names().iter().any(|n| n == "Tensor"));
    }
}
