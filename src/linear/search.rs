//! Search.
/// Limits.
pub struct Limits;
/// Score.
pub struct Score;
/// Info.
pub struct SearchInfo;
/// Result.
pub struct SearchResult;
/// Searcher.
pub struct Searcher;
/// search.
pub fn search() {}
