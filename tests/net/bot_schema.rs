//! `docs/schema/exec.schema.json`, the grammar of every message between
//! `spades` and a program at a seat, holds for the messages the tests keep
//! as snapshots and for a whole real conversation, and refuses messages
//! that are wrong.

use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};
use support::schema::Schema;

fn schema() -> Schema {
    Schema::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema/exec.schema.json"))
}

/// The messages a program at a seat reads or writes.
const BOT_TYPES: &[&str] = &["hello", "act", "bye", "welcome", "seated", "ask", "error"];

#[test]
fn every_snapshot_of_a_bots_message_fits_the_schema() {
    let schema = schema();
    let messages = super::formats::snapshots();
    // An ask whose view a snapshot leaves out (`{...}`) is checked with a
    // whole view of the snapshots in its place.
    let a_view = messages
        .iter()
        .find(|m| m["type"] == "view" && m["view"].is_object())
        .map(|m| m["view"].clone())
        .expect("a view among the snapshots");
    let mut checked = std::collections::BTreeMap::new();
    for mut message in messages {
        let kind = message["type"].as_str().unwrap_or_default().to_string();
        if kind == "view" && message["view"].is_object() {
            schema
                .check_def("view", &message["view"])
                .unwrap_or_else(|why| panic!("{why} in {message}"));
        } else if BOT_TYPES.contains(&kind.as_str()) {
            if kind == "ask" && message["view"].is_null() {
                message["view"] = a_view.clone();
            }
            schema
                .check(&message)
                .unwrap_or_else(|why| panic!("{why} in {message}"));
        } else {
            continue;
        }
        *checked.entry(kind).or_insert(0) += 1;
    }
    for kind in BOT_TYPES.iter().chain(&["view"]) {
        assert!(
            checked.contains_key(*kind),
            "no {kind} checked: {checked:?}"
        );
    }
}

/// Every line of a program's games, both ways, as a wrapper around the
/// example bot copies them: with a dummy too, and a blind nil on offer.
#[test]
fn a_real_conversation_fits_the_schema() {
    let schema = schema();
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bot.py");
    for (mode, seats) in [
        ("partnership", "normal,normal,normal"),
        ("dummy", "normal,normal"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        // In partnership, blind bids on offer at every deal: asks before
        // the cards are seen (a dummy game has none).
        let mut rules = format!("mode = \"{mode}\"\ntarget_score = 300\n");
        if mode == "partnership" {
            rules.push_str(
                "[blind_nil]\nmin_deficit = 0\n[blind_bid]\nallowed = true\nmin_deficit = 0\n",
            );
        }
        std::fs::write(dir.path().join("rules.toml"), rules).unwrap();
        let program = format!(
            "exec:tee -a to_bot.jsonl | python3 {} | tee -a from_bot.jsonl",
            bot.display()
        );
        Command::new(env!("CARGO_BIN_EXE_spades"))
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .args(["sim", "--seed", "5", "--games", "1"])
            .arg("--seats")
            .arg(format!("{program},{seats}"))
            .assert()
            .success();
        let mut kinds = std::collections::BTreeSet::new();
        for file in ["to_bot.jsonl", "from_bot.jsonl"] {
            let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
            for line in text.lines() {
                let message: Value = serde_json::from_str(line).unwrap();
                schema
                    .check(&message)
                    .unwrap_or_else(|why| panic!("{mode}, {file}: {why} in {line}"));
                kinds.insert(message["type"].as_str().unwrap_or_default().to_string());
                if message["type"] == "ask" {
                    kinds.insert(format!("ask {}", message["decision"]));
                }
            }
        }
        let mut due = vec!["hello", "welcome", "seated", "act", "bye"];
        due.extend(["ask \"bid\"", "ask \"play\""]);
        if mode == "partnership" {
            due.push("ask \"blind_nil\"");
        }
        for kind in due {
            assert!(kinds.contains(kind), "{mode}: no {kind} in {kinds:?}");
        }
    }
}

/// The conversation `docs/bot-authors.md` shows, line by line (an elided
/// view replaced by a whole one).
#[test]
fn the_bot_authors_page_shows_messages_that_fit() {
    let schema = schema();
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bot-authors.md"))
            .unwrap();
    let a_view = super::formats::snapshots()
        .into_iter()
        .find(|m| m["type"] == "view" && m["view"].is_object())
        .map(|m| m["view"].clone())
        .expect("a view among the snapshots");
    let mut shown = 0;
    for line in page.lines() {
        let Some(json) = line.strip_prefix("> ").or_else(|| line.strip_prefix("< ")) else {
            continue;
        };
        let mut message: Value = serde_json::from_str(&json.replace("{...}", "null"))
            .unwrap_or_else(|e| panic!("{e}: {line}"));
        if message["view"].is_null() && message["type"] == "ask" {
            message["view"] = a_view.clone();
        }
        schema
            .check(&message)
            .unwrap_or_else(|why| panic!("{why} in {line}"));
        shown += 1;
    }
    assert!(shown >= 9, "{shown} lines of conversation");
}

#[test]
fn wrong_messages_do_not_fit_the_schema() {
    let schema = schema();
    let right = [
        json!({"type": "hello", "protocol": 1, "name": "bot"}),
        json!({"type": "act", "action": "look"}),
        json!({"type": "act", "action": {"bid": "blind_7"}}),
        json!({"type": "act", "action": {"play": "BJ"}}),
    ];
    for message in &right {
        assert_eq!(schema.check(message), Ok(()), "{message}");
    }
    let wrong = [
        json!({"type": "hello", "protocol": 1}),
        json!({"type": "hello", "protocol": 2, "name": "bot"}),
        json!({"type": "act", "action": {"play": "1S"}}),
        json!({"type": "act", "action": {"bid": 0}}),
        json!({"type": "act", "action": {"bid": "blind"}}),
        json!({"type": "act", "action": {"bid": 4, "play": "AS"}}),
        json!({"type": "act", "action": {"play": "AS"}, "seat": 0}),
        json!({"type": "act"}),
        json!({"type": "shout"}),
        json!({"type": "seated", "table": "sim", "seat": 4, "token": "", "host": false}),
        json!({"type": "error", "code": "oops", "message": "why"}),
        json!("act"),
    ];
    for message in &wrong {
        assert!(schema.check(message).is_err(), "{message} fits");
    }
}

#[test]
fn an_ask_missing_a_key_of_its_view_does_not_fit() {
    let schema = schema();
    let messages = super::formats::snapshots();
    let mut ask = messages
        .into_iter()
        .find(|m| m["type"] == "ask" && m["view"].is_object())
        .expect("a whole ask among the snapshots");
    assert_eq!(schema.check(&ask), Ok(()));
    ask["view"].as_object_mut().unwrap().remove("hand");
    let why = schema.check(&ask).unwrap_err();
    assert!(why.contains("no key `hand`"), "{why}");
}

#[test]
#[should_panic(expected = "does not know the keyword `pattern`")]
fn the_checker_refuses_a_keyword_it_does_not_check() {
    let schema = Schema::new(json!({"type": "string", "pattern": "^[A-Z]$"}));
    let _ = schema.check(&json!("A"));
}
