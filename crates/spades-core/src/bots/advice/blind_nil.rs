//! Why blind nil or looking: the blind-nil rule `hard` bids by (blind nil
//! where the guessed deals are sure it wins more games than looking), in
//! the game's words, from the figures the hint shows beside it.

use std::fmt;

use crate::engine::{Action, Bid, PlayerView};

use super::super::hard::{Weighed, Weighing};
use super::super::normal::Standing;

/// Why blind nil or looking.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BlindNilWhy {
    /// Blind nil: the deals are sure it wins more games than looking; the
    /// side trails by `by` (0 or less when it does not).
    SurelyMore {
        /// How far the side trails (0 or less when it does not).
        by: i32,
    },
    /// Looking: the side is level or ahead, and blind nil is a gamble
    /// for a side that trails.
    NotBehind,
    /// Looking: it wins more games than a blind nil.
    LookingWinsMore,
    /// Looking: a blind nil did a little better on these deals, but not
    /// surely, and it is bid only when sure.
    NotSure,
    /// Looking, nothing weighed: no partner to cover a blind nil or to
    /// pass to.
    NoPartner,
}

/// Why the advised answer to the blind-nil offer; `None` when nothing was
/// weighed and there is a partner (nothing to tell the choices apart by).
pub(super) fn blind_nil_why(view: &PlayerView, weighing: &Weighing<Action>) -> Option<BlindNilWhy> {
    let figure = |choice| weighing.ranked.iter().find(|w| w.choice == choice);
    let blind = figure(Action::Bid(Bid::BlindNil));
    let look = figure(Action::Look);
    let (Some(blind), Some(look)) = (blind, look) else {
        return (!view.mode().has_partners()).then_some(BlindNilWhy::NoPartner);
    };
    let by = Standing::of(view).deficit;
    Some(match weighing.chosen {
        Action::Bid(Bid::BlindNil) => BlindNilWhy::SurelyMore { by },
        _ if by <= 0 => BlindNilWhy::NotBehind,
        _ if better(blind, look) => BlindNilWhy::NotSure,
        _ => BlindNilWhy::LookingWinsMore,
    })
}

/// Does `a` win more games than `b` as the hint shows them (whole
/// percents)? A tie shown is no gain.
fn better(a: &Weighed<Action>, b: &Weighed<Action>) -> bool {
    (100.0 * a.win).round() > (100.0 * b.win).round()
}

impl fmt::Display for BlindNilWhy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BlindNilWhy::SurelyMore { by } if by > 0 => write!(
                f,
                "You trail by {by}: a blind nil, with your partner's cover, surely wins more."
            ),
            BlindNilWhy::SurelyMore { .. } => {
                f.write_str("A blind nil, with your partner's cover, surely wins more.")
            }
            BlindNilWhy::NotBehind => {
                f.write_str("You are not behind: blind nil is a gamble for a side that trails.")
            }
            BlindNilWhy::LookingWinsMore => {
                f.write_str("Looking wins more games than a blind nil.")
            }
            BlindNilWhy::NotSure => {
                f.write_str("Blind nil's edge is within the deals' noise: bid it only when sure.")
            }
            BlindNilWhy::NoPartner => f.write_str("No partner to cover a blind nil or to pass to."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::deficit;
    use crate::engine::{Auction, Game, Mode, PerSide, Rules};

    fn weighed(choice: Action, win: f64) -> Weighed<Action> {
        Weighed {
            choice,
            win,
            points: 0.0,
            bags: 0.0,
            tricks: 0.0,
            contract: None,
            nil: None,
            set: None,
        }
    }

    /// The offer at the first deal of a game where blind nil may be bid
    /// level, the seat's side `behind` the other, and the reason for
    /// `chosen` with these figures for each choice.
    fn why(behind: i32, chosen: Action, blind: f64, look: f64) -> Option<BlindNilWhy> {
        let rules = Rules::classic(Mode::Partnership)
            .with(|r| r.blind_nil.min_deficit = 0)
            .unwrap();
        let game = Game::new(rules, 7);
        let mut view = game.view(game.to_act().unwrap().seat);
        let mode = view.mode();
        let other = mode.each_side().find(|&s| s != view.side()).unwrap();
        view.totals[other].score += behind;
        let scores = view.totals.map(|t| t.score);
        let deficits = PerSide::from_fn(mode, |side| deficit(mode, &scores, side));
        view.auction = Auction::new(view.rules, view.dealer, deficits);
        let weighing = Weighing {
            chosen,
            ranked: vec![
                weighed(Action::Bid(Bid::BlindNil), blind),
                weighed(Action::Look, look),
            ],
        };
        blind_nil_why(&view, &weighing)
    }

    /// Each reason says what the rule did: blind nil only when sure, so
    /// looking with a higher blind-nil figure is put down to the noise,
    /// and never to the side's standing.
    #[test]
    fn the_reason_follows_the_rule() {
        let blind = Action::Bid(Bid::BlindNil);
        assert_eq!(
            why(120, blind, 0.4, 0.25),
            Some(BlindNilWhy::SurelyMore { by: 120 })
        );
        // Level: looking, as the rule gambles only for a side that trails.
        assert_eq!(
            why(0, Action::Look, 0.40, 0.25),
            Some(BlindNilWhy::NotBehind)
        );
        assert_eq!(
            why(120, Action::Look, 0.40, 0.25),
            Some(BlindNilWhy::NotSure)
        );
        assert_eq!(
            why(120, Action::Look, 0.25, 0.40),
            Some(BlindNilWhy::LookingWinsMore)
        );
        // Shown alike (both 25%): looking is not said to be the noise.
        assert_eq!(
            why(120, Action::Look, 0.251, 0.249),
            Some(BlindNilWhy::LookingWinsMore)
        );
        for why in [
            BlindNilWhy::SurelyMore { by: 480 },
            BlindNilWhy::SurelyMore { by: 0 },
            BlindNilWhy::NotBehind,
            BlindNilWhy::LookingWinsMore,
            BlindNilWhy::NotSure,
            BlindNilWhy::NoPartner,
        ] {
            let words = why.to_string();
            assert!(words.chars().count() <= 76, "{words}");
        }
    }
}
