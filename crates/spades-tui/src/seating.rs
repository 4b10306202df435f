//! A table's seating on a server (its lobby, before the game): who has sat
//! down, the code to send a friend, and (for the host) bots for the empty
//! seats and the start. It only shows what the server said and turns keys
//! into requests; the server decides who sits where and when the game may
//! start.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::bots::{BotSpec, Level};
use crate::engine::{Mode, Rules, Seat};
use crate::naming::{Place, place};
use crate::net::client::seating::SeatingState;
use crate::outside::clean_name;
use crate::protocol::{ClientMessage, SeatPlayer, Seating};

use super::input::Key;
use super::lobby::rating_text;
use super::text::wrap;
use super::theme::Theme;
use super::widgets::{framed, padded};

/// The widest the seating's window grows.
const WIDTH: u16 = 80;

/// What a key in the seating asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatingKey {
    Send(ClientMessage),
    Leave,
    Nothing,
}

/// The seating on screen: what the player's program knows of it, drawn,
/// and keys turned into requests to the server.
pub struct SeatingScreen<'a>(pub &'a SeatingState);

impl std::ops::Deref for SeatingScreen<'_> {
    type Target = SeatingState;
    fn deref(&self) -> &SeatingState {
        self.0
    }
}

impl SeatingScreen<'_> {
    pub fn key(&self, key: Key) -> SeatingKey {
        let Some(seating) = &self.seating else {
            return match key {
                Key::Char('q') | Key::Esc | Key::Interrupt => SeatingKey::Leave,
                _ => SeatingKey::Nothing,
            };
        };
        match key {
            Key::Char('q') | Key::Esc | Key::Interrupt => SeatingKey::Leave,
            Key::Char('b') if self.host => SeatingKey::Send(ClientMessage::Fill {
                bots: !seating.bots,
                level: seating.level.clone(),
            }),
            Key::Char('l') if self.host => {
                let levels: Vec<BotSpec> = if seating.levels.is_empty() {
                    Level::playing().map(BotSpec::from).collect()
                } else {
                    seating.levels.clone()
                };
                let at = levels.iter().position(|l| *l == seating.level).unwrap_or(0);
                SeatingKey::Send(ClientMessage::Fill {
                    bots: seating.bots,
                    level: levels[(at + 1) % levels.len()].clone(),
                })
            }
            Key::Enter | Key::Char('s') if self.host => SeatingKey::Send(ClientMessage::Start {}),
            _ => SeatingKey::Nothing,
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.render_at(area, buf, theme, Instant::now());
    }

    /// The seating at `now`: the quick-match wait counts down to it.
    pub fn render_at(&self, area: Rect, buf: &mut Buffer, theme: &Theme, now: Instant) {
        let width = area.width.min(WIDTH);
        let text_width = usize::from(width.saturating_sub(4)).max(20);
        let mut lines: Vec<Line> = Vec::new();
        let Some(seating) = &self.seating else {
            if let Some(queue) = &self.queued {
                let lines = super::waiting::lines(queue, now, text_width, theme);
                let title = super::waiting::title(queue, theme);
                return self.frame(&title, lines, area, buf, theme);
            }
            lines.push(Line::from("Waiting for the table..."));
            return self.frame("Table", lines, area, buf, theme);
        };
        if let Some(command) = &self.join_command {
            lines.extend(command_lines(
                "A friend joins with:",
                command,
                text_width,
                theme,
            ));
        }
        if let Some(command) = &self.watch_command {
            lines.extend(command_lines(
                "Or watches with:",
                command,
                text_width,
                theme,
            ));
        }
        if !lines.is_empty() {
            lines.push(Line::from(""));
        }
        lines.extend(self.seat_lines(seating, theme));
        if let Some(rules) = &self.rules {
            lines.extend(rules_lines(rules, text_width, theme));
        }
        lines.extend(ladder_lines(seating, text_width, theme));
        for news in &self.news {
            lines.push(Line::styled(news.clone(), theme.error()));
        }
        lines.push(Line::styled(self.keys(seating), Style::new()));
        self.frame(&format!("Table {}", seating.table), lines, area, buf, theme);
    }

    /// Who sits where, listed round the table from the player, as the table
    /// will show them.
    fn seat_lines(&self, seating: &Seating, theme: &Theme) -> Vec<Line<'static>> {
        let mode = self.rules.map_or(Mode::Partnership, |r| r.mode);
        let mut lines = vec![Line::styled("Seats", theme.accent())];
        let mut order: Vec<usize> = (0..seating.seats.len()).collect();
        order.sort_by_key(|&i| (i + seating.seats.len() - self.seat.index()) % seating.seats.len());
        for i in order {
            let seat = &seating.seats[i];
            let at = Seat::new(i);
            let who = match (seat.player, seat.name.as_ref().filter(|n| !n.is_empty())) {
                (SeatPlayer::Dummy, _) => "the dummy".to_string(),
                (SeatPlayer::Empty, _) if seating.bots => {
                    format!("empty: a bot ({})", seating.level)
                }
                (SeatPlayer::Empty, _) => "empty".to_string(),
                (SeatPlayer::Bot, _) => format!("a bot ({})", seating.level),
                (_, Some(name)) => crate::naming::shown_name(name, seat.guest),
                (_, None) => "someone".to_string(),
            };
            let who = match seat.rating {
                Some(r) => {
                    let shown = rating_text(r.rating, r.deviation, r.provisional, theme);
                    format!("{who}  {shown}")
                }
                None => who,
            };
            let partner = mode
                .partner(self.seat)
                .filter(|&p| p == at)
                .map_or("", |_| "  (your partner)");
            // Where the seat is from the player, as the table will show it.
            let side = match place(mode, at, self.seat) {
                Place::Bottom => "you",
                Place::Left => "left",
                Place::Top => "across",
                Place::Right => "right",
            };
            lines.push(Line::from(vec![
                Span::styled(format!("  {side:<6} "), theme.dim()),
                Span::raw(format!("{who}{partner}")),
            ]));
        }
        lines.push(Line::from(""));
        lines
    }

    /// The keys: for the host, bots, their level and the start.
    fn keys(&self, seating: &Seating) -> String {
        if self.host {
            let bots = if seating.bots { "on" } else { "off" };
            let start = if seating.can_start {
                "Enter  start"
            } else {
                "(waiting for players)"
            };
            format!(
                "b  bots {bots}   l  level {}   {start}   q  leave",
                seating.level
            )
        } else {
            "Waiting for the host to start.   q  leave".to_string()
        }
    }

    fn frame(&self, title: &str, lines: Vec<Line>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.min(WIDTH);
        let height = (lines.len() as u16 + 2).min(area.height);
        let window = super::layout::window(area, width, height);
        let inner = framed(title, window, buf, theme);
        Paragraph::new(lines).render(padded(inner), buf);
    }
}

/// A command a friend types, under `said`. The code is never broken
/// across lines, so it can be copied whole: the command goes on two lines
/// before that.
fn command_lines(
    said: &'static str,
    command: &str,
    text_width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(said, theme.accent())];
    if command.chars().count() <= text_width {
        lines.push(Line::from(command.to_string()));
    } else {
        let (verb, code) = command.rsplit_once(' ').unwrap_or(("", command));
        lines.push(Line::from(verb.to_string()));
        lines.push(Line::from(code.to_string()));
    }
    lines
}

/// Whether the server's ladder rates the game as the table stands, and
/// why not: nothing on a server without a ladder.
fn ladder_lines(seating: &Seating, text_width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let said = match (&seating.unrated, seating.rated) {
        // The server's words: cleaned and cut like a name.
        (Some(why), _) => format!(
            "unrated: {}",
            clean_name(why, text_width.saturating_sub(18))
        ),
        (None, true) => "rated: counts for the ladder".to_string(),
        (None, false) => return Vec::new(),
    };
    vec![
        Line::from(vec![
            Span::styled("Ladder ", theme.accent()),
            Span::raw(said),
        ]),
        Line::from(""),
    ]
}

/// The mode and the course of the game, and the first house rules.
fn rules_lines(rules: &Rules, text_width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let about = format!("{}, {}", rules.mode, crate::config::course(rules));
    let mut lines = vec![Line::from(vec![
        Span::styled("Rules  ", theme.accent()),
        Span::raw(about),
    ])];
    let quick = crate::config::quick_play_terms(rules);
    for rule in quick
        .into_iter()
        .chain(crate::config::house_rules(rules))
        .take(3)
    {
        for part in wrap(std::slice::from_ref(&rule), text_width.saturating_sub(2)) {
            lines.push(Line::styled(format!("  {part}"), theme.dim()));
        }
    }
    lines.push(Line::from(""));
    lines
}
