//! The spare-account farm, measured on the ladder itself: a main account
//! and three spare accounts of the same person play `individual` games in
//! which the spares leave at once (score 0), rated through
//! `ladder::rate_game` on an in-memory SQLite store exactly as the server
//! rates a finished game. Beside it, an honest newcomer who beats a
//! different established player's table each game, and a newcomer who
//! beats three `easy` bots each game. Prints each one's
//! rating after every game and the change over all of them.
//!
//! ```sh
//! cargo run --release --example rating_farm -- --games 10
//! ```
//!
//! `--spares N` (3 to 30; default 3): more spare accounts, three at a
//! table in turn, which first play ten games each among themselves.

use spades::bots::Level;
use spades::engine::Mode;
use spades::ladder::keys::Identity;
use spades::ladder::names::Name;
use spades::ladder::sqlite::SqliteStore;
use spades::ladder::store::{AccountId, Occupant, RecordHash, Store};
use spades::ladder::{self, FinishedGame, UnixTime, farming};
use spades::rating::period::{self, SeatResult, Sitter};

/// When the first game ends; each later one a minute after.
const START: i64 = 1_800_000_000;

fn main() {
    let games = flag("--games", 10, 1..=1000);
    let spares = flag("--spares", 3, 3..=30);
    if let Err(e) = run(games, spares) {
        eprintln!("rating_farm: {e}");
        std::process::exit(1);
    }
}

/// A number flag's value, `default` without it; exit code 2 outside `range`.
fn flag(name: &str, default: u32, range: std::ops::RangeInclusive<u32>) -> u32 {
    match std::env::args().skip_while(|a| a != name).nth(1) {
        None => default,
        Some(n) => match n.parse::<u32>() {
            Ok(n) if range.contains(&n) => n,
            _ => {
                eprintln!("rating_farm: {name} takes a number in {range:?}, not `{n}`");
                std::process::exit(2);
            }
        },
    }
}

fn run(games: u32, spare_count: u32) -> Result<(), String> {
    let mut store = SqliteStore::in_memory().map_err(|e| e.to_string())?;
    let mut record = 0u32;
    let mut next_record = || {
        record += 1;
        let mut hash = [0u8; 32];
        hash[..4].copy_from_slice(&record.to_be_bytes());
        RecordHash(hash)
    };

    let main = account(&mut store, "Main")?;
    let spares = (0..spare_count)
        .map(|i| account(&mut store, &format!("Spare{i}")))
        .collect::<Result<Vec<_>, _>>()?;
    let n_spares = spares.len();
    if n_spares > 3 {
        // More spares than seats: they first play one another, ten games
        // each, so that each has met others than the three beside it.
        println!("warm-up: {n_spares} spares play one another, ten games each");
        for n in 0..(10 * n_spares).div_ceil(4) {
            let seats = (0..4)
                .map(|k| (Occupant::Player(spares[(4 * n + k) % n_spares]), 100, false))
                .collect();
            let finished = UnixTime(START - 1_000_000 + n as i64 * 60);
            rate(&mut store, seats, next_record(), finished)?;
        }
    }
    println!(
        "farm: Main and {n_spares} spares, three a table, who leave at once, {games} individual games"
    );
    let before = rating(&mut store, main)?;
    for n in 0..games as usize {
        let mut seats = vec![(Occupant::Player(main), 10, false)];
        seats.extend((0..3).map(|k| (Occupant::Player(spares[(3 * n + k) % n_spares]), 0, true)));
        let finished = UnixTime(START + n as i64 * 60);
        rate(&mut store, seats, next_record(), finished)?;
        println!("  game {:>3}: {:.0}", n + 1, rating(&mut store, main)?);
    }
    let farmed = rating(&mut store, main)? - before;

    // Established players: a pool who have played one another for a while.
    let pool = established_pool(&mut store, &mut next_record, 3 * games as usize)?;
    let standings = pool
        .iter()
        .map(|&p| store.standing(p, Mode::Individual))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mean = standings.iter().map(|s| s.rating.rating).sum::<f64>() / standings.len() as f64;
    let widest = standings
        .iter()
        .map(|s| s.rating.deviation)
        .fold(0.0, f64::max);
    let still = standings.iter().filter(|s| farming::provisional(s)).count();
    println!(
        "the pool: {} players, 15 games each, mean rating {mean:.0}, widest deviation {widest:.0}, \
         {still} still provisional",
        pool.len()
    );
    let honest = account(&mut store, "Honest")?;
    println!("honest: a newcomer beating three different established players each game");
    let before = rating(&mut store, honest)?;
    for (n, three) in pool.chunks(3).take(games as usize).enumerate() {
        let mut seats = vec![(Occupant::Player(honest), 500, false)];
        seats.extend(three.iter().map(|&p| (Occupant::Player(p), 200, false)));
        let finished = UnixTime(START + 1_000_000 + n as i64 * 60);
        let alone = glicko_alone(&mut store, &seats)?;
        rate(&mut store, seats, next_record(), finished)?;
        let now = rating(&mut store, honest)?;
        println!("  game {:>3}: {now:.0} (Glicko-2 alone: {alone:.0})", n + 1);
    }
    let earned = rating(&mut store, honest)? - before;

    let botter = account(&mut store, "Botter")?;
    println!("bots: a newcomer beating three `easy` bots each game");
    for n in 0..games {
        let mut seats = vec![(Occupant::Player(botter), 500, false)];
        seats.extend([(Occupant::Bot(Level::Easy), 200, false); 3]);
        let finished = UnixTime(START + 2_000_000 + i64::from(n) * 60);
        rate(&mut store, seats, next_record(), finished)?;
        println!("  game {:>3}: {:.0}", n + 1, rating(&mut store, botter)?);
    }
    let botted = rating(&mut store, botter)? - 1500.0;
    println!("the farm's main account: {farmed:+.0} over {games} games");
    println!("the honest newcomer:     {earned:+.0} over {games} games");
    println!("beating easy bots:       {botted:+.0} over {games} games");
    Ok(())
}

/// The first seat's rating after the game by Glicko-2 alone, undamped.
fn glicko_alone(store: &mut SqliteStore, seats: &[(Occupant, i32, bool)]) -> Result<f64, String> {
    let mut results = Vec::new();
    for &(occupant, score, left) in seats {
        let sitter = match occupant {
            Occupant::Player(p) => {
                let standing = store
                    .standing(p, Mode::Individual)
                    .map_err(|e| e.to_string())?;
                Sitter::Player(p, standing.rating)
            }
            Occupant::Bot(level) => Sitter::Bot(level),
        };
        results.push(SeatResult {
            sitter,
            score,
            left,
        });
    }
    let rated = period::rate(Mode::Individual, None, &results).map_err(|e| e.to_string())?;
    Ok(rated[0].after.rating)
}

fn account(store: &mut SqliteStore, name: &str) -> Result<AccountId, String> {
    let key = Identity::generate().map_err(|e| e.to_string())?;
    let name = Name::new(name).map_err(|e| e.to_string())?;
    let account = store
        .register(&name, &key.public_key(), UnixTime(START))
        .map_err(|e| e.to_string())?;
    Ok(account.id)
}

fn rating(store: &mut SqliteStore, account: AccountId) -> Result<f64, String> {
    let standing = store
        .standing(account, Mode::Individual)
        .map_err(|e| e.to_string())?;
    Ok(standing.rating.rating)
}

fn rate(
    store: &mut SqliteStore,
    seats: Vec<(Occupant, i32, bool)>,
    record: RecordHash,
    finished: UnixTime,
) -> Result<(), String> {
    let game = FinishedGame {
        mode: Mode::Individual,
        record,
        finished,
        seats,
    };
    ladder::rate_game(store, &game)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// At least `size` players (a multiple of four) who have each played 15
/// individual games, long before, at tables drawn afresh each round
/// (results by seat, turn about).
fn established_pool(
    store: &mut SqliteStore,
    next_record: &mut impl FnMut() -> RecordHash,
    size: usize,
) -> Result<Vec<AccountId>, String> {
    let size = size.max(8).next_multiple_of(4);
    let pool = (0..size)
        .map(|i| account(store, &format!("Pool{i}")))
        .collect::<Result<Vec<_>, _>>()?;
    for round in 0..15u64 {
        // A fixed shuffle: each round's order by a hash of (round, player).
        let mut order: Vec<usize> = (0..size).collect();
        order.sort_by_key(|&i| {
            (i as u64 * 7919 + round * 104_729).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        for (t, table) in order.chunks(4).enumerate() {
            let seats = table
                .iter()
                .enumerate()
                .map(|(k, &p)| {
                    let place = (k + round as usize) % 4;
                    (Occupant::Player(pool[p]), 400 - 100 * place as i32, false)
                })
                .collect();
            let finished = UnixTime(START + 100_000 + (round as i64 * 100 + t as i64) * 60);
            rate(store, seats, next_record(), finished)?;
        }
    }
    Ok(pool)
}
