//! The lobby of a table on a server: who has sat down, the code to send a
//! friend, and (for the host) bots for the empty seats and the start. It
//! only shows what the server said and turns keys into requests; the
//! server decides who sits where and when the game may start.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::engine::{Mode, Rules, Seat};
use crate::net::protocol::{ClientMessage, Lobby, SeatPlayer};

use super::input::Key;
use super::seats::{Place, place};
use super::theme::Theme;
use super::view::{framed, wrap};

/// The bot levels a host may fill seats with.
const LEVELS: [&str; 3] = ["easy", "normal", "hard"];

/// The widest the lobby's window grows.
const WIDTH: u16 = 76;

/// The lobby as this player sees it.
#[derive(Debug, Clone)]
pub struct LobbyScreen {
    pub seat: Seat,
    pub host: bool,
    /// What a friend types to join, when this player can tell them.
    pub join_command: Option<String>,
    pub lobby: Option<Lobby>,
    pub rules: Option<Rules>,
    /// Chat lines and the server's refusals, newest last.
    pub news: Vec<String>,
}

/// What a key in the lobby asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobbyKey {
    Send(ClientMessage),
    Leave,
    Nothing,
}

impl LobbyScreen {
    pub fn new(seat: Seat, host: bool, join_command: Option<String>) -> LobbyScreen {
        LobbyScreen {
            seat,
            host,
            join_command,
            lobby: None,
            rules: None,
            news: Vec::new(),
        }
    }

    /// The lobby the server sent, with the rules it holds.
    pub fn update(&mut self, lobby: Lobby) {
        self.rules = crate::config::parse_rules(&lobby.rules, "the table's rules").ok();
        self.lobby = Some(lobby);
    }

    pub fn tell(&mut self, news: String) {
        self.news.push(news);
        let keep = 4;
        if self.news.len() > keep {
            self.news.drain(..self.news.len() - keep);
        }
    }

    pub fn key(&self, key: Key) -> LobbyKey {
        let Some(lobby) = &self.lobby else {
            return match key {
                Key::Char('q') | Key::Esc | Key::Interrupt => LobbyKey::Leave,
                _ => LobbyKey::Nothing,
            };
        };
        match key {
            Key::Char('q') | Key::Esc | Key::Interrupt => LobbyKey::Leave,
            Key::Char('b') if self.host => LobbyKey::Send(ClientMessage::Fill {
                bots: !lobby.bots,
                level: lobby.level.clone(),
            }),
            Key::Char('l') if self.host => {
                let at = LEVELS.iter().position(|&l| l == lobby.level).unwrap_or(0);
                LobbyKey::Send(ClientMessage::Fill {
                    bots: lobby.bots,
                    level: LEVELS[(at + 1) % LEVELS.len()].to_string(),
                })
            }
            Key::Enter | Key::Char('s') if self.host => LobbyKey::Send(ClientMessage::Start {}),
            _ => LobbyKey::Nothing,
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.min(WIDTH);
        let text_width = usize::from(width.saturating_sub(4)).max(20);
        let mut lines: Vec<Line> = Vec::new();
        let Some(lobby) = &self.lobby else {
            lines.push(Line::from("Waiting for the table..."));
            return self.frame("Table", lines, area, buf, theme);
        };
        let mode = self.rules.map_or(Mode::Partnership, |r| r.mode);
        if let Some(command) = &self.join_command {
            lines.push(Line::styled("A friend joins with:", theme.accent()));
            for part in wrap(std::slice::from_ref(command), text_width) {
                lines.push(Line::from(format!("  {part}")));
            }
            lines.push(Line::from(""));
        }
        let names: Vec<String> = lobby
            .seats
            .iter()
            .map(|s| s.name.clone().unwrap_or_default())
            .collect();
        lines.push(Line::styled("Seats", theme.accent()));
        for (i, seat) in lobby.seats.iter().enumerate() {
            let at = Seat::new(i);
            let who = match (seat.player, names.get(i).filter(|n| !n.is_empty())) {
                (SeatPlayer::Dummy, _) => "the dummy".to_string(),
                (SeatPlayer::Empty, _) if lobby.bots => format!("empty: a {} bot", lobby.level),
                (SeatPlayer::Empty, _) => "empty".to_string(),
                (SeatPlayer::Bot, _) => format!("a {} bot", lobby.level),
                (_, Some(name)) => name.clone(),
                (_, None) => "someone".to_string(),
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
        if let Some(rules) = &self.rules {
            let about = format!("{mode}, {}", rules.course());
            lines.push(Line::from(vec![
                Span::styled("Rules  ", theme.accent()),
                Span::raw(about),
            ]));
            for rule in rules.house_rules().into_iter().take(3) {
                for part in wrap(std::slice::from_ref(&rule), text_width.saturating_sub(2)) {
                    lines.push(Line::styled(format!("  {part}"), theme.dim()));
                }
            }
            lines.push(Line::from(""));
        }
        for news in &self.news {
            lines.push(Line::styled(news.clone(), theme.error()));
        }
        let keys = if self.host {
            let bots = if lobby.bots { "on" } else { "off" };
            let start = if lobby.can_start {
                "Enter  start"
            } else {
                "(waiting for players)"
            };
            format!(
                "b  bots {bots}   l  level {}   {start}   q  leave",
                lobby.level
            )
        } else {
            "Waiting for the host to start.   q  leave".to_string()
        };
        lines.push(Line::styled(keys, Style::new()));
        self.frame(&format!("Table {}", lobby.table), lines, area, buf, theme);
    }

    fn frame(&self, title: &str, lines: Vec<Line>, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = area.width.min(WIDTH);
        let height = (lines.len() as u16 + 2).min(area.height);
        let window = super::layout::window(area, width, height);
        let inner = framed(title, window, buf, theme);
        let inner = Rect::new(
            inner.x + 1,
            inner.y,
            inner.width.saturating_sub(2),
            inner.height,
        );
        Paragraph::new(lines).render(inner, buf);
    }
}
