//! The games Crescendo plays, and the one list of the names each interface
//! gives them: the protocol's `UCI_Variant` values, the subcommands'
//! `--variant` and `--rules` flags, and the PGN `Variant` tag.

use crate::chess::Rules;
use std::fmt;
use std::str::FromStr;

/// A game with its rule set (Linear Progression's options are its own:
/// board, equal moves, blockers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Progressive chess, Italian rules.
    #[default]
    Progressive,
    /// Progressive chess, Scottish rules.
    ProgressiveScottish,
    /// Linear Progression.
    LinearProgression,
}

impl Variant {
    /// Every variant, in the order `uci` lists them.
    pub const ALL: [Variant; 3] = [
        Variant::Progressive,
        Variant::ProgressiveScottish,
        Variant::LinearProgression,
    ];

    /// The protocol's `UCI_Variant` value (also accepted by `--variant`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Progressive => "progressive",
            Variant::ProgressiveScottish => "progressive-scottish",
            Variant::LinearProgression => "linear-progression",
        }
    }

    /// The game without its rule set, as the reports' `variant` key says
    /// it: `progressive` or `linear-progression`.
    pub fn game_name(self) -> &'static str {
        match self {
            Variant::Progressive | Variant::ProgressiveScottish => "progressive",
            Variant::LinearProgression => "linear-progression",
        }
    }

    /// The PGN `Variant` tag.
    pub fn pgn_name(self) -> &'static str {
        match self {
            Variant::Progressive | Variant::ProgressiveScottish => "Progressive",
            Variant::LinearProgression => "Linear Progression",
        }
    }

    /// The variant called `name` (case-insensitive).
    pub fn parse(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// Progressive chess under `rules` (ordinary chess is no variant of
    /// ours: it is only a perft mode of the move generator).
    pub fn progressive(rules: Rules) -> Option<Variant> {
        match rules {
            Rules::Italian => Some(Variant::Progressive),
            Rules::Scottish => Some(Variant::ProgressiveScottish),
            Rules::Chess => None,
        }
    }

    /// The Progressive chess rule set, or `None` for Linear Progression.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Variant::Progressive => Some(Rules::Italian),
            Variant::ProgressiveScottish => Some(Rules::Scottish),
            Variant::LinearProgression => None,
        }
    }

    /// This variant with the rule set `rules` given apart (the subcommands'
    /// `--rules`); an error for Linear Progression, which has none.
    pub fn with_rules(self, rules: Option<Rules>) -> Result<Variant, String> {
        match (self, rules) {
            (v, None) => Ok(v),
            (Variant::LinearProgression, Some(_)) => {
                Err("--rules is for --variant progressive".into())
            }
            (_, Some(rules)) => Variant::progressive(rules)
                .ok_or_else(|| format!("unknown rule set '{}'", rules.name())),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(text: &str) -> Result<Variant, String> {
        Variant::parse(text).ok_or_else(|| {
            let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!(
                "unknown variant '{text}' (expected one of: {})",
                names.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(Variant::parse("PROGRESSIVE"), Some(Variant::Progressive));
        assert!("atomic".parse::<Variant>().is_err());
    }

    #[test]
    fn rules_pick_the_progressive_variant() {
        for rules in [Rules::Italian, Rules::Scottish] {
            let v = Variant::progressive(rules).unwrap();
            assert_eq!(v.rules(), Some(rules));
            assert_eq!(Variant::Progressive.with_rules(Some(rules)), Ok(v));
        }
        assert_eq!(Variant::progressive(Rules::Chess), None);
        assert!(
            Variant::LinearProgression
                .with_rules(Some(Rules::Italian))
                .is_err()
        );
        assert_eq!(
            Variant::LinearProgression.with_rules(None),
            Ok(Variant::LinearProgression)
        );
    }
}
