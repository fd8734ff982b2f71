//! A game record as both games keep it: where the game started, its moves,
//! and its tags (PGN's `[Name "value"]`, in their order). Each game adds
//! its own end position and text ([`crate::chess::notation::GameRecord`],
//! [`crate::linear::GameRecord`]).

/// One game: its root position `P`, its moves `M`, and its tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<P, M> {
    /// The root position (the game's rules come with it).
    pub start: P,
    /// The moves from the root, opening moves included.
    pub moves: Vec<M>,
    /// Tags other than those the record derives from `start` (each game's
    /// `to_pgn` writes those itself), in order.
    pub tags: Vec<(String, String)>,
}

impl<P, M> Record<P, M> {
    /// A record of no moves from `start`.
    pub fn new(start: P) -> Record<P, M> {
        Record {
            start,
            moves: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

/// The value of the first tag named `name` in `tags`, if any.
pub fn find_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A tag value as PGN writes it between quotes (backslash and quote
/// escaped).
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Joins words into lines of at most `width` characters (a longer word
/// stands alone), as PGN movetext is written.
pub fn wrap<'a>(words: impl IntoIterator<Item = &'a str>, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}
