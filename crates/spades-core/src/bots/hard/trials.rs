//! What `hard`'s guessed deals said of each choice: the outcomes tallied
//! per choice, and the verdict (the usual choice unless another is surely
//! better).

use crate::engine::{PerSeat, PlayerView};
use crate::search::stakes::HandOutcome;

use super::Weighed;

/// How many standard errors better than the usual choice a searched one
/// must be to be made instead: the search overrules `normal`'s judgment
/// (which a partner can read) only when it is sure, and a choice no better
/// than the usual one is taken for better about once in 30,000 decisions.
pub(super) const SURE: f64 = 4.0;

/// How many standard errors better a searched card than `normal`'s must
/// be while an opponent's nil is live: the guessed deals weigh where the
/// nil is caught better than the hunt's rough counts. A card that spoils
/// the hunt (`nil::spoils_hunt`: the low card kept to lead into the nil
/// spent, a rescue, a lead into the cover's ruff) is where the playouts'
/// habits are crude, so it still takes `SURE`.
pub(super) const SURE_HUNT: f64 = 2.0;

/// The least gain in the chance of winning the game (half a percentage
/// point) worth overruling the usual choice for: below it, a difference
/// the deals happened to show, or one too small to matter.
const LEAST_GAIN: f64 = 0.005;

/// Each choice's chance of winning on each guessed deal, side by side,
/// and what it came to in the hand's own terms.
pub(super) struct Trials {
    pub(super) values: Vec<Vec<f64>>,
    tallies: Vec<Tally>,
}

/// One choice's hands in the player's terms, summed over the deals.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    points: f64,
    bags: f64,
    tricks: f64,
    contracts: u32,
    made: u32,
    nils: u32,
    nils_made: u32,
    rivals: u32,
    rivals_set: u32,
}

impl Tally {
    pub(super) fn add(&mut self, other: Tally) {
        self.points += other.points;
        self.bags += other.bags;
        self.tricks += other.tricks;
        self.contracts += other.contracts;
        self.made += other.made;
        self.nils += other.nils;
        self.nils_made += other.nils_made;
        self.rivals += other.rivals;
        self.rivals_set += other.rivals_set;
    }
}

impl Trials {
    pub(super) fn new(choices: usize) -> Trials {
        Trials {
            values: vec![Vec::new(); choices],
            tallies: vec![Tally::default(); choices],
        }
    }

    /// Adds another run's deals after these.
    pub(super) fn extend(&mut self, other: Trials) {
        for (mine, theirs) in self.values.iter_mut().zip(other.values) {
            mine.extend(theirs);
        }
        for (mine, theirs) in self.tallies.iter_mut().zip(other.tallies) {
            mine.add(theirs);
        }
    }

    /// Choice `k`'s hand on one deal, played out to `tricks` and scored
    /// as `outcome`, for the seat's `side`.
    pub(super) fn record(
        &mut self,
        k: usize,
        view: &PlayerView,
        tricks: &PerSeat<u8>,
        outcome: &HandOutcome,
    ) {
        let side = view.side();
        self.values[k].push(f64::from(outcome.win[side]));
        let t = &mut self.tallies[k];
        let mine = &outcome.sides[side];
        t.points += f64::from(mine.points);
        t.bags += f64::from(mine.bags_added);
        t.tricks += f64::from(view.teams().side_tricks(side, tricks));
        if let Some(c) = mine.contract {
            t.contracts += 1;
            t.made += u32::from(c.made());
        }
        for nil in mine.nils.iter().flatten() {
            t.nils += 1;
            t.nils_made += u32::from(nil.points > 0);
        }
        for rival in view.mode().each_side().filter(|&s| s != side) {
            if let Some(c) = outcome.sides[rival].contract {
                t.rivals += 1;
                t.rivals_set += u32::from(!c.made());
            }
        }
    }

    /// What choice `k` came to, for a hint.
    pub(super) fn weighed<A: Copy>(&self, k: usize, choice: A) -> Weighed<A> {
        let t = &self.tallies[k];
        let n = self.values[k].len().max(1) as f64;
        let share = |x: u32, of: u32| (of > 0).then(|| f64::from(x) / f64::from(of));
        Weighed {
            choice,
            win: self.mean(k),
            points: t.points / n,
            bags: t.bags / n,
            tricks: t.tricks / n,
            contract: share(t.made, t.contracts),
            nil: share(t.nils_made, t.nils),
            set: share(t.rivals_set, t.rivals),
        }
    }

    /// Every choice weighed, best first.
    pub(super) fn ranked<A: Copy>(&self, choices: &[A]) -> Vec<Weighed<A>> {
        let mut all: Vec<Weighed<A>> = choices
            .iter()
            .enumerate()
            .map(|(k, &c)| self.weighed(k, c))
            .collect();
        all.sort_by(|a, b| b.win.total_cmp(&a.win));
        all
    }

    pub(super) fn mean(&self, k: usize) -> f64 {
        let v = &self.values[k];
        v.iter().sum::<f64>() / v.len().max(1) as f64
    }

    /// The best choice by average, the earliest on a tie.
    pub(super) fn best(&self) -> usize {
        let mut best = 0;
        for k in 1..self.values.len() {
            if self.mean(k) > self.mean(best) {
                best = k;
            }
        }
        best
    }

    /// Is `better` surely better than `usual`, deal for deal?
    pub(super) fn surely_better(&self, better: usize, usual: usize) -> bool {
        self.better_by(better, usual, SURE)
    }

    /// Is `better` better than `usual` by `sure` standard errors, deal for
    /// deal, and by at least `LEAST_GAIN`?
    fn better_by(&self, better: usize, usual: usize, sure: f64) -> bool {
        let diffs: Vec<f64> = self.values[better]
            .iter()
            .zip(&self.values[usual])
            .map(|(a, b)| a - b)
            .collect();
        let n = diffs.len() as f64;
        if n < 2.0 {
            return false;
        }
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
        mean > sure * (var / n).sqrt() && mean > LEAST_GAIN
    }

    /// `chosen`, unless it is a choice a partner resents and the search is
    /// not sure it beats the best choice that is not: then that one. The
    /// near-tie margin is the one `verdict` asks before overruling
    /// `normal` (`SURE` standard errors of the deal-for-deal differences
    /// and `LEAST_GAIN`): below it the guessed deals cannot tell the two
    /// apart, and a partner can read only the play it expects.
    pub(super) fn spare(&self, chosen: usize, resented: impl Fn(usize) -> bool) -> usize {
        if !resented(chosen) {
            return chosen;
        }
        let fairest = (0..self.values.len())
            .filter(|&k| !resented(k))
            // The best by average; of equals the first, the lowest card.
            .max_by(|&a, &b| self.mean(a).total_cmp(&self.mean(b)).then(b.cmp(&a)));
        match fairest {
            Some(k) if !self.surely_better(chosen, k) => k,
            _ => chosen,
        }
    }

    /// `chosen`, unless `barred(chosen)`: then the best by average of the
    /// choices not barred (of equals the first, the lowest card), however
    /// sure the search is. For a play no guessed deal can justify: the
    /// playouts and the exact search of the last tricks see the cards
    /// dealt, and defend against a nil better than a table can.
    pub(super) fn unbarred(&self, chosen: usize, barred: impl Fn(usize) -> bool) -> usize {
        if !barred(chosen) {
            return chosen;
        }
        (0..self.values.len())
            .filter(|&k| !barred(k))
            .max_by(|&a, &b| self.mean(a).total_cmp(&self.mean(b)).then(b.cmp(&a)))
            .unwrap_or(chosen)
    }

    /// The card to play while hunting an opponent's nil: the best by
    /// average of the choices that beat `usual` by their own `sure(k)`
    /// standard errors, or `usual` when none does. As in `verdict`, with a
    /// partner a usual choice that never failed the side is not traded for
    /// one that did.
    pub(super) fn hunt_verdict(
        &self,
        usual: usize,
        view: &PlayerView,
        sure: impl Fn(usize) -> f64,
    ) -> usize {
        let guarded = view.mode().has_partners();
        let best = (0..self.values.len())
            .filter(|&k| k != usual && self.better_by(k, usual, sure(k)))
            .max_by(|&a, &b| self.mean(a).total_cmp(&self.mean(b)).then(b.cmp(&a)));
        match best {
            Some(k) if guarded && self.never_failed(usual) && !self.never_failed(k) => usual,
            Some(k) => k,
            None => usual,
        }
    }

    /// Did choice `k` make every contract and nil of the side it met?
    pub(super) fn never_failed(&self, k: usize) -> bool {
        let t = &self.tallies[k];
        t.made == t.contracts && t.nils_made == t.nils
    }

    /// The searched choice, or the usual one unless the search is sure.
    /// With a partner, a usual choice that made the side's contract (and
    /// nils) on every guessed deal is never traded for one that did not,
    /// whatever bags it would push or sets it would make: a partner does
    /// not forgive a sure contract lost. (Alone, the search's judgment
    /// stands: in cutthroat this guard cost a ninth of hard's wins.)
    pub(super) fn verdict(&self, usual: Option<usize>, view: &PlayerView) -> usize {
        let best = self.best();
        let guarded = view.mode().has_partners();
        match usual {
            Some(usual) if !self.surely_better(best, usual) => usual,
            Some(usual) if guarded && self.never_failed(usual) && !self.never_failed(best) => usual,
            _ => best,
        }
    }
}
