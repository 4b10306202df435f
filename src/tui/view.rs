//! State in, frame out: draws an `App` into a buffer and says where the
//! clickable things went. Reads the app and the player's view; changes
//! nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::engine::{
    Bid, BlindNilRefusal, CardSet, Decision, Mode, Phase, PlayerView, Rules, SpadesLead, TrickDone,
};

use crate::naming::{Place, place};

use super::app::{App, Overlay, QuitChoice, Screen};
use super::hand::{HAND_SUITS, faces, hand_order};
use super::hits::{Hits, OfferChoice, Target};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH, Regions, seat_spot};
use super::replay_view;
use super::standing::bid_and_took;
use super::summary::{hand_summary, signed};
use super::text::{home_relative, sentence_case, tail, wrap};
use super::theme::Theme;
use super::widgets::{HandCard, button, centered_line, framed, hand_strip, suit_spans, table_card};

const HELP: &str = include_str!("../../assets/help.txt");

/// Draws the whole screen; returns where each clickable thing is.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) -> Hits {
    let mut hits = Hits::default();
    let theme = app.theme();
    // The review fills the screen, at any size, and has nothing to click.
    if let Some(review) = app.review() {
        replay_view::render(review, theme, area, buf);
        return hits;
    }
    let Some(regions) = layout::regions(area) else {
        too_small(area, buf, theme);
        return Hits::too_small();
    };
    let view = app.view();
    match app.screen() {
        Screen::GameOver => game_over(app, &view, area, buf, &mut hits),
        Screen::Summary => {
            // The score bar already shows the new totals; the next hand's
            // table waits until the player has read how they came about.
            score_bar(app, &view, regions.score_bar, buf);
            hand_summary_window(app, &regions, buf, &mut hits);
            let keys = " Enter  go on   v  review the hand   t  last trick   r  rules";
            buf.set_stringn(
                regions.footer.x,
                regions.footer.y,
                keys,
                regions.footer.width as usize,
                theme.dim(),
            );
        }
        // Drawn above, before the table's regions.
        Screen::Review => {}
        Screen::Table => {
            score_bar(app, &view, regions.score_bar, buf);
            table(app, &view, regions.table, buf);
            hand(app, &app.hand_view(), regions.hand, buf, &mut hits);
            panel(app, &view, regions.panel, buf, &mut hits);
            footer(app, &view, regions.footer, buf);
        }
    }
    if let Some(overlay) = app.overlay() {
        overlay_window(app, overlay, area, buf, &mut hits);
    }
    hits
}

fn too_small(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let lines = [
        Line::styled(
            format!("Make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            theme.accent(),
        ),
        Line::from(format!("(it is {}x{} now)", area.width, area.height)),
        Line::from("q quits"),
    ];
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.into_iter().enumerate() {
        let y = top + i as u16;
        if y < area.bottom() {
            centered_line(buf, area, y, line);
        }
    }
}

// ----- the score bar -----

fn score_bar(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let names = app.names();
    let rules = &view.rules;
    let [title, sides_area] = area.layout(&ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Length(1),
        ratatui::layout::Constraint::Min(0),
    ]));
    buf.set_style(title, theme.bar());
    let sep = theme.sep();
    let course = match view.lives_left {
        Some(left) => format!(
            "Quick Play{sep}Lives {}",
            theme.lives(left, rules.game.lives)
        ),
        None => format!("Game to {}", rules.target_score),
    };
    let info = format!(
        " SPADES  Hand {}{sep}Dealer {}{sep}{course}",
        view.hand_no,
        names.seat(view.dealer),
    );
    buf.set_stringn(title.x, title.y, &info, title.width as usize, theme.bar());
    // How the deals are dealt, always in sight: sealed by a commitment, or
    // known from an open seed. The key hints give way first on a short bar.
    let deals = match (app.open_seed(), app.commitment()) {
        (Some(seed), _) => format!("Deals known: seed {seed} "),
        (None, Some(c)) => format!("Deals sealed #{} ", &c.short()[..8]),
        (None, None) => String::new(),
    };
    let info_end = title.x + info.chars().count() as u16;
    let keys = "? help  q quit ";
    for right in [format!("{deals} {keys}"), deals, keys.to_string()] {
        let x = title.right().saturating_sub(right.chars().count() as u16);
        if x > info_end {
            buf.set_string(x, title.y, right, theme.bar());
            break;
        }
    }

    let sides = view.mode().sides();
    let width = sides_area.width / sides as u16;
    for side in view.mode().each_side() {
        let col = Rect::new(
            sides_area.x + side.index() as u16 * width,
            sides_area.y,
            width.saturating_sub(1),
            sides_area.height,
        );
        let totals = view.totals[side];
        let name = if names.side_in_full(side).len() + 8 < col.width as usize {
            names.side_in_full(side)
        } else {
            names.side(side)
        };
        let bags_style = if totals.bags >= rules.bags.limit - 2 {
            theme.error()
        } else {
            Style::new()
        };
        let lines = [
            Line::from(vec![
                Span::styled(name, Style::new().add_modifier(Modifier::BOLD)),
                Span::raw("  "),
                Span::styled(theme.number(totals.score), theme.accent()),
            ]),
            Line::from(vec![Span::styled(
                format!("bags {}/{}", totals.bags, rules.bags.limit),
                bags_style,
            )]),
            Line::from(bid_and_took(
                view.teams(),
                side,
                &view.bids(),
                &view.play.tricks_won,
                sep,
            )),
        ];
        for (i, line) in lines.iter().enumerate() {
            buf.set_line(
                col.x + 1,
                col.y + i as u16,
                line,
                col.width.saturating_sub(1),
            );
        }
    }
}

// ----- the table -----

fn table(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    let held = app.held_trick().map(|h| h.trick);
    let trick_cards = held.map_or(view.play.trick, |t| t.cards);
    let waiting = app.waiting_for();
    let sep = theme.sep();

    // Corners: how far the hand has come.
    let broken = if view.play.spades_broken {
        "Spades broken"
    } else if view.rules.play.spades_lead == SpadesLead::AnyTime {
        "Spades lead any time"
    } else {
        "Spades not broken"
    };
    if view.phase == Phase::Playing || held.is_some() {
        buf.set_string(area.x + 1, area.y, broken, theme.dim());
        // A finished trick still on the table is the one counted.
        let done = view.play.tricks_done + usize::from(held.is_none());
        let trick_no = done.clamp(1, view.mode().hand_size());
        let count = format!("Trick {trick_no} of {}", view.mode().hand_size());
        let x = area.right().saturating_sub(count.len() as u16 + 1);
        buf.set_string(x, area.y, count, theme.dim());
    }

    for (seat, &card) in trick_cards.pairs() {
        let spot = seat_spot(area, place(view.mode(), seat, view.seat));
        if let Some(card) = card {
            let set = if held.is_some_and(|t| t.winner == seat) {
                theme.winner_border()
            } else {
                theme.border()
            };
            table_card(buf, spot.card, card, theme, set);
        }
        let turn = held.is_none() && waiting == Some(seat);
        let won = held.is_some_and(|t| t.winner == seat);
        let marker = if turn { theme.turn_marker() } else { " " };
        let name_style = if turn || won {
            theme.accent()
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        let bid = match view.teams().declarer() {
            // The dummy bids nothing: it plays for its declarer.
            Some(declarer) if !view.mode().is_player(seat) => {
                format!("with {}", app.names().seat(declarer))
            }
            None if !view.mode().is_player(seat) => "face down".to_string(),
            _ => format!(
                "bid {}",
                view.bids()[seat].map_or("-".to_string(), |b| b.to_string())
            ),
        };
        let stats = format!("{bid}{sep}took {}", view.play.tricks_won[seat]);
        let shown = if won {
            format!("{} it", app.names().takes(seat))
        } else {
            app.names().seat(seat).to_string()
        };
        let name = vec![
            Span::styled(marker, theme.accent()),
            Span::raw(" "),
            Span::styled(shown, name_style),
        ];
        match place(view.mode(), seat, view.seat) {
            Place::Top | Place::Bottom => {
                let mut line = name;
                line.push(Span::raw("  "));
                line.push(Span::raw(stats));
                centered_line(buf, spot.label, spot.label.y, Line::from(line));
            }
            Place::Left | Place::Right => {
                Paragraph::new(vec![Line::from(name), Line::from(format!("  {stats}"))])
                    .render(spot.label, buf);
            }
        }
        if let Some(cards) = view.seen_hand(seat).filter(|_| seat != view.seat) {
            shown_hand(cards, spot.label, area, buf, theme);
        }
    }

    let middle = Rect::new(area.x, area.y + area.height / 2, area.width, 1);
    let phase_note = match view.phase {
        Phase::Bidding if held.is_none() => "Bidding",
        Phase::Exchange if view.bids().iter().any(|&b| b == Some(Bid::BlindNil)) => {
            "Blind nil exchange"
        }
        Phase::Exchange => "Nil pass",
        _ => "",
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

// ----- the hand -----

fn hand(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let turn = app.human_turn().map(|t| t.decision);
    let cards: Vec<HandCard> = match view.hand {
        None => (0..view.mode().hand_size())
            .map(|_| HandCard {
                card: None,
                playable: false,
                cursor: false,
                chosen: false,
                received: false,
                keyed: false,
            })
            .collect(),
        Some(held_cards) => {
            let legal = view.legal_plays();
            let choosing = app.overlay().is_none() && app.held_trick().is_none();
            // The partner's cards stay marked until the first trick is over.
            let received = match view.exchange {
                Some(e) if view.play.tricks_done == 0 => e.received.unwrap_or_default(),
                _ => CardSet::EMPTY,
            };
            // In the bidding, digits are bids, not cards: no card keys then.
            let keyed = view.phase != Phase::Bidding;
            hand_order(held_cards)
                .into_iter()
                .enumerate()
                .map(|(i, card)| HandCard {
                    card: Some(card),
                    playable: match turn {
                        Some(Decision::Play) => legal.contains(card),
                        _ => true,
                    },
                    cursor: choosing
                        && matches!(turn, Some(Decision::Play | Decision::Exchange) | None)
                        && view.phase != Phase::Bidding
                        && i == app.hand_cursor(),
                    chosen: app.to_pass().contains(card),
                    received: received.contains(card),
                    keyed,
                })
                .collect()
        }
    };
    hand_strip(buf, area, &cards, theme, hits);
}

// ----- the panel under the hand -----

fn panel(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let names = app.names();
    let turn = app.human_turn().map(|t| t.decision);
    let title = match (app.held_trick(), turn) {
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
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_set(theme.border())
        .title(Span::styled(title, theme.accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    let row = |i: u16| Rect::new(inner.x + 1, inner.y + i, inner.width.saturating_sub(2), 1);
    let mut notice_row = 2;

    if let Some(held) = app.held_trick() {
        let line = format!("{} the trick.", names.takes(held.trick.winner));
        buf.set_string(row(0).x, row(0).y, line, theme.accent());
        buf.set_string(row(1).x, row(1).y, "Any key or click goes on.", theme.dim());
    } else {
        match turn {
            Some(Decision::BlindNil) => {
                let value = view.rules.blind_nil.value;
                let minus = theme.minus();
                buf.set_string(
                    row(0).x,
                    row(0).y,
                    "Your cards stay face down until you decide.",
                    Style::new(),
                );
                let number = app.blind_number(view);
                let choices = app.offer_choices(view);
                let line = match number {
                    Some(n)
                        if app.offer_cursor() == OfferChoice::BlindNumber
                            || !choices.contains(&OfferChoice::BlindNil) =>
                    {
                        format!(
                            "Blind {n}: your side's contract counts double, made or set; up/down changes."
                        )
                    }
                    _ => format!(
                        "Blind nil: +{value} if you take no trick, {minus}{value} if you take any."
                    ),
                };
                buf.set_stringn(row(2).x, row(2).y, line, row(2).width as usize, theme.dim());
                let mut x = row(1).x;
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
                        row(1).y,
                        &text,
                        focused,
                        theme,
                        Target::Offer(choice),
                        hits,
                    ) + 2;
                }
            }
            Some(Decision::Bid) => {
                notice_row = bid_buttons(app, view, inner, buf, hits);
            }
            Some(Decision::Exchange) => {
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
            }
            Some(Decision::Play) => {
                // Playing the dummy's cards, the hand below is the dummy's.
                let mine = app.acting_seat() == app.you();
                let what = match (view.led_suit(), mine) {
                    (None, true) => "You lead. Play a card",
                    (Some(_), true) => "Play a card",
                    (None, false) => "The dummy leads. Play one of its cards",
                    (Some(_), false) => "Play one of the dummy's cards",
                };
                buf.set_stringn(
                    row(0).x,
                    row(0).y,
                    format!("{what}: arrows then Enter, its key, or a click."),
                    row(0).width as usize,
                    Style::new(),
                );
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
            }
            None => {
                let line = match (view.phase, app.waiting_for()) {
                    (Phase::Bidding, Some(seat)) => format!("{} is bidding...", names.seat(seat)),
                    (Phase::Exchange, _) => "Your partner is choosing cards to pass...".to_string(),
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
                buf.set_string(row(0).x, row(0).y, line, theme.dim());
            }
        }
    }
    if let Some(notice) = app.notice() {
        let r = row(notice_row.min(inner.height.saturating_sub(1)));
        buf.set_stringn(r.x, r.y, notice, r.width as usize, theme.error());
    }
}

/// The bids as buttons, wrapping when they do not fit one row. Returns the
/// row left for messages.
fn bid_buttons(
    app: &App,
    view: &PlayerView,
    inner: Rect,
    buf: &mut Buffer,
    hits: &mut Hits,
) -> u16 {
    let theme = app.theme();
    let options = app.bid_options(view);
    let (mut x, mut y) = (inner.x + 1, inner.y);
    for (i, &bid) in options.iter().enumerate() {
        let name = match bid {
            Bid::Tricks(n) => n.to_string(),
            Bid::Nil => "Nil".to_string(),
            Bid::BlindNil => "Blind nil".to_string(),
            Bid::Blind(n) => format!("Blind {n}"),
        };
        // Brackets mark the cursor even without colour.
        let text = if i == app.bid_cursor() {
            format!("[{name}]")
        } else {
            format!(" {name} ")
        };
        let width = text.chars().count() as u16;
        if x + width > inner.right() {
            x = inner.x + 1;
            y += 1;
        }
        let allowed = view.check_bid(bid).is_ok();
        let mut style = if allowed { Style::new() } else { theme.dim() };
        if i == app.bid_cursor() {
            style = style.patch(theme.cursor());
        }
        buf.set_string(x, y, &text, style);
        hits.add(Rect::new(x, y, width, 1), Target::Bid(bid));
        x += width + 1;
    }
    let mut next = y - inner.y + 1;
    let line = |next: u16| {
        Rect::new(
            inner.x + 1,
            inner.y + next,
            inner.width.saturating_sub(2),
            1,
        )
    };
    // Why the bid under the cursor cannot be made, else why blind nil is not
    // on offer when that could matter; never what the notice already says.
    let why = options
        .get(app.bid_cursor())
        .and_then(|&b| view.check_bid(b).err())
        .map(|e| sentence_case(&e.to_string()))
        .or_else(|| blind_nil_note(view));
    if let Some(why) = why.filter(|w| app.notice() != Some(w.as_str()))
        && next < inner.height
    {
        let r = line(next);
        buf.set_stringn(r.x, r.y, why, r.width as usize, theme.dim());
        next += 1;
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

fn footer(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer) {
    let theme = app.theme();
    if let Some(line) = app.chat_line() {
        let text = format!(" Say: {line}_   Enter  send   Esc  cancel");
        buf.set_stringn(area.x, area.y, text, area.width as usize, theme.accent());
        return;
    }
    let keys = match app.human_turn().map(|t| t.decision) {
        _ if app.held_trick().is_some() => "any key  go on",
        Some(Decision::BlindNil) if app.blind_number(view).is_some() => {
            "b  blind nil   number  blind bid   c  look at cards"
        }
        Some(Decision::BlindNil) => "b  blind nil   c  look at cards",
        Some(Decision::Bid) if view.rules.nil_is_bid() => {
            "arrows or number  choose   Enter  bid   n  nil"
        }
        Some(Decision::Bid) => "arrows or number  choose   Enter  bid",
        Some(Decision::Exchange) => "arrows  move   space or key  choose   Enter  pass",
        Some(Decision::Play) => "arrows  move   Enter  play   1-9 0 a-g  that card",
        None if view.phase == Phase::Over => "",
        None => "arrows  move",
    };
    let hint = app.human_turn().is_some() && app.held_trick().is_none();
    // The turn's own keys first; the others as far as the width allows.
    let mut all = format!(" {keys}");
    for (shown, more) in [
        (app.is_shared(), "/  chat"),
        (hint, "h  hint"),
        (true, "t  last trick"),
        (true, "r  rules"),
    ] {
        if shown && all.chars().count() + 3 + more.len() <= usize::from(area.width) {
            all.push_str("   ");
            all.push_str(more);
        }
    }
    buf.set_stringn(area.x, area.y, all, area.width as usize, theme.dim());
}

// ----- windows over the table -----

fn hand_summary_window(app: &App, regions: &Regions, buf: &mut Buffer, hits: &mut Hits) {
    let Some((result, before)) = app.summary() else {
        return;
    };
    let theme = app.theme();
    let rules = &app.config().game.rules;
    let sides = hand_summary(result, &before, rules, app.names(), theme);
    let mut lines: Vec<Line> = Vec::new();
    for side in &sides {
        lines.push(Line::styled(side.title.clone(), theme.accent()));
        for l in &side.lines {
            lines.push(Line::from(format!("  {l}")));
        }
    }
    // In cutthroat the card out of play is shown once the hand is over.
    let view = app.view();
    if view.mode() == Mode::Cutthroat
        && let Some(out) = view.rules.deck().minus(view.play.played).lowest()
        && view.play.played.len() == 51
    {
        lines.push(Line::from(format!("Card out of play: {}", theme.card(out))));
    }
    let over = view.phase == Phase::Over;
    let button_text = if over {
        "Enter  final result"
    } else {
        "Enter  next hand"
    };
    let whole = Rect::new(
        regions.table.x,
        regions.table.y,
        regions.table.width,
        regions.panel.bottom() - regions.table.y,
    );
    let height = lines.len() as u16 + 4;
    let area = layout::window(whole, 66, height);
    let inner = framed(&format!("Hand {} scored", result.hand), area, buf, theme);
    let body = Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    );
    Paragraph::new(lines).render(body, buf);
    let y = inner.bottom().saturating_sub(1);
    let width = button_text.len() as u16 + 6;
    let x = inner.x + inner.width.saturating_sub(width) / 2;
    button(buf, x, y, button_text, true, theme, Target::Continue, hits);
}

fn game_over(app: &App, view: &PlayerView, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    let names = app.names();
    let mut lines = vec![Line::from("")];
    let hands = app.hands_played();
    let plural = if hands == 1 { "" } else { "s" };
    if view.lives_left.is_some() {
        let run = crate::engine::quick::run_side(view.mode());
        let lives = view.rules.game.lives;
        lines.push(Line::styled(
            format!(
                "{}: {} points in {hands} hand{plural}",
                names.side_in_full(run),
                theme.number(view.totals[run].score),
            ),
            theme.accent(),
        ));
        lines.push(Line::from(format!(
            "until the last of {lives} {} was lost",
            if lives == 1 { "life" } else { "lives" }
        )));
    } else {
        if let Some(winner) = view.winner {
            lines.push(Line::styled(
                format!("{}!", names.winners(winner)),
                theme.accent(),
            ));
        }
        lines.push(Line::from(format!(
            "after {hands} hand{plural}, playing to {}",
            view.rules.target_score
        )));
    }
    lines.push(Line::from(""));
    for (side, totals) in view.totals.pairs() {
        let score = totals.score;
        let mark = if view.winner == Some(side) && view.lives_left.is_none() {
            "*"
        } else {
            " "
        };
        lines.push(Line::from(format!(
            "{mark} {:<28}{:>6}",
            names.side_in_full(side),
            theme.number(score)
        )));
    }
    if !app.rating_note().is_empty() {
        lines.push(Line::from(""));
    }
    for line in wrap(app.rating_note(), 46) {
        lines.push(Line::styled(line, theme.accent()));
    }
    lines.push(Line::from(""));
    let mut notes = wrap(&deals_after_the_game(app), 46);
    if let Some(path) = app.record_path() {
        // A path has no spaces to wrap at: the folder and the file each get
        // a line, shortened from the left if they must be.
        let folder = path.parent().map(home_relative).unwrap_or_default();
        let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
        notes.push(format!("Recorded in {}", tail(&folder, 34)));
        notes.extend(file.map(|f| tail(&f, 46)));
    }
    for line in notes {
        lines.push(Line::styled(line, theme.dim()));
    }
    let height = lines.len() as u16 + 4;
    let window = layout::window(area, 50, height);
    let title = if view.lives_left.is_some() {
        "Run over"
    } else {
        "Game over"
    };
    let inner = framed(title, window, buf, theme);
    Paragraph::new(lines)
        .alignment(ratatui::layout::HorizontalAlignment::Center)
        .render(inner, buf);
    let y = inner.bottom().saturating_sub(1);
    if app.is_shared() {
        // A shared table's game is the host's to start again.
        let x = inner.x + inner.width.saturating_sub(14) / 2;
        button(buf, x, y, "q  Leave", true, theme, Target::Quit, hits);
        return;
    }
    let mut x = inner.x + inner.width.saturating_sub(36) / 2;
    x += button(
        buf,
        x,
        y,
        "n  Play again",
        true,
        theme,
        Target::PlayAgain,
        hits,
    ) + 2;
    button(buf, x, y, "q  Quit", false, theme, Target::Quit, hits);
}

fn overlay_window(app: &App, overlay: Overlay, area: Rect, buf: &mut Buffer, hits: &mut Hits) {
    let theme = app.theme();
    // The window hides what is under it from clicks.
    *hits = Hits::default();
    match overlay {
        Overlay::Help => {
            let lines: Vec<Line> = HELP.lines().map(Line::from).collect();
            let window = layout::window(area, 78, lines.len() as u16 + 2);
            let inner = framed("Keys", window, buf, theme);
            Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
        }
        Overlay::Rules => {
            let view = app.view();
            let mut lines = rules_lines(&view.rules, theme);
            lines.insert(0, format!("From {}.", app.config().game.rules_source));
            lines.push(String::new());
            lines.push(format!(
                "Players    you and {} {} computer players",
                view.seats() - 1,
                app.config().game.difficulty
            ));
            lines.push(format!(
                "Speed      {} (+ and - change it); auto-play {} (p)",
                app.speed(),
                if app.auto_play() { "on" } else { "off" }
            ));
            lines.extend(deals_during_the_game(app));
            lines.push("Esc or r closes.".to_string());
            // Long lines (a long seed, a long path) wrap inside the window.
            let lines = wrap(&lines, 70);
            let window = layout::window(area, 74, lines.len() as u16 + 2);
            let inner = framed("Rules in force", window, buf, theme);
            Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>())
                .render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
        }
        Overlay::Stats => {
            let all = app.stats_lines();
            // Taller than the screen: the window scrolls (Up/Down).
            let room = usize::from(area.height.saturating_sub(4)).max(1);
            let limit = all.len().saturating_sub(room);
            hits.scrolls(limit);
            let first = app.stats_scroll().min(limit);
            let shown = &all[first..all.len().min(first + room)];
            let mut lines: Vec<Line> = shown.iter().map(|l| Line::from(l.as_str())).collect();
            let more = all.len() > room;
            let keys = if more {
                "Up/Down scroll; Esc or s closes."
            } else {
                "Esc or s closes."
            };
            lines.push(Line::styled(keys, theme.dim()));
            let window = layout::window(area, 74, lines.len() as u16 + 2);
            let inner = framed("Your statistics", window, buf, theme);
            Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
        }
        Overlay::LastTrick => {
            let Some(trick) = app.last_trick() else {
                return;
            };
            let lines = last_trick_lines(app, trick);
            let window = layout::window(area, 40, lines.len() as u16 + 2);
            let inner = framed("Last trick", window, buf, theme);
            Paragraph::new(lines).render(inner.inner(ratatui::layout::Margin::new(1, 0)), buf);
        }
        Overlay::ConfirmQuit => {
            let window = layout::window(area, 46, 6);
            let inner = framed("Quit?", window, buf, theme);
            centered_line(buf, inner, inner.y, Line::from("Leave this game?"));
            let kept = if app.is_saved() {
                "It is saved: `spades resume` takes it up."
            } else {
                "It cannot be saved: it ends here."
            };
            centered_line(buf, inner, inner.y + 1, Line::styled(kept, theme.dim()));
            let y = inner.y + 3;
            let mut x = inner.x + inner.width.saturating_sub(28) / 2;
            let quit = app.quit_focus() == QuitChoice::Quit;
            x += button(buf, x, y, "y  Quit", quit, theme, Target::Quit, hits) + 2;
            button(buf, x, y, "n  Stay", !quit, theme, Target::Continue, hits);
        }
    }
}

/// Where the deals come from, as the rules window says it during a game:
/// sealed by a commitment, or known from an open seed.
fn deals_during_the_game(app: &App) -> Vec<String> {
    match (app.open_seed(), app.commitment()) {
        (Some(seed), _) => vec![format!(
            "Deals known: seed {seed} (--seed {seed} replays this game)."
        )],
        (None, Some(commitment)) => vec![
            "Deals sealed: the seed stays secret until the game ends. Commitment:".to_string(),
            commitment.to_string(),
        ],
        (None, None) => Vec::new(),
    }
}

/// Where the deals came from, once the game is over: the revealed seed, and
/// how to check it against the commitment.
fn deals_after_the_game(app: &App) -> Vec<String> {
    match (app.open_seed(), app.revealed()) {
        (Some(seed), _) => vec![format!("Seed {seed} replays this game.")],
        (None, Some(reveal)) => {
            let short = app.commitment().map(|c| c.short().to_string());
            vec![
                format!("Dealt from seed {}, committed", reveal.seed),
                format!("at the start as {}...", short.unwrap_or_default()),
                "spades verify checks the record.".to_string(),
            ]
        }
        (None, None) => Vec::new(),
    }
}

fn last_trick_lines<'a>(app: &App, trick: &TrickDone) -> Vec<Line<'a>> {
    let theme = app.theme();
    let names = app.names();
    let mode = app.config().game.rules.mode;
    let mut lines = Vec::new();
    for k in 0..mode.seats() {
        let seat = mode.after(trick.leader, k);
        let Some(card) = trick.cards[seat] else {
            continue;
        };
        let role = if k == 0 { "led" } else { "played" };
        let mut spans = vec![
            Span::raw(format!("{:<10} {role:<7} ", names.seat(seat))),
            Span::styled(theme.card(card), theme.card_colour(card)),
        ];
        if seat == trick.winner {
            let takes = if names.seat(seat) == "You" {
                "take"
            } else {
                "takes"
            };
            spans.push(Span::styled(format!("  {takes} it"), theme.accent()));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The rules in words, one line per key group of rules.toml.
fn rules_lines(rules: &Rules, theme: &Theme) -> Vec<String> {
    let mode = match rules.mode {
        Mode::Partnership => "partnership: four seats, partners opposite",
        Mode::Cutthroat => "cutthroat: three seats, 17 cards each, every seat alone",
        Mode::Individual => "individual: four seats, every seat alone",
        Mode::Dummy => "dummy: three players and a dummy, the top bidder declares with it",
    };
    let losing = rules.losing_score.map_or(String::new(), |l| {
        format!("; also ends at {} or below", theme.number(l))
    });
    let no_nil = rules.mode.dummy().is_some();
    let nil = if no_nil {
        "not bid with a dummy (bids are team totals)".to_string()
    } else if rules.nil.allowed {
        format!("worth {}", rules.nil.value)
    } else {
        "not allowed".to_string()
    };
    let blind = &rules.blind_nil;
    let blind_nil = if no_nil {
        "not bid with a dummy".to_string()
    } else if blind.allowed {
        format!(
            "worth {}, when the side trails by {} or more",
            blind.value, blind.min_deficit
        )
    } else {
        "not allowed".to_string()
    };
    let per_side = if blind.one_per_side {
        "one per side"
    } else {
        "both partners may bid it"
    };
    let exchange = match rules.exchange_size() {
        0 => "no exchange".to_string(),
        n => format!("then {n} cards exchanged with the partner"),
    };
    let total = if rules.bidding.forbid_exact_total {
        format!(
            "the last bidder may not make the bids total {}",
            rules.mode.hand_size()
        )
    } else {
        "any total".to_string()
    };
    let mut lines = vec![
        format!("Mode       {mode}"),
        format!("Game       to {} points{losing}", rules.target_score),
        format!(
            "Bags       each {} bags cost {}",
            rules.bags.limit,
            signed(-rules.bags.penalty, theme)
        ),
        format!("Nil        {nil}"),
        format!("Blind nil  {blind_nil}"),
    ];
    if blind.allowed {
        lines.push(format!("           {per_side}; {exchange}"));
    }
    lines.push(format!("Bidding    {total}"));
    let mut house = crate::config::house_rules(rules).into_iter();
    if let Some(first) = house.next() {
        lines.push(format!("House      {first}"));
        lines.extend(house.map(|line| format!("           {line}")));
    }
    lines
}
