//! A random mover that speaks the protocol: every turn it plays uniformly
//! random legal moves. It is the weakest possible opponent, a baseline for
//! matches, and the well-behaved engine of the match runner's tests (it
//! needs the rules, so a script cannot play it).
//!
//! It understands `uci`, `isready`, `ucinewgame`, `setoption name
//! UCI_Variant value progressive|progressive-scottish|linear-progression`
//! (and `LP_Board`, `LP_EqualMoves`, `LP_Blockers` for Linear
//! Progression), `position startpos | fen <FEN> [moves ...]` (single moves
//! or comma-joined turns; Linear Progression positions and moves in that
//! variant), `go ...` (answered at once) and `quit`; anything else is
//! ignored, as UCI says. Its choices restart from the seed at each
//! `ucinewgame`, so the same game replays the same on any machine.

use crate::chess::{Position, Rules, fen, legal_moves, notation};
use crate::linear;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use std::io::{BufRead, Write};

/// The value of a `setoption name <name> value <value>` line whose name is
/// `name` (case-insensitive), if it is one.
fn option_value<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    match words {
        ["setoption", "name", n, "value", value] if n.eq_ignore_ascii_case(name) => Some(value),
        _ => None,
    }
}

/// Runs the random mover on `input`/`output` until `quit` or end of input.
pub fn run(seed: u64, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rules = Rules::Italian;
    let mut pos = Position::startpos(rules);
    // Linear Progression: on when the variant says so, with its rules and
    // position kept apart from the chess ones.
    let mut lp = false;
    let mut lp_options = linear::Options::default();
    let mut lp_pos = linear::Position::new(&lp_options);
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                writeln!(output, "id name Crescendo Random")?;
                writeln!(output, "id author the Crescendo developers")?;
                writeln!(
                    output,
                    "option name UCI_Variant type combo default progressive var progressive var progressive-scottish var linear-progression"
                )?;
                writeln!(output, "option name LP_EqualMoves type check default false")?;
                writeln!(output, "option name LP_Blockers type check default false")?;
                writeln!(output, "option name LP_Board type string default 8x8")?;
                writeln!(output, "uciok")?;
            }
            Some("isready") => writeln!(output, "readyok")?,
            Some("ucinewgame") => {
                // Each game starts the choices afresh: a game then depends
                // only on its opening and the two seeds, not on the games
                // this process played before (shards and resumed runs
                // replay the games of the whole match).
                rng = StdRng::seed_from_u64(seed);
                pos = Position::startpos(rules);
                lp_pos = linear::Position::new(&lp_options);
            }
            Some("setoption") => {
                let text = line.to_ascii_lowercase();
                if text.contains("name uci_variant value linear-progression") {
                    lp = true;
                } else if text.contains("name uci_variant value progressive-scottish") {
                    (lp, rules) = (false, Rules::Scottish);
                } else if text.contains("name uci_variant value progressive") {
                    (lp, rules) = (false, Rules::Italian);
                } else if let Some(v) = option_value(&words, "LP_Board") {
                    match v.parse() {
                        Ok(board) => lp_options.board = board,
                        Err(e) => writeln!(output, "info string error: {e}")?,
                    }
                } else if let Some(v) = option_value(&words, "LP_EqualMoves") {
                    lp_options.equal_moves = v.eq_ignore_ascii_case("true");
                } else if let Some(v) = option_value(&words, "LP_Blockers") {
                    lp_options.blockers = v.eq_ignore_ascii_case("true");
                }
            }
            Some("position") if lp => match parse_linear_position(&words[1..], &lp_options) {
                Ok(p) => lp_pos = p,
                Err(e) => writeln!(output, "info string error: {e}")?,
            },
            Some("position") => match parse_position(&words[1..], rules) {
                Ok(p) => pos = p,
                Err(e) => writeln!(output, "info string error: {e}")?,
            },
            Some("go") if lp => {
                let legal = if lp_pos.is_over() {
                    Vec::new()
                } else {
                    lp_pos.legal_moves()
                };
                match legal.as_slice().choose(&mut rng) {
                    Some(mv) => {
                        writeln!(output, "info depth 1 score cp 0 pv {mv}")?;
                        writeln!(output, "bestmove {mv}")?;
                    }
                    None => writeln!(output, "bestmove (none)")?,
                }
            }
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

/// A Linear Progression `position startpos | fen <6 fields> [moves ...]`.
fn parse_linear_position(
    words: &[&str],
    options: &linear::Options,
) -> Result<linear::Position, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => linear::Position::new(options),
        Some(&"fen") => head[1..].join(" ").parse().map_err(|e| format!("{e}"))?,
        _ => return Err("position: expected startpos or fen".into()),
    };
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let mv = pos.parse_move(text).map_err(|e| e.to_string())?;
        pos.play(mv);
    }
    Ok(pos)
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

    #[test]
    fn plays_linear_progression_by_the_options() {
        let input = "uci\nsetoption name LP_Board value 6x6\nsetoption name LP_Blockers value true\n\
                     setoption name UCI_Variant value linear-progression\nucinewgame\n\
                     position startpos moves @c3+a1\ngo movetime 10\n\
                     position fen 4/4/4/wwbb w - 2 - -\ngo\nquit\n";
        let mut out = Vec::new();
        run(3, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .collect();
        assert_eq!(answers.len(), 2, "{text}");
        let options = linear::Options {
            board: "6x6".parse().unwrap(),
            blockers: true,
            ..linear::Options::default()
        };
        let mut pos = linear::Position::new(&options);
        pos.play(pos.parse_move("@c3+a1").unwrap());
        assert!(pos.parse_move(answers[0]).is_ok(), "{text}");
        assert_eq!(answers[1], "(none)"); // the game is over
    }
}
