//! The parts of the table screen that each own their state, answer their
//! own keys and draw themselves: `App` routes a key to the part in focus
//! and does what the part asks for (send a chat line, make a bid, play a
//! card), since only `App` holds the link to the table.

pub mod aside;
pub mod bids;
pub mod blind_offer;
pub mod chat;
pub mod digits;
pub mod exchange;
pub mod hand;
pub mod hints;
pub mod memory;
pub mod windows;

use ratatui::layout::Rect;

use crate::engine::Decision;

/// One of the player's decisions, told apart from every other: the hand,
/// the cards played so far, and its kind.
pub type DecisionKey = (u32, u32, Decision);

/// Row `i` of the panel under the hand, inside its margins: where the
/// parts that ask for a decision draw their lines.
pub fn panel_row(inner: Rect, i: u16) -> Rect {
    Rect::new(inner.x + 1, inner.y + i, inner.width.saturating_sub(2), 1)
}
