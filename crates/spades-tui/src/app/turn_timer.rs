//! The turn timer of a table on a server, as the player sees it: a
//! countdown once the decision asked of them has little time left, and a
//! line saying what a bot did for them when the time ran out, held long
//! enough to be read whatever else the table says meanwhile.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use crate::engine::{Action, Seat};
use crate::protocol::timer::TimedOut;

use super::super::hand::faces;
use super::super::link::TableLink;
use super::super::theme::Theme;
use super::App;

/// The countdown shows from this much time left: sooner, it would only
/// hurry a player who has time.
pub const COUNTDOWN_FROM: Duration = Duration::from_secs(15);

/// How long the line saying what a bot did stays on top of the notices
/// that follow it (a wait, a chat line): long enough to be read.
pub const NOTE_HELD: Duration = Duration::from_secs(10);

/// What the turn timer has to say: the line of what a bot did, and until
/// when it is held.
#[derive(Debug, Default)]
pub(super) struct TimerNote {
    note: Option<(String, Instant)>,
}

impl App {
    /// Whole seconds left (rounded up) before a bot of the table decides
    /// for the player, once `COUNTDOWN_FROM` or less is left.
    pub fn countdown(&self) -> Option<u64> {
        let deadline = match &self.table {
            TableLink::Remote(remote) => remote.deadline()?,
            TableLink::Local(_) => return None,
        };
        let left = deadline.saturating_duration_since(self.now);
        (left <= COUNTDOWN_FROM).then(|| left.as_millis().div_ceil(1000) as u64)
    }

    /// The line saying what a bot did for the player, while it is held.
    pub fn timer_note(&self) -> Option<&str> {
        match &self.timer_note.note {
            Some((note, until)) if self.now < *until => Some(note),
            _ => None,
        }
    }

    /// The notice line as shown: the timer's note on top while it is
    /// held, then the notice if it says something else.
    pub fn shown_notice(&self) -> Option<Cow<'_, str>> {
        match (self.timer_note(), self.notice()) {
            (Some(note), Some(notice)) if notice != note => {
                Some(Cow::Owned(format!("{note}\n{notice}")))
            }
            (Some(note), _) => Some(Cow::Borrowed(note)),
            (None, notice) => notice.map(Cow::Borrowed),
        }
    }

    /// Takes the table's word that a bot acted for the player: the line
    /// is the notice (it stays, as a refusal does, until the player acts)
    /// and is held over any other for `NOTE_HELD`.
    pub(super) fn hear_timed_out(&mut self) {
        let Some(timed_out) = self.table.remote().and_then(|r| r.take_timed_out()) else {
            return;
        };
        let note = said(&timed_out, self.you, &self.theme);
        self.notice.stays(note.clone());
        self.timer_note.note = Some((note, self.now + NOTE_HELD));
    }
}

/// What a bot did for the player in `you`, in words.
fn said(timed_out: &TimedOut, you: Seat, theme: &Theme) -> String {
    let did = match timed_out.action {
        Action::Play(card) if timed_out.seat != you => {
            format!("played {} from the dummy", theme.card(card))
        }
        Action::Play(card) => format!("played {}", theme.card(card)),
        Action::Bid(bid) => format!("bid {bid}"),
        Action::Exchange(cards) => format!("passed {}", faces(cards, theme)),
        Action::Look => "looked at your cards".to_string(),
    };
    format!("Time ran out: a bot {did} for you.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bid, Decision};

    #[test]
    fn the_note_says_what_the_bot_did() {
        let theme = Theme::PLAIN;
        let you = Seat::new(2);
        let note = |seat, decision, action| {
            said(
                &TimedOut {
                    seat,
                    decision,
                    action,
                },
                you,
                &theme,
            )
        };
        let card = "7D".parse().unwrap();
        assert_eq!(
            note(you, Decision::Play, Action::Play(card)),
            format!("Time ran out: a bot played {} for you.", theme.card(card))
        );
        assert_eq!(
            note(Seat::new(3), Decision::Play, Action::Play(card)),
            format!(
                "Time ran out: a bot played {} from the dummy for you.",
                theme.card(card)
            )
        );
        assert_eq!(
            note(you, Decision::Bid, Action::Bid(Bid::Nil)),
            "Time ran out: a bot bid nil for you."
        );
        assert_eq!(
            note(you, Decision::BlindNil, Action::Look),
            "Time ran out: a bot looked at your cards for you."
        );
        let cards = ["2C", "3C"].iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(
            note(you, Decision::Exchange, Action::Exchange(cards)),
            format!(
                "Time ran out: a bot passed {} for you.",
                faces(cards, &theme)
            )
        );
    }
}
