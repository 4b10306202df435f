//! The table protocol's messages, frozen (docs/protocol.md): every message
//! a client sends and every message a server sends, held in snapshots
//! exactly as `protocol::line` writes them, so a key renamed, moved or
//! dropped, or a value written another way, fails here; each reads back
//! (`protocol::parse`) to the same message.
//!
//! What the server says about a game (views, asks, events, the record) is
//! taken from seeded games at the real table, seat 0 a person whose moves
//! the test makes. What it says about the table (welcome, seated, lobby,
//! start, seat, chat, error, bye) is taken from a real server on loopback,
//! with only what is drawn at random (the table's id, the seat's token,
//! the commitment) and the version put to fixed values. Views are shown
//! across lines: on the wire they are one line, the same text.

use std::collections::BTreeSet;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::Value;
use spades::bots::BotSpec;
use spades::engine::{Action, Bid, Decision, Event, GameKind, Mode, Rules, Seat, SeatEvent};
use spades::fairness::Dealing;
use spades::naming::Names;
use spades::net::server::{Server, ServerOptions};
use spades::protocol::{
    self, ClientMessage, ErrorCode, Legal, PROTOCOL_VERSION, SeatPlayer, Seating, ServerMessage,
    TableSeat,
};
use spades::record::{GameInfo, RecordLine, read_games};
use support::game::short;
use support::net::Client;
use support::sitting::{Ask, Sitting, secret};

/// A message's line, without its newline, after checking it reads back to
/// the same message.
fn wire<T>(message: &T) -> String
where
    T: serde::Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let line = protocol::line(message);
    assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
    let back: T = protocol::parse(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
    assert_eq!(&back, message, "{line}");
    line.trim_end().to_string()
}

/// Freezes messages under `name`, one line each.
fn frozen<T>(name: &str, messages: &[T])
where
    T: serde::Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let lines: Vec<String> = messages.iter().map(wire).collect();
    insta::assert_snapshot!(name, lines.join("\n"));
}

/// For each character of a JSON text: is it part of a string (its quotes
/// included)?
fn in_strings(text: &[char]) -> Vec<bool> {
    let (mut inside, mut escaped) = (false, false);
    text.iter()
        .map(|&c| {
            let was = inside;
            if inside {
                inside = c != '"' || escaped;
                escaped = c == '\\' && !escaped;
            } else {
                inside = c == '"';
            }
            was || inside
        })
        .collect()
}

/// JSON text without the whitespace between its tokens.
fn squeezed(shown: &str) -> String {
    let text: Vec<char> = shown.chars().collect();
    let strings = in_strings(&text);
    text.iter()
        .zip(strings)
        .filter(|&(c, string)| string || !c.is_whitespace())
        .map(|(c, _)| c)
        .collect()
}

/// Where the list or object opening at `at` closes.
fn closing(text: &[char], strings: &[bool], at: usize) -> usize {
    let mut depth = 0;
    for i in at..text.len() {
        match text[i] {
            _ if strings[i] => {}
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("JSON that does not close");
}

/// A line of JSON shown across lines: an object one key a line, a list on
/// one line unless it holds lists or objects. Only whitespace is added.
fn spread(line: &str) -> String {
    let text: Vec<char> = line.chars().collect();
    let strings = in_strings(&text);
    let mut out = String::new();
    // For each open list or object: is it spread across lines?
    let mut open: Vec<bool> = Vec::new();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    for (i, &c) in text.iter().enumerate() {
        match c {
            _ if strings[i] => out.push(c),
            '{' | '[' => {
                let end = closing(&text, &strings, i);
                let across =
                    c == '{' || (i + 1..end).any(|j| !strings[j] && matches!(text[j], '{' | '['));
                open.push(across);
                out.push(c);
                if across && !matches!(text[i + 1], '}' | ']') {
                    newline(&mut out, open.len());
                }
            }
            '}' | ']' => {
                let across = open.pop().expect("JSON that opened");
                if across && !matches!(text[i - 1], '{' | '[') {
                    newline(&mut out, open.len());
                }
                out.push(c);
            }
            ',' => {
                out.push(',');
                if open.last() == Some(&true) {
                    newline(&mut out, open.len());
                } else {
                    out.push(' ');
                }
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// Freezes a message carrying a view under `name`, shown across lines:
/// the same text as its line, but for the whitespace.
fn frozen_spread(name: &str, message: &ServerMessage) {
    let line = wire(message);
    let shown = spread(&line);
    assert_eq!(squeezed(&shown), line);
    insta::assert_snapshot!(name, shown);
}

/// What is elided of an ask whose view is frozen elsewhere.
const VIEW_ELIDED: &str = ",\"view\":{...}}";

/// Freezes asks under `name` without their views (each the ask's last key):
/// their `seat`, `decision` and `legal`, one line each.
fn frozen_asks(name: &str, asks: &[ServerMessage]) {
    let lines: Vec<String> = asks
        .iter()
        .map(|ask| {
            let line = wire(ask);
            let (head, _) = line
                .split_once(",\"view\":")
                .expect("an ask ends with its view");
            format!("{head}{VIEW_ELIDED}")
        })
        .collect();
    insta::assert_snapshot!(name, lines.join("\n"));
}

fn ask_message(ask: &Ask) -> ServerMessage {
    ServerMessage::Ask {
        seat: ask.seat,
        decision: ask.decision,
        legal: ask.legal.clone(),
        time_left: None,
        view: Box::new(ask.view.clone()),
    }
}

fn event_message(event: &SeatEvent) -> ServerMessage {
    ServerMessage::Event {
        event: event.clone(),
    }
}

#[test]
fn client_messages() {
    frozen(
        "client_hello",
        &[ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Ann".into(),
        }],
    );
    frozen(
        "client_host",
        &[
            ClientMessage::Host {
                rules: "mode = \"partnership\"\ntarget_score = 300\n".into(),
                public: false,
            },
            ClientMessage::Host {
                rules: "mode = \"partnership\"\n".into(),
                public: true,
            },
        ],
    );
    frozen(
        "client_join",
        &[ClientMessage::Join {
            table: "K7QXM2PD4T9RWA3B".into(),
        }],
    );
    frozen(
        "client_reclaim",
        &[ClientMessage::Reclaim {
            table: "K7QXM2PD4T9RWA3B".into(),
            token: "M4TDKRWA8P6N5YHVCEF3QZ7XJ2".into(),
        }],
    );
    // A level is a bot as `--difficulty` names it; a server offers its
    // three levels and maybe a program of its own.
    let fills: Vec<ClientMessage> = ["normal", "exec:python3 examples/bot.py"]
        .iter()
        .map(|level| ClientMessage::Fill {
            bots: true,
            level: level.parse().unwrap(),
        })
        .collect();
    frozen("client_fill", &fills);
    frozen("client_start", &[ClientMessage::Start {}]);
    let acts: Vec<ClientMessage> = [
        Action::Look,
        Action::Bid(Bid::Tricks(4)),
        Action::Bid(Bid::Nil),
        Action::Bid(Bid::BlindNil),
        Action::Bid(Bid::Blind(6)),
        Action::Exchange("2C 9D".parse().unwrap()),
        Action::Play("AS".parse().unwrap()),
    ]
    .into_iter()
    .map(|action| ClientMessage::Act { action })
    .collect();
    frozen("client_act", &acts);
    frozen(
        "client_chat",
        &[ClientMessage::Chat {
            text: "good luck".into(),
        }],
    );
    frozen(
        "client_lobby",
        &[
            ClientMessage::Tables { mode: None },
            ClientMessage::Tables {
                mode: Some(Mode::Cutthroat),
            },
            ClientMessage::Queue {
                mode: Mode::Partnership,
                wait: 60,
            },
            ClientMessage::Unqueue {},
        ],
    );
    frozen(
        "client_follow",
        &[
            ClientMessage::Follow { mode: None },
            ClientMessage::Follow {
                mode: Some(Mode::Individual),
            },
            ClientMessage::Unfollow {},
        ],
    );
    frozen(
        "client_mine",
        &[ClientMessage::Mine {
            tables: vec!["QZ7XJ2M4TDKRWA8P".into(), "K7QXM2PD4T9RWA3B".into()],
        }],
    );
    frozen("client_bye", &[ClientMessage::Bye {}]);
    frozen(
        "client_watch",
        &[
            ClientMessage::Watch {
                table: "K7QXM2PD4T9RWA3B".into(),
            },
            ClientMessage::StopWatching {},
        ],
    );
    frozen("client_pong", &[ClientMessage::Pong {}]);
}

/// Partnership to 300, with blind nil and blind bids on offer from the
/// first hand (no deficit asked).
fn blind_rules() -> Rules {
    short(Mode::Partnership, 300)
        .with(|r| {
            r.blind_nil.min_deficit = 0;
            r.blind_bid.allowed = true;
            r.blind_bid.min_deficit = 0;
        })
        .unwrap()
}

/// A partnership game: seat 0 bids nil in the first hand and blind nil in
/// the second; its asks of each kind, a view mid-trick in the second hand
/// (after the exchange), every event it is told, and the record.
#[test]
fn a_partnership_game_as_seat_0_is_told_it() {
    let mode = Mode::Partnership;
    let mut sitting = Sitting::new(
        blind_rules(),
        secret(51),
        Names::new(mode, "Ann").all(),
        GameInfo::default(),
    );
    let mut person = |ask: &Ask| match (ask.hand(), ask.decision) {
        (1, Decision::Bid) => Action::Bid(Bid::Nil),
        (2, Decision::BlindNil) => Action::Bid(Bid::BlindNil),
        _ => ask.plainly(),
    };
    let mut events = Vec::new();
    let mut asks = Vec::new();
    for decision in [Decision::BlindNil, Decision::Bid] {
        let ask = sitting
            .until(&mut person, |a| a.hand() == 1 && a.decision == decision)
            .expect("asked in the first hand");
        asks.push(ask_message(&ask));
        let action = person(&ask);
        sitting.act(&ask, action);
    }
    let exchange = sitting
        .until(&mut person, |a| a.decision == Decision::Exchange)
        .expect("the blind nil's exchange");
    assert_eq!(exchange.hand(), 2);
    asks.push(ask_message(&exchange));
    frozen_asks("ask_blind_nil_bid_exchange", &asks);
    sitting.act(&exchange, exchange.plainly());

    // Two tricks done in the second hand, and a card led to the third.
    let mid = sitting
        .until(&mut person, |a| {
            a.decision == Decision::Play
                && a.view.play.tricks_done == 2
                && a.view.play.led.is_some()
        })
        .expect("the second hand's play");
    assert_eq!(mid.hand(), 2);
    assert!(mid.view.exchange.is_some() && mid.view.last_hand.is_some());
    frozen_spread(
        "view_mid_trick",
        &ServerMessage::View {
            timed_out: None,
            view: Box::new(mid.view.clone()),
        },
    );
    // The same moment as a spectator is told it: no hand, no exchange.
    frozen_spread(
        "public_mid_trick",
        &ServerMessage::Public {
            view: Box::new(mid.view.public()),
        },
    );
    sitting.act(&mid, mid.plainly());
    events.extend(sitting.events());
    let text = sitting.finish(&mut person);
    events.extend(sitting.events());

    // The first event of each kind, and the exchange as seen by a seat
    // that neither passed nor received (its cards are not told).
    let first = |which: fn(&SeatEvent) -> bool| {
        event_message(events.iter().find(|e| which(e)).expect("such an event"))
    };
    let exchanged = read_games(&text).unwrap()[0]
        .events
        .iter()
        .find_map(|(_, e)| matches!(e, Event::Exchange { .. }).then(|| e.seen_by(Seat::new(1))))
        .unwrap();
    assert!(matches!(exchanged, SeatEvent::Exchange { cards: None, .. }));
    frozen(
        "event",
        &[
            first(|e| matches!(e, SeatEvent::Dealt { .. })),
            first(|e| matches!(e, SeatEvent::Bid { .. })),
            first(|e| matches!(e, SeatEvent::Exchange { .. })),
            event_message(&exchanged),
            first(|e| matches!(e, SeatEvent::Play { .. })),
            first(|e| matches!(e, SeatEvent::Trick { .. })),
            first(|e| matches!(e, SeatEvent::Score { .. })),
            first(|e| matches!(e, SeatEvent::End { .. })),
        ],
    );

    // The record's lines, as a record message carries them: each exactly
    // as the file writes it. The first is the header the game starts with.
    let lines: Vec<RecordLine> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let whole = wire(&ServerMessage::Record {
        lines: lines.clone(),
    });
    let file_lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        whole,
        format!(
            "{{\"type\":\"record\",\"lines\":[{}]}}",
            file_lines.join(",")
        )
    );
    frozen(
        "record_header",
        &[ServerMessage::Record {
            lines: lines[..1].to_vec(),
        }],
    );
}

/// A dummy game in which seat 0 declares: the ask for the dummy's card,
/// with the view of the dummy's seat (the declarer's cards shown), and a
/// score naming the declarer.
#[test]
fn a_dummy_game_as_its_declarer_is_asked() {
    let mode = Mode::Dummy;
    let mut sitting = Sitting::new(
        short(mode, 150),
        Dealing::Open(52),
        Names::new(mode, "Ann").all(),
        GameInfo::default(),
    );
    let mut person = Ask::declaring;
    let dummy = mode.dummy().unwrap();
    let ask = sitting
        .until(&mut person, |a| {
            a.hand() == 2 && a.seat == dummy && a.view.play.tricks_done == 1
        })
        .expect("seat 0 declares in the second hand");
    assert!(ask.view.shown.is_some() && ask.view.last_hand.is_some());
    frozen_spread("ask_for_the_dummy", &ask_message(&ask));
    let score = sitting
        .events()
        .into_iter()
        .find(|e| {
            matches!(
                e,
                SeatEvent::Score {
                    declarer: Some(_),
                    ..
                }
            )
        })
        .unwrap();
    frozen("event_score_dummy", &[event_message(&score)]);
}

#[test]
fn a_quick_play_score_tells_the_lives_left() {
    let mode = Mode::Partnership;
    let rules = Rules::classic(mode)
        .with(|r| r.game.kind = GameKind::Quick)
        .unwrap();
    let mut sitting = Sitting::new(
        rules,
        secret(53),
        Names::new(mode, "Ann").all(),
        GameInfo::default(),
    );
    assert!(
        sitting
            .until(&mut Ask::plainly, |a| a.hand() == 2)
            .is_some()
    );
    let score = sitting
        .events()
        .into_iter()
        .find(|e| matches!(e, SeatEvent::Score { lives: Some(_), .. }))
        .unwrap();
    frozen("event_score_quick_play", &[event_message(&score)]);
}

/// Every refusal a server may send, one line each.
#[test]
fn every_error_code() {
    let codes = [
        ErrorCode::BadMessage,
        ErrorCode::TooLong,
        ErrorCode::Version,
        ErrorCode::NoTable,
        ErrorCode::BadToken,
        ErrorCode::TableFull,
        ErrorCode::NotHost,
        ErrorCode::CannotStart,
        ErrorCode::NotYourTurn,
        ErrorCode::Illegal,
        ErrorCode::BadRules,
        ErrorCode::Flood,
        ErrorCode::Timeout,
        ErrorCode::NoLadder,
        ErrorCode::NameTaken,
        ErrorCode::NameLookAlike,
        ErrorCode::BotName,
        ErrorCode::BadName,
        ErrorCode::BadSignature,
        ErrorCode::NoAccount,
        ErrorCode::KeyTaken,
        ErrorCode::TooManyRegistrations,
        ErrorCode::NotSignedIn,
        ErrorCode::TooManyWatchers,
        ErrorCode::Watching,
    ];
    let errors: Vec<ServerMessage> = codes
        .into_iter()
        .map(|code| ServerMessage::Error {
            code,
            message: "why, in words".into(),
        })
        .collect();
    frozen("error_codes", &errors);
}

/// The server's lobby: a list of public tables (one open, one started),
/// and the quick-match queue's answers.
#[test]
fn lobby_messages() {
    use spades::protocol::lobby::{ListedSeat, ListedTable, QueueCount, ShownRating};
    let seat = |name: Option<&str>, player, rating: Option<(i32, i32, bool)>| ListedSeat {
        name: name.map(String::from),
        player,
        rating: rating.map(|(rating, deviation, provisional)| ShownRating {
            rating,
            deviation,
            provisional,
        }),
        guest: false,
    };
    let open = ListedTable {
        table: "K7QXM2PD4T9RWA3B".into(),
        mode: Mode::Partnership,
        rules: "to 500 · bags 10/−100 · nil 100 · blind nil 200".into(),
        seats: vec![
            seat(Some("Ann"), SeatPlayer::Person, Some((1500, 350, true))),
            seat(None, SeatPlayer::Empty, None),
            seat(Some("Bob"), SeatPlayer::Person, None),
            seat(None, SeatPlayer::Empty, None),
        ],
        started: false,
        rated: false,
        unrated: None,
        watchers: 0,
        code: None,
    };
    let started = ListedTable {
        table: "QZ7XJ2M4TDKRWA8P".into(),
        mode: Mode::Cutthroat,
        rules: "to 300 · bags 10/−100 · nil 100 · Mirror".into(),
        seats: vec![
            seat(Some("Cy"), SeatPlayer::Person, Some((1688, 92, false))),
            seat(Some("Dee"), SeatPlayer::Away, Some((1412, 120, true))),
            seat(Some("West"), SeatPlayer::Bot, None),
        ],
        started: true,
        rated: true,
        unrated: None,
        watchers: 2,
        code: Some("QZ7XJ2M4TDKRWA8P.MFRGGZDFMZTWQ2LKNNWG23TPOA@cards2.example.org:4466".into()),
    };
    frozen(
        "server_lobby_list",
        &[
            ServerMessage::Tables {
                tables: vec![open, started],
                total: 2,
                mode: None,
            },
            ServerMessage::Queued {
                mode: Mode::Partnership,
                waiting: 3,
                names: vec!["Ann".into(), "Cy".into(), "Dee".into()],
                bots_in: Some(42),
            },
            ServerMessage::Unqueued {},
        ],
    );
    // What a lobby that follows is told: the listing of the mode it
    // follows, and the queues' counts.
    frozen(
        "server_lobby_told",
        &[
            ServerMessage::Tables {
                tables: Vec::new(),
                total: 0,
                mode: Some(Mode::Cutthroat),
            },
            ServerMessage::Queues {
                queues: [
                    (Mode::Partnership, 2),
                    (Mode::Cutthroat, 0),
                    (Mode::Individual, 1),
                ]
                .map(|(mode, waiting)| QueueCount { mode, waiting })
                .to_vec(),
            },
        ],
    );
    // The answer to `mine`: a private table where the asker's seat is
    // held while they are away.
    frozen(
        "server_yours",
        &[ServerMessage::Yours {
            tables: vec![ListedTable {
                table: "QZ7XJ2M4TDKRWA8P".into(),
                mode: Mode::Partnership,
                rules: "to 500 · bags 10/−100 · nil 100 · blind nil 200".into(),
                seats: vec![
                    seat(Some("Ann"), SeatPlayer::Away, Some((1500, 350, true))),
                    seat(Some("Dee"), SeatPlayer::Person, Some((1412, 120, true))),
                    seat(Some("North"), SeatPlayer::Bot, None),
                    seat(Some("East"), SeatPlayer::Bot, None),
                ],
                started: true,
                rated: true,
                unrated: None,
                watchers: 0,
                code: None,
            }],
        }],
    );
}

/// Accounts and the ladder: what a client sends to sign in, register,
/// move to a new key and ask for the ladder, and what a server with a
/// ladder answers.
/// What a spectator is told first: the table, its seats and its rules.
#[test]
fn a_spectator_is_told_the_table() {
    let seat = |name: Option<&str>, player| TableSeat {
        name: name.map(str::to_string),
        player,
        rating: None,
        guest: false,
    };
    frozen(
        "server_watching",
        &[ServerMessage::Watching {
            table: "K7QXM2PD4T9RWA3B".into(),
            seats: vec![
                seat(Some("Ann"), SeatPlayer::Person),
                seat(Some("West"), SeatPlayer::Bot),
                seat(None, SeatPlayer::Empty),
                seat(Some("Bo"), SeatPlayer::Away),
            ],
            rules: "mode = \"partnership\"\ntarget_score = 300\n".into(),
        }],
    );
}

#[test]
fn account_and_ladder_messages() {
    use spades::protocol::account::{ModeRating, Rated, Rung};
    let key = "8a41".repeat(16);
    let signature = "c2d0".repeat(32);
    frozen(
        "client_accounts",
        &[
            ClientMessage::SignIn {
                key: key.clone(),
                signature: signature.clone(),
            },
            ClientMessage::Register {
                name: "Ann".into(),
                key: key.clone(),
                signature: signature.clone(),
            },
            ClientMessage::Rotate {
                key: "5b7e".repeat(16),
                signature,
            },
            ClientMessage::Ladder {
                mode: Mode::Partnership,
            },
        ],
    );
    frozen(
        "server_accounts",
        &[
            ServerMessage::Welcome {
                protocol: PROTOCOL_VERSION,
                server: "spades 0.1.0".into(),
                challenge: Some("3f9c".repeat(16)),
                ladder: None,
            },
            ServerMessage::Challenge {
                nonce: "77b2".repeat(16),
            },
            ServerMessage::SignedIn {
                name: "Ann".into(),
                ratings: vec![ModeRating {
                    mode: Mode::Partnership,
                    rating: 1500,
                    deviation: 350,
                    games: 0,
                    provisional: true,
                }],
            },
            ServerMessage::Rotated { name: "Ann".into() },
            ServerMessage::Ladder {
                mode: Mode::Partnership,
                rows: vec![Rung {
                    rank: 1,
                    name: "Bo".into(),
                    rating: 1688,
                    deviation: 92,
                    games: 31,
                    provisional: false,
                }],
                you: Some(vec![Rated {
                    finished: 1_767_225_600,
                    before: 1500,
                    after: 1562,
                    deviation: 290,
                }]),
            },
        ],
    );
}

/// The ladder's word on a game, in the goodbye after it, and a welcome
/// from a server whose ladder's database does not answer.
#[test]
fn the_ladders_word_on_a_game_and_a_ladder_unavailable() {
    use spades::protocol::account::{GameRating, LadderState};
    frozen(
        "server_ladder_word",
        &[
            ServerMessage::Bye {
                reason: "the game is over".into(),
                rating: Some(GameRating::Recorded {
                    mode: Mode::Partnership,
                    before: 1759,
                    after: 1846,
                    deviation: 213,
                    provisional: false,
                }),
            },
            ServerMessage::Bye {
                reason: "the game is over".into(),
                rating: Some(GameRating::Pending {
                    mode: Mode::Partnership,
                }),
            },
            ServerMessage::Welcome {
                protocol: PROTOCOL_VERSION,
                server: "spades 0.1.0".into(),
                challenge: None,
                ladder: Some(LadderState::Unavailable),
            },
        ],
    );
}

/// A lobby naming a seat of each kind the message may name, and levels
/// written each way a bot is written.
#[test]
fn every_kind_of_lobby_seat() {
    let seat = |name: Option<&str>, player| TableSeat {
        name: name.map(String::from),
        player,
        rating: None,
        guest: false,
    };
    let lobby = Seating {
        table: "K7QXM2PD4T9RWA3B".into(),
        rules: "mode = \"individual\"\n".into(),
        seats: vec![
            seat(Some("Ann"), SeatPlayer::Person),
            // A guest: not signed in, on a server with a ladder.
            TableSeat {
                guest: true,
                ..seat(Some("Bo"), SeatPlayer::Away)
            },
            seat(Some("North"), SeatPlayer::Bot),
            seat(None, SeatPlayer::Empty),
        ],
        bots: true,
        level: "hard@1200".parse().unwrap(),
        levels: [
            "easy",
            "normal",
            "hard",
            "hard@1200",
            "exec:./my-bot --fast",
        ]
        .iter()
        .map(|l| l.parse::<BotSpec>().unwrap())
        .collect(),
        can_start: true,
        rated: false,
        unrated: None,
    };
    frozen("lobby_every_seat", &[ServerMessage::Seating(lobby)]);
}

// The table as a real server tells it.

/// The fixed values drawn at random by the server: a table's id, a seat's
/// token, a commitment.
const TABLE: &str = "K7QXM2PD4T9RWA3B";
const TOKEN: &str = "M4TDKRWA8P6N5YHVCEF3QZ7XJ2";
const COMMITMENT: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

fn base32(text: &str, len: usize) -> bool {
    text.len() == len
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
}

/// The message as the server wrote it, read back; with what the server
/// draws at random put to fixed values.
fn fixed(raw: &str) -> ServerMessage {
    let mut message: ServerMessage = protocol::parse(raw).unwrap();
    assert_eq!(
        wire(&message),
        raw,
        "the server writes what the message writes"
    );
    match &mut message {
        ServerMessage::Welcome { server, .. } => {
            assert_eq!(*server, format!("spades {}", env!("CARGO_PKG_VERSION")));
            *server = "spades 0.1.0".into();
        }
        ServerMessage::Seated { table, token, .. } => {
            assert!(base32(table, 16) && base32(token, 26), "{raw}");
            *table = TABLE.into();
            *token = TOKEN.into();
        }
        ServerMessage::Seating(lobby) => {
            assert!(base32(&lobby.table, 16), "{raw}");
            lobby.table = TABLE.into();
            // The rules as the server writes them, every key with its
            // comment: the host's own text stands in for them here.
            let rules = spades::config::parse_rules(&lobby.rules, "lobby").unwrap();
            assert_eq!(
                rules,
                spades::config::parse_rules(DUMMY_RULES, "host").unwrap()
            );
            lobby.rules = DUMMY_RULES.into();
        }
        ServerMessage::Start { commitment, .. } => {
            let c = commitment.as_deref().expect("a secret seed");
            assert!(c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit()));
            *commitment = Some(COMMITMENT.into());
        }
        _ => {}
    }
    message
}

/// The first line `client` received that `which` picks out.
fn received(client: &Client, which: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
    client
        .received
        .iter()
        .map(|raw| (raw, protocol::parse::<ServerMessage>(raw).unwrap()))
        .find(|(_, m)| which(m))
        .map(|(raw, _)| fixed(raw))
        .expect("such a message")
}

async fn wait(client: &mut Client, which: impl Fn(&ServerMessage) -> bool) {
    client.until(|m| which(m).then_some(())).await
}

const DUMMY_RULES: &str = "mode = \"dummy\"\ntarget_score = 150\nlosing_score = -150\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_as_a_real_server_tells_it() {
    let own: BotSpec = "exec:python3 examples/bot.py".parse().unwrap();
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        hello_timeout: Duration::from_secs(5),
        threads: Some(2),
        own_bot: Some(own.clone()),
        ..ServerOptions::default()
    })
    .expect("the server starts");
    let connect = |name: &'static str| {
        let address = server.address();
        async move {
            let mut client = Client::connect(address, None).await;
            client.hello(name).await;
            client
        }
    };
    let mut ann = connect("Ann").await;
    let table = ann.host(DUMMY_RULES).await;
    let mut bo = connect("Bo").await;
    let joined = bo.join(&table.table).await.unwrap();
    assert_eq!(joined.seat, Seat::new(1));
    // Only the host fills: Bo is refused, Ann chooses the server's own.
    bo.fill(true, "easy").await;
    bo.error().await;
    let refused = received(&bo, |m| matches!(m, ServerMessage::Error { .. }));
    ann.fill(true, &own.to_string()).await;
    wait(
        &mut ann,
        |m| matches!(m, ServerMessage::Seating(l) if l.level.is_exec()),
    )
    .await;
    // The program is offered, never started: easy bots play.
    ann.fill(true, "easy").await;
    wait(
        &mut ann,
        |m| matches!(m, ServerMessage::Seating(l) if l.level.to_string() == "easy"),
    )
    .await;
    ann.start().await;
    wait(&mut ann, |m| matches!(m, ServerMessage::Start { .. })).await;
    ann.send(&ClientMessage::Chat {
        text: "good luck".into(),
    })
    .await;
    wait(&mut ann, |m| matches!(m, ServerMessage::Chat { .. })).await;
    // Bo drops out, and comes back.
    drop(bo);
    wait(&mut ann, |m| {
        matches!(
            m,
            ServerMessage::Seat {
                player: SeatPlayer::Away,
                ..
            }
        )
    })
    .await;
    let mut bo = connect("Bo").await;
    bo.reclaim(&table.table, &joined.token).await.unwrap();
    wait(&mut ann, |m| {
        matches!(
            m,
            ServerMessage::Seat {
                player: SeatPlayer::Person,
                ..
            }
        )
    })
    .await;
    // Ann leaves: the table plays on for Bo, a bot in her seat, until
    // the server stops.
    ann.send(&ClientMessage::Bye {}).await;
    ann.closed().await;
    wait(&mut bo, |m| {
        matches!(
            m,
            ServerMessage::Seat {
                seat,
                player: SeatPlayer::Away,
                ..
            } if *seat == Seat::new(0)
        )
    })
    .await;
    server.stop();
    bo.closed().await;

    frozen(
        "server_welcome",
        &[received(&ann, |m| {
            matches!(m, ServerMessage::Welcome { .. })
        })],
    );
    frozen(
        "server_seated",
        &[
            received(&ann, |m| matches!(m, ServerMessage::Seated { .. })),
            received(&bo, |m| matches!(m, ServerMessage::Seated { .. })),
        ],
    );
    frozen(
        "server_lobby",
        &[received(
            &ann,
            |m| matches!(m, ServerMessage::Seating(l) if l.level.is_exec()),
        )],
    );
    let start = received(&ann, |m| matches!(m, ServerMessage::Start { .. }));
    let ServerMessage::Start { players, .. } = &start else {
        unreachable!()
    };
    assert_eq!(
        players,
        &[
            SeatPlayer::Person,
            SeatPlayer::Person,
            SeatPlayer::Bot,
            SeatPlayer::Dummy
        ]
    );
    frozen("server_start", &[start]);
    frozen(
        "server_seat",
        &[
            received(&ann, |m| {
                matches!(
                    m,
                    ServerMessage::Seat {
                        player: SeatPlayer::Away,
                        ..
                    }
                )
            }),
            received(&ann, |m| {
                matches!(
                    m,
                    ServerMessage::Seat {
                        player: SeatPlayer::Person,
                        ..
                    }
                )
            }),
        ],
    );
    frozen(
        "server_chat",
        &[received(&ann, |m| matches!(m, ServerMessage::Chat { .. }))],
    );
    frozen("server_error", &[refused]);
    frozen(
        "server_bye",
        &[
            received(&ann, |m| matches!(m, ServerMessage::Bye { .. })),
            received(&bo, |m| matches!(m, ServerMessage::Bye { .. })),
        ],
    );
}

/// A real server pings a connection it has heard nothing from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_server_pings_a_silent_connection() {
    let server = Server::start(ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        ping_after: Duration::from_millis(100),
        threads: Some(2),
        ..ServerOptions::default()
    })
    .expect("the server starts");
    let mut ann = Client::connect(server.address(), None).await;
    ann.hello("Ann").await;
    wait(&mut ann, |m| matches!(m, ServerMessage::Ping {})).await;
    frozen(
        "server_ping",
        &[received(&ann, |m| matches!(m, ServerMessage::Ping {}))],
    );
}

/// Every tag serde knows `T` by: read from its refusal of one it does not
/// know ("unknown variant `?`, expected one of `a`, `b`, ...").
fn tags<T: DeserializeOwned + std::fmt::Debug>(refused: &str) -> BTreeSet<String> {
    let said = serde_json::from_str::<T>(refused).unwrap_err().to_string();
    let (_, expected) = said.split_once("expected").expect("serde names the tags");
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// Every message the snapshots hold, as JSON (an ask's elided view as
/// `null`).
pub(crate) fn snapshots() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/net/snapshots");
    let mut messages = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("net__formats__") || !name.ends_with(".snap") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The snapshot's own header, between two `---` lines, comes first.
        let body = text
            .splitn(3, "---\n")
            .nth(2)
            .unwrap()
            .replace("{...}", "null");
        let read =
            |json: &str| serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: {e}"));
        if body.starts_with("{\n") {
            messages.push(read(&body));
        } else {
            messages.extend(body.lines().filter(|l| !l.is_empty()).map(read));
        }
    }
    messages
}

/// A message, event, kind of seat, decision, legal list or error code
/// added to the protocol fails here until a snapshot holds one.
#[test]
fn the_snapshots_hold_every_message() {
    let messages = snapshots();
    let seen = |pick: &dyn Fn(&Value) -> Vec<Value>| -> BTreeSet<String> {
        messages
            .iter()
            .flat_map(pick)
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    };
    let of_type = |t: &'static str, key: &'static str| {
        move |m: &Value| -> Vec<Value> {
            if m["type"] == t {
                vec![m[key].clone()]
            } else {
                vec![]
            }
        }
    };
    let each = |v: Value| v.as_array().cloned().unwrap_or_default();
    let client_types = seen(&|m| {
        // A client's messages are those a client may send.
        let is_client = serde_json::from_value::<ClientMessage>(m.clone()).is_ok();
        if is_client {
            vec![m["type"].clone()]
        } else {
            vec![]
        }
    });
    assert_eq!(
        client_types,
        tags::<ClientMessage>(r#"{"type":"?"}"#),
        "client messages"
    );
    let server_types = seen(&|m| {
        let is_client = serde_json::from_value::<ClientMessage>(m.clone()).is_ok();
        if is_client {
            vec![]
        } else {
            vec![m["type"].clone()]
        }
    });
    assert_eq!(
        server_types,
        tags::<ServerMessage>(r#"{"type":"?"}"#),
        "server messages"
    );
    let events = seen(&|m| {
        of_type("event", "event")(m)
            .iter()
            .map(|e| e["event"].clone())
            .collect()
    });
    assert_eq!(events, tags::<protocol::event::Told>(r#"{"event":"?"}"#));
    let decisions = seen(&of_type("ask", "decision"));
    assert_eq!(decisions, tags::<Decision>(r#""?""#));
    let legal = seen(&|m| {
        of_type("ask", "legal")(m)
            .iter()
            .map(|l| l["kind"].clone())
            .collect()
    });
    assert_eq!(legal, tags::<Legal>(r#"{"kind":"?"}"#));
    let codes = seen(&of_type("error", "code"));
    assert_eq!(codes, tags::<ErrorCode>(r#""?""#));
    let players = seen(&|m| {
        let mut found = Vec::new();
        for seat in each(m["seats"].clone()) {
            found.push(seat["player"].clone());
        }
        found.extend(each(m["players"].clone()));
        found.extend(of_type("seat", "player")(m));
        found
    });
    assert_eq!(players, tags::<SeatPlayer>(r#""?""#));
    let scores: Vec<&Value> = messages
        .iter()
        .filter(|m| m["type"] == "event" && m["event"]["event"] == "score")
        .collect();
    assert!(scores.iter().any(|m| m["event"].get("lives").is_some()));
    assert!(scores.iter().any(|m| m["event"].get("declarer").is_some()));
}

/// The turn timer's keys, at a table that has one: the time an ask gives
/// (before its view), and on the view after an ask the timer ran out on,
/// what the bot did for each kind of decision (before the view too).
#[test]
fn the_turn_timers_keys() {
    use spades::protocol::timer::{TimeLeft, TimedOut};
    let mode = Mode::Partnership;
    let mut sitting = Sitting::new(
        blind_rules(),
        secret(51),
        Names::new(mode, "Ann").all(),
        GameInfo::default(),
    );
    let ask = sitting
        .until(&mut |a: &Ask| a.plainly(), |a| a.decision == Decision::Bid)
        .expect("a bid asked for");
    let timed = ServerMessage::Ask {
        seat: ask.seat,
        decision: ask.decision,
        legal: ask.legal.clone(),
        time_left: Some(TimeLeft::new(Duration::from_secs(60))),
        view: Box::new(ask.view.clone()),
    };
    let card = |c: &str| c.parse().unwrap();
    let told = |decision, action| ServerMessage::View {
        timed_out: Some(TimedOut {
            seat: ask.seat,
            decision,
            action,
        }),
        view: Box::new(ask.view.clone()),
    };
    frozen_asks(
        "turn_timer",
        &[
            timed,
            told(Decision::BlindNil, Action::Look),
            told(Decision::Bid, Action::Bid(Bid::Tricks(3))),
            told(
                Decision::Exchange,
                Action::Exchange([card("2C"), card("9D")].into_iter().collect()),
            ),
            told(Decision::Play, Action::Play(card("AS"))),
        ],
    );
}
