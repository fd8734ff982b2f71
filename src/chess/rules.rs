//! The rule set: the one place where the Italian and Scottish rules differ.
//!
//! Everything else in the crate asks these methods instead of matching on
//! the rule set itself. Ordinary chess is modelled as the degenerate rule set
//! whose every turn has one move; it exists so that the same move generator
//! can be checked against ordinary-chess perft tables.

use std::fmt;
use std::str::FromStr;

/// Which rules govern a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rules {
    /// Italian (championship) rules: check only with the last move of a turn.
    #[default]
    Italian,
    /// Scottish (original) rules: a check ends the turn at once.
    Scottish,
    /// Ordinary chess: every turn has exactly one move.
    Chess,
}

impl Rules {
    /// May the next move give check, with `moves_made` of `turn_length` already made?
    #[inline]
    pub fn check_allowed(self, moves_made: u32, turn_length: u32) -> bool {
        match self {
            Rules::Italian => moves_made + 1 == turn_length,
            Rules::Scottish | Rules::Chess => true,
        }
    }

    /// Does a move that gives check end the turn at once?
    #[inline]
    pub fn check_ends_turn(self) -> bool {
        matches!(self, Rules::Scottish)
    }

    /// Is a player in check whose every escape would give check mated
    /// (the "Italian mate")? Only meaningful when check is not allowed on the
    /// first move, so it follows from `check_allowed`; this names it for status text.
    #[inline]
    pub fn has_italian_mate(self) -> bool {
        matches!(self, Rules::Italian)
    }

    /// The length of the turn after one of length `turn_length`.
    #[inline]
    pub fn next_turn_length(self, turn_length: u32) -> u32 {
        match self {
            Rules::Chess => 1,
            Rules::Italian | Rules::Scottish => turn_length + 1,
        }
    }

    /// Lower-case name, as used on command lines: `italian`, `scottish`, `chess`.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Italian => "italian",
            Rules::Scottish => "scottish",
            Rules::Chess => "chess",
        }
    }

    /// Capitalised name, as in the PGN `Rules` tag.
    pub fn title(self) -> &'static str {
        match self {
            Rules::Italian => "Italian",
            Rules::Scottish => "Scottish",
            Rules::Chess => "Chess",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = String;
    fn from_str(s: &str) -> Result<Rules, String> {
        match s.to_ascii_lowercase().as_str() {
            "italian" => Ok(Rules::Italian),
            "scottish" => Ok(Rules::Scottish),
            "chess" => Ok(Rules::Chess),
            _ => Err(format!(
                "unknown rule set '{s}' (expected italian or scottish)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn italian_allows_check_only_on_last_move() {
        assert!(!Rules::Italian.check_allowed(0, 3));
        assert!(!Rules::Italian.check_allowed(1, 3));
        assert!(Rules::Italian.check_allowed(2, 3));
        assert!(Rules::Italian.check_allowed(0, 1));
    }

    #[test]
    fn scottish_check_ends_turn_and_turns_still_grow() {
        assert!(Rules::Scottish.check_allowed(0, 5));
        assert!(Rules::Scottish.check_ends_turn());
        assert!(!Rules::Italian.check_ends_turn());
        assert_eq!(Rules::Scottish.next_turn_length(4), 5);
        assert_eq!(Rules::Chess.next_turn_length(4), 1);
    }

    #[test]
    fn names_parse_back() {
        for r in [Rules::Italian, Rules::Scottish, Rules::Chess] {
            assert_eq!(r.name().parse::<Rules>(), Ok(r));
        }
        assert!("klingon".parse::<Rules>().is_err());
    }
}
