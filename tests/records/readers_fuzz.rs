//! The readers of outside input, fed anything: `config::parse_rules` (a
//! rules.toml) and `record::read_games` followed by `record::replay` of every
//! game read (a game record). Whatever the input, they must not panic, and
//! every error must say where it is: a line of the text for a record, a
//! line and column or the key at fault for a rules file. The valid files the
//! mutations start from must be accepted as they are.
//!
//! The inputs are arbitrary bytes and text, and real files changed a little:
//! bits flipped, cut short, text inserted, lines duplicated, deleted or
//! swapped, numbers replaced by huge, negative or odd ones, and words (keys,
//! event names, modes) replaced by others. Cases per `cargo test`: the
//! `CASES_*` constants below, 2 × (1,000 + 1,000 + 2,000) = 8,000, and
//! each of the 10 numbers of the 8 `game` lines of the valid records
//! replaced by each of 20 odd numbers, 1,600 more records.
//!
//! The fuzz targets in `fuzz/` do the same for as long as one lets them run;
//! this file is their share of CI.

use std::sync::LazyLock;

use proptest::prelude::*;
use proptest::sample::{Index, select};
use spades::config::{commented_toml, parse_rules};
use spades::engine::{Bid, Event, Mode, Rules};
use spades::record::{RecordLine, read_games, replay};
use support::proptest_seed::config;
use support::record::random_game;

const CASES_BYTES: u32 = 1_000;
const CASES_TEXT: u32 = 1_000;
const CASES_MUTATED: u32 = 2_000;

// ------------------------------------------------------------- the checks

/// A record, whatever it holds: read it, replay every game read, and
/// require any error to name a line of the text.
fn check_record(text: &str) -> Result<(), TestCaseError> {
    let lines = text.lines().count();
    let games = match read_games(text) {
        Ok(games) => games,
        Err(e) => {
            prop_assert!((1..=lines).contains(&e.line), "{e} ({lines} lines)");
            return Ok(());
        }
    };
    for game in &games {
        if let Err(e) = replay(game) {
            prop_assert!((1..=lines).contains(&e.line), "{e} ({lines} lines)");
        }
    }
    Ok(())
}

/// A rules file, whatever it holds: rules it accepts are valid and survive
/// being written out and read back; an error names a line and column inside
/// the text, or the key (in backquotes) at fault.
fn check_rules(text: &str) -> Result<(), TestCaseError> {
    match parse_rules(text, "fuzz.toml") {
        Ok(rules) => {
            prop_assert_eq!(
                Rules::new(rules.settings()),
                Ok(rules),
                "accepted invalid rules"
            );
            let again = parse_rules(&commented_toml(&rules), "written.toml");
            prop_assert_eq!(again, Ok(rules), "written out and read back");
        }
        Err(e) => {
            prop_assert!(e.to_string().starts_with("fuzz.toml"), "{}", e);
            match e.position {
                Some((line, col)) => {
                    let lines: Vec<&str> = text.split('\n').collect();
                    prop_assert!(line >= 1 && line <= lines.len(), "{e}");
                    let width = lines[line - 1].chars().count();
                    prop_assert!(col >= 1 && col <= width + 1, "{e}");
                }
                None => prop_assert!(e.message.contains('`'), "no place given: {e}"),
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------- valid inputs

fn short(mode: Mode) -> Rules {
    support::game::short(mode, 100)
}

/// The README's house rules, with blind nil open to all.
fn house(mode: Mode) -> Rules {
    short(mode)
        .with(|r| {
            r.bags.limit = 5;
            r.bags.penalty = 50;
            r.blind_nil.exchange = 3;
            r.blind_nil.one_per_side = false;
            r.blind_nil.min_deficit = 0;
            // With a dummy the bids are never added up.
            r.bidding.forbid_exact_total = mode != Mode::Dummy;
        })
        .expect("valid rules")
}

/// A record with no seed at all, neither open nor revealed: its deals are
/// taken as written.
fn without_seed(record: &str) -> String {
    record
        .lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(fields) = v.as_object_mut() {
                if fields.get("event").and_then(|e| e.as_str()) == Some("game") {
                    fields.insert("seed".into(), serde_json::Value::Null);
                    fields.insert("commitment".into(), serde_json::Value::Null);
                } else {
                    fields.remove("seed");
                    fields.remove("salt");
                }
            }
            format!("{v}\n")
        })
        .collect()
}

/// Valid rules files: the repository's, ones `spades rules --init` writes,
/// and hand-written ones with dotted keys and inline tables.
static RULES_FILES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut files = vec![
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rules.toml")).to_string(),
        String::new(),
        "target_score = 200\nbags.limit = 5\nbags.penalty = 50\n\
         blind_nil = { exchange = 3, one_per_side = false }\n\
         bidding.forbid_exact_total = true\n"
            .to_string(),
        "mode = 'cutthroat'  # three seats\nlosing_score = -250\n\n[bidding]\n\
         forbid_exact_total = true\n"
            .to_string(),
    ];
    for mode in Mode::ALL {
        files.push(commented_toml(&house(mode)));
    }
    files.push(toml::to_string(&house(Mode::Partnership)).expect("rules serialise"));
    files
});

/// Valid records: games between random bots in every mode, each with a nil
/// bid, one with a blind-nil exchange, one abandoned, one without a seed (so
/// its deals are taken as written), and a file holding two games.
static RECORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    const MAX_HANDS: u32 = 4;
    // The first game from seed 0 on with an event that `wanted` picks.
    let first_with = |rules: Rules, hands: u32, wanted: fn(&Event) -> bool| {
        (0..200)
            .map(|seed| random_game(rules, seed, hands))
            .find(|g| g.events.iter().any(wanted))
            .expect("some seed has the event")
    };
    let mut records: Vec<String> = Mode::ALL
        .iter()
        .map(|&mode| {
            // Nobody bids nil with a dummy: its first game will do.
            let wanted: fn(&Event) -> bool = if mode == Mode::Dummy {
                |_| true
            } else {
                |e| matches!(e, Event::Bid { bid: Bid::Nil, .. })
            };
            first_with(short(mode), MAX_HANDS, wanted).record()
        })
        .collect();
    let exchange = first_with(house(Mode::Partnership), 2, |e| {
        matches!(e, Event::Exchange { .. })
    });
    records.push(exchange.record());
    records.push(random_game(house(Mode::Cutthroat), 2, 1).record());
    records.push(without_seed(
        &random_game(house(Mode::Individual), 3, 2).record(),
    ));
    records.push(format!("{}\n{}", records[0], records[1]));
    records
});

#[test]
fn the_valid_inputs_are_accepted_and_read_back_exactly() {
    for text in RULES_FILES.iter() {
        let rules = parse_rules(text, "rules.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(
            parse_rules(&commented_toml(&rules), "again").unwrap(),
            rules
        );
    }
    for text in RECORDS.iter() {
        let games = read_games(text).unwrap_or_else(|e| panic!("{e}"));
        assert!(!games.is_empty());
        // Every event line reads back to itself (the closing line's reveal
        // is the record's, not the event's).
        let mut written = Vec::new();
        for game in &games {
            replay(game).unwrap_or_else(|e| panic!("{e}"));
            for (line, event) in &game.events {
                written.push((*line, serde_json::to_value(RecordLine::of(event)).unwrap()));
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        for (line, json) in written {
            let mut read: serde_json::Value = serde_json::from_str(lines[line - 1]).unwrap();
            if let Some(fields) = read.as_object_mut()
                && json["event"] == "end"
            {
                fields.remove("seed");
                fields.remove("salt");
            }
            assert_eq!(read, json, "line {line}");
        }
    }
    assert!(RECORDS.iter().any(|r| r.contains("\"event\":\"exchange\"")));
    assert!(RECORDS.iter().any(|r| r.contains("\"abandoned\"")));
    assert!(RECORDS.iter().any(|r| r.contains("\"seed\":null")));
}

// ------------------------------------------------------------- mutations

/// Numbers that have broken parsers: past every integer width, negative
/// where only positives make sense, and not integers at all.
const ODD_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "255",
    "256",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1e309",
    "1.5",
    "0x10",
    "1_000",
];

/// Words of both formats: keys, event names, modes, bids.
const WORDS: &[&str] = &[
    "event",
    "game",
    "format",
    "mode",
    "names",
    "rules",
    "seed",
    "deal",
    "hand",
    "dealer",
    "hands",
    "out",
    "bid",
    "seat",
    "exchange",
    "from",
    "to",
    "cards",
    "play",
    "card",
    "trick",
    "winner",
    "tricks",
    "score",
    "sides",
    "points",
    "bags_added",
    "penalty",
    "bags",
    "end",
    "scores",
    "abandoned",
    "partnership",
    "cutthroat",
    "individual",
    "target_score",
    "losing_score",
    "limit",
    "nil",
    "allowed",
    "value",
    "blind_nil",
    "min_deficit",
    "one_per_side",
    "bidding",
    "forbid_exact_total",
    "null",
    "true",
    "false",
];

#[derive(Debug, Clone)]
enum Mutation {
    FlipBit {
        at: Index,
        bit: u8,
    },
    Truncate {
        at: Index,
    },
    Insert {
        at: Index,
        text: String,
    },
    DuplicateLine {
        line: Index,
    },
    DeleteLine {
        line: Index,
    },
    SwapLines {
        a: Index,
        b: Index,
    },
    /// The `nth` number, in the whole text or (in a record) in a `game` line,
    /// whose rules govern everything after it.
    ReplaceNumber {
        nth: Index,
        header: bool,
        with: String,
    },
    ReplaceWord {
        nth: Index,
        with: String,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let number = prop_oneof![
        3 => select(ODD_NUMBERS).prop_map(str::to_string),
        1 => any::<i32>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
    ];
    let word = prop_oneof![
        3 => select(WORDS).prop_map(str::to_string),
        1 => "[a-z_]{0,12}",
    ];
    let inserted = prop_oneof![
        select(ODD_NUMBERS).prop_map(str::to_string),
        select(WORDS).prop_map(|w| format!("\"{w}\"")),
        select(
            &[
                "\n", "{", "}", "[", "]", ",", ":", "=", "\"", "#", "\r", "\u{0}", "é"
            ][..]
        )
        .prop_map(str::to_string),
        "\\PC{0,16}",
    ];
    prop_oneof![
        1 => (any::<Index>(), 0..8u8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        1 => any::<Index>().prop_map(|at| Mutation::Truncate { at }),
        1 => (any::<Index>(), inserted).prop_map(|(at, text)| Mutation::Insert { at, text }),
        1 => any::<Index>().prop_map(|line| Mutation::DuplicateLine { line }),
        1 => any::<Index>().prop_map(|line| Mutation::DeleteLine { line }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        2 => (any::<Index>(), any::<bool>(), number).prop_map(|(nth, header, with)| {
            Mutation::ReplaceNumber { nth, header, with }
        }),
        1 => (any::<Index>(), word).prop_map(|(nth, with)| Mutation::ReplaceWord { nth, with }),
    ]
}

/// Byte ranges of the runs of `text` that `part_of` accepts, each starting
/// where `starts` allows.
fn runs(
    text: &[u8],
    starts: impl Fn(u8) -> bool,
    part_of: impl Fn(u8) -> bool,
) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if starts(text[i]) {
            let start = i;
            i += 1;
            while i < text.len() && part_of(text[i]) {
                i += 1;
            }
            found.push((start, i));
        } else {
            i += 1;
        }
    }
    found
}

/// Byte ranges of the lines, each with its `\n` if it has one.
fn line_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            spans.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < text.len() {
        spans.push((start, text.len()));
    }
    spans
}

/// Byte ranges of the numbers (digits, perhaps after a minus sign).
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let digit = |b: u8| b.is_ascii_digit();
    let mut found = runs(text, |b| b == b'-' || digit(b), digit);
    found.retain(|&(s, e)| e - s > 1 || digit(text[s]));
    found
}

/// Byte ranges of a record's `game` lines.
fn game_lines(text: &[u8]) -> Vec<(usize, usize)> {
    let game = b"\"event\":\"game\"";
    line_spans(text)
        .into_iter()
        .filter(|&(s, e)| text[s..e].windows(game.len()).any(|w| w == game))
        .collect()
}

fn splice(text: &mut Vec<u8>, (start, end): (usize, usize), with: &[u8]) {
    text.splice(start..end, with.iter().copied());
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    let lines = line_spans(text);
    match m {
        Mutation::FlipBit { at, bit } if !text.is_empty() => {
            let i = at.index(text.len());
            text[i] ^= 1 << bit;
        }
        Mutation::Truncate { at } => text.truncate(at.index(text.len() + 1)),
        Mutation::Insert { at, text: with } => {
            let i = at.index(text.len() + 1);
            splice(text, (i, i), with.as_bytes());
        }
        Mutation::DuplicateLine { line } if !lines.is_empty() => {
            let (start, end) = lines[line.index(lines.len())];
            let mut copy = text[start..end].to_vec();
            if copy.last() != Some(&b'\n') {
                copy.insert(0, b'\n');
            }
            splice(text, (end, end), &copy);
        }
        Mutation::DeleteLine { line } if !lines.is_empty() => {
            splice(text, lines[line.index(lines.len())], b"");
        }
        Mutation::SwapLines { a, b } if !lines.is_empty() => {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            let (first, second) = (lines[a.min(b)], lines[a.max(b)]);
            let trim = |(s, e): (usize, usize)| (s, if text[e - 1] == b'\n' { e - 1 } else { e });
            let (first, second) = (trim(first), trim(second));
            let (x, y) = (
                text[first.0..first.1].to_vec(),
                text[second.0..second.1].to_vec(),
            );
            splice(text, second, &x);
            splice(text, first, &y);
        }
        Mutation::ReplaceNumber { nth, header, with } => {
            let mut found = numbers(text);
            let games = game_lines(text);
            if *header && !games.is_empty() {
                found.retain(|&(s, _)| games.iter().any(|&(a, b)| a <= s && s < b));
            }
            if !found.is_empty() {
                splice(text, found[nth.index(found.len())], with.as_bytes());
            }
        }
        Mutation::ReplaceWord { nth, with } => {
            let letter = |b: u8| b.is_ascii_lowercase() || b == b'_';
            let words = runs(text, letter, letter);
            if !words.is_empty() {
                splice(text, words[nth.index(words.len())], with.as_bytes());
            }
        }
        _ => {}
    }
}

/// One of `files`, changed by one to four mutations.
fn mutated(files: &'static [String]) -> impl Strategy<Value = String> {
    (0..files.len(), proptest::collection::vec(mutation(), 1..=4)).prop_map(
        move |(i, mutations)| {
            let mut text = files[i].clone().into_bytes();
            for m in &mutations {
                apply(&mut text, m);
            }
            String::from_utf8_lossy(&text).into_owned()
        },
    )
}

// ------------------------------------------------------------ properties

/// Every number of every `game` line, whose rules govern all the lines
/// after it, replaced in turn by each odd number.
#[test]
fn records_with_odd_numbers_in_their_game_line_are_read_or_refused_at_a_line() {
    for record in RECORDS.iter() {
        let text = record.as_bytes();
        for (start, end) in game_lines(text) {
            for (a, b) in numbers(&text[start..end]) {
                for odd in ODD_NUMBERS {
                    let mut changed = text.to_vec();
                    splice(&mut changed, (start + a, start + b), odd.as_bytes());
                    let changed = String::from_utf8(changed).expect("still UTF-8");
                    if let Err(e) = check_record(&changed) {
                        let was = String::from_utf8_lossy(&text[start + a..start + b]);
                        panic!("{e}\n{odd} in place of {was} in\n{}", &record[start..end]);
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(CASES_BYTES))]

    #[test]
    fn rules_files_of_any_bytes_are_read_or_refused_with_a_place(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        check_rules(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn records_of_any_bytes_are_read_or_refused_at_a_line(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
    ) {
        check_record(&String::from_utf8_lossy(&bytes))?;
    }
}

proptest! {
    #![proptest_config(config(CASES_TEXT))]

    /// Text made of the formats' own pieces goes further than bytes do.
    #[test]
    fn rules_files_of_any_text_are_read_or_refused_with_a_place(
        text in "(([a-z_.]{1,20} *= *(-?[0-9]{1,12}|\"[a-z]{0,12}\"|true|false|\\{[^\n]{0,20}\\})|\\[[a-z_.]{0,20}\\]|#[^\n]{0,10}|\\PC{0,10})\n){0,12}",
    ) {
        check_rules(&text)?;
    }

    #[test]
    fn records_of_any_text_are_read_or_refused_at_a_line(
        text in "(\\{\"event\":\"(game|deal|bid|play|trick|score|end|abandoned)\"(,\"[a-z_]{1,10}\":(-?[0-9]{1,6}|null|\"[A-Z0-9a-z]{0,4}\"|\\[\\]|\\{\\}))*\\}\n){0,8}",
    ) {
        check_record(&text)?;
    }
}

proptest! {
    #![proptest_config(config(CASES_MUTATED))]

    #[test]
    fn mutated_rules_files_are_read_or_refused_with_a_place(
        text in mutated(&RULES_FILES),
    ) {
        check_rules(&text)?;
    }

    #[test]
    fn mutated_records_are_read_or_refused_at_a_line(text in mutated(&RECORDS)) {
        check_record(&text)?;
    }
}

// ------------------------------------------------ inputs that broke a reader

/// A record whose `game` line gives nil the largest or the smallest
/// value a number can hold is refused at that line, naming the key: the
/// rules' bounds keep every score far from `i32`'s ends.
#[test]
fn a_record_with_an_extreme_nil_value_is_refused_at_its_game_line() {
    let record = &RECORDS[0];
    let lines: Vec<&str> = record.lines().collect();
    for value in [i32::MAX, i32::MIN] {
        let mut header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        header["rules"]["nil"]["value"] = value.into();
        let text = format!("{header}\n{}", lines[1..].join("\n"));
        let err = read_games(&text).unwrap_err();
        assert_eq!(err.line, 1, "nil value {value}: {err}");
        assert!(err.message.contains("nil.value"), "{err}");
    }
}
