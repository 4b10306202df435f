//! Small drawing pieces, the table's and the replay's: a card on the
//! table, a seat's name, the hand as a strip of cards, a button, a framed
//! window, the request for a bigger terminal. Each records where it went when it can
//! be clicked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Widget};

use crate::engine::{Card, CardSet, Suit};

use super::hand::CARD_KEYS;
use super::hits::{Hits, Target};
use super::layout::{MIN_HEIGHT, MIN_WIDTH, hand_cells};
use super::theme::Theme;

/// What a card on the table's box says about it, by its corners and
/// edges as well as its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Played, and no more.
    Played,
    /// Winning the trick being played, so far: starred corners.
    Winning,
    /// Took the trick just finished: a doubled box.
    Won,
}

/// A card lying on the table, its face in the middle of a small box.
pub fn table_card(buf: &mut Buffer, area: Rect, card: Card, theme: &Theme, standing: Standing) {
    let (set, edge) = match standing {
        Standing::Played => (theme.border(), theme.edge()),
        Standing::Winning => (theme.winning_border(), theme.accent()),
        Standing::Won => (theme.winner_border(), theme.accent()),
    };
    let block = Block::bordered().border_set(set).border_style(edge);
    let inner = block.inner(area);
    block.render(area, buf);
    let face = theme.card(card);
    let style = theme.card_colour(card);
    buf.set_style(inner, style);
    let x = inner.x + inner.width.saturating_sub(face.chars().count() as u16) / 2;
    buf.set_stringn(x, inner.y, &face, inner.width as usize, style);
}

/// How one card of the hand is shown.
pub struct HandCard {
    pub card: Option<Card>,
    pub playable: bool,
    pub cursor: bool,
    /// Drawn as if lifted, its top edge doubled: chosen to pass in the
    /// exchange, or one that may be played on the player's turn to play,
    /// so that shows by a sign as well as by the faded faces of the rest.
    pub lifted: bool,
    /// Passed by the partner in the exchange: underlined until the first
    /// trick is over.
    pub received: bool,
    /// Shows the key that picks it.
    pub keyed: bool,
}

/// The player's hand: a row of keys above cards that share their borders.
/// `cards` with no card are face down.
pub fn hand_strip(
    buf: &mut Buffer,
    area: Rect,
    cards: &[HandCard],
    theme: &Theme,
    hits: &mut Hits,
) {
    if cards.is_empty() || area.height < 4 {
        return;
    }
    let cells = hand_cells(area, cards.len());
    let (h, v, tl, tr, bl, br, tee_top, tee_bottom, lifted) = if theme.ascii {
        ("-", "|", "+", "+", "+", "+", "+", "+", "=")
    } else {
        ("─", "│", "┌", "┐", "└", "┘", "┬", "┴", "═")
    };
    let last = cards.len() - 1;
    for (i, (hc, cell)) in cards.iter().zip(&cells).enumerate() {
        let (x, y) = (cell.x, cell.y);
        let key = CARD_KEYS.get(i).map_or(' ', |&k| char::from(k));
        if hc.card.is_some() && hc.keyed {
            let label = if hc.cursor {
                format!("[{key}]")
            } else {
                format!(" {key} ")
            };
            let style = if hc.cursor {
                theme.accent()
            } else {
                theme.dim()
            };
            buf.set_string(x + 1, y, label, style);
        }
        let edge = theme.edge();
        let (top_edge, top_style) = if hc.lifted {
            (lifted, edge.patch(theme.accent()))
        } else {
            (h, edge)
        };
        buf.set_string(x, y + 1, if i == 0 { tl } else { tee_top }, edge);
        buf.set_string(x + 1, y + 1, top_edge.repeat(3), top_style);
        buf.set_string(x, y + 2, v, edge);
        buf.set_string(x, y + 3, if i == 0 { bl } else { tee_bottom }, edge);
        let bottom_edge = if hc.received { lifted } else { h };
        buf.set_string(x + 1, y + 3, bottom_edge.repeat(3), edge);
        if i == last {
            buf.set_string(x + 4, y + 1, tr, edge);
            buf.set_string(x + 4, y + 2, v, edge);
            buf.set_string(x + 4, y + 3, br, edge);
        }
        match hc.card {
            Some(card) => {
                let mut style = theme.card_style(card, hc.playable);
                if hc.cursor {
                    style = style.patch(theme.cursor());
                }
                buf.set_string(x + 1, y + 2, format!("{:<3}", theme.card(card)), style);
                hits.add(Rect::new(x, y, 5, 4), Target::Card(card));
            }
            None => {
                let back = if theme.ascii { "###" } else { "░░░" };
                buf.set_string(x + 1, y + 2, back, theme.dim());
            }
        }
    }
}

/// A clickable label, `[ text ]`; the focused one reads `>[ text ]<` and
/// is reversed, so it shows without colour too.
#[allow(clippy::too_many_arguments)]
pub fn button(
    buf: &mut Buffer,
    x: u16,
    y: u16,
    text: &str,
    focused: bool,
    theme: &Theme,
    target: Target,
    hits: &mut Hits,
) -> u16 {
    let (shown, style) = if focused {
        (format!(">[ {text} ]<"), theme.cursor())
    } else {
        (format!(" [ {text} ] "), Style::new())
    };
    let width = shown.chars().count() as u16;
    buf.set_string(x, y, &shown, style);
    hits.add(Rect::new(x, y, width, 1), target);
    width
}

/// A window over what is under it: cleared, bordered, titled; returns the
/// room inside the border.
pub fn framed(title: &str, area: Rect, buf: &mut Buffer, theme: &Theme) -> Rect {
    Clear.render(area, buf);
    buf.set_style(area, theme.base());
    let block = Block::bordered()
        .border_set(theme.border())
        .border_style(theme.edge())
        .title(Span::styled(format!(" {title} "), theme.accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// A seat's name at the table, after the turn marker when it is the seat's
/// turn; in the accent when it is its turn or it is `lit` (it took the
/// trick), else bold.
pub fn seat_name(name: String, turn: bool, lit: bool, theme: &Theme) -> Vec<Span<'static>> {
    let marker = if turn { theme.turn_marker() } else { " " };
    let style = if turn || lit {
        theme.accent()
    } else {
        Style::new().add_modifier(Modifier::BOLD)
    };
    vec![
        Span::styled(marker, theme.accent()),
        Span::raw(" "),
        Span::styled(name, style),
    ]
}

/// The room inside a window's border, less a column at each side.
pub fn padded(inner: Rect) -> Rect {
    Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    )
}

/// Asks for a bigger terminal, in the middle of `area`; `leave` says which
/// key leaves.
pub fn too_small(area: Rect, buf: &mut Buffer, theme: &Theme, leave: &str) {
    let lines = [
        Line::styled(
            format!("Make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            theme.accent(),
        ),
        Line::from(format!("(it is {}x{} now)", area.width, area.height)),
        Line::from(leave),
    ];
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.into_iter().enumerate() {
        let y = top + i as u16;
        if y < area.bottom() {
            centered_line(buf, area, y, line);
        }
    }
}

/// A line of text centred in `area` at row `y`.
pub fn centered_line(buf: &mut Buffer, area: Rect, y: u16, line: Line) {
    let width = line.width() as u16;
    let x = area.x + area.width.saturating_sub(width) / 2;
    buf.set_line(x, y, &line, area.width);
}

/// One suit of a hand: the suit's sign and its ranks, highest first; a
/// dash for a void. Cards just passed in the exchange are underlined.
pub fn suit_spans(
    cards: CardSet,
    suit: Suit,
    received: CardSet,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let style = theme.suit_style(suit);
    let mut spans = vec![Span::styled(theme.suit(suit).to_string(), style)];
    let held = cards.suit(suit);
    if held.is_empty() {
        spans.push(Span::styled(" -", theme.dim()));
    }
    for card in held.iter().rev() {
        spans.push(Span::styled(" ", style));
        let face = theme.face_in_row(card);
        let style = if card.printed_suit() != Some(suit) {
            theme.card_colour(card)
        } else {
            style
        };
        let style = if received.contains(card) {
            style.add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
        } else {
            style
        };
        spans.push(Span::styled(face, style));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_void_is_a_dash_and_ranks_run_high_first() {
        let cards: CardSet = "AS TS 2S 3H".parse().unwrap();
        let text = |suit| {
            suit_spans(cards, suit, CardSet::EMPTY, &Theme::PLAIN)
                .iter()
                .map(|s| s.content.to_string())
                .collect::<String>()
        };
        assert_eq!(text(Suit::Spades), "S A 10 2");
        assert_eq!(text(Suit::Hearts), "H 3");
        assert_eq!(text(Suit::Clubs), "C -");
    }
}
