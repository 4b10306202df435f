//! The game record's lines, frozen (docs/game-record.md): one line of each
//! kind, as the table writes them in games played at it, held in snapshots
//! exactly as the file holds them. A key renamed, moved or dropped, or a
//! value written another way, fails here; and every line reads back
//! (`RecordLine`) to a value that writes the same text again.
//!
//! The games: a local game left in its fourth hand (a nil, a blind nil and
//! its exchange, a blind 6, the abandoned line revealing the seed); a
//! shared table's game played to its end; `spades sim` games from an open
//! seed; a Quick Play run; a dummy game; a cutthroat deal.

use std::collections::BTreeSet;

use serde::de::DeserializeOwned;
use spades::bots::BotSpec;
use spades::config::RulesSource;
use spades::engine::{Action, Bid, Decision, GameKind, Mode, Rules, Seat};
use spades::fairness::Dealing;
use spades::naming::Names;
use spades::record::{GameInfo, RecordLine, read_games, replay};
use spades::save::SaveAbout;
use support::game::short;
use support::sitting::{Ask, Sitting, secret};

/// When the games began, in seconds since 1970.
const STARTED: u64 = 1_700_000_000;

/// A local game's `GameInfo`, as the player's save makes it.
fn local(difficulty: &str, practice: bool) -> GameInfo {
    SaveAbout {
        id: format!("game-{STARTED}-5f3a9c1e"),
        started: STARTED,
        name: "Ann".into(),
        difficulty: difficulty.parse().unwrap(),
        rules_source: RulesSource::BuiltIn.to_string(),
        practice,
        record: None,
        look: Default::default(),
    }
    .info()
}

fn local_names(mode: Mode) -> Vec<String> {
    Names::new(mode, "Ann").all()
}

/// Every line of a record, read back: each must write as the same text.
fn read_back(text: &str) -> Vec<(String, RecordLine)> {
    text.lines()
        .map(|raw| {
            let line: RecordLine =
                serde_json::from_str(raw).unwrap_or_else(|e| panic!("{raw}: {e}"));
            assert_eq!(line.json(), raw, "the line reads back to another value");
            (raw.to_string(), line)
        })
        .collect()
}

/// The first line `which` picks out.
fn find(lines: &[(String, RecordLine)], which: impl Fn(&RecordLine) -> bool) -> &str {
    lines
        .iter()
        .find(|(_, l)| which(l))
        .map(|(raw, _)| raw.as_str())
        .expect("the record has such a line")
}

/// The record's text replays through the engine: the lines frozen are
/// those of a game that checks.
fn checks(text: &str) {
    for game in read_games(text).unwrap() {
        replay(&game).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

/// Freezes `text` (one line, or several one after another) under `name`,
/// after checking that each line reads back to the same value.
fn frozen(name: &str, text: &str) {
    for raw in text.lines() {
        let line: RecordLine = serde_json::from_str(raw).unwrap_or_else(|e| panic!("{raw}: {e}"));
        assert_eq!(
            serde_json::from_str::<RecordLine>(&line.json()).unwrap(),
            line
        );
        assert_eq!(line.json(), raw);
    }
    insta::assert_snapshot!(name, text);
}

fn bid(hand: u32, seat: Seat, wanted: Bid) -> impl Fn(&RecordLine) -> bool {
    move |l| matches!(l, RecordLine::Bid { hand: h, seat: s, bid } if *h == hand && *s == seat && *bid == wanted)
}

/// Partnership to 500, with blind nil and blind bids on offer from the
/// first hand (no deficit asked).
fn blind_rules() -> Rules {
    Rules::classic(Mode::Partnership)
        .with(|r| {
            r.blind_nil.min_deficit = 0;
            r.blind_bid.allowed = true;
            r.blind_bid.min_deficit = 0;
        })
        .unwrap()
}

#[test]
fn a_local_game_left_in_its_fourth_hand() {
    let you = Seat::new(0);
    let mut sitting = Sitting::new(
        blind_rules(),
        secret(41),
        local_names(Mode::Partnership),
        local("hard@1200", false),
    );
    // Nil in the first hand, blind nil in the second, blind 6 in the third.
    let mut person = |ask: &Ask| match (ask.hand(), ask.decision) {
        (1, Decision::Bid) => Action::Bid(Bid::Nil),
        (2, Decision::BlindNil) => Action::Bid(Bid::BlindNil),
        (3, Decision::BlindNil) => Action::Bid(Bid::Blind(6)),
        _ => ask.plainly(),
    };
    // Left after the fourth hand's first trick.
    let left = sitting.until(&mut person, |ask| {
        ask.hand() == 4 && ask.decision == Decision::Play && ask.view.play.tricks_done == 1
    });
    assert!(left.is_some(), "the game lasts four hands");
    let text = sitting.abandon();
    checks(&text);
    let lines = read_back(&text);

    frozen("game_secret_seed", &lines[0].0);
    frozen(
        "deal",
        find(&lines, |l| matches!(l, RecordLine::Deal { .. })),
    );
    frozen(
        "bid_number",
        find(&lines, |l| {
            matches!(
                l,
                RecordLine::Bid {
                    bid: Bid::Tricks(_),
                    ..
                }
            )
        }),
    );
    frozen("bid_nil", find(&lines, bid(1, you, Bid::Nil)));
    frozen("bid_blind_nil", find(&lines, bid(2, you, Bid::BlindNil)));
    frozen("bid_blind_number", find(&lines, bid(3, you, Bid::Blind(6))));
    let exchange: Vec<&str> = lines
        .iter()
        .filter(|(_, l)| matches!(l, RecordLine::Exchange { hand: 2, .. }))
        .map(|(raw, _)| raw.as_str())
        .collect();
    assert_eq!(exchange.len(), 2, "a blind nil's exchange goes both ways");
    frozen("exchange_blind_nil", &exchange.join("\n"));
    frozen(
        "play",
        find(&lines, |l| matches!(l, RecordLine::Play { .. })),
    );
    frozen(
        "trick",
        find(&lines, |l| matches!(l, RecordLine::Trick { .. })),
    );
    frozen(
        "score",
        find(&lines, |l| matches!(l, RecordLine::Score { hand: 1, .. })),
    );
    // The hand in progress comes whole before the closing line.
    let (last, before) = lines.split_last().unwrap();
    assert!(
        before
            .iter()
            .any(|(_, l)| matches!(l, RecordLine::Trick { hand: 4, .. }))
    );
    assert_eq!(before.last().unwrap().1.event().unwrap().hand(), Some(4));
    assert!(last.1.revealed().is_some(), "the seed is revealed");
    frozen("abandoned_secret_seed", &last.0);
}

#[test]
fn a_shared_tables_game_to_its_end() {
    let mode = Mode::Partnership;
    let names = ["Ann", "West", "Bo", "East"].map(String::from).to_vec();
    let level: BotSpec = "normal".parse().unwrap();
    // A player's own copy: the server's header, with their seat and id;
    // a server with a ladder says why a game to 150 is not rated.
    let info = GameInfo {
        id: Some("game-1700000000-K7QXM2PD4T9RWA3B-0".into()),
        player_seat: Some(Seat::new(0)),
        unrated: Some("target_score 150, ranked 500".into()),
        ..GameInfo::shared_table(STARTED, Some(level))
    };
    let mut sitting = Sitting::new(short(mode, 150), secret(42), names, info);
    let text = sitting.finish(&mut Ask::plainly);
    checks(&text);
    let lines = read_back(&text);
    frozen("game_shared_table", &lines[0].0);
    let last = &lines.last().unwrap();
    assert!(matches!(last.1, RecordLine::End { .. }));
    assert!(last.1.revealed().is_some(), "the seed is revealed");
    frozen("end_secret_seed", &last.0);
}

#[test]
fn spades_sim_games_from_an_open_seed() {
    let mode = Mode::Partnership;
    let names: Vec<String> = (0..4).map(|s| format!("random {s}")).collect();
    let mut sitting = Sitting::new(
        short(mode, 150),
        Dealing::Open(43),
        names.clone(),
        GameInfo::default(),
    );
    let text = sitting.finish(&mut Ask::plainly);
    checks(&text);
    let lines = read_back(&text);
    frozen("game_open_seed", &lines[0].0);
    let last = lines.last().unwrap();
    assert!(matches!(last.1, RecordLine::End { .. }));
    assert_eq!(
        last.1.revealed(),
        None,
        "an open seed has nothing to reveal"
    );
    frozen("end_open_seed", &last.0);

    // Stopped at the hand limit (`--max-hands 1`).
    let mut sitting = Sitting::new(
        short(mode, 150),
        Dealing::Open(44),
        names,
        GameInfo::default(),
    );
    let second = sitting.until(&mut Ask::plainly, |ask| ask.hand() == 2);
    assert!(second.is_some());
    let text = sitting.abandon();
    checks(&text);
    let lines = read_back(&text);
    frozen("abandoned_open_seed", &lines.last().unwrap().0);
}

#[test]
fn a_quick_play_score_counts_the_lives_left() {
    let rules = Rules::classic(Mode::Partnership)
        .with(|r| r.game.kind = GameKind::Quick)
        .unwrap();
    let mut sitting = Sitting::new(
        rules,
        secret(45),
        local_names(Mode::Partnership),
        local("easy", false),
    );
    assert!(
        sitting
            .until(&mut Ask::plainly, |ask| ask.hand() == 2)
            .is_some()
    );
    let text = sitting.abandon();
    checks(&text);
    let lines = read_back(&text);
    let score = find(&lines, |l| {
        matches!(l, RecordLine::Score { lives: Some(_), .. })
    });
    frozen("score_quick_play", score);
}

#[test]
fn a_dummy_game_names_its_dummy_and_declarer() {
    let mode = Mode::Dummy;
    let mut sitting = Sitting::new(
        short(mode, 150),
        Dealing::Open(46),
        local_names(mode),
        local("normal", true),
    );
    let mut person = Ask::declaring;
    assert!(sitting.until(&mut person, |ask| ask.hand() == 2).is_some());
    let text = sitting.abandon();
    checks(&text);
    let lines = read_back(&text);
    frozen("game_dummy_practice", &lines[0].0);
    let dummy = mode.dummy().unwrap();
    frozen(
        "play_dummy",
        find(
            &lines,
            |l| matches!(l, RecordLine::Play { seat, .. } if *seat == dummy),
        ),
    );
    frozen(
        "score_dummy",
        find(&lines, |l| {
            matches!(
                l,
                RecordLine::Score {
                    declarer: Some(_),
                    ..
                }
            )
        }),
    );
}

#[test]
fn a_cutthroat_deal_leaves_a_card_out() {
    let mode = Mode::Cutthroat;
    let mut sitting = Sitting::new(
        short(mode, 150),
        Dealing::Open(47),
        local_names(mode),
        local("normal", false),
    );
    let text = sitting.abandon();
    let lines = read_back(&text);
    let deal = find(
        &lines,
        |l| matches!(l, RecordLine::Deal { out, .. } if out.len() == 1),
    );
    frozen("deal_cutthroat", deal);
}

/// Every tag serde knows `T` by, under `key`: read from its refusal of a
/// tag it does not know ("unknown variant `?`, expected one of `a`, `b`").
fn tags<T: DeserializeOwned + std::fmt::Debug>(key: &str) -> BTreeSet<String> {
    let refused = serde_json::from_str::<T>(&format!("{{\"{key}\":\"?\"}}")).unwrap_err();
    let said = refused.to_string();
    let (_, expected) = said.split_once("expected").expect("serde names the tags");
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The snapshots this file keeps, each read as record lines.
fn snapshots() -> Vec<RecordLine> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/snapshots");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("records__formats__") || !name.ends_with(".snap") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The snapshot's own header, between two `---` lines, comes first.
        let body = text.splitn(3, "---\n").nth(2).unwrap();
        for raw in body.lines().filter(|l| !l.is_empty()) {
            lines.push(serde_json::from_str(raw).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    lines
}

/// A kind of line added to `RecordLine` fails here until a snapshot holds
/// one; so do the optional keys each kind may carry.
#[test]
fn the_snapshots_hold_every_kind_of_line() {
    let lines = snapshots();
    let kinds: BTreeSet<String> = lines
        .iter()
        .map(|l| {
            let json = l.json();
            let value: serde_json::Value = serde_json::from_str(&json).unwrap();
            value["event"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(kinds, tags::<RecordLine>("event"));
    let has = |which: fn(&RecordLine) -> bool| lines.iter().any(which);
    assert!(has(
        |l| matches!(l, RecordLine::Game(h) if h.commitment.is_some())
    ));
    assert!(has(
        |l| matches!(l, RecordLine::Game(h) if h.seed.is_some())
    ));
    assert!(has(
        |l| matches!(l, RecordLine::Game(h) if h.dummy.is_some() && h.info.practice)
    ));
    assert!(has(|l| matches!(
        l,
        RecordLine::Score { lives: Some(_), .. }
    )));
    assert!(has(|l| matches!(
        l,
        RecordLine::Score {
            declarer: Some(_),
            ..
        }
    )));
    let closings: [fn(&RecordLine) -> bool; 2] = [
        |l| matches!(l, RecordLine::End { .. }),
        |l| matches!(l, RecordLine::Abandoned { .. }),
    ];
    for closing in closings {
        assert!(lines.iter().any(|l| closing(l) && l.revealed().is_some()));
        assert!(lines.iter().any(|l| closing(l) && l.revealed().is_none()));
    }
}
