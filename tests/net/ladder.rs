//! Accounts and the ladder on a server that keeps one: registering and
//! signing in by signing the server's challenge, forged and replayed
//! answers, names taken or only alike, the registration limit, a rated
//! game on the ladder, and `spades ladder` and `spades account` as a
//! player runs them.

use std::net::IpAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use spades::config::parse_rules;
use spades::engine::Mode;
use spades::ladder::UnixTime;
use spades::ladder::keys::{Challenge, Identity, Nonce};
use spades::ladder::store::Database;
use spades::net::code::server_id;
use spades::net::server::ranked::RankedRules;
use spades::net::server::{RegistrationLimits, Server, ServerOptions};
use spades::protocol::account::{hex, unhex};
use spades::protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage};
use support::account;
use support::net::{Answerer, Client, play_out};

pub(crate) fn server(db: &Path) -> Server {
    ranked_server(db, &[])
}

/// The short partnership game the tests rate, to 100.
pub(crate) const SHORT: &str = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";

/// Ranked rules of `ranked` (rules.toml texts) instead of the classic
/// game in their modes: a short game to rate in a test.
pub(crate) fn ranked(ranked: &[&str]) -> RankedRules {
    ranked.iter().fold(RankedRules::default(), |all, text| {
        all.with(parse_rules(text, "ranked.toml").expect("ranked rules"))
    })
}

/// A server whose ladder rates `ranked` (rules.toml texts) instead of the
/// classic game in their modes.
pub(crate) fn ranked_server(db: &Path, ranked: &[&str]) -> Server {
    let ranked = self::ranked(ranked);
    Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        db: Some(Database::File(db.to_path_buf())),
        ranked,
        ..ServerOptions::default()
    })
    .expect("the server starts")
}

/// A connection said hello, and the challenge its welcome offered.
pub(crate) async fn arrive(server: &Server, name: &str) -> (Client, String) {
    let mut client = Client::connect(server.address(), server.fingerprint()).await;
    client
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_string(),
        })
        .await;
    let nonce = client
        .until(|m| match m {
            ServerMessage::Welcome { challenge, .. } => Some(challenge.clone()),
            _ => None,
        })
        .await
        .expect("a server with a ladder offers a challenge");
    (client, nonce)
}

pub(crate) fn key(identity: &Identity) -> String {
    hex(identity.public_key().as_bytes())
}

/// `identity`'s signature of the challenge `nonce` from `server`.
pub(crate) fn signed(server: &Server, identity: &Identity, nonce: &str) -> String {
    let challenge = Challenge {
        server: server_id(server.fingerprint()),
        nonce: Nonce(unhex::<32>(nonce).expect("a nonce is 64 hex digits")),
        expires: UnixTime(0),
    };
    hex(identity.answer(&challenge).signature.as_bytes())
}

/// `signed_in`'s name, or the error that came instead.
async fn answered(client: &mut Client) -> Result<String, ErrorCode> {
    client
        .until(|m| match m {
            ServerMessage::SignedIn { name, .. } => Some(Ok(name.clone())),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
}

pub(crate) async fn fresh_challenge(client: &mut Client) -> String {
    client
        .until(|m| match m {
            ServerMessage::Challenge { nonce } => Some(nonce.clone()),
            _ => None,
        })
        .await
}

pub(crate) async fn register(
    server: &Server,
    client: &mut Client,
    identity: &Identity,
    name: &str,
    nonce: &str,
) -> Result<String, ErrorCode> {
    client
        .send(&ClientMessage::Register {
            name: name.to_string(),
            key: key(identity),
            signature: signed(server, identity, nonce),
        })
        .await;
    answered(client).await
}

pub(crate) async fn sign_in_with(
    client: &mut Client,
    key: String,
    signature: String,
) -> Result<String, ErrorCode> {
    client.send(&ClientMessage::SignIn { key, signature }).await;
    answered(client).await
}

/// A new account `name` with a key of its own.
pub(crate) async fn registered(server: &Server, name: &str) -> Identity {
    let identity = Identity::generate().unwrap();
    let (mut client, nonce) = arrive(server, name).await;
    let got = register(server, &mut client, &identity, name, &nonce).await;
    assert_eq!(got, Ok(name.to_string()));
    identity
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_registers_then_signs_in_elsewhere_and_sits_under_the_accounts_name() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann = registered(&server, "Ann").await;
    // Another connection, another hello name: the account's name holds.
    let (mut client, nonce) = arrive(&server, "Mallory").await;
    let signature = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), signature).await,
        Ok("Ann".into())
    );
    let table = client.host("mode = \"partnership\"\n").await;
    let lobby = client.seating().await;
    assert_eq!(table.seat.index(), 0);
    assert_eq!(lobby.seats[0].name.as_deref(), Some("Ann"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_or_replayed_signature_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann = registered(&server, "Ann").await;
    let mallory = Identity::generate().unwrap();
    // Ann's key, Mallory's signature: refused, and a fresh challenge comes
    // to try again.
    let (mut client, nonce) = arrive(&server, "Mallory").await;
    let forged = signed(&server, &mallory, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), forged).await,
        Err(ErrorCode::BadSignature)
    );
    let again = fresh_challenge(&mut client).await;
    assert_ne!(again, nonce);
    // The spent challenge answered again, rightly signed: refused.
    let replayed = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), replayed.clone()).await,
        Err(ErrorCode::BadSignature)
    );
    // A good answer seen on one connection replayed on another.
    let (mut seen, seen_nonce) = arrive(&server, "Ann").await;
    let good = signed(&server, &ann, &seen_nonce);
    assert_eq!(
        sign_in_with(&mut seen, key(&ann), good.clone()).await,
        Ok("Ann".into())
    );
    let (mut thief, _) = arrive(&server, "Thief").await;
    assert_eq!(
        sign_in_with(&mut thief, key(&ann), good).await,
        Err(ErrorCode::BadSignature)
    );
    // A signature made for another server is worthless here.
    let (mut elsewhere, nonce) = arrive(&server, "Ann").await;
    let challenge = Challenge {
        server: server_id(Some("AAAAAAAAAAAAAAAAAAAAAAAAAA")),
        nonce: Nonce(unhex::<32>(&nonce).unwrap()),
        expires: UnixTime(0),
    };
    let other = hex(ann.answer(&challenge).signature.as_bytes());
    assert_eq!(
        sign_in_with(&mut elsewhere, key(&ann), other).await,
        Err(ErrorCode::BadSignature)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taken_look_alike_and_bot_names_are_refused_with_their_codes() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    registered(&server, "Alice").await;
    let bob = Identity::generate().unwrap();
    let (mut client, nonce) = arrive(&server, "Bob").await;
    // Each refused name leaves the challenge to try another.
    for (name, code) in [
        ("Alice", ErrorCode::NameTaken),
        ("alice", ErrorCode::NameTaken),
        ("A1ice", ErrorCode::NameLookAlike),
        ("\u{410}lice", ErrorCode::NameLookAlike),
        ("North", ErrorCode::BotName),
        ("!!", ErrorCode::BadName),
    ] {
        let got = register(&server, &mut client, &bob, name, &nonce).await;
        assert_eq!(got, Err(code), "{name}");
    }
    let got = register(&server, &mut client, &bob, "Bob", &nonce).await;
    assert_eq!(got, Ok("Bob".into()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sixth_registration_from_one_address_within_the_hour_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    for i in 0..5 {
        registered(&server, &format!("Player {}", ["a", "b", "c", "d", "e"][i])).await;
    }
    let identity = Identity::generate().unwrap();
    let (mut client, nonce) = arrive(&server, "Sixth").await;
    let got = register(&server, &mut client, &identity, "Sixth", &nonce).await;
    assert_eq!(got, Err(ErrorCode::TooManyRegistrations));
}

/// The server-wide limit counts every address: two accounts from two
/// addresses fill an hour of two, and a third address is refused and
/// told it is the server's limit, not its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_hourly_registrations_are_limited_across_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        db: Some(Database::File(dir.path().join("ladder.sqlite"))),
        registrations: RegistrationLimits {
            all_hour: 2,
            ..RegistrationLimits::default()
        },
        ..ServerOptions::default()
    })
    .expect("the server starts");
    let fingerprint = server.fingerprint().unwrap().to_string();
    let mut results = Vec::new();
    for (last, name) in [(2, "Spare One"), (3, "Spare Two"), (4, "Spare Three")] {
        let from = IpAddr::from([127, 0, 0, last]);
        let (mut client, nonce) = account::arrive(server.address(), &fingerprint, from, name)
            .await
            .unwrap();
        let identity = Identity::generate().unwrap();
        let got = account::answer(&mut client, &fingerprint, &identity, &nonce, Some(name)).await;
        results.push(got.map(|(name, _)| name));
    }
    assert_eq!(results[0], Ok("Spare One".into()));
    assert_eq!(results[1], Ok("Spare Two".into()));
    let refused = results[2].clone().unwrap_err();
    assert!(
        refused.starts_with("TooManyRegistrations")
            && refused.contains("at most 2 accounts an hour in all"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_a_ladder_says_so() {
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        threads: Some(1),
        ..ServerOptions::default()
    })
    .unwrap();
    let mut client = Client::connect(server.address(), server.fingerprint()).await;
    client.hello("Ann").await;
    client
        .send(&ClientMessage::Ladder {
            mode: Mode::Partnership,
        })
        .await;
    assert_eq!(client.error().await.0, ErrorCode::NoLadder);
}

/// The ladder's rows as a new connection asks for them.
pub(crate) async fn ladder_rows(
    server: &Server,
    mode: Mode,
) -> Vec<spades::protocol::account::Rung> {
    let (mut client, _) = arrive(server, "Reader").await;
    client.send(&ClientMessage::Ladder { mode }).await;
    client
        .until(|m| match m {
            ServerMessage::Ladder { rows, .. } => Some(rows.clone()),
            _ => None,
        })
        .await
}

pub(crate) fn spades(args: &[&str], data: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_spades"))
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("HOME", data)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_the_players_rating_once_and_spades_ladder_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let short = "mode = \"partnership\"\ntarget_score = 100\nlosing_score = -100\n";
    let server = ranked_server(&dir.path().join("ladder.sqlite"), &[short]);
    let ann = registered(&server, "Ann").await;
    assert!(ladder_rows(&server, Mode::Partnership).await.is_empty());
    let (mut client, nonce) = arrive(&server, "Ann").await;
    let signature = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), signature).await,
        Ok("Ann".into())
    );
    client.host(short).await;
    client.start().await;
    let seen = play_out(&mut client, &mut Answerer::new("normal", 7)).await;
    assert_eq!(seen.bye.as_deref(), Some("the game is over"));
    let rows = ladder_rows(&server, Mode::Partnership).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0].rank, rows[0].name.as_str(), rows[0].games),
        (1, "Ann", 1)
    );
    assert_ne!(rows[0].rating, 1500);
    assert!(rows[0].provisional);
    // The goodbye gave the very rating the ladder holds.
    assert_eq!(
        seen.rating,
        Some(spades::protocol::account::GameRating::Recorded {
            mode: Mode::Partnership,
            before: 1500,
            after: rows[0].rating,
            deviation: rows[0].deviation,
            provisional: true,
        })
    );

    let code = format!(
        "{}@127.0.0.1:{}",
        server.fingerprint().unwrap(),
        server.address().port()
    );
    let home = tempfile::tempdir().unwrap();
    let out = spades(&["ladder", &code], home.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text.lines().find(|l| l.contains("Ann")).expect("Ann's row");
    assert!(line.trim_start().starts_with('1'), "{text}");
    assert!(line.contains(&format!("{}? ± ", rows[0].rating)), "{text}");
    let out = spades(&["ladder", &code, "--json"], home.path());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json[0]["name"], "Ann");
    assert_eq!(json[0]["games"], 1);
    // Nobody's key here: the ladder alone, and no key made to read it.
    assert!(!text.contains("rated partnership games"), "{text}");
    assert!(!home.path().join("spades/account.key").exists());

    // With Ann's key, her own games follow the ladder.
    let hers = tempfile::tempdir().unwrap();
    let imported = spades(&["account", "import", &ann.export()], hers.path());
    assert!(imported.status.success());
    assert!(hers.path().join("spades/account.key").exists());
    let out = spades(&["ladder", &code], hers.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Ann's rated partnership games"), "{text}");
    let game = format!(" 1500 -> {:>5}", rows[0].rating);
    assert!(text.contains(&game), "{text}");
}

#[test]
fn an_exported_key_imports_elsewhere_as_the_same_key_and_garbage_is_refused() {
    let (here, there) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let exported = spades(&["account", "export"], here.path());
    assert!(exported.status.success());
    let text = String::from_utf8(exported.stdout).unwrap();
    assert!(text.starts_with("spades-key-1:"), "{text}");
    let imported = spades(&["account", "import", text.trim()], there.path());
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let key = |dir: &Path| {
        let out = spades(&["account", "show"], dir);
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find(|l| l.starts_with("public key:"))
            .expect("the public key")
            .to_string()
    };
    assert_eq!(key(here.path()), key(there.path()));
    // A key already there is not overwritten unless asked.
    let again = spades(&["account", "import", text.trim()], there.path());
    assert_eq!(again.status.code(), Some(2));
    let garbage = spades(&["account", "import", "spades-key-1:NOTAKEY"], there.path());
    assert_eq!(garbage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&garbage.stderr).contains("not a spades key"));
    let garbage = spades(&["account", "import", "hello"], there.path());
    assert_eq!(garbage.status.code(), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spades_account_rotate_moves_the_account_to_a_new_key() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let home = tempfile::tempdir().unwrap();
    let exported = spades(&["account", "export"], home.path());
    let old = Identity::import(&String::from_utf8(exported.stdout).unwrap()).unwrap();
    let (mut client, nonce) = arrive(&server, "Ann").await;
    let got = register(&server, &mut client, &old, "Ann", &nonce).await;
    assert_eq!(got, Ok("Ann".into()));
    let code = format!(
        "{}@127.0.0.1:{}",
        server.fingerprint().unwrap(),
        server.address().port()
    );
    let home_path = home.path().to_path_buf();
    let rotated =
        tokio::task::spawn_blocking(move || spades(&["account", "rotate", &code], &home_path))
            .await
            .unwrap();
    let said = String::from_utf8_lossy(&rotated.stdout);
    assert!(
        rotated.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&rotated.stderr)
    );
    assert!(said.contains("Ann"), "{said}");
    let exported = spades(&["account", "export"], home.path());
    let new = Identity::import(&String::from_utf8(exported.stdout).unwrap()).unwrap();
    assert_ne!(key(&new), key(&old));
    let (mut client, nonce) = arrive(&server, "x").await;
    let signature = signed(&server, &old, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&old), signature).await,
        Err(ErrorCode::NoAccount)
    );
    let nonce = fresh_challenge(&mut client).await;
    let signature = signed(&server, &new, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&new), signature).await,
        Ok("Ann".into())
    );
}

/// A host alone with bots who leaves a rated game ends it (nobody is
/// left to play), and loses: rated once, as the leaver.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_player_who_leaves_a_rated_game_loses() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let ann = registered(&server, "Ann").await;
    let (mut client, nonce) = arrive(&server, "Ann").await;
    let signature = signed(&server, &ann, &nonce);
    assert_eq!(
        sign_in_with(&mut client, key(&ann), signature).await,
        Ok("Ann".into())
    );
    client.host("mode = \"partnership\"\n").await;
    client.start().await;
    client
        .until(|m| matches!(m, ServerMessage::Ask { .. }).then_some(()))
        .await;
    client.send(&ClientMessage::Bye {}).await;
    client.closed().await;
    let rows = ladder_rows(&server, Mode::Partnership).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].games, 1);
    assert!(rows[0].rating < 1500, "a leaver loses: {rows:?}");
}

/// On a server with a ladder, someone not signed in cannot sit under a
/// registered name, nor one that could pass for it, whether opening a
/// table or joining one: they are told why, and sit once they take a
/// name of their own, marked a guest in the lobby and in chat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_sit_as_a_registered_name_nor_a_look_alike_and_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let (mut owner, nonce) = arrive(&server, "Alice").await;
    let identity = Identity::generate().unwrap();
    let got = register(&server, &mut owner, &identity, "Alice", &nonce).await;
    assert_eq!(got, Ok("Alice".to_string()));
    let table = owner.host("mode = \"partnership\"\n").await.table;

    let rules = "mode = \"partnership\"\n";
    for (guest_name, code) in [
        ("Alice", ErrorCode::NameTaken),
        ("alice", ErrorCode::NameTaken),
        ("\u{410}lice", ErrorCode::NameLookAlike),
        ("A1ice", ErrorCode::NameLookAlike),
    ] {
        let (mut guest, _) = arrive(&server, guest_name).await;
        guest
            .send(&ClientMessage::Host {
                rules: rules.into(),
                public: false,
            })
            .await;
        let (refused, why) = guest.seated().await.unwrap_err();
        assert_eq!(refused, code, "{guest_name}: {why}");
        assert!(why.contains("sign in"), "{why}");
        let (refused, _) = guest.join(&table).await.unwrap_err();
        assert_eq!(refused, code, "{guest_name}");
    }
    let (mut guest, _) = arrive(&server, "Bob").await;
    let bob = guest.join(&table).await.unwrap().seat;
    // Bob is marked a guest wherever he is named; Alice is not.
    let lobby = owner
        .until(|m| match m {
            ServerMessage::Seating(lobby) if lobby.seats[bob.index()].name.is_some() => {
                Some(lobby.clone())
            }
            _ => None,
        })
        .await;
    assert!(lobby.seats[bob.index()].guest);
    assert!(!lobby.seats[0].guest);
    guest.send(&ClientMessage::Chat { text: "hi".into() }).await;
    let heard = owner
        .until(|m| match m {
            ServerMessage::Chat { from, guest, .. } => Some((from.clone(), *guest)),
            _ => None,
        })
        .await;
    assert_eq!(heard, ("Bob".to_string(), true));
    owner
        .send(&ClientMessage::Chat {
            text: "hello".into(),
        })
        .await;
    let heard = guest
        .until(|m| match m {
            // Past Bob's own line, which he hears too.
            ServerMessage::Chat { from, guest, .. } if from != "Bob" => {
                Some((from.clone(), *guest))
            }
            _ => None,
        })
        .await;
    assert_eq!(heard, ("Alice".to_string(), false));
}

/// A name of "A" and 32,000 combining marks registers as `Á`: cut where
/// it enters, as every name is (it took one column and 64 kB).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_of_thirty_two_thousand_marks_registers_cut() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(&dir.path().join("ladder.sqlite"));
    let marks = format!("A{}", "\u{301}".repeat(32_000));
    let (mut client, nonce) = arrive(&server, "Ann").await;
    let identity = Identity::generate().unwrap();
    let got = register(&server, &mut client, &identity, &marks, &nonce).await;
    assert_eq!(got, Ok("A\u{301}".to_string()));
}
