//! A soak run of the table server: the release `spades serve` (TLS, on
//! loopback, its default limits and deadlines) for some minutes under
//! churn. Honest tables open and play to their end one after another; some
//! of their partners drop out mid-game, with a FIN, silently (they stop
//! reading and writing and never close), or with a FIN and then take their
//! seat back by its token. Attackers of every kind come and go meanwhile:
//! clients that flood lines and never read, connections idle after
//! `hello`, connections that never say `hello`, too many from one address,
//! garbage and over-long lines, chat floods and lobbies left behind.
//!
//! At the end every honest game must have completed, passed the
//! independent checker and verified against its commitment, and once the
//! attackers are gone and the server's deadlines have passed its
//! descriptors must be back to where they started and its memory within a
//! few MB of it. It also measures the memory one idle connection costs.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example net_soak -- --minutes 10
//! ```
//!
//! Flags: `--minutes M` (10), `--tables N` honest tables at once (20),
//! `--target POINTS` (300), `--server PATH` (default: the `spades` built
//! beside this example). Exits 1 when a check fails.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use spades::protocol::{self, ClientMessage, MAX_LINE, SeatPlayer, ServerMessage};
use support::load::{self, Running, check_seen, open_table};
use support::net::{Answerer, Client, Seen, play_on, play_out};
use tokio::time::{Instant, sleep};

struct Options {
    minutes: f64,
    tables: usize,
    target: i32,
    server: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        minutes: 10.0,
        tables: 20,
        target: 300,
        server: load::server_beside(),
    };
    let usage = "--minutes M, --tables N, --target POINTS, --server PATH";
    load::read_flags(usage, |flag, value| {
        match flag {
            "--minutes" => options.minutes = value.parse().map_err(|e| format!("{e}"))?,
            "--tables" => options.tables = value.parse().map_err(|e| format!("{e}"))?,
            "--target" => options.target = value.parse().map_err(|e| format!("{e}"))?,
            "--server" => options.server = PathBuf::from(value),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(options)
}

/// What the run saw, counted as it goes.
#[derive(Default)]
struct Tally {
    games: AtomicUsize,
    /// Records checked and verified: every connection that saw a game end.
    records: AtomicUsize,
    left_with_fin: AtomicUsize,
    left_silently: AtomicUsize,
    came_back: AtomicUsize,
    attacks: AtomicUsize,
    failures: Mutex<Vec<String>>,
}

impl Tally {
    fn fail(&self, why: String) {
        eprintln!("net_soak: {why}");
        if let Ok(mut failures) = self.failures.lock() {
            failures.push(why);
        }
    }

    fn count(counter: &AtomicUsize) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Where the server is, for every task.
#[derive(Clone)]
struct Target {
    address: SocketAddr,
    fingerprint: String,
    points: i32,
}

/// A loopback address of its own for a group of connections: 127.g.h.l.
fn loopback(g: u8, n: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        g,
        (n / 250 % 250) as u8,
        (n % 250) as u8 + 1,
    ))
}

/// The partner's way through a game: the numbers pick in turn.
enum Partner {
    Stays,
    LeavesWithFin,
    GoesSilent,
    ComesBack,
}

/// Honest tables, one after another, until `until`: every game must end
/// and every record a client kept must check and verify.
async fn honest(worker: usize, target: Target, until: Instant, tally: &Tally) {
    let mut n = worker as u64 * 1_000_000;
    while Instant::now() < until {
        n += 1;
        let from = loopback(10, worker);
        let partner = match n % 4 {
            0 => Partner::LeavesWithFin,
            1 => Partner::GoesSilent,
            2 => Partner::ComesBack,
            _ => Partner::Stays,
        };
        if let Err(why) = one_game(&target, n, from, partner, tally).await {
            tally.fail(why);
        }
    }
}

async fn one_game(
    target: &Target,
    n: u64,
    from: IpAddr,
    partner_does: Partner,
    tally: &Tally,
) -> Result<(), String> {
    let fp = target.fingerprint.as_str();
    let [(mut host, _), (mut partner, seated)] =
        open_table(target.address, fp, target.points, n, from).await?;
    let mut a = Answerer::new("normal", 2 * n);
    let mut b = Answerer::new("normal", 2 * n + 1);
    // When the partner is to come back, the host waits for it once it is
    // away (a table of bots and one quick client would otherwise finish
    // the game before the partner is back).
    let (back_tx, back_rx) = tokio::sync::oneshot::channel::<()>();
    let waits = matches!(partner_does, Partner::ComesBack);
    let host_plays = tokio::spawn(async move {
        let mut seen = Seen::default();
        let away = |m: &ServerMessage| {
            waits
                && matches!(
                    m,
                    ServerMessage::Seat {
                        player: SeatPlayer::Away,
                        ..
                    }
                )
        };
        if play_on(&mut host, &mut a, &mut seen, away).await.is_some() {
            let _ = back_rx.await;
            play_on(&mut host, &mut a, &mut seen, |_| false).await;
        }
        seen
    });
    let mut partner_seen = Seen::default();
    // The partner plays a few tricks' worth of asks, then does its thing.
    let mut asks = 0;
    let stopped = match partner_does {
        Partner::Stays => None,
        _ => {
            play_on(&mut partner, &mut b, &mut partner_seen, |m| {
                asks += usize::from(matches!(m, ServerMessage::Ask { .. }));
                asks > 12
            })
            .await
        }
    };
    match (partner_does, stopped) {
        (Partner::Stays, _) => {
            play_on(&mut partner, &mut b, &mut partner_seen, |_| false).await;
            check(n, &partner_seen, tally)?;
        }
        // The game ended before the partner's turn to go came.
        (_, None) => check(n, &partner_seen, tally)?,
        (Partner::LeavesWithFin, Some(_)) => {
            drop(partner);
            Tally::count(&tally.left_with_fin);
        }
        (Partner::GoesSilent, Some(_)) => {
            // Held open and never read nor written: the server must find it
            // gone by itself (its read deadline) while the game goes on.
            tokio::spawn(async move {
                sleep(Duration::from_secs(90)).await;
                drop(partner);
            });
            Tally::count(&tally.left_silently);
        }
        (Partner::ComesBack, Some(_)) => {
            drop(partner);
            let mut back = support::net::Client::connect_from(target.address, from, Some(fp))
                .await
                .map_err(|e| format!("table {n}: cannot come back: {e}"))?;
            back.hello(&format!("Partner{n}")).await;
            let reclaimed = back.reclaim(&seated.table, &seated.token).await;
            let _ = back_tx.send(());
            reclaimed.map_err(|(code, why)| format!("table {n}: reclaim: {code:?}: {why}"))?;
            let seen = play_out(&mut back, &mut b).await;
            check(n, &seen, tally)?;
            Tally::count(&tally.came_back);
        }
    }
    let seen = host_plays
        .await
        .map_err(|e| format!("table {n}: the host's task: {e}"))?;
    check(n, &seen, tally)?;
    Tally::count(&tally.games);
    Ok(())
}

fn check(n: u64, seen: &Seen, tally: &Tally) -> Result<(), String> {
    check_seen(n as usize, seen)?;
    Tally::count(&tally.records);
    Ok(())
}

/// One kind of attack, again and again until `until`.
async fn attacks(kind: usize, target: Target, until: Instant, tally: &Tally) {
    let mut round = 0;
    while Instant::now() < until {
        round += 1;
        // Each round from an address of its own: the per-address limit is
        // part of what is attacked, not what holds the attackers back.
        let from = loopback(20 + kind as u8, round);
        let fp = Some(target.fingerprint.as_str());
        let connect = || Client::connect_from(target.address, from, fp);
        match kind {
            // Floods lines the server must refuse, and never reads.
            0 => {
                if let Ok(mut c) = connect().await {
                    c.hello("Flood").await;
                    let join = format!(
                        "{{\"type\":\"join\",\"table\":\"{}\"}}\n",
                        "A".repeat(MAX_LINE - 40)
                    );
                    for _ in 0..20 * 40 {
                        if c.send_raw(join.as_bytes()).await.is_err() {
                            break;
                        }
                        sleep(Duration::from_millis(25)).await;
                    }
                }
            }
            // Idle after hello: dropped at the sit deadline.
            1 => {
                let mut idle = Vec::new();
                for i in 0..40 {
                    let from = loopback(20 + kind as u8, round * 40 + i);
                    if let Ok(mut c) = Client::connect_from(target.address, from, fp).await {
                        c.hello("Idle").await;
                        idle.push(c);
                    }
                }
                sleep(Duration::from_secs(70)).await;
            }
            // Never a word: dropped at the hello deadline.
            2 => {
                let mut mute = Vec::new();
                for _ in 0..30 {
                    mute.push(tokio::net::TcpStream::connect(target.address).await);
                }
                sleep(Duration::from_secs(15)).await;
            }
            // Too many from one address, garbage and over-long lines.
            3 => {
                let mut many = Vec::new();
                for _ in 0..24 {
                    many.push(connect().await);
                }
                for mut c in many.into_iter().flatten().take(4) {
                    let _ = c.send_raw(b"\x1b]0;owned\x07{not json\n").await;
                    let _ = c.send_raw(&vec![b'x'; MAX_LINE + 10]).await;
                    let _ = c.next_within(Duration::from_secs(5)).await;
                }
                sleep(Duration::from_secs(2)).await;
            }
            // Floods the chat of a lobby of its own, then leaves it behind.
            _ => {
                if let Ok(mut c) = connect().await {
                    c.hello("Chatty").await;
                    let _ = c.host(&load::rules(target.points)).await;
                    for i in 0..200 {
                        let line = ClientMessage::Chat {
                            text: format!("\u{202e}line {i}\u{2028}"),
                        };
                        if c.send_raw(protocol::line(&line).as_bytes()).await.is_err() {
                            break;
                        }
                        sleep(Duration::from_millis(40)).await;
                    }
                }
            }
        }
        Tally::count(&tally.attacks);
    }
}

/// What `/proc` says of the server now.
#[derive(Clone, Copy, Debug, Default)]
struct Reading {
    rss_kb: u64,
    descriptors: usize,
    threads: u64,
}

fn read(server: &Running) -> Reading {
    let pid = server.pid();
    Reading {
        rss_kb: load::status(pid, "VmRSS").unwrap_or(0),
        descriptors: load::descriptors(pid).unwrap_or(0),
        threads: load::status(pid, "Threads").unwrap_or(0),
    }
}

/// The memory a connection that said `hello` and nothing else costs.
async fn per_idle_connection(server: &Running, target: &Target) -> (usize, f64) {
    let before = read(server).rss_kb;
    let mut held = Vec::new();
    for n in 0..1_000 {
        let from = loopback(30, n / 10);
        if let Ok(mut c) =
            Client::connect_from(target.address, from, Some(&target.fingerprint)).await
        {
            c.hello("Idle").await;
            held.push(c);
        }
    }
    sleep(Duration::from_millis(500)).await;
    let after = read(server).rss_kb;
    let count = held.len();
    drop(held);
    sleep(Duration::from_secs(2)).await;
    (
        count,
        after.saturating_sub(before) as f64 / count.max(1) as f64,
    )
}

fn main() {
    let options = options().unwrap_or_else(|why| {
        eprintln!("net_soak: {why}");
        std::process::exit(2);
    });
    let server = load::start_server(&options.server, &[]).unwrap_or_else(|why| {
        eprintln!("net_soak: {why}");
        std::process::exit(1);
    });
    let target = Target {
        address: server.address,
        fingerprint: server.fingerprint.clone(),
        points: options.target,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    std::thread::sleep(Duration::from_millis(500));
    let start = read(&server);
    println!(
        "spades serve (release, TLS) on loopback, CPU: {}",
        load::cpu_model()
    );
    println!(
        "at rest: {:.1} MB resident, {} descriptors, {} threads",
        start.rss_kb as f64 / 1024.0,
        start.descriptors,
        start.threads
    );
    let tally = Box::leak(Box::new(Tally::default()));
    let (idle, idle_kb) = runtime.block_on(per_idle_connection(&server, &target));
    println!("{idle} idle connections (TLS, said hello): {idle_kb:.1} kB resident each");
    let began = Instant::now();
    let until = began + Duration::from_secs_f64(options.minutes * 60.0);
    let mut highest = start;
    runtime.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for w in 0..options.tables {
            tasks.spawn(honest(w, target.clone(), until, tally));
        }
        for kind in 0..5 {
            tasks.spawn(attacks(kind, target.clone(), until, tally));
        }
        let mut last_said = Instant::now();
        while !tasks.is_empty() {
            tokio::select! {
                done = tasks.join_next() => {
                    if let Some(Err(e)) = done {
                        tally.fail(format!("a task failed: {e}"));
                    }
                }
                () = sleep(Duration::from_secs(5)) => {
                    let now = read(&server);
                    highest.rss_kb = highest.rss_kb.max(now.rss_kb);
                    highest.descriptors = highest.descriptors.max(now.descriptors);
                    highest.threads = highest.threads.max(now.threads);
                    if last_said.elapsed() >= Duration::from_secs(60) {
                        last_said = Instant::now();
                        println!(
                            "{:>4.0} s: {} games, {} attacks; {:.1} MB, {} descriptors, {} threads",
                            began.elapsed().as_secs_f64(),
                            tally.games.load(Ordering::Relaxed),
                            tally.attacks.load(Ordering::Relaxed),
                            now.rss_kb as f64 / 1024.0,
                            now.descriptors,
                            now.threads
                        );
                    }
                }
            }
        }
    });
    let churned = began.elapsed();
    // Silent partners are held 90 s; the server's deadlines are shorter.
    let settle = Instant::now();
    let end = runtime.block_on(async {
        loop {
            let now = read(&server);
            if now.descriptors <= start.descriptors || settle.elapsed() > Duration::from_secs(120) {
                // The allocator gives freed memory back over about ten
                // seconds (jemalloc's decay).
                sleep(Duration::from_secs(15)).await;
                return read(&server);
            }
            sleep(Duration::from_secs(1)).await;
        }
    });
    let stopped = server.stop();
    let games = tally.games.load(Ordering::Relaxed);
    println!(
        "{:.1} min of churn, {} honest tables at once to {} points: {games} games, {} records checked and verified ({} partners left with a FIN, {} went silent, {} came back by token); {} attack rounds",
        churned.as_secs_f64() / 60.0,
        options.tables,
        options.target,
        tally.records.load(Ordering::Relaxed),
        tally.left_with_fin.load(Ordering::Relaxed),
        tally.left_silently.load(Ordering::Relaxed),
        tally.came_back.load(Ordering::Relaxed),
        tally.attacks.load(Ordering::Relaxed),
    );
    println!(
        "resident memory: {:.1} MB at start, {:.1} MB at most, {:.1} MB after ({:+.1} MB)",
        start.rss_kb as f64 / 1024.0,
        highest.rss_kb as f64 / 1024.0,
        end.rss_kb as f64 / 1024.0,
        (end.rss_kb as f64 - start.rss_kb as f64) / 1024.0
    );
    println!(
        "descriptors: {} at start, {} at most, {} after, {:.0} s after the churn; threads: {} at most",
        start.descriptors,
        highest.descriptors,
        end.descriptors,
        settle.elapsed().as_secs_f64(),
        highest.threads
    );
    println!("the server's exit on SIGTERM: {stopped:?}");
    let mut failures = tally.failures.lock().map(|f| f.clone()).unwrap_or_default();
    if end.descriptors > start.descriptors {
        failures.push(format!(
            "descriptors did not come back: {} after, {} at start",
            end.descriptors, start.descriptors
        ));
    }
    if end.rss_kb > start.rss_kb + 8 * 1024 {
        failures.push("memory did not come back within 8 MB of its start".into());
    }
    if games == 0 {
        failures.push("no game was played".into());
    }
    if !failures.is_empty() {
        eprintln!("net_soak: {} checks failed", failures.len());
        std::process::exit(1);
    }
}
