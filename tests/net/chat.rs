//! Chat at a shared table: the lines so far show over the table while a
//! line is typed, and scroll back.

use spades::tui::{App, Key};
use support::tui::{chars, press, screen_text};

use crate::ending::two_at_a_table;
use crate::play::{play_until, server};

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
