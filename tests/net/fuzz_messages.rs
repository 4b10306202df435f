//! What clients send a server, fed anything: the real connection state
//! machine (`conn::run`, reached through `spades::net::server::probe`)
//! over in-memory streams, three clients at one table. Whatever they send,
//! `probe::check` holds: no panic, no hang, every reply a valid message
//! line, no reply repeating more than a short excerpt of what was sent,
//! every connection ended once its client stops, and a new hello still
//! welcomed afterwards.
//!
//! The inputs are arbitrary bytes, arbitrary JSON-ish lines, and a whole
//! valid conversation (hello, host, join, fill, chat, start, act, bye,
//! reclaim) changed a little: lines deleted, duplicated, swapped, sent by
//! another client, cut short, a byte flipped, or replaced by an odd message
//! (unknown variants, wrong types, huge numbers, garbage tokens, long
//! strings). Cases per `cargo test`: the `CASES_*` constants below,
//! 200 + 200 + 500 = 900.
//!
//! The fuzz target `fuzz/fuzz_targets/client_messages.rs` does the same
//! for as long as one lets it run; this file is its share of CI.

use proptest::prelude::*;
use proptest::sample::{Index, select};
use spades::net::server::probe::{self, CONNECTIONS, Said};
use support::proptest_seed::config;

const CASES_BYTES: u32 = 200;
const CASES_TEXT: u32 = 200;
const CASES_MUTATED: u32 = 500;

fn check(script: &[Said]) -> Result<(), TestCaseError> {
    probe::check(script)
        .map(drop)
        .map_err(|why| TestCaseError::fail(format!("{why}\nscript: {script:?}")))
}

fn said(conn: usize, line: &str) -> Said {
    Said {
        conn,
        line: line.as_bytes().to_vec(),
    }
}

/// A rules file, escaped to go inside a JSON string.
const RULES: &str = r#"mode = \"partnership\"\ntarget_score = 200\nlosing_score = -200\n"#;

/// Three people at one table, its game started with a bot, moves made,
/// one leaving and coming back by their token.
fn conversation() -> Vec<Said> {
    let host = format!(r#"{{"type":"host","rules":"{RULES}"}}"#);
    [
        (0, r#"{"type":"hello","protocol":1,"name":"Ann"}"#),
        (1, r#"{"type":"hello","protocol":1,"name":"Bob"}"#),
        (2, r#"{"type":"hello","protocol":1,"name":"Cy"}"#),
        (0, &host),
        (1, r#"{"type":"join","table":"@TABLE"}"#),
        (2, r#"{"type":"join","table":"@TABLE"}"#),
        (0, r#"{"type":"fill","bots":true,"level":"random"}"#),
        (1, r#"{"type":"chat","text":"hello all"}"#),
        (0, r#"{"type":"start"}"#),
        (0, r#"{"type":"act","action":{"bid":3}}"#),
        (1, r#"{"type":"act","action":{"bid":"nil"}}"#),
        (2, r#"{"type":"act","action":{"play":"AS"}}"#),
        (2, r#"{"type":"act","action":"look"}"#),
        (1, r#"{"type":"bye"}"#),
        (1, r#"{"type":"hello","protocol":1,"name":"Bob"}"#),
        (
            1,
            r#"{"type":"reclaim","table":"@TABLE","token":"@TOKEN1"}"#,
        ),
        (1, r#"{"type":"chat","text":"back"}"#),
    ]
    .into_iter()
    .map(|(conn, line)| said(conn, line))
    .collect()
}

/// Messages no honest client sends.
fn odd_lines() -> Vec<String> {
    let long = "A".repeat(5_000);
    [
        r#"{"type":"hello","protocol":99,"name":"Eve"}"#.to_string(),
        r#"{"type":"hello","protocol":-1,"name":7}"#.into(),
        r#"{"type":"hello","protocol":1,"name":"\u202eEve\u2028\u0007"}"#.into(),
        format!(r#"{{"type":"hello","protocol":1,"name":"{long}"}}"#),
        format!(r#"{{"type":"{long}"}}"#),
        format!(r#"{{"type":"join","table":"{long}"}}"#),
        format!(r#"{{"type":"host","rules":"{long} = 1"}}"#),
        format!(r#"{{"type":"host","rules":"mode = \"{long}\""}}"#),
        r#"{"type":"host","rules":"target_score = 99999999999999999999"}"#.into(),
        r#"{"type":"host","rules":7}"#.into(),
        r#"{"type":"join","table":"@TABLE","extra":1}"#.into(),
        r#"{"type":"reclaim","table":"@TABLE","token":"garbage"}"#.into(),
        r#"{"type":"reclaim","table":"@TABLE","token":"@TOKEN"}"#.into(),
        r#"{"type":"fill","bots":"yes","level":"godlike"}"#.into(),
        format!(r#"{{"type":"fill","bots":true,"level":"exec:{long}"}}"#),
        r#"{"type":"act","action":{"bid":18446744073709551616}}"#.into(),
        r#"{"type":"act","action":{"bid":0}}"#.into(),
        r#"{"type":"act","action":{"play":"ZZ"}}"#.into(),
        r#"{"type":"act","action":{"exchange":["AS","AS","AS"]}}"#.into(),
        format!(r#"{{"type":"chat","text":"{long}"}}"#),
        r#"{"type":"chat","text":"\u001b]0;owned\u0007\u001b[2J"}"#.into(),
        r#"{"type":"chat","text":null}"#.into(),
        r#"{"type":"start","now":true}"#.into(),
        "{}".into(),
        "[]".into(),
        "null".into(),
        String::new(),
        "\u{0}\u{1}\u{2}".into(),
    ]
    .into_iter()
    .collect()
}

#[derive(Debug, Clone)]
enum Change {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    Move(Index, usize),
    Cut(Index, Index),
    Flip(Index, Index, u8),
    Replace(Index, String),
    Insert(Index, usize, String),
}

fn change() -> impl Strategy<Value = Change> {
    let odd = select(odd_lines());
    let conn = 0..CONNECTIONS;
    prop_oneof![
        any::<Index>().prop_map(Change::Delete),
        any::<Index>().prop_map(Change::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Change::Swap(a, b)),
        (any::<Index>(), conn.clone()).prop_map(|(a, c)| Change::Move(a, c)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Change::Cut(a, b)),
        (any::<Index>(), any::<Index>(), any::<u8>()).prop_map(|(a, b, x)| Change::Flip(a, b, x)),
        (any::<Index>(), odd.clone()).prop_map(|(a, l)| Change::Replace(a, l)),
        (any::<Index>(), conn, odd).prop_map(|(a, c, l)| Change::Insert(a, c, l)),
    ]
}

fn apply(script: &mut Vec<Said>, change: &Change) {
    if script.is_empty() {
        return;
    }
    let n = script.len();
    match change {
        Change::Delete(i) => drop(script.remove(i.index(n))),
        Change::Duplicate(i) => script.insert(i.index(n), script[i.index(n)].clone()),
        Change::Swap(a, b) => script.swap(a.index(n), b.index(n)),
        Change::Move(i, conn) => script[i.index(n)].conn = *conn,
        Change::Cut(i, at) => {
            let line = &mut script[i.index(n)].line;
            line.truncate(at.index(line.len() + 1));
        }
        Change::Flip(i, at, bits) => {
            let line = &mut script[i.index(n)].line;
            if !line.is_empty() {
                let at = at.index(line.len());
                line[at] ^= bits;
            }
        }
        Change::Replace(i, odd) => script[i.index(n)].line = odd.clone().into_bytes(),
        Change::Insert(i, conn, odd) => script.insert(i.index(n + 1), said(*conn, odd)),
    }
}

proptest! {
    #![proptest_config(config(CASES_BYTES))]
    #[test]
    fn any_bytes_from_clients_are_answered_within_bounds(
        bytes in proptest::collection::vec(any::<u8>(), 0..600)
    ) {
        check(&probe::script(&bytes))?;
    }
}

proptest! {
    #![proptest_config(config(CASES_TEXT))]
    #[test]
    fn any_json_ish_lines_are_answered_within_bounds(
        lines in proptest::collection::vec(
            (0..CONNECTIONS, r#"[{}\[\]":, a-z0-9@_\\.-]{0,80}"#),
            0..16,
        )
    ) {
        let script: Vec<Said> = lines.iter().map(|(c, l)| said(*c, l)).collect();
        check(&script)?;
    }
}

proptest! {
    #![proptest_config(config(CASES_MUTATED))]
    #[test]
    fn a_conversation_changed_a_little_is_answered_within_bounds(
        changes in proptest::collection::vec(change(), 1..6)
    ) {
        let mut script = conversation();
        for change in &changes {
            apply(&mut script, change);
        }
        check(&script)?;
    }
}

/// The conversation the mutations start from passes as it is, and reaches
/// a seated table (or every other test would check far less than it says)
/// where a person is asked to act. Who acts first is drawn at random: when
/// it is the bot, the ask comes once it has thought, so the probe waits
/// for it.
#[test]
fn the_valid_conversation_passes() {
    let heard = probe::check_until(&conversation(), Some("ask")).unwrap();
    let heard_of = |kind: &str| heard.get(kind).copied().unwrap_or(0);
    // Three seated at first, and one seat taken back.
    assert_eq!(heard_of("seated"), 4, "{heard:?}");
    assert!(heard_of("start") >= 3, "{heard:?}");
    assert!(heard_of("chat") >= 3, "{heard:?}");
    assert!(heard_of("ask") >= 1, "{heard:?}");
}

/// A client's long text in a refused message (a rules file's 5,000
/// character key, a bot level as long): the error names it, but repeats
/// only a short excerpt of it.
#[test]
fn long_text_in_a_refused_message_is_said_back_as_an_excerpt() {
    let long = "A".repeat(5_000);
    let rules = format!(r#"{{"type":"host","rules":"{long} = 1"}}"#);
    let level = format!(r#"{{"type":"fill","bots":true,"level":"exec:{long}"}}"#);
    let host = format!(r#"{{"type":"host","rules":"{RULES}"}}"#);
    let hello = r#"{"type":"hello","protocol":1,"name":"Ann"}"#;
    for script in [[hello, &rules].as_slice(), &[hello, &host, &level]] {
        let script: Vec<Said> = script.iter().map(|line| said(0, line)).collect();
        let heard = probe::check(&script).unwrap();
        assert_eq!(heard.get("error"), Some(&1), "{heard:?}");
    }
}

/// The fuzz target's seed scripts pass, in the target's own form.
#[test]
fn the_fuzz_targets_seeds_pass() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/client_messages");
    for seed in std::fs::read_dir(seeds).unwrap() {
        let path = seed.unwrap().path();
        let script = probe::script(&std::fs::read(&path).unwrap());
        assert!(script.len() > 5, "{}", path.display());
        let heard = probe::check(&script).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Each reaches a game. Whether its seat is asked before the script
        // ends depends on who deals, which the server draws at random.
        assert!(heard.contains_key("start"), "{}: {heard:?}", path.display());
    }
}
