//! The runner's `--plan FILE.svg`: a picture of where `model!`'s default
//! plan (`shapecheck_tflite::schedule`, issue 70) puts a model's
//! activations. Operators run left to right; the arena's bytes go up, on a
//! scale fitted to what is drawn; each whole activation is a box from the
//! operator that writes it to the last that reads it, at its offset,
//! labelled with its tensor index, a short name, its bytes and its offset
//! where they fit (upright, or turned in a tall narrow box; the full name
//! is the box's tooltip); the rings of a streamed run (whose tensors are
//! never whole) are one grey box over the run's operators; a layer written
//! over its input is drawn in its input's box (labelled `input→output`,
//! a dashed line at its operator), its scratch a yellow box at its
//! operator. Lines: the arena's size (`model!`'s `RAM_BYTES`), the
//! liveness floor (the most bytes live at one operator, which no
//! layer-by-layer schedule goes below; named above the scale when it is
//! off it) and a step line, the bytes live at each operator. A legend
//! under the plot says what each kind of box and line means.

use shapecheck_tflite::schedule::{Holds, Schedule, Slot};
use shapecheck_tflite::Model;
use std::fmt::Write;

/// The picture's width and height in pixels.
const WIDTH: f64 = 1200.0;
const HEIGHT: f64 = 790.0;
/// The plot's edges.
const LEFT: f64 = 80.0;
const RIGHT: f64 = 1180.0;
const TOP: f64 = 70.0;
const BOTTOM: f64 = 590.0;
/// Where the legend starts.
const LEGEND: f64 = 640.0;
/// A label's line height and the width of one character, in pixels, at
/// the labels' 11 px (DejaVu Sans's widest digits and letters, so that a
/// label judged to fit does).
const LINE: f64 = 13.0;
const CHAR: f64 = 6.6;

/// The colours of the kinds of box and line, for the plot and the legend.
const RINGS: (&str, &str) = ("#d0d0d0", "#505050");
const SCRATCH: (&str, &str) = ("#f0e0a0", "#806020");
const ARENA: &str = "crimson";
const FLOOR: &str = "#1f5fbf";

/// The SVG of `model`'s int8 activations as `schedule` places them
/// (`title` names the model in the picture).
pub fn plan_svg(model: &Model<'_>, schedule: &Schedule, title: &str) -> Result<String, String> {
    if schedule.slots.is_empty() {
        return Err("the model has no int8 activations to place".into());
    }
    let (floor, arena) = (schedule.floor, schedule.arena);
    let ops = model.operator_count().max(1);
    let live: Vec<usize> = (0..ops).map(|op| live_at(schedule, op)).collect();
    // the scale: what is drawn (the arena, the live bytes; the floor when
    // it is no more than a quarter above them), up to a round step
    let drawn = live.iter().copied().max().unwrap_or(0).max(arena).max(1);
    let floor_drawn = floor * 4 <= drawn * 5;
    let scale = if floor_drawn { drawn.max(floor) } else { drawn } as f64;
    let step = round_step(scale / 5.0);
    let top = (scale / step).ceil() * step;
    let x = |op: usize| LEFT + (RIGHT - LEFT) * op as f64 / ops as f64;
    let y = |bytes: usize| BOTTOM - (BOTTOM - TOP) * bytes as f64 / top;

    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{LEFT}\" y=\"24\" font-size=\"16\">{}: where model!'s default plan puts the int8 \
         activations</text>\n\
         <text x=\"{LEFT}\" y=\"44\" font-size=\"12\">arena (RAM_BYTES) {} B, liveness floor {} B \
         ({:.2}× the arena); {}, {}</text>\n",
        escape(title),
        thousands(arena),
        thousands(floor),
        floor as f64 / arena.max(1) as f64,
        count(schedule.runs.len(), "streamed run"),
        match schedule.in_place.len() {
            0 => "no layer written over its input".to_string(),
            1 => "1 layer written over its input".to_string(),
            n => format!("{n} layers written over their input"),
        },
    );
    axes(&mut svg, ops, top, step, &x, &y);
    // the boxes, then the step line, then the labels over both
    let mut labels = String::new();
    for slot in &schedule.slots {
        draw_slot(&mut svg, &mut labels, model, schedule, slot, &x, &y);
    }
    // the bytes live at each operator, as a step line
    let mut points = String::new();
    for (op, &bytes) in live.iter().enumerate() {
        let _ = write!(
            points,
            "{:.1},{:.1} {:.1},{:.1} ",
            x(op),
            y(bytes),
            x(op + 1),
            y(bytes)
        );
    }
    let _ = writeln!(
        svg,
        "<polyline class=\"live\" points=\"{}\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\"/>",
        points.trim_end()
    );
    svg.push_str(&labels);
    // the arena and the floor: a line each on the scale, or the floor
    // named above it
    let _ = writeln!(
        svg,
        "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{RIGHT}\" y2=\"{0:.1}\" stroke=\"{ARENA}\" \
         stroke-width=\"1.5\" stroke-dasharray=\"2,3\"/>\n\
         <text x=\"{RIGHT}\" y=\"{1:.1}\" text-anchor=\"end\" fill=\"{ARENA}\">arena (RAM_BYTES): {2} B</text>",
        y(arena),
        y(arena) - 4.0,
        thousands(arena)
    );
    if floor_drawn {
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{RIGHT}\" y2=\"{0:.1}\" stroke=\"{FLOOR}\" \
             stroke-dasharray=\"6,4\"/>\n\
             <text x=\"{1}\" y=\"{2:.1}\" fill=\"{FLOOR}\">liveness floor: {3} B</text>",
            y(floor),
            LEFT + 6.0,
            y(floor) - 4.0,
            thousands(floor)
        );
    } else {
        let _ = writeln!(
            svg,
            "<text x=\"{RIGHT}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{FLOOR}\">liveness floor: {} B, \
             {:.1}× the top of this scale, above it</text>",
            TOP - 8.0,
            thousands(floor),
            floor as f64 / top
        );
    }
    let has = |kind: fn(&Holds) -> bool| schedule.slots.iter().any(|s| kind(&s.holds));
    legend(
        &mut svg,
        Kinds {
            in_place: !schedule.in_place.is_empty(),
            rings: has(|h| matches!(h, Holds::Rings(_))),
            scratch: has(|h| matches!(h, Holds::Scratch(_))),
            floor_drawn,
        },
    );
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// The bytes of the slots live at `op`.
fn live_at(schedule: &Schedule, op: usize) -> usize {
    schedule
        .slots
        .iter()
        .map(|s| s.lifetime)
        .filter(|l| l.first <= op && op <= l.last)
        .map(|l| l.size)
        .sum()
}

/// The axes: the operators along the bottom, the bytes up the left, with
/// a faint grid line at each step.
fn axes(
    svg: &mut String,
    ops: usize,
    top: f64,
    step: f64,
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(usize) -> f64,
) {
    let _ = writeln!(
        svg,
        "<line x1=\"{LEFT}\" y1=\"{BOTTOM}\" x2=\"{RIGHT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n\
         <line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{BOTTOM}\" stroke=\"black\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">operator (its position in the run)</text>\n\
         <text x=\"18\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {:.1})\">arena offset (bytes)</text>",
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 34.0,
        (TOP + BOTTOM) / 2.0,
        (TOP + BOTTOM) / 2.0,
    );
    let every = (ops / 32).max(1);
    for op in (0..=ops).step_by(every) {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{op}</text>",
            x(op),
            BOTTOM + 15.0
        );
    }
    let mut bytes = 0.0;
    while bytes <= top + 0.5 {
        let b = bytes as usize;
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{RIGHT}\" y2=\"{0:.1}\" stroke=\"#eeeeee\"/>\n\
             <text x=\"{1:.1}\" y=\"{2:.1}\" text-anchor=\"end\">{3}</text>",
            y(b),
            LEFT - 6.0,
            y(b) + 4.0,
            thousands(b)
        );
        bytes += step;
    }
}

/// One slot's box and its tooltip into `svg`, its label into `labels_svg`.
fn draw_slot(
    svg: &mut String,
    labels_svg: &mut String,
    model: &Model<'_>,
    schedule: &Schedule,
    slot: &Slot,
    x: &dyn Fn(usize) -> f64,
    y: &dyn Fn(usize) -> f64,
) {
    let (l, offset) = (slot.lifetime, slot.offset);
    let (x0, x1) = (x(l.first), x(l.last + 1));
    let (y0, y1) = (y(offset + l.size), y(offset));
    let place = format!("{} B @ {}", thousands(l.size), thousands(offset));
    let size = format!("{} B", thousands(l.size));
    let mut dashes = Vec::new();
    let (fill, stroke, labels, title) = match slot.holds {
        Holds::Tensor(tensor) => {
            let hue = (tensor * 47) % 360;
            let name = |t: usize| model.tensor(t).map_or("", |t| t.name()).to_string();
            // the ADDs and layers written over it, one after another
            let mut ids = tensor.to_string();
            let mut names = vec![format!("t{tensor} {}", short_name(&name(tensor)))];
            let mut title = format!("tensor {tensor} \"{}\"", escape(&name(tensor)));
            let mut over = tensor;
            while let Some(add) = schedule.in_place.iter().find(|a| a.over == over) {
                let op = model
                    .operator(add.op)
                    .map(|o| o.op().to_string())
                    .unwrap_or_default();
                let _ = write!(ids, "→{}", add.output);
                names.push(format!(
                    "→ t{} {} (op {})",
                    add.output,
                    short_name(&name(add.output)),
                    add.op
                ));
                let _ = write!(
                    title,
                    ", then tensor {} \"{}\", operator {}'s {op} written over it",
                    add.output,
                    escape(&name(add.output)),
                    add.op,
                );
                dashes.push(add.op);
                over = add.output;
            }
            let mut labels = Vec::new();
            if dashes.is_empty() {
                labels.push([names.clone(), vec![place.clone()]].concat());
                labels.push([names.clone(), vec![size.clone()]].concat());
                labels.push(vec![format!("tensor {ids}"), place.clone()]);
            } else {
                labels.push([names.clone(), vec![place.clone()]].concat());
                labels.push(vec![
                    format!("{ids} in place"),
                    names[0].clone(),
                    place.clone(),
                ]);
            }
            labels.push(vec![ids.clone(), size.clone()]);
            labels.push(vec![ids]);
            (
                format!("hsl({hue},60%,78%)"),
                format!("hsl({hue},60%,35%)"),
                labels,
                title,
            )
        }
        Holds::Rings(n) => {
            let run = schedule.runs.get(n);
            let rows = run
                .map(|r| format!(" (rows {:?}, band {})", r.ring_rows, r.band))
                .unwrap_or_default();
            let ops = run
                .map(|r| format!("ops {} to {}", r.ops.start, r.ops.end.saturating_sub(1)))
                .unwrap_or_default();
            let label = format!("run {n}: rings");
            (
                RINGS.0.to_string(),
                RINGS.1.to_string(),
                vec![
                    vec![
                        format!("streamed run {n}: the rings"),
                        format!("of {ops}, a band at a time"),
                        place.clone(),
                    ],
                    vec![label.clone(), place.clone()],
                    vec![label, size.clone()],
                    vec![format!("run {n}")],
                ],
                format!("the rings of streamed run {n}{rows}"),
            )
        }
        Holds::Scratch(op) => (
            SCRATCH.0.to_string(),
            SCRATCH.1.to_string(),
            vec![
                vec![format!("scratch of op {op}"), place.clone()],
                vec![format!("scratch of op {op}"), size.clone()],
                vec![format!("scratch op {op}")],
                vec![format!("op {op}")],
            ],
            format!("the scratch of operator {op}, written over its input"),
        ),
        _ => return,
    };
    let _ = writeln!(
        svg,
        "<rect class=\"slot\" x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
         fill=\"{fill}\" stroke=\"{stroke}\">\
         <title>{title}: {} B at offset {offset}, operators {} to {}</title></rect>",
        (x1 - x0).max(1.0),
        (y1 - y0).max(1.0),
        l.size,
        l.first,
        l.last
    );
    for op in dashes {
        let _ = writeln!(
            svg,
            "<line x1=\"{0:.1}\" y1=\"{y0:.1}\" x2=\"{0:.1}\" y2=\"{y1:.1}\" stroke=\"{stroke}\" \
             stroke-dasharray=\"4,3\"/>",
            x(op)
        );
    }
    label(labels_svg, &labels, (x0, y0, x1, y1));
}

/// The first of `labels` (richest first) that fits the box, upright or,
/// in a box taller than wide, turned; nothing when none fits.
fn label(svg: &mut String, labels: &[Vec<String>], (x0, y0, x1, y1): (f64, f64, f64, f64)) {
    let (w, h) = (x1 - x0, y1 - y0);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let fits = |lines: &[String], across: f64, up: f64| {
        let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        longest as f64 * CHAR + 6.0 <= across && lines.len() as f64 * LINE + 3.0 <= up
    };
    for lines in labels {
        let turn = if fits(lines, w, h) {
            false
        } else if h > w && fits(lines, h, w) {
            true
        } else {
            continue;
        };
        let transform = if turn {
            format!(" transform=\"rotate(-90 {cx:.1} {cy:.1})\"")
        } else {
            String::new()
        };
        let first = cy - (lines.len() as f64 - 1.0) * LINE / 2.0 + 4.0;
        let _ = write!(
            svg,
            "<text class=\"label\" text-anchor=\"middle\" stroke=\"white\" stroke-width=\"3\" \
             stroke-opacity=\"0.8\" paint-order=\"stroke\"{transform}>"
        );
        for (k, line) in lines.iter().enumerate() {
            let _ = write!(
                svg,
                "<tspan x=\"{cx:.1}\" y=\"{:.1}\">{}</tspan>",
                first + k as f64 * LINE,
                escape(line)
            );
        }
        svg.push_str("</text>\n");
        return;
    }
}

/// Which kinds of box the picture draws, and whether the floor is on its
/// scale: the legend names those.
struct Kinds {
    in_place: bool,
    rings: bool,
    scratch: bool,
    floor_drawn: bool,
}

/// The legend under the plot: each kind of box and line drawn and what it
/// means.
fn legend(svg: &mut String, kinds: Kinds) {
    let floor = if kinds.floor_drawn {
        "the liveness floor: the most bytes live at one operator, layer by layer (schedule = layers)"
    } else {
        "the liveness floor: the most bytes live at one operator, layer by layer (schedule = layers); above this scale, named at its top"
    };
    let items: [(bool, &str, &str); 7] = [
        (
            true,
            "<rect x=\"0\" y=\"-10\" width=\"28\" height=\"14\" fill=\"hsl(200,60%,78%)\" stroke=\"hsl(200,60%,35%)\"/>",
            "a whole activation: from the operator that writes it to the last that reads it, at its offset (tensor, name, bytes @ offset)",
        ),
        (
            kinds.in_place,
            "<rect x=\"0\" y=\"-10\" width=\"28\" height=\"14\" fill=\"hsl(100,60%,78%)\" stroke=\"hsl(100,60%,35%)\"/>\
             <line x1=\"14\" y1=\"-10\" x2=\"14\" y2=\"4\" stroke=\"hsl(100,60%,35%)\" stroke-dasharray=\"4,3\"/>",
            "layers written over their input (a→b→c): their outputs in the input's box, each from the dashed line at its operator",
        ),
        (
            kinds.rings,
            "<rect x=\"0\" y=\"-10\" width=\"28\" height=\"14\" fill=\"#d0d0d0\" stroke=\"#505050\"/>",
            "a streamed run's rings: the rows its layers still need, a band at a time (the tensors inside the run are never whole)",
        ),
        (
            kinds.scratch,
            "<rect x=\"0\" y=\"-10\" width=\"28\" height=\"14\" fill=\"#f0e0a0\" stroke=\"#806020\"/>",
            "the scratch of a layer written over its input, live at that operator only",
        ),
        (
            true,
            "<line x1=\"0\" y1=\"-3\" x2=\"28\" y2=\"-3\" stroke=\"black\" stroke-width=\"1.5\"/>",
            "the bytes live at each operator",
        ),
        (
            true,
            "<line x1=\"0\" y1=\"-3\" x2=\"28\" y2=\"-3\" stroke=\"crimson\" stroke-width=\"1.5\" stroke-dasharray=\"2,3\"/>",
            "the arena: model!'s RAM_BYTES, the largest offset + size",
        ),
        (
            true,
            "<line x1=\"0\" y1=\"-3\" x2=\"28\" y2=\"-3\" stroke=\"#1f5fbf\" stroke-dasharray=\"6,4\"/>",
            floor,
        ),
    ];
    let _ = writeln!(
        svg,
        "<g class=\"legend\"><text x=\"{LEFT}\" y=\"{LEGEND}\" font-weight=\"bold\">Legend</text>"
    );
    let drawn = items.iter().filter(|(drawn, ..)| *drawn);
    for (k, (_, swatch, text)) in drawn.enumerate() {
        let yk = LEGEND + 18.0 * (k as f64 + 1.0);
        let _ = writeln!(
            svg,
            "<g transform=\"translate({LEFT} {yk:.1})\">{swatch}<text x=\"38\" y=\"2\">{}</text></g>",
            escape(text)
        );
    }
    svg.push_str("</g>\n");
}

/// A tensor's name made short: the last part of its first path that says
/// which layer it is (`MobilenetV1/MobilenetV1/Conv2d_4_depthwise/Relu6`
/// is `Conv2d_4_depthwise`), at most 24 characters.
fn short_name(name: &str) -> String {
    const GENERIC: &[&str] = &[
        "Relu",
        "Relu6",
        "BiasAdd",
        "Conv2D",
        "MatMul",
        "Add",
        "add",
        "Identity",
        "depthwise",
        "BatchNorm",
        "FusedBatchNormV3",
        "Squeeze",
        "Mean",
        "mul",
        "Mul",
    ];
    let first = name.split(';').next().unwrap_or(name);
    let parts: Vec<&str> = first.split('/').filter(|p| !p.is_empty()).collect();
    let pick = parts
        .iter()
        .rev()
        .find(|p| !GENERIC.contains(p))
        .or(parts.last())
        .copied()
        .unwrap_or("");
    if pick.chars().count() > 24 {
        let cut: String = pick.chars().take(23).collect();
        format!("{cut}…")
    } else {
        pick.to_string()
    }
}

/// `n` of `what`, in words: "no layer", "1 layer", "2 layers".
fn count(n: usize, what: &str) -> String {
    match n {
        0 => format!("no {what}"),
        1 => format!("1 {what}"),
        _ => format!("{n} {what}s"),
    }
}

/// A round step of at least `raw` bytes: 1, 2, 2.5 or 5 times a power of
/// ten.
fn round_step(raw: f64) -> f64 {
    let raw = raw.max(1.0);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// `n` with a comma between each three digits.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` with the characters XML gives a meaning escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
