//! What one `spades serve` node holds, measured the real way: the release
//! server started on loopback (TLS) with a ladder in a fresh SQLite file,
//! and protocol clients doing what players do. It reports:
//!
//! - sign-ins a second, and their 99th percentile, over concurrent
//!   connections (each: connect, hello, sign the challenge, `signed_in`);
//! - rated games a second the ladder's store takes: `ladder::rate_game` on
//!   a `SqliteStore` file (WAL), the store thread's own work for each
//!   finished rated game, timed alone, without the server around it; and
//!   a few rated games played end to end through the server, as a check;
//! - the lobby's `tables {}` with many public tables open: its time
//!   (median, 99th percentile) and its size in bytes;
//! - signed-in players idle in the lobby, held in steps: the server's
//!   memory (VmRSS) at each step and what each connection adds, until the
//!   most asked for or the first refusal.
//!
//! ```sh
//! cargo build --release --examples
//! target/release/examples/ladder_load
//! ```
//!
//! Flags: `--accounts N` (200), `--sign-ins N` (2000), `--concurrency N`
//! (32), `--games N` (2000), `--rated N` (8), `--tables N` (1000), `--listings N` (50),
//! `--idle-step N` (1000), `--idle-max N` (5000), `--server PATH` (default:
//! the `spades` built beside this example). Every part has a time limit.

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use spades::engine::Mode;
use spades::ladder::keys::Identity;
use spades::ladder::names::Name;
use spades::ladder::sqlite::SqliteStore;
use spades::ladder::store::{AccountId, Occupant, RecordHash, Store};
use spades::ladder::{self, FinishedGame, UnixTime};
use spades::protocol::lobby::MAX_LISTED;
use spades::protocol::{ClientMessage, ServerMessage};
use support::account::{self, arrive, next, send, stay};
use support::load::{self, Running, many, split};
use support::net::{Answerer, Client, play_out};
use tokio::task::JoinSet;

/// How long any one part may run before the run gives up on it.
const PART_LIMIT: Duration = Duration::from_secs(300);
/// Where every connection comes from.
const FROM: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

struct Options {
    accounts: usize,
    sign_ins: usize,
    concurrency: usize,
    games: usize,
    rated: usize,
    tables: usize,
    listings: usize,
    idle_step: usize,
    idle_max: usize,
    server: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        accounts: 200,
        sign_ins: 2000,
        concurrency: 32,
        games: 2000,
        rated: 8,
        tables: 1000,
        listings: 50,
        idle_step: 1000,
        idle_max: 5000,
        server: load::server_beside(),
    };
    load::read_flags(
        "--accounts N, --sign-ins N, --concurrency N, --games N, --rated N, --tables N, --listings N, --idle-step N, --idle-max N, --server PATH",
        |flag, value| {
            let n = || match value.parse::<usize>() {
                Ok(n) if (1..=100_000).contains(&n) => Ok(n),
                _ => Err("a whole number from 1 to 100000".to_string()),
            };
            match flag {
                "--accounts" => o.accounts = n()?,
                "--sign-ins" => o.sign_ins = n()?,
                "--concurrency" => o.concurrency = n()?,
                "--games" => o.games = n()?,
                "--rated" => o.rated = n()?,
                "--tables" => o.tables = n()?,
                "--listings" => o.listings = n()?,
                "--idle-step" => o.idle_step = n()?,
                "--idle-max" => o.idle_max = n()?,
                "--server" => o.server = PathBuf::from(value),
                _ => return Ok(false),
            }
            Ok(true)
        },
    )?;
    Ok(o)
}

/// Where the server is, shared by every job.
#[derive(Clone)]
struct Target {
    address: std::net::SocketAddr,
    fingerprint: Arc<str>,
}

/// A connection signed in as `identity` (registered as `register` first):
/// the client, and the time from connecting to `signed_in`.
async fn signed_in(
    target: &Target,
    identity: &Identity,
    register: Option<&str>,
) -> Result<(Client, Duration), String> {
    let began = Instant::now();
    let (mut client, nonce) = arrive(target.address, &target.fingerprint, FROM, "Load").await?;
    account::answer(&mut client, &target.fingerprint, identity, &nonce, register).await?;
    Ok((client, began.elapsed()))
}

/// The rated partnership games `identity`'s account has, as signing in
/// tells.
async fn rated_so_far(target: &Target, identity: &Identity) -> Result<u32, String> {
    let (mut client, nonce) = arrive(target.address, &target.fingerprint, FROM, "Load").await?;
    let (_, ratings) =
        account::answer(&mut client, &target.fingerprint, identity, &nonce, None).await?;
    Ok(ratings
        .iter()
        .find(|r| r.mode == Mode::Partnership)
        .map_or(0, |r| r.games))
}

/// One rated game through the server: `identity` signed in, a table with
/// three of the server's `normal` bots, played to its end by a local
/// `normal` bot.
async fn rated_game(target: &Target, identity: &Identity, n: usize) -> Result<(), String> {
    let (mut client, _) = signed_in(target, identity, None).await?;
    let host = ClientMessage::Host {
        rules: load::rules(500),
        public: false,
    };
    send(&mut client, &host).await?;
    client
        .seated()
        .await
        .map_err(|(code, why)| format!("{code:?}: {why}"))?;
    client.fill(true, "normal").await;
    client.start().await;
    let seen = play_out(&mut client, &mut Answerer::new("normal", n as u64)).await;
    match seen.bye.as_deref() {
        Some("the game is over") => Ok(()),
        other => Err(format!("rated game {n} ended: {other:?}")),
    }
}

/// `games` rated games at once, end to end, by the first accounts (none
/// of which has a rated game yet): the time until every game ended, and
/// until every one was rated (seen by signing in again).
async fn rated_games(
    target: &Target,
    identities: &Arc<Vec<Identity>>,
    games: usize,
) -> Result<(Duration, Duration), String> {
    let games = games.min(identities.len());
    let began = Instant::now();
    let (t, ids) = (target.clone(), Arc::clone(identities));
    let played = many(games, games, move |n| {
        let (t, ids) = (t.clone(), Arc::clone(&ids));
        async move { rated_game(&t, &ids[n], n).await }
    })
    .await;
    let ended = began.elapsed();
    let (_, failed, why) = split(played);
    if let Some(why) = why {
        return Err(format!("{failed} rated games failed, the first: {why}"));
    }
    // The store rates a game after its end, without the players waiting.
    for identity in &identities[..games] {
        while rated_so_far(target, identity).await? < 1 {
            if began.elapsed() > PART_LIMIT {
                return Err("a game played was never rated".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    Ok((ended, began.elapsed()))
}

/// A figure of a part: how many, in what time, and the times of each.
struct Timed {
    done: usize,
    failed: usize,
    first_failure: Option<String>,
    elapsed: Duration,
    times: Vec<Duration>,
}

impl Timed {
    fn per_second(&self) -> f64 {
        self.done as f64 / self.elapsed.as_secs_f64()
    }
}

/// Registers `accounts` new accounts: their keys, and the time it took.
async fn register(target: &Target, accounts: usize, concurrency: usize) -> (Vec<Identity>, Timed) {
    let began = Instant::now();
    let target = target.clone();
    let results = many(accounts, concurrency, move |n| {
        let target = target.clone();
        async move {
            let identity = Identity::generate().map_err(|e| e.to_string())?;
            let name = format!("Load{n}");
            let (_, took) = signed_in(&target, &identity, Some(&name)).await?;
            Ok((identity, took))
        }
    })
    .await;
    let elapsed = began.elapsed();
    let (good, failed, first_failure) = split(results);
    let (identities, times): (Vec<_>, Vec<_>) = good.into_iter().unzip();
    let timed = Timed {
        done: identities.len(),
        failed,
        first_failure,
        elapsed,
        times,
    };
    (identities, timed)
}

/// `count` sign-ins, round the accounts, `concurrency` at once, each on a
/// connection of its own closed once signed in.
async fn sign_ins(
    target: &Target,
    identities: &Arc<Vec<Identity>>,
    count: usize,
    concurrency: usize,
) -> Timed {
    let began = Instant::now();
    let (target, identities) = (target.clone(), Arc::clone(identities));
    let results = many(count, concurrency, move |n| {
        let (target, identities) = (target.clone(), Arc::clone(&identities));
        async move {
            let identity = &identities[n % identities.len()];
            Ok(signed_in(&target, identity, None).await?.1)
        }
    })
    .await;
    let elapsed = began.elapsed();
    let (times, failed, first_failure) = split(results);
    Timed {
        done: times.len(),
        failed,
        first_failure,
        elapsed,
        times,
    }
}

/// Accounts the store's rated games are played between.
const RATED_PLAYERS: usize = 64;

/// `games` whole rated games (four players each, partnership) through
/// `ladder::rate_game` on a SQLite file in `dir`: what the server's store
/// thread does for each finished rated game, with nothing else around it.
fn store_games(dir: &Path, games: usize) -> Result<Duration, String> {
    let mut store = SqliteStore::open(&dir.join("rated.sqlite")).map_err(|e| e.to_string())?;
    let now = UnixTime::now();
    let mut players: Vec<AccountId> = Vec::with_capacity(RATED_PLAYERS);
    for n in 0..RATED_PLAYERS {
        let key = Identity::generate()
            .map_err(|e| e.to_string())?
            .public_key();
        let name = Name::new(&format!("Rated{n}")).map_err(|e| e.to_string())?;
        players.push(
            store
                .register(&name, &key, now)
                .map_err(|e| e.to_string())?
                .id,
        );
    }
    let began = Instant::now();
    for g in 0..games {
        // Four players, a different four game after game.
        let seat = |k: usize| Occupant::Player(players[(g * 7 + k * 16) % RATED_PLAYERS]);
        let mut record = [0; 32];
        record[..8].copy_from_slice(&(g as u64).to_le_bytes());
        let game = FinishedGame {
            mode: Mode::Partnership,
            record: RecordHash(record),
            finished: now,
            seats: vec![
                (seat(0), 500, false),
                (seat(1), 210, false),
                (seat(2), 500, false),
                (seat(3), 210, false),
            ],
        };
        ladder::rate_game(&mut store, &game).map_err(|e| format!("game {g}: {e}"))?;
    }
    Ok(began.elapsed())
}

/// A connection that opened a public table (not signed in: anyone may).
async fn public_host(target: &Target, n: usize) -> Result<Client, String> {
    let name = format!("Host{n}");
    let (mut client, _) = arrive(target.address, &target.fingerprint, FROM, &name).await?;
    let host = ClientMessage::Host {
        rules: load::rules(500),
        public: true,
    };
    send(&mut client, &host).await?;
    loop {
        match next(&mut client).await? {
            ServerMessage::Seated { .. } => return Ok(client),
            ServerMessage::Error { code, message } => return Err(format!("{code:?}: {message}")),
            _ => {}
        }
    }
}

/// What the lobby's list cost with the tables open.
struct Listing {
    open: usize,
    timed: Timed,
    listed: usize,
    total: u32,
    bytes: Vec<usize>,
}

/// Opens `tables` public tables (kept open, their pings answered), then
/// asks for `tables {}` `asks` times, one ask at a time, over as many
/// connections as the listing's limit (10 in 10 seconds) needs.
async fn lobby(target: &Target, tables: usize, asks: usize, concurrency: usize) -> Listing {
    let t = target.clone();
    let hosts = many(tables, concurrency, move |n| {
        let t = t.clone();
        async move { public_host(&t, n).await }
    })
    .await;
    let (hosts, _, _) = split(hosts);
    let open = hosts.len();
    // Dropped at the end of this part: its tables close with it.
    let mut kept = JoinSet::new();
    for host in hosts {
        kept.spawn(stay(host, false));
    }
    let (mut times, mut bytes) = (Vec::new(), Vec::new());
    let (mut listed, mut total, mut failed, mut first_failure) = (0, 0, 0, None);
    let began = Instant::now();
    for n in 0..asks.div_ceil(10) {
        let asked = match ask_tables(target, n, (asks - 10 * n).min(10)).await {
            Ok(asked) => asked,
            Err(why) => {
                failed += 1;
                first_failure.get_or_insert(why);
                continue;
            }
        };
        for (took, size, count, all) in asked {
            times.push(took);
            bytes.push(size);
            (listed, total) = (count, all);
        }
    }
    let timed = Timed {
        done: times.len(),
        failed,
        first_failure,
        elapsed: began.elapsed(),
        times,
    };
    Listing {
        open,
        timed,
        listed,
        total,
        bytes,
    }
}

/// `asks` lobby lists on a new connection: for each, its time, its size
/// in bytes (the line with its newline), the tables listed and the total.
async fn ask_tables(
    target: &Target,
    n: usize,
    asks: usize,
) -> Result<Vec<(Duration, usize, usize, u32)>, String> {
    let name = format!("Looker{n}");
    let (mut client, _) = arrive(target.address, &target.fingerprint, FROM, &name).await?;
    let mut asked = Vec::with_capacity(asks);
    for _ in 0..asks {
        let began = Instant::now();
        send(&mut client, &ClientMessage::Tables { mode: None }).await?;
        loop {
            match next(&mut client).await? {
                ServerMessage::Tables { tables, total, .. } => {
                    let size = client.received.last().map_or(0, |l| l.len() + 1);
                    asked.push((began.elapsed(), size, tables.len(), total));
                    break;
                }
                ServerMessage::Error { code, message } => {
                    return Err(format!("{code:?}: {message}"));
                }
                _ => {}
            }
        }
    }
    Ok(asked)
}

/// One step of idle players: how many held, and the server then.
struct Step {
    held: usize,
    rss_kb: Option<u64>,
    descriptors: Option<usize>,
    took: Duration,
    refused: usize,
    why: Option<String>,
}

/// Signed-in players idle in the lobby (each answering pings and looking
/// at the list as a lobby screen would), `step` more at a time up to
/// `most`, until the first refusal: the server at each step.
async fn idle(
    target: &Target,
    pid: u32,
    identities: &Arc<Vec<Identity>>,
    (step, most, concurrency): (usize, usize, usize),
) -> Vec<Step> {
    let mut held = JoinSet::new();
    let mut steps = Vec::new();
    while held.len() < most {
        let began = Instant::now();
        let (t, ids) = (target.clone(), Arc::clone(identities));
        let base = held.len();
        let results = many(step.min(most - base), concurrency, move |n| {
            let (t, ids) = (t.clone(), Arc::clone(&ids));
            async move {
                let identity = &ids[(base + n) % ids.len()];
                Ok(signed_in(&t, identity, None).await?.0)
            }
        })
        .await;
        let took = began.elapsed();
        let (clients, refused, why) = split(results);
        for client in clients {
            held.spawn(stay(client, true));
        }
        // Settled: the handshakes' buffers given back.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let gone = std::iter::from_fn(|| held.try_join_next()).count();
        steps.push(Step {
            held: held.len(),
            rss_kb: load::status(pid, "VmRSS"),
            descriptors: load::descriptors(pid),
            took,
            refused: refused + gone,
            why: why.or_else(|| (gone > 0).then(|| "held connections were closed".into())),
        });
        if refused + gone > 0 {
            break;
        }
    }
    steps
}

/// Lets this process (and the server it starts) open as many descriptors
/// as its hard limit allows: the idle players' connections are ours too.
fn raise_descriptors() -> Option<u64> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let raised = Rlimit {
        current: limit.maximum,
        maximum: limit.maximum,
    };
    let _ = setrlimit(Resource::Nofile, raised);
    getrlimit(Resource::Nofile).current
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn start(options: &Options, db: &Path) -> Result<Running, String> {
    let (registrations, most) = (
        options.accounts.to_string(),
        (options.idle_max + options.concurrency + 64).to_string(),
    );
    let db = db.to_str().ok_or("the database's path is not UTF-8")?;
    load::start_server(
        &options.server,
        &[
            "--per-address",
            "100000",
            "--registrations-per-hour",
            &registrations,
            "--registrations-per-hour-all",
            &registrations,
            "--registrations-per-day-all",
            &registrations,
            "--max-connections",
            &most,
            "--db",
            db,
        ],
    )
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(why) => {
            eprintln!("ladder_load: {why}");
            std::process::exit(2);
        }
    };
    let descriptors = raise_descriptors();
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("no temporary folder: {e}")));
    let server = start(&options, &dir.path().join("ladder.sqlite")).unwrap_or_else(|e| fail(&e));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("no runtime: {e}")));
    let loaded_before = load_average();
    let figures = runtime.block_on(run(&options, &server, dir.path()));
    let loaded_after = load_average();
    let stopped = server.stop();
    drop(runtime);
    let figures = figures.unwrap_or_else(|e| fail(&e));
    report(&options, &figures);
    println!(
        "load average (1, 5, 15 min) before {loaded_before}, after {loaded_after}; descriptors this process may open: {}",
        descriptors.map_or("no limit".into(), |n| n.to_string())
    );
    match stopped {
        Ok(status) if status.success() => println!("the server stopped cleanly on SIGTERM"),
        other => println!("the server's exit: {other:?}"),
    }
}

fn fail(why: &str) -> ! {
    eprintln!("ladder_load: {why}");
    std::process::exit(1);
}

struct Figures {
    registered: Timed,
    signed: Timed,
    rated: (Duration, Duration),
    store: Duration,
    listing: Listing,
    start_kb: Option<u64>,
    rest_kb: Option<u64>,
    steps: Vec<Step>,
}

/// Every part in turn, each within `PART_LIMIT`.
async fn run(options: &Options, server: &Running, dir: &Path) -> Result<Figures, String> {
    let target = Target {
        address: server.address,
        fingerprint: server.fingerprint.as_str().into(),
    };
    let c = options.concurrency;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let start_kb = load::status(server.pid(), "VmRSS");
    let limited = |part: &'static str| {
        move |_: tokio::time::error::Elapsed| format!("{part}: over {PART_LIMIT:?}")
    };
    let (identities, registered) =
        tokio::time::timeout(PART_LIMIT, register(&target, options.accounts, c))
            .await
            .map_err(limited("registering"))?;
    if identities.is_empty() {
        return Err(format!(
            "no account registered: {:?}",
            registered.first_failure
        ));
    }
    let identities = Arc::new(identities);
    let signed = tokio::time::timeout(
        PART_LIMIT,
        sign_ins(&target, &identities, options.sign_ins, c),
    )
    .await
    .map_err(limited("signing in"))?;
    let rated = rated_games(&target, &identities, options.rated).await?;
    let store = store_games(dir, options.games)?;
    let listing = tokio::time::timeout(
        PART_LIMIT,
        lobby(&target, options.tables, options.listings, c),
    )
    .await
    .map_err(limited("the lobby"))?;
    // The tables closed with their hosts: the server at rest again.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rest_kb = load::status(server.pid(), "VmRSS");
    let shape = (options.idle_step, options.idle_max, c);
    let steps = tokio::time::timeout(PART_LIMIT, idle(&target, server.pid(), &identities, shape))
        .await
        .map_err(limited("idle players"))?;
    Ok(Figures {
        registered,
        signed,
        rated,
        store,
        listing,
        start_kb,
        rest_kb,
        steps,
    })
}

fn failures(timed: &Timed) -> String {
    match &timed.first_failure {
        None => String::new(),
        Some(why) => format!(" ({} failed, the first: {why})", timed.failed),
    }
}

fn report(options: &Options, f: &Figures) {
    println!("spades serve (release, TLS) on loopback, ladder in a fresh SQLite file (WAL)");
    println!("CPU: {}", load::cpu_model());
    let c = options.concurrency;
    let mut reg = f.registered.times.clone();
    println!(
        "registrations: {} in {:.2} s, {:.0} a second, {c} at once; p99 {:.1} ms{}",
        f.registered.done,
        f.registered.elapsed.as_secs_f64(),
        f.registered.per_second(),
        load::percentile(&mut reg, 0.99),
        failures(&f.registered)
    );
    let mut times = f.signed.times.clone();
    println!(
        "sign-ins (connect, TLS, hello, sign the challenge, signed_in): {} in {:.2} s, {:.0} a second, {c} at once; median {:.1} ms, p99 {:.1} ms{}",
        f.signed.done,
        f.signed.elapsed.as_secs_f64(),
        f.signed.per_second(),
        load::percentile(&mut times, 0.5),
        load::percentile(&mut times, 0.99),
        failures(&f.signed)
    );
    println!(
        "rated games, the store alone (ladder::rate_game on a SQLite file, four players a game): {} in {:.2} s, {:.0} a second",
        options.games,
        f.store.as_secs_f64(),
        options.games as f64 / f.store.as_secs_f64()
    );
    println!(
        "rated games end to end (each: one signed-in player, local normal bot, three server normal bots, to 500): {} at once, all ended in {:.1} s, all rated by {:.1} s",
        options.rated.min(f.registered.done),
        f.rated.0.as_secs_f64(),
        f.rated.1.as_secs_f64()
    );
    let l = &f.listing;
    let mut times = l.timed.times.clone();
    let largest = l.bytes.iter().max().copied().unwrap_or(0);
    println!(
        "lobby: {} public tables open; tables {{}} asked {} times, one at a time: median {:.2} ms, p99 {:.2} ms; {} tables listed of {} (at most {MAX_LISTED}), {largest} bytes{}",
        l.open,
        l.timed.done,
        load::percentile(&mut times, 0.5),
        load::percentile(&mut times, 0.99),
        l.listed,
        l.total,
        failures(&l.timed)
    );
    report_idle(f);
}

/// The idle players' steps, a line each.
fn report_idle(f: &Figures) {
    // Memory freed by the lobby's tables is given back slowly: what a
    // connection costs is read from one step to the next.
    println!(
        "idle signed-in players (server at its start: {} MB, before the first step: {} MB):",
        mb(f.start_kb.unwrap_or(0)),
        mb(f.rest_kb.unwrap_or(0))
    );
    println!("  held   VmRSS MB   kB each added   descriptors   step took s   refused");
    let (mut before_held, mut before_kb) = (0, f.rest_kb.unwrap_or(0));
    for s in &f.steps {
        let rss = s.rss_kb.unwrap_or(0);
        let added =
            (rss as f64 - before_kb as f64) / s.held.saturating_sub(before_held).max(1) as f64;
        (before_held, before_kb) = (s.held, rss);
        println!(
            "  {:>5}   {:>8}   {:>13.1}   {:>11}   {:>11.1}   {:>7}",
            s.held,
            mb(rss),
            added,
            s.descriptors.map_or("?".into(), |n| n.to_string()),
            s.took.as_secs_f64(),
            s.refused
        );
        if let Some(why) = &s.why {
            println!("  stopped: {why}");
        }
    }
}

fn mb(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1024.0)
}
