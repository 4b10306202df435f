//! Where each part of the screen goes, from the terminal's size alone, so
//! drawing and click handling agree and both can be tested.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::naming::Place;

pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;
/// Bigger than this, the game sits in the middle rather than stretching.
const MAX_WIDTH: u16 = 110;
const MAX_HEIGHT: u16 = 32;

/// A card on the table: a box five cells wide and three tall.
const CARD_WIDTH: u16 = 5;
const CARD_HEIGHT: u16 = 3;

/// The parts of the playing screen, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Regions {
    pub score_bar: Rect,
    pub table: Rect,
    pub hand: Rect,
    pub panel: Rect,
    pub footer: Rect,
}

pub fn fits(area: Rect) -> bool {
    area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT
}

/// The playing screen's parts, or `None` when the terminal is too small.
pub fn regions(area: Rect) -> Option<Regions> {
    if !fits(area) {
        return None;
    }
    let area = area.centered(Constraint::Max(MAX_WIDTH), Constraint::Max(MAX_HEIGHT));
    let [score_bar, table, hand, panel, footer] = area.layout(&Layout::vertical([
        Constraint::Length(4),
        Constraint::Min(11),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(1),
    ]));
    Some(Regions {
        score_bar,
        table,
        hand,
        panel,
        footer,
    })
}

/// Where a seat's card and name go on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatSpot {
    pub card: Rect,
    /// The name and bid; two lines at the sides, one at top and bottom.
    pub label: Rect,
}

pub fn seat_spot(table: Rect, place: Place) -> SeatSpot {
    let center_x = table.x + table.width / 2;
    let card_x = center_x.saturating_sub(CARD_WIDTH / 2);
    let middle_y = table.y + (table.height.saturating_sub(CARD_HEIGHT)) / 2;
    // The side cards stand off the middle by two card widths or more, so
    // a wide table does not leave them huddled far from their names.
    let side_gap = (2 * CARD_WIDTH + 2).max(table.width / 7);
    let card = |x, y| Rect::new(x, y, CARD_WIDTH, CARD_HEIGHT);
    match place {
        Place::Top => SeatSpot {
            card: card(card_x, table.y + 1),
            label: Rect::new(table.x, table.y, table.width, 1),
        },
        Place::Bottom => SeatSpot {
            card: card(card_x, table.bottom().saturating_sub(CARD_HEIGHT + 1)),
            label: Rect::new(table.x, table.bottom().saturating_sub(1), table.width, 1),
        },
        Place::Left => {
            let x = card_x.saturating_sub(side_gap);
            SeatSpot {
                card: card(x, middle_y),
                label: Rect::new(table.x + 1, middle_y, x.saturating_sub(table.x + 3), 2),
            }
        }
        Place::Right => {
            let x = card_x + side_gap;
            let label_x = x + CARD_WIDTH + 2;
            SeatSpot {
                card: card(x, middle_y),
                label: Rect::new(
                    label_x,
                    middle_y,
                    table.right().saturating_sub(label_x + 1),
                    2,
                ),
            }
        }
    }
}

/// The hand's cards side by side, sharing their borders: each card's cell
/// is four columns wide (plus the closing border of the last).
pub fn hand_cells(hand: Rect, cards: usize) -> Vec<Rect> {
    let width = 4 * cards as u16 + 1;
    let x0 = hand.x + hand.width.saturating_sub(width) / 2;
    (0..cards as u16)
        .map(|i| Rect::new(x0 + 4 * i, hand.y, 5, hand.height))
        .collect()
}

/// A centred window of at most `width` x `height` inside `area`.
pub fn window(area: Rect, width: u16, height: u16) -> Rect {
    area.centered(
        Constraint::Length(width.min(area.width)),
        Constraint::Length(height.min(area.height)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_small_has_no_regions() {
        assert!(regions(Rect::new(0, 0, 79, 24)).is_none());
        assert!(regions(Rect::new(0, 0, 80, 23)).is_none());
        let r = regions(Rect::new(0, 0, 80, 24)).unwrap();
        assert_eq!(r.table.height, 11);
        assert_eq!(r.footer.bottom(), 24);
    }

    #[test]
    fn seats_do_not_overlap_at_the_smallest_size() {
        let r = regions(Rect::new(0, 0, 80, 24)).unwrap();
        let spots: Vec<SeatSpot> = [Place::Top, Place::Left, Place::Right, Place::Bottom]
            .into_iter()
            .map(|p| seat_spot(r.table, p))
            .collect();
        for (i, a) in spots.iter().enumerate() {
            assert!(r.table.contains(a.card.as_position()));
            for b in &spots[i + 1..] {
                assert!(!a.card.intersects(b.card), "{a:?} {b:?}");
                assert!(!a.label.intersects(b.card));
            }
        }
        assert!(spots[1].label.width >= 16, "room for a name at the left");
        assert!(spots[2].label.width >= 16, "room for a name at the right");
    }

    #[test]
    fn a_cutthroat_hand_fits_in_eighty_columns() {
        let r = regions(Rect::new(0, 0, 80, 24)).unwrap();
        let cells = hand_cells(r.hand, 17);
        assert!(cells.last().unwrap().right() <= 80);
        assert_eq!(cells[1].x - cells[0].x, 4);
    }
}
