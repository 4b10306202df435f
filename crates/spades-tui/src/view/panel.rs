//! The panel under the hand: what the player is asked to decide and how,
//! the bids as buttons, the blind offer, the cards chosen to pass, who the
//! table is waiting for, and the notice of a move refused.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

use crate::engine::{Bid, BlindNilRefusal, Decision, Phase, PlayerView, Seat};

use super::super::app::App;
use super::super::hand::faces;
use super::super::hits::{Hits, OfferChoice, Target};
use super::super::text::{sentence, sentence_case, wrap};
use super::super::theme::Theme;
use super::super::widgets::button;

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
            Some(Decision::BlindNil) => blind_offer(app, view, inner, buf, hits),
            Some(Decision::Bid) => bid_buttons(app, view, inner, buf, hits),
            Some(Decision::Exchange) => exchange(app, view, inner, buf),
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
    Rect::new(inner.x + 1, inner.y + i, inner.width.saturating_sub(2), 1)
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

/// Blind nil (or a blind bid) before the player's cards are seen: the
/// choices as buttons, and what the one in focus is worth.
fn blind_offer(
    app: &App,
    view: &PlayerView,
    inner: Rect,
    buf: &mut Buffer,
    hits: &mut Hits,
) -> u16 {
    let theme = app.theme();
    let row = |i| row(inner, i);
    let value = view.rules.blind_nil.value;
    let minus = theme.minus();
    // A notice of two lines (a hint) needs both rows under the buttons: in
    // a panel of three the line that says the cards stay face down gives
    // way, the buttons moving up.
    let two_lines = app.shown_notice().is_some_and(|n| n.lines().count() > 1);
    let top = u16::from(!(two_lines && inner.height < 4));
    if top > 0 {
        buf.set_string(
            row(0).x,
            row(0).y,
            "Your cards stay face down until you decide.",
            Style::new(),
        );
    }
    let number = app.blind_number(view);
    let choices = app.offer_choices(view);
    let line = match number {
        Some(n)
            if app.offer_cursor() == OfferChoice::BlindNumber
                || !choices.contains(&OfferChoice::BlindNil) =>
        {
            format!("Blind {n}: your side's contract counts double, made or set; up/down changes.")
        }
        _ => format!("Blind nil: +{value} if you take no trick, {minus}{value} if you take any."),
    };
    buf.set_stringn(
        row(top + 1).x,
        row(top + 1).y,
        line,
        row(top + 1).width as usize,
        theme.dim(),
    );
    let mut x = row(top).x;
    for choice in choices {
        let text = match choice {
            OfferChoice::BlindNil => "b  Bid blind nil".to_string(),
            OfferChoice::BlindNumber => format!("Bid blind {}", number.unwrap_or(0)),
            OfferChoice::Look => "c  Look at my cards".to_string(),
        };
        let focused = app.offer_cursor() == choice;
        x += button(
            buf,
            x,
            row(top).y,
            &text,
            focused,
            theme,
            Target::Offer(choice),
            hits,
        ) + 2;
    }
    top + 1
}

/// How to choose the cards to pass, and the ones chosen so far.
fn exchange(app: &App, view: &PlayerView, inner: Rect, buf: &mut Buffer) -> u16 {
    let theme = app.theme();
    let row = |i| row(inner, i);
    buf.set_stringn(
        row(0).x,
        row(0).y,
        "Choose with arrows and space, or a card's key or a click; Enter passes them.",
        row(0).width as usize,
        Style::new(),
    );
    let count = view.exchange.map_or(0, |e| e.count);
    let chosen = app.to_pass();
    let line = format!(
        "To pass ({} of {count}): {}",
        chosen.len(),
        if chosen.is_empty() {
            "none yet".to_string()
        } else {
            faces(chosen, theme)
        }
    );
    buf.set_string(row(1).x, row(1).y, line, Style::new());
    // Choosing a card clears a notice, so a long one hides this only until then.
    1
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

/// The bids as buttons, wrapping when they do not fit one row, and why the
/// bid under the cursor is refused. Returns the first row after the buttons.
fn bid_buttons(
    app: &App,
    view: &PlayerView,
    inner: Rect,
    buf: &mut Buffer,
    hits: &mut Hits,
) -> u16 {
    let theme = app.theme();
    let options = app.bid_options(view);
    // Brackets mark the cursor even without colour.
    let texts: Vec<String> = options
        .iter()
        .enumerate()
        .map(|(i, &bid)| {
            let name = match bid {
                Bid::Tricks(n) => n.to_string(),
                Bid::Nil => "Nil".to_string(),
                Bid::BlindNil => "Blind nil".to_string(),
                Bid::Blind(n) => format!("Blind {n}"),
            };
            if i == app.bid_cursor() {
                format!("[{name}]")
            } else {
                format!(" {name} ")
            }
        })
        .collect();
    // A cell between buttons where the row has room for it; without, the
    // bids of a long hand (cutthroat's 17 and Nil) still fit one row,
    // leaving the rows under it to the reason and the hint.
    let row_width = usize::from(inner.width.saturating_sub(1));
    let widths: usize = texts.iter().map(|t| t.chars().count()).sum();
    let gap = u16::from(widths + texts.len().saturating_sub(1) <= row_width);
    let (mut x, mut y) = (inner.x + 1, inner.y);
    for (i, (&bid, text)) in options.iter().zip(&texts).enumerate() {
        let width = text.chars().count() as u16;
        if x + width > inner.right() {
            x = inner.x + 1;
            y += 1;
        }
        let allowed = view.check_bid(bid).is_ok();
        let mut style = if allowed {
            Style::new()
        } else {
            theme.unavailable()
        };
        if i == app.bid_cursor() {
            style = style.patch(theme.cursor());
        }
        buf.set_string(x, y, text, style);
        hits.add(Rect::new(x, y, width, 1), Target::Bid(bid));
        x += width + gap;
    }
    let next = y - inner.y + 1;
    // Why the bid under the cursor cannot be made, else why blind nil is not
    // on offer when that could matter; never what the notice already says.
    let why = options
        .get(app.bid_cursor())
        .and_then(|&b| view.check_bid(b).err())
        .map(|e| sentence(&e.to_string()))
        .or_else(|| blind_nil_note(view));
    if let Some(why) = why.filter(|w| app.notice() != Some(w.as_str()))
        && next < inner.height
    {
        let r = row(inner, next);
        buf.set_stringn(r.x, r.y, why, r.width as usize, theme.dim());
    }
    next
}

/// Why blind nil is not on offer, said only when a player could expect it:
/// the side is near the deficit it needs, or the partner has bid it.
fn blind_nil_note(view: &PlayerView) -> Option<String> {
    let why = view.blind_nil_refusal()?;
    let helps = match why {
        BlindNilRefusal::NotTrailing { deficit, needed } => deficit > 0 && 2 * deficit >= needed,
        BlindNilRefusal::PartnerBidBlindNil => true,
        BlindNilRefusal::Disabled
        | BlindNilRefusal::AlreadyLooked
        | BlindNilRefusal::Game(_)
        | BlindNilRefusal::Dummy => false,
    };
    helps.then(|| format!("Blind nil: {why}."))
}
