//! Text from outside the program: names and chat a stranger typed, and
//! every string read from a record file or the network. One rule for all
//! of it: characters that move the cursor, reorder or hide text, or break
//! a line (`hidden`) never reach a terminal as they are. Where the text is
//! kept (a name, a chat line, a joiner's copy of a record) they are taken
//! out (`clean`); where it is printed they are shown escaped (`escaped`).

use std::fmt::Write as _;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// A character that must not reach a terminal raw: control (Cc), format
/// (Cf: bidi overrides and isolates, zero-width characters, the byte order
/// mark…), line and paragraph separators (Zl, Zp) and tag characters.
pub fn hidden(c: char) -> bool {
    c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The format characters (Unicode's Cf, tags included), as of Unicode 15.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Text to keep: a control character or a line break becomes a space (it
/// parted words), a format or tag character goes (it is invisible).
pub fn clean(text: &str) -> String {
    clean_but(text, |_| false)
}

/// A text of several lines from outside that is read, not shown (a
/// table's rules file): cleaned as `clean` does but for its line breaks,
/// which are its syntax.
pub fn clean_lines(text: &str) -> String {
    clean_but(text, |c| c == '\n')
}

fn clean_but(text: &str, kept: impl Fn(char) -> bool) -> String {
    text.chars()
        .filter_map(|c| match c {
            _ if kept(c) => Some(c),
            _ if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => Some(' '),
            _ if hidden(c) => None,
            _ => Some(c),
        })
        .collect()
}

/// The most bytes a name cut to `columns` columns keeps, a column: a
/// letter of four bytes with its mark takes six, so marks cannot make a
/// name of a few columns long in bytes.
pub const BYTES_PER_COLUMN: usize = 4;

/// A name as a table shows it: cleaned, trimmed, each letter with one
/// mark at most (`thin_marks`), cut to `columns` columns of a terminal (a
/// fullwidth character takes two), so no name pushes the table's labels
/// apart, and to `columns * BYTES_PER_COLUMN` bytes, so no name of a few
/// columns fills a line.
pub fn clean_name(name: &str, columns: usize) -> String {
    let thinned = thin_marks(&clean(name));
    let fitted = fit(thinned.trim(), columns);
    within_bytes(fitted, columns * BYTES_PER_COLUMN)
        .trim()
        .to_string()
}

/// `text` with each character that takes no column of its own (a
/// combining mark) kept only right after a character that does: one mark
/// a letter, so a letter cannot carry thousands of marks that take no
/// room on a screen but all of a line.
pub fn thin_marks(text: &str) -> String {
    let mut marked = true;
    text.chars()
        .filter(|&c| {
            if c.width() == Some(0) {
                let kept = !marked;
                marked = true;
                kept
            } else {
                marked = false;
                true
            }
        })
        .collect()
}

/// The longest start of `text` of at most `bytes` bytes that ends on a
/// character's boundary.
pub fn within_bytes(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let end = (0..=bytes).rev().find(|&i| text.is_char_boundary(i));
    &text[..end.unwrap_or(0)]
}

/// The longest start of `text` that takes at most `columns` columns.
pub fn fit(text: &str, columns: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += c.width().unwrap_or(0);
        if used > columns {
            return &text[..i];
        }
    }
    text
}

/// The columns `text` takes on a terminal: a fullwidth letter two.
pub fn columns(text: &str) -> usize {
    text.width()
}

/// `text` with spaces after it to fill `columns` columns, as `{:<N}`
/// would if every character took one.
pub fn pad(text: &str, columns: usize) -> String {
    let room = columns.saturating_sub(self::columns(text));
    format!("{text}{}", " ".repeat(room))
}

/// Text for a plain-text output (stdout, stderr): every hidden character
/// but a newline and a tab is shown as its escape (`\u{1b}`), so what a
/// record or a server said cannot set a title, clear a screen or reorder
/// a line.
pub fn escaped(text: &str) -> String {
    escape_hidden(text, |c| matches!(c, '\n' | '\t'))
}

/// One field of a line of output that came from outside (a record's id,
/// rules or level in `history` and `stats`): escaped as `escaped` does,
/// its line breaks and tabs too, so it cannot pass for lines of its own.
pub fn escaped_line(text: &str) -> String {
    escape_hidden(text, |_| false)
}

/// `text` with each hidden character but those `kept` written as a
/// visible `\u{…}` escape.
fn escape_hidden(text: &str, kept: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if hidden(c) && !kept(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// JSON for a plain-text output: a hidden character, which JSON allows
/// only inside strings, written as the JSON escape `\uXXXX` (two for a
/// character beyond the first plane). The JSON means the same.
pub fn escaped_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if hidden(c) && !matches!(c, '\n' | '\t') {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Every string inside a JSON value cleaned (`clean`), keys too: a line
/// of a record from a server, before the player keeps it.
pub fn clean_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) if s.chars().any(hidden) => *s = clean(s),
        Value::Array(items) => items.iter_mut().for_each(clean_json),
        Value::Object(map) => {
            if map.keys().any(|k| k.chars().any(hidden)) {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(k, v)| (clean(&k), v))
                    .collect();
            }
            map.values_mut().for_each(clean_json);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of character the rule covers.
    const HOSTILE: &[char] = &[
        '\u{1b}',
        '\u{7}',
        '\n',
        '\r',
        '\t',
        '\u{7f}',
        '\u{9b}',
        '\u{200b}',
        '\u{200d}',
        '\u{200e}',
        '\u{202e}',
        '\u{2066}',
        '\u{2069}',
        '\u{2060}',
        '\u{feff}',
        '\u{2028}',
        '\u{2029}',
        '\u{e0001}',
        '\u{e0041}',
        '\u{e007f}',
    ];

    #[test]
    fn every_hostile_character_is_hidden_and_ordinary_text_is_not() {
        for &c in HOSTILE {
            assert!(hidden(c), "{:?}", c);
        }
        for c in "Ann Ümit 李小龍 ♠♥ café 🂡 é".chars() {
            assert!(!hidden(c), "{:?}", c);
        }
    }

    #[test]
    fn cleaning_keeps_words_apart_and_drops_the_invisible() {
        assert_eq!(clean("a\nb\tc"), "a b c");
        assert_eq!(clean("a\u{2028}b\u{2029}c"), "a b c");
        assert_eq!(clean("An\u{200b}n\u{202e}\u{2066}y\u{feff}"), "Anny");
        assert_eq!(clean("x\u{e0041}\u{e007f}y"), "xy");
        assert_eq!(clean("\u{1b}]0;title\u{7}"), " ]0;title ");
        let all: String = HOSTILE.iter().collect();
        assert!(clean(&all).chars().all(|c| c == ' '));
    }

    #[test]
    fn a_name_is_bounded_by_columns_not_characters() {
        assert_eq!(clean_name("  Ann\u{1b}[2J  ", 12), "Ann [2J");
        assert_eq!(clean_name("Bartholomew the Great", 12), "Bartholomew");
        // Twelve fullwidth letters would take 24 columns: six fit.
        let wide = "ＡＢＣＤＥＦＧＨＩＪＫＬ";
        assert_eq!(clean_name(wide, 12), "ＡＢＣＤＥＦ");
        // One column left over is not half a wide letter.
        assert_eq!(clean_name("abcＤＥＦＧＨＩＪ", 12), "abcＤＥＦＧ");
        assert_eq!(clean_name("\u{202e}\u{2028}\u{200b}", 12), "");
        // Zero-width characters cannot stretch a name past its bound.
        let sneaky = format!("Ann{}Bob", "\u{200b}".repeat(40));
        assert_eq!(clean_name(&sneaky, 12), "AnnBob");
    }

    #[test]
    fn a_name_keeps_one_mark_a_letter_and_at_most_its_bytes() {
        // "A" and 32,000 combining acutes take one column and 64 kB.
        let marks = format!("A{}", "\u{301}".repeat(32_000));
        assert_eq!(clean_name(&marks, 12), "A\u{301}");
        // One mark a letter stays: a decomposed "José" is kept whole.
        assert_eq!(clean_name("Jose\u{301}", 12), "Jose\u{301}");
        // A second mark on the same letter goes, the next letter's stays.
        assert_eq!(
            clean_name("e\u{301}\u{302}e\u{300}", 12),
            "e\u{301}e\u{300}"
        );
        // A mark with no letter before it has nothing to sit on.
        assert_eq!(clean_name("\u{301}Ann", 12), "Ann");
        // Twelve letters of four bytes, each with a mark of two, fit the
        // columns but not the bytes.
        let long = "\u{1d400}\u{301}".repeat(12);
        let most = 12 * BYTES_PER_COLUMN;
        assert_eq!(clean_name(&long, 12), "\u{1d400}\u{301}".repeat(most / 6));
        for name in [
            marks.as_str(),
            &long,
            "ＡＢＣＤＥＦ",
            &"a\u{301}".repeat(40),
        ] {
            assert!(clean_name(name, 12).len() <= most, "{name}");
        }
    }

    #[test]
    fn a_fullwidth_name_is_padded_by_its_columns() {
        assert_eq!(columns("ＡＢ"), 4);
        assert_eq!(pad("ＡＢ", 6), "ＡＢ  ");
        assert_eq!(pad("Ann", 6), "Ann   ");
        assert_eq!(pad("Bartholomew", 6), "Bartholomew");
    }

    #[test]
    fn escaped_text_holds_no_control_but_newline_and_tab() {
        let shown = escaped("id\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}\n\tok");
        assert_eq!(
            shown,
            "id\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{9b}31m\\u{202e}\n\tok"
        );
        assert_eq!(escaped("Ann ♠ 李"), "Ann ♠ 李");
    }

    #[test]
    fn escaped_json_means_the_same_and_shows_nothing_hidden() {
        let value = serde_json::json!({ "id": "a\u{9b}b\u{202e}c\u{e0041}\u{7f}" });
        let json = serde_json::to_string_pretty(&value).unwrap();
        let shown = escaped_json(&json);
        assert!(!shown.chars().any(|c| hidden(c) && c != '\n'), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn every_string_of_a_json_value_is_cleaned() {
        let mut value = serde_json::json!({
            "rules_source": "\u{1b}]0;x\u{7}",
            "list": ["a\u{2028}b", 3],
            "k\u{202e}": { "n": "\u{200b}" },
        });
        clean_json(&mut value);
        assert_eq!(
            value,
            serde_json::json!({
                "rules_source": " ]0;x ",
                "list": ["a b", 3],
                "k": { "n": "" },
            })
        );
    }
}
