//! Text made to fit the screen: lines wrapped at spaces, a long path cut
//! from the left, a path written from the home directory, a sentence's
//! first letter. Used by the table, the replay and the windows around
//! them.

use crate::outside::columns;

/// Lines broken at spaces to fit `width` columns; a line that starts with
/// a label (`Bags       ...`) continues under its text.
pub(crate) fn wrap(lines: &[String], width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let indent = if line.get(9..11) == Some("  ") && !line.starts_with(' ') {
            11
        } else {
            0
        };
        let lead = line.len() - line.trim_start().len();
        let mut current = line[..lead].to_string();
        for word in line[lead..].split(' ') {
            // Names and chat may be wide (fullwidth letters): columns.
            let fits = columns(&current) + 1 + columns(word) <= width;
            if !current.trim().is_empty() && !fits {
                out.push(std::mem::take(&mut current));
                current = " ".repeat(indent.max(lead));
            } else if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out
}

/// The last `width` characters of `text`, marked as cut when it is longer.
pub(crate) fn tail(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width {
        return text.to_string();
    }
    let kept: String = chars[chars.len() - (width - 3)..].iter().collect();
    format!("...{kept}")
}

/// A path with the home directory written `~`, as players know it.
pub(crate) fn home_relative(path: &std::path::Path) -> String {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    match home.and_then(|h| path.strip_prefix(h).ok().map(|p| p.to_path_buf())) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// An engine message as a sentence: capital first, full stop last. Every
/// place that shows a refusal words it this one way, so two of them can be
/// told to be the same.
pub(crate) fn sentence(message: &str) -> String {
    let mut s = sentence_case(message);
    if !s.is_empty() && !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// `text` with its first letter a capital.
pub(crate) fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_letters_wrap_by_the_columns_they_take() {
        let line = "Ann: ＡＢＣＤ ＥＦＧＨ".to_string();
        // Nine characters to "ＡＢＣＤ" but thirteen columns.
        assert_eq!(wrap(&[line], 14), ["Ann: ＡＢＣＤ", "ＥＦＧＨ"]);
    }

    #[test]
    fn engine_messages_become_sentences() {
        assert_eq!(
            sentence("you must follow hearts"),
            "You must follow hearts."
        );
        assert_eq!(sentence(""), "");
    }
}
