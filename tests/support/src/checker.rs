//! An independent checker for game records, formats 1 and 2
//! (`docs/game-record.md`): in format 2 the seed is committed to at the start and
//! revealed on the closing line, and the reveal must hash to the commitment.
//!
//! It reads nothing but JSON values and re-derives every rule itself: the
//! deck, the bidding, the exchange, following suit, trick winners, scoring
//! and the end of the game. It shares no code with the engine on purpose, so
//! a mistake in the engine's rules cannot hide behind the same mistake here.
//!
//! Used by the tests and by `examples/check_record.rs` and
//! `examples/net_load.rs`.

use std::fmt::Write as _;
use std::io::Write;

use serde_json::{Map, Value};

/// One thing wrong with a record, at a line (numbered from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// What a record held and what is wrong with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub games: usize,
    pub hands: usize,
    pub problems: Vec<Problem>,
}

impl Report {
    pub fn is_ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, one per line, for assertion messages.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for p in &self.problems {
            let _ = writeln!(s, "line {}: {}", p.line, p.message);
        }
        s
    }

    /// Is there a problem at `line` whose message contains `words`?
    pub fn has(&self, line: usize, words: &str) -> bool {
        self.problems
            .iter()
            .any(|p| p.line == line && p.message.contains(words))
    }
}

/// Checks a whole record file's text.
pub fn check_record(text: &str) -> Report {
    let mut checker = Checker::default();
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    let mut last = lines.len();
    // A record cut short by a crash may end in part of a line, with no
    // `\n`: it is readable up to its last whole line.
    let cut_short = |line: &&str| serde_json::from_str::<Value>(line).is_err();
    if !text.ends_with('\n') && lines.last().is_some_and(cut_short) {
        last -= 1;
    }
    for (i, line) in lines[..last].iter().enumerate() {
        checker.line(i + 1, line);
    }
    checker.finish();
    checker.report
}

/// The command line: checks each file, prints a summary per file and every
/// problem with its line, and returns the exit code (0 all good, 1 some
/// problem, 2 a file that could not be read).
pub fn run_cli(paths: &[String], out: &mut dyn Write) -> i32 {
    if paths.is_empty() {
        let _ = writeln!(out, "usage: check_record FILE...");
        return 2;
    }
    let mut code = 0;
    for path in paths {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let _ = writeln!(out, "{path}: cannot read: {e}");
                code = 2;
                continue;
            }
        };
        let report = check_record(&text);
        let _ = writeln!(
            out,
            "{path}: games {}, hands {}, errors {}",
            report.games,
            report.hands,
            report.problems.len()
        );
        for p in &report.problems {
            let _ = writeln!(out, "{path}:{}: {}", p.line, p.message);
        }
        if !report.is_ok() && code == 0 {
            code = 1;
        }
    }
    code
}

// ---------------------------------------------------------------- cards

const SUITS: [char; 4] = ['C', 'D', 'H', 'S'];
const RANKS: &str = "23456789TJQKA";
const CLASSIC_DECK: u64 = (1 << 52) - 1;
const SPADE: usize = 3;
/// The cards of the joker decks (the README's Jokers section), numbered
/// after the 52 here; all of them are spades.
const EXTRA_CARDS: [&str; 4] = ["LJ", "BJ", "DS", "DD"];

/// A card as `suit * 13 + rank`, ranks 0 (two) to 12 (ace); the cards of
/// `EXTRA_CARDS` are 52 on.
fn parse_card(v: &Value) -> Result<u8, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("{v} is not a card (a string like \"AS\")"))?;
    if let Some(k) = EXTRA_CARDS.iter().position(|&name| name == s) {
        return Ok(52 + k as u8);
    }
    let mut chars = s.chars();
    let (Some(r), Some(su), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(format!("\"{s}\" is not a card"));
    };
    let rank = RANKS
        .find(r)
        .ok_or_else(|| format!("\"{s}\" is not a card"))?;
    let suit = SUITS
        .iter()
        .position(|&c| c == su)
        .ok_or_else(|| format!("\"{s}\" is not a card"))?;
    Ok((suit * 13 + rank) as u8)
}

fn card_name(c: u8) -> String {
    if c >= 52 {
        return EXTRA_CARDS[usize::from(c - 52) % 4].to_string();
    }
    let rank = RANKS.as_bytes()[usize::from(c % 13)] as char;
    format!("{rank}{}", SUITS[usize::from(c / 13)])
}

fn named(name: &str) -> u8 {
    parse_card(&Value::from(name)).expect("a card name written here")
}

/// The suit a card plays as: the jokers and high deuces are spades.
fn suit_of(c: u8) -> usize {
    if c >= 52 { SPADE } else { usize::from(c / 13) }
}

/// The spades from the lowest up, by name, in a deck of `jokers`.
fn spade_order(jokers: Jokers) -> Vec<u8> {
    let plain = "23456789TJQKA".chars().map(|r| named(&format!("{r}S")));
    let mut order: Vec<u8> = match jokers {
        Jokers::DeucesHigh => plain.skip(1).collect(),
        _ => plain.collect(),
    };
    let above: &[&str] = match jokers {
        Jokers::None => &[],
        Jokers::Replace2H2C | Jokers::Replace2D2C => &["LJ", "BJ"],
        Jokers::DeucesHigh => &["DS", "DD", "LJ", "BJ"],
    };
    order.extend(above.iter().map(|&n| named(n)));
    order
}

/// The 52 cards dealt with `jokers`.
fn deck_of(jokers: Jokers) -> u64 {
    let (out, extra): (&[&str], &[&str]) = match jokers {
        Jokers::None => (&[], &[]),
        Jokers::Replace2H2C => (&["2H", "2C"], &["LJ", "BJ"]),
        Jokers::Replace2D2C => (&["2D", "2C"], &["LJ", "BJ"]),
        Jokers::DeucesHigh => (&["2H", "2C", "2S", "2D"], &["LJ", "BJ", "DS", "DD"]),
    };
    let bits = |names: &[&str]| names.iter().fold(0u64, |b, &n| b | bit(named(n)));
    CLASSIC_DECK & !bits(out) | bits(extra)
}

fn suit_name(s: usize) -> &'static str {
    ["clubs", "diamonds", "hearts", "spades"][s]
}

fn bit(c: u8) -> u64 {
    1 << c
}

fn suit_mask(s: usize) -> u64 {
    (0..56u8)
        .filter(|&c| suit_of(c) == s)
        .fold(0, |m, c| m | bit(c))
}

fn set_names(set: u64) -> String {
    (0..56u8)
        .filter(|&c| set & bit(c) != 0)
        .map(card_name)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A list of distinct cards as a bit set.
fn parse_cards(v: &Value) -> Result<u64, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("{v} is not a list of cards"))?;
    let mut set = 0u64;
    for c in list {
        let c = parse_card(c)?;
        if set & bit(c) != 0 {
            return Err(format!("{} is listed twice", card_name(c)));
        }
        set |= bit(c);
    }
    Ok(set)
}

// ---------------------------------------------------------------- modes and rules

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Partnership,
    Cutthroat,
    Individual,
    /// Players in seats 0 to 2, the dummy in seat 3.
    Dummy,
}

/// The dummy's seat in dummy mode.
const DUMMY: usize = 3;

impl Mode {
    fn parse(s: &str) -> Option<Mode> {
        match s {
            "partnership" => Some(Mode::Partnership),
            "cutthroat" => Some(Mode::Cutthroat),
            "individual" => Some(Mode::Individual),
            "dummy" => Some(Mode::Dummy),
            _ => None,
        }
    }

    fn seats(self) -> usize {
        if self == Mode::Cutthroat { 3 } else { 4 }
    }

    fn hand_size(self) -> usize {
        if self == Mode::Cutthroat { 17 } else { 13 }
    }

    fn sides(self) -> usize {
        match self {
            Mode::Partnership => 2,
            Mode::Dummy => 3,
            _ => self.seats(),
        }
    }

    /// Dealers and bidders: every seat but the dummy's.
    fn is_player(self, seat: usize) -> bool {
        self != Mode::Dummy || seat != DUMMY
    }

    /// The next seat clockwise with a player in it.
    fn next_player(self, seat: usize) -> usize {
        let next = (seat + 1) % self.seats();
        if self.is_player(next) {
            next
        } else {
            (next + 1) % self.seats()
        }
    }

    fn side_of(self, seat: usize) -> usize {
        if self == Mode::Partnership {
            seat % 2
        } else {
            seat
        }
    }

    fn partner(self, seat: usize) -> Option<usize> {
        (self == Mode::Partnership).then_some((seat + 2) % 4)
    }
}

/// `deck.jokers`: which deck is dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jokers {
    None,
    Replace2H2C,
    Replace2D2C,
    DeucesHigh,
}

/// The rules object of a `game` line: every key of rules.toml.
#[derive(Debug, Clone, Copy)]
struct Rules {
    mode: Mode,
    target_score: i64,
    losing_score: Option<i64>,
    bag_limit: i64,
    bag_penalty: i64,
    nil_allowed: bool,
    nil_value: i64,
    blind_allowed: bool,
    blind_value: i64,
    min_deficit: i64,
    one_per_side: bool,
    exchange: usize,
    forbid_exact_total: bool,
    /// `game.kind = "quick"`: a run that lasts while seat 0's side has lives.
    quick: bool,
    lives: i64,
    failed_nil_costs_life: bool,
    /// `game.hands`: the game also ends after this many hands (0: never).
    hand_limit: i64,
    /// The house rules of scoring and play; absent in older records, where
    /// they take their classic values.
    house: HouseRules,
    /// The bidding keys (`docs/rules.md`, Bidding keys: [bidding], [blind_bid],
    /// [boston], nil.pass); absent in an old record, each is its default.
    min_bid: usize,
    board: usize,
    double_at: usize,
    game: BiddingGame,
    suicide_min: usize,
    blind_bid_allowed: bool,
    blind_bid_min: usize,
    blind_bid_min_deficit: i64,
    boston_bonus: i64,
    boston_wins_game: bool,
    nil_pass: usize,
    jokers: Jokers,
}

/// `scoring.*`, `nil.failed_tricks_count` and `play.*`.
#[derive(Debug, Clone, Copy)]
struct HouseRules {
    overtrick_points: i64,
    /// `scoring.set_penalty = "bid_and_short"`.
    set_costs_tricks_short: bool,
    failed_nil_tricks_count: bool,
    /// `play.first_lead = "two_of_clubs"`.
    lowest_club_leads: bool,
    /// `play.spades_lead = "any_time"`.
    spades_lead_any_time: bool,
    trump_first_trick: bool,
}

impl Default for HouseRules {
    fn default() -> HouseRules {
        HouseRules {
            overtrick_points: 1,
            set_costs_tricks_short: false,
            failed_nil_tricks_count: false,
            lowest_club_leads: false,
            spades_lead_any_time: false,
            trump_first_trick: true,
        }
    }
}

/// An optional table of the rules: empty when absent (an older record).
fn optional_table<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a Map<String, Value>>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_object()
            .map(Some)
            .ok_or_else(|| format!("rules: `{key}` is not a table")),
    }
}

/// A key that older records lack: `default` when absent.
fn optional<T>(
    table: Option<&Map<String, Value>>,
    path: &str,
    key: &str,
    default: T,
    read: impl Fn(&Map<String, Value>, &str, &str) -> Result<T, String>,
) -> Result<T, String> {
    match table {
        Some(t) if t.contains_key(key) => read(t, path, key),
        _ => Ok(default),
    }
}

/// A text key that must be one of two words: true for the second.
fn rule_choice(
    obj: &Map<String, Value>,
    path: &str,
    key: &str,
    words: [&str; 2],
) -> Result<bool, String> {
    match obj.get(key).and_then(Value::as_str) {
        Some(w) if w == words[0] => Ok(false),
        Some(w) if w == words[1] => Ok(true),
        _ => Err(format!(
            "rules: `{path}{key}` is not \"{}\" or \"{}\"",
            words[0], words[1]
        )),
    }
}

fn parse_house_rules(
    obj: &Map<String, Value>,
    nil: &Map<String, Value>,
) -> Result<HouseRules, String> {
    let classic = HouseRules::default();
    let scoring = optional_table(obj, "scoring")?;
    let play = optional_table(obj, "play")?;
    let house = HouseRules {
        overtrick_points: optional(scoring, "scoring.", "overtrick_points", 1, rule_int)?,
        set_costs_tricks_short: optional(scoring, "scoring.", "set_penalty", false, |t, p, k| {
            rule_choice(t, p, k, ["bid", "bid_and_short"])
        })?,
        failed_nil_tricks_count: optional(
            Some(nil),
            "nil.",
            "failed_tricks_count",
            false,
            rule_bool,
        )?,
        lowest_club_leads: optional(play, "play.", "first_lead", false, |t, p, k| {
            rule_choice(t, p, k, ["dealer_left", "two_of_clubs"])
        })?,
        spades_lead_any_time: optional(play, "play.", "spades_lead", false, |t, p, k| {
            rule_choice(t, p, k, ["broken", "any_time"])
        })?,
        trump_first_trick: optional(
            play,
            "play.",
            "trump_first_trick",
            classic.trump_first_trick,
            rule_bool,
        )?,
    };
    if !(0..=1).contains(&house.overtrick_points) {
        return Err(format!(
            "rules: `scoring.overtrick_points` must be 1 or 0, got {}",
            house.overtrick_points
        ));
    }
    Ok(house)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BiddingGame {
    Classic,
    Mirror,
    Suicide,
    Whiz,
}

/// `optional` for the key `table.key` of the rules `obj`, its value read
/// by `read`.
fn optional_in<T>(
    obj: &Map<String, Value>,
    table: &str,
    key: &str,
    default: T,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<T, String> {
    optional(optional_table(obj, table)?, "", key, default, |t, _, k| {
        let v = &t[k];
        read(v).ok_or_else(|| format!("rules: `{table}.{key}` {v} is not usable"))
    })
}

fn small(v: &Value) -> Option<usize> {
    v.as_u64().filter(|&n| n <= 1000).map(|n| n as usize)
}

fn table<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a Map<String, Value>, String> {
    obj.get(key)
        .ok_or_else(|| format!("rules: missing `{key}`"))?
        .as_object()
        .ok_or_else(|| format!("rules: `{key}` is not a table"))
}

fn rule_int(obj: &Map<String, Value>, path: &str, key: &str) -> Result<i64, String> {
    obj.get(key)
        .ok_or_else(|| format!("rules: missing `{path}{key}`"))?
        .as_i64()
        .ok_or_else(|| format!("rules: `{path}{key}` is not a whole number"))
}

fn rule_bool(obj: &Map<String, Value>, path: &str, key: &str) -> Result<bool, String> {
    obj.get(key)
        .ok_or_else(|| format!("rules: missing `{path}{key}`"))?
        .as_bool()
        .ok_or_else(|| format!("rules: `{path}{key}` is not true or false"))
}

fn parse_rules(v: &Value) -> Result<Rules, String> {
    let obj = v.as_object().ok_or("`rules` is not an object")?;
    let mode = obj
        .get("mode")
        .ok_or("rules: missing `mode`")?
        .as_str()
        .and_then(Mode::parse)
        .ok_or("rules: `mode` is not partnership, cutthroat, individual or dummy")?;
    let losing_score = match obj.get("losing_score") {
        None => return Err("rules: missing `losing_score` (null when unset)".into()),
        Some(Value::Null) => None,
        Some(v) => Some(
            v.as_i64()
                .ok_or("rules: `losing_score` is not a whole number or null")?,
        ),
    };
    let bags = table(obj, "bags")?;
    let nil = table(obj, "nil")?;
    let blind = table(obj, "blind_nil")?;
    let bidding = table(obj, "bidding")?;
    let exchange = rule_int(blind, "blind_nil.", "exchange")?;
    // `[game]` came later: a record without it is a game to the target.
    let game = optional_table(obj, "game")?;
    let quick = optional(game, "game.", "kind", false, |t, p, k| {
        rule_choice(t, p, k, ["standard", "quick"])
    })?;
    // Records from before the joker decks have no `deck`: the classic one.
    let jokers = match obj.get("deck") {
        None => Jokers::None,
        Some(deck) => {
            let deck = deck.as_object().ok_or("rules: `deck` is not a table")?;
            match deck.get("jokers").map(|j| j.as_str()) {
                None => Jokers::None,
                Some(Some("none")) => Jokers::None,
                Some(Some("replace_2h_2c")) => Jokers::Replace2H2C,
                Some(Some("replace_2d_2c")) => Jokers::Replace2D2C,
                Some(Some("deuces_high")) => Jokers::DeucesHigh,
                Some(other) => {
                    return Err(format!("rules: `deck.jokers` {other:?} is no deck"));
                }
            }
        }
    };
    let rules = Rules {
        mode,
        target_score: rule_int(obj, "", "target_score")?,
        losing_score,
        bag_limit: rule_int(bags, "bags.", "limit")?,
        bag_penalty: rule_int(bags, "bags.", "penalty")?,
        nil_allowed: rule_bool(nil, "nil.", "allowed")?,
        nil_value: rule_int(nil, "nil.", "value")?,
        blind_allowed: rule_bool(blind, "blind_nil.", "allowed")?,
        blind_value: rule_int(blind, "blind_nil.", "value")?,
        min_deficit: rule_int(blind, "blind_nil.", "min_deficit")?,
        one_per_side: rule_bool(blind, "blind_nil.", "one_per_side")?,
        exchange: usize::try_from(exchange)
            .map_err(|_| format!("rules: `blind_nil.exchange` is negative ({exchange})"))?,
        forbid_exact_total: rule_bool(bidding, "bidding.", "forbid_exact_total")?,
        quick,
        lives: optional(game, "game.", "lives", 3, rule_int)?,
        failed_nil_costs_life: optional(game, "game.", "failed_nil_costs_life", true, rule_bool)?,
        hand_limit: optional(game, "game.", "hands", 0, rule_int)?,
        house: parse_house_rules(obj, nil)?,
        min_bid: optional_in(obj, "bidding", "min_bid", 1, small)?,
        board: optional_in(obj, "bidding", "board", 0, small)?,
        double_at: optional_in(obj, "bidding", "double_at", 0, small)?,
        game: optional_in(obj, "bidding", "game", BiddingGame::Classic, |v| {
            match v.as_str()? {
                "classic" => Some(BiddingGame::Classic),
                "mirror" => Some(BiddingGame::Mirror),
                "suicide" => Some(BiddingGame::Suicide),
                "whiz" => Some(BiddingGame::Whiz),
                _ => None,
            }
        })?,
        suicide_min: optional_in(obj, "bidding", "suicide_min", 4, small)?,
        blind_bid_allowed: optional_in(obj, "blind_bid", "allowed", false, Value::as_bool)?,
        blind_bid_min: optional_in(obj, "blind_bid", "min", 6, small)?,
        blind_bid_min_deficit: optional_in(obj, "blind_bid", "min_deficit", 100, Value::as_i64)?,
        boston_bonus: optional_in(obj, "boston", "bonus", 0, Value::as_i64)?,
        boston_wins_game: optional_in(obj, "boston", "wins_game", false, Value::as_bool)?,
        nil_pass: optional_in(obj, "nil", "pass", 0, small)?,
        jokers,
    };
    if rules.house.failed_nil_tricks_count && mode != Mode::Partnership {
        return Err("rules: `nil.failed_tricks_count` needs partners".into());
    }
    // The engine keeps scores in 32 bits; larger values are no game's rules
    // (and would let a hostile record overflow the sums here).
    for (key, value) in [
        ("target_score", rules.target_score),
        ("losing_score", rules.losing_score.unwrap_or(0)),
        ("bags.limit", rules.bag_limit),
        ("bags.penalty", rules.bag_penalty),
        ("nil.value", rules.nil_value),
        ("blind_nil.value", rules.blind_value),
        ("blind_nil.min_deficit", rules.min_deficit),
        ("game.hands", rules.hand_limit),
        ("blind_bid.min_deficit", rules.blind_bid_min_deficit),
        ("boston.bonus", rules.boston_bonus),
    ] {
        if i32::try_from(value).is_err() {
            return Err(format!("rules: `{key}` {value} is out of range"));
        }
    }
    if rules.quick && !(1..=99).contains(&rules.lives) {
        return Err(format!(
            "rules: `game.lives` must be between 1 and 99, got {}",
            rules.lives
        ));
    }
    if rules.bag_limit < 1 {
        return Err(format!(
            "rules: `bags.limit` must be at least 1, got {}",
            rules.bag_limit
        ));
    }
    Ok(rules)
}

// ---------------------------------------------------------------- scoring

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bid {
    Tricks(usize),
    Nil,
    BlindNil,
    /// A blind numeric bid ("blind_6").
    Blind(usize),
}

impl Bid {
    /// The tricks a numeric bid (seen or blind) adds to its side's contract.
    fn number(self) -> Option<usize> {
        match self {
            Bid::Tricks(n) | Bid::Blind(n) => Some(n),
            _ => None,
        }
    }
}

/// One side's line of a `score` event, as `docs/rules.md` (Scoring a hand)
/// computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SideLine {
    points: i64,
    bags_added: i64,
    penalty: i64,
    score: i64,
    bags: i64,
    /// Bids the side lost: its contract set, and each failed nil.
    set: bool,
    failed_nils: i64,
}

/// Scores one side from its seats' bids and tricks and its totals before.
/// A contract is doubled (made or set, bags not) for a blind numeric bid or
/// a total of `double_at` or more, once for either or both; a Boston (every
/// trick bid and taken) adds `boston.bonus`.
fn score_side(rules: &Rules, seats: &[(Bid, usize)], score: i64, bags: i64) -> SideLine {
    let house = rules.house;
    let blind = seats.iter().any(|(b, _)| matches!(b, Bid::Blind(_)));
    let mut points = 0;
    let mut bags_added = 0;
    let mut failed_nils = 0;
    let mut contract = None::<(i64, i64)>;
    let mut nil_tricks = 0;
    for &(bid, tricks) in seats {
        let tricks = tricks as i64;
        match bid {
            Bid::Nil | Bid::BlindNil => {
                let value = if bid == Bid::Nil {
                    rules.nil_value
                } else {
                    rules.blind_value
                };
                points += if tricks == 0 { value } else { -value };
                failed_nils += i64::from(tricks > 0);
                nil_tricks += tricks;
            }
            Bid::Tricks(n) | Bid::Blind(n) => {
                let (bid, taken) = contract.unwrap_or((0, 0));
                contract = Some((bid + n as i64, taken + tricks));
            }
        }
    }
    // A failed nil's tricks go to the partner's contract where the house
    // rule says so and there is one; otherwise they are bags.
    match contract.as_mut() {
        Some((_, taken)) if house.failed_nil_tricks_count => *taken += nil_tricks,
        _ => bags_added += nil_tricks,
    }
    if let Some((bid, taken)) = contract {
        let doubled = blind || (rules.double_at > 0 && bid >= rules.double_at as i64);
        let per_trick = if doubled { 20 } else { 10 };
        if taken >= bid {
            points += per_trick * bid + house.overtrick_points * (taken - bid);
            bags_added += taken - bid;
            let all = rules.mode.hand_size() as i64;
            if bid == all && taken == all {
                points += rules.boston_bonus;
            }
        } else {
            let short = if house.set_costs_tricks_short {
                bid - taken
            } else {
                0
            };
            points -= per_trick * (bid + short);
        }
    }
    let mut bags = bags + bags_added;
    let mut penalty = 0;
    while bags >= rules.bag_limit {
        bags -= rules.bag_limit;
        penalty += rules.bag_penalty;
    }
    points -= penalty;
    SideLine {
        points,
        bags_added,
        penalty,
        score: score + points,
        bags,
        set: contract.is_some_and(|(bid, taken)| taken < bid),
        failed_nils,
    }
}

/// What a bid breaks of the bidding keys: `min_bid`, the bidding game
/// (mirror and whiz from the spades `dealt`, suicide from the partner's
/// bid) and the board (the partner's bid and this one together).
fn bidding_rule_broken(rules: &Rules, bid: Bid, partner: Option<Bid>, dealt: u64) -> Vec<String> {
    let mut broken = Vec::new();
    let number = bid.number();
    if number.is_some_and(|k| k < rules.min_bid) {
        broken.push(format!("bid below min_bid {}", rules.min_bid));
    }
    let spades = (dealt & suit_mask(SPADE)).count_ones() as usize;
    let spade_bid = if spades == 0 {
        Bid::Nil
    } else {
        Bid::Tricks(spades)
    };
    let least = rules.suicide_min.max(rules.board);
    match rules.game {
        BiddingGame::Classic => {}
        BiddingGame::Mirror if bid != spade_bid => {
            broken.push(format!("mirror: {bid:?} by a seat dealt {spades} spades"));
        }
        BiddingGame::Whiz if bid != spade_bid && bid != Bid::Nil => {
            broken.push(format!("whiz: {bid:?} by a seat dealt {spades} spades"));
        }
        BiddingGame::Suicide => {
            let partner_number = partner.and_then(Bid::number);
            let ok = match (partner, partner_number) {
                (None, _) => bid == Bid::Nil || number.is_some_and(|k| k >= least),
                (Some(_), Some(_)) => bid == Bid::Nil,
                (Some(_), None) => number.is_some_and(|k| k >= least),
            };
            if !ok {
                broken.push(format!(
                    "suicide: {bid:?} beside the partner's {partner:?} (one nil, one number of {least} or more)"
                ));
            }
        }
        _ => {}
    }
    if rules.board > 0
        && let Some(p) = partner
        && p.number().unwrap_or(0) + number.unwrap_or(0) < rules.board
    {
        broken.push(format!(
            "the side's bids {p:?} and {bid:?} do not reach the board of {}",
            rules.board
        ));
    }
    broken
}

/// The winner once the game is decided; `None` while it goes on. A Quick
/// Play run ends when seat 0's side has no lives left, whatever the
/// scores (level leaders: the lowest-numbered side); the hand limit ends a
/// game when one side leads alone; otherwise (never in Quick Play) a side
/// at the target or the losing score and one side alone on top.
fn winner(rules: &Rules, scores: &[i64], hands: u64, lives: Option<i64>) -> Option<usize> {
    let best = *scores.iter().max()?;
    let leaders: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == best).collect();
    if lives.is_some_and(|l| l <= 0) {
        return Some(leaders[0]);
    }
    let out_of_hands = rules.hand_limit > 0 && hands >= rules.hand_limit as u64;
    let reached = !rules.quick
        && scores.iter().any(|&s| {
            s >= rules.target_score || rules.losing_score.is_some_and(|losing| s <= losing)
        });
    ((out_of_hands || reached) && leaders.len() == 1).then(|| leaders[0])
}

// ---------------------------------------------------------------- reading fields

type Obj = Map<String, Value>;

fn field<'a>(obj: &'a Obj, key: &str) -> Result<&'a Value, String> {
    obj.get(key).ok_or_else(|| format!("missing `{key}`"))
}

fn uint(obj: &Obj, key: &str) -> Result<u64, String> {
    field(obj, key)?
        .as_u64()
        .ok_or_else(|| format!("`{key}` is not a whole number"))
}

fn int(v: &Value, what: &str) -> Result<i64, String> {
    v.as_i64()
        .ok_or_else(|| format!("{what} is not a whole number"))
}

fn seat(obj: &Obj, key: &str, seats: usize) -> Result<usize, String> {
    let s = uint(obj, key)?;
    if s >= seats as u64 {
        return Err(format!("`{key}` {s} is not a seat (0 to {})", seats - 1));
    }
    Ok(s as usize)
}

// ---------------------------------------------------------------- the checker

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Bidding,
    Exchange,
    Playing,
    Scored,
}

/// One hand as the record has told it so far.
#[derive(Debug, Clone)]
struct Hand {
    number: u64,
    dealer: usize,
    dealt: Vec<u64>,
    held: Vec<u64>,
    /// How far each side trailed the leading other side at the deal.
    deficit: Vec<i64>,
    bids: Vec<Option<Bid>>,
    bid_count: usize,
    /// `owes[s]`: the seat `s` must pass exchange cards to.
    owes: Vec<Option<usize>>,
    /// `owe_count[s]`: how many (the blind-nil exchange or the nil pass).
    owe_count: Vec<usize>,
    given: Vec<Option<u64>>,
    stage: Stage,
    leader: usize,
    trick: Vec<(usize, u8)>,
    broken: bool,
    won: Vec<usize>,
    /// With a dummy, once the bids are in: the highest bidder, the first
    /// of them on a tie.
    declarer: Option<usize>,
    tricks_done: usize,
    /// The true winner of a trick whose `trick` line has not come yet.
    pending: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Hands are being played.
    Open,
    /// A score decided the game at this line; the `end` line is due.
    Decided {
        line: usize,
        winner: usize,
    },
    Ended,
    Abandoned,
}

#[derive(Debug, Clone)]
struct GameState {
    rules: Rules,
    /// Format 2's commitment to a secret seed, to check the reveal against.
    commitment: Option<String>,
    mode: Mode,
    status: Status,
    scores: Vec<i64>,
    bags: Vec<i64>,
    hands: u64,
    /// Quick Play: seat 0's side's lives left.
    lives: Option<i64>,
    last_dealer: Option<usize>,
    hand: Option<Hand>,
}

#[derive(Default)]
struct Checker {
    report: Report,
    game: Option<GameState>,
    /// The last `game` line was unusable: its game's lines are skipped.
    skipping: bool,
}

impl Checker {
    fn problem(&mut self, line: usize, message: impl Into<String>) {
        self.report.problems.push(Problem {
            line,
            message: message.into(),
        });
    }

    fn line(&mut self, no: usize, text: &str) {
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return self.problem(no, format!("not JSON: {e}")),
        };
        let Some(obj) = value.as_object() else {
            return self.problem(no, "not a JSON object");
        };
        let Some(event) = obj.get("event").and_then(Value::as_str) else {
            return self.problem(no, "no `event` key naming the event");
        };
        if event == "game" {
            return self.game_line(no, obj);
        }
        if self.skipping {
            return;
        }
        let Some(game) = self.game.as_mut() else {
            return self.problem(no, format!("`{event}` before any `game` line"));
        };
        let mut problems = Vec::new();
        match game.status {
            Status::Ended | Status::Abandoned => {
                problems.push(format!(
                    "`{event}` after the game was over (a new game needs a `game` line)"
                ));
            }
            Status::Open | Status::Decided { .. } => {
                if let Status::Decided { line, .. } = game.status
                    && event != "end"
                {
                    problems.push(format!(
                        "`{event}` where the `end` line is due (the score at line {line} \
                         decided the game)"
                    ));
                    game.status = Status::Open;
                }
                let result = match event {
                    "deal" => game.deal(obj, &mut problems),
                    "bid" => game.bid(obj, &mut problems),
                    "exchange" => game.exchange(obj, &mut problems),
                    "play" => game.play(obj, &mut problems),
                    "trick" => game.trick(obj, &mut problems),
                    "score" => game.score(no, obj, &mut problems),
                    "end" => game.end(obj, &mut problems).and_then(|()| game.reveal(obj)),
                    "abandoned" => {
                        game.status = Status::Abandoned;
                        game.reveal(obj)
                    }
                    other => Err(format!("unknown event `{other}`")),
                };
                if event == "deal" && result.is_ok() {
                    self.report.hands += 1;
                }
                problems.extend(result.err());
            }
        }
        for p in problems {
            self.problem(no, p);
        }
    }

    /// A game ends with its `end` line, or is left undecided; one that was
    /// decided must say so before anything else starts.
    fn close_game(&mut self, what_follows: &str) {
        if let Some(GameState {
            status: Status::Decided { line, .. },
            ..
        }) = self.game
        {
            self.problem(
                line,
                format!("this score decided the game, but {what_follows} with no `end` line"),
            );
        }
    }

    fn finish(&mut self) {
        self.close_game("the record ends");
    }

    fn game_line(&mut self, no: usize, obj: &Obj) {
        self.close_game(&format!("a new game starts at line {no}"));
        self.report.games += 1;
        match parse_header(obj) {
            Ok((rules, commitment)) => {
                let sides = rules.mode.sides();
                self.skipping = false;
                self.game = Some(GameState {
                    rules,
                    commitment,
                    mode: rules.mode,
                    status: Status::Open,
                    scores: vec![0; sides],
                    bags: vec![0; sides],
                    hands: 0,
                    lives: rules.quick.then_some(rules.lives),
                    last_dealer: None,
                    hand: None,
                });
            }
            Err(problems) => {
                for p in problems {
                    self.problem(no, p);
                }
                self.skipping = true;
                self.game = None;
            }
        }
    }
}

/// The `game` line: format 1 or 2, a mode, one name per seat, every rules
/// key, a seed; in format 2 either the seed or a commitment to a secret one.
/// Returns the rules and the commitment.
fn parse_header(obj: &Obj) -> Result<(Rules, Option<String>), Vec<String>> {
    let mut problems = Vec::new();
    let format = obj.get("format").and_then(Value::as_u64);
    match format {
        Some(1 | 2) => {}
        Some(f) => problems.push(format!("format {f} is not format 1 or 2")),
        None => problems.push("missing `format` (1 or 2)".into()),
    }
    let mode = obj
        .get("mode")
        .and_then(Value::as_str)
        .and_then(Mode::parse);
    if mode.is_none() {
        problems.push("`mode` is not partnership, cutthroat, individual or dummy".into());
    }
    let rules = obj
        .get("rules")
        .ok_or_else(|| "missing `rules`".to_string())
        .and_then(parse_rules);
    let rules = match rules {
        Ok(rules) => Some(rules),
        Err(e) => {
            problems.push(e);
            None
        }
    };
    if let (Some(mode), Some(rules)) = (mode, rules)
        && mode != rules.mode
    {
        problems.push("`mode` and `rules.mode` differ".into());
    }
    if let Some(mode) = mode {
        match obj.get("names").and_then(Value::as_array) {
            Some(names) if names.len() == mode.seats() && names.iter().all(Value::is_string) => {}
            _ => problems.push(format!("`names` must list {} names", mode.seats())),
        }
    }
    let seeded = match obj.get("seed") {
        Some(Value::Null) => false,
        Some(v) if v.is_u64() => true,
        Some(_) => {
            problems.push("`seed` is not a whole number or null".into());
            false
        }
        None => {
            problems.push("missing `seed` (null when there is none)".into());
            false
        }
    };
    let commitment = match (format, obj.get("commitment")) {
        (Some(2), Some(Value::String(c))) if is_hex(c, 64) => Some(c.clone()),
        (Some(2), Some(Value::Null)) | (Some(1), _) => None,
        (Some(2), _) => {
            problems.push("`commitment` is not 64 lowercase hex digits or null".into());
            None
        }
        _ => None,
    };
    if format == Some(2) && seeded == commitment.is_some() {
        problems.push(
            "format 2 gives either the seed (known from the start) or a commitment to a secret one"
                .into(),
        );
    }
    match rules {
        Some(rules) if problems.is_empty() => Ok((rules, commitment)),
        _ => Err(problems),
    }
}

fn is_hex(text: &str, digits: usize) -> bool {
    text.len() == digits && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The SHA-256 of `seed:salt` in lowercase hex, as format 2 commits to it.
fn commitment_of(seed: u64, salt: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(format!("{seed}:{salt}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The hand being played, which the line's `hand` must name.
fn current<'a>(hand: &'a mut Option<Hand>, obj: &Obj) -> Result<&'a mut Hand, String> {
    let number = uint(obj, "hand")?;
    let hand = hand.as_mut().ok_or("no hand has been dealt")?;
    if hand.number != number {
        return Err(format!(
            "`hand` is {number} but hand {} is being played",
            hand.number
        ));
    }
    Ok(hand)
}

impl GameState {
    fn seats(&self) -> usize {
        self.mode.seats()
    }

    fn deal(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        if let Some(hand) = &self.hand
            && hand.stage != Stage::Scored
        {
            problems.push(format!("hand {} was never scored", hand.number));
        }
        let (n, size) = (self.seats(), self.mode.hand_size());
        let number = uint(obj, "hand")?;
        if number != self.hands + 1 {
            problems.push(format!(
                "hand {number} follows hand {} (hands count from 1)",
                self.hands
            ));
        }
        let dealer = seat(obj, "dealer", n)?;
        if !self.mode.is_player(dealer) {
            return Err(format!("the dummy (seat {dealer}) never deals"));
        }
        if let Some(last) = self.last_dealer
            && dealer != self.mode.next_player(last)
        {
            problems.push(format!(
                "dealer is seat {dealer}, but after seat {last} the deal passes to seat {}",
                self.mode.next_player(last)
            ));
        }
        let lists = field(obj, "hands")?
            .as_array()
            .ok_or("`hands` is not a list")?;
        if lists.len() != n {
            return Err(format!("`hands` has {} hands for {n} seats", lists.len()));
        }
        let mut dealt = Vec::with_capacity(n);
        let mut all = parse_cards(field(obj, "out")?).map_err(|e| format!("out: {e}"))?;
        let out_size = 52 - n * size;
        if all.count_ones() as usize != out_size {
            problems.push(format!(
                "{} cards out of play; this mode sets {out_size} aside",
                all.count_ones()
            ));
        }
        for (s, list) in lists.iter().enumerate() {
            let cards = parse_cards(list).map_err(|e| format!("seat {s}: {e}"))?;
            if cards.count_ones() as usize != size {
                problems.push(format!(
                    "seat {s} is dealt {} cards, not {size}",
                    cards.count_ones()
                ));
            }
            if all & cards != 0 {
                problems.push(format!(
                    "seat {s} is dealt {} dealt elsewhere too",
                    set_names(all & cards)
                ));
            }
            all |= cards;
            dealt.push(cards);
        }
        let deck = deck_of(self.rules.jokers);
        if all & !deck != 0 {
            problems.push(format!(
                "the deal has {}, not in this deck",
                set_names(all & !deck)
            ));
        }
        if deck & !all != 0 {
            problems.push(format!("the deal is missing {}", set_names(deck & !all)));
        }
        let deficit = (0..self.mode.sides())
            .map(|side| {
                let best_other = (0..self.scores.len())
                    .filter(|&o| o != side)
                    .map(|o| self.scores[o])
                    .max()
                    .unwrap_or(self.scores[side]);
                (best_other - self.scores[side]).max(0)
            })
            .collect();
        self.hands = number;
        self.last_dealer = Some(dealer);
        self.hand = Some(Hand {
            number,
            dealer,
            held: dealt.clone(),
            dealt,
            deficit,
            bids: vec![None; n],
            bid_count: 0,
            owes: vec![None; n],
            owe_count: vec![0; n],
            given: vec![None; n],
            stage: Stage::Bidding,
            leader: self.mode.next_player(dealer),
            declarer: None,
            trick: Vec::new(),
            broken: false,
            won: vec![0; n],
            tricks_done: 0,
            pending: None,
        });
        Ok(())
    }

    fn bid(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let (mode, rules, n) = (self.mode, self.rules, self.seats());
        let hand = current(&mut self.hand, obj)?;
        if hand.stage != Stage::Bidding {
            return Err("a bid after every seat has bid".into());
        }
        let seat = seat(obj, "seat", n)?;
        let mut expected = mode.next_player(hand.dealer);
        for _ in 0..hand.bid_count {
            expected = mode.next_player(expected);
        }
        if seat != expected {
            return Err(format!(
                "seat {seat} bids out of turn: seat {expected} bids next"
            ));
        }
        let size = mode.hand_size();
        let bid = match field(obj, "bid")? {
            Value::String(s) if s == "nil" => Bid::Nil,
            Value::String(s) if s == "blind_nil" => Bid::BlindNil,
            Value::String(s) if s.starts_with("blind_") => match s["blind_".len()..].parse() {
                Ok(k) if (1..=size).contains(&k) => Bid::Blind(k),
                _ => {
                    return Err(format!(
                        "\"{s}\" is not a blind bid (blind_1 to blind_{size})"
                    ));
                }
            },
            v => match v.as_u64() {
                Some(0) => return Err("a bid of 0 is written \"nil\"".into()),
                Some(k) if k as usize <= size => Bid::Tricks(k as usize),
                _ => return Err(format!("{v} is not a bid (1 to {size}, nil or blind_nil)")),
            },
        };
        match bid {
            Bid::Nil | Bid::BlindNil if mode == Mode::Dummy => {
                problems.push("a nil with a dummy, where every bid is a team total".into())
            }
            Bid::Nil if !rules.nil_allowed => problems.push("nil is off in these rules".into()),
            Bid::BlindNil => {
                let deficit = hand.deficit[mode.side_of(seat)];
                if !rules.blind_allowed {
                    problems.push("blind nil is off in these rules".into());
                } else if deficit < rules.min_deficit {
                    problems.push(format!(
                        "blind nil by seat {seat}, whose side trailed by {deficit} at the deal (needs {})",
                        rules.min_deficit
                    ));
                }
                if rules.one_per_side
                    && let Some(p) = mode.partner(seat)
                    && hand.bids[p] == Some(Bid::BlindNil)
                {
                    problems.push(format!(
                        "a second blind nil on one side (seat {p} bid it first; one per side)"
                    ));
                }
                if rules.game != BiddingGame::Classic {
                    problems.push(format!("blind nil in {:?}, which has none", rules.game));
                }
            }
            Bid::Blind(k) => {
                let deficit = hand.deficit[mode.side_of(seat)];
                if !rules.blind_bid_allowed {
                    problems.push("blind bids are off in these rules".into());
                } else if deficit < rules.blind_bid_min_deficit {
                    problems.push(format!(
                        "blind {k} by seat {seat}, whose side trailed by {deficit} at the deal (needs {})",
                        rules.blind_bid_min_deficit
                    ));
                }
                if k < rules.blind_bid_min {
                    problems.push(format!(
                        "blind {k} is below blind_bid.min {}",
                        rules.blind_bid_min
                    ));
                }
            }
            _ => {}
        }
        let partner_bid = mode.partner(seat).and_then(|p| hand.bids[p]);
        problems.extend(bidding_rule_broken(
            &rules,
            bid,
            partner_bid,
            hand.dealt[seat],
        ));
        hand.bids[seat] = Some(bid);
        hand.bid_count += 1;
        let bidders = (0..n).filter(|&s| mode.is_player(s)).count();
        if hand.bid_count < bidders {
            return Ok(());
        }
        if mode == Mode::Dummy {
            // In bidding order a later bid takes the lead only when higher.
            let mut s = mode.next_player(hand.dealer);
            let mut best: Option<(usize, usize)> = None;
            for _ in 0..bidders {
                let k = match hand.bids[s] {
                    Some(Bid::Tricks(k)) => k,
                    _ => 0,
                };
                if best.is_none_or(|(_, b)| k > b) {
                    best = Some((s, k));
                }
                s = mode.next_player(s);
            }
            hand.declarer = best.map(|(s, _)| s);
        }
        let total: usize = hand
            .bids
            .iter()
            .map(|b| b.and_then(Bid::number).unwrap_or(0))
            .sum();
        if rules.forbid_exact_total && total == size && mode != Mode::Dummy {
            problems.push(format!(
                "the last bid brings the bids to exactly {size} (forbid_exact_total)"
            ));
        }
        hand.stage = Stage::Playing;
        if mode == Mode::Partnership {
            for s in 0..n {
                let p = (s + 2) % n;
                let (mine, theirs) = (hand.bids[s], hand.bids[p]);
                let count = match (mine, theirs) {
                    (Some(Bid::BlindNil), Some(Bid::BlindNil)) => 0,
                    (Some(Bid::BlindNil), _) | (_, Some(Bid::BlindNil)) => rules.exchange,
                    (Some(Bid::Nil), Some(b)) | (Some(b), Some(Bid::Nil))
                        if b.number().is_some() =>
                    {
                        rules.nil_pass
                    }
                    _ => 0,
                };
                if count > 0 {
                    hand.owes[s] = Some(p);
                    hand.owe_count[s] = count;
                    hand.stage = Stage::Exchange;
                }
            }
        }
        Ok(())
    }

    fn exchange(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let n = self.seats();
        let hand = current(&mut self.hand, obj)?;
        if hand.stage != Stage::Exchange {
            return Err(match hand.stage {
                Stage::Bidding => "an exchange before the bidding is over".into(),
                _ => "an exchange where no blind nil calls for one".into(),
            });
        }
        let from = seat(obj, "from", n)?;
        let to = seat(obj, "to", n)?;
        if hand.owes[from] != Some(to) {
            return Err(format!("seat {from} owes seat {to} no cards"));
        }
        if hand.given[from].is_some() {
            return Err(format!("seat {from} has already passed its cards"));
        }
        let cards = parse_cards(field(obj, "cards")?)?;
        if cards.count_ones() as usize != hand.owe_count[from] {
            problems.push(format!(
                "{} cards passed; the rules say {}",
                cards.count_ones(),
                hand.owe_count[from]
            ));
        }
        if cards & !hand.dealt[from] != 0 {
            problems.push(format!(
                "seat {from} passes {}, which it was not dealt",
                set_names(cards & !hand.dealt[from])
            ));
        }
        hand.given[from] = Some(cards);
        if (0..n).all(|s| hand.owes[s].is_none() || hand.given[s].is_some()) {
            hand.finish_exchange();
        }
        Ok(())
    }

    fn play(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let (n, size) = (self.seats(), self.mode.hand_size());
        let jokers = self.rules.jokers;
        let hand = current(&mut self.hand, obj)?;
        match hand.stage {
            Stage::Bidding => return Err("a card is played before every seat has bid".into()),
            Stage::Exchange => {
                problems.push("a card is played before the exchange is complete".into());
                hand.finish_exchange();
            }
            Stage::Scored => return Err("a card is played after the hand was scored".into()),
            Stage::Playing => {}
        }
        if let Some(winner) = hand.pending.take() {
            problems.push(format!(
                "trick {} has no `trick` line before this card",
                hand.tricks_done
            ));
            hand.leader = winner;
        }
        if hand.tricks_done == size {
            return Err("a card is played after the last trick".into());
        }
        if self.rules.house.lowest_club_leads && hand.tricks_done == 0 && hand.trick.is_empty() {
            // The holder of the lowest club (after any exchange) leads.
            if let Some(holder) = (0..n)
                .filter(|&s| hand.held[s] & suit_mask(0) != 0)
                .min_by_key(|&s| (hand.held[s] & suit_mask(0)).trailing_zeros())
            {
                hand.leader = holder;
            }
        }
        let seat = seat(obj, "seat", n)?;
        let turn = (hand.leader + hand.trick.len()) % n;
        if seat != turn {
            return Err(format!(
                "seat {seat} plays out of turn: seat {turn} is to play"
            ));
        }
        let card = parse_card(field(obj, "card")?)?;
        let held = hand.held[seat];
        if held & bit(card) == 0 {
            problems.push(format!("seat {seat} does not hold {}", card_name(card)));
        }
        let house = self.rules.house;
        let first_trick = hand.tricks_done == 0;
        match hand.trick.first() {
            None if first_trick && house.lowest_club_leads => {
                let clubs = held & suit_mask(0);
                if clubs != 0 && card != clubs.trailing_zeros() as u8 {
                    problems.push(format!(
                        "seat {seat} leads {} to the first trick, but the lowest club ({}) \
                         leads it (play.first_lead = \"two_of_clubs\")",
                        card_name(card),
                        card_name(clubs.trailing_zeros() as u8)
                    ));
                }
            }
            None => {
                let spades_free = hand.broken || house.spades_lead_any_time;
                if suit_of(card) == SPADE && !spades_free && held & !suit_mask(SPADE) != 0 {
                    problems.push(format!(
                        "seat {seat} leads {} before spades are broken, holding {}",
                        card_name(card),
                        set_names(held & !suit_mask(SPADE))
                    ));
                }
            }
            Some(&(_, first)) => {
                let led = suit_of(first);
                if suit_of(card) != led && held & suit_mask(led) != 0 {
                    problems.push(format!(
                        "seat {seat} must follow {} (holds {}) but plays {}",
                        suit_name(led),
                        set_names(held & suit_mask(led)),
                        card_name(card)
                    ));
                } else if first_trick
                    && !house.trump_first_trick
                    && led != SPADE
                    && suit_of(card) == SPADE
                    && held & !suit_mask(SPADE) != 0
                {
                    problems.push(format!(
                        "seat {seat} plays {} to the first trick, holding {} \
                         (play.trump_first_trick = false)",
                        card_name(card),
                        set_names(held & !suit_mask(SPADE))
                    ));
                }
            }
        }
        hand.held[seat] &= !bit(card);
        if suit_of(card) == SPADE {
            hand.broken = true;
        }
        hand.trick.push((seat, card));
        if hand.trick.len() == n {
            let winner = trick_winner(&hand.trick, jokers);
            hand.won[winner] += 1;
            hand.tricks_done += 1;
            hand.trick.clear();
            hand.pending = Some(winner);
            hand.leader = winner;
        }
        Ok(())
    }

    fn trick(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let n = self.seats();
        let hand = current(&mut self.hand, obj)?;
        let Some(winner) = hand.pending.take() else {
            return Err("a `trick` line with no trick just completed".into());
        };
        let number = uint(obj, "trick")?;
        if number != hand.tricks_done as u64 {
            problems.push(format!(
                "trick {number} should be numbered {}",
                hand.tricks_done
            ));
        }
        let said = seat(obj, "winner", n)?;
        if said != winner {
            problems.push(format!(
                "trick {} is won by seat {winner}, not seat {said}",
                hand.tricks_done
            ));
            // The record's own winner leads next; following it keeps one
            // wrong winner from reporting every later card out of turn.
            hand.leader = said;
        }
        Ok(())
    }

    fn score(&mut self, no: usize, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let (mode, rules, n) = (self.mode, self.rules, self.seats());
        let size = mode.hand_size();
        let hand = current(&mut self.hand, obj)?;
        if hand.stage == Stage::Scored {
            return Err("the hand is scored twice".into());
        }
        if hand.pending.take().is_some() {
            problems.push(format!("trick {} has no `trick` line", hand.tricks_done));
        }
        if hand.tricks_done != size || hand.stage != Stage::Playing {
            problems.push(format!(
                "the hand is scored after {} of its {size} tricks",
                hand.tricks_done
            ));
        }
        hand.stage = Stage::Scored;
        let tricks: Vec<Option<i64>> = field(obj, "tricks")?
            .as_array()
            .ok_or("`tricks` is not a list")?
            .iter()
            .map(Value::as_i64)
            .collect();
        let won: Vec<Option<i64>> = hand.won.iter().map(|&w| Some(w as i64)).collect();
        if tricks != won {
            problems.push(format!(
                "`tricks` says {}, but the tricks were won {:?}",
                field(obj, "tricks")?,
                hand.won
            ));
        }
        let sides = field(obj, "sides")?
            .as_array()
            .ok_or("`sides` is not a list")?;
        if sides.len() != mode.sides() {
            problems.push(format!(
                "`sides` has {} entries for {} sides",
                sides.len(),
                mode.sides()
            ));
        }
        let said_declarer = obj
            .get("declarer")
            .and_then(Value::as_u64)
            .map(|d| d as usize);
        if said_declarer != hand.declarer {
            problems.push(format!(
                "`declarer` is {said_declarer:?}, but the bids make it {:?}",
                hand.declarer
            ));
        }
        let mut run_line = None;
        for side in 0..mode.sides() {
            let seats: Vec<(Bid, usize)> = match hand.declarer {
                // With a dummy each player scores its team's contract: the
                // declarer its bid on its own and the dummy's tricks, a
                // defender 13 less that bid on both defenders' tricks.
                Some(d) => {
                    let bid = match hand.bids[d] {
                        Some(Bid::Tricks(k)) => k,
                        _ => 0,
                    };
                    let declaring = hand.won[d] + hand.won[DUMMY];
                    if side == d {
                        vec![(Bid::Tricks(bid), declaring)]
                    } else {
                        vec![(Bid::Tricks(size - bid), size - declaring)]
                    }
                }
                None => (0..n)
                    .filter(|&s| mode.side_of(s) == side)
                    .map(|s| (hand.bids[s].unwrap_or(Bid::Nil), hand.won[s]))
                    .collect(),
            };
            let want = score_side(&rules, &seats, self.scores[side], self.bags[side]);
            if side == mode.side_of(0) {
                run_line = Some(want);
            }
            self.scores[side] = want.score;
            self.bags[side] = want.bags;
            let Some(got) = sides.get(side).and_then(Value::as_object) else {
                continue;
            };
            for (key, value) in [
                ("points", want.points),
                ("bags_added", want.bags_added),
                ("penalty", want.penalty),
                ("score", want.score),
                ("bags", want.bags),
            ] {
                match got.get(key).map(|v| int(v, key)) {
                    Some(Ok(v)) if v == value => {}
                    Some(Ok(v)) => problems.push(format!("side {side}: {key} is {value}, not {v}")),
                    Some(Err(e)) => problems.push(format!("side {side}: {e}")),
                    None => problems.push(format!("side {side}: missing `{key}`")),
                }
            }
        }
        if let (Some(left), Some(line)) = (&mut self.lives, run_line) {
            let nils = if rules.failed_nil_costs_life {
                line.failed_nils
            } else {
                0
            };
            *left = (*left - i64::from(line.set) - nils).max(0);
        }
        match (obj.get("lives"), self.lives) {
            (None, None) => {}
            (Some(said), Some(left)) if said.as_i64() == Some(left) => {}
            (Some(said), Some(left)) => problems.push(format!(
                "`lives` is {said}, but seat 0's side has {left} left"
            )),
            (None, Some(left)) => problems.push(format!(
                "a Quick Play score line has no `lives` (seat 0's side has {left} left)"
            )),
            (Some(_), None) => problems.push("`lives` in a game that is not Quick Play".into()),
        }
        let hands = hand.number;

        // A Boston where it wins the game outright decides it whatever the scores.
        let all = mode.hand_size();
        // With a dummy only a declarer can bid every trick, and it takes
        // them with the dummy's.
        let declarer_boston = hand.declarer.map(|d| {
            let bid = hand.bids[d].and_then(Bid::number);
            (bid == Some(all) && hand.won[d] + hand.won[DUMMY] == all).then_some(d)
        });
        let boston = declarer_boston.unwrap_or_else(|| {
            (0..mode.sides()).find(|&side| {
                let numeric: Vec<usize> = (0..n)
                    .filter(|&s| mode.side_of(s) == side)
                    .filter(|&s| hand.bids[s].and_then(Bid::number).is_some())
                    .collect();
                let bid: usize = numeric
                    .iter()
                    .filter_map(|&s| hand.bids[s].and_then(Bid::number))
                    .sum();
                // A failed nil's tricks count where the house rule says so.
                let counted = |s: &usize| {
                    hand.bids[*s].and_then(Bid::number).is_some()
                        || rules.house.failed_nil_tricks_count
                };
                let taken: usize = (0..n)
                    .filter(|&s| mode.side_of(s) == side)
                    .filter(counted)
                    .map(|s| hand.won[s])
                    .sum();
                !numeric.is_empty() && bid == all && taken == all
            })
        });
        let decided = boston
            .filter(|_| rules.boston_wins_game)
            .or_else(|| winner(&rules, &self.scores, hands, self.lives));
        if let Some(winner) = decided {
            self.status = Status::Decided { line: no, winner };
        }
        Ok(())
    }

    /// A closing line of a game with a secret seed reveals the seed and
    /// salt, and they must hash to the commitment made at the start.
    fn reveal(&self, obj: &Obj) -> Result<(), String> {
        let Some(commitment) = &self.commitment else {
            return Ok(());
        };
        let seed = obj
            .get("seed")
            .and_then(Value::as_u64)
            .ok_or("the closing line does not reveal the secret seed (`seed`)")?;
        let salt = obj
            .get("salt")
            .and_then(Value::as_str)
            .filter(|s| is_hex(s, 32))
            .ok_or("the closing line does not reveal the salt (`salt`, 32 hex digits)")?;
        if commitment_of(seed, salt) != *commitment {
            return Err(format!(
                "seed {seed} and salt {salt} do not hash to the commitment {commitment}"
            ));
        }
        Ok(())
    }

    fn end(&mut self, obj: &Obj, problems: &mut Vec<String>) -> Result<(), String> {
        let Status::Decided { winner, .. } = self.status else {
            self.status = Status::Ended;
            return Err(format!(
                "the game is not decided (scores {:?}): no side has reached {} or \
                 the top score is shared",
                self.scores, self.rules.target_score
            ));
        };
        self.status = Status::Ended;
        let said = uint(obj, "winner")?;
        if said != winner as u64 {
            problems.push(format!("side {winner} won, not side {said}"));
        }
        let scores: Vec<Option<i64>> = field(obj, "scores")?
            .as_array()
            .ok_or("`scores` is not a list")?
            .iter()
            .map(Value::as_i64)
            .collect();
        if scores != self.scores.iter().map(|&s| Some(s)).collect::<Vec<_>>() {
            problems.push(format!("the final scores are {:?}", self.scores));
        }
        Ok(())
    }
}

impl Hand {
    /// Both directions of the exchange at once, each from the hand dealt.
    fn finish_exchange(&mut self) {
        let given = self.given.clone();
        for (from, cards) in given.iter().enumerate() {
            if let (Some(to), Some(cards)) = (self.owes[from], cards) {
                self.held[from] &= !cards;
                self.held[to] |= cards;
            }
        }
        self.stage = Stage::Playing;
    }
}

/// The highest spade (in the deck's order of spades), or with no spade
/// the highest card of the suit led.
fn trick_winner(trick: &[(usize, u8)], jokers: Jokers) -> usize {
    let led = suit_of(trick[0].1);
    let spades = spade_order(jokers);
    let rank = |c: u8| match suit_of(c) {
        SPADE => 100 + spades.iter().position(|&s| s == c).map_or(-1, |p| p as i32),
        s if s == led => i32::from(c),
        _ => -1,
    };
    trick
        .iter()
        .max_by_key(|&&(_, c)| rank(c))
        .map_or(trick[0].0, |&(s, _)| s)
}
