//! The farming rules on a real store (`farming.rs`): who met whom is
//! read from the rated games kept, and the rules measured against the
//! spare-account farm. Run by `store_keeps_its_word`, so on PostgreSQL too.

use super::farming::{self, REPEAT_WINDOW};
use super::store::{AccountId, Meeting, Occupant, RatedGame, RecordHash, SeatRecord, Store};
use super::test_accounts::join;
use super::*;
use crate::bots::Level;
use crate::engine::{Mode, Seat};
use crate::rating::period::{self, SeatResult, Sitter};

/// Where these games are played: long after the accounts were made.
const START: i64 = 1_900_000_000;

pub(super) fn every_test<S: Store>(mut fresh: impl FnMut() -> S) {
    three_spare_accounts_farm_nothing(&mut fresh());
    an_honest_newcomer_gains_as_glicko_2_says(&mut fresh());
    the_store_counts_the_people_met(&mut fresh());
}

fn players<S: Store>(store: &mut S, prefix: &str, n: usize) -> Vec<AccountId> {
    (0..n)
        .map(|i| join(store, &format!("{prefix}{i}")).1.id)
        .collect()
}

fn record(n: usize) -> RecordHash {
    let mut hash = [0u8; 32];
    hash[..8].copy_from_slice(&(n as u64).to_be_bytes());
    hash[31] = 0xFA;
    RecordHash(hash)
}

fn individual(n: usize, seats: Vec<(Occupant, i32, bool)>, finished: i64) -> FinishedGame {
    FinishedGame {
        mode: Mode::Individual,
        record: record(n),
        finished: UnixTime(finished),
        seats,
    }
}

fn rating<S: Store>(store: &mut S, who: AccountId) -> f64 {
    store
        .standing(who, Mode::Individual)
        .expect("read")
        .rating
        .rating
}

/// Issue 36's farm: a main account and three spares of the same person
/// at an `individual` table; the spares leave at once and score nothing.
/// Before these rules the main account went 1500 -> 2006 in ten games.
fn three_spare_accounts_farm_nothing<S: Store>(store: &mut S) {
    let main = join(store, "Main").1.id;
    let spares = players(store, "Spare", 3);
    for n in 0..10 {
        let mut seats = vec![(Occupant::Player(main), 10, false)];
        seats.extend(spares.iter().map(|&s| (Occupant::Player(s), 0, true)));
        rate_game(store, &individual(n, seats, START + n as i64 * 60)).expect("rated");
    }
    let gained = rating(store, main) - 1500.0;
    assert!(
        gained.abs() < 15.0,
        "the farm gained {gained:+.1} in 10 games"
    );
    // Leaving is charged whole, whoever was left.
    for &spare in &spares {
        assert!(rating(store, spare) < 1400.0, "a leaver kept its rating");
    }
    let standing = store.standing(main, Mode::Individual).expect("read");
    assert_eq!((standing.games, standing.opponents), (10, 3));
    assert!(farming::provisional(&standing), "three people are not five");
}

/// `size` players who have each played `rounds` individual games at
/// tables drawn afresh each round, long before `START`.
fn a_pool<S: Store>(store: &mut S, size: usize, rounds: usize) -> Vec<AccountId> {
    let pool = players(store, "Pool", size);
    let mut n = 1000;
    for round in 0..rounds {
        // Round r seats player i at table (i * (2r + 1)) mod size / 4: a
        // new mix each round, every player once (size is a power of two).
        let mut order: Vec<usize> = (0..size).collect();
        order.sort_by_key(|&i| (i * (2 * round + 1) + round) % size);
        for table in order.chunks(4) {
            let seats = table
                .iter()
                .enumerate()
                .map(|(k, &p)| {
                    let score = 400 - 100 * ((k + round) % 4) as i32;
                    (Occupant::Player(pool[p]), score, false)
                })
                .collect();
            n += 1;
            let finished = START - 10 * REPEAT_WINDOW + n as i64;
            rate_game(store, &individual(n, seats, finished)).expect("rated");
        }
    }
    pool
}

/// A newcomer who beats twelve different people, each known to others,
/// moves exactly as Glicko-2 alone would move them; beating three of
/// them again gains half as much.
fn an_honest_newcomer_gains_as_glicko_2_says<S: Store>(store: &mut S) {
    let pool = a_pool(store, 16, 6);
    let honest = join(store, "Honest").1.id;
    for (n, three) in pool.chunks(3).take(4).enumerate() {
        let mut seats = vec![(Occupant::Player(honest), 500, false)];
        seats.extend(three.iter().map(|&p| (Occupant::Player(p), 200, false)));
        let alone = undamped(store, &seats);
        rate_game(store, &individual(n, seats, START + n as i64 * 60)).expect("rated");
        let now = rating(store, honest);
        assert!((now - alone).abs() < 1e-6, "{now} against {alone}");
    }
    let gained = rating(store, honest) - 1500.0;
    assert!(gained > 150.0, "the honest newcomer gained {gained:+.1}");
    // The first three again, each met once before within the window:
    // half of Glicko-2's gain.
    let mut seats = vec![(Occupant::Player(honest), 500, false)];
    seats.extend(pool[..3].iter().map(|&p| (Occupant::Player(p), 200, false)));
    let before = rating(store, honest);
    let alone = undamped(store, &seats);
    rate_game(store, &individual(4, seats, START + 4 * 60)).expect("rated");
    let now = rating(store, honest);
    let half = before + (alone - before) / 2.0;
    assert!((now - half).abs() < 1e-6, "{now} against {half}");
}

/// The first seat's rating after `seats` by Glicko-2 alone.
fn undamped<S: Store>(store: &mut S, seats: &[(Occupant, i32, bool)]) -> f64 {
    let results: Vec<SeatResult<AccountId>> = seats
        .iter()
        .map(|&(occupant, score, left)| SeatResult {
            sitter: match occupant {
                Occupant::Player(p) => {
                    Sitter::Player(p, store.standing(p, Mode::Individual).expect("read").rating)
                }
                Occupant::Bot(level) => Sitter::Bot(level),
            },
            score,
            left,
        })
        .collect();
    period::rate(Mode::Individual, None, &results).expect("rated")[0]
        .after
        .rating
}

/// Opponents are the other side in partnership and every other seat
/// otherwise, people only; a game older than the window is not a recent
/// meeting, but the person still counts as met.
fn the_store_counts_the_people_met<S: Store>(store: &mut S) {
    let p = players(store, "Met", 4);
    let partnership = |n: usize, finished: i64| FinishedGame {
        mode: Mode::Partnership,
        record: record(n),
        finished: UnixTime(finished),
        seats: vec![
            (Occupant::Player(p[0]), 500, false),
            (Occupant::Player(p[1]), 200, false),
            (Occupant::Player(p[2]), 500, false),
            (Occupant::Bot(Level::Normal), 200, false),
        ],
    };
    rate_game(store, &partnership(1, START - REPEAT_WINDOW - 1)).expect("rated");
    rate_game(store, &partnership(2, START)).expect("rated");
    let met = |store: &mut S, who: usize, since: i64| {
        store
            .meetings(p[who], Mode::Partnership, UnixTime(since))
            .expect("read")
    };
    let one = |who: usize, games| Meeting {
        opponent: p[who],
        games,
    };
    // The partner is no opponent, nor is the bot.
    assert_eq!(met(store, 0, i64::MIN), vec![one(1, 2)]);
    assert_eq!(met(store, 1, i64::MIN), vec![one(0, 2), one(2, 2)]);
    assert_eq!(
        met(store, 1, START - REPEAT_WINDOW),
        vec![one(0, 1), one(2, 1)]
    );
    assert!(met(store, 3, i64::MIN).is_empty(), "never played");
    let opponents = |store: &mut S, who: usize| {
        store
            .standing(p[who], Mode::Partnership)
            .expect("read")
            .opponents
    };
    assert_eq!(opponents(store, 0), 1);
    assert_eq!(opponents(store, 1), 2);
    let ladder = store.ladder(Mode::Partnership).expect("read");
    assert!(
        ladder.iter().all(|r| r.opponents == 1 || r.name == "Met1"),
        "{ladder:?}"
    );
    // One account in two seats (as old games may hold) is one meeting.
    let twice = [p[3], p[0], p[3], p[0]];
    store
        .record_game(&RatedGame {
            mode: Mode::Individual,
            record: record(3),
            finished: UnixTime(START),
            seats: (0..4)
                .map(|i| SeatRecord {
                    seat: Seat::new(i),
                    occupant: Occupant::Player(twice[i]),
                    score: 0,
                    left: false,
                })
                .collect(),
            changes: Vec::new(),
        })
        .expect("kept");
    let met = store
        .meetings(p[3], Mode::Individual, UnixTime(i64::MIN))
        .expect("read");
    assert_eq!(met, vec![one(0, 1)]);
}
