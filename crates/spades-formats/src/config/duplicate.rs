//! A key set twice in a rules file, named: the TOML parser says only
//! "duplicate key", pointing at the second one's last part.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

/// What the parser says of a key set twice.
const PARSER_SAYS: &str = "duplicate key";

/// The message for a key set twice, when `message` is the parser's word
/// for one at `at`: the key's dotted name, and the line it was first set
/// on when that can be found. `None` for any other error.
pub(super) fn duplicate_key(text: &str, message: &str, at: &Range<usize>) -> Option<String> {
    if message != PARSER_SAYS {
        return None;
    }
    let path = dotted_name(text, at)?;
    let line = text.get(..at.start)?.matches('\n').count() + 1;
    let first = first_line(text, &path)
        .filter(|&first| first < line)
        .or_else(|| first_header(text, &path, line));
    Some(match first {
        Some(line) => format!(
            "`{}` is set twice (first on line {line}): keep one",
            path.join(".")
        ),
        None => format!("`{}` is set twice: keep one", path.join(".")),
    })
}

/// The key at `at` with the tables around it, part by part. The key's own
/// line gives its dotted start (`bags.limit = 5`, or a `[header]`); a key
/// under a header takes the nearest header above it, as TOML does.
fn dotted_name(text: &str, at: &Range<usize>) -> Option<Vec<String>> {
    let line_start = text.get(..at.start)?.rfind('\n').map_or(0, |i| i + 1);
    let written = text.get(line_start..at.end)?.trim();
    if let Some(header) = written.strip_prefix('[') {
        return Some(parts(header.trim_start_matches('[')));
    }
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|h| h.trim_matches(['[', ']']).to_string())
        .unwrap_or_default();
    let mut path = parts(&table);
    path.extend(parts(written));
    (!path.is_empty()).then_some(path)
}

/// The line a table's `[header]` was first written on, before `line`:
/// for a table, the parser keeps the second header's place.
fn first_header(text: &str, path: &[String], line: usize) -> Option<usize> {
    text.lines()
        .take(line - 1)
        .position(|l| {
            let l = l.trim();
            l.starts_with('[') && parts(l.trim_matches(['[', ']'])) == path
        })
        .map(|i| i + 1)
}

/// The parts of a dotted name, as written, unquoted.
fn parts(dotted: &str) -> Vec<String> {
    dotted
        .split('.')
        .map(|p| p.trim().trim_matches(['"', '\'']).to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The line a key was first set on: the parser keeps the first setting
/// and reports the second.
fn first_line(text: &str, path: &[String]) -> Option<usize> {
    let (doc, _) = DeTable::parse_recoverable(text);
    let mut table: &DeTable<'_> = doc.get_ref();
    for (i, part) in path.iter().enumerate() {
        let (key, value) = table.iter().find(|(k, _)| k.get_ref().as_ref() == part)?;
        if i + 1 == path.len() {
            let before = text.get(..key.span().start)?;
            return Some(before.matches('\n').count() + 1);
        }
        let DeValue::Table(inner) = value.get_ref() else {
            return None;
        };
        table = inner;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::parse_rules;

    fn said(text: &str) -> String {
        parse_rules(text, "rules.toml").unwrap_err().to_string()
    }

    #[test]
    fn a_key_set_twice_is_named_with_both_lines() {
        let e = said("target_score = 300\n[bags]\nlimit = 5\nlimit = 7\n");
        assert_eq!(
            e,
            "rules.toml:4:1: `bags.limit` is set twice (first on line 3): keep one"
        );
        let e = said("target_score = 300\ntarget_score = 400\n");
        assert!(
            e.starts_with("rules.toml:2:1: `target_score` is set twice (first on line 1)"),
            "{e}"
        );
        let e = said("bags.limit = 5\nnil.value = 50\nbags.limit = 7\n");
        assert!(
            e.contains("`bags.limit` is set twice (first on line 1)"),
            "{e}"
        );
        assert!(e.starts_with("rules.toml:3:"), "{e}");
    }

    #[test]
    fn a_table_written_twice_is_named() {
        let e = said("[bags]\nlimit = 5\n\n[nil]\nvalue = 50\n[bags]\npenalty = 50\n");
        assert!(e.starts_with("rules.toml:6:"), "{e}");
        assert!(e.contains("`bags` is set twice (first on line 1)"), "{e}");
        // The same last part under another table is another key.
        let e = said("[nil]\nvalue = 50\n[blind_nil]\nvalue = 150\nvalue = 250\n");
        assert!(
            e.contains("`blind_nil.value` is set twice (first on line 4)"),
            "{e}"
        );
    }
}
