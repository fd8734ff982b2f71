//! Parsing one input line into a [`Command`], with errors that say what and where.

use crate::clock::Clock;
use std::time::Duration;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    /// `debug on|off` (UCI): accepted; logging is configured by `RUST_LOG`.
    Debug(bool),
    IsReady,
    UciNewGame,
    Quit,
    Stop,
    /// `ponderhit`: the opponent played the expected reply of a `go ponder`.
    PonderHit,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        /// Entries of the move list: single moves or comma-joined turns.
        moves: Vec<String>,
    },
    Go(Go),
    /// `d`: show the position.
    Display,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `legal`: the legal next moves, one JSON line (see [`super::query`]).
    Legal,
    /// `state`: the game state, one JSON line (see [`super::query`]).
    State,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    /// The FEN fields, joined by single spaces.
    Fen(String),
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    /// `go mate [N]`: look only for a mate in this turn (N, if given, is ignored).
    pub mate: bool,
    /// `go perft T`.
    pub perft: Option<u32>,
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `go searchmoves m1 m2 ...`: the first moves the search may play, as
    /// given (each game reads and checks them); empty: any.
    pub searchmoves: Vec<String>,
}

impl Go {
    /// White's and Black's clocks, as far as the `go` gives them.
    pub fn clocks(&self) -> [Option<Clock>; 2] {
        let clock = |time: Option<Duration>, inc: Option<Duration>| {
            time.map(|time| Clock {
                time,
                increment: inc.unwrap_or_default(),
                movestogo: self.movestogo,
            })
        };
        [clock(self.wtime, self.winc), clock(self.btime, self.binc)]
    }
}

/// Parses a line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let simple = |cmd: Command| {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err(format!(
                "'{head}' takes no arguments, got '{}'",
                rest.join(" ")
            ))
        }
    };
    let cmd = match head {
        "uci" => simple(Command::Uci),
        "isready" => simple(Command::IsReady),
        "ucinewgame" => simple(Command::UciNewGame),
        "quit" => simple(Command::Quit),
        "stop" => simple(Command::Stop),
        "ponderhit" => simple(Command::PonderHit),
        "d" => simple(Command::Display),
        "legal" => simple(Command::Legal),
        "state" => simple(Command::State),
        "debug" => parse_debug(rest),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
        "bench" => parse_bench(rest),
        _ => Err(format!("unknown command '{}'", shorten(head))),
    }?;
    Ok(Some(cmd))
}

/// At most 40 characters of user text, so an error line stays readable.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        let head: String = text.chars().take(40).collect();
        format!("{head}...")
    }
}

fn parse_debug(rest: &[&str]) -> Result<Command, String> {
    match rest {
        ["on"] => Ok(Command::Debug(true)),
        ["off"] => Ok(Command::Debug(false)),
        _ => Err("debug: expected 'debug on' or 'debug off'".to_string()),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let Some(("name", rest)) = rest.split_first().map(|(h, r)| (*h, r)) else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".to_string());
    };
    let (name, value) = match rest.iter().position(|&t| t == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is missing".to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Start::StartPos,
        Some((&"startpos", extra)) => {
            return Err(format!(
                "position: unexpected '{}' after startpos (expected 'moves')",
                shorten(extra[0])
            ));
        }
        Some((&"fen", [])) => return Err("position: the FEN is missing after 'fen'".to_string()),
        Some((&"fen", fields)) => Start::Fen(fields.join(" ")),
        Some((&other, _)) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', got '{}'",
                shorten(other)
            ));
        }
        None => return Err("position: expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_bench(rest: &[&str]) -> Result<Command, String> {
    match rest {
        [] => Ok(Command::Bench(None)),
        [d] => match d.parse::<u32>() {
            Ok(depth @ 1..=30) => Ok(Command::Bench(Some(depth))),
            _ => Err(format!(
                "bench: depth must be a number from 1 to 30, got '{}'",
                shorten(d)
            )),
        },
        _ => Err("bench: expected 'bench [depth]'".to_string()),
    }
}

/// The value after a `go` keyword, as a number.
fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, String> {
    let Some(text) = value else {
        return Err(format!("go: '{key}' needs a number"));
    };
    text.parse()
        .map_err(|_| format!("go: '{key}' needs a number, got '{}'", shorten(text)))
}

/// Milliseconds; negative clock values (a GUI's late flag) count as zero.
fn millis(key: &str, value: Option<&&str>) -> Result<Duration, String> {
    let ms: i64 = number(key, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn positive(key: &str, n: u64) -> Result<u64, String> {
    if n == 0 {
        Err(format!("go: '{key}' must be at least 1"))
    } else {
        Ok(n)
    }
}

/// The parameters of `go`: a `searchmoves` list ends at the next of them.
const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "mate",
    "perft",
    "ponder",
    "searchmoves",
];

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut it = rest.iter().peekable();
    while let Some(&key) = it.next() {
        match key {
            "wtime" => go.wtime = Some(millis(key, it.next())?),
            "btime" => go.btime = Some(millis(key, it.next())?),
            "winc" => go.winc = Some(millis(key, it.next())?),
            "binc" => go.binc = Some(millis(key, it.next())?),
            "movetime" => go.movetime = Some(millis(key, it.next())?),
            "movestogo" => {
                go.movestogo = Some(positive(key, number::<u32>(key, it.next())? as u64)? as u32)
            }
            "depth" => {
                go.depth = Some(positive(key, number::<u32>(key, it.next())? as u64)? as u32)
            }
            "nodes" => go.nodes = Some(positive(key, number(key, it.next())?)?),
            "perft" => {
                go.perft = Some(positive(key, number::<u32>(key, it.next())? as u64)? as u32)
            }
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                // The moves run to the next keyword (UCI puts searchmoves
                // last, but nothing forbids more parameters after it).
                while let Some(&&mv) = it.peek() {
                    if GO_KEYWORDS.contains(&mv) {
                        break;
                    }
                    go.searchmoves.push(mv.to_string());
                    it.next();
                }
                if go.searchmoves.is_empty() {
                    return Err("go: 'searchmoves' needs at least one move".to_string());
                }
            }
            "mate" => {
                go.mate = true;
                // The number of UCI's `go mate N` is optional here.
                if it.peek().is_some_and(|t| t.parse::<u32>().is_ok()) {
                    it.next();
                }
            }
            _ => return Err(format!("go: unknown parameter '{}'", shorten(key))),
        }
    }
    if go.ponder && (go.perft.is_some() || go.mate) {
        return Err("go: 'ponder' goes with a search, not with 'perft' or 'mate'".to_string());
    }
    if go.perft.is_some() && go.perft.unwrap_or(0) > 20 {
        return Err("go: 'perft' must be at most 20".to_string());
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_err()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("   ").unwrap(), None);
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready  "), Command::IsReady);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert!(err("isready now").contains("takes no arguments"));
        assert!(err("xyzzy 1 2").contains("unknown command 'xyzzy'"));
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(err("setoption Hash 3").contains("expected"));
        assert!(err("setoption name value 3").contains("name is missing"));
    }

    #[test]
    fn positions() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5,d7d5"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "e7e5,d7d5".into()]
            }
        );
        assert_eq!(
            ok("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            Command::Position {
                start: Start::Fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(err("position").contains("expected"));
        assert!(err("position fen").contains("FEN is missing"));
        assert!(err("position startpos e2e4").contains("unexpected 'e2e4'"));
        assert!(err("position middle").contains("got 'middle'"));
    }

    #[test]
    fn go_parameters() {
        let Command::Go(go) = ok("go wtime -5 btime 1000 winc 10 binc 20 movestogo 5") else {
            panic!()
        };
        assert_eq!(go.wtime, Some(Duration::ZERO));
        assert_eq!(go.binc, Some(Duration::from_millis(20)));
        assert_eq!(go.movestogo, Some(5));
        let Command::Go(go) = ok("go mate 3 depth 4") else {
            panic!()
        };
        assert!(go.mate);
        assert_eq!(go.depth, Some(4));
        let Command::Go(go) = ok("go perft 2") else {
            panic!()
        };
        assert_eq!(go.perft, Some(2));
        assert!(err("go depth").contains("needs a number"));
        assert!(err("go depth x").contains("got 'x'"));
        assert!(err("go depth 0").contains("at least 1"));
        assert!(err("go pondr").contains("unknown parameter 'pondr'"));
        assert!(err("go nodes 99999999999999999999999").contains("needs a number"));
    }

    #[test]
    fn ponder_and_searchmoves() {
        let Command::Go(go) = ok("go ponder wtime 100 searchmoves e2e4 d2d4 btime 50") else {
            panic!()
        };
        assert!(go.ponder);
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(go.btime, Some(Duration::from_millis(50)));
        let Command::Go(go) = ok("go searchmoves @d4 0000") else {
            panic!()
        };
        assert_eq!(go.searchmoves, ["@d4", "0000"]);
        assert!(err("go searchmoves").contains("at least one move"));
        assert!(err("go searchmoves depth 3").contains("at least one move"));
        assert!(err("go ponder perft 2").contains("'ponder' goes with a search"));
        assert_eq!(ok("ponderhit"), Command::PonderHit);
        assert!(err("ponderhit now").contains("takes no arguments"));
    }

    #[test]
    fn bench_depth() {
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 3"), Command::Bench(Some(3)));
        assert!(err("bench 0").contains("1 to 30"));
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "x".repeat(500);
        assert!(err(&long).len() < 80);
    }
}
