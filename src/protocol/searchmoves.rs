//! Reading `go searchmoves m1 m2 ...` for any game: the moves that read
//! and are legal restrict the first move of the turn; the others are named
//! in one error line and left out, and the `go` goes on (with one
//! `bestmove`, as every `go`). A list with no legal move restricts nothing.

use super::command::shorten;
use super::output::Output;

/// The moves of `texts` that `parse` accepts (legal in the position), in
/// order and without repeats; one error line on `out` for the rest.
pub fn read<M: PartialEq>(
    texts: &[String],
    parse: impl Fn(&str) -> Result<M, String>,
    out: &Output,
) -> Vec<M> {
    let mut moves = Vec::new();
    let mut bad = Vec::new();
    for text in texts {
        match parse(text) {
            Ok(mv) if !moves.contains(&mv) => moves.push(mv),
            Ok(_) => {}
            Err(e) => bad.push(format!("'{}' ({e})", shorten(text))),
        }
    }
    if !bad.is_empty() {
        let rest = if moves.is_empty() {
            "; no move of the list is left, so every move is searched"
        } else {
            ""
        };
        out.error(&format!(
            "go searchmoves: {} left out{rest}",
            bad.join(", ")
        ));
    }
    moves
}
