//! The crate's README lists the ops it runs in one table; that table must
//! list exactly the rows of `OPS`, each once, with the element types of its
//! row. A new row without its line in the README (or a line for an op the
//! crate does not run) fails here.

use shapecheck_tflite::OPS;

/// The table's rows: each line of README.md that starts with "| `", as its
/// op (the first cell, without the backticks) and its types (the second
/// cell).
fn readme_rows() -> Vec<(String, String)> {
    let readme = include_str!("../README.md");
    readme
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let op = cells[1].trim_matches('`').to_string();
            let types = cells[2].to_string();
            (op, types)
        })
        .collect()
}

#[test]
fn the_readme_lists_every_op_in_ops_and_no_other() {
    let rows = readme_rows();
    let listed: Vec<&str> = rows.iter().map(|(op, _)| op.as_str()).collect();
    let in_ops: Vec<String> = OPS.iter().map(|row| row.op.to_string()).collect();
    for op in &in_ops {
        let count = listed
            .iter()
            .filter(|listed| **listed == op.as_str())
            .count();
        assert_eq!(
            count, 1,
            "README.md's table lists {op} {count} times, OPS has it once"
        );
    }
    for op in &listed {
        assert!(
            in_ops.iter().any(|in_ops| in_ops == op),
            "README.md's table lists {op}, which OPS does not hold"
        );
    }
}

#[test]
fn the_readme_gives_each_op_the_types_of_its_row() {
    for (op, types) in readme_rows() {
        let row = OPS
            .iter()
            .find(|row| row.op.to_string() == op)
            .unwrap_or_else(|| panic!("{op} is not in OPS"));
        assert_eq!(types, row.types, "README.md's types for {op}");
    }
}
