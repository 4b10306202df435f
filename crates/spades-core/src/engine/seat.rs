//! Table modes, seats and sides, and `PerSeat`/`PerSide`: one value for
//! each seat (or side) a table really has, with no placeholder for a fourth
//! seat in a three-seat game.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most seats any mode has; per-seat data holds at most this many.
pub const MAX_SEATS: usize = 4;

/// Who plays with whom: the table's form of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Four seats in two sides, partners opposite; 13 cards each.
    #[default]
    Partnership,
    /// Three seats, each alone; 17 cards each and one card out of play.
    Cutthroat,
    /// Four seats, each alone; 13 cards each.
    Individual,
    /// Three players and a dummy hand in seat 3, 13 cards each: each hand
    /// the highest bidder (the declarer) plays with the dummy against the
    /// other two; every player scores alone (see [`Teams`]).
    Dummy,
}

/// The dummy's seat in dummy mode: the last seat, so that the players
/// are seats 0, 1 and 2 and each player's side has its seat's number.
pub const DUMMY_SEAT: Seat = Seat(3);

/// A seat at the table. Seats are numbered `0..n` clockwise, in the order
/// play goes round; in an interactive game seat 0 is the local player.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

/// A side: the seats that score together. In partnership seats 0 and 2 are
/// side 0 and seats 1 and 3 side 1; in the other modes every seat is a side
/// of its own, with the seat's number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Side(u8);

impl Seat {
    /// Seat `i`. Panics when `i` is not below [`MAX_SEATS`]: for constants
    /// and tests; input from outside goes through [`Seat::from_index`].
    pub const fn new(i: usize) -> Seat {
        assert!(i < MAX_SEATS, "a table has at most four seats");
        Seat(i as u8)
    }

    /// Seat `i`, if any table has one.
    pub const fn from_index(i: usize) -> Option<Seat> {
        if i < MAX_SEATS {
            Some(Seat(i as u8))
        } else {
            None
        }
    }

    /// The seat's place, from 0, in the order the seats play.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Seat `i` for an `i` the caller knows is a seat (hot paths keep seats
    /// as bytes); the mask keeps any other value in range.
    pub(crate) const fn masked(i: u8) -> Seat {
        Seat(i & (MAX_SEATS as u8 - 1))
    }
}

impl Side {
    /// Side `i`. Panics when `i` is not below [`MAX_SEATS`].
    pub const fn new(i: usize) -> Side {
        assert!(i < MAX_SEATS, "a table has at most four sides");
        Side(i as u8)
    }

    /// The side with index `i`, if a table may have that many sides.
    pub const fn from_index(i: usize) -> Option<Side> {
        if i < MAX_SEATS {
            Some(Side(i as u8))
        } else {
            None
        }
    }

    /// The side's place, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl Mode {
    /// Every mode, in the order the menus list them.
    pub const ALL: [Mode; 4] = [
        Mode::Partnership,
        Mode::Cutthroat,
        Mode::Individual,
        Mode::Dummy,
    ];

    /// How many seats play.
    pub const fn seats(self) -> usize {
        match self {
            Mode::Cutthroat => 3,
            _ => 4,
        }
    }

    /// The seats where players sit: every seat but the dummy's.
    pub const fn players(self) -> usize {
        match self {
            Mode::Dummy => 3,
            m => m.seats(),
        }
    }

    /// Cards dealt to each seat, which is also the number of tricks in a hand.
    pub const fn hand_size(self) -> usize {
        match self {
            Mode::Cutthroat => 17,
            _ => 13,
        }
    }

    /// How many sides score apart.
    pub const fn sides(self) -> usize {
        match self {
            Mode::Partnership => 2,
            Mode::Dummy => 3,
            m => m.seats(),
        }
    }

    /// The seat whose cards the declarer plays, in dummy mode.
    pub const fn dummy(self) -> Option<Seat> {
        match self {
            Mode::Dummy => Some(DUMMY_SEAT),
            _ => None,
        }
    }

    /// Does a player sit in `seat` (every seat but the dummy's)? Only
    /// players deal and bid.
    pub const fn is_player(self, seat: Seat) -> bool {
        !matches!(self, Mode::Dummy) || seat.0 != DUMMY_SEAT.0
    }

    /// The next seat clockwise where a player sits: the deal passes to it,
    /// and after the dealer it bids (and leads) first.
    pub const fn next_player(self, seat: Seat) -> Seat {
        let next = self.next(seat);
        if self.is_player(next) {
            next
        } else {
            self.next(next)
        }
    }

    /// The seats where players sit, clockwise from seat 0.
    pub fn each_player(self) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        self.each_seat().filter(move |&s| self.is_player(s))
    }

    /// Does a seat share its contract and score with a partner?
    pub const fn has_partners(self) -> bool {
        matches!(self, Mode::Partnership)
    }

    /// Every seat of the table, clockwise from seat 0.
    pub fn each_seat(self) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        (0..self.seats() as u8).map(Seat)
    }

    /// Every side of the table.
    pub fn each_side(self) -> impl DoubleEndedIterator<Item = Side> + Clone {
        (0..self.sides() as u8).map(Side)
    }

    /// Is `seat` one of this table's seats?
    pub const fn has_seat(self, seat: Seat) -> bool {
        seat.index() < self.seats()
    }

    /// The seat `steps` places clockwise from `seat`.
    pub const fn after(self, seat: Seat, steps: usize) -> Seat {
        Seat(((seat.index() + steps) % self.seats()) as u8)
    }

    /// The next seat clockwise: the one to `seat`'s left.
    pub const fn next(self, seat: Seat) -> Seat {
        self.after(seat, 1)
    }

    /// The side `seat` scores for. The dummy has no side of its own (its
    /// tricks count for the declarer, [`Teams::scoring_side`]): here it
    /// gets a number past the table's sides.
    pub const fn side_of(self, seat: Seat) -> Side {
        match self {
            Mode::Partnership => Side(seat.0 % 2),
            _ => Side(seat.0),
        }
    }

    /// The seat's partner, if the mode has partners.
    pub const fn partner(self, seat: Seat) -> Option<Seat> {
        match self {
            Mode::Partnership => Some(Seat((seat.0 + 2) % 4)),
            _ => None,
        }
    }

    /// The seats of one side, in seat order.
    pub fn side_seats(self, side: Side) -> impl Iterator<Item = Seat> + Clone {
        self.each_seat().filter(move |&s| self.side_of(s) == side)
    }

    /// The mode's name, as written in rules files and records.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Partnership => "partnership",
            Mode::Cutthroat => "cutthroat",
            Mode::Individual => "individual",
            Mode::Dummy => "dummy",
        }
    }
}

/// Who plays with whom in one hand. Fixed by the mode, except in dummy
/// mode: there the declarer (known once the bidding is over) plays with
/// the dummy, and the other two players, the defenders, play together;
/// every player still scores for a side of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Teams {
    mode: Mode,
    declarer: Option<Seat>,
}

impl Teams {
    /// The teams of a hand of `mode` whose declarer is `declarer` (none
    /// outside dummy mode, nor before the bidding is over).
    pub const fn new(mode: Mode, declarer: Option<Seat>) -> Teams {
        let declarer = match mode {
            Mode::Dummy => declarer,
            _ => None,
        };
        Teams { mode, declarer }
    }

    /// The mode the teams are for.
    pub const fn mode(&self) -> Mode {
        self.mode
    }

    /// The player who plays with the dummy this hand.
    pub const fn declarer(&self) -> Option<Seat> {
        self.declarer
    }

    /// Is `seat` a defender (a player other than the declarer, once known)?
    pub fn is_defender(&self, seat: Seat) -> bool {
        self.declarer
            .is_some_and(|d| d != seat && self.mode.is_player(seat))
    }

    /// Who plays with `seat` this hand.
    pub fn partner(&self, seat: Seat) -> Option<Seat> {
        let Some(declarer) = self.declarer else {
            return self.mode.partner(seat);
        };
        if seat == declarer {
            return self.mode.dummy();
        }
        if Some(seat) == self.mode.dummy() {
            return Some(declarer);
        }
        self.mode
            .each_player()
            .find(|&s| s != seat && s != declarer)
    }

    /// Who decides for `seat`: the declarer for the dummy, else the seat.
    pub fn player_for(&self, seat: Seat) -> Seat {
        match (self.declarer, self.mode.dummy()) {
            (Some(declarer), Some(dummy)) if seat == dummy => declarer,
            _ => seat,
        }
    }

    /// The side whose score `seat`'s tricks count for: the declarer's
    /// for the dummy.
    pub fn scoring_side(&self, seat: Seat) -> Side {
        self.mode.side_of(self.player_for(seat))
    }

    /// The seats that play together with `seat` this hand, `seat` first.
    pub fn team(&self, seat: Seat) -> impl Iterator<Item = Seat> + Clone {
        std::iter::once(seat).chain(self.partner(seat))
    }

    /// The tricks that count for `side`: its seats', and with a dummy the
    /// dummy's for its declarer.
    pub fn side_tricks(&self, side: Side, won: &PerSeat<u8>) -> u8 {
        self.mode
            .each_seat()
            .filter(|&s| self.scoring_side(s) == side)
            .map(|s| won[s])
            .sum()
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown mode `{s}`: use partnership, cutthroat, individual or dummy")
            })
    }
}

/// Seats and sides print, and are written in records, as their numbers.
macro_rules! numbered {
    ($t:ident, $what:literal) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $what, self.0)
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_u8(self.0)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let i = u64::deserialize(d)?;
                usize::try_from(i)
                    .ok()
                    .and_then($t::from_index)
                    .ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "{} {i} does not exist: a table has at most {MAX_SEATS}",
                            $what
                        ))
                    })
            }
        }

        impl Key for $t {
            fn count(mode: Mode) -> usize {
                $t::count_in(mode)
            }
            fn index(self) -> usize {
                self.0 as usize
            }
            fn nth(i: usize) -> $t {
                $t(i as u8)
            }
        }
    };
}

numbered!(Seat, "seat ");
numbered!(Side, "side ");

impl Seat {
    const fn count_in(mode: Mode) -> usize {
        mode.seats()
    }
}

impl Side {
    const fn count_in(mode: Mode) -> usize {
        mode.sides()
    }
}

/// What `PerSeat` and `PerSide` are indexed by.
pub trait Key: Copy {
    /// How many a table of `mode` has.
    fn count(mode: Mode) -> usize;
    /// The key's place, from 0.
    fn index(self) -> usize;
    /// The key with index `i`, for `i` below `MAX_SEATS`.
    fn nth(i: usize) -> Self;
}

/// One `T` for each seat (or side) of a table: exactly as many as the mode
/// has, iterated and compared only over those. `Copy` and allocation-free,
/// so hand states holding it stay cheap to copy.
pub struct Each<K, T> {
    len: u8,
    items: [T; MAX_SEATS],
    key: PhantomData<K>,
}

/// One value per seat of the table.
pub type PerSeat<T> = Each<Seat, T>;
/// One value per side of the table.
pub type PerSide<T> = Each<Side, T>;

impl<K: Key, T: Copy> Each<K, T> {
    /// `f(key)` for every seat (or side) of a `mode` table.
    pub fn from_fn(mode: Mode, mut f: impl FnMut(K) -> T) -> Each<K, T> {
        let len = K::count(mode);
        let first = f(K::nth(0));
        // The slots past `len` are never read; they hold a copy of the first.
        let mut items = [first; MAX_SEATS];
        for (i, item) in items.iter_mut().enumerate().take(len).skip(1) {
            *item = f(K::nth(i));
        }
        Each {
            len: len as u8,
            items,
            key: PhantomData,
        }
    }

    /// The same value for every seat (or side).
    pub fn filled(mode: Mode, value: T) -> Each<K, T> {
        Each::from_fn(mode, |_| value)
    }

    /// The values in order, when there are as many as a table of some mode
    /// has seats (or sides): 2, 3 or 4 of them.
    pub fn from_slice(values: &[T]) -> Option<Each<K, T>> {
        let first = *values.first()?;
        if values.len() > MAX_SEATS {
            return None;
        }
        let mut items = [first; MAX_SEATS];
        items[..values.len()].copy_from_slice(values);
        Some(Each {
            len: values.len() as u8,
            items,
            key: PhantomData,
        })
    }

    /// The first `len` of `items`, for hot paths that fill an array.
    pub(crate) fn from_array(len: usize, items: [T; MAX_SEATS]) -> Each<K, T> {
        debug_assert!((1..=MAX_SEATS).contains(&len));
        Each {
            len: len as u8,
            items,
            key: PhantomData,
        }
    }

    /// The same seats (or sides), each value changed by `f`.
    pub fn map<U: Copy>(&self, mut f: impl FnMut(T) -> U) -> Each<K, U> {
        let first = f(self.items[0]);
        let mut items = [first; MAX_SEATS];
        for (out, &item) in items.iter_mut().zip(self.as_slice()).skip(1) {
            *out = f(item);
        }
        Each {
            len: self.len,
            items,
            key: PhantomData,
        }
    }
}

impl<K: Key, T> Each<K, T> {
    /// How many seats (or sides).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Is it for no seat? (Never, for a table's modes.)
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, the first seat's first.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len()]
    }

    /// The values to change in place, the first seat's first.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = self.len();
        &mut self.items[..len]
    }

    /// The values, the first seat's first.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// Each seat (or side) with its value.
    pub fn pairs(&self) -> impl DoubleEndedIterator<Item = (K, &T)> {
        self.iter().enumerate().map(|(i, v)| (K::nth(i), v))
    }

    /// The value of a seat (or side), if the table has it.
    pub fn get(&self, key: K) -> Option<&T> {
        self.as_slice().get(key.index())
    }

    /// The values in a `Vec`, the first seat's first.
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.as_slice().to_vec()
    }
}

impl<K: Key, T> Index<K> for Each<K, T> {
    type Output = T;
    #[inline]
    fn index(&self, key: K) -> &T {
        debug_assert!(key.index() < self.len(), "no such seat at this table");
        // Keys are below MAX_SEATS by construction: the mask spares the
        // bounds check on hot paths.
        &self.items[key.index() & (MAX_SEATS - 1)]
    }
}

impl<K: Key, T> IndexMut<K> for Each<K, T> {
    #[inline]
    fn index_mut(&mut self, key: K) -> &mut T {
        debug_assert!(key.index() < self.len(), "no such seat at this table");
        &mut self.items[key.index() & (MAX_SEATS - 1)]
    }
}

impl<K, T: Clone> Clone for Each<K, T> {
    fn clone(&self) -> Each<K, T> {
        Each {
            len: self.len,
            items: self.items.clone(),
            key: PhantomData,
        }
    }
}

impl<K, T: Copy> Copy for Each<K, T> {}

impl<K: Key, T: PartialEq> PartialEq for Each<K, T> {
    fn eq(&self, other: &Each<K, T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<K: Key, T: Eq> Eq for Each<K, T> {}

impl<K: Key, T: std::hash::Hash> std::hash::Hash for Each<K, T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<K: Key, T: fmt::Debug> fmt::Debug for Each<K, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, K: Key, T> IntoIterator for &'a Each<K, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Written as a list with one entry per seat (or side).
impl<K: Key, T: Serialize> Serialize for Each<K, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, K: Key, T: Copy + Deserialize<'de>> Deserialize<'de> for Each<K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Each<K, T>, D::Error> {
        let values = Vec::<T>::deserialize(d)?;
        Each::from_slice(&values).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "{} entries, where a table has 1 to {MAX_SEATS}",
                values.len()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_sit_opposite_and_share_a_side() {
        let m = Mode::Partnership;
        assert_eq!(m.partner(Seat::new(1)), Some(Seat::new(3)));
        assert_eq!(m.side_of(Seat::new(2)), Side::new(0));
        let side1: Vec<Seat> = m.side_seats(Side::new(1)).collect();
        assert_eq!(side1, [Seat::new(1), Seat::new(3)]);
        assert_eq!(Mode::Cutthroat.partner(Seat::new(1)), None);
        assert_eq!(Mode::Individual.side_of(Seat::new(3)), Side::new(3));
    }

    #[test]
    fn play_goes_round_the_table_clockwise() {
        assert_eq!(Mode::Cutthroat.next(Seat::new(2)), Seat::new(0));
        assert_eq!(Mode::Individual.after(Seat::new(3), 2), Seat::new(1));
        let seats: Vec<usize> = Mode::Cutthroat.each_seat().map(Seat::index).collect();
        assert_eq!(seats, [0, 1, 2]);
    }

    #[test]
    fn a_three_seat_table_has_three_values_and_no_placeholder() {
        let mut won = PerSeat::filled(Mode::Cutthroat, 0u8);
        won[Seat::new(2)] = 5;
        assert_eq!(won.len(), 3);
        assert_eq!(won.iter().copied().collect::<Vec<_>>(), [0, 0, 5]);
        assert_eq!(won.get(Seat::new(3)), None);
        assert_eq!(serde_json::to_string(&won).unwrap(), "[0,0,5]");
        let back: PerSeat<u8> = serde_json::from_str("[0,0,5]").unwrap();
        assert_eq!(back, won);
        // Values past a table's seats take no part in equality.
        let sides = PerSide::from_fn(Mode::Partnership, |s| s.index() as i32);
        assert_eq!(sides, PerSide::from_slice(&[0, 1]).unwrap());
        assert!(serde_json::from_str::<PerSeat<u8>>("[1,2,3,4,5]").is_err());
        assert!(serde_json::from_str::<PerSeat<u8>>("[]").is_err());
    }

    #[test]
    fn seats_are_numbers_in_records_and_only_four_exist() {
        assert_eq!(serde_json::to_string(&Seat::new(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Seat>("2").unwrap(), Seat::new(2));
        assert!(serde_json::from_str::<Seat>("4").is_err());
        assert!(serde_json::from_str::<Seat>("-1").is_err());
        assert_eq!(Seat::from_index(4), None);
    }
}
