//! A random mover that speaks the protocol: every turn it plays uniformly
//! random legal moves. It is the weakest possible opponent, a baseline for
//! matches, and the well-behaved engine of the match runner's tests (it
//! needs the rules, so a script cannot play it).
//!
//! It understands `uci`, `isready`, `ucinewgame`, `setoption name
//! UCI_Variant value progressive|progressive-scottish`, `position startpos |
//! fen <FEN> [moves ...]` (single moves or comma-joined turns), `go ...`
//! (answered at once) and `quit`; anything else is ignored, as UCI says.

use crate::chess::{Position, Rules, fen, legal_moves, notation};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::io::{BufRead, Write};

/// Runs the random mover on `input`/`output` until `quit` or end of input.
pub fn run(seed: u64, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rules = Rules::Italian;
    let mut pos = Position::startpos(rules);
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(output, "id name Crescendo Random")?;
                writeln!(output, "id author the Crescendo developers")?;
                writeln!(
                    output,
                    "option name UCI_Variant type combo default progressive var progressive var progressive-scottish"
                )?;
                writeln!(output, "uciok")?;
            }
            Some("isready") => writeln!(output, "readyok")?,
            Some("ucinewgame") => pos = Position::startpos(rules),
            Some("setoption") => {
                let text = line.to_ascii_lowercase();
                if text.contains("name uci_variant value progressive-scottish") {
                    rules = Rules::Scottish;
                } else if text.contains("name uci_variant value progressive") {
                    rules = Rules::Italian;
                }
            }
            Some("position") => match parse_position(&words[1..], rules) {
                Ok(p) => pos = p,
                Err(e) => writeln!(output, "info string error: {e}")?,
            },
            Some("go") => {
                let mut turn = Vec::new();
                let mut p = pos.clone();
                loop {
                    let legal = legal_moves(&p);
                    let Some(&mv) = legal.as_slice().choose(&mut rng) else {
                        break;
                    };
                    turn.push(mv.uci());
                    if p.play(mv).turn_ended {
                        break;
                    }
                }
                if turn.is_empty() {
                    writeln!(output, "bestmove (none)")?;
                } else {
                    writeln!(output, "info depth 1 score cp 0 pv {}", turn.join(" "))?;
                    writeln!(output, "bestmove {}", turn.join(","))?;
                }
            }
            Some("quit") => break,
            _ => {}
        }
        output.flush()?;
    }
    Ok(())
}

fn parse_position(words: &[&str], rules: Rules) -> Result<Position, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => Position::startpos(rules),
        Some(&"fen") => fen::parse(&head[1..].join(" "), rules).map_err(|e| e.to_string())?,
        _ => return Err("position: expected startpos or fen".into()),
    };
    for token in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        for text in token.split(',') {
            let mv = notation::parse_uci(&pos, text).map_err(|e| e.to_string())?;
            pos.play(mv);
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_with_a_legal_whole_turn() {
        let input = "uci\nisready\nposition startpos moves e2e4 e7e5,d7d5\ngo wtime 100\nquit\n";
        let mut out = Vec::new();
        run(1, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let mut pos = Position::startpos(Rules::Italian);
        for m in ["e2e4", "e7e5", "d7d5"] {
            pos.play(notation::parse_uci(&pos, m).unwrap());
        }
        let turn = crate::arena::referee::check_turn(&pos, best).unwrap();
        assert_eq!(turn.len(), 3);
    }
}
