//! The ranges of the numbers a user sets, shared by the protocol's options
//! (`Hash`, `Threads`) and the subcommands' flags (`--hash`, `--threads`),
//! so that both accept the same values. (The limits on positions and input
//! lines live with their readers: `chess::fen::MAX_TURN_LENGTH`,
//! `protocol::MAX_LINE_BYTES`; protocol.md, "Limits", lists them all.)

use std::ops::RangeInclusive;

/// Hash table sizes, in MiB: `Hash`, `--hash`.
pub const HASH_MIB: RangeInclusive<u64> = 1..=1024;
/// Search threads: `Threads`, `--threads`.
pub const THREADS: RangeInclusive<u64> = 1..=256;
/// Games of one match: `--games`.
pub const GAMES: RangeInclusive<u64> = 1..=1_000_000;
/// Games played at once, each with two engine processes: `--concurrency`.
pub const CONCURRENCY: RangeInclusive<u64> = 1..=256;

/// Reads `text` as a number in `range`; the error names the range.
pub fn parse_in<T: TryFrom<u64>>(text: &str, range: RangeInclusive<u64>) -> Result<T, String> {
    let value: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if !range.contains(&value) {
        return Err(format!(
            "{value} is out of range (from {} to {})",
            range.start(),
            range.end()
        ));
    }
    T::try_from(value).map_err(|_| format!("{value} is too large for this machine"))
}

/// The moves of `searchmoves` (`go searchmoves`, both games) that
/// `is_legal` accepts, in order and without repeats. Empty means no
/// restriction, also when none of them is legal (the protocol has said so).
pub fn legal_searchmoves<M: Copy + PartialEq>(
    searchmoves: &[M],
    is_legal: impl Fn(M) -> bool,
) -> Vec<M> {
    let mut kept: Vec<M> = Vec::new();
    for &mv in searchmoves {
        if is_legal(mv) && !kept.contains(&mv) {
            kept.push(mv);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_outside_the_range_are_refused_with_the_range() {
        assert_eq!(parse_in::<usize>("16", HASH_MIB), Ok(16));
        for bad in [
            "0",
            "100000",
            "17592186044415",
            "99999999999999999999",
            "-1",
            "x",
        ] {
            let e = parse_in::<usize>(bad, HASH_MIB).unwrap_err();
            assert!(
                e.contains("range (from 1 to 1024)") || e.contains("whole number"),
                "{e}"
            );
        }
    }
}
