use crescendo::chess::*;
fn main() {
    let fen = std::env::args().nth(1).unwrap();
    let pos = fen::parse(&fen, Rules::Italian).unwrap();
    let ms: Vec<String> = legal_moves(&pos).iter().map(|m| m.uci()).collect();
    println!("{} {:?}", ms.len(), ms);
}
