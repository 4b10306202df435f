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
    SurelyMore { by: i32 },
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
    Some(match weighing.chosen {
        Action::Bid(Bid::BlindNil) => BlindNilWhy::SurelyMore {
            by: Standing::of(view).deficit,
        },
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
            BlindNilWhy::LookingWinsMore => f.write_str("Looking wins more games than a blind nil."),
            BlindNilWhy::NotSure => {
                f.write_str("Blind nil's edge is within the deals' noise: bid it only when sure.")
            }
            BlindNilWhy::NoPartner => f.write_str("No partner to cover a blind nil or to pass to."),
        }
    }
}
