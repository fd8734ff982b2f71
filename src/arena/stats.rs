//! Match statistics: wins, draws and losses, the Elo difference with its
//! 95 % interval, the likelihood of superiority, pentanomial counts over
//! opening pairs, and the sequential probability ratio test.
//!
//! The formulas are those of cutechess-cli and fastchess, so that numbers
//! can be compared with theirs: the Elo interval uses the sample variance of
//! the per-pair scores once a colour-swapped pair is finished (over finished
//! pairs only, as fastchess; narrower, because the two games of a pair share
//! an opening), of the per-game scores before that, and the SPRT is the generalised SPRT of fishtest and
//! fastchess (the exact log-likelihood ratio of maximum-likelihood outcome
//! distributions).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z_95: f64 = 1.959_963_984_540_054;

/// Elo units per natural unit of the logistic model (`800 / ln 10`), used by
/// normalised Elo.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The score (0..1) that an Elo difference predicts under the logistic model.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that a score (0..1) stands for; infinite at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function, to about 1e-7 (Abramowitz and Stegun 7.1.26 is too
/// coarse near 0 for LOS; this is the Numerical Recipes `erfc` Chebyshev fit).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Counts of one engine's results (the first engine of the match, "A").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pentanomial counts over finished opening pairs, indexed by the pair's
    /// score in half points: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
}

/// An Elo estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The Elo difference (first engine minus second); infinite after a
    /// clean sweep.
    pub elo: f64,
    /// Half the width of the 95 % interval (as cutechess and fastchess print
    /// `elo +/- margin`); NaN (printed `-`, JSON null) when the data cannot
    /// say: fewer than 2 samples, no spread, or a clean sweep.
    pub margin: f64,
    /// Normalised Elo: the score's distance from 0.5 in standard deviations,
    /// scaled as fastchess does.
    pub nelo: f64,
    /// Whether the pentanomial (pair) model was used for the interval.
    pub pentanomial: bool,
}

impl Tally {
    /// Adds one game: `score` is 1, 0.5 or 0 for the first engine.
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Adds one finished opening pair: `score` is the first engine's total
    /// over both games (0, 0.5, 1, 1.5 or 2).
    pub fn add_pair(&mut self, score: f64) {
        let half_points = (score * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pentanomial[half_points] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Opening pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The first engine's score fraction (0.5 before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Is the sample the finished pairs? As soon as one pair is finished,
    /// Elo and LLR are computed over finished pairs only, as fastchess
    /// does: the game of a pair still in play is left out, so the model
    /// does not switch between pairs and games with every odd game.
    fn paired(&self) -> bool {
        self.pairs() > 0
    }

    /// The outcomes as (score, frequency) over games or over pairs, with the
    /// number of samples. Pair scores are halved to lie in 0..1.
    fn distribution(&self, pentanomial: bool) -> (Vec<(f64, f64)>, f64) {
        if pentanomial {
            let n = self.pairs() as f64;
            let d = self
                .pentanomial
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, c as f64 / n))
                .collect();
            (d, n)
        } else {
            let n = self.games() as f64;
            let d = vec![
                (0.0, self.losses as f64 / n),
                (0.5, self.draws as f64 / n),
                (1.0, self.wins as f64 / n),
            ];
            (d, n)
        }
    }

    /// The Elo difference and its 95 % interval; `None` before any game.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.games() == 0 {
            return None;
        }
        let pentanomial = self.paired();
        let (dist, n) = self.distribution(pentanomial);
        let mean: f64 = dist.iter().map(|(x, p)| x * p).sum();
        let variance: f64 = dist.iter().map(|(x, p)| p * (x - mean).powi(2)).sum();
        let stderr = (variance / n).sqrt();
        let lo = score_to_elo(mean - Z_95 * stderr);
        let hi = score_to_elo(mean + Z_95 * stderr);
        // Per-game standard deviation: a pair's variance is of a mean of two games.
        let game_sd = if pentanomial {
            (2.0 * variance).sqrt()
        } else {
            variance.sqrt()
        };
        let nelo = if game_sd > 0.0 {
            (mean - 0.5) / game_sd * NELO_SCALE
        } else {
            f64::NAN
        };
        // One sample, or all alike, says nothing about the spread: an
        // interval of width 0 would claim certainty.
        let margin = if n < 2.0 || variance == 0.0 {
            f64::NAN
        } else {
            (hi - lo) / 2.0
        };
        Some(EloEstimate {
            elo: score_to_elo(mean),
            margin,
            nelo,
            pentanomial,
        })
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses (draws say nothing), as cutechess.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// How the SPRT's Elo bounds are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalised Elo (fastchess's default): bounds in units that do not
    /// depend on the draw rate.
    #[default]
    Normalized,
    /// Plain logistic Elo.
    Logistic,
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// What the SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    /// The LLR reached the lower bound: elo0 is the better fit.
    H0,
    /// The LLR reached the upper bound: elo1 is the better fit.
    H1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::H1 => "H1 accepted",
        })
    }
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        }
    }
}

impl Sprt {
    /// The (lower, upper) LLR bounds: `ln(beta / (1 - alpha))`, `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far: over finished pairs
    /// once there is one, else over games. This is the generalised SPRT
    /// of fishtest and fastchess: the likelihood of the observed outcome
    /// frequencies under the maximum-likelihood distribution whose Elo is
    /// elo1, against the one whose Elo is elo0 (M. Van den Bergh, "Comments
    /// on normalized Elo"). Empty outcome classes count as 0.001, as there.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let pentanomial = tally.paired();
        let counts: Vec<f64> = if pentanomial {
            tally.pentanomial.iter().map(|&c| c as f64).collect()
        } else {
            vec![tally.losses as f64, tally.draws as f64, tally.wins as f64]
        };
        let counts: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0.0 { 1e-3 } else { c })
            .collect();
        let n: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let k = probs.len();
        let scores: Vec<f64> = (0..k).map(|i| i as f64 / (k - 1) as f64).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_with_mean(&scores, &probs, elo_to_score(self.elo0)),
                mle_with_mean(&scores, &probs, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => {
                // t per game; a pair's score has half the variance of a game's.
                let scale = if pentanomial { 2f64.sqrt() } else { 1.0 };
                (
                    mle_with_t(&scores, &probs, scale * self.elo0 / NELO_SCALE),
                    mle_with_t(&scores, &probs, scale * self.elo1 / NELO_SCALE),
                )
            }
        };
        let (Some(p0), Some(p1)) = (p0, p1) else {
            return 0.0;
        };
        n * probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
    }

    /// The decision at this LLR, if the test has ended.
    pub fn decision(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

/// The `theta` solving `sum p_i phi_i / (1 + theta phi_i) = 0`, the
/// Lagrange condition of the constrained maximum-likelihood problems below.
/// The left side falls from +inf to -inf on `(-1/max phi, -1/min phi)`, so
/// bisection finds it; `None` when phi does not change sign.
fn solve_theta(phi: &[f64], probs: &[f64]) -> Option<f64> {
    let (u, v) = phi
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if u >= 0.0 || v <= 0.0 {
        return None;
    }
    let f = |theta: f64| -> f64 {
        phi.iter()
            .zip(probs)
            .map(|(x, p)| p * x / (1.0 + theta * x))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / v, -1.0 / u);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The distribution closest (in likelihood) to `probs` over `scores` whose
/// mean is `s`.
fn mle_with_mean(scores: &[f64], probs: &[f64], s: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let theta = solve_theta(&phi, probs)?;
    Some(
        probs
            .iter()
            .zip(&phi)
            .map(|(p, x)| p / (1.0 + theta * x))
            .collect(),
    )
}

/// The distribution closest (in likelihood) to `probs` over `scores` whose
/// normalised score `(mean - 1/2) / sd` is `t`, by the fixed-point iteration
/// of Van den Bergh's section 4.1, started from the uniform distribution.
fn mle_with_t(scores: &[f64], probs: &[f64], t: f64) -> Option<Vec<f64>> {
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..10 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        if sigma == 0.0 {
            return None;
        }
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let theta = solve_theta(&phi, probs)?;
        let mut change: f64 = 0.0;
        for ((q, x), ph) in p.iter_mut().zip(&phi).zip(probs) {
            let next = ph / (1.0 + theta * x);
            change = change.max((next - *q).abs());
            *q = next;
        }
        if change < 1e-4 {
            break;
        }
    }
    Some(p)
}

impl FromStr for Sprt {
    type Err = String;

    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized` (any
    /// order, each key optional, separated by spaces or commas).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt::default();
        for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{item}'"))?;
            let number = || -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("--sprt: {key} must be a number, got '{value}'"))
            };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "normalized" | "normalised" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        _ => {
                            return Err(format!(
                                "--sprt: model must be normalized or logistic, got '{value}'"
                            ));
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (expected elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        let open_unit = |p: f64| p > 0.0 && p < 1.0;
        if !open_unit(sprt.alpha) || !open_unit(sprt.beta) || sprt.alpha + sprt.beta >= 1.0 {
            return Err("--sprt: alpha and beta must lie in (0, 1) and sum to less than 1".into());
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Wins, draws and losses with no pairs.
    fn wdl(wins: u64, draws: u64, losses: u64) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            pentanomial: [0; 5],
        }
    }

    fn penta(counts: [u64; 5]) -> Tally {
        // Rebuild W/D/L consistently: LL, LD, (DD or WL), WD, WW. The middle
        // bucket is split as all draws; W/D/L only matter for LOS here.
        let [ll, ld, mid, wd, ww] = counts;
        Tally {
            wins: wd + 2 * ww,
            draws: ld + 2 * mid + wd,
            losses: 2 * ll + ld,
            pentanomial: counts,
        }
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        assert!(close(score_to_elo(0.75), 190.848_501_887_865, 1e-9));
        for elo in [-300.0, -10.0, 0.0, 35.0, 400.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
    }

    #[test]
    fn erf_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn trinomial_elo_and_los_match_cutechess() {
        // cutechess-cli: "Score of midnight-dev vs midnight-latest: 449 - 276 - 275
        // [0.587] ... Elo difference: 60.7 +/- 18.5, LOS: 100.0 %".
        let t = wdl(449, 275, 276);
        let e = t.elo().unwrap();
        assert!(!e.pentanomial);
        assert!(close(e.elo, 60.7, 0.05), "{e:?}");
        assert!(close(e.margin, 18.5, 0.05), "{e:?}");
        // LOS by hand: W 10, L 6 -> 0.5 (1 + erf(4 / sqrt 32)) = Phi(1) = 0.841345.
        let close_match = wdl(10, 4, 6);
        assert!(
            close(close_match.los(), 0.841_345, 1e-5),
            "{}",
            close_match.los()
        );
        assert!(close(t.los(), 1.0, 1e-6));
    }

    #[test]
    fn pentanomial_elo_and_llr_match_fastchess() {
        // fastchess reports (Elo, margin, nElo, LLR with [0, 10] normalised):
        // Ptnml [1, 11, 47, 25, 16]: Elo 77.71 +/- 33.03, nElo 117.50, LLR 1.71.
        let t = penta([1, 11, 47, 25, 16]);
        let e = t.elo().unwrap();
        assert!(e.pentanomial);
        assert!(close(e.elo, 77.71, 0.01), "{e:?}");
        assert!(close(e.margin, 33.03, 0.01), "{e:?}");
        assert!(close(e.nelo, 117.50, 0.01), "{e:?}");
        let sprt = Sprt::default();
        assert!(close(sprt.llr(&t), 1.71, 0.01), "{}", sprt.llr(&t));
        // Ptnml, then fastchess's Elo, margin and LLR.
        for (counts, elo, margin, llr) in [
            ([1, 24, 42, 25, 8], 26.11, 31.23, 0.60),
            ([1, 15, 25, 33, 26], 123.02, 40.58, 2.19),
        ] {
            let t = penta(counts);
            let e = t.elo().unwrap();
            assert!(
                close(e.elo, elo, 0.01) && close(e.margin, margin, 0.01),
                "{counts:?}: {e:?}"
            );
            assert!(
                close(sprt.llr(&t), llr, 0.01),
                "{counts:?}: {}",
                sprt.llr(&t)
            );
        }
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979, 1e-9) && close(hi, 2.944_438_979, 1e-9));
        assert_eq!(sprt.decision(3.0), Some(SprtDecision::H1));
        assert_eq!(sprt.decision(-3.0), Some(SprtDecision::H0));
        assert_eq!(sprt.decision(0.0), None);
        // A long run of wins is decided for H1, of losses for H0.
        let strong = penta([5, 10, 40, 60, 85]);
        assert_eq!(sprt.decision(sprt.llr(&strong)), Some(SprtDecision::H1));
        let weak = penta([85, 60, 40, 10, 5]);
        assert_eq!(sprt.decision(sprt.llr(&weak)), Some(SprtDecision::H0));
    }

    #[test]
    fn logistic_llr_near_the_normal_approximation() {
        // For many games the exact GSPRT approaches the normal approximation
        // 0.5 N ln(var0 / var1), variances taken about s0 and s1.
        let t = wdl(6000, 2000, 4000);
        let sprt: Sprt = "elo0=0,elo1=20,model=logistic".parse().unwrap();
        let (s0, s1) = (0.5, elo_to_score(20.0));
        let var = |s: f64| 0.5 * (1.0 - s).powi(2) + (0.5 - s).powi(2) / 6.0 + s * s / 3.0;
        let approx = 0.5 * 12000.0 * (var(s0) / var(s1)).ln();
        let exact = sprt.llr(&t);
        assert!(
            (exact - approx).abs() < 0.02 * approx.abs(),
            "{exact} vs {approx}"
        );
        // The MLE keeps the mean it was asked for.
        let p = mle_with_mean(&[0.0, 0.5, 1.0], &[0.3, 0.2, 0.5], 0.55).unwrap();
        assert!(close(p.iter().sum::<f64>(), 1.0, 1e-9));
        assert!(close(0.5 * p[1] + p[2], 0.55, 1e-9));
    }

    #[test]
    fn sprt_rejects_bad_parameters() {
        assert!("elo0=10 elo1=0".parse::<Sprt>().is_err());
        assert!("alpha=0".parse::<Sprt>().is_err());
        assert!("elo0=x".parse::<Sprt>().is_err());
        assert!("gamma=1".parse::<Sprt>().is_err());
        assert!("model=bayes".parse::<Sprt>().is_err());
    }

    #[test]
    fn empty_tally_is_neutral() {
        let t = Tally::default();
        assert_eq!(t.score(), 0.5);
        assert!(t.elo().is_none());
        assert_eq!(t.los(), 0.5);
        assert_eq!(Sprt::default().llr(&t), 0.0);
    }

    #[test]
    fn no_interval_from_one_sample_or_no_spread() {
        let mut one = Tally::default();
        one.add_game(1.0);
        one.add_game(0.0);
        one.add_pair(1.0);
        assert!(one.elo().unwrap().margin.is_nan());
        let all_draws = wdl(0, 6, 0);
        assert!(all_draws.elo().unwrap().margin.is_nan());
    }

    #[test]
    fn an_unfinished_pair_is_left_out() {
        let mut t = penta([1, 2, 3, 2, 1]);
        let before = t.elo().unwrap();
        t.add_game(1.0); // the first game of a new pair
        let after = t.elo().unwrap();
        assert!(after.pentanomial);
        assert_eq!(before, after);
        assert_eq!(
            Sprt::default().llr(&t),
            Sprt::default().llr(&penta([1, 2, 3, 2, 1]))
        );
    }
}
