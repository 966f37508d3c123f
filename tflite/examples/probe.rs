use shapecheck_tflite::schedule::{Goal, Schedule};
use shapecheck_tflite::Model;
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        let model = Model::parse(&bytes).unwrap();
        let layers = Schedule::search(&model, Goal::Layers).unwrap();
        let default = Schedule::search(&model, Goal::Default).unwrap();
        let li = layers.instructions as f64;
        println!(
            "{path}: floor {} layers est {} | default {} B est {} ({:.3}x) runs {:?}",
            layers.floor,
            layers.instructions,
            default.arena,
            default.instructions,
            default.instructions as f64 / li,
            default
                .runs
                .iter()
                .map(|r| (r.ops.clone(), r.band))
                .collect::<Vec<_>>()
        );
        let mut last = usize::MAX;
        let mut b = default.arena;
        loop {
            match Schedule::search(&model, Goal::Ram(b)) {
                Ok(s) => {
                    if s.arena < last {
                        println!(
                            "   ram {} est {} ({:.3}x) runs {:?}",
                            s.arena,
                            s.instructions,
                            s.instructions as f64 / li,
                            s.runs
                                .iter()
                                .map(|r| (r.ops.clone(), r.band))
                                .collect::<Vec<_>>()
                        );
                        last = s.arena;
                    }
                    if s.arena == 0 {
                        break;
                    }
                    b = s.arena - 1;
                }
                Err(_) => break,
            }
        }
    }
}
