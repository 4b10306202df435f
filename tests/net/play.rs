//! Shared tables as players meet them: two of the game's own screens (the
//! app the terminal draws) at one table on a real server over loopback,
//! from the lobby to the game's end; one of them drops out mid-hand and
//! takes the seat back with its token; the record each keeps verifies.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use spades::engine::{Phase, Seat};
use spades::net::client::seating::{Joining, SeatTokens, SeatingState, Seeking, Started, Waiting};
use spades::net::client::{Connection, Target};
use spades::net::server::{Server, ServerOptions};
use spades::protocol::ClientMessage;
use spades::tui::app::Screen;
use spades::tui::{App, PlayConfig, Speed, Theme};
use support::process::Reaped;
use support::tui::{answer, tick};

pub(crate) fn server() -> Server {
    server_with(false)
}

/// A server as `spades host` runs it, in its host's own program: the host
/// leaving ends the table.
pub(crate) fn hosts_own_server() -> Server {
    server_with(true)
}

fn server_with(host_is_the_server: bool) -> Server {
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: false,
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        host_is_the_server,
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

pub(crate) fn target(server: &Server) -> Target {
    Target {
        address: server.address().to_string(),
        trust: spades::net::code::Trust::of(server.fingerprint()),
    }
}

/// Where a player's seat token goes when the server gives one, and the
/// tables whose tokens the player's program forgot.
#[derive(Debug, Default)]
pub(crate) struct Tokens {
    kept: Mutex<Option<(String, String)>>,
    pub(crate) forgotten: Mutex<Vec<String>>,
}

impl SeatTokens for Tokens {
    fn keep(&self, table: &str, token: &str) {
        *self.kept.lock().unwrap() = Some((table.to_string(), token.to_string()));
    }

    fn forget(&self, table: &str) {
        self.forgotten.lock().unwrap().push(table.to_string());
    }
}

type Kept = Arc<Tokens>;

fn joining(table: Option<String>, token: Option<String>, kept: &Kept) -> Joining {
    Joining {
        table,
        seeking: Seeking::Private,
        token,
        keep_token: kept.clone(),
        code: Box::new(|table| table.to_string()),
    }
}

/// Follows the lobby until `done` says what it waits for has come.
fn follow(
    connection: &mut Connection,
    waiting: &mut Waiting,
    joining: &mut Joining,
    mut done: impl FnMut(&Waiting) -> bool,
) -> Option<Started> {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if done(waiting) {
            return None;
        }
        if let Some(incoming) = connection.recv_timeout(Duration::from_millis(50)) {
            match waiting.take(incoming, joining) {
                Some(Ok(started)) => return Some(started),
                Some(Err(why)) => panic!("the table ended: {why}"),
                None => {}
            }
        }
    }
    panic!("the lobby never got there");
}

/// One player's program in the lobby: its connection and what it knows.
pub(crate) struct Sitting {
    pub(crate) connection: Connection,
    waiting: Waiting,
    joining: Joining,
    kept: Kept,
}

impl Sitting {
    /// Connects as `name`, asks for a seat with `first` (host, join or
    /// reclaim), and waits for the lobby (or, taking a seat back in a game
    /// already on, for nothing: `until` says).
    fn at(target: &Target, name: &str, first: ClientMessage) -> Sitting {
        Sitting::on(Connection::open(target, name).unwrap(), first)
    }

    /// `at`, over a connection already open (signed in, say).
    pub(crate) fn on(connection: Connection, first: ClientMessage) -> Sitting {
        let table = match &first {
            ClientMessage::Join { table } | ClientMessage::Reclaim { table, .. } => {
                Some(table.clone())
            }
            _ => None,
        };
        connection.send(first);
        let kept = Kept::default();
        Sitting {
            connection,
            waiting: Waiting::new(SeatingState::new(Seat::new(0), false, None)),
            joining: joining(table, None, &kept),
            kept,
        }
    }

    /// Follows the lobby until `done` holds.
    pub(crate) fn until(&mut self, done: impl FnMut(&Waiting) -> bool) {
        let started = follow(
            &mut self.connection,
            &mut self.waiting,
            &mut self.joining,
            done,
        );
        assert!(started.is_none(), "the game started first");
    }

    /// Follows the lobby until the game starts; the seat's screen then.
    pub(crate) fn started(self, records: &std::path::Path) -> App {
        self.started_with(config(records))
    }

    /// `started`, the screen set up as `config` says.
    pub(crate) fn started_with(mut self, config: PlayConfig) -> App {
        let started = follow(
            &mut self.connection,
            &mut self.waiting,
            &mut self.joining,
            |_| false,
        )
        .expect("the game starts");
        App::joined(config, Theme::PLAIN, self.connection, started)
    }

    /// The table's id and this seat's token, once seated.
    pub(crate) fn seat_token(&self) -> (String, String) {
        self.kept
            .kept
            .lock()
            .unwrap()
            .clone()
            .expect("a seat token")
    }

    /// Where this player's program keeps and forgets its tokens.
    pub(crate) fn tokens(&self) -> Kept {
        self.kept.clone()
    }
}

/// Ann signed in with `identity` (registered as Ann on first meeting)
/// hosts a table of `rules`, and waits for its lobby.
pub(crate) fn host_signed_in(
    target: &Target,
    identity: &spades::ladder::keys::Identity,
    rules: &str,
) -> Sitting {
    let mut connection = Connection::open(target, "Ann").unwrap();
    let credentials = spades::net::client::account::Credentials {
        identity,
        register_as: Some("Ann"),
        retired: &[],
    };
    let signed = spades::net::client::account::sign_in(&mut connection, &credentials);
    assert!(matches!(signed, Ok(Some(_))), "Ann signs in");
    let mut ann = Sitting::on(
        connection,
        ClientMessage::Host {
            rules: rules.to_string(),
            public: false,
        },
    );
    ann.until(|w| w.state.seating.is_some());
    ann
}

pub(crate) fn host(target: &Target, rules: &str) -> Sitting {
    let mut ann = Sitting::at(
        target,
        "Ann",
        ClientMessage::Host {
            rules: rules.to_string(),
            public: false,
        },
    );
    ann.until(|w| w.state.seating.is_some());
    ann
}

pub(crate) fn join(target: &Target, name: &str, table: &str) -> Sitting {
    let mut player = Sitting::at(
        target,
        name,
        ClientMessage::Join {
            table: table.to_string(),
        },
    );
    player.until(|w| w.state.seating.is_some());
    player
}

pub(crate) fn config(dir: &std::path::Path) -> PlayConfig {
    let mut config = PlayConfig::new(spades::engine::Rules::default(), 0);
    config.speed = Speed::Instant;
    config.ascii = true;
    config.auto_play = true;
    config.game.records = Some(dir.to_path_buf());
    config
}

/// Plays `app`'s part (`answer` from the TUI tests' support) until `done`.
pub(crate) fn play_until(apps: &mut [&mut App], mut done: impl FnMut(&[&mut App]) -> bool) {
    let until = Instant::now() + Duration::from_secs(90);
    while !done(apps) {
        assert!(
            Instant::now() < until,
            "the game did not get there in time: {:?}",
            apps.iter()
                .map(|a| (
                    a.screen(),
                    a.view().phase,
                    a.view().hand_no,
                    a.notice().map(str::to_string)
                ))
                .collect::<Vec<_>>()
        );
        for app in apps.iter_mut() {
            if app.screen() == Screen::GameOver {
                tick(app);
            } else {
                answer(app);
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn two_players_play_a_whole_game_and_one_drops_out_and_comes_back() {
    let server = server();
    let records = tempfile::tempdir().unwrap();
    let rules = "mode = \"partnership\"\ntarget_score = 150\nlosing_score = -150\n";

    // Ann opens the table; Bob joins by its id and sits opposite her.
    let mut ann = host(&target(&server), rules);
    assert!(ann.waiting.state.host);
    let table = ann.seat_token().0;
    let bob = join(&target(&server), "Bob", &table);
    assert_eq!(
        bob.waiting.state.seat,
        Seat::new(2),
        "the first to join is the partner"
    );
    assert!(!bob.waiting.state.host);
    let bob_token = bob.seat_token().1;

    // Bots fill the empty seats; the host starts.
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Fill {
        bots: true,
        level: "easy".parse().unwrap(),
    });
    ann.connection.send(ClientMessage::Start {});
    let ann_tokens = ann.tokens();
    let mut ann_app = ann.started(records.path());
    let mut bob_app = bob.started(records.path());
    assert_eq!(ann_app.you(), Seat::new(0));
    assert_eq!(bob_app.you(), Seat::new(2));
    assert!(ann_app.commitment().is_some(), "the deals are committed to");
    assert_eq!(ann_app.names().seat(Seat::new(2)), "Bob");
    assert_eq!(bob_app.names().seat(Seat::new(2)), "Bob");
    // A bot is named by its seat, the same for everyone: the server's
    // East (seat 3) is East to Bob too, though it sits at his left.
    assert_eq!(ann_app.names().seat(Seat::new(3)), "East");
    assert_eq!(bob_app.names().seat(Seat::new(3)), "East");

    // A few cards into the first hand, Bob's program goes away.
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].view().phase == Phase::Playing && apps[1].view().play.played.len() >= 5
    });
    let hand = bob_app.view().hand_no;
    drop(bob_app);

    // Bob comes back with his token, into the same seat and the same hand.
    let bob = Sitting::at(
        &target(&server),
        "Bob",
        ClientMessage::Reclaim {
            table: table.clone(),
            token: bob_token,
        },
    );
    let mut bob_app = bob.started(records.path());
    assert_eq!(bob_app.you(), Seat::new(2));
    assert_eq!(bob_app.view().hand_no, hand);

    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps.iter().all(|a| a.screen() == Screen::GameOver)
    });
    let (ann_view, bob_view) = (ann_app.view(), bob_app.view());
    assert_eq!(ann_view.phase, Phase::Over);
    assert_eq!(ann_view.winner, bob_view.winner);
    assert_eq!(ann_view.totals, bob_view.totals);
    // The game is over: the token that could take Ann's seat back is
    // forgotten, and only then.
    assert_eq!(
        *ann_tokens.forgotten.lock().unwrap(),
        std::slice::from_ref(&table)
    );

    // Each player's own copy of the record proves the deals.
    let played = [ann_app.close(), bob_app.close()];
    let mut files = 0;
    for p in &played {
        for path in &p.records {
            files += 1;
            let text = std::fs::read_to_string(path).unwrap();
            let report = support::checker::check_record(&text);
            assert!(report.is_ok(), "{}: {}", path.display(), report.describe());
            let verdicts = spades::verify::verify(&text).unwrap();
            assert!(
                matches!(verdicts[0].outcome, spades::verify::Outcome::Verified(_)),
                "{}: {:?}",
                path.display(),
                verdicts[0].outcome
            );
        }
    }
    assert_eq!(files, 2, "Ann's record and Bob's");
    let bob_record = std::fs::read_to_string(&played[1].records[0]).unwrap();
    let header: serde_json::Value =
        serde_json::from_str(bob_record.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["names"][3], "East",
        "Bob's copy names each bot by its seat, as Ann's does"
    );
    assert_eq!(header["player_seat"], 2);
    // Bob's return wrote his record afresh in the same file: nothing cut
    // short is left behind.
    let kept: Vec<_> = std::fs::read_dir(records.path()).unwrap().collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
}

/// A go-between for connections to `to`, whose connections the test can
/// cut as a failing network does (no goodbye from either end).
struct Proxy {
    address: std::net::SocketAddr,
    open: std::sync::Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
}

impl Proxy {
    fn to(to: std::net::SocketAddr) -> Proxy {
        use std::net::{Shutdown, TcpListener, TcpStream};
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let open = std::sync::Arc::new(std::sync::Mutex::new(Vec::<TcpStream>::new()));
        let kept = open.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                let Ok(server) = TcpStream::connect(to) else {
                    continue;
                };
                kept.lock()
                    .unwrap()
                    .extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy { address, open }
    }

    /// Cuts every connection through it.
    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

#[test]
fn a_dropped_connection_takes_its_seat_back_by_itself() {
    let server = server();
    let proxy = Proxy::to(server.address());
    let records = tempfile::tempdir().unwrap();
    let through = Target {
        address: proxy.address.to_string(),
        trust: spades::net::code::Trust::of(server.fingerprint()),
    };
    let rules = "mode = \"partnership\"\ntarget_score = 120\nlosing_score = -120\n";

    let mut ann = host(&target(&server), rules);
    let table = ann.seat_token().0;
    // Bob's connection runs through the go-between.
    let bob = join(&through, "Bob", &table);
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let mut ann_app = ann.started(records.path());
    let mut bob_app = bob.started(records.path());

    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps[1].view().play.played.len() >= 6
    });
    proxy.cut();
    // Bob's screen takes the seat back by itself (Ann waits a moment, so
    // the game cannot end in the meantime), and the game goes on to its
    // end with him in it: cut off for good, his screen would never see it.
    play_until(&mut [&mut bob_app], |apps| {
        apps[0]
            .notice()
            .is_some_and(|n| n.contains("Back at the table"))
    });
    play_until(&mut [&mut ann_app, &mut bob_app], |apps| {
        apps.iter().all(|a| a.screen() == Screen::GameOver)
    });
    assert_eq!(ann_app.view().totals, bob_app.view().totals);
    let played = bob_app.close();
    let text = std::fs::read_to_string(&played.records[0]).unwrap();
    let report = support::checker::check_record(&text);
    assert!(
        report.is_ok(),
        "Bob's copy, kept across the drop: {}",
        report.describe()
    );
}

/// `examples/bot.py`, written from docs/protocol.md in another language
/// with nothing but Python's standard library, joins a table over TLS by
/// its code (checking the certificate's fingerprint itself) and plays a
/// whole game as the host's partner. The server pings quiet connections
/// often and drops them soon: the bot answers its pings, waiting in the
/// lobby for longer than that.
#[test]
fn a_python_bot_joins_by_code_and_plays_a_whole_game() {
    let read_timeout = Duration::from_millis(1500);
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        ping_after: Duration::from_millis(250),
        read_timeout,
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts");
    let records = tempfile::tempdir().unwrap();
    let rules = "mode = \"partnership\"\ntarget_score = 150\nlosing_score = -150\n";
    let mut ann = host(&target(&server), rules);
    let table = ann.seat_token().0;
    let code = spades::net::code::TableCode {
        table,
        trust: spades::net::code::Trust::of(server.fingerprint()),
        host: "127.0.0.1".into(),
        port: server.address().port(),
    };
    let bot = std::process::Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/bot.py"))
        .args(["--join", &code.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut bot = Reaped(bot);
    ann.until(|w| {
        w.state
            .seating
            .as_ref()
            .is_some_and(|l| l.seats[2].name.as_deref() == Some("bot.py") && l.can_start)
    });
    std::thread::sleep(2 * read_timeout);
    ann.connection.send(ClientMessage::Start {});
    let mut app = ann.started(records.path());
    assert_eq!(app.names().seat(Seat::new(2)), "bot.py");
    play_until(&mut [&mut app], |apps| apps[0].screen() == Screen::GameOver);
    let status = bot.0.wait().unwrap();
    let mut said = String::new();
    std::io::Read::read_to_string(&mut bot.0.stderr.take().unwrap(), &mut said).unwrap();
    assert!(status.success(), "bot.py: {status:?} {said}");
    assert!(said.is_empty(), "bot.py was refused something: {said}");
}

/// A host's own program (`spades host --bot exec:COMMAND`) is one more bot
/// level in the lobby: chosen there, it plays every computer seat.
#[test]
fn the_servers_own_program_fills_the_empty_seats() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("heard.log");
    let own = format!(
        "exec:tee -a {} | python3 {}/examples/bot.py",
        log.display(),
        env!("CARGO_MANIFEST_DIR")
    );
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        threads: Some(2),
        own_bot: Some(own.parse().unwrap()),
        ..ServerOptions::default()
    })
    .unwrap();
    let mut ann = host(
        &target(&server),
        "mode = \"cutthroat\"\ntarget_score = 150\nlosing_score = -150\n",
    );
    let levels = ann.waiting.state.seating.as_ref().unwrap().levels.clone();
    let levels: Vec<String> = levels.iter().map(|l| l.to_string()).collect();
    assert_eq!(levels, ["easy", "normal", "hard", own.as_str()]);
    // A level no one offered is refused.
    ann.connection.send(ClientMessage::Fill {
        bots: true,
        level: "exec:echo hello".parse().unwrap(),
    });
    ann.until(|w| w.state.news.iter().any(|n| n.contains("no bot level")));
    ann.connection.send(ClientMessage::Fill {
        bots: true,
        level: own.parse().unwrap(),
    });
    ann.until(|w| {
        w.state
            .seating
            .as_ref()
            .is_some_and(|l| l.level.to_string() == own)
    });
    ann.connection.send(ClientMessage::Start {});
    let mut app = ann.started(dir.path());
    play_until(&mut [&mut app], |apps| apps[0].screen() == Screen::GameOver);
    drop(app);
    server.stop();
    let heard = std::fs::read_to_string(&log).unwrap();
    let asks = heard
        .lines()
        .filter(|l| l.contains(r#""type":"ask""#))
        .count();
    assert!(asks > 30, "the program was asked ({asks} asks)");
}
