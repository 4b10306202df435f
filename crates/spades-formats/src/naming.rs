//! Who sits where: seat names, side names, and each seat's place around the
//! table as the player sees it (always at the bottom). The table, the
//! server and every screen name seats this one way.

use crate::engine::{Mode, Seat, Side};

/// Where a seat is drawn around the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Bottom,
    Left,
    Top,
    Right,
}

/// Seats run clockwise from the player (`you`, always at the bottom): with
/// four, left, opposite, right; with three (cutthroat), left and right.
pub fn place(mode: Mode, seat: Seat, you: Seat) -> Place {
    let from_you = (seat.index() + mode.seats() - you.index()) % mode.seats();
    match (mode.seats(), from_you) {
        (_, 0) => Place::Bottom,
        (_, 1) => Place::Left,
        (3, _) => Place::Right,
        (_, 2) => Place::Top,
        _ => Place::Right,
    }
}

/// The most columns of a terminal a name takes (a fullwidth letter takes
/// two).
pub const MAX_NAME: usize = 12;

/// The most bytes a name takes (UTF-8): combining marks take no column, so
/// the columns alone would not bound a name's length on the wire.
pub const MAX_NAME_BYTES: usize = MAX_NAME * crate::outside::BYTES_PER_COLUMN;

/// What marks a guest's name on every screen and in chat: a person not
/// signed in, on a server that keeps a ladder, who is no registered player.
pub const GUEST_MARK: char = '~';

/// A name as shown, marked when a guest's: `~Bob`.
pub fn shown_name(name: &str, guest: bool) -> String {
    if guest {
        format!("{GUEST_MARK}{name}")
    } else {
        name.to_string()
    }
}

/// Names for every seat and side of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    mode: Mode,
    seats: Vec<String>,
    /// The player's seat, whose side is "Us".
    you: Seat,
}

impl Names {
    pub fn new(mode: Mode, you: &str) -> Names {
        // A name longer than this would push the table's labels apart.
        let you = crate::outside::clean_name(you, MAX_NAME);
        let you = if you.is_empty() { "You" } else { you.as_str() };
        let seats = mode
            .each_seat()
            .map(|seat| match place(mode, seat, Seat::new(0)) {
                _ if !mode.is_player(seat) => "Dummy".to_string(),
                Place::Bottom => you.to_string(),
                Place::Left => "West".to_string(),
                Place::Top => "North".to_string(),
                Place::Right => "East".to_string(),
            })
            .collect();
        Names {
            mode,
            seats,
            you: Seat::new(0),
        }
    }

    /// The same names, the `guests`' marked (`shown_name`).
    pub fn marking_guests(mut self, guests: &[Seat]) -> Names {
        for seat in guests {
            if let Some(name) = self.seats.get_mut(seat.index()) {
                *name = shown_name(name, true);
            }
        }
        self
    }

    /// The same names, told from `you`'s seat: its side is "Us".
    pub fn seen_from(self, you: Seat) -> Names {
        Names { you, ..self }
    }

    /// The names a game's record gives its seats, each cleaned and cut to
    /// `MAX_NAME` columns;
    /// a seat with no name is called by its number.
    pub fn listed(mode: Mode, seats: &[String]) -> Names {
        let seats = mode
            .each_seat()
            .map(|seat| {
                let name: String = seats
                    .get(seat.index())
                    .map(|n| crate::outside::clean_name(n, MAX_NAME))
                    .unwrap_or_default();
                if name.is_empty() {
                    format!("Seat {seat}")
                } else {
                    name
                }
            })
            .collect();
        Names {
            mode,
            seats,
            you: Seat::new(0),
        }
    }

    /// Every seat's name in seat order, as the table and the record take them.
    pub fn all(&self) -> Vec<String> {
        self.seats.clone()
    }

    pub fn seat(&self, seat: Seat) -> &str {
        self.seats.get(seat.index()).map_or("?", String::as_str)
    }

    /// A seat's name with "take" agreeing with it: "You take", "East takes".
    pub fn takes(&self, seat: Seat) -> String {
        let name = self.seat(seat);
        if name == "You" {
            "You take".to_string()
        } else {
            format!("{name} takes")
        }
    }

    /// A side in a word: "Us" and "Them" with partners, else the seat's name.
    pub fn side(&self, side: Side) -> String {
        let ours = side == self.mode.side_of(self.you);
        match (self.mode, ours) {
            (Mode::Partnership, true) => "Us".to_string(),
            (Mode::Partnership, false) => "Them".to_string(),
            // Without partners a side is its one seat.
            _ => self.seat(Seat::new(side.index())).to_string(),
        }
    }

    /// A side with its players: "Us (You & North)".
    pub fn side_in_full(&self, side: Side) -> String {
        if !self.mode.has_partners() {
            return self.side(side);
        }
        let members: Vec<&str> = self.mode.side_seats(side).map(|s| self.seat(s)).collect();
        format!("{} ({})", self.side(side), members.join(" & "))
    }

    /// Who won, as a sentence's subject and verb.
    pub fn winners(&self, side: Side) -> String {
        if self.mode.has_partners() {
            let members: Vec<&str> = self.mode.side_seats(side).map(|s| self.seat(s)).collect();
            format!("{} win", members.join(" and "))
        } else if side == self.mode.side_of(self.you) {
            "You win".to_string()
        } else {
            format!("{} wins", self.side(side))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_sit_opposite() {
        assert_eq!(
            place(Mode::Partnership, Seat::new(2), Seat::new(0)),
            Place::Top
        );
        assert_eq!(
            place(Mode::Partnership, Seat::new(0), Seat::new(2)),
            Place::Top
        );
        assert_eq!(
            place(Mode::Partnership, Seat::new(3), Seat::new(2)),
            Place::Left
        );
        assert_eq!(
            place(Mode::Cutthroat, Seat::new(2), Seat::new(0)),
            Place::Right
        );
        assert_eq!(
            place(Mode::Individual, Seat::new(3), Seat::new(0)),
            Place::Right
        );
        let names = Names::new(Mode::Partnership, "Ada");
        assert_eq!(names.side_in_full(Side::new(0)), "Us (Ada & North)");
        assert_eq!(names.side_in_full(Side::new(1)), "Them (West & East)");
        assert_eq!(names.winners(Side::new(1)), "West and East win");
        let names = Names::new(Mode::Cutthroat, "You");
        assert_eq!(names.seat(Seat::new(2)), "East");
        assert_eq!(names.takes(Seat::new(0)), "You take");
        assert_eq!(names.takes(Seat::new(2)), "East takes");
        assert_eq!(names.winners(Side::new(0)), "You win");
    }
}
