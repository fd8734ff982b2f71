//! Glicko-2, exactly as in Glickman's "Example of the Glicko-2 system"
//! (2013): ratings on the Glicko scale (1500 = 0 on the internal scale,
//! 173.7178 points per internal unit), one rating period per update.

use serde::{Deserialize, Serialize};

/// Points of the Glicko scale per unit of the internal Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The system constant: how much the volatility may change (0.3..1.2 in
/// the paper; its example uses 0.5).
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration (the paper's).
const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating: rating, rating deviation, volatility.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player or puzzle: 1500, 350, 0.06 (the paper's defaults).
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// The rating rounded for storage: rating and deviation to 0.01,
    /// volatility to 1e-6.
    pub fn rounded(self) -> Rating {
        Rating {
            rating: (self.rating * 100.0).round() / 100.0,
            deviation: (self.deviation * 100.0).round() / 100.0,
            volatility: (self.volatility * 1e6).round() / 1e6,
        }
    }
}

/// One game of a rating period: the opponent and our score (1, 0.5 or 0).
#[derive(Clone, Copy, Debug)]
pub struct Game {
    pub opponent: Rating,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after one rating period with `games` (steps 1 to 8 of the
/// paper). With no game only the deviation grows (step 6).
pub fn update(player: Rating, games: &[Game], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        return Rating {
            deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance and improvement.
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - 1500.0) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        delta_sum += g(phi_j) * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // Step 5: the new volatility (the Illinois algorithm).
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6 to 8.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: mu_new * SCALE + 1500.0,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

/// The deviation a puzzle player or a puzzle keeps between these bounds
/// after an attempt (as lichess does): never so sure that it stops
/// adapting, never less sure than a newcomer.
pub const MIN_DEVIATION: f64 = 45.0;
pub const MAX_DEVIATION: f64 = 350.0;

/// Player and puzzle after one attempt, each a rated game against the
/// other (the player scores 1 when solved, the puzzle 1 when not).
pub fn attempt(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let score = if solved { 1.0 } else { 0.0 };
    let clamp = |r: Rating| Rating {
        deviation: r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
        ..r
    };
    let p = update(
        player,
        &[Game {
            opponent: puzzle,
            score,
        }],
        TAU,
    );
    let q = update(
        puzzle,
        &[Game {
            opponent: player,
            score: 1.0 - score,
        }],
        TAU,
    );
    (clamp(p).rounded(), clamp(q).rounded())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn matches_glickmans_published_example() {
        let player = r(1500.0, 200.0);
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let new = update(player, &games, 0.5);
        assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
    }

    #[test]
    fn no_game_only_widens_the_deviation() {
        let new = update(r(1500.0, 200.0), &[], TAU);
        assert_eq!(new.rating, 1500.0);
        assert!(new.deviation > 200.0 && new.deviation < 201.0, "{new:?}");
    }

    #[test]
    fn an_attempt_moves_player_and_puzzle_opposite_ways() {
        let (player, puzzle) = (r(1500.0, 200.0), r(1600.0, 100.0));
        let (p, q) = attempt(player, puzzle, true);
        assert!(p.rating > 1500.0 && q.rating < 1600.0, "{p:?} {q:?}");
        let (p, q) = attempt(player, puzzle, false);
        assert!(p.rating < 1500.0 && q.rating > 1600.0, "{p:?} {q:?}");
        let (sure, _) = attempt(r(1500.0, 45.0), puzzle, true);
        assert!(sure.deviation >= MIN_DEVIATION);
    }
}
