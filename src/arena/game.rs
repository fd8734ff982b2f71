//! The game a match is played in: the one place the runner asks what
//! differs between Progressive chess and Linear Progression (the engine
//! options, the openings, the referee, the game record).

use super::engine::{EngineError, EngineProcess};
use super::linear::{LinearOpening, random_linear_opening, rules_text};
use super::openings::{Opening, is_startpos, random_opening, root_fen};
use super::referee::{GameResult, GameSettings, play_game};
use crate::Variant;
use crate::chess::{Rules, notation};
use crate::linear;
use rand::rngs::StdRng;
use std::sync::atomic::AtomicBool;

/// The game of a match, with its rules (Linear Progression's options
/// included, which [`Variant`] leaves out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchGame {
    /// Progressive chess under a rule set (Italian or Scottish).
    Progressive(Rules),
    /// Linear Progression under these options.
    Linear(linear::Options),
}

/// An opening of either game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchOpening {
    /// A Progressive chess opening.
    Progressive(Opening),
    /// A Linear Progression opening.
    Linear(LinearOpening),
}

/// A game record of either game.
#[derive(Clone, Debug)]
pub enum MatchRecord {
    /// A Progressive chess PGN record.
    Progressive(notation::GameRecord),
    /// A Linear Progression record.
    Linear(linear::GameRecord),
}

impl MatchOpening {
    /// The opening as an openings-file line gives it: the moves from the
    /// start position, or the root position then `moves` and the moves
    /// (the results file's `opening`).
    pub fn text(&self) -> String {
        let (root, is_start, moves): (String, bool, Vec<String>) = match self {
            MatchOpening::Progressive(o) => (
                root_fen(o),
                is_startpos(o),
                o.moves.iter().map(|m| m.uci()).collect(),
            ),
            MatchOpening::Linear(o) => (
                o.root.to_string(),
                o.root == linear::Position::new(&o.root.options()),
                o.moves.iter().map(|m| m.to_string()).collect(),
            ),
        };
        match (is_start, moves.is_empty()) {
            (true, false) => moves.join(" "),
            (_, true) => root,
            (false, false) => format!("{root} moves {}", moves.join(" ")),
        }
    }

    /// Plays one game from this opening with its game's referee
    /// (`engines[0]` has White; both were configured by
    /// [`MatchGame::configure`] for this opening's game).
    pub fn play(
        &self,
        engines: [&mut EngineProcess; 2],
        settings: &GameSettings,
        stop: &AtomicBool,
    ) -> GameResult<MatchRecord> {
        match self {
            MatchOpening::Progressive(o) => {
                play_game(engines, o, settings, stop).map_record(MatchRecord::Progressive)
            }
            MatchOpening::Linear(o) => {
                play_game(engines, o, settings, stop).map_record(MatchRecord::Linear)
            }
        }
    }
}

impl MatchRecord {
    /// Sets the tags (the runner's `Event`, `Round`, `Termination`, ...).
    pub fn set_tags(&mut self, tags: Vec<(String, String)>) {
        match self {
            MatchRecord::Progressive(r) => r.tags = tags,
            MatchRecord::Linear(r) => r.tags = tags,
        }
    }

    /// The record as text (PGN, or the Linear Progression record format).
    pub fn to_pgn(&self) -> String {
        match self {
            MatchRecord::Progressive(r) => r.to_pgn(),
            MatchRecord::Linear(r) => r.to_pgn(),
        }
    }
}

impl MatchGame {
    /// `progressive` or `linear-progression` (the summary's `variant`).
    pub fn name(&self) -> &'static str {
        self.variant().game_name()
    }

    /// The variant (`UCI_Variant`) of this game and rule set.
    pub fn variant(&self) -> Variant {
        match self {
            MatchGame::Progressive(Rules::Scottish) => Variant::ProgressiveScottish,
            MatchGame::Progressive(_) => Variant::Progressive,
            MatchGame::Linear(_) => Variant::LinearProgression,
        }
    }

    /// The rules in a word or two (the summary's `rules`): `italian`,
    /// `scottish`, or for Linear Progression the board and the options on,
    /// e.g. `8x8` or `6x6 equal,blockers`.
    pub fn rules(&self) -> String {
        match self {
            MatchGame::Progressive(rules) => rules.name().to_string(),
            MatchGame::Linear(options) => rules_text(options),
        }
    }

    /// The rules for people, e.g. `italian rules` or `Linear Progression 8x8`.
    pub fn describe(&self) -> String {
        match self {
            MatchGame::Progressive(rules) => format!("{} rules", rules.name()),
            MatchGame::Linear(options) => format!("Linear Progression {}", rules_text(options)),
        }
    }

    /// The start position, no moves.
    pub fn start_opening(&self) -> MatchOpening {
        match self {
            MatchGame::Progressive(rules) => MatchOpening::Progressive(Opening::startpos(*rules)),
            MatchGame::Linear(options) => MatchOpening::Linear(LinearOpening::start(options)),
        }
    }

    /// `turns` random legal turns from the start position.
    pub fn random_opening(&self, turns: u32, rng: &mut StdRng) -> MatchOpening {
        match self {
            MatchGame::Progressive(rules) => {
                MatchOpening::Progressive(random_opening(*rules, turns, rng))
            }
            MatchGame::Linear(options) => {
                MatchOpening::Linear(random_linear_opening(options, turns, rng))
            }
        }
    }

    /// Tells a freshly started engine the game and its rules, except an
    /// option the user set (`user_set`). Progressive chess: `UCI_Variant`
    /// when the engine has it. Linear Progression: `UCI_Variant` and the
    /// `LP_*` options, always (UCI engines ignore unknown options; one that
    /// does not announce them is warned about, and its moves will show
    /// whether it plays these rules). Returns whether anything was sent
    /// (the caller then waits for `readyok`).
    pub fn configure(
        &self,
        engine: &mut EngineProcess,
        user_set: impl Fn(&str) -> bool,
    ) -> Result<bool, EngineError> {
        let mut sent = Vec::new();
        match self {
            MatchGame::Progressive(rules) => {
                if engine.has_option("UCI_Variant") && !user_set("UCI_Variant") {
                    sent.push(("UCI_Variant", self.variant().name().to_string()));
                } else if *rules == Rules::Scottish && !user_set("UCI_Variant") {
                    log::warn!(
                        "engine {} has no UCI_Variant option: it may not know the Scottish rules",
                        engine.name()
                    );
                }
            }
            MatchGame::Linear(options) => {
                let values = [
                    ("UCI_Variant", self.variant().name().to_string()),
                    ("LP_Board", options.board.to_string()),
                    ("LP_EqualMoves", options.equal_moves.to_string()),
                    ("LP_Blockers", options.blockers.to_string()),
                ];
                let mut missing = Vec::new();
                for (name, value) in values {
                    if user_set(name) {
                        continue;
                    }
                    if !engine.has_option(name) {
                        missing.push(name);
                    }
                    sent.push((name, value));
                }
                if !missing.is_empty() {
                    log::warn!(
                        "engine {} does not announce {}: it may not play Linear Progression by these rules",
                        engine.name(),
                        missing.join(", ")
                    );
                }
            }
        }
        for (name, value) in &sent {
            engine.set_option(name, value)?;
        }
        Ok(!sent.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::linear::parse_linear_opening;
    use crate::arena::openings::parse_opening;
    use rand::SeedableRng;

    #[test]
    fn an_opening_text_reads_back_as_the_opening() {
        let mut rng = StdRng::seed_from_u64(5);
        for rules in [Rules::Italian, Rules::Scottish] {
            let game = MatchGame::Progressive(rules);
            for opening in [game.start_opening(), game.random_opening(2, &mut rng)] {
                let MatchOpening::Progressive(o) = &opening else {
                    unreachable!()
                };
                assert_eq!(&parse_opening(&opening.text(), rules).unwrap(), o);
            }
        }
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2";
        let o = parse_opening(&format!("{fen} moves e7e5 d8h4"), Rules::Italian).unwrap();
        let text = MatchOpening::Progressive(o.clone()).text();
        assert!(
            text.starts_with(fen) && text.ends_with(" moves e7e5 d8h4"),
            "{text}"
        );
        assert_eq!(parse_opening(&text, Rules::Italian).unwrap(), o);
        let options = linear::Options::default();
        let game = MatchGame::Linear(options);
        for opening in [game.start_opening(), game.random_opening(3, &mut rng)] {
            let MatchOpening::Linear(o) = &opening else {
                unreachable!()
            };
            assert_eq!(&parse_linear_opening(&opening.text(), &options).unwrap(), o);
        }
    }
}
