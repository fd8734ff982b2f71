use crescendo::chess::*;
fn main() {
    for rules in [Rules::Italian, Rules::Scottish] {
        let pos = Position::startpos(rules);
        let t = std::time::Instant::now();
        let c = perft::perft(&pos, 3);
        println!("{rules}: {c:?} {:?}", t.elapsed());
    }
    let pos = fen::parse(START_FEN, Rules::Chess).unwrap();
    let t = std::time::Instant::now();
    let n = perft::chess_perft(&pos, 6);
    println!(
        "chess perft 6 {n} {:?} {:.0} Mnps",
        t.elapsed(),
        n as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
