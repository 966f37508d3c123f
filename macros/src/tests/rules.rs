//! The generated impls against the rules crate, enumerated (not sampled):
//! for every op the macros generate impls for, every pair of ranks up to
//! the maximum `shapecheck` asks of the generator and every axis the tables
//! list (which reaches one past each end of every rank's range), the impl
//! rustc would pick says exactly what the `shapecheck_rules` function that
//! the run-time rule calls says: the same placement, the same pairs of dims
//! meeting in the same order, the same dims dropped, the same output
//! positions, the same accepted ranks and axes. The dims themselves (1,
//! equal, different, run-time) are the dim rules' business, the same trait
//! for every placement; `conformance/tests/agreement.rs` compiles cases
//! of them.

use super::{assoc, impls_of, AxisTables};
use crate::{elementwise, matmul, multiplex, reduce, select, stitch};
use shapecheck_rules::align::Placed;
use shapecheck_rules::elementwise::{placement, Placement};
use shapecheck_rules::{axis, indexed, matmul as mm, multiplex as mx, select as sel};
use std::collections::HashMap;

/// The ranks `shapecheck` generates (`impl_<op>_rules!(N)` in `src/ops/*/bounds.rs`).
const MAX: usize = 8;
const MATMUL_MAX: usize = 6;
const REDUCE_MAX: usize = 6;
/// The axes the tables list: `[-16, 16)`, one past each end of every
/// rank's range up to 8 included.
const AXES: std::ops::Range<isize> = -16..16;

/// `(P0 , P1 ,)` as `quote!` prints it (`()` for rank 0).
fn tuple(prefix: &str, rank: usize) -> String {
    if rank == 0 {
        return "()".into();
    }
    let items: Vec<String> = (0..rank).map(|i| format!("{prefix}{i} ,")).collect();
    format!("({})", items.join(" "))
}

/// An axis as the generators write it (`{ - 1isize }`).
fn axis(a: isize) -> String {
    if a < 0 {
        format!("{{ - {}isize }}", -a)
    } else {
        format!("{{ {a}isize }}")
    }
}

/// The first `n` arguments of every `:: link <` in `body`, each list once,
/// in the order they first appear (a chain names each link twice: as its
/// own where-clause and as the next link's `Self`).
fn link_args(body: &str, link: &str, n: usize) -> Vec<Vec<String>> {
    let needle = format!(":: {link} < ");
    let mut out: Vec<Vec<String>> = Vec::new();
    for (i, _) in body.match_indices(&needle) {
        let rest = &body[i + needle.len()..];
        let args: Vec<String> = rest
            .split(" , ")
            .take(n)
            .map(|a| a.trim_end_matches(" >").to_string())
            .collect();
        if !out.contains(&args) {
            out.push(args);
        }
    }
    out
}

/// The bounded dim and the first `n - 1` arguments of every direct
/// where-clause `D : path :: rule < ..` in `body` (a rule bounded on its
/// dims without a chain), in order; the rule named in a projection
/// (`< D as path :: rule < .. > > :: Ok`, a chain's start) is skipped.
fn bound_dims(body: &str, rule: &str, n: usize) -> Vec<Vec<String>> {
    let needle = format!(":: {rule} < ");
    let mut out: Vec<Vec<String>> = Vec::new();
    for (i, _) in body.match_indices(&needle) {
        let before = &body[..i];
        if before.rfind(" as ") > before.rfind(" : ") {
            continue;
        }
        let colon = before.rfind(" : ").expect("a where-clause `D : rule`");
        let dim = before[..colon]
            .split_whitespace()
            .last()
            .expect("the bounded dim")
            .to_string();
        let rest = &body[i + needle.len()..];
        let mut args = vec![dim];
        args.extend(
            rest.split(" , ")
                .take(n - 1)
                .map(|a| a.trim_end_matches(" >").to_string()),
        );
        out.push(args);
    }
    out
}

/// The top-level entries of a tuple type `(a , b ,)`.
fn entries(tuple: &str) -> Vec<String> {
    let inner = tuple.trim();
    let inner = &inner[1..inner.len() - 1];
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in inner.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Impls keyed by (self type, the trait with its arguments).
fn keyed(impls: Vec<(String, String)>, name: &str) -> HashMap<(String, String), String> {
    let mut map = HashMap::new();
    for (ty, body) in impls {
        let at = body.rfind(name).expect("the trait ends the body");
        let key = (ty, body[at..].to_string());
        assert!(
            map.insert(key.clone(), body).is_none(),
            "two impls for {key:?}"
        );
    }
    map
}

/// A placement as the tables write its type (paths dropped).
fn placement_type(p: Placement) -> String {
    match p {
        Placement::Identical => "Identical".into(),
        Placement::At(at) => format!("At < {at}usize >"),
        Placement::AtTrimmed { at, kept } => format!("AtTrimmed < {at}usize , {kept}usize >"),
        Placement::BeforeStart => "BeforeStart".into(),
        Placement::OutOfRange => "OutOfRange".into(),
    }
}

fn ew_short(t: &str) -> String {
    t.replace("crate :: ops :: elementwise :: bounds :: ", "")
}

/// The axis tables, followed as rustc does (the pair's ranks, then the
/// equal-ranks table or the range table and the in-range table), give
/// every pair of ranks 0..=8 and every axis exactly the placement of
/// `shapecheck_rules::elementwise::placement`.
#[test]
fn elementwise_axis_tables_are_the_rules_placement() {
    let tables = AxisTables::new();
    for rx in 0..=MAX {
        for ry in 0..=MAX {
            for a in AXES {
                assert_eq!(
                    tables.placement(rx, ry, a),
                    placement_type(placement(rx, ry, a)),
                    "X of rank {rx}, Y of rank {ry}, axis {a}"
                );
            }
        }
    }
}

/// For every pair of ranks: one alignment impl (checked and no-check) per
/// placement the rule gives some axis, and in each the pairs of dims that
/// meet, the dims dropped and the output's dims are the ones
/// `Placement::placed` says.
#[test]
fn elementwise_alignments_are_the_rules_placed_dims() {
    for rx in 0..=MAX {
        for ry in 0..=MAX {
            let tokens = elementwise::elementwise_rank_pair(rx, ry);
            let aligns = impls_of(tokens.clone(), "ElementwiseAlign");
            let proven = impls_of(tokens, "ElementwiseProvenAlign");
            let mut want: Vec<Placement> = Vec::new();
            for a in AXES {
                let p = placement(rx, ry, a);
                let placing = !matches!(p, Placement::BeforeStart | Placement::OutOfRange);
                if placing && !want.contains(&p) {
                    want.push(p);
                }
            }
            let mut want_types: Vec<String> = want.iter().map(|p| placement_type(*p)).collect();
            want_types.sort();
            for impls in [&aligns, &proven] {
                let mut got: Vec<String> = impls.iter().map(|(ty, _)| ew_short(ty)).collect();
                got.sort();
                assert_eq!(got, want_types, "ranks {rx}, {ry}");
            }
            let x_small = rx < ry;
            let (r, rs) = if x_small { (ry, rx) } else { (rx, ry) };
            let (small, large) = if x_small { ("X", "Y") } else { ("Y", "X") };
            for p in want {
                let placed: Placed = p.placed(r, rs).expect("a placing verdict");
                let drops: Vec<Vec<String>> = (0..rs)
                    .filter(|&j| placed.drops(j))
                    .map(|j| vec![format!("{small}{j}")])
                    .collect();
                let mut pairs = Vec::new();
                let mut outputs = Vec::new();
                for i in 0..r {
                    match placed.dim_at(i) {
                        Some(j) => {
                            let (x, y) = if x_small { (j, i) } else { (i, j) };
                            pairs.push(vec![format!("X{x}"), format!("Y{y}")]);
                            outputs.push(None);
                        }
                        None => outputs.push(Some(format!("{large}{i}"))),
                    }
                }
                let ty = placement_type(p);
                let identical = p == Placement::Identical;
                let find = |impls: &[(String, String)]| {
                    impls
                        .iter()
                        .find(|(t, _)| ew_short(t) == ty)
                        .map(|(_, b)| b.clone())
                        .expect("listed above")
                };
                let ctx = format!("ranks {rx}, {ry}, {ty}");
                let body = find(&aligns);
                let link = if identical {
                    "ElementwiseSameLink"
                } else {
                    "ElementwiseBroadcastLink"
                };
                assert_eq!(link_args(&body, "ElementwiseDropLink", 1), drops, "{ctx}");
                assert_eq!(link_args(&body, link, 2), pairs, "{ctx}");
                let out = entries(&assoc(&body, "Output"));
                assert_eq!(out.len(), r, "{ctx}");
                for (entry, want) in out.iter().zip(&outputs) {
                    match want {
                        Some(dim) => assert_eq!(entry, dim, "{ctx}"),
                        None => assert!(entry.contains(link), "{ctx}: {entry}"),
                    }
                }
                let body = find(&proven);
                let rule = if identical {
                    "ElementwiseNoCheckSameDim"
                } else {
                    "ElementwiseNoCheckDim"
                };
                assert_eq!(
                    bound_dims(&body, "ElementwiseNoCheckDropDim", 1),
                    drops,
                    "{ctx}"
                );
                if identical {
                    // the first pair bounded directly, the others chained
                    // through the link after it
                    let (first, rest) = pairs.split_at(pairs.len().min(1));
                    assert_eq!(bound_dims(&body, rule, 2), first, "{ctx}");
                    assert_eq!(
                        link_args(&body, "ElementwiseNoCheckSameLink", 2),
                        rest,
                        "{ctx}"
                    );
                } else {
                    assert_eq!(bound_dims(&body, rule, 2), pairs, "{ctx}");
                }
            }
        }
    }
}

/// Numpy: for every pair of ranks, the dims that meet (checked and
/// no-check rules) and the output's dims are those of
/// `numpy_frame` / `numpy_placed`.
#[test]
fn select_numpy_pairs_are_the_rules_alignment() {
    let tokens = select::select_rules(MAX);
    let pairs = keyed(
        impls_of(tokens.clone(), "SelectNumpyPair"),
        "SelectNumpyPair",
    );
    let proven = keyed(impls_of(tokens, "SelectNumpyProven"), "SelectNumpyProven");
    assert_eq!(pairs.len(), (MAX + 1) * (MAX + 1));
    for ra in 0..=MAX {
        for rb in 0..=MAX {
            let (at, bt) = (tuple("A", ra), tuple("B", rb));
            let ctx = format!("ranks {ra}, {rb}");
            let r = sel::numpy_frame(&[ra, rb]);
            let (pa, pb) = (sel::numpy_placed(r, ra), sel::numpy_placed(r, rb));
            let mut met = Vec::new();
            let mut outputs = Vec::new();
            for i in 0..r {
                match (pa.dim_at(i), pb.dim_at(i)) {
                    (Some(p), Some(q)) => {
                        met.push(vec![format!("A{p}"), format!("B{q}")]);
                        outputs.push(None);
                    }
                    (Some(p), None) => outputs.push(Some(format!("A{p}"))),
                    (None, Some(q)) => outputs.push(Some(format!("B{q}"))),
                    (None, None) => panic!("{ctx}: position {i} of no operand"),
                }
            }
            let key = |name: &str| (at.clone(), format!("{name} < {bt} , C , T , E >"));
            let body = &pairs[&key("SelectNumpyPair")];
            assert_eq!(link_args(body, "SelectNumpyLink", 2), met, "{ctx}");
            let out = entries(&assoc(body, "Output"));
            assert_eq!(out.len(), r, "{ctx}");
            for (entry, want) in out.iter().zip(&outputs) {
                match want {
                    Some(dim) => assert_eq!(entry, dim, "{ctx}"),
                    None => assert!(entry.contains("SelectNumpyLink"), "{ctx}: {entry}"),
                }
            }
            let body = &proven[&key("SelectNumpyProven")];
            assert_eq!(bound_dims(body, "SelectNoCheckDim", 2), met, "{ctx}");
        }
    }
}

/// None: for every pair of equal ranks, the no-check rule bounds the first
/// pair of dims directly and chains every later pair, in order, through the
/// link that waits for the previous pair's `Ok` (one error, the first pair
/// that fails).
#[test]
fn select_none_no_check_chains_every_pair() {
    let tokens = select::select_rules(MAX);
    let proven = keyed(impls_of(tokens, "SelectSameProven"), "SelectSameProven");
    for r in 0..=MAX {
        let (at, bt) = (tuple("A", r), tuple("B", r));
        let ctx = format!("rank {r}");
        let pairs: Vec<Vec<String>> = (0..r)
            .map(|i| vec![format!("A{i}"), format!("B{i}")])
            .collect();
        let key = (at, format!("SelectSameProven < {bt} , C , T , E >"));
        let body = &proven[&key];
        let (first, rest) = pairs.split_at(pairs.len().min(1));
        assert_eq!(bound_dims(body, "SelectNoCheckSameDim", 2), first, "{ctx}");
        assert_eq!(link_args(body, "SelectNoCheckSameLink", 2), rest, "{ctx}");
    }
}

/// Pdpd: for every rank of then and every axis of the tables, an axis impl
/// exactly where `pdpd_axis_ok` accepts; for every pair of ranks and every
/// accepted axis, the source's placement is `pdpd_place`'s (the rank gate,
/// or the dims dropped and the pairs that meet, checked and no-check).
#[test]
fn select_pdpd_is_the_rules_axis_and_placement() {
    let tokens = select::select_rules(MAX);
    let axes = keyed(impls_of(tokens.clone(), "SelectPdpdAxis"), "SelectPdpdAxis");
    let into = keyed(impls_of(tokens.clone(), "SelectPdpdInto"), "SelectPdpdInto");
    let proven = keyed(impls_of(tokens, "SelectPdpdProven"), "SelectPdpdProven");
    for rb in 0..=MAX {
        let bt = tuple("B", rb);
        for a in AXES {
            let ok = sel::pdpd_axis_ok(a, rb);
            let key = (
                bt.replace('B', "A"),
                format!("SelectPdpdAxis < C , E , {} >", axis(a)),
            );
            assert_eq!(axes.contains_key(&key), ok, "then of rank {rb}, axis {a}");
            for ra in 0..=MAX {
                let at = tuple("A", ra);
                let ctx = format!("source of rank {ra}, then of rank {rb}, axis {a}");
                let key = |name: &str| {
                    (
                        at.clone(),
                        format!("{name} < {bt} , C , T , E , {} >", axis(a)),
                    )
                };
                let (body, no_check) = match (
                    into.get(&key("SelectPdpdInto")),
                    proven.get(&key("SelectPdpdProven")),
                ) {
                    (Some(b), Some(p)) => (b, p),
                    (None, None) => {
                        assert!(!ok, "{ctx}: no impl");
                        continue;
                    }
                    _ => panic!("{ctx}: a checked impl without its no-check one"),
                };
                assert!(ok, "{ctx}: an impl for a rejected axis");
                match sel::pdpd_place(ra, rb, a) {
                    sel::Pdpd::RankHigher => {
                        assert!(body.contains("SelectPdpdRank <"), "{ctx}: {body}");
                        assert!(!body.contains("Link <"), "{ctx}: {body}");
                    }
                    sel::Pdpd::Placed(placed) => {
                        assert!(!body.contains("SelectPdpdRank"), "{ctx}: {body}");
                        let drops: Vec<Vec<String>> = (0..ra)
                            .filter(|&j| placed.drops(j))
                            .map(|j| vec![format!("A{j}")])
                            .collect();
                        let met: Vec<Vec<String>> = (0..rb)
                            .filter_map(|i| {
                                Some(vec![format!("A{}", placed.dim_at(i)?), format!("B{i}")])
                            })
                            .collect();
                        assert_eq!(link_args(body, "SelectPdpdDropLink", 1), drops, "{ctx}");
                        assert_eq!(link_args(body, "SelectPdpdLink", 2), met, "{ctx}");
                        assert_eq!(
                            link_args(no_check, "SelectNoCheckDropLink", 1),
                            drops,
                            "{ctx}"
                        );
                        assert_eq!(
                            link_args(no_check, "SelectNoCheckOneWayLink", 2),
                            met,
                            "{ctx}"
                        );
                    }
                }
            }
        }
    }
}

/// Matmul: for every pair of ranks 0..=6, the rank gate exactly where
/// `operand` reads a 0-d operand, and otherwise the batch dims that meet and
/// the output's dims (batch frame, then M and N for a matrix) as `batch`
/// and `operand` say.
#[test]
fn matmul_impls_are_the_rules_reading_and_batch_alignment() {
    let impls = impls_of(matmul::matmul_rules(MATMUL_MAX), "MatmulRule");
    let rules = keyed(impls, "MatmulRule");
    // the one impl of a 0-d x, for any y
    let any_y = ("()".to_string(), "MatmulRule < Y , TX , TY >".to_string());
    assert!(rules[&any_y].contains("MatmulRankGate"));
    for rx in 0..=MATMUL_MAX {
        for ry in 0..=MATMUL_MAX {
            let ctx = format!("ranks {rx}, {ry}");
            let (ox, oy) = (mm::operand(rx), mm::operand(ry));
            let key = (
                tuple("X", rx),
                format!("MatmulRule < {} , TX , TY >", tuple("Y", ry)),
            );
            if ox == mm::Operand::Scalar {
                assert!(
                    !rules.contains_key(&key),
                    "{ctx}: the 0-d x's impl is generic over y"
                );
                continue;
            }
            let body = &rules[&key];
            if oy == mm::Operand::Scalar {
                assert!(body.contains("MatmulRankGate"), "{ctx}: {body}");
                continue;
            }
            assert!(!body.contains("MatmulRankGate"), "{ctx}: {body}");
            let b = mm::batch(rx, ry);
            let mut met = Vec::new();
            let mut outputs = Vec::new();
            for p in 0..b.frame {
                match (b.x.dim_at(p), b.y.dim_at(p)) {
                    (Some(i), Some(j)) => {
                        met.push(vec![format!("X{i}"), format!("Y{j}")]);
                        outputs.push("MatmulBatchLink".to_string());
                    }
                    (Some(i), None) => outputs.push(format!("X{i}")),
                    (None, Some(j)) => outputs.push(format!("Y{j}")),
                    (None, None) => panic!("{ctx}: batch position {p} of neither"),
                }
            }
            if ox == mm::Operand::Matrix {
                outputs.push("Lead <".into());
            }
            if oy == mm::Operand::Matrix {
                outputs.push("Trail <".into());
            }
            assert_eq!(link_args(body, "MatmulBatchLink", 2), met, "{ctx}");
            let out = entries(&assoc(body, "Output"));
            assert_eq!(out.len(), outputs.len(), "{ctx}: {out:?}");
            for (entry, want) in out.iter().zip(&outputs) {
                if want.starts_with(['X', 'Y']) {
                    assert_eq!(entry, want, "{ctx}");
                } else {
                    assert!(entry.contains(want.as_str()), "{ctx}: {entry} for {want}");
                }
            }
        }
    }
}

/// The reductions' and softmax's axis tables: for every rank and every axis
/// of the tables, an impl exactly where `axis::slot` places the axis, and
/// its `Pos` is that slot.
#[test]
fn reduce_and_softmax_axis_tables_are_the_rules_slot() {
    let tables = [
        (
            reduce::reduce_rules(REDUCE_MAX),
            "ReduceAxisRange",
            REDUCE_MAX,
        ),
        (reduce::softmax_rules(MAX), "SoftmaxAxisRange", MAX),
    ];
    for (tokens, name, max) in tables {
        let table = keyed(impls_of(tokens, name), name);
        let mut listed = 0;
        for rank in 0..=max {
            for a in AXES {
                let key = (
                    "()".to_string(),
                    format!("{name} < S , {rank}usize , {} >", axis(a)),
                );
                let ctx = format!("{name}, rank {rank}, axis {a}");
                match (axis::slot(a, rank), table.get(&key)) {
                    (Some(slot), Some(body)) => {
                        listed += 1;
                        assert_eq!(
                            assoc(body, "Pos"),
                            format!("crate :: ops :: reduce :: bounds :: Pos < {slot}usize >"),
                            "{ctx}"
                        );
                    }
                    (None, None) => {}
                    (want, got) => panic!("{ctx}: the rule says {want:?}, the table {got:?}"),
                }
            }
        }
        assert_eq!(
            listed,
            table.len(),
            "{name}: no impl outside the enumeration"
        );
    }
}

/// Multiplex: the candidate-rank gate exactly on the ranks
/// `candidate_rank_ok` refuses (the others put the index's rows first and
/// keep the candidates' other dims), and the index-rank gate on every rank
/// but the one `index_rank_ok` accepts (written by hand).
#[test]
fn multiplex_ranks_are_the_rules_ranks() {
    let tokens = multiplex::rules(MAX);
    let by_rank = impls_of(tokens.clone(), "MultiplexByRank");
    let index = impls_of(tokens, "MultiplexIndexShape");
    for r in 0..=MAX {
        let (_, body) = by_rank
            .iter()
            .find(|(ty, _)| *ty == format!("MultiplexRank{r}"))
            .unwrap_or_else(|| panic!("rank {r}"));
        let gated = body.contains("MultiplexLowRank");
        assert_eq!(gated, !mx::candidate_rank_ok(r), "candidates of rank {r}");
        if !gated {
            let rest: Vec<String> = (1..r).map(|i| format!("D{i} ,")).collect();
            let want = format!(
                "type Output < R : crate :: dim :: DimLike > = (R , {})",
                rest.join(" ")
            );
            assert!(body.contains(&want), "rank {r}: {body}");
        }
        let has_gate = index
            .iter()
            .any(|(ty, b)| *ty == tuple("J", r) && b.contains("MultiplexIndexRank"));
        assert_eq!(has_gate, !mx::index_rank_ok(r), "index of rank {r}");
    }
    assert_eq!(index.len(), MAX, "every index rank but one");
}

/// dynamic_stitch's and dynamic_partition's prefix rules, stitch's slice
/// rule and its output shape: for every pair of (data, prefix) ranks, an
/// impl exactly where `slice_rank` accepts, comparing the first `prefix`
/// dims and leaving a slice of that rank; an output shape exactly for the
/// slices whose `output_rank` fits.
#[test]
fn stitch_and_partition_ranks_are_the_rules_ranks() {
    let stitch = stitch::stitch_rules(MAX);
    let prefix = [
        keyed(impls_of(stitch.clone(), "StitchPrefix"), "StitchPrefix"),
        keyed(
            impls_of(stitch::partition_rules(MAX), "PartitionPrefix"),
            "PartitionPrefix",
        ),
    ];
    let slice_of = impls_of(stitch.clone(), "StitchSliceOf");
    for q in 0..=MAX {
        let dt = tuple("D", q);
        for r in 0..=MAX {
            let jt = tuple("J", r);
            let ctx = format!("data of rank {q}, prefix of rank {r}");
            let slice = indexed::slice_rank(q, r);
            for (rule, table) in ["StitchPrefix", "PartitionPrefix"].iter().zip(&prefix) {
                let body = table.get(&(dt.clone(), format!("{rule} < {jt} >")));
                let Some(slice) = slice else {
                    assert!(body.is_none(), "{ctx}: {rule}");
                    continue;
                };
                let body = body.unwrap_or_else(|| panic!("{ctx}: no {rule}"));
                // the prefix's dims compared, and no dim of the slice
                for i in 0..r {
                    let same = format!("J{i} : crate :: algebra :: SameDim < D{i} >");
                    assert!(body.contains(&same), "{ctx}: {rule}, dim {i}");
                }
                assert!(
                    !body.contains(&format!("SameDim < D{r} >")),
                    "{ctx}: {rule}"
                );
                let tail: Vec<String> = (r..q).map(|i| format!("D{i} ,")).collect();
                assert_eq!(tail.len(), slice, "{ctx}");
                let tail = if tail.is_empty() {
                    "()".to_string()
                } else {
                    format!("({})", tail.join(" "))
                };
                let inner = if r == 0 {
                    format!("type Slice = {tail} ;")
                } else {
                    format!("Then < {tail} >")
                };
                assert!(body.contains(&inner), "{ctx}: {rule}: {body}");
            }
            let found = slice_of
                .iter()
                .filter(|(ty, b)| *ty == dt && b.contains(&format!("StitchSliceOf < {jt} ,")))
                .collect::<Vec<_>>();
            match slice {
                None => assert!(found.is_empty(), "{ctx}: StitchSliceOf"),
                Some(slice) => {
                    assert_eq!(found.len(), 1, "{ctx}: StitchSliceOf");
                    let want = format!("StitchSliceOf < {jt} , {} >", tuple("A", slice));
                    assert!(found[0].1.ends_with(&want), "{ctx}: {}", found[0].1);
                }
            }
        }
    }
    let prepend = impls_of(stitch, "PrependDyn");
    for k in 0..=MAX {
        let has = prepend.iter().any(|(ty, _)| *ty == tuple("D", k));
        assert_eq!(has, indexed::output_rank(k) <= MAX, "a slice of rank {k}");
    }
}
