//! The replay's table: every hand face up round it, each seat's name, bid
//! and tricks, the cards played to the trick, and (in cutthroat) the card
//! out of play.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::engine::{Card, Mode, Seat};
use crate::naming::{Place, place};

use super::super::hand::HAND_SUITS;
use super::super::standing::seat_bid;
use super::super::widgets::{centered_line, seat_name, suit_spans};
use super::Scene;

pub(super) fn draw(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let mode = scene.story.mode();
    for seat in mode.each_seat() {
        let place = place(mode, seat, scene.story.player.unwrap_or(Seat::new(0)));
        let won = scene.completed().is_some() && scene.step.winning == Some(seat);
        let label = seat_label(scene, seat, won);
        match place {
            Place::Top | Place::Bottom => hand_across(scene, seat, place, label, area, buf),
            Place::Left | Place::Right => hand_beside(scene, seat, place, label, area, buf),
        }
        if let Some(card) = scene.step.table[seat] {
            card_on_table(scene, card, place, won, area, buf);
        }
    }
    // Cutthroat has no seat at the top: the card out of play goes there.
    if mode == Mode::Cutthroat
        && let Some(out) = scene.hand.out.lowest()
    {
        let theme = scene.theme;
        let line = Line::from(vec![
            Span::styled("Out of play: ", theme.dim()),
            Span::styled(theme.card(out), theme.card_colour(out)),
        ]);
        centered_line(buf, area, area.y + 1, line);
    }
}

/// The middle of the table, where the trick is played.
fn middle(area: Rect) -> (u16, u16) {
    (area.x + area.width / 2, area.y + area.height / 2)
}

/// A seat's name, marked when it is next to act or took the trick just
/// completed, with its bid and tricks.
fn seat_label(scene: &Scene, seat: Seat, won: bool) -> Line<'static> {
    let theme = scene.theme;
    let step = scene.step;
    let sep = theme.sep();
    let next = step.next == Some(seat);
    let mut spans = seat_name(scene.names.seat(seat).to_string(), next, won, theme);
    spans.push(Span::raw(format!(
        "  {}{sep}took {}",
        seat_bid(step.bids[seat]),
        step.tricks_won[seat]
    )));
    Line::from(spans)
}

/// A seat at the top or bottom: its label at the edge, its hand on one
/// line inside it.
fn hand_across(scene: &Scene, seat: Seat, place: Place, label: Line, area: Rect, buf: &mut Buffer) {
    let cards = scene.step.held[seat];
    let received = scene.received(seat);
    let (label_y, hand_y) = if place == Place::Top {
        (area.y, area.y + 1)
    } else {
        (area.bottom() - 1, area.bottom() - 2)
    };
    centered_line(buf, area, label_y, label);
    let mut spans = Vec::new();
    for suit in HAND_SUITS {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.extend(suit_spans(cards, suit, received, scene.theme));
    }
    centered_line(buf, area, hand_y, Line::from(spans));
}

/// A seat at the left or right: its label above its hand, a suit a line.
fn hand_beside(scene: &Scene, seat: Seat, place: Place, label: Line, area: Rect, buf: &mut Buffer) {
    let cards = scene.step.held[seat];
    let received = scene.received(seat);
    let (cx, cy) = middle(area);
    // The side hands sit as far out as the right one can while still
    // holding a long suit, so the two mirror each other at any width.
    let x = match place {
        Place::Left => area.x + 1,
        _ => (cx + 14).max(area.right().saturating_sub(27)),
    };
    let width = if place == Place::Left {
        (cx - 13).saturating_sub(x)
    } else {
        area.right().saturating_sub(x + 1)
    };
    // The label's row has nothing else on it: a long one (a
    // blind nil, a long name) may reach toward the middle.
    let long = label.width() as u16;
    let (label_x, label_width) = if place == Place::Left {
        (x, cx.saturating_sub(x + 2))
    } else {
        let x = x.min(area.right().saturating_sub(long + 1)).max(cx + 2);
        (x, area.right().saturating_sub(x + 1))
    };
    buf.set_line(label_x, cy - 3, &label, label_width);
    for (i, suit) in HAND_SUITS.into_iter().enumerate() {
        let line = Line::from(suit_spans(cards, suit, received, scene.theme));
        buf.set_line(x + 2, cy - 2 + i as u16, &line, width.saturating_sub(2));
    }
}

/// The card a seat played to the trick, in front of it; the one that took
/// the trick just completed stands out.
fn card_on_table(scene: &Scene, card: Card, place: Place, won: bool, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let (cx, cy) = middle(area);
    let face = theme.card(card);
    let text = if won {
        format!("*{face}*")
    } else {
        format!("[{face}]")
    };
    let width = text.chars().count() as u16;
    let (x, y) = match place {
        Place::Top => (cx - width / 2, cy - 2),
        Place::Bottom => (cx - width / 2, cy + 2),
        Place::Left => (cx - 8 - width, cy),
        Place::Right => (cx + 8, cy),
    };
    let mut style = theme.card_colour(card).add_modifier(Modifier::BOLD);
    if won {
        style = style.add_modifier(Modifier::REVERSED);
    }
    buf.set_string(x, y, text, style);
}
