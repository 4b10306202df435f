//! A blunder case as its file writes it: the fields of each `case:`, and
//! the words inside them (cards, seats, bids) read strictly, so that a
//! mistyped case is refused rather than tested as something else.

use std::collections::BTreeMap;

use spades::engine::{Bid, Card, CardSet, Seat};

const KEYS: &[&str] = &[
    "case:",
    "why:",
    "mode:",
    "seat:",
    "dealer:",
    "rules:",
    "bids:",
    "scores:",
    "hand:",
    "shown:",
    "played:",
    "trick:",
    "bots:",
    "must:",
    "must-not:",
    "must-bid:",
    "must-not-bid:",
    "must-pass:",
    "must-not-pass:",
];

#[derive(Debug, Default)]
pub(super) struct Case {
    pub(super) file: String,
    pub(super) line: usize,
    pub(super) fields: BTreeMap<&'static str, Vec<String>>,
}

impl Case {
    pub(super) fn name(&self) -> String {
        format!(
            "{}:{} `{}`",
            self.file,
            self.line,
            self.one("case:").unwrap_or("")
        )
    }

    pub(super) fn one(&self, key: &str) -> Option<&str> {
        self.fields
            .get(key)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    pub(super) fn all(&self, key: &str) -> &[String] {
        self.fields.get(key).map_or(&[], Vec::as_slice)
    }

    pub(super) fn need(&self, key: &str) -> Result<&str, String> {
        self.one(key).ok_or_else(|| format!("missing `{key}`"))
    }
}

/// Splits the files into cases: a `case:` line starts one; several
/// `key: value` fields may share a line; `#` starts a comment.
pub(super) fn parse_cases(file: &str, text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut key: Option<&'static str> = None;
        let mut value = String::new();
        let flush = |key: Option<&'static str>, value: &mut String, cases: &mut Vec<Case>| {
            if let Some(k) = key {
                if k == "case:" {
                    cases.push(Case {
                        file: file.to_string(),
                        line: i + 1,
                        ..Case::default()
                    });
                }
                let case = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{file}:{}: `{k}` before any `case:`", i + 1));
                case.fields
                    .entry(k)
                    .or_default()
                    .push(value.trim().to_string());
            }
            value.clear();
        };
        for word in line.split_whitespace() {
            if let Some(&k) = KEYS.iter().find(|&&k| k == word) {
                flush(key, &mut value, &mut cases);
                key = Some(k);
            } else {
                assert!(
                    key.is_some(),
                    "{file}:{}: `{word}` is not after a known key",
                    i + 1
                );
                value.push_str(word);
                value.push(' ');
            }
        }
        flush(key, &mut value, &mut cases);
    }
    cases
}

pub(super) fn cards(s: &str) -> Result<CardSet, String> {
    let set: CardSet = s.parse().map_err(|e| format!("{e}"))?;
    let count = s.split_whitespace().count();
    if set.len() as usize != count {
        return Err(format!("a card is listed twice in `{s}`"));
    }
    Ok(set)
}

pub(super) fn card(s: &str) -> Result<Card, String> {
    s.parse().map_err(|e| format!("{e}"))
}

pub(super) fn seat_no(s: &str, seats: usize) -> Result<Seat, String> {
    let seat: usize = s.parse().map_err(|_| format!("`{s}` is not a seat"))?;
    if seat >= seats {
        return Err(format!("there is no seat {seat}"));
    }
    Ok(Seat::new(seat))
}

pub(super) fn parse_bid(s: &str) -> Result<Option<Bid>, String> {
    Ok(match s {
        "-" => None,
        "nil" => Some(Bid::Nil),
        "blind" => Some(Bid::BlindNil),
        n if n.starts_with("blind_") => Some(Bid::Blind(
            n["blind_".len()..]
                .parse()
                .map_err(|_| format!("`{n}` is not a blind bid"))?,
        )),
        n => Some(Bid::Tricks(
            n.parse().map_err(|_| format!("`{n}` is not a bid"))?,
        )),
    })
}

/// What the bot is asked to do in a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ask {
    BlindNil,
    Bid,
    Exchange,
    Play,
}

pub(super) fn ask_of(case: &Case) -> Result<Ask, String> {
    let has = |k: &str| case.fields.contains_key(k);
    let bid = has("must-bid:") || has("must-not-bid:");
    let pass = has("must-pass:") || has("must-not-pass:");
    let play = has("must:") || has("must-not:");
    match (bid, pass, play) {
        (true, false, false) if has("hand:") => Ok(Ask::Bid),
        (true, false, false) => Ok(Ask::BlindNil),
        (false, true, false) => Ok(Ask::Exchange),
        (false, false, true) => Ok(Ask::Play),
        _ => Err(
            "give exactly one kind of check: must(-not), must(-not)-bid or must(-not)-pass".into(),
        ),
    }
}
