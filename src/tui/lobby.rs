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
use crate::net::client::Incoming;
use crate::net::protocol::{BOT_LEVELS, ClientMessage, Lobby, SeatPlayer, ServerMessage};

use super::input::Key;
use super::seats::{Place, place};
use super::theme::Theme;
use super::view::{framed, wrap};

/// The widest the lobby's window grows.
const WIDTH: u16 = 80;

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
                let levels: Vec<String> = if lobby.levels.is_empty() {
                    BOT_LEVELS.iter().map(|l| l.to_string()).collect()
                } else {
                    lobby.levels.clone()
                };
                let at = levels.iter().position(|l| *l == lobby.level).unwrap_or(0);
                LobbyKey::Send(ClientMessage::Fill {
                    bots: lobby.bots,
                    level: levels[(at + 1) % levels.len()].clone(),
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
            // The code is never broken across lines, so it can be copied
            // whole: the command goes on two lines before that.
            if command.chars().count() <= text_width {
                lines.push(Line::from(command.clone()));
            } else {
                let (verb, code) = command.rsplit_once(' ').unwrap_or(("", command));
                lines.push(Line::from(verb.to_string()));
                lines.push(Line::from(code.to_string()));
            }
            lines.push(Line::from(""));
        }
        lines.push(Line::styled("Seats", theme.accent()));
        // Listed round the table from the player, as the table will show them.
        let mut order: Vec<usize> = (0..lobby.seats.len()).collect();
        order.sort_by_key(|&i| (i + lobby.seats.len() - self.seat.index()) % lobby.seats.len());
        for i in order {
            let seat = &lobby.seats[i];
            let at = Seat::new(i);
            let who = match (seat.player, seat.name.as_ref().filter(|n| !n.is_empty())) {
                (SeatPlayer::Dummy, _) => "the dummy".to_string(),
                (SeatPlayer::Empty, _) if lobby.bots => format!("empty: a bot ({})", lobby.level),
                (SeatPlayer::Empty, _) => "empty".to_string(),
                (SeatPlayer::Bot, _) => format!("a bot ({})", lobby.level),
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

/// The game's first moments, as the lobby hands them to the table.
#[derive(Debug)]
pub struct Started {
    pub commitment: Option<crate::fairness::Commitment>,
    pub names: Vec<String>,
    pub view: crate::engine::PlayerView,
    /// What came with the start, in order, the first view included.
    pub queued: Vec<ServerMessage>,
    /// The table and the seat's token, to take the seat back if the
    /// connection drops.
    pub seat_token: Option<(String, String)>,
}

/// The lobby following the server: who sits where, until the game starts
/// and the first view of the player's seat arrives.
pub struct Waiting {
    pub screen: LobbyScreen,
    seat_token: Option<(String, String)>,
    start: Option<(Option<crate::fairness::Commitment>, Vec<String>)>,
    queued: Vec<ServerMessage>,
}

impl Waiting {
    pub fn new(screen: LobbyScreen) -> Waiting {
        Waiting {
            screen,
            seat_token: None,
            start: None,
            queued: Vec::new(),
        }
    }

    /// Takes in what the server said: `Some(Ok)` once the game has begun,
    /// `Some(Err(why))` when the table is gone.
    pub fn take(
        &mut self,
        incoming: Incoming,
        joining: &mut super::Joining,
    ) -> Option<Result<Started, String>> {
        let message = match incoming {
            Incoming::Message(m) => m,
            Incoming::Unreadable(why) => {
                self.screen
                    .tell(format!("The table sent something unreadable: {why}"));
                return None;
            }
            Incoming::Closed(why) => return Some(Err(why)),
        };
        if let Some((commitment, names)) = &self.start {
            // The game has begun: everything goes to the table, and the
            // first view of the player's own seat opens it.
            let view = match &message {
                ServerMessage::View { view } => Some((**view).clone()),
                ServerMessage::Ask { view, seat, .. } if *seat == view.seat => {
                    Some((**view).clone())
                }
                _ => None,
            };
            let ended = matches!(message, ServerMessage::Bye { .. });
            self.queued.push(message);
            if let Some(view) = view {
                return Some(Ok(Started {
                    commitment: commitment.clone(),
                    names: names.clone(),
                    view,
                    queued: std::mem::take(&mut self.queued),
                    seat_token: self.seat_token.clone(),
                }));
            }
            if ended {
                return Some(Err("the table closed as the game began".into()));
            }
            return None;
        }
        match message {
            ServerMessage::Seated {
                table,
                seat,
                token,
                host,
            } => {
                (joining.keep_token)(&table, &token);
                self.seat_token = Some((table.clone(), token));
                self.screen.seat = seat;
                self.screen.host = host;
                self.screen.join_command = Some((joining.join_command)(&table));
            }
            ServerMessage::Lobby(lobby) => self.screen.update(lobby),
            ServerMessage::Start { commitment, seats } => {
                let commitment = commitment.and_then(|c| crate::fairness::Commitment::parse(&c));
                self.start = Some((commitment, seats));
            }
            ServerMessage::Chat { from, text } => self.screen.tell(format!("{from}: {text}")),
            ServerMessage::Error { message, .. } => self.screen.tell(message),
            ServerMessage::Bye { reason } => return Some(Err(reason)),
            _ => {}
        }
        None
    }
}
