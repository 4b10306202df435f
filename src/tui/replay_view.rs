//! Draws the replay viewer from its `Story` and step: every hand face up
//! around the table, the bids, the exchange, the trick on the table, a
//! line on what just happened, and at each hand's end its score worked out
//! line by line (`summary::hand_summary`). Reads; changes nothing.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

use crate::engine::score::side_contract;
use crate::engine::{Bid, CardSet, Mode, Seat, Side, SpadesLead};
use crate::review::{HandStory, Mark, Reached, Step, StepEvent, Story};

use super::hand::HAND_SUITS;
use super::hand::faces;
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::replay::{Source, Viewer};
use super::standing::bid_and_took;
use super::summary::hand_summary;
use super::theme::Theme;
use super::widgets::{centered_line, suit_spans};
use crate::naming::{Names, Place, place};

/// Bigger than this, the viewer sits in the middle, as the table does.
const MAX_WIDTH: u16 = 110;
const MAX_HEIGHT: u16 = 32;

/// What every part of the drawing reads.
struct Scene<'a> {
    story: &'a Story,
    step: &'a Step,
    hand: &'a HandStory,
    names: Names,
    theme: &'a Theme,
    /// The index of the step on screen.
    at: usize,
    /// The last step of the story: a record may stop mid-hand.
    last: bool,
}

/// Draws the viewer over the whole of `area`.
pub fn render(viewer: &Viewer, theme: &Theme, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    if !layout::fits(area) {
        too_small(area, buf, theme);
        return;
    }
    let area = area.centered(Constraint::Max(MAX_WIDTH), Constraint::Max(MAX_HEIGHT));
    let story = viewer.story();
    let Some((step, hand)) = viewer.step().map(|s| (s, &story.hands[s.hand])) else {
        let y = area.y + area.height / 2;
        let line = Line::from("This game has no hand to show yet.  q leaves");
        centered_line(buf, area, y, line);
        return;
    };
    let scene = Scene {
        story,
        step,
        hand,
        names: Names::listed(story.mode(), &story.names),
        theme,
        at: viewer.at(),
        last: viewer.at() + 1 == story.steps.len(),
    };
    let rows = |y: u16, height: u16| Rect::new(area.x, y, area.width, height);
    let bottom = area.bottom();
    title_bar(&scene, viewer.source(), rows(area.y, 1), buf);
    score_bar(&scene, rows(area.y + 1, 3), buf);
    let table_area = rows(area.y + 4, bottom - 4 - (area.y + 4));
    let narration_area = rows(bottom - 4, 3);
    if step.event == StepEvent::Scored {
        let whole = rows(area.y + 4, bottom - 1 - (area.y + 4));
        score_window(&scene, whole, buf);
    } else {
        table(&scene, table_area, buf);
        narration(&scene, narration_area, buf);
    }
    footer(&scene, viewer.source(), rows(bottom - 1, 1), buf);
    if viewer.help_shown() {
        help_window(viewer.source(), area, buf, theme);
    }
}

/// The viewer's keys, in a window over the story.
fn help_window(source: &Source, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let review = *source == Source::HandReview;
    let mut lines = vec![
        "Left/Right or h/l   back or on a step: a bid, the exchange, a card",
        "Up/Down or k/j      back or on a trick; it stops too at the deal,",
        "                    the bids made, the exchange and the score",
    ];
    if review {
        lines.push("Home/End or g/G     the start or the end of the hand");
    } else {
        lines.extend([
            "PgUp/PgDn           this hand's start, the hand before, the next",
            "Home/End or g/G     the start or the end of the game",
        ]);
    }
    lines.extend([
        "Enter or space      on a step, as Right does",
        "?                   these keys (any key closes them)",
    ]);
    lines.push(if review {
        "q or Esc            back to the hand's summary"
    } else {
        "q or Esc            leave          Ctrl-C  leave at once"
    });
    let height = lines.len() as u16 + 2;
    let window = layout::window(area, 72, height);
    Clear.render(window, buf);
    let block = Block::bordered()
        .border_set(theme.border())
        .title(Span::styled(" Keys ", theme.accent()));
    let inner = block.inner(window);
    block.render(window, buf);
    let body = Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    );
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).render(body, buf);
}

fn too_small(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let lines = [
        Line::styled(
            format!("Make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT}"),
            theme.accent(),
        ),
        Line::from(format!("(it is {}x{} now)", area.width, area.height)),
        Line::from("q leaves"),
    ];
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    for (i, line) in lines.into_iter().enumerate() {
        let y = top + i as u16;
        if y < area.bottom() {
            centered_line(buf, area, y, line);
        }
    }
}

// ----- the bars -----

fn title_bar(scene: &Scene, source: &Source, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let sep = theme.sep();
    buf.set_style(area, theme.bar());
    let dealer = scene.names.seat(scene.hand.dealer);
    let text = match source {
        Source::Record { name, game, games } => format!(
            " REPLAY  {name}{sep}game {game} of {games}{sep}hand {} of {}{sep}dealer {dealer}",
            scene.hand.hand,
            scene.story.hands.len()
        ),
        Source::HandReview => format!(
            " REVIEW  Hand {}{sep}dealer {dealer}{sep}every hand face up",
            scene.hand.hand
        ),
    };
    let target = format!("Game to {} ", scene.story.rules.target_score);
    buf.set_stringn(area.x, area.y, &text, area.width as usize, theme.bar());
    let x = area.right().saturating_sub(target.len() as u16);
    if x > area.x + text.chars().count() as u16 + 1 {
        buf.set_string(x, area.y, target, theme.bar());
    }
}

/// A side as the viewer names it: with its players when it has partners
/// ("Us (You & North)" in the player's own game), else its one seat.
fn side_title(scene: &Scene, side: Side) -> String {
    let mode = scene.story.mode();
    if mode.has_partners() && scene.story.player.is_none() {
        return members(scene, side).join(" & ");
    }
    scene.names.side_in_full(side)
}

fn members<'a>(scene: &'a Scene, side: Side) -> Vec<&'a str> {
    let mode = scene.story.mode();
    mode.side_seats(side).map(|s| scene.names.seat(s)).collect()
}

fn score_bar(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let mode = scene.story.mode();
    let step = scene.step;
    let sep = theme.sep();
    let limit = scene.story.rules.bags.limit;
    let width = area.width / mode.sides() as u16;
    let marks = scene.story.marks_by(scene.at);
    for side in mode.each_side() {
        let col = Rect::new(
            area.x + side.index() as u16 * width + 1,
            area.y,
            width.saturating_sub(2),
            area.height,
        );
        let totals = step.totals[side];
        let head = Line::from(vec![
            Span::styled(side_title(scene, side), theme.accent()),
            Span::raw("  "),
            Span::styled(
                theme.number(totals.score),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{sep}bags {}/{limit}", totals.bags), theme.dim()),
        ]);
        let play = Line::from(bid_and_took(
            scene.hand.teams,
            side,
            &step.bids,
            &step.tricks_won,
            sep,
        ));
        let mut status: Vec<Span> = Vec::new();
        for mark in marks.iter().filter(|m| m.side == side) {
            if !status.is_empty() {
                status.push(Span::raw(sep));
            }
            let (text, style) = match mark.what {
                Reached::Made { .. } => (format!("made (trick {})", mark.trick), theme.accent()),
                Reached::Set { .. } => (format!("set (trick {})", mark.trick), theme.error()),
                Reached::NilBroken { .. } => {
                    (format!("nil broken (trick {})", mark.trick), theme.error())
                }
            };
            status.push(Span::styled(text, style));
        }
        let decided = marks
            .iter()
            .any(|m| m.side == side && !matches!(m.what, Reached::NilBroken { .. }));
        let contract = side_contract(
            &scene.story.rules,
            scene.hand.teams,
            side,
            &step.bids,
            &step.tricks_won,
        );
        let bidding_done = step.bids.iter().all(Option::is_some);
        if let Some(c) = contract.filter(|_| !decided && bidding_done) {
            if !status.is_empty() {
                status.push(Span::raw(sep));
            }
            status.push(Span::styled(
                format!("needs {} more", c.need()),
                theme.dim(),
            ));
        }
        for (i, line) in [head, play, Line::from(status)].iter().enumerate() {
            buf.set_line(col.x, col.y + i as u16, line, col.width);
        }
    }
}

/// Is a blind nil behind this hand's exchange (rather than only the nil pass)?
fn blind_exchange(step: &Step) -> bool {
    step.bids.iter().any(|&b| b == Some(Bid::BlindNil))
}

fn footer(scene: &Scene, source: &Source, area: Rect, buf: &mut Buffer) {
    let keys = match source {
        Source::Record { .. } => {
            " Left/Right step   Up/Down trick   PgUp/PgDn hand   Home/End   ? keys   q quit"
        }
        Source::HandReview => {
            " Left/Right step   Up/Down trick   Home/End   ? keys   Esc back to the summary"
        }
    };
    buf.set_stringn(area.x, area.y, keys, area.width as usize, scene.theme.dim());
}

// ----- the table -----

impl Scene<'_> {
    /// The cards passed to a seat, while they are worth pointing out: from
    /// the exchange until the first trick is over.
    fn received(&self, seat: Seat) -> CardSet {
        let after_exchange = self.story.steps[self.hand.first_step..=self.at]
            .iter()
            .any(|s| s.event == StepEvent::Exchange);
        if !after_exchange || self.step.tricks_done > 0 {
            return CardSet::EMPTY;
        }
        self.hand
            .passes
            .iter()
            .filter(|p| p.to == seat)
            .filter_map(|p| p.cards)
            .fold(CardSet::EMPTY, |all, c| all | c)
    }

    /// The trick the step completed, if it completed one.
    fn completed(&self) -> Option<usize> {
        match self.step.event {
            StepEvent::Play { completes, .. } => completes,
            _ => None,
        }
    }
}

fn table(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let mode = scene.story.mode();
    let step = scene.step;
    let sep = theme.sep();
    let cx = area.x + area.width / 2;
    let cy = area.y + area.height / 2;
    // The side hands sit as far out as the right one can while still
    // holding a long suit, so the two mirror each other at any width.
    let side_x = |place: Place| match place {
        Place::Left => area.x + 1,
        _ => (cx + 14).max(area.right().saturating_sub(27)),
    };
    for seat in mode.each_seat() {
        let place = place(mode, seat, scene.story.player.unwrap_or(Seat::new(0)));
        let next = step.next == Some(seat);
        let won = scene.completed().is_some() && step.winning == Some(seat);
        let marker = if next { theme.turn_marker() } else { " " };
        let name_style = if next || won {
            theme.accent()
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        };
        let bid = step.bids[seat].map_or("-".to_string(), |b| b.to_string());
        let label = Line::from(vec![
            Span::styled(marker, theme.accent()),
            Span::raw(" "),
            Span::styled(scene.names.seat(seat).to_string(), name_style),
            Span::raw(format!("  bid {bid}{sep}took {}", step.tricks_won[seat])),
        ]);
        let cards = step.held[seat];
        let received = scene.received(seat);
        match place {
            Place::Top | Place::Bottom => {
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
                    spans.extend(suit_spans(cards, suit, received, theme));
                }
                centered_line(buf, area, hand_y, Line::from(spans));
            }
            Place::Left | Place::Right => {
                let x = side_x(place);
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
                    let line = Line::from(suit_spans(cards, suit, received, theme));
                    buf.set_line(x + 2, cy - 2 + i as u16, &line, width.saturating_sub(2));
                }
            }
        }
        if let Some(card) = step.table[seat] {
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
    }
    // Cutthroat has no seat at the top: the card out of play goes there.
    if mode == Mode::Cutthroat
        && let Some(out) = scene.hand.out.lowest()
    {
        let line = Line::from(vec![
            Span::styled("Out of play: ", theme.dim()),
            Span::styled(theme.card(out), theme.card_colour(out)),
        ]);
        centered_line(buf, area, area.y + 1, line);
    }
}

// ----- what happened -----

fn narration(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let step = scene.step;
    let hand = scene.hand;
    let sep = theme.sep();
    let title = match step.event {
        StepEvent::Dealt => format!(" Hand {}{sep}the deal ", hand.hand),
        StepEvent::Bid { .. } => format!(" Hand {}{sep}bidding ", hand.hand),
        StepEvent::Exchange if blind_exchange(step) => {
            format!(" Hand {}{sep}blind nil exchange ", hand.hand)
        }
        StepEvent::Exchange => format!(" Hand {}{sep}nil pass ", hand.hand),
        StepEvent::Play { completes, .. } => {
            let total = scene.story.mode().hand_size();
            let trick = completes.unwrap_or(step.tricks_done + 1).min(total);
            let broken = if step.spades_broken {
                "spades broken"
            } else if scene.story.rules.play.spades_lead == SpadesLead::AnyTime {
                "spades lead any time"
            } else {
                "spades not broken"
            };
            format!(
                " Hand {}{sep}trick {trick} of {total}{sep}{broken} ",
                hand.hand
            )
        }
        StepEvent::Scored => String::new(),
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_set(theme.border())
        .title(Span::styled(title, theme.accent()));
    let inner = block.inner(area);
    block.render(area, buf);
    let (first, second) = what_happened(scene);
    let x = inner.x + 1;
    let width = inner.width.saturating_sub(2) as usize;
    buf.set_stringn(x, inner.y, first, width, Style::new());
    if inner.height > 1 {
        buf.set_stringn(x, inner.y + 1, second, width, theme.dim());
    }
}

/// Two lines on the step: what happened, and what it decided.
fn what_happened(scene: &Scene) -> (String, String) {
    let names = &scene.names;
    let theme = scene.theme;
    let step = scene.step;
    let hand = scene.hand;
    let next = |third: &str, you: &str| {
        step.next.map_or(String::new(), |s| {
            format!("{}.", subject(names.seat(s), third, you))
        })
    };
    let ends = if scene.last && hand.result.is_none() {
        "The record ends here."
    } else {
        ""
    };
    let (first, second) = match step.event {
        StepEvent::Dealt => {
            let dealer = names.seat(hand.dealer);
            let first = format!(
                "{} {}. Every hand is face up.",
                dealer,
                if dealer == "You" { "deal" } else { "deals" }
            );
            let hidden: Vec<String> = hand
                .passes
                .iter()
                .filter(|p| p.cards.is_none() && p.from < p.to)
                .map(|p| format!("{} and {}", names.seat(p.from), names.seat(p.to)))
                .collect();
            let second = match hidden.first() {
                Some(pair) => {
                    format!("{pair} passed cards you did not see: their hands are shown as played.")
                }
                None => next("bids first", "bid first"),
            };
            (first, second)
        }
        StepEvent::Bid { seat, bid } => {
            let first = format!("{} {bid}.", subject(names.seat(seat), "bids", "bid"));
            let second = match step.next {
                _ if !hand.passes.is_empty() && step.bids.iter().all(Option::is_some) => {
                    let rules = &scene.story.rules;
                    let bid = |s: Seat| step.bids[s].unwrap_or(Bid::Nil);
                    let pairs: Vec<(String, u8)> = hand
                        .passes
                        .iter()
                        .filter(|p| p.from < p.to)
                        .map(|p| {
                            let names = format!("{} and {}", names.seat(p.from), names.seat(p.to));
                            (names, rules.swap_size(bid(p.from), bid(p.to)))
                        })
                        .collect();
                    let after = if blind_exchange(step) {
                        "After the blind nil"
                    } else {
                        "After the nil"
                    };
                    let count = pairs.first().map_or(0, |p| p.1);
                    if pairs.iter().all(|p| p.1 == count) {
                        let names: Vec<&str> = pairs.iter().map(|p| p.0.as_str()).collect();
                        format!("{after}, {} exchange {count} cards.", names.join("; "))
                    } else {
                        let each: Vec<String> = pairs
                            .iter()
                            .map(|(names, n)| format!("{names} exchange {n} cards"))
                            .collect();
                        format!("After the bids, {}.", each.join("; "))
                    }
                }
                Some(s) if step.bids[s].is_some() => next("leads", "lead"),
                Some(_) => next("bids next", "bid next"),
                None => String::new(),
            };
            (first, second)
        }
        StepEvent::Exchange => {
            let passes: Vec<String> = hand
                .passes
                .iter()
                .map(|p| {
                    let from = names.seat(p.from);
                    let to = names.seat(p.to);
                    match p.cards {
                        Some(cards) => format!(
                            "{} {} to {to}",
                            subject(from, "passes", "pass"),
                            faces(cards, theme)
                        ),
                        None => format!("{} cards to {to} unseen", subject(from, "passes", "pass")),
                    }
                })
                .collect();
            (format!("{}.", passes.join("; ")), next("leads", "lead"))
        }
        StepEvent::Play {
            seat,
            card,
            completes,
        } => {
            let name = names.seat(seat);
            match completes {
                Some(k) => {
                    let winner = step.winning.unwrap_or(seat);
                    let played = format!(
                        "{} the {}",
                        subject(name, "plays", "play"),
                        theme.card(card)
                    );
                    let first = if winner == seat {
                        let takes = if name == "You" { "take" } else { "takes" };
                        format!("{played} and {takes} trick {k}.")
                    } else {
                        let with = step.table[winner].map(|c| theme.card(c));
                        format!(
                            "{played}: {} trick {k} with the {}.",
                            names.takes(winner),
                            with.unwrap_or_default()
                        )
                    };
                    let marks: Vec<String> = hand
                        .marks
                        .iter()
                        .filter(|m| m.trick == k)
                        .map(|m| mark_sentence(scene, m))
                        .collect();
                    (first, marks.join(" "))
                }
                None => {
                    let leads = step.table.iter().flatten().count() == 1;
                    let first = if leads {
                        format!(
                            "{} the {}.",
                            subject(name, "leads", "lead"),
                            theme.card(card)
                        )
                    } else if step.winning == Some(seat) {
                        format!(
                            "{} the {}, the best card so far.",
                            subject(name, "plays", "play"),
                            theme.card(card)
                        )
                    } else {
                        let winning = step.winning.map_or("", |w| names.seat(w));
                        format!(
                            "{} the {}; {} winning.",
                            subject(name, "plays", "play"),
                            theme.card(card),
                            subject(winning, "is", "are")
                        )
                    };
                    (first, String::new())
                }
            }
        }
        StepEvent::Scored => (String::new(), String::new()),
    };
    if second.is_empty() && !ends.is_empty() {
        return (first, ends.to_string());
    }
    (first, second)
}

/// "East plays", "You play": a seat's name with its verb.
fn subject(name: &str, one: &str, you: &str) -> String {
    if name == "You" {
        format!("You {you}")
    } else {
        format!("{name} {one}")
    }
}

/// What a mark decided, in a sentence.
fn mark_sentence(scene: &Scene, mark: &Mark) -> String {
    let names = &scene.names;
    let who = members(scene, mark.side);
    let plural = who.len() > 1 || who == ["You"];
    let who = who.join(" and ");
    match mark.what {
        Reached::Made { bid } => {
            format!("{who} {} made {bid}.", if plural { "have" } else { "has" })
        }
        Reached::Set { bid, taken, left } => format!(
            "{who} {} set: {taken} of {bid}, {}.",
            if plural { "are" } else { "is" },
            match left {
                0 => "no trick left".to_string(),
                1 => "1 trick left".to_string(),
                n => format!("{n} tricks left"),
            }
        ),
        Reached::NilBroken { seat } => match names.seat(seat) {
            "You" => "Your nil is broken.".to_string(),
            name => format!("{name}'s nil is broken."),
        },
    }
}

// ----- the end of a hand -----

fn score_window(scene: &Scene, area: Rect, buf: &mut Buffer) {
    let theme = scene.theme;
    let hand = scene.hand;
    let Some(result) = &hand.result else {
        return;
    };
    let story = scene.story;
    let sides = hand_summary(result, &hand.before, &story.rules, &scene.names, theme);
    let mut lines: Vec<Line> = Vec::new();
    for (i, summary) in sides.iter().enumerate() {
        let Some(side) = Side::from_index(i) else {
            continue;
        };
        lines.push(Line::styled(side_title(scene, side), theme.accent()));
        for l in &summary.lines {
            lines.push(Line::from(format!("  {l}")));
        }
        let marks: Vec<String> = hand
            .marks
            .iter()
            .filter(|m| m.side == side)
            .map(|m| match m.what {
                Reached::Made { .. } => format!("contract made at trick {}", m.trick),
                Reached::Set { .. } => format!("contract set at trick {}", m.trick),
                Reached::NilBroken { seat } => {
                    format!(
                        "{}'s nil broken at trick {}",
                        scene.names.seat(seat),
                        m.trick
                    )
                }
            })
            .collect();
        if !marks.is_empty() {
            let text = marks.join(theme.sep());
            let mut chars = text.chars();
            let text: String = chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            lines.push(Line::styled(format!("  {text}"), theme.dim()));
        }
    }
    if let Some(out) = hand.out.lowest() {
        lines.push(Line::from(format!("Card out of play: {}", theme.card(out))));
    }
    let last_hand = scene.step.hand + 1 == story.hands.len();
    if let (true, Some((winner, scores))) = (last_hand, &story.end) {
        let who = members(scene, *winner);
        let plural = who.len() > 1 || who == ["You"];
        let scores: Vec<String> = scores.iter().map(|&s| theme.number(s)).collect();
        lines.push(Line::styled(
            format!(
                "{} {} the game, {}.",
                who.join(" and "),
                if plural { "win" } else { "wins" },
                scores.join(" to ")
            ),
            theme.accent(),
        ));
    }
    let height = lines.len() as u16 + 2;
    let window = layout::window(area, 66, height);
    Clear.render(window, buf);
    let block = Block::bordered()
        .border_set(theme.border())
        .title(Span::styled(
            format!(" Hand {} scored ", hand.hand),
            theme.accent(),
        ));
    let inner = block.inner(window);
    block.render(window, buf);
    let body = Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    );
    Paragraph::new(lines).render(body, buf);
}
