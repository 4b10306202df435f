//! The table: the cards played to the trick, each seat's name, bid and
//! tricks, a hand laid face up (the dummy's), and how far the hand has
//! come.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::{CardSet, Phase, PlayerView, PublicPlay, PublicView, Seat, TrickDone};
use crate::naming::{Names, Place, place};

use super::super::app::App;
use super::super::hand::HAND_SUITS;
use super::super::layout::seat_spot;
use super::super::standing::{exchange_name, seat_bid, spades_state};
use super::super::text::sentence_case;
use super::super::theme::Theme;
use super::super::widgets::{Standing, centered_line, seat_name, suit_spans, table_card};

pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let held = app.held_trick().map(|h| h.trick);
    let trick_cards = held.map_or(view.play.trick, |t| t.cards);
    let public = view.public();
    if view.phase == Phase::Playing || held.is_some() {
        progress(&public, held.is_some(), area, buf, theme);
    }
    for (seat, &card) in trick_cards.pairs() {
        let spot = seat_spot(area, place(view.mode(), seat, view.seat));
        if let Some(card) = card {
            let standing = match held {
                Some(t) if t.winner == seat => Standing::Won,
                Some(_) => Standing::Played,
                None => standing(&view.play, seat),
            };
            table_card(buf, spot.card, card, theme, standing);
        }
        seat_label(app, view, seat, held, spot.label, buf);
        if let Some(cards) = view.seen_hand(seat).filter(|_| seat != view.seat) {
            shown_hand(cards, spot.label, area, buf, theme);
        }
    }
    phase_note(&public, held.is_some(), area, buf, theme);
}

/// A card of the trick being played: starred while it wins, once a
/// second card is down, so the player sees whether the partner's card
/// holds without telling colours apart.
pub(crate) fn standing(play: &PublicPlay, seat: Seat) -> Standing {
    let contested = play.trick.iter().flatten().count() > 1;
    if contested && play.winning == Some(seat) {
        Standing::Winning
    } else {
        Standing::Played
    }
}

/// The corners: whether spades are broken, and which trick this is.
pub(crate) fn progress(view: &PublicView, held: bool, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let broken = sentence_case(spades_state(
        view.play.spades_broken,
        view.rules.play.spades_lead,
    ));
    buf.set_string(area.x + 1, area.y, broken, theme.dim());
    // A finished trick still on the table is the one counted.
    let done = view.play.tricks_done + usize::from(!held);
    let trick_no = done.clamp(1, view.mode().hand_size());
    let count = format!("Trick {trick_no} of {}", view.mode().hand_size());
    let x = area.right().saturating_sub(count.len() as u16 + 1);
    buf.set_string(x, area.y, count, theme.dim());
}

/// A seat's name, marked when it is its turn or it took the trick on the
/// table, with its bid and tricks: on one line at the top and bottom, two
/// at the sides.
fn seat_label(
    app: &App,
    view: &PlayerView,
    seat: Seat,
    held: Option<TrickDone>,
    label: Rect,
    buf: &mut Buffer,
) {
    let theme = app.theme();
    let turn = held.is_none() && app.waiting_for() == Some(seat);
    let won = held.is_some_and(|t| t.winner == seat);
    let stats = seat_stats(app.names(), app.theme(), &view.public(), seat);
    let shown = if won {
        format!("{} it", app.names().takes(seat))
    } else {
        app.names().seat(seat).to_string()
    };
    let name = seat_name(shown, turn, won, theme);
    put_label(place(view.mode(), seat, view.seat), name, stats, label, buf);
}

/// A seat's name and its stats at its `place`: on one line at the top
/// and bottom, two at the sides.
pub(crate) fn put_label(
    place: Place,
    name: Vec<Span<'static>>,
    stats: String,
    label: Rect,
    buf: &mut Buffer,
) {
    match place {
        Place::Top | Place::Bottom => {
            let mut line = name;
            line.push(Span::raw("  "));
            line.push(Span::raw(stats));
            centered_line(buf, label, label.y, Line::from(line));
        }
        Place::Left | Place::Right => {
            Paragraph::new(vec![Line::from(name), Line::from(format!("  {stats}"))])
                .render(label, buf);
        }
    }
}

/// "bid 3, took 2"; the dummy plays for its declarer and bids nothing.
pub(crate) fn seat_stats(names: &Names, theme: &Theme, view: &PublicView, seat: Seat) -> String {
    let bid = match view.teams().declarer() {
        // The dummy bids nothing: it plays for its declarer.
        Some(declarer) if !view.mode().is_player(seat) => {
            format!("with {}", names.seat(declarer))
        }
        None if !view.mode().is_player(seat) => "face down".to_string(),
        _ => seat_bid(view.bids[seat]),
    };
    format!("{bid}{}took {}", theme.sep(), view.play.tricks_won[seat])
}

/// The phase, in the middle of the table while there are no cards on it.
pub(crate) fn phase_note(
    view: &PublicView,
    held: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let middle = Rect::new(area.x, area.y + area.height / 2, area.width, 1);
    let phase_note = match view.phase {
        Phase::Bidding if !held => "Bidding".to_string(),
        Phase::Exchange => sentence_case(exchange_name(&view.bids)),
        _ => String::new(),
    };
    if !phase_note.is_empty() {
        centered_line(buf, middle, middle.y, Line::styled(phase_note, theme.dim()));
    }
}

/// A hand laid face up beside its seat's name (the dummy's), a suit a
/// line; a long suit closes up its ranks to fit.
fn shown_hand(cards: CardSet, label: Rect, table: Rect, buf: &mut Buffer, theme: &Theme) {
    for (i, suit) in HAND_SUITS.into_iter().enumerate() {
        let y = label.bottom() + i as u16;
        if y >= table.bottom().saturating_sub(1) {
            break;
        }
        let mut spans = suit_spans(cards, suit, CardSet::EMPTY, theme);
        if Line::from(spans.clone()).width() > label.width as usize {
            // Keep the sign's space, drop the ones between ranks.
            let sign = spans.remove(0);
            spans.retain(|s| s.content != " ");
            spans.insert(0, Span::raw(" "));
            spans.insert(0, sign);
        }
        buf.set_line(label.x + 1, y, &Line::from(spans), label.width);
    }
}
