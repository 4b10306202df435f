//! Chat at a shared table: the lines so far show over the table while a
//! line is typed, and scroll back.

use spades::tui::{App, Key};
use support::tui::{chars, press, screen_text};

use spades::protocol::ClientMessage;

use crate::ending::two_at_a_table;
use crate::play::{host, join, play_until, server, target};

/// Says `line` at the table, as the player types it.
fn say(app: &mut App, line: &str) {
    chars(app, "/");
    chars(app, line);
    press(app, &[Key::Enter]);
}

/// The chat window on the screen: from its title to its bottom edge,
/// only its own columns.
fn chat_window(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let top = rows
        .iter()
        .position(|r| r.contains(" Chat"))
        .unwrap_or_else(|| panic!("no chat window:\n{screen}"));
    let title: Vec<char> = rows[top].chars().collect();
    let left = title.iter().position(|c| *c != ' ' && *c != '"').unwrap();
    let right = title.iter().rposition(|c| *c != ' ' && *c != '"').unwrap();
    let mut window = Vec::new();
    for row in &rows[top..] {
        let cells: Vec<char> = row.chars().collect();
        let part: String = cells[left..=right.min(cells.len() - 1)].iter().collect();
        let bottom = !window.is_empty() && !part.contains(|c: char| c.is_alphanumeric());
        window.push(part);
        if bottom {
            break;
        }
    }
    window.join("\n")
}

#[test]
fn the_chat_so_far_shows_while_a_line_is_typed_and_scrolls_back() {
    let server = server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (mut ann, mut bob) = two_at_a_table(&server, ann_dir.path(), bob_dir.path());
    for (who, lines) in [
        ("Ann", ["hello Bob", "nice bid", "watch spades", "one more"]),
        ("Bob", ["hi Ann", "thanks", "I know", "last line"]),
    ] {
        let app = if who == "Ann" { &mut ann } else { &mut bob };
        for line in lines {
            say(app, line);
        }
        let last = format!("{who}: {}", lines[3]);
        play_until(&mut [&mut ann, &mut bob], |apps| {
            apps[1].notice().is_some_and(|n| n.contains(&last))
        });
    }
    chars(&mut bob, "/");
    chars(&mut bob, "typing");
    let newest = chat_window(&screen_text(&mut bob, 80, 24));
    insta::assert_snapshot!("chat_newest", newest);
    press(&mut bob, &[Key::PageUp]);
    let back = chat_window(&screen_text(&mut bob, 80, 24));
    insta::assert_snapshot!("chat_scrolled_back", back);
    assert!(bob.chat_line().is_some(), "the line typed is kept");
}

/// Line and paragraph separators, bidi overrides and isolates, zero-width
/// and tag characters: none is a control character (Cc), each breaks or
/// reorders a line.
const UNSEEN: &[char] = &[
    '\u{2028}',
    '\u{2029}',
    '\u{202e}',
    '\u{2066}',
    '\u{200b}',
    '\u{feff}',
    '\u{e0041}',
];

fn has_unseen(text: &str) -> bool {
    text.contains(UNSEEN)
}

/// Every string of every line of the record files in `dir`.
pub(crate) fn record_strings(dir: &std::path::Path) -> Vec<String> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    strings(v, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for file in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        for line in text.lines() {
            strings(&serde_json::from_str(line).unwrap(), &mut out);
        }
    }
    out
}

#[test]
fn separators_and_bidi_characters_in_a_name_or_a_chat_line_reach_no_screen_or_record() {
    let server = server();
    let (ann_dir, bob_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut ann = host(&target(&server), "mode = \"partnership\"\n");
    let table = ann.seat_token().0;
    let bob = join(
        &target(&server),
        "Bo\u{2028}\u{202e}b\u{200b}\u{e0041}",
        &table,
    );
    ann.until(|w| w.state.seating.as_ref().is_some_and(|l| l.can_start));
    ann.connection.send(ClientMessage::Start {});
    let (mut ann, mut bob) = (ann.started(ann_dir.path()), bob.started(bob_dir.path()));
    say(&mut bob, "hi\u{2028}\u{2028}\u{2066}there\u{2069}\u{feff}");
    // Waited for in the chat kept, not the notice: a notice may already
    // have given way to the next one when a busy machine looks.
    play_until(&mut [&mut ann, &mut bob], |apps| {
        apps[0].chat_log().0.iter().any(|l| l.contains("hi"))
    });
    let log = ann.chat_log().0;
    let told = log.iter().find(|l| l.contains("hi")).unwrap();
    assert!(told.contains("Bo b: hi  there"), "{told:?}");
    assert!(log.iter().all(|l| !has_unseen(l)), "{log:?}");
    if let Some(notice) = ann.notice() {
        assert!(!has_unseen(notice), "{notice:?}");
    }
    // On with the game until each has a hand in its record.
    play_until(&mut [&mut ann, &mut bob], |apps| {
        apps.iter().all(|a| a.view().hand_no >= 2)
    });
    for app in [&mut ann, &mut bob] {
        let screen = screen_text(app, 100, 30);
        assert!(!has_unseen(&screen), "{screen}");
    }
    for dir in [ann_dir.path(), bob_dir.path()] {
        let strings = record_strings(dir);
        assert!(strings.iter().any(|s| s == "Bo b"), "{strings:?}");
        assert!(!strings.iter().any(|s| has_unseen(s)), "{strings:?}");
    }
}
