//! The panel under the hand: what the player is asked to decide and how,
//! the bids as buttons, the blind offer, the cards chosen to pass, who the
//! table is waiting for, and the notice of a move refused.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

use crate::engine::{Decision, Phase, PlayerView, Seat};

use super::super::app::App;
use super::super::components::panel_row;
use super::super::hand::faces;
use super::super::hits::Hits;
use super::super::text::{sentence_case, wrap};
use super::super::theme::Theme;

pub(super) fn draw(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let mut block = Block::new()
        .borders(Borders::TOP)
        .border_set(theme.border())
        .border_style(theme.edge())
        .title(Span::styled(title(app, view), theme.accent()));
    if let Some(left) = app.countdown() {
        block = block.title_top(Line::from(countdown(left, theme)).right_aligned());
    }
    let inner = block.inner(area);
    block.render(area, buf);

    // Each part says the first row it can spare: the notice may cover the
    // rows from there down, never the buttons or the instructions above.
    let spare = if let Some(held) = app.held_trick() {
        trick_done(app, held.trick.winner, inner, buf)
    } else {
        match app.human_turn().map(|t| t.decision) {
            Some(Decision::BlindNil) => {
                // A notice of two lines (a hint) needs both rows under the buttons.
                let two_lines = app.shown_notice().is_some_and(|n| n.lines().count() > 1);
                let offer = app.blind_offer();
                offer.draw(view, two_lines, inner, buf, hits, theme)
            }
            Some(Decision::Bid) => app.bids().draw(view, app.notice(), inner, buf, hits, theme),
            Some(Decision::Exchange) => app.exchange().draw(view, inner, buf, theme),
            Some(Decision::Play) => play(app, view, inner, buf),
            None => waiting(app, view, inner, buf),
        }
    };
    if let Some(notice) = app.shown_notice() {
        notice_lines(&notice, spare, inner, buf, theme.error());
    }
}

/// The turn timer's last seconds, on the panel's top edge: a bot decides
/// for the player when they run out.
pub(super) fn countdown(left: u64, theme: &Theme) -> Span<'static> {
    let text = match left {
        0 => " Time is up: a bot decides for you ".to_string(),
        _ => format!(" {left} s left, then a bot decides for you "),
    };
    let style = if left <= 5 {
        theme.error()
    } else {
        theme.accent()
    };
    Span::styled(text, style)
}

/// The notice at the foot of the panel, wrapped onto a second row when it
/// is long. The rows it takes are cleared first, so nothing of what was
/// drawn there shows past its end.
fn notice_lines(notice: &str, spare: u16, inner: Rect, buf: &mut Buffer, style: Style) {
    let width = usize::from(inner.width.saturating_sub(2));
    // A hint comes in two lines of its own: each is wrapped by itself.
    let given: Vec<String> = notice.lines().map(str::to_string).collect();
    let lines = wrap(&given, width);
    let bottom = inner.height.saturating_sub(1);
    let wanted = lines.len().min(2) as u16;
    let first = inner.height.saturating_sub(wanted).max(spare).min(bottom);
    for (i, line) in lines.iter().enumerate() {
        let r = row(inner, first + i as u16);
        if r.y >= inner.bottom() {
            break;
        }
        buf.set_stringn(r.x, r.y, format!("{line:<width$}"), width, style);
    }
}

/// The panel's title: what the player is asked for, if anything.
fn title(app: &App, view: &PlayerView) -> String {
    let names = app.names();
    match (app.held_trick(), app.human_turn().map(|t| t.decision)) {
        (Some(_), _) => " Trick done ".to_string(),
        (None, Some(Decision::BlindNil)) if app.blind_number(view).is_some() => {
            " Blind bid? ".to_string()
        }
        (None, Some(Decision::BlindNil)) => " Blind nil? ".to_string(),
        (None, Some(Decision::Bid)) => " Your bid ".to_string(),
        (None, Some(Decision::Exchange)) => {
            let (partner, count) = view
                .exchange
                .map_or(("your partner", 0), |e| (names.seat(e.partner), e.count));
            format!(" Pass {count} cards to {partner} ")
        }
        (None, Some(Decision::Play)) if app.acting_seat() != app.you() => {
            " Your turn for the dummy ".to_string()
        }
        (None, Some(Decision::Play)) => " Your turn ".to_string(),
        (None, None) => String::new(),
    }
}

/// Row `i` of the panel, inside its margins.
fn row(inner: Rect, i: u16) -> Rect {
    panel_row(inner, i)
}

/// Who took the trick still on the table.
fn trick_done(app: &App, winner: Seat, inner: Rect, buf: &mut Buffer) -> u16 {
    let theme = app.theme();
    let row = |i| row(inner, i);
    let line = format!("{} the trick.", app.names().takes(winner));
    buf.set_string(row(0).x, row(0).y, line, theme.accent());
    buf.set_string(row(1).x, row(1).y, "Any key or click goes on.", theme.dim());
    2
}

/// How to play a card, the suit led, and (playing the dummy's cards) the
/// player's own hand.
fn play(app: &App, view: &PlayerView, inner: Rect, buf: &mut Buffer) -> u16 {
    let theme = app.theme();
    let row = |i| row(inner, i);
    // Playing the dummy's cards, the hand below is the dummy's.
    let mine = app.acting_seat() == app.you();
    let what = match (view.led_suit(), mine) {
        (None, true) => "You lead. Play a card",
        (Some(_), true) => "Play a card",
        (None, false) => "The dummy leads. Play one of its cards",
        (Some(_), false) => "Play one of the dummy's cards",
    };
    let how = match app.card_played_for_you() {
        Some(card) => format!(
            "Only the {} may be played: it is played for you.",
            theme.card(card)
        ),
        None => format!("{what}: arrows then Enter, its key, or a click."),
    };
    buf.set_stringn(row(0).x, row(0).y, how, row(0).width as usize, Style::new());
    let mut line = view
        .led_suit()
        .map(|led| format!("{} led.", sentence_case(led.name())))
        .unwrap_or_default();
    if app.acting_seat() != app.you() {
        line = format!("{line}  Your own hand: {}", faces(view.cards(), theme));
    }
    buf.set_stringn(
        row(1).x,
        row(1).y,
        line.trim_start(),
        row(1).width as usize,
        theme.dim(),
    );
    1
}

/// Whom the table waits for when it is not the player's turn.
fn waiting(app: &App, view: &PlayerView, inner: Rect, buf: &mut Buffer) -> u16 {
    let names = app.names();
    let line = match (view.phase, app.waiting_for()) {
        (Phase::Bidding, Some(seat)) => format!("{} is bidding...", names.seat(seat)),
        (Phase::Exchange, seat) => exchanging(app, view, seat),
        (Phase::Playing, Some(seat)) if seat != view.teams().player_for(seat) => {
            format!(
                "{} is playing for {}...",
                names.seat(view.teams().player_for(seat)),
                names.seat(seat)
            )
        }
        (Phase::Playing, Some(seat)) => format!("{} is playing...", names.seat(seat)),
        _ => String::new(),
    };
    let row = row(inner, 0);
    buf.set_string(row.x, row.y, line, app.theme().dim());
    1
}

/// Who is choosing cards to pass while the player waits: the partner, or
/// the other side (its exchange is between its own partners).
fn exchanging(app: &App, view: &PlayerView, seat: Option<Seat>) -> String {
    match seat {
        Some(seat) if Some(seat) == view.partner() => {
            format!(
                "{} is choosing cards to pass to you...",
                app.names().seat(seat)
            )
        }
        Some(seat) if view.teams().scoring_side(seat) != view.side() => {
            "The opponents are exchanging cards...".to_string()
        }
        _ => "Cards are being exchanged...".to_string(),
    }
}
