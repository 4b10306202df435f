//! The spectator's screen: a table on a server watched from no seat. It
//! draws what `WatchState` holds (the public view, the seats, the news)
//! with the table's own pieces: the score bar's side columns, the cards
//! on the table, each seat's name, bid and tricks. No hand row: a
//! spectator sees no cards before they are played. Nothing here knows the
//! rules; it only shows what the server said.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::engine::{Mode, Phase, PublicView, Seat, SeatEvent, Side};
use crate::naming::{Names, place};
use crate::net::client::Connection;
use crate::net::client::watch::WatchState;
use crate::protocol::{ClientMessage, SeatPlayer};
use crate::signals::{Signal, StopSignals};

use super::input::{Input, Key};
use super::layout::{Regions, regions, seat_spot};
use super::run::IDLE_WAIT;
use super::terminal::{self, Next};
use super::theme::Theme;
use super::view::score_bar::side_columns;
use super::view::table::{phase_note, progress, put_label, seat_stats, standing};
use super::widgets::{centered_line, seat_name, table_card, too_small};
use super::{Ending, TuiError};

/// What a key asks for on the spectator's screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchKey {
    Leave,
    Nothing,
}

/// The spectator's screen: the state drawn, keys read.
pub struct WatchScreen<'a>(pub &'a WatchState);

impl WatchScreen<'_> {
    pub fn key(&self, key: Key) -> WatchKey {
        match key {
            Key::Char('q') | Key::Esc | Key::Interrupt => WatchKey::Leave,
            _ => WatchKey::Nothing,
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        buf.set_style(area, theme.base());
        let Some(regions) = regions(area) else {
            return too_small(area, buf, theme, "q leaves");
        };
        let state = self.0;
        match &state.view {
            Some(view) => self.table(view, &regions, buf, theme),
            None => self.waiting(&regions, buf, theme),
        }
        self.news(&regions, buf, theme);
        let footer = match &state.closed {
            Some(why) => format!(" The table closed: {why}   q  leave"),
            None => " Watching   q  leave".to_string(),
        };
        let footer = crate::outside::clean(&footer);
        buf.set_stringn(
            regions.footer.x,
            regions.footer.y,
            footer,
            usize::from(regions.footer.width),
            theme.accent(),
        );
    }

    /// The names the server gave the seats.
    pub(crate) fn names(&self, mode: Mode) -> Names {
        // Cut as names are, then marked: the mark costs no letter.
        let seats: Vec<String> = self
            .0
            .seats
            .iter()
            .map(|s| s.name.clone().unwrap_or_default())
            .collect();
        let guests: Vec<Seat> = (0..self.0.seats.len())
            .filter(|&i| self.0.seats[i].guest)
            .map(Seat::new)
            .collect();
        Names::listed(mode, &seats).marking_guests(&guests)
    }

    /// The game: the title row and the sides' columns, then the table.
    fn table(&self, view: &PublicView, regions: &Regions, buf: &mut Buffer, theme: &Theme) {
        let mode = view.mode();
        let names = self.names(mode);
        let bar = regions.score_bar;
        buf.set_style(Rect::new(bar.x, bar.y, bar.width, 1), theme.bar());
        let sep = theme.sep();
        let table = self.0.table.as_deref().unwrap_or("");
        let course = crate::config::course(&view.rules);
        let game = if view.rules.is_quick() { "" } else { "Game " };
        let title = format!(
            " SPADES  Watching {table}{sep}Hand {}{sep}Dealer {}{sep}{game}{course}",
            view.hand_no,
            names.seat(view.dealer),
        );
        buf.set_stringn(bar.x, bar.y, title, usize::from(bar.width), theme.bar());
        let sides = Rect::new(bar.x, bar.y + 1, bar.width, bar.height.saturating_sub(1));
        let side_names = |side: Side| {
            let members: Vec<&str> = mode.side_seats(side).map(|s| names.seat(s)).collect();
            let joined = members.join(" & ");
            (joined.clone(), joined)
        };
        side_columns(theme, view, side_names, sides, buf);
        let area = regions.table;
        if view.phase == Phase::Playing {
            progress(view, false, area, buf, theme);
        }
        // Seat 0 sits at the bottom: the table seen from behind its host.
        let bottom = Seat::new(0);
        for (seat, &card) in view.play.trick.pairs() {
            let spot = seat_spot(area, place(mode, seat, bottom));
            if let Some(card) = card {
                table_card(buf, spot.card, card, theme, standing(&view.play, seat));
            }
            let turn = view.turn == Some(seat) && view.phase != Phase::Over;
            let name = seat_name(names.seat(seat).to_string(), turn, false, theme);
            let stats = seat_stats(&names, theme, view, seat);
            put_label(place(mode, seat, bottom), name, stats, spot.label, buf);
        }
        phase_note(view, false, area, buf, theme);
        if let Some(winner) = view.winner {
            let middle = Rect::new(area.x, area.y + area.height / 2, area.width, 1);
            let won = format!("Game over: {} won", side_names(winner).0);
            centered_line(buf, middle, middle.y, Line::styled(won, theme.accent()));
        }
        let last = self.0.events.back().map(|e| told(e, &names));
        if let Some(last) = last.filter(|l| !l.is_empty()) {
            let row = regions.hand;
            centered_line(buf, row, row.y + 1, Line::styled(last, theme.dim()));
        }
    }

    /// Before the game: who sits where so far.
    fn waiting(&self, regions: &Regions, buf: &mut Buffer, theme: &Theme) {
        let table = self.0.table.as_deref().unwrap_or("...");
        let mut lines = vec![
            Line::styled(format!("Table {table}"), theme.accent()),
            Line::from("The game has not started yet."),
            Line::from(""),
        ];
        for (i, seat) in self.0.seats.iter().enumerate() {
            let who = match seat.player {
                SeatPlayer::Empty => "empty".to_string(),
                SeatPlayer::Dummy => "the dummy".to_string(),
                SeatPlayer::Bot => format!("{} (a computer)", self.0.name(i)),
                _ => self.0.name(i),
            };
            lines.push(Line::from(format!(
                "Seat {i}: {}",
                crate::outside::clean(&who)
            )));
        }
        let area = regions.table;
        for (i, line) in lines.into_iter().enumerate() {
            let y = area.y + i as u16;
            if y < area.bottom() {
                centered_line(buf, area, y, line);
            }
        }
    }

    /// Chat and the table's news, newest last, in the panel.
    fn news(&self, regions: &Regions, buf: &mut Buffer, theme: &Theme) {
        let panel = regions.panel;
        let shown = self.0.news.iter().rev().take(usize::from(panel.height));
        for (i, line) in shown.rev().enumerate() {
            buf.set_stringn(
                panel.x + 1,
                panel.y + i as u16,
                crate::outside::clean(line),
                usize::from(panel.width.saturating_sub(2)),
                theme.dim(),
            );
        }
    }
}

/// The last thing that happened, in words.
fn told(event: &SeatEvent, names: &Names) -> String {
    match event {
        SeatEvent::Dealt { hand, dealer } => {
            format!("Hand {hand} dealt by {}", names.seat(*dealer))
        }
        SeatEvent::Bid { seat, bid, .. } => format!("{} bid {bid}", names.seat(*seat)),
        SeatEvent::Exchange { from, to, .. } => {
            format!("{} passed cards to {}", names.seat(*from), names.seat(*to))
        }
        SeatEvent::Play { seat, card, .. } => format!("{} played {card}", names.seat(*seat)),
        SeatEvent::Trick { winner, .. } => names.takes(*winner) + " the trick",
        SeatEvent::Score { hand, .. } => format!("Hand {hand} scored"),
        SeatEvent::End { .. } => "The game is over".to_string(),
    }
}

/// How watching a table ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchEnd {
    /// The spectator left (`q`), the table's end on screen or not.
    Left,
    /// Ctrl-C or a stop signal: how the program ends.
    Stopped(Ending),
}

/// Shows the table `connection` watches (the server has said `watching`)
/// until the spectator leaves; the table's end stays on screen until then.
pub fn run_watch(connection: &mut Connection, theme: &Theme) -> Result<WatchEnd, TuiError> {
    let signals = StopSignals::watch()?;
    let mut session = terminal::Session::start()?;
    let result = follow(connection, &mut session, &signals, theme);
    connection.send(ClientMessage::StopWatching {});
    let restored = session.end();
    match signals.received() {
        Some(signal) => Ok(WatchEnd::Stopped(Ending::Signal(signal))),
        None => result.and_then(|end| restored.map(|()| end).map_err(TuiError::from)),
    }
}

fn follow(
    connection: &mut Connection,
    session: &mut terminal::Session,
    signals: &StopSignals,
    theme: &Theme,
) -> Result<WatchEnd, TuiError> {
    let mut state = WatchState::default();
    loop {
        if signals.received().is_some() {
            return Ok(WatchEnd::Left);
        }
        while let Some(incoming) = connection.try_recv() {
            state.take(incoming);
        }
        session.terminal().draw(|frame| {
            WatchScreen(&state).render(frame.area(), frame.buffer_mut(), theme);
        })?;
        match session.next_input(IDLE_WAIT)? {
            Next::HungUp => return Ok(WatchEnd::Stopped(Ending::Signal(Signal::HANGUP))),
            Next::Input(Input::Key(Key::Interrupt)) => {
                return Ok(WatchEnd::Stopped(Ending::Interrupted));
            }
            Next::Input(Input::Key(key)) if WatchScreen(&state).key(key) == WatchKey::Leave => {
                return Ok(WatchEnd::Left);
            }
            Next::Input(_) | Next::Nothing => {}
        }
    }
}
