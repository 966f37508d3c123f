//! The runner's `--plan FILE.svg`: a picture of where `model!`'s default
//! plan (`shapecheck_tflite::schedule`, issue 70) puts a model's
//! activations. Operators run left to right; the arena's bytes go up;
//! each whole activation is a box from the operator that writes it to the
//! last that reads it, at its offset, labelled with its tensor index; the
//! rings of a streamed run (whose tensors are never whole) are one grey
//! box over the run's operators, labelled `run N`; a layer written over
//! its input is drawn in its input's box (labelled `input→output`), its
//! scratch a yellow box at its operator, labelled `op N`. Two lines: the
//! liveness floor (the most bytes live at one operator, which no
//! layer-by-layer schedule goes below) and the arena's size (`model!`'s
//! `RAM_BYTES`); a step line under them, the bytes live at each operator.

use shapecheck_tflite::schedule::{Goal, Holds, Schedule};
use shapecheck_tflite::Model;
use std::fmt::Write;

/// The picture's width and height in pixels, and its margins.
const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;

/// The SVG of `model`'s int8 activations as the planner places them
/// (`title` names the model in the picture).
pub fn plan_svg(model: &Model<'_>, title: &str) -> Result<String, String> {
    let schedule = Schedule::search(model, Goal::Default).map_err(|e| e.to_string())?;
    if schedule.slots.is_empty() {
        return Err("the model has no int8 activations to place".into());
    }
    let floor = schedule.floor;
    let arena = schedule.arena;
    let ops = model.operator_count().max(1);
    let top = arena.max(floor).max(1) as f64;
    let x = |op: usize| LEFT + (WIDTH - LEFT - RIGHT) * op as f64 / ops as f64;
    let y = |bytes: usize| HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * bytes as f64 / top;

    let mut svg = String::new();
    let w = |svg: &mut String, s: String| svg.push_str(&s);
    w(
        &mut svg,
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        ),
    );
    w(
        &mut svg,
        format!(
            "<text x=\"{LEFT}\" y=\"22\" font-size=\"15\">{}: int8 activations over the operators \
             ({} B arena at the default plan, liveness floor {} B)</text>\n",
            escape(title),
            arena,
            floor
        ),
    );
    // axes: the operators along the bottom, bytes up the left
    w(
        &mut svg,
        format!(
            "<line x1=\"{LEFT}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"black\"/>\n\
             <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{0}\" stroke=\"black\"/>\n\
             <text x=\"{2}\" y=\"{3}\" text-anchor=\"middle\">operator</text>\n",
            y(0),
            WIDTH - RIGHT,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 12.0
        ),
    );
    let step = (ops / 16).max(1);
    for op in (0..=ops).step_by(step) {
        w(
            &mut svg,
            format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{op}</text>\n",
                x(op),
                y(0) + 15.0
            ),
        );
    }
    for k in 0..=4 {
        let bytes = arena.max(floor) * k / 4;
        w(
            &mut svg,
            format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{bytes} B</text>\n",
                LEFT - 6.0,
                y(bytes) + 4.0
            ),
        );
    }
    // each slot: its box and its label (a tensor's index, a run's rings)
    for slot in &schedule.slots {
        let (l, offset) = (slot.lifetime, slot.offset);
        let (x0, x1) = (x(l.first), x(l.last + 1));
        let (y0, y1) = (y(offset + l.size), y(offset));
        let (fill, stroke, label, title) = match slot.holds {
            Holds::Tensor(tensor) => {
                let hue = (tensor * 47) % 360;
                let name = model.tensor(tensor).map_or("", |t| t.name());
                // the ADDs and layers written over it, one after another
                let mut label = tensor.to_string();
                let mut title = format!("tensor {tensor} \"{}\"", escape(name));
                let mut over = tensor;
                while let Some(add) = schedule.in_place.iter().find(|a| a.over == over) {
                    let op = model.operator(add.op).map(|o| o.op().to_string());
                    label.push_str(&format!("→{}", add.output));
                    title.push_str(&format!(
                        ", then tensor {}, operator {}'s {} written over it",
                        add.output,
                        add.op,
                        op.unwrap_or_default()
                    ));
                    over = add.output;
                }
                (
                    format!("hsl({hue},60%,75%)"),
                    format!("hsl({hue},60%,35%)"),
                    label,
                    title,
                )
            }
            Holds::Rings(n) => {
                let rows = schedule
                    .runs
                    .get(n)
                    .map(|r| format!(" (rows {:?}, band {})", r.ring_rows, r.band))
                    .unwrap_or_default();
                (
                    "#d0d0d0".to_string(),
                    "#505050".to_string(),
                    format!("run {n}"),
                    format!("the rings of streamed run {n}{rows}"),
                )
            }
            Holds::Scratch(op) => (
                "#f0e0a0".to_string(),
                "#806020".to_string(),
                format!("op {op}"),
                format!("the scratch of operator {op}, written over its input"),
            ),
            _ => continue,
        };
        w(
            &mut svg,
            format!(
                "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
                 fill=\"{fill}\" stroke=\"{stroke}\">\
                 <title>{title}: {} B at offset {offset}, operators {} to {}</title></rect>\n",
                (x1 - x0).max(1.0),
                (y1 - y0).max(1.0),
                l.size,
                l.first,
                l.last
            ),
        );
        if y1 - y0 >= 12.0 && x1 - x0 >= 18.0 {
            w(
                &mut svg,
                format!(
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>\n",
                    (x0 + x1) / 2.0,
                    (y0 + y1) / 2.0 + 4.0
                ),
            );
        }
    }
    // the bytes live at each operator, as a step line
    let mut points = String::new();
    for op in 0..ops {
        let live: usize = schedule
            .slots
            .iter()
            .map(|s| s.lifetime)
            .filter(|l| l.first <= op && op <= l.last)
            .map(|l| l.size)
            .sum();
        let _ = write!(
            points,
            "{:.1},{:.1} {:.1},{:.1} ",
            x(op),
            y(live),
            x(op + 1),
            y(live)
        );
    }
    w(
        &mut svg,
        format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>\n",
            points.trim_end()
        ),
    );
    // the floor and the arena (one line when the arena is at the floor)
    let lines: &[(usize, &str, &str)] = if arena == floor {
        &[(floor, "arena (RAM_BYTES) = liveness floor", "6,4")]
    } else {
        &[
            (floor, "liveness floor", "6,4"),
            (arena, "arena (RAM_BYTES)", "2,3"),
        ]
    };
    for &(bytes, label, dash) in lines {
        w(
            &mut svg,
            format!(
                "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"crimson\" \
                 stroke-dasharray=\"{dash}\"/>\n\
                 <text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\" fill=\"crimson\">{label}: {bytes} B</text>\n",
                y(bytes),
                WIDTH - RIGHT,
                y(bytes) - 4.0
            ),
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// `s` with the characters XML gives a meaning escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
