//! What decides the puzzles a generation run makes, apart from its seed:
//! the rules and every generation parameter. Each record carries it, so
//! that a resumed run and `puzzles merge` never mix puzzles made under
//! other settings (another build with other budgets, say), and a refusal
//! can name the difference.

use super::calibrate::ladder;
use super::generate::{MAX_TURN, OPENING_TURNS, PLAY_NODES, SCAN_NODES};
use super::hard::Hard;
use super::unique::{ALL_NODES, FIND_NODES, MAX_ADVANTAGE, TRIVIAL_NODES};
use crate::chess::Rules;
use serde::{Deserialize, Serialize};

/// The generation settings of a record (the seed is not one: runs of
/// different seeds under the same settings merge into one collection).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// `italian` or `scottish`.
    pub rules: String,
    /// Random turns before the levels play.
    pub opening_turns: u32,
    /// Games stop after the turn of this length.
    pub max_turn: u32,
    /// Nodes per turn of the players.
    pub play_nodes: u64,
    /// Nodes of the scan for a mate at each turn start.
    pub scan_nodes: u64,
    /// Nodes of the finder on a fresh table (the rating's tie-breaker).
    pub find_nodes: u64,
    /// Nodes of the enumeration of the solutions.
    pub all_nodes: u64,
    /// A mate found within this many nodes is trivial.
    pub trivial_nodes: u64,
    /// Material lead (pawn = 1) above which a turn start is crushing.
    pub max_advantage: i32,
    /// The calibrating ladder's rungs: name, fixed rating, finder nodes.
    pub levels: Vec<(String, f64, u64)>,
    /// The hard stage (`generate --hard`) that made the record; absent
    /// from ordinary records (and so from every record made before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard: Option<Hard>,
}

impl Settings {
    /// The settings of this build under `rules`.
    pub fn of(rules: Rules) -> Settings {
        Settings {
            rules: rules.name().to_string(),
            opening_turns: OPENING_TURNS,
            max_turn: MAX_TURN,
            play_nodes: PLAY_NODES,
            scan_nodes: SCAN_NODES,
            find_nodes: FIND_NODES,
            all_nodes: ALL_NODES,
            trivial_nodes: TRIVIAL_NODES,
            max_advantage: MAX_ADVANTAGE,
            levels: ladder(),
            hard: None,
        }
    }

    /// The settings of this build's hard stage under `rules`.
    pub fn hard(rules: Rules) -> Settings {
        Settings {
            hard: Some(Hard::of_build()),
            ..Settings::of(rules)
        }
    }

    /// The first difference from `other`, as `what: this vs that` (the
    /// wording of `crescendo match merge`).
    pub fn difference(&self, other: &Settings) -> Option<String> {
        crate::arena::setup_difference(self, other)
    }

    /// Why records of `other` may not join a file (or a run) of `self`, as
    /// [`Settings::difference`] words it: the ordinary settings differ, or
    /// both have a hard stage and those differ. The ordinary and the hard
    /// puzzles of one generation share a file.
    pub fn conflict(&self, other: &Settings) -> Option<String> {
        let ordinary = |s: &Settings| Settings {
            hard: None,
            ..s.clone()
        };
        ordinary(self)
            .difference(&ordinary(other))
            .or_else(|| match (&self.hard, &other.hard) {
                (Some(a), Some(b)) => {
                    crate::arena::setup_difference(a, b).map(|why| format!("hard.{why}"))
                }
                _ => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_differ_by_rules_and_name_the_field() {
        let (a, b) = (Settings::of(Rules::Italian), Settings::of(Rules::Scottish));
        assert_eq!(a.difference(&a.clone()), None);
        assert_eq!(
            a.difference(&b).as_deref(),
            Some("rules: \"italian\" vs \"scottish\"")
        );
        let mut c = a.clone();
        c.scan_nodes += 1;
        let why = a.difference(&c).unwrap();
        assert!(why.starts_with("scan_nodes: "), "{why}");
    }

    #[test]
    fn hard_and_ordinary_records_of_one_generation_share_a_file() {
        let (a, h) = (Settings::of(Rules::Italian), Settings::hard(Rules::Italian));
        assert_eq!(a.conflict(&h), None);
        assert_eq!(h.conflict(&a), None);
        let mut other = h.clone();
        if let Some(x) = other.hard.as_mut() {
            x.all_nodes += 1;
        }
        let why = h.conflict(&other).unwrap();
        assert!(why.starts_with("hard.all_nodes: "), "{why}");
        assert_eq!(a.conflict(&other), None);
        let mut c = h.clone();
        c.scan_nodes += 1;
        assert!(a.conflict(&c).unwrap().starts_with("scan_nodes: "));
        // An ordinary record reads and prints as before the hard stage.
        let text = serde_json::to_string(&a).unwrap();
        assert!(!text.contains("hard"), "{text}");
        let back: Settings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, a);
        let back: Settings = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
        assert_eq!(back, h);
    }
}
