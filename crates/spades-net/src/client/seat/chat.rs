//! What the seat has to tell the player besides the game: the table's chat,
//! kept to be scrolled back through, and news (chat lines, seats changing
//! hands, the server's refusals) until the app takes it.

use std::collections::VecDeque;

use crate::engine::Seat;
use crate::protocol::SeatPlayer;

/// Chat lines kept to be scrolled back through.
const CHAT_KEPT: usize = 50;

/// The table's chat and the news not yet taken.
#[derive(Debug, Default)]
pub struct Chat {
    /// The latest `CHAT_KEPT` chat lines, newest last.
    log: VecDeque<String>,
    /// Things to tell the player, oldest first.
    news: Vec<String>,
}

impl Chat {
    /// A line to tell the player.
    pub fn tell(&mut self, line: String) {
        self.news.push(line);
    }

    /// A chat line from `from` (both cleaned as the message was read,
    /// `client::read_server`): kept, and told.
    pub fn heard(&mut self, from: &str, text: &str) {
        let line = format!("{from}: {text}");
        if self.log.len() == CHAT_KEPT {
            self.log.pop_front();
        }
        self.log.push_back(line.clone());
        self.news.push(line);
    }

    /// Who plays `seat` now, as told to the player: `name` is the shown
    /// name of whoever left or came back. A seat left empty says nothing.
    pub fn seat_changed(&mut self, seat: Seat, name: &str, player: SeatPlayer) {
        let line = match player {
            SeatPlayer::Away => {
                format!("{name} left: a computer plays seat {seat} until they come back.")
            }
            SeatPlayer::Person => format!("{name} is back at seat {seat}."),
            SeatPlayer::Bot => format!("A computer plays seat {seat}."),
            SeatPlayer::Empty | SeatPlayer::Dummy => return,
        };
        self.news.push(line);
    }

    /// The news since last taken.
    pub fn take_news(&mut self) -> Vec<String> {
        std::mem::take(&mut self.news)
    }

    /// The chat so far (the latest `CHAT_KEPT` lines), oldest first.
    pub fn log(&self) -> &VecDeque<String> {
        &self.log
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_is_told_once_and_kept_to_the_latest_lines() {
        let mut chat = Chat::default();
        chat.tell("Back at the table.".into());
        for i in 0..CHAT_KEPT + 2 {
            chat.heard("Ann", &format!("line {i}"));
        }
        let news = chat.take_news();
        assert_eq!(news.len(), CHAT_KEPT + 3);
        assert_eq!(news[0], "Back at the table.");
        assert_eq!(news[1], "Ann: line 0");
        assert!(chat.take_news().is_empty(), "told once");
        assert_eq!(chat.log().len(), CHAT_KEPT);
        assert_eq!(chat.log().front().map(String::as_str), Some("Ann: line 2"));
        assert_eq!(
            chat.log().back().map(String::as_str),
            Some(format!("Ann: line {}", CHAT_KEPT + 1).as_str())
        );
    }

    #[test]
    fn a_seat_changing_hands_is_told_and_an_empty_one_is_not() {
        let mut chat = Chat::default();
        let seat = Seat::new(2);
        chat.seat_changed(seat, "Bo", SeatPlayer::Away);
        chat.seat_changed(seat, "Bo", SeatPlayer::Person);
        chat.seat_changed(seat, "", SeatPlayer::Bot);
        chat.seat_changed(seat, "", SeatPlayer::Empty);
        chat.seat_changed(seat, "", SeatPlayer::Dummy);
        assert_eq!(
            chat.take_news(),
            [
                format!("Bo left: a computer plays seat {seat} until they come back."),
                format!("Bo is back at seat {seat}."),
                format!("A computer plays seat {seat}."),
            ]
        );
        assert!(chat.log().is_empty(), "news is not chat");
    }
}
