//! What a click can act on, and where each was drawn in the last frame:
//! the view records it as it draws, the app reads it when a click comes.

use ratatui::layout::{Position, Rect};

use crate::engine::{Bid, Card};

/// The answers to the offer of a blind bid, made before looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferChoice {
    BlindNil,
    /// A blind number (`[blind_bid]`): the one `App::blind_number` shows.
    BlindNumber,
    Look,
}

/// Something on screen that a click acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Card(Card),
    Bid(Bid),
    Offer(OfferChoice),
    /// Close the summary, or pass the chosen cards.
    Continue,
    PlayAgain,
    /// The game just played, analysed (`a`) or replayed (`r`).
    ReviewGame,
    ReplayGame,
    Quit,
}

/// Where each clickable thing was drawn in the last frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hits {
    targets: Vec<(Rect, Target)>,
    /// The frame had no room for the table: only a request to enlarge it.
    too_small: bool,
    /// How far down the window on screen can scroll, when it scrolls.
    pub(super) scroll_limit: Option<usize>,
}

impl Hits {
    pub fn add(&mut self, area: Rect, target: Target) {
        self.targets.push((area, target));
    }

    /// The window drawn can scroll down by `limit` lines at most.
    pub fn scrolls(&mut self, limit: usize) {
        self.scroll_limit = Some(limit);
    }

    /// A frame too small for the table: nothing on it can be acted on.
    pub fn too_small() -> Hits {
        Hits {
            too_small: true,
            ..Hits::default()
        }
    }

    pub fn is_too_small(&self) -> bool {
        self.too_small
    }

    pub fn at(&self, column: u16, row: u16) -> Option<Target> {
        let pos = Position::new(column, row);
        // Later drawings lie on top.
        self.targets
            .iter()
            .rev()
            .find(|(r, _)| r.contains(pos))
            .map(|&(_, t)| t)
    }

    pub fn targets(&self) -> impl Iterator<Item = &(Rect, Target)> {
        self.targets.iter()
    }
}
