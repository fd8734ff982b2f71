//! Serving a puzzle near a player's rating, the lichess way: a window
//! around the rating, widened until it holds a puzzle.

use super::record::Puzzle;

/// The narrowest half-width of the window, in rating points.
pub const MIN_WINDOW: f64 = 100.0;

/// The puzzle served and the half-width of the window it came from.
#[derive(Debug)]
pub struct Pick<'a> {
    pub puzzle: &'a Puzzle,
    pub window: f64,
}

/// One puzzle of `puzzles` (with theme `theme`, if given) rated within a
/// window around `rating`: half-width the larger of [`MIN_WINDOW`] and half
/// the player's `deviation` (an unsure rating looks wider), doubled while
/// the window holds none. `choice` picks among the window's puzzles (pass
/// a random number; the same number gives the same puzzle). `None` when no
/// puzzle has the theme.
pub fn pick<'a>(
    puzzles: &'a [Puzzle],
    rating: f64,
    deviation: f64,
    theme: Option<&str>,
    choice: u64,
) -> Option<Pick<'a>> {
    let eligible: Vec<&Puzzle> = puzzles
        .iter()
        .filter(|p| theme.is_none_or(|t| p.themes.iter().any(|x| x == t)))
        .collect();
    if eligible.is_empty() {
        return None;
    }
    let mut window = MIN_WINDOW.max(deviation / 2.0);
    loop {
        let inside: Vec<&Puzzle> = eligible
            .iter()
            .copied()
            .filter(|p| (p.rating - rating).abs() <= window)
            .collect();
        if !inside.is_empty() {
            let puzzle = inside[(choice % inside.len() as u64) as usize];
            return Some(Pick { puzzle, window });
        }
        window *= 2.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::{Rules, fen};
    use crate::mate::MateTable;

    fn at(rating: f64, themes: &[&str]) -> Puzzle {
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian).unwrap();
        let mv = parse_uci(&pos, "a1a8").unwrap();
        let mut p = super::super::record(&pos, &[mv], 10, &[], (0, 0, "", ""), &MateTable::new(1));
        p.rating = rating;
        p.id = format!("{rating}");
        p.themes = themes.iter().map(|t| t.to_string()).collect();
        p
    }

    #[test]
    fn the_window_widens_until_it_holds_a_puzzle() {
        let set = [at(900.0, &[]), at(2100.0, &["quiet"]), at(1560.0, &[])];
        let p = pick(&set, 1500.0, 0.0, None, 0).unwrap();
        assert_eq!((p.puzzle.rating, p.window), (1560.0, MIN_WINDOW));
        // Nothing within 100 of 1150, nor 200; 400 holds 900 alone.
        let p = pick(&set, 1150.0, 0.0, None, 7).unwrap();
        assert_eq!((p.puzzle.rating, p.window), (900.0, 400.0));
        // A theme narrows the set; a large deviation widens the first window.
        let p = pick(&set, 1500.0, 0.0, Some("quiet"), 0).unwrap();
        assert_eq!((p.puzzle.rating, p.window), (2100.0, 800.0));
        let p = pick(&set, 1200.0, 350.0, None, 0).unwrap();
        assert_eq!(p.window, 175.0 * 2.0);
        assert!(pick(&set, 1500.0, 0.0, Some("castling"), 0).is_none());
        // The choice picks among the window's puzzles.
        let seen: std::collections::HashSet<String> = (0..8)
            .map(|c| {
                pick(&set, 1500.0, 2000.0, None, c)
                    .unwrap()
                    .puzzle
                    .id
                    .clone()
            })
            .collect();
        assert_eq!(seen.len(), 3);
    }
}
