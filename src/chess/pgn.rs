//! The PGN reader: every PGN input of the crate (`analyse --pgn`,
//! `pgn --check`, `match --openings`, the tests) reads games here.
//!
//! A file holds any number of games, each optional tag pairs and movetext.
//! The movetext may number every turn (`1. e4 2. e5 Qh4 3. ...`, a turn
//! resumed mid-way as `3... Bc4`) or not at all: the rules core knows where
//! each turn ends, so the numbers are only checked. Skipped: `{comments}`,
//! `;` comments to the end of the line, NAGs (`$4`, `!`, `??`), variations
//! in parentheses, `%` escape lines. A `;` followed by movetext only, up to
//! the next `;` or the line's end (`e5; Qh4`), separates moves, as some
//! sources write them. Moves are read by [`super::move_reader`] in every
//! notation it accepts. A game ends at its result (`1-0`, `0-1`,
//! `1/2-1/2`, `*`) or where the next game's tags begin.
//!
//! A game that cannot be read past some move keeps the moves read before
//! it, with a [`PgnError`] that names the game, the turn, the move's index
//! in the turn, the text and the reason; the next game is read as usual.

use super::fen;
use super::move_reader::{Refusal, looks_like_move, read_move};
use super::moves::Move;
use super::notation::{GameRecord, split_turns};
use super::position::Position;
use super::rules::Rules;
use super::status::Status;
use std::fmt;

/// The results a movetext may end with.
const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

/// Why a game could not be read (past some point).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the offending text.
    pub line: usize,
    /// The turn (its number, the turn's length) and the move's index in it,
    /// from 1; `None` for an error in the tags.
    pub at: Option<(u32, u32)>,
    /// The offending text.
    pub text: String,
    pub reason: Problem,
}

/// What is wrong with the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A move the rules core refused.
    Move(Refusal),
    /// A turn number that is not the turn's.
    TurnNumber { expected: u32, resumed: bool },
    /// A tag pair (`Variant`, `Rules`, `FEN`) this reader cannot play.
    Tag(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Move(r) => r.fmt(f),
            Problem::TurnNumber { expected, resumed } => write!(
                f,
                "wrong turn number: turn {expected} {} here (turns are numbered by their length: 1. e4 2. e5 Qh4 3. ...)",
                if *resumed { "is under way" } else { "starts" }
            ),
            Problem::Tag(message) => f.write_str(message),
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (line {})", self.game, self.line)?;
        if let Some((turn, index)) = self.at {
            write!(f, ", turn {turn}, move {index}")?;
        }
        write!(f, ": '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for PgnError {}

/// One game of a file, read as far as it could be.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The line the game starts on.
    pub line: usize,
    /// Every tag pair, in the file's order.
    pub tags: Vec<(String, String)>,
    pub start: Position,
    /// The moves read (all of them unless `error`).
    pub moves: Vec<Move>,
    /// The result the movetext ends with, if any.
    pub result: Option<String>,
    /// Why the game could not be read past `moves`.
    pub error: Option<PgnError>,
}

impl Game {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        crate::record::find_tag(&self.tags, name)
    }

    /// The position after the moves read.
    pub fn end_position(&self) -> Position {
        self.start.after_moves(&self.moves)
    }

    /// The moves read, turn by turn, each with the position it starts from.
    pub fn turns(&self) -> Vec<(Position, Vec<Move>)> {
        split_turns(&self.start, &self.moves)
    }

    /// The game as a record (the tags that the record writes itself left out).
    pub fn record(&self) -> GameRecord {
        let skip = ["Variant", "Rules", "FEN", "SetUp"];
        let mut record = GameRecord::new(self.start.clone());
        record.moves = self.moves.clone();
        record.tags = self
            .tags
            .iter()
            .filter(|(k, _)| !skip.contains(&k.as_str()))
            .cloned()
            .collect();
        record
    }

    /// The claimed result: the `Result` tag, else the movetext's.
    pub fn claimed_result(&self) -> Option<&str> {
        self.tag("Result")
            .or(self.result.as_deref())
            .filter(|r| *r != "?")
    }

    /// Does the claimed result contradict the end position? `status` is the
    /// end position's status (the caller decides how the ten-quiet-turns
    /// rule's mate question is answered). `None` when it agrees.
    pub fn result_contradiction(&self, status: Status) -> Option<String> {
        let tag = self.tag("Result").filter(|r| *r != "?");
        let text = self.result.as_deref();
        if let (Some(t), Some(m)) = (tag, text)
            && normal_result(t) != normal_result(m)
        {
            return Some(format!(
                "the Result tag says {t} but the movetext ends with {m}"
            ));
        }
        let claimed = normal_result(self.claimed_result()?);
        if status.is_over() && claimed != status.result() {
            return Some(format!(
                "the result {claimed} contradicts the final position: {} ({})",
                status.result(),
                status.reason()
            ));
        }
        if !status.is_over() && !RESULTS.contains(&claimed) {
            return Some(format!("'{claimed}' is not a result"));
        }
        None
    }
}

fn normal_result(r: &str) -> &str {
    if r == "½-½" { "1/2-1/2" } else { r }
}

/// A piece of the text: a tag pair or a movetext word, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    Word(String),
}

/// Reads every game of `text`. Games without a `Rules` tag are played under
/// `rules`; a `Rules` tag decides for its game.
pub fn read_games(text: &str, rules: Rules) -> Vec<Game> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut words: Vec<(String, usize)> = Vec::new();
    let mut start_line = None;
    let finish = |tags: &mut Vec<(String, String)>,
                  words: &mut Vec<(String, usize)>,
                  start: &mut Option<usize>,
                  result: Option<String>,
                  games: &mut Vec<Game>| {
        if let Some(line) = start.take() {
            let number = games.len() + 1;
            games.push(read_game(
                number,
                line,
                std::mem::take(tags),
                &std::mem::take(words),
                result,
                rules,
            ));
        }
    };
    for (token, line) in tokens(text) {
        match token {
            Token::Tag(name, value) => {
                if !words.is_empty() {
                    finish(&mut tags, &mut words, &mut start_line, None, &mut games);
                }
                start_line.get_or_insert(line);
                tags.push((name, value));
            }
            Token::Word(w) if RESULTS.contains(&w.as_str()) => {
                start_line.get_or_insert(line);
                finish(&mut tags, &mut words, &mut start_line, Some(w), &mut games);
            }
            Token::Word(w) => {
                start_line.get_or_insert(line);
                words.push((w, line));
            }
        }
    }
    finish(&mut tags, &mut words, &mut start_line, None, &mut games);
    games
}

/// Reads a text holding exactly one game, all of it.
pub fn read_one_game(text: &str, rules: Rules) -> Result<Game, String> {
    let mut games = read_games(text, rules);
    if games.len() != 1 {
        return Err(format!("expected one game, found {}", games.len()));
    }
    let game = games.remove(0);
    match game.error {
        Some(e) => Err(e.to_string()),
        None => Ok(game),
    }
}

/// Reads movetext without tags from `start` (an opening line, a
/// `position`-like list of moves): every move, or the first error.
pub fn read_moves(start: &Position, text: &str) -> Result<Vec<Move>, PgnError> {
    let words: Vec<(String, usize)> = tokens(text)
        .into_iter()
        .filter_map(|(t, line)| match t {
            Token::Word(w) => Some((w, line)),
            Token::Tag(..) => None,
        })
        .take_while(|(w, _)| !RESULTS.contains(&w.as_str()))
        .collect();
    let mut moves = Vec::new();
    match play_words(1, start, &words, &mut moves) {
        Some(e) => Err(e),
        None => Ok(moves),
    }
}

fn read_game(
    number: usize,
    line: usize,
    tags: Vec<(String, String)>,
    words: &[(String, usize)],
    result: Option<String>,
    default_rules: Rules,
) -> Game {
    let mut game = Game {
        number,
        line,
        tags,
        start: Position::startpos(default_rules),
        moves: Vec::new(),
        result,
        error: None,
    };
    match start_position(&game.tags, default_rules) {
        Ok(start) => game.start = start,
        Err((text, message)) => {
            game.error = Some(PgnError {
                game: number,
                line,
                at: None,
                text,
                reason: Problem::Tag(message),
            });
            return game;
        }
    }
    game.error = play_words(number, &game.start.clone(), words, &mut game.moves);
    game
}

/// The game's start position from its `Variant`, `Rules` and `FEN` tags;
/// an error names the tag.
fn start_position(
    tags: &[(String, String)],
    default_rules: Rules,
) -> Result<Position, (String, String)> {
    let get = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if let Some(v) = get("Variant")
        && !["progressive", "progressive chess"].contains(&v.to_ascii_lowercase().as_str())
    {
        return Err((
            format!("[Variant \"{v}\"]"),
            "not a Progressive chess game (expected [Variant \"Progressive\"])".into(),
        ));
    }
    let rules = match get("Rules") {
        None => default_rules,
        Some(r) => match r.parse::<Rules>() {
            Ok(rules @ (Rules::Italian | Rules::Scottish)) => rules,
            _ => {
                return Err((
                    format!("[Rules \"{r}\"]"),
                    "unknown rule set (expected [Rules \"Italian\"] or [Rules \"Scottish\"])"
                        .into(),
                ));
            }
        },
    };
    match get("FEN") {
        Some(f) => fen::parse(f, rules).map_err(|e| (format!("[FEN \"{f}\"]"), e.to_string())),
        None => Ok(Position::startpos(rules)),
    }
}

/// Plays the movetext words from `start`, pushing each move read onto
/// `moves`; the first word that cannot be read is returned as an error.
fn play_words(
    game: usize,
    start: &Position,
    words: &[(String, usize)],
    moves: &mut Vec<Move>,
) -> Option<PgnError> {
    let mut pos = start.clone();
    let error = |pos: &Position, text: &str, line: usize, reason: Problem| PgnError {
        game,
        line,
        at: Some((pos.turn_length(), pos.moves_made() + 1)),
        text: text.to_string(),
        reason,
    };
    for (word, line) in words {
        let (number, rest) = split_number(word);
        if let Some((n, dots)) = number {
            // At a turn's start `5.` or `5...`; in a turn under way only `5...`.
            let resumed = pos.moves_made() > 0;
            if n != Some(pos.turn_length()) || (resumed && dots < 3) {
                let expected = pos.turn_length();
                return Some(error(
                    &pos,
                    word,
                    *line,
                    Problem::TurnNumber { expected, resumed },
                ));
            }
        }
        if rest.is_empty() || is_annotation(rest) {
            continue;
        }
        match read_move(&pos, rest) {
            Ok(mv) => {
                pos.play(mv);
                moves.push(mv);
            }
            Err(refusal) => return Some(error(&pos, rest, *line, Problem::Move(refusal))),
        }
    }
    None
}

/// Words that annotate the move before: NAGs as symbols, `e.p.`, `mate`.
fn is_annotation(word: &str) -> bool {
    ["e.p.", "ep", "mate", "++", "+", "#"].contains(&word)
        || word.chars().all(|c| "!?+-=/±∓∞⩲⩱□".contains(c))
}

/// `12.` / `12...` / `12.e4` / `...` → (Some((Some(12), dots)), rest).
fn split_number(word: &str) -> (Option<(Option<u32>, usize)>, &str) {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let after = &word[digits..];
    let dots = after.bytes().take_while(|&b| b == b'.').count();
    let dots = dots + 3 * after[dots..].starts_with('…') as usize;
    if dots == 0 || (digits == 0 && dots < 3) {
        return (None, word);
    }
    let rest = after.trim_start_matches(['.', '…']);
    let number = if digits == 0 {
        None
    } else {
        word[..digits].parse().ok()
    };
    if digits == 0 {
        // A bare `...`: the turn goes on; nothing to check.
        return (None, rest);
    }
    (Some((number, dots)), rest)
}

/// Does the text after a `;` (to the next `;` or the line's end) read as
/// movetext (then the `;` separates moves) rather than as a comment?
fn is_movetext(rest: &str) -> bool {
    let words: Vec<&str> = rest
        .split([' ', '\t', ',', ';', '\r'])
        .filter(|w| !w.is_empty())
        .collect();
    !words.is_empty()
        && words.iter().all(|w| {
            let (_, r) = split_number(w);
            r.is_empty()
                || RESULTS.contains(&r)
                || is_annotation(r)
                || (r.starts_with('$') && r[1..].bytes().all(|b| b.is_ascii_digit()))
                || looks_like_move(r)
        })
}

/// The tag pairs and movetext words of `text`, comments, NAGs and
/// variations removed, each with its line.
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut word_line = 1;
    let mut line = 1;
    let mut variation = 0usize;
    let mut chars = text.char_indices().peekable();
    let mut at_line_start = true;
    let push = |word: &mut String, out: &mut Vec<(Token, usize)>, line: usize| {
        if !word.is_empty() {
            let w = std::mem::take(word);
            if !(w.starts_with('$') && w.len() > 1) {
                out.push((Token::Word(w), line));
            }
        }
    };
    while let Some((i, c)) = chars.next() {
        let line_start = std::mem::replace(&mut at_line_start, c == '\n');
        match c {
            '\n' => {
                push(&mut word, &mut out, word_line);
                line += 1;
            }
            '%' if line_start => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        at_line_start = true;
                        break;
                    }
                }
            }
            '{' => {
                push(&mut word, &mut out, word_line);
                for (_, c) in chars.by_ref() {
                    match c {
                        '\n' => line += 1,
                        '}' => break,
                        _ => {}
                    }
                }
            }
            ';' => {
                push(&mut word, &mut out, word_line);
                // Up to the next `;` or the end of the line.
                let rest = text[i + 1..].split(['\n', ';']).next().unwrap_or("");
                if variation > 0 || !is_movetext(rest) {
                    // A comment to the end of the line.
                    while chars.peek().is_some_and(|&(_, c)| c != '\n') {
                        chars.next();
                    }
                }
            }
            '(' => {
                push(&mut word, &mut out, word_line);
                variation += 1;
            }
            ')' if variation > 0 => variation -= 1,
            _ if variation > 0 => {}
            '[' if word.is_empty() => {
                let (tag, consumed, lines) = tag_pair(&text[i..]);
                let tag_line = line;
                line += lines;
                let bytes = text[i..]
                    .char_indices()
                    .nth(consumed)
                    .map_or(text.len() - i, |(b, _)| b);
                for _ in 0..consumed.saturating_sub(1) {
                    chars.next();
                }
                match tag {
                    Some((name, value)) => out.push((Token::Tag(name, value), tag_line)),
                    // Read as a word, it is refused as a move with its text.
                    None => {
                        out.push((Token::Word(text[i..i + bytes].trim().to_string()), tag_line))
                    }
                }
            }
            c if c.is_whitespace() || c == ',' => push(&mut word, &mut out, word_line),
            c => {
                if word.is_empty() {
                    word_line = line;
                }
                word.push(c);
            }
        }
    }
    push(&mut word, &mut out, word_line);
    out
}

/// Reads `[Name "value"]` at the start of `text`: the pair (or `None` if
/// malformed), the chars consumed, and the newlines among them.
fn tag_pair(text: &str) -> (Option<(String, String)>, usize, usize) {
    let mut name = String::new();
    let mut value = String::new();
    let mut state = 0; // 0 name, 1 before value, 2 in value, 3 after value
    let mut escaped = false;
    let mut newlines = 0;
    for (k, c) in text.chars().enumerate().skip(1) {
        if c == '\n' {
            newlines += 1;
            if state != 2 {
                return (None, k, newlines - 1);
            }
        }
        match state {
            0 if c.is_whitespace() && !name.is_empty() => state = 1,
            0 if c.is_alphanumeric() || c == '_' => name.push(c),
            1 if c.is_whitespace() => {}
            1 if c == '"' => state = 2,
            2 if escaped => {
                value.push(c);
                escaped = false;
            }
            2 if c == '\\' => escaped = true,
            2 if c == '"' => state = 3,
            2 => value.push(c),
            3 if c.is_whitespace() => {}
            3 if c == ']' => return (Some((name, value)), k + 1, newlines),
            _ => return (None, k + 1, newlines),
        }
    }
    (None, text.chars().count(), newlines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::status::status;

    fn uci(game: &Game) -> Vec<String> {
        game.moves.iter().map(|m| m.uci()).collect()
    }

    fn one(text: &str) -> Game {
        let games = read_games(text, Rules::Italian);
        assert_eq!(games.len(), 1, "{text}");
        games.into_iter().next().unwrap()
    }

    const OPENING: [&str; 6] = ["e2e4", "e7e5", "d8h4", "f1c4", "d1f3", "g1e2"];

    #[test]
    fn turn_numbers_per_turn_or_none() {
        for text in [
            "1. e4 2. e5 Qh4 3. Bc4 Qf3 Ne2 *",
            "1.e4 2.e5 Qh4 3.Bc4 Qf3 Ne2",
            "e4 e5 Qh4 Bc4 Qf3 Ne2",
            "1. e4 2... e5 Qh4 3. Bc4 3... Qf3 Ne2",
            "1. e4 2. e5 ... Qh4 3. Bc4 Qf3 ... Ne2",
            "e2e4 e7e5,d8h4 f1c4,d1f3,g1e2",
        ] {
            let g = one(text);
            assert_eq!(g.error, None, "{text}");
            assert_eq!(uci(&g), OPENING, "{text}");
        }
    }

    #[test]
    fn a_wrong_turn_number_is_named() {
        let g = one("1. e4 3. e5 Qh4");
        let e = g.error.expect("refused");
        assert_eq!(e.at, Some((2, 1)));
        assert_eq!(e.text, "3.");
        assert!(e.to_string().contains("turn 2 starts here"), "{e}");
        let g = one("1. e4 2. e5 2. Qh4");
        assert!(g.error.unwrap().to_string().contains("turn 2 is under way"));
    }

    #[test]
    fn comments_nags_and_variations_are_skipped() {
        let text = "[Event \"x\"]\n\n{a comment (with a parenthesis} 1. e4 $1 ; Black erred here\n\
                    2. e5!? Qh4 (2... d5 {a nested comment)} Qd6 (2... c5 Qa5)) 3. Bc4 Qf3\n\
                    % an escaped line e4\n Ne2 $14 *";
        let g = one(text);
        assert_eq!(g.error, None);
        assert_eq!(uci(&g), OPENING);
        assert_eq!(g.result.as_deref(), Some("*"));
    }

    #[test]
    fn a_semicolon_between_moves_separates_them() {
        let g = one("1. e4; 2. e5; Qh4; 3. Bc4;Qf3;Ne2 ; a comment: Nf3 was better");
        assert_eq!(g.error, None);
        assert_eq!(uci(&g), OPENING);
        // Not a comment's word among them: read as a comment.
        let g = one("1. e4 ; 2. e5 Qh4 was the idea\n2. d5 Qd6");
        assert_eq!(uci(&g), ["e2e4", "d7d5", "d8d6"]);
    }

    #[test]
    fn several_games_and_reading_goes_on_after_an_error() {
        let text = "[Event \"one\"]\n[Result \"*\"]\n\n1. e4 2. e5 Qh4 *\n\n\
                    [Event \"two\"]\n\n1. e4 2. e5 Qh4 3. Nf3 Nc3 Qh5 *\n\n\
                    [Event \"three\"]\n[Rules \"Scottish\"]\n\n1. d4 2. e5 Bb4+ 1-0\n";
        let games = read_games(text, Rules::Italian);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].error, None);
        assert_eq!(games[0].tag("Event"), Some("one"));
        let e = games[1].error.as_ref().expect("game two refused");
        assert_eq!((e.game, e.line, e.at), (2, 8, Some((3, 3))));
        assert_eq!(e.text, "Qh5");
        assert_eq!(
            e.to_string(),
            "game 2 (line 8), turn 3, move 3: 'Qh5': no such piece: no white queen can move to h5"
        );
        assert_eq!(
            games[1].moves.len(),
            5,
            "the moves before the error are kept"
        );
        // The Scottish check ends Black's turn after one move of two.
        assert_eq!(games[2].error, None);
        assert_eq!(games[2].start.rules(), Rules::Scottish);
        assert_eq!(games[2].turns().len(), 2);
        assert_eq!(games[2].result.as_deref(), Some("1-0"));
    }

    #[test]
    fn tags_this_reader_cannot_play_are_refused() {
        let game = |tags: &str| format!("{tags}\n\n1. e4 2. e5 Qh4 *\n");
        for tags in [
            "[Variant \"Progressive\"]\n[Rules \"Scottish\"]",
            "[Rules \"italian\"]",
            "[Variant \"progressive\"]",
            "",
        ] {
            let g = one(&game(tags));
            assert_eq!(g.error, None, "{tags}");
            assert_eq!(g.moves.len(), 3, "{tags}");
        }
        for (tags, named) in [
            ("[Variant \"Standard\"]", "[Variant \"Standard\"]"),
            (
                "[Variant \"Linear Progression\"]\n[Rules \"Italian\"]",
                "[Variant \"Linear Progression\"]",
            ),
            ("[Rules \"Chess\"]", "[Rules \"Chess\"]"),
            (
                "[Variant \"Progressive\"]\n[Rules \"Klingon\"]",
                "[Rules \"Klingon\"]",
            ),
        ] {
            let e = one(&game(tags)).error.expect(tags);
            assert_eq!(e.text, named, "{tags}: {e}");
            assert_eq!(e.at, None);
            assert!(e.to_string().contains("expected ["), "{e}");
        }
    }

    #[test]
    fn a_fen_tag_sets_the_start_and_a_resumed_turn_reads() {
        let text =
            "[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 3 1\"]\n\n3... h3 Ra8# 1-0";
        let g = one(text);
        assert_eq!(g.error, None);
        assert_eq!(uci(&g), ["h2h3", "a1a8"]);
        assert_eq!(g.result_contradiction(status(&g.end_position())), None);
    }

    #[test]
    fn the_result_is_checked_against_the_final_position() {
        let mate = "1. e4 2. f6 g5 3. d3 Nc3 Qh5#";
        let g = one(&format!("[Result \"1-0\"]\n\n{mate} 1-0"));
        assert_eq!(g.error, None);
        let end = status(&g.end_position());
        assert_eq!(end.reason(), "checkmate");
        assert_eq!(g.result_contradiction(end), None);
        let g = one(&format!("[Result \"0-1\"]\n\n{mate} 0-1"));
        let why = g.result_contradiction(end).expect("contradicted");
        assert!(
            why.contains("0-1 contradicts the final position: 1-0"),
            "{why}"
        );
        let g = one(&format!("[Result \"1-0\"]\n\n{mate} *"));
        assert!(
            g.result_contradiction(end)
                .unwrap()
                .contains("Result tag says 1-0")
        );
        // An unfinished game may end any way (a resignation, the clock).
        let g = one("[Result \"0-1\"]\n\n1. e4 2. e5 Qh4 0-1");
        assert_eq!(g.result_contradiction(status(&g.end_position())), None);
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        let g = one("1. e4 2. f6 g5 3. d3 Nc3 Qh5# 4. a6");
        let e = g.error.unwrap();
        assert_eq!(e.reason, Problem::Move(Refusal::NoLegalMove));
        assert_eq!(e.at, Some((4, 1)));
    }

    #[test]
    fn read_moves_reads_a_bare_line() {
        let start = Position::startpos(Rules::Italian);
        let moves = read_moves(&start, "1. e4 2. e5 Qh4").unwrap();
        let expected: Vec<Move> = {
            let mut p = start.clone();
            ["e2e4", "e7e5", "d8h4"]
                .iter()
                .map(|t| {
                    let mv = parse_uci(&p, t).unwrap();
                    p.play(mv);
                    mv
                })
                .collect()
        };
        assert_eq!(moves, expected);
        let e = read_moves(&start, "e4 e5 Qh5").unwrap_err();
        assert_eq!((e.game, e.at), (1, Some((2, 2))));
    }
}
