//! The engine options: their `option` lines for `uci`, and `setoption`.

use super::command::shorten;
use crate::Variant;
use crate::linear;
use crate::search::levels::{self, Baseline, LEVELS, MAX_ELO, MAX_SKILL, MIN_ELO, Style};

/// The current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Variant,
    /// The Linear Progression rules (`LP_EqualMoves`, `LP_Blockers`,
    /// `LP_Board`): the start position of `position startpos` and
    /// `ucinewgame` in that variant. Kept whatever the variant, so they can
    /// be set before `UCI_Variant`.
    pub lp: linear::Options,
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Empty: no log file.
    pub debug_log_file: String,
    pub skill_level: u32,
    /// The named level (an index into [`LEVELS`]).
    pub level: usize,
    pub limit_strength: bool,
    pub elo: u32,
    pub baseline: Baseline,
    /// `Ponder` (UCI: the GUI may send `go ponder`). Informational: the
    /// engine ponders exactly when told `go ponder`, whatever its value.
    pub ponder: bool,
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    Variant,
    Hash,
    ClearHash,
    DebugLogFile,
    /// The rules of a game (the `LP_*` options): the game decides what
    /// changes (see [`super::game::Game::rules_changed`]).
    GameRules,
    /// Read at the next `go`.
    SearchSetting,
}

/// An integer option's range.
struct Spin {
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
}

const HASH: Spin = Spin {
    name: "Hash",
    default: 16,
    min: *crate::limits::HASH_MIB.start() as i64,
    max: *crate::limits::HASH_MIB.end() as i64,
};
const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: *crate::limits::THREADS.start() as i64,
    max: *crate::limits::THREADS.end() as i64,
};
const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 256,
};
const SKILL_LEVEL: Spin = Spin {
    name: "Skill Level",
    default: MAX_SKILL as i64,
    min: 0,
    max: MAX_SKILL as i64,
};
const UCI_ELO: Spin = Spin {
    name: "UCI_Elo",
    default: MAX_ELO as i64,
    min: MIN_ELO as i64,
    max: MAX_ELO as i64,
};
const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: 10,
    min: 0,
    max: 5000,
};

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::default(),
            hash_mib: HASH.default as usize,
            threads: THREADS.default as usize,
            multipv: MULTIPV.default as usize,
            move_overhead_ms: MOVE_OVERHEAD.default as u64,
            debug_log_file: String::new(),
            lp: linear::Options::default(),
            skill_level: MAX_SKILL,
            level: LEVELS.len() - 1,
            limit_strength: false,
            elo: MAX_ELO,
            baseline: Baseline::None,
            ponder: false,
        }
    }
}

impl Options {
    /// How the engine plays: `UCI_LimitStrength` with `UCI_Elo` first, then
    /// a named `Level` other than `Full`, then `Skill Level`.
    pub fn style(&self) -> Style {
        let skill = if self.limit_strength {
            levels::skill_from_elo(self.elo)
        } else if self.level + 1 < LEVELS.len() {
            LEVELS[self.level].1
        } else {
            self.skill_level
        };
        Style {
            baseline: self.baseline,
            skill,
            seed: 0,
        }
    }

    /// The `option ...` lines of the `uci` answer (defaults, not current values).
    pub fn uci_lines() -> Vec<String> {
        let vars: Vec<String> = Variant::ALL
            .iter()
            .map(|v| format!(" var {}", v.name()))
            .collect();
        let mut lines = vec![format!(
            "option name UCI_Variant type combo default {}{}",
            Variant::default().name(),
            vars.concat()
        )];
        for s in [HASH, THREADS, MULTIPV, MOVE_OVERHEAD, SKILL_LEVEL] {
            lines.push(format!(
                "option name {} type spin default {} min {} max {}",
                s.name, s.default, s.min, s.max
            ));
        }
        let names: Vec<String> = LEVELS.iter().map(|(n, _)| format!(" var {n}")).collect();
        lines.push(format!(
            "option name Level type combo default {}{}",
            LEVELS[LEVELS.len() - 1].0,
            names.concat()
        ));
        lines.push("option name UCI_LimitStrength type check default false".to_string());
        lines.push(format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            UCI_ELO.default, UCI_ELO.min, UCI_ELO.max
        ));
        let bases: Vec<String> = Baseline::ALL
            .iter()
            .map(|b| format!(" var {}", b.name()))
            .collect();
        lines.push(format!(
            "option name Baseline type combo default none{}",
            bases.concat()
        ));
        lines.push("option name Ponder type check default false".to_string());
        lines.push("option name Clear Hash type button".to_string());
        lines.push("option name Debug Log File type string default <empty>".to_string());
        let lp = linear::Options::default();
        lines.push(format!(
            "option name LP_EqualMoves type check default {}",
            lp.equal_moves
        ));
        lines.push(format!(
            "option name LP_Blockers type check default {}",
            lp.blockers
        ));
        lines.push(format!(
            "option name LP_Board type string default {}",
            lp.board
        ));
        lines
    }

    /// Applies `setoption name <name> [value <value>]`; names are case-insensitive.
    /// On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        let key = name.to_ascii_lowercase();
        match key.as_str() {
            "uci_variant" => {
                let text = required(name, value)?;
                self.variant = Variant::parse(text).ok_or_else(|| {
                    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                    format!(
                        "setoption: unknown UCI_Variant '{}' (expected one of: {})",
                        shorten(text),
                        names.join(", ")
                    )
                })?;
                Ok(Changed::Variant)
            }
            "hash" => {
                self.hash_mib = spin(&HASH, value)? as usize;
                Ok(Changed::Hash)
            }
            "threads" => {
                self.threads = spin(&THREADS, value)? as usize;
                Ok(Changed::SearchSetting)
            }
            "multipv" => {
                self.multipv = spin(&MULTIPV, value)? as usize;
                Ok(Changed::SearchSetting)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(&MOVE_OVERHEAD, value)? as u64;
                Ok(Changed::SearchSetting)
            }
            "skill level" => {
                self.skill_level = spin(&SKILL_LEVEL, value)? as u32;
                Ok(Changed::SearchSetting)
            }
            "uci_elo" => {
                self.elo = spin(&UCI_ELO, value)? as u32;
                Ok(Changed::SearchSetting)
            }
            "uci_limitstrength" => {
                let text = required(name, value)?;
                self.limit_strength = match text.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "setoption: UCI_LimitStrength needs true or false, got '{}'",
                            super::command::shorten(text)
                        ));
                    }
                };
                Ok(Changed::SearchSetting)
            }
            "level" => {
                let text = required(name, value)?;
                self.level = LEVELS
                    .iter()
                    .position(|(n, _)| n.eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        let names: Vec<&str> = LEVELS.iter().map(|l| l.0).collect();
                        format!(
                            "setoption: unknown Level '{}' (expected one of: {})",
                            super::command::shorten(text),
                            names.join(", ")
                        )
                    })?;
                Ok(Changed::SearchSetting)
            }
            "baseline" => {
                let text = required(name, value)?;
                self.baseline = Baseline::parse(text).ok_or_else(|| {
                    format!(
                        "setoption: unknown Baseline '{}' (expected one of: none, random, greedy)",
                        super::command::shorten(text)
                    )
                })?;
                Ok(Changed::SearchSetting)
            }
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(Changed::SearchSetting)
            }
            "clear hash" => Ok(Changed::ClearHash),
            "debug log file" => {
                let text = value.unwrap_or("").trim();
                self.debug_log_file = if text == "<empty>" {
                    String::new()
                } else {
                    text.to_string()
                };
                Ok(Changed::DebugLogFile)
            }
            "lp_equalmoves" => {
                self.lp.equal_moves = check(name, value)?;
                Ok(Changed::GameRules)
            }
            "lp_blockers" => {
                self.lp.blockers = check(name, value)?;
                Ok(Changed::GameRules)
            }
            "lp_board" => {
                let text = required(name, value)?;
                self.lp.board = text
                    .parse()
                    .map_err(|e: linear::LinearError| format!("setoption: LP_Board: {e}"))?;
                Ok(Changed::GameRules)
            }
            _ => Err(format!("setoption: unknown option '{}'", shorten(name))),
        }
    }
}

fn required<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(format!("setoption: option '{name}' needs a value")),
    }
}

/// A `check` option's value: `true` or `false` (any case).
fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    let text = required(name, value)?;
    if text.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if text.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(format!(
            "setoption: {name} needs true or false, got '{}'",
            shorten(text)
        ))
    }
}

fn spin(s: &Spin, value: Option<&str>) -> Result<i64, String> {
    let text = required(s.name, value)?;
    let n: i64 = text.parse().map_err(|_| {
        format!(
            "setoption: {} needs a whole number, got '{}'",
            s.name,
            shorten(text)
        )
    })?;
    if (s.min..=s.max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "setoption: {} must be from {} to {}, got {n}",
            s.name, s.min, s.max
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_reject() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Changed::Hash));
        assert_eq!(o.hash_mib, 64);
        assert!(
            o.set("Hash", Some("0"))
                .unwrap_err()
                .contains("from 1 to 1024")
        );
        assert!(
            o.set("Hash", Some("lots"))
                .unwrap_err()
                .contains("whole number")
        );
        assert!(o.set("Hash", None).unwrap_err().contains("needs a value"));
        assert_eq!(o.hash_mib, 64);
        assert_eq!(
            o.set("UCI_Variant", Some("progressive-scottish")),
            Ok(Changed::Variant)
        );
        assert!(o.set("UCI_Variant", Some("atomic")).is_err());
        assert_eq!(o.variant, Variant::ProgressiveScottish);
        assert!(
            o.set("Contempt", Some("10"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert_eq!(o.set("ponder", Some("TRUE")), Ok(Changed::SearchSetting));
        assert!(o.ponder);
        assert!(o.set("Ponder", Some("yes")).is_err());
    }

    #[test]
    fn uci_lines_list_every_option() {
        let lines = Options::uci_lines().join("\n");
        for name in [
            "UCI_Variant",
            "Hash",
            "Threads",
            "MultiPV",
            "Move Overhead",
            "Skill Level",
            "Level",
            "UCI_LimitStrength",
            "UCI_Elo",
            "Baseline",
            "Clear Hash",
            "Debug Log File",
            "LP_EqualMoves",
            "LP_Blockers",
            "LP_Board",
        ] {
            assert!(
                lines.contains(&format!("option name {name} type")),
                "{name}"
            );
        }
        assert!(lines.contains("var progressive var progressive-scottish var linear-progression"));
        assert!(lines.contains("option name LP_Board type string default 8x8"));
        assert!(
            lines.contains("var Novice var Beginner var Casual var Intermediate var Club var Full")
        );
    }

    #[test]
    fn linear_progression_options() {
        let mut o = Options::default();
        assert_eq!(o.set("LP_EqualMoves", Some("true")), Ok(Changed::GameRules));
        assert_eq!(o.set("lp_blockers", Some("TRUE")), Ok(Changed::GameRules));
        assert_eq!(o.set("LP_Board", Some("10x10")), Ok(Changed::GameRules));
        assert!(o.lp.equal_moves && o.lp.blockers);
        assert_eq!(o.lp.board.to_string(), "10x10");
        let e = o.set("LP_Blockers", Some("yes")).unwrap_err();
        assert!(e.contains("true or false") && e.contains("'yes'"), "{e}");
        let e = o.set("LP_Board", Some("3x3")).unwrap_err();
        assert!(
            e.starts_with("setoption: LP_Board: bad board size 3x3"),
            "{e}"
        );
        assert!(o.set("LP_Board", None).is_err());
        assert!(o.lp.blockers);
        assert_eq!(o.lp.board.to_string(), "10x10");
    }

    #[test]
    fn strength_options_pick_the_skill() {
        let mut o = Options::default();
        assert_eq!(o.style().skill, MAX_SKILL);
        o.set("Skill Level", Some("7")).unwrap();
        assert_eq!(o.style().skill, 7);
        o.set("Level", Some("novice")).unwrap();
        assert_eq!(o.style().skill, 0);
        o.set("UCI_LimitStrength", Some("true")).unwrap();
        o.set("UCI_Elo", Some("2400")).unwrap();
        assert_eq!(o.style().skill, MAX_SKILL);
        assert!(o.set("Level", Some("Grandmaster")).is_err());
        o.set("Baseline", Some("greedy")).unwrap();
        assert_eq!(o.style().baseline, Baseline::Greedy);
    }
}
