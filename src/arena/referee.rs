//! The referee: plays one game between two engines and says how it ended.
//!
//! The loop that talks to the engines (clock, time forfeits, crashes,
//! stopping) is shared by both games; what a game's rules decide (whose
//! turn, the `position` command, is a `bestmove` legal, is the game over)
//! comes from the [`Refereed`] trait, implemented for Progressive chess
//! here and for Linear Progression in [`super::linear`].
//!
//! Progressive chess: each `bestmove` token is the rest of the current turn as comma-joined UCI
//! moves; it is checked move by move with the rules core. The game ends by
//! the rules (mate, Italian mate, stalemate, dead position, ten quiet turns,
//! the last with the mate finder deciding the exception) or by a fault: an
//! illegal or malformed turn, a crash, or a time forfeit, each of which loses
//! for the engine at fault and is recorded with its reason.

use super::engine::{EngineError, EngineProcess};
use super::openings::{Opening, is_startpos, root_fen};
use crate::chess::status::{Status, Undecided, status_with};
use crate::chess::{Color, Move, Position, legal_moves, notation};
use crate::mate::QUIET_TEST_NODES;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How long a well-behaved engine may take to answer `stop` or `isready`.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long an engine under a node limit (`go nodes N`) may take for a
/// turn before it forfeits: no clock runs for it, but a hung engine must
/// not stall the match.
pub const NODES_TURN_TIMEOUT: Duration = Duration::from_secs(120);

/// The thinking time of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per player: `base` at the start, `increment` added after each
    /// of the player's turns (a turn is one "move" for the clock).
    Clock { base: Duration, increment: Duration },
    /// A fixed time per turn (`go movetime`).
    MoveTime(Duration),
    /// No clock: every engine plays under a node limit
    /// ([`GameSettings::nodes`]).
    Untimed,
}

impl TimeControl {
    /// Parses `10+0.1` or `10` (seconds and increment per turn in seconds).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let seconds = |s: &str| -> Result<Duration, String> {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("--tc: '{text}' is not SECONDS[+INCREMENT]"))
        };
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(text)?, Duration::ZERO),
        };
        if base.is_zero() && increment.is_zero() {
            return Err("--tc: the clock needs some time".into());
        }
        Ok(TimeControl::Clock { base, increment })
    }

    /// The PGN `TimeControl` tag value: `10+0.1` (seconds), or `movetime 200ms`.
    pub fn pgn(&self) -> String {
        match self {
            TimeControl::Clock { base, increment } if increment.is_zero() => trim_secs(*base),
            TimeControl::Clock { base, increment } => {
                format!("{}+{}", trim_secs(*base), trim_secs(*increment))
            }
            TimeControl::MoveTime(t) => format!("movetime {}ms", t.as_millis()),
            TimeControl::Untimed => "-".to_string(), // PGN's "no time control"
        }
    }
}

fn trim_secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pgn())
    }
}

/// The result of a game from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
    /// Not finished (the match was stopped).
    Unfinished,
}

impl Outcome {
    /// The PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
    }

    /// The points `color` scored (None when unfinished).
    pub fn points(self, color: Color) -> Option<f64> {
        match self {
            Outcome::Win(c) => Some(if c == color { 1.0 } else { 0.0 }),
            Outcome::Draw => Some(0.5),
            Outcome::Unfinished => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: mate, Italian mate, stalemate, dead position, ten quiet turns.
    Rules(Status),
    /// By the Linear Progression rules: the board is full, or both passed.
    LinearRules(crate::linear::EndReason),
    /// A turn that is not legal or not readable.
    IllegalMove,
    /// The engine exited, closed its output, or could not be written to.
    Crash,
    /// The engine used more than its time.
    TimeForfeit,
    /// The match was stopped during the game.
    Interrupted,
}

impl Termination {
    /// The short reason, also the PGN `Termination` tag value.
    pub fn reason(self) -> &'static str {
        match self {
            Termination::Rules(status) => status.reason(),
            Termination::LinearRules(crate::linear::EndReason::BoardFull) => "board full",
            Termination::LinearRules(crate::linear::EndReason::BothPassed) => "both passed",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::TimeForfeit => "time forfeit",
            Termination::Interrupted => "unterminated",
        }
    }

    /// Was the game ended by an engine's fault (so it should be restarted)?
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove | Termination::Crash | Termination::TimeForfeit
        )
    }
}

/// A finished (or stopped) game; `R` is the game record (Progressive
/// chess's PGN record by default).
#[derive(Clone, Debug)]
pub struct GameResult<R = notation::GameRecord> {
    /// The game: root, opening moves and played moves, with tags.
    pub record: R,
    pub outcome: Outcome,
    pub termination: Termination,
    /// A sentence for humans: who did what, e.g. `Black's turn 4 'e7e5,zz': ...`.
    pub detail: String,
    /// The side whose engine broke the protocol or hung (to be restarted).
    pub faulty: Option<Color>,
}

impl<R> GameResult<R> {
    /// The same result with the record turned into another type.
    pub fn map_record<S>(self, f: impl FnOnce(R) -> S) -> GameResult<S> {
        GameResult {
            record: f(self.record),
            outcome: self.outcome,
            termination: self.termination,
            detail: self.detail,
            faulty: self.faulty,
        }
    }
}

/// How a game ended, without its record.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The result from White's side.
    pub outcome: Outcome,
    /// Why the game ended.
    pub termination: Termination,
    /// A sentence for humans (see [`GameResult::detail`]).
    pub detail: String,
    /// The side whose engine broke the protocol or hung.
    pub faulty: Option<Color>,
}

/// A game's end by its rules, as [`Refereed::rules_end`] reports it.
#[derive(Clone, Debug)]
pub struct RulesEnd {
    /// The result from White's side (never unfinished).
    pub outcome: Outcome,
    /// The rule that ended the game.
    pub termination: Termination,
    /// Added to the detail sentence, e.g. ` (White 33, Black 27)`; may be empty.
    pub note: String,
}

/// A game as the referee sees it: one implementation per game (Progressive
/// chess here, Linear Progression in [`super::linear`]). The referee's loop
/// asks it whose turn it is, what to send, whether an answer is legal and
/// whether the game is over; the clock and the faults are the loop's.
pub trait Refereed {
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The number of the current turn, for messages (`turn 4`).
    fn turn_number(&self) -> u32;
    /// The `position` command for the game so far.
    fn position_command(&self) -> String;
    /// The end of the game by its rules, once it is over.
    fn rules_end(&self) -> Option<RulesEnd>;
    /// Checks the token of a `bestmove` and plays it if it is legal; the
    /// error says why it is not.
    fn play_token(&mut self, token: &str) -> Result<(), String>;
    /// The game's record (without tags).
    type Record;
    /// The record of the game so far: its root and every move.
    fn into_record(self) -> Self::Record;
}

/// An opening a game can start from, one implementation per game
/// ([`Opening`] here, [`super::LinearOpening`] in [`super::linear`]).
pub trait Start {
    /// The game as the referee plays it.
    type Game: Refereed;
    /// The game after the opening, ready for the engines.
    fn game(&self) -> Self::Game;
}

/// A `position` command: `head` (`position startpos` or `position fen
/// ...`), then ` moves` and the moves if there are any.
pub(super) fn position_command(head: &str, moves: impl Iterator<Item = String>) -> String {
    let mut position = head.to_string();
    for (i, mv) in moves.enumerate() {
        position.push_str(if i == 0 { " moves " } else { " " });
        position.push_str(&mv);
    }
    position
}

/// What the referee needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// White's and Black's time control (`tc=` gives an engine its own).
    pub time_control: [TimeControl; 2],
    /// Extra time an answer may take beyond the clock before it forfeits
    /// (pipes and process scheduling are not free).
    pub time_margin: Duration,
    /// A node limit for White's and Black's engine: it is sent `go nodes
    /// N` instead of the clock, and has [`NODES_TURN_TIMEOUT`] per turn.
    pub nodes: [Option<u64>; 2],
}

/// Progressive chess as the referee plays it: the opening's root, the
/// position, the moves from the root, and the head of the `position`
/// command.
pub struct ChessGame {
    root: Position,
    pos: Position,
    moves: Vec<Move>,
    position_head: String,
}

impl Start for Opening {
    type Game = ChessGame;

    fn game(&self) -> ChessGame {
        let position_head = if is_startpos(self) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", root_fen(self))
        };
        ChessGame {
            root: self.root.clone(),
            pos: self.position(),
            moves: self.moves.clone(),
            position_head,
        }
    }
}

impl Refereed for ChessGame {
    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    fn turn_number(&self) -> u32 {
        // Turn k has k moves: the turn's length is its number.
        self.pos.turn_length()
    }

    fn position_command(&self) -> String {
        position_command(&self.position_head, self.moves.iter().map(|m| m.uci()))
    }

    fn rules_end(&self) -> Option<RulesEnd> {
        let mut undecided = false;
        let mates = |p: &Position| {
            let answer = crate::mate::mates_this_turn(p, QUIET_TEST_NODES);
            undecided = answer.is_none();
            answer
        };
        let status = status_with(&self.pos, mates, Undecided::Drawn);
        if !status.is_over() {
            return None;
        }
        let note = if undecided {
            log::warn!(
                "ten-quiet-turn test undecided: {}",
                crate::chess::fen::to_fen(&self.pos)
            );
            format!(" (adjudicated: the mate test found no mate in {QUIET_TEST_NODES} nodes)")
        } else {
            String::new()
        };
        let outcome = match status {
            Status::Checkmate { winner } | Status::ItalianMate { winner } => Outcome::Win(winner),
            _ => Outcome::Draw,
        };
        Some(RulesEnd {
            outcome,
            termination: Termination::Rules(status),
            note,
        })
    }

    fn play_token(&mut self, token: &str) -> Result<(), String> {
        for mv in check_turn(&self.pos, token)? {
            self.pos.play(mv);
            self.moves.push(mv);
        }
        Ok(())
    }

    type Record = notation::GameRecord;

    fn into_record(self) -> notation::GameRecord {
        let mut record = notation::GameRecord::new(self.root);
        record.moves = self.moves;
        record
    }
}

/// Plays one game of either kind from `opening`: `engines[0]` has White,
/// `engines[1]` Black. Both must have been told the game's rules and
/// `ucinewgame`. Every move is checked by the rules core; an illegal or
/// malformed move, a crash or a time forfeit loses. Stops early (as
/// unfinished) when `stop` is set.
pub fn play_game<S: Start>(
    engines: [&mut EngineProcess; 2],
    opening: &S,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> GameResult<<S::Game as Refereed>::Record> {
    let mut game = opening.game();
    let ending = referee(engines, &mut game, settings, stop);
    GameResult {
        record: game.into_record(),
        outcome: ending.outcome,
        termination: ending.termination,
        detail: ending.detail,
        faulty: ending.faulty,
    }
}

/// The referee's loop, for any game: asks the engine to move, checks the
/// answer against the clock and the rules, until the game ends by its
/// rules, by a fault (which loses for the engine at fault), or `stop`.
pub fn referee(
    engines: [&mut EngineProcess; 2],
    game: &mut impl Refereed,
    settings: &GameSettings,
    stop: &AtomicBool,
) -> Ending {
    let names = [engines[0].name().to_string(), engines[1].name().to_string()];
    let clock = |i: usize| match settings.time_control[i] {
        TimeControl::Clock { base, increment } => (base, increment),
        TimeControl::MoveTime(_) | TimeControl::Untimed => (Duration::ZERO, Duration::ZERO),
    };
    let mut clocks = [clock(0).0, clock(1).0];
    let increments = [clock(0).1, clock(1).1];
    let finish = |outcome, termination, detail: String, faulty| Ending {
        outcome,
        termination,
        detail,
        faulty,
    };
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return finish(
                Outcome::Unfinished,
                Termination::Interrupted,
                "the match was stopped".into(),
                None,
            );
        }
        if let Some(end) = game.rules_end() {
            let reason = end.termination.reason();
            let detail = match end.outcome {
                Outcome::Win(winner) => {
                    format!(
                        "{} ({}) wins by {reason}{}",
                        names[winner.index()],
                        winner.name(),
                        end.note
                    )
                }
                _ => format!("draw by {reason}{}", end.note),
            };
            return finish(end.outcome, end.termination, detail, None);
        }
        let side = game.side_to_move();
        let i = side.index();
        let position = game.position_command();
        let (go, allowed) = match (settings.nodes[i], settings.time_control[i]) {
            (Some(n), _) => (format!("go nodes {n}"), NODES_TURN_TIMEOUT),
            // The runner gives every engine a node limit under no clock.
            (None, TimeControl::Untimed) => ("go infinite".to_string(), NODES_TURN_TIMEOUT),
            (None, TimeControl::Clock { .. }) => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis(),
                    increments[0].as_millis(),
                    increments[1].as_millis()
                ),
                clocks[i],
            ),
            (None, TimeControl::MoveTime(t)) => (format!("go movetime {}", t.as_millis()), t),
        };
        let deadline = std::time::Instant::now() + allowed + settings.time_margin;
        let who = format!(
            "{} ({}), turn {}",
            names[i],
            side.name(),
            game.turn_number()
        );
        let forfeit = |termination, detail: String| {
            finish(Outcome::Win(side.other()), termination, detail, Some(side))
        };
        let reply = match engines[i].go(&position, &go, deadline, stop) {
            Ok(reply) => reply,
            Err(EngineError::Interrupted) => continue, // reported at the top
            Err(EngineError::Timeout(_)) => {
                return forfeit(
                    Termination::TimeForfeit,
                    format!("{who}: no answer within {} ms", allowed.as_millis()),
                );
            }
            Err(e) => return forfeit(Termination::Crash, format!("{who}: {e}")),
        };
        if reply.elapsed > allowed + settings.time_margin {
            // Answered, but too late (the deadline is checked between lines).
            engines[i].stop_search(RESPONSE_TIMEOUT);
            return forfeit(
                Termination::TimeForfeit,
                format!(
                    "{who}: took {} ms of {} ms",
                    reply.elapsed.as_millis(),
                    allowed.as_millis()
                ),
            );
        }
        if let (None, TimeControl::Clock { increment, .. }) =
            (settings.nodes[i], settings.time_control[i])
        {
            clocks[i] = clocks[i].saturating_sub(reply.elapsed) + increment;
        }
        if let Err(why) = game.play_token(&reply.bestmove) {
            return forfeit(
                Termination::IllegalMove,
                format!("{who}: bestmove '{}': {why}", reply.bestmove),
            );
        }
    }
}

/// Checks a `bestmove` token against the rules: the rest of the current
/// turn, comma-joined, each move legal when made. A turn may be shorter only
/// when the rules end it (a Scottish check) or the mover has no legal move
/// left (walking into stalemate). Returns the moves, or why not.
pub fn check_turn(pos: &Position, token: &str) -> Result<Vec<Move>, String> {
    if token.is_empty() || token == "(none)" {
        return Err("no move, but the game is not over".into());
    }
    let mut p = pos.clone();
    let mut turn = Vec::new();
    let parts: Vec<&str> = token.split(',').collect();
    for (k, text) in parts.iter().enumerate() {
        let mv = notation::parse_uci(&p, text).map_err(|e| format!("move {}: {e}", k + 1))?;
        turn.push(mv);
        if p.play(mv).turn_ended && k + 1 < parts.len() {
            return Err(format!(
                "the turn ended after move {}, but {} more were given",
                k + 1,
                parts.len() - k - 1
            ));
        }
    }
    if p.moves_made() > 0 && !legal_moves(&p).is_empty() {
        return Err(format!(
            "the turn is incomplete: {} of {} moves",
            p.moves_made(),
            p.turn_length()
        ));
    }
    Ok(turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    #[test]
    fn turns_are_checked_move_by_move() {
        let start = Position::startpos(Rules::Italian);
        assert_eq!(check_turn(&start, "e2e4").unwrap().len(), 1);
        assert!(check_turn(&start, "e2e5").unwrap_err().contains("move 1"));
        assert!(
            check_turn(&start, "e2e4,d2d4")
                .unwrap_err()
                .contains("ended")
        );
        assert!(check_turn(&start, "(none)").is_err());
        assert!(check_turn(&start, "").is_err());
        let mut black = start.clone();
        black.play(check_turn(&start, "e2e4").unwrap()[0]);
        assert!(
            check_turn(&black, "e7e5")
                .unwrap_err()
                .contains("incomplete")
        );
        assert_eq!(check_turn(&black, "e7e5,d8h4").unwrap().len(), 2);
        assert!(check_turn(&black, "e7e5,,d8h4").is_err());
    }

    #[test]
    fn a_scottish_check_ends_the_turn_early() {
        let fen = "4k3/8/8/8/8/8/8/Q3K3 w - - 0 3";
        let scottish = fen::parse(fen, Rules::Scottish).unwrap();
        assert_eq!(check_turn(&scottish, "a1a8").map(|t| t.len()), Ok(1));
        assert!(
            check_turn(&scottish, "a1a8,e1e2")
                .unwrap_err()
                .contains("ended")
        );
        assert!(
            check_turn(&scottish, "a1a2")
                .unwrap_err()
                .contains("incomplete")
        );
        // Italian: the check may come only with the last move.
        let italian = fen::parse(fen, Rules::Italian).unwrap();
        assert!(check_turn(&italian, "a1a8").is_err());
        assert_eq!(
            check_turn(&italian, "a1a2,a2a3,a3a8").map(|t| t.len()),
            Ok(3)
        );
    }

    #[test]
    fn clock_text() {
        let tc = TimeControl::parse_clock("10+0.1").unwrap();
        assert_eq!(
            tc,
            TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(tc.pgn(), "10+0.1");
        assert_eq!(TimeControl::parse_clock("5").unwrap().pgn(), "5");
        assert!(TimeControl::parse_clock("x+1").is_err());
        assert!(TimeControl::parse_clock("0").is_err());
        assert!(TimeControl::parse_clock("-1+0").is_err());
    }
}
