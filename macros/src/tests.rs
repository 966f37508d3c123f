//! What the generators emit, checked on their tokens.

use crate::{elementwise, matmul, multiplex, reduce, select, shape, stitch, tensor};
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;

/// Every generated table against the rules crate's functions, enumerated.
mod rules;

/// Tokens as a string with single spaces (what `quote!` prints).
fn text(t: &TokenStream2) -> String {
    t.to_string()
}

/// The impls of trait `name` in `tokens`, as (self type, body) strings.
fn impls_of(tokens: TokenStream2, name: &str) -> Vec<(String, String)> {
    let file: syn::File = syn::parse2(tokens).expect("generated code parses as items");
    file.items
        .into_iter()
        .filter_map(|item| match item {
            syn::Item::Impl(i) => {
                let (_, path, _) = i.trait_.as_ref()?;
                let last = path.segments.last()?;
                (last.ident == name).then(|| {
                    let ty = &i.self_ty;
                    let items = &i.items;
                    let wh = &i.generics.where_clause;
                    (
                        quote!(#ty).to_string(),
                        quote!(#wh #(#items)* #last).to_string(),
                    )
                })
            }
            _ => None,
        })
        .collect()
}

#[test]
fn shape_writes_one_for_1_and_uses_the_given_path() {
    let (krate, rest) = shape::split_crate_path(quote!(my_lib; 2, 1, Dyn, N + 1));
    let out = shape::shape_impl(&krate, rest).unwrap();
    let want = quote!((
        my_lib::Dim<2>,
        my_lib::One,
        my_lib::Dyn,
        my_lib::Dim<{ N + 1 }>,
    ));
    assert_eq!(text(&out), text(&want));
}

#[test]
fn shape_without_a_path_uses_shapecheck() {
    let (krate, rest) = shape::split_crate_path(quote!(3));
    assert_eq!(text(&krate), text(&quote!(::shapecheck)));
    let out = shape::shape_impl(&krate, rest).unwrap();
    assert_eq!(text(&out), text(&quote!((::shapecheck::Dim<3>,))));
    // the scalar shape
    let out = shape::shape_impl(&krate, quote!()).unwrap();
    assert_eq!(text(&out), text(&quote!(())));
}

#[test]
fn shape_rejects_negative_and_float_dims() {
    let k = quote!(k);
    let e = shape::shape_impl(&k, quote!(2, -3)).unwrap_err();
    assert_eq!(e.to_string(), "a dim cannot be negative");
    let e = shape::shape_impl(&k, quote!(2.5)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a dim is an integer, `Dyn`, or a const expression"
    );
}

#[test]
fn tensor_reads_the_shape_from_the_nesting() {
    let k = quote!(k);
    let out = tensor::tensor_impl(&k, quote!([1, 2, 3], [4, 5, 6])).unwrap();
    let want = quote!(k::Tensor::<_, (k::Dim<2>, k::Dim<3>,)>::from_array([
        [1, 2, 3],
        [4, 5, 6]
    ]));
    assert_eq!(text(&out), text(&want));
    // a column: the 1 is `One`, so it broadcasts
    let out = tensor::tensor_impl(&k, quote!([1.5], [2.5])).unwrap();
    assert!(text(&out).contains(&text(&quote!((k::Dim<2>, k::One,)))));
}

#[test]
fn tensor_names_the_ragged_row() {
    let k = quote!(k);
    let e = tensor::tensor_impl(&k, quote!([1, 2, 3], [4, 5])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tensor!: row 1 has 2 elements, but row 0 has 3"
    );
    let e = tensor::tensor_impl(&k, quote!([1, 2], 3)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tensor!: row 1 is a single value, but row 0 has 2 elements"
    );
}

#[test]
fn tensor_keeps_each_element_whole() {
    let k = quote!(k);
    // a comma inside generic arguments, a comparison, a cast, an `if`, a `?`,
    // an index into an array literal and a block: each one element
    let out = tensor::tensor_impl(
        &k,
        quote!(
            f::<A, B>(x),
            a < b,
            c > d,
            n as f32,
            if c { 1.0 } else { 2.0 },
            x.parse()?,
            [1.0, 2.0][i],
            {
                let v = 3.0;
                v
            }
        ),
    )
    .unwrap();
    let want = quote!(k::Tensor::<_, (k::Dim<8>,)>::from_array([
        f::<A, B>(x),
        a < b,
        c > d,
        n as f32,
        if c { 1.0 } else { 2.0 },
        x.parse()?,
        [1.0, 2.0][i],
        {
            let v = 3.0;
            v
        }
    ]));
    assert_eq!(text(&out), text(&want));
    // rows of such elements, one wrapped in the invisible group of a
    // `macro_rules!` fragment
    let wrapped =
        proc_macro2::Group::new(proc_macro2::Delimiter::None, quote!([3.0, g::<u8, 2>()]));
    let out = tensor::tensor_impl(&k, quote!([1.0, if c { 2.0 } else { 0.0 }], #wrapped)).unwrap();
    let want = quote!(k::Tensor::<_, (k::Dim<2>, k::Dim<2>,)>::from_array([
        [1.0, if c { 2.0 } else { 0.0 }],
        [3.0, g::<u8, 2>()]
    ]));
    assert_eq!(text(&out), text(&want));
    let e = tensor::tensor_impl(&k, quote!(1.0, , 2.0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tensor!: expected an element before this comma"
    );
    // a value passed through a fragment keeps its invisible group
    let sum = proc_macro2::Group::new(proc_macro2::Delimiter::None, quote!(a + b));
    let out = tensor::tensor_impl(&k, quote!(#sum, c)).unwrap();
    assert!(has_invisible_group(out), "{}", text(&quote!(#sum)));
    for repeat in [quote!([1.0; 3]), quote!(1.0; 3), quote!([[1.0, 2.0]; 3])] {
        let e = tensor::tensor_impl(&k, repeat).unwrap_err();
        assert!(e.to_string().contains("repeat expression"), "{e}");
    }
}

/// Whether a `Delimiter::None` group appears anywhere in `tokens`.
fn has_invisible_group(tokens: TokenStream2) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Group(g) => {
            g.delimiter() == proc_macro2::Delimiter::None || has_invisible_group(g.stream())
        }
        _ => false,
    })
}

/// The type after `type Place =` (or another associated type) in an impl body.
fn assoc(body: &str, name: &str) -> String {
    let start = body
        .find(&format!("type {name} = "))
        .unwrap_or_else(|| panic!("no {name} in {body}"))
        + name.len()
        + 8;
    body[start..start + body[start..].find(" ;").unwrap()].to_string()
}

/// The generated axis tables (ranks up to 8), each as (self type, body) strings.
struct AxisTables {
    /// `ElementwiseRanks` of each pair of ranks, indexed `[rx][ry]`.
    ranks: Vec<Vec<String>>,
    equal: Vec<(String, String)>,
    range: Vec<(String, String)>,
    in_range: Vec<(String, String)>,
}

impl AxisTables {
    fn new() -> Self {
        let tables = elementwise::elementwise_axis_tables(8);
        let ranks = (0..=8)
            .map(|rx| {
                (0..=8)
                    .map(|ry| {
                        let pair = elementwise::elementwise_rank_pair(rx, ry);
                        let ranks = impls_of(pair, "ElementwiseRanks");
                        assert_eq!(
                            ranks.len(),
                            1,
                            "one ElementwiseRanks impl per pair of ranks"
                        );
                        assoc(&ranks[0].1, "Ranks")
                    })
                    .collect()
            })
            .collect();
        AxisTables {
            ranks,
            equal: impls_of(tables.clone(), "ElementwiseAxisPlace"),
            range: impls_of(tables.clone(), "ElementwiseAxisInRange"),
            in_range: impls_of(tables, "ElementwiseInRangePlace"),
        }
    }

    /// The placement the tables give `axis` for X of rank `rx` and Y of
    /// rank `ry`, followed the way rustc does: the pair's `ElementwiseRanks`,
    /// then for equal ranks the `ElementwiseAxisPlace` table, for different
    /// ranks the range table and the placement table of the axes in range.
    fn placement(&self, rx: usize, ry: usize, axis: isize) -> String {
        let short = |t: String| t.replace("crate :: ops :: elementwise :: bounds :: ", "");
        let ranks = short(self.ranks[rx][ry].clone());
        let ax = if axis < 0 {
            format!(
                "crate :: ops :: elementwise :: Axis < {{ - {}isize }} >",
                -axis
            )
        } else {
            format!("crate :: ops :: elementwise :: Axis < {{ {axis}isize }} >")
        };
        // the one impl of a table for this axis whose trait arguments are one of `args`
        let find = |table: &[(String, String)], args: &[String]| -> Option<String> {
            let found: Vec<_> = table
                .iter()
                .filter(|(ty, body)| *ty == ax && args.iter().any(|a| body.contains(a.as_str())))
                .collect();
            assert!(found.len() <= 1, "overlapping impls for {ax}: {found:?}");
            found.first().map(|(_, body)| body.clone())
        };
        if ranks == "EqualRanks" {
            let body = find(&self.equal, &["ElementwiseAxisPlace <".into()]);
            return short(assoc(&body.expect("every axis in [-16, 16)"), "Place"));
        }
        let (r, d) = (rx.max(ry), rx.abs_diff(ry));
        assert_eq!(ranks, format!("Ranks < {r}usize , {d}usize >"));
        let verdict = find(
            &self.range,
            &[format!("ElementwiseAxisInRange < {r}usize ,")],
        );
        let verdict = short(assoc(&verdict.expect("every axis in [-16, 16)"), "Verdict"));
        if verdict == "OutOfRange" {
            return verdict;
        }
        assert_eq!(verdict, "InRange");
        let args = [
            format!("ElementwiseInRangePlace < {r}usize , {d}usize >"),
            format!("ElementwiseInRangePlace < R , {d}usize >"),
        ];
        let body = find(&self.in_range, &args).expect("every axis in range");
        short(assoc(&body, "Place"))
    }
}

/// The placement each axis means, for X of rank 2 and Y of rank 3 (Paddle:
/// the lower-rank operand at `axis`, a negative axis counting as
/// `|rx - ry| + axis + 1`, trailing dims past the end trimmed).
#[test]
fn elementwise_axis_placements() {
    let tables = AxisTables::new();
    let placement = |rx, ry, axis| tables.placement(rx, ry, axis);
    let out_of_range = (-16..16)
        .filter(|&a| placement(2, 3, a) == "OutOfRange")
        .count();
    assert_eq!(out_of_range, 26, "all but -3..3 are out of range");
    assert_eq!(placement(2, 3, -3), "BeforeStart");
    assert_eq!(placement(2, 3, -2), "At < 0usize >");
    assert_eq!(placement(2, 3, -1), "At < 1usize >");
    assert_eq!(placement(2, 3, 0), "At < 0usize >");
    assert_eq!(placement(2, 3, 1), "At < 1usize >");
    assert_eq!(placement(2, 3, 2), "AtTrimmed < 2usize , 1usize >");
    // X is the higher rank: the same placements
    assert_eq!(placement(3, 2, 2), "AtTrimmed < 2usize , 1usize >");
    assert_eq!(placement(3, 2, -3), "BeforeStart");
    // a scalar operand at -1: after the last dim
    assert_eq!(placement(0, 3, -1), "At < 3usize >");
}

/// Equal ranks: axis -1 and 0 broadcast, every other axis in [-16, 16)
/// means "identical shapes only".
#[test]
fn elementwise_equal_ranks() {
    let tables = AxisTables::new();
    let placement = |rx, ry, axis| tables.placement(rx, ry, axis);
    let identical = (-16..16)
        .filter(|&a| placement(2, 2, a) == "Identical")
        .count();
    assert_eq!(identical, 30);
    assert_eq!(placement(2, 2, -1), "At < 0usize >");
    assert_eq!(placement(2, 2, 0), "At < 0usize >");
    let aligns = impls_of(elementwise::elementwise_rank_pair(2, 2), "ElementwiseAlign");
    assert_eq!(aligns.len(), 2, "At<0> and Identical");
    assert!(aligns
        .iter()
        .any(|(ty, b)| ty.contains("Identical") && b.contains("ElementwiseSameLink")));
}

/// The dim rules of a placement form one chain: the first link's `Self` is
/// `()`, each later link's `Self` the previous link's `Out`, so that rustc
/// reports only the first failing pair.
#[test]
fn elementwise_dim_rules_are_chained() {
    let aligns = impls_of(elementwise::elementwise_rank_pair(3, 3), "ElementwiseAlign");
    let (_, body) = aligns
        .iter()
        .find(|(ty, _)| ty.contains("At < 0usize >"))
        .expect("the numpy placement");
    let first = "() : crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastLink < X0 , Y0";
    assert!(body.contains(first), "{body}");
    let second = "< () as crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastLink < X0 , Y0 , (X0 , X1 , X2 ,) , (Y0 , Y1 , Y2 ,) , Ax > > :: Out : crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastLink < X1 , Y1";
    assert!(body.contains(second), "{body}");
    // exactly one where-clause per aligned pair, none on a dim rule directly
    assert_eq!(
        body.matches(": crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastLink <")
            .count(),
        3
    );
    assert!(!body.contains(": crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastDim <"));
    // the trailing 1s that run past the end are the first links of the same
    // chain (the run-time rule reports runs-past before a dim mismatch)
    let trimmed = impls_of(elementwise::elementwise_rank_pair(3, 2), "ElementwiseAlign");
    let (_, body) = trimmed
        .iter()
        .find(|(ty, _)| ty.contains("AtTrimmed < 2usize , 1usize >"))
        .expect("Y at axis 2 of X");
    assert!(
        body.contains("() : crate :: ops :: elementwise :: bounds :: ElementwiseDropLink < Y1"),
        "{body}"
    );
    assert!(
        body.contains(
            ":: Out : crate :: ops :: elementwise :: bounds :: ElementwiseBroadcastLink < X2 , Y0"
        ),
        "{body}"
    );
}

/// The plain forms' no-check rule: one impl per placement that bounds each
/// dim by its no-check dim rule directly (dropped dims first, then one
/// bound per aligned pair), naming only the no-check dim rules (a static
/// mismatch is the broadcast chain's to report).
#[test]
fn elementwise_no_check_rules_bound_each_dim() {
    let proven = impls_of(
        elementwise::elementwise_rank_pair(3, 2),
        "ElementwiseProvenAlign",
    );
    let aligns = impls_of(elementwise::elementwise_rank_pair(3, 2), "ElementwiseAlign");
    assert_eq!(proven.len(), aligns.len());
    let (_, body) = proven
        .iter()
        .find(|(ty, _)| ty.contains("AtTrimmed < 2usize , 1usize >"))
        .expect("Y at axis 2 of X");
    assert!(
        body.contains("Y1 : crate :: ops :: elementwise :: bounds :: ElementwiseNoCheckDropDim <"),
        "{body}"
    );
    assert!(
        body.contains("X2 : crate :: ops :: elementwise :: bounds :: ElementwiseNoCheckDim < Y0 ,"),
        "{body}"
    );
    assert!(!body.contains("ElementwiseBroadcastLink"), "{body}");
    assert!(!body.contains(":: Out"), "no chain: {body}");
    let (_, body) = proven
        .iter()
        .find(|(ty, _)| ty.contains("At < 1usize >"))
        .expect("Y at axis 1 of X");
    // one where-clause per aligned pair
    assert_eq!(
        body.matches(": crate :: ops :: elementwise :: bounds :: ElementwiseNoCheckDim <")
            .count(),
        2,
        "{body}"
    );
    // equal ranks at another axis than -1 / 0: identical shapes, so static dims
    let same = impls_of(
        elementwise::elementwise_rank_pair(2, 2),
        "ElementwiseProvenAlign",
    );
    assert!(same
        .iter()
        .any(|(ty, b)| ty.contains("Identical") && b.contains("ElementwiseNoCheckSameDim")));
}

/// Pdpd: a rank-1 source goes into a rank-2 then at axis -1 (right-aligned:
/// 1), 0, 1 and 2; at 2 it runs past the end and its dim must be droppable.
#[test]
fn select_pdpd_placements() {
    let impls: Vec<_> = impls_of(select::select_rules(2), "SelectPdpdInto")
        .into_iter()
        .filter(|(ty, _)| ty == "(A0 ,)")
        .collect();
    let into_rank2: Vec<_> = impls
        .iter()
        .filter(|(_, b)| b.contains("SelectPdpdInto < (B0 , B1 ,)"))
        .collect();
    assert_eq!(into_rank2.len(), 4);
    assert!(into_rank2
        .iter()
        .any(|(_, b)| b.contains("{ 2isize }") && b.contains("SelectPdpdDropLink < A0")));
    assert!(into_rank2
        .iter()
        .any(|(_, b)| b.contains("{ - 1isize }") && b.contains("SelectPdpdLink < A0 , B1")));
    // a source of higher rank than then: the gate, at every valid axis
    let higher: Vec<_> = impls_of(select::select_rules(2), "SelectPdpdInto")
        .into_iter()
        .filter(|(ty, b)| ty == "(A0 , A1 ,)" && b.contains("SelectPdpdInto < (B0 ,)"))
        .collect();
    assert_eq!(higher.len(), 3, "axes -1, 0, 1 of a rank-1 then");
    assert!(higher.iter().all(|(_, b)| b.contains("SelectPdpdRank")));
    // the axis rule: -1 and 0..=rank(then), nothing else
    let axes: Vec<_> = impls_of(select::select_rules(2), "SelectPdpdAxis")
        .into_iter()
        .filter(|(ty, _)| ty == "(A0 , A1 ,)")
        .collect();
    assert_eq!(axes.len(), 4, "axes -1, 0, 1, 2 of a rank-2 then");
    assert!(!axes.iter().any(|(_, b)| b.contains("{ 3isize }")));
}

/// Numpy pairs are right-aligned: `[A0]` with `[B0, B1]` pairs A0 with B1.
#[test]
fn select_numpy_right_aligns() {
    let impls = impls_of(select::select_rules(2), "SelectNumpyPair");
    assert_eq!(impls.len(), 9, "every pair of ranks 0..=2");
    let (_, body) = impls
        .iter()
        .find(|(ty, b)| ty == "(A0 ,)" && b.contains("SelectNumpyPair < (B0 , B1 ,)"))
        .expect("rank 1 with rank 2");
    assert!(body.contains("() : crate :: ops :: select :: bounds :: SelectNumpyLink < A0 , B1"));
}

/// Multiplex: one rank marker per candidate rank; ranks 0 and 1 require the
/// candidate-rank gate (hidden from rustc's impl listing), the others hold
/// for any index and put its rows first in the output.
#[test]
fn multiplex_candidate_ranks() {
    let by_rank = impls_of(multiplex::rules(3), "MultiplexByRank");
    assert_eq!(by_rank.len(), 4, "candidate ranks 0..=3");
    let low: Vec<_> = by_rank
        .iter()
        .filter(|(_, b)| b.contains("MultiplexLowRank"))
        .collect();
    assert_eq!(low.len(), 2);
    assert!(low.iter().any(|(ty, _)| ty == "MultiplexRank0"));
    assert!(low.iter().any(|(ty, _)| ty == "MultiplexRank1"));
    let (_, rank3) = by_rank
        .iter()
        .find(|(ty, _)| ty == "MultiplexRank3")
        .expect("rank 3");
    assert!(
        rank3.contains("type Output < R : crate :: dim :: DimLike > = (R , D1 , D2 ,)"),
        "{rank3}"
    );
    assert!(!rank3.contains("where"), "any index: {rank3}");
    let text = text(&multiplex::rules(3));
    assert_eq!(
        text.matches("# [diagnostic :: do_not_recommend]").count(),
        2,
        "only the low-rank impls"
    );
    assert_eq!(impls_of(multiplex::rules(3), "MultiplexRankOf").len(), 4);
}

/// Multiplex: every index rank but 2 requires the index-rank gate (rank 2 is
/// written by hand: its second dim must be 1).
#[test]
fn multiplex_index_ranks() {
    let index = impls_of(multiplex::rules(3), "MultiplexIndexShape");
    let ranks: Vec<_> = index.iter().map(|(ty, _)| ty.as_str()).collect();
    assert_eq!(ranks, ["()", "(J0 ,)", "(J0 , J1 , J2 ,)"]);
    assert!(index
        .iter()
        .all(|(_, b)| b.contains("MultiplexIndexRank < S >")));
}

/// Every shape tuple gets its kind (static or not) from its dims.
#[test]
fn shape_tuples_carry_their_kind() {
    let impls = impls_of(shape::shape_tuples(3), "Shape");
    assert_eq!(impls.len(), 3);
    for (_, body) in &impls {
        assert!(body.contains("type Kind"));
    }
    let statics = impls_of(shape::shape_tuples(3), "FixedShape");
    assert!(statics[1].1.contains("const NUMEL : usize = 1 * < D0"));
}

/// The prefix rule: one impl per data rank and indices rank up to it, each
/// requiring the algebra's `SameDim` of every prefix dim and leaving the
/// data's other dims as the slice; none when the indices outrank the data.
#[test]
fn stitch_prefix_rule_compares_each_prefix_dim() {
    let impls = impls_of(stitch::stitch_rules(2), "StitchPrefix");
    assert_eq!(
        impls.len(),
        6,
        "(data, indices) ranks with indices <= data, 0..=2"
    );
    let (_, body) = impls
        .iter()
        .find(|(ty, b)| ty == "(D0 , D1 ,)" && b.contains("StitchPrefix < (J0 ,) >"))
        .expect("indices [J0] over data [D0, D1]");
    assert!(
        body.contains("J0 : crate :: algebra :: SameDim < D0 >"),
        "{body}"
    );
    assert!(!body.contains("SameDim < D1 >"), "{body}");
    // the slice behind the prefix dim's `SameDim` output
    assert!(
        body.contains(
            "type Slice = < < J0 as crate :: algebra :: SameDim < D0 > > :: Out as crate :: ops :: stitch :: bounds :: Then < (D1 ,) > > :: Out ;"
        ),
        "{body}"
    );
    assert!(!impls
        .iter()
        .any(|(ty, b)| ty == "(D0 ,)" && b.contains("StitchPrefix < (J0 , J1 ,) >")));
    // dynamic_partition's prefix rule: the same impls, for its own trait
    let partition = impls_of(stitch::partition_rules(2), "PartitionPrefix");
    assert_eq!(partition.len(), 6);
    let bodies = |v: &[(String, String)]| -> Vec<String> {
        v.iter()
            .map(|(ty, b)| format!("{ty} {}", b.replace("PartitionPrefix", "StitchPrefix")))
            .collect()
    };
    assert_eq!(bodies(&partition), bodies(&impls));
    assert!(text(&stitch::partition_rules(1))
        .contains("crate :: ops :: partition :: bounds :: PartitionPrefix"));
}

/// The slice rule: the data's dims after the indices' are the earlier
/// pairs' slice, dim by dim (`SameDim`), of the same rank.
#[test]
fn stitch_slice_rule_compares_the_dims_after_the_prefix() {
    let impls = impls_of(stitch::stitch_rules(3), "StitchSliceOf");
    let (_, body) = impls
        .iter()
        .find(|(ty, b)| {
            ty == "(D0 , D1 , D2 ,)" && b.contains("StitchSliceOf < (J0 ,) , (A0 , A1 ,) >")
        })
        .expect("indices [J0] over data [D0, D1, D2], slice [A0, A1]");
    assert!(
        body.contains("D1 : crate :: algebra :: SameDim < A0 >"),
        "{body}"
    );
    assert!(
        body.contains("D2 : crate :: algebra :: SameDim < A1 >"),
        "{body}"
    );
    assert!(!body.contains("D0 :"), "{body}");
    // one slice rank per (data, indices) pair: data rank - indices rank
    assert_eq!(
        impls.len(),
        10,
        "(data, indices) ranks with indices <= data, 0..=3"
    );
}

/// Every rule impl is `do_not_recommend` (a failing dim is reported by the
/// rule's message); the output shape prepends a run-time row count to
/// slices of rank 0 to max - 1, and the constants cover ranks 0 to max.
#[test]
fn stitch_output_shape_and_constants() {
    let all = text(&stitch::stitch_rules(2));
    let rules = impls_of(stitch::stitch_rules(2), "StitchPrefix").len()
        + impls_of(stitch::stitch_rules(2), "StitchSliceOf").len()
        + impls_of(stitch::stitch_rules(2), "PrependDyn").len();
    assert_eq!(all.matches("diagnostic :: do_not_recommend").count(), rules);
    let prepend = impls_of(stitch::stitch_rules(2), "PrependDyn");
    assert_eq!(
        prepend.len(),
        2,
        "slices of rank 0 and 1: the output has rank <= 2"
    );
    let (_, body) = prepend
        .iter()
        .find(|(ty, _)| ty == "(D0 ,)")
        .expect("rank 1");
    assert!(
        body.contains("type Out = (crate :: dim :: Dyn , D0 ,) ;"),
        "{body}"
    );
    assert!(
        body.contains("(crate :: dim :: Dyn (rows) , d0 ,)"),
        "{body}"
    );
    let constants = impls_of(stitch::stitch_rules(2), "StaticSlice");
    assert_eq!(constants.len(), 3);
    let (_, body) = constants
        .iter()
        .find(|(ty, _)| ty == "(D0 , D1 ,)")
        .expect("rank 2");
    assert!(
        body.contains("& [< D0 as crate :: dim :: DimLike > :: STATIC , < D1 as crate :: dim :: DimLike > :: STATIC ,]"),
        "{body}"
    );
}

#[test]
fn elementwise_shapes_one_impl_per_rank_of_x() {
    let text = elementwise::elementwise_shapes(3).to_string();
    assert!(
        text.contains("ElementwiseShapes < Y , A > for (X0 , X1 , X2 ,)"),
        "{text}"
    );
    // the impl only forwards to the whole rule
    assert!(text.contains("ElementwiseRule <"), "{text}");
    let scalar = elementwise::elementwise_shapes(0).to_string();
    assert!(scalar.contains("for ()"), "{scalar}");
}

/// Matmul: one impl per pair of ranks 1..=max (generic over the markers),
/// one for a 0-d x and one per rank for a 0-d y; the batch dims
/// right-aligned, chained after the inner rule, M and N last.
#[test]
fn matmul_rank_pairs() {
    let impls = impls_of(matmul::matmul_rules(3), "MatmulRule");
    assert_eq!(impls.len(), 3 * 3 + 1 + 3);
    let squeeze = |s: &str| s.replace(' ', "");
    // [B, M, K] x [K, N]: the batch dim passes through, then M, N
    let (_, body) = impls
        .iter()
        .find(|(ty, body)| {
            squeeze(ty) == "(X0,X1,X2,)" && squeeze(body).contains("MatmulRule<(Y0,Y1,),")
        })
        .expect("the rank-3 x rank-2 impl");
    let b = squeeze(body);
    assert!(b.contains("typeOutput=(X0,<TXascrate::ops::matmul::Transpose>::Lead<X1,X2>,<TYascrate::ops::matmul::Transpose>::Trail<Y0,Y1>,)"), "{b}");
    assert!(b.contains("MatmulInnerLink<<TXascrate::ops::matmul::Transpose>::Trail<X1,X2>,<TYascrate::ops::matmul::Transpose>::Lead<Y0,Y1>"), "{b}");
    // [B1, B2, M, K] x [B3, K, N]: B2 meets B3 in a link after the inner rule
    let (_, body) = impls
        .iter()
        .find(|(ty, body)| {
            squeeze(ty) == "(X0,X1,X2,)" && squeeze(body).contains("MatmulRule<(Y0,Y1,Y2,),")
        })
        .expect("the rank-3 x rank-3 impl");
    let b = squeeze(body);
    assert!(
        b.contains(">::Ok:crate::ops::matmul::bounds::MatmulBatchLink<X0,Y0,"),
        "{b}"
    );
    // vector x vector: a 0-d output; a vector's marker is ignored
    let (_, body) = impls
        .iter()
        .find(|(ty, body)| squeeze(ty) == "(X0,)" && squeeze(body).contains("MatmulRule<(Y0,),"))
        .expect("the vector x vector impl");
    let b = squeeze(body);
    assert!(b.contains("typeOutput=()"), "{b}");
    assert!(
        b.contains("(crate::ops::matmul::NoTrans,crate::ops::matmul::Trans):"),
        "{b}"
    );
}

#[test]
fn reduce_places_every_axis_with_the_rules_axis_slot() {
    let out = reduce::reduce_rules(3);
    let table = impls_of(out.clone(), "ReduceAxisRange");
    // ranks 0..=3 list 2 + 2 + 4 + 6 axes, each placed by the rule
    assert_eq!(table.len(), 14);
    // the last axis of rank 3 names dim 2 (each position: the enumeration below)
    assert!(table.iter().any(|(_, body)| body
        .contains("ReduceAxisRange < S , 3usize , { - 1isize } >")
        && body.contains("Pos < 2usize >")));
    // one placement impl per rank, naming the rank
    assert_eq!(impls_of(out.clone(), "ReduceAxisOf").len(), 4);
    // masks of 1..=3 slots: 1 + 2 + 3 flips; the shapes of 2 + 2 + 4 + 8 masks
    assert_eq!(impls_of(out.clone(), "MarkAxis").len(), 6);
    let apply = impls_of(out, "ApplyMask");
    assert_eq!(apply.len(), 16);
    // rank 2, the second dim reduced: dropped, or kept as One
    assert!(apply.iter().any(|(ty, body)| ty
        .contains("Kept , crate :: ops :: reduce :: bounds :: Gone")
        && body.contains("type Out = (D0 ,) ;")
        && body.contains("type Kept = (D0 , crate :: dim :: One ,) ;")));
}

#[test]
fn softmax_lists_the_same_axes() {
    let out = reduce::softmax_rules(2);
    assert_eq!(impls_of(out.clone(), "SoftmaxAxisRange").len(), 2 + 2 + 4);
    assert_eq!(impls_of(out, "SoftmaxAxisOf").len(), 3);
}
