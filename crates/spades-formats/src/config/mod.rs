//! Where the rules come from and how `rules.toml` is read: every mistake in
//! the file is reported with its file, line, column and key.

mod duplicate;
mod house_rules;
pub mod preferences;

pub use house_rules::{
    course, house_rules, in_a_line, players_in_words, quick_play_terms, variants,
};

use std::fmt;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};

use crate::engine::{RuleSettings, Rules};

/// Where the effective rules were found, in the order they are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesSource {
    /// `--rules PATH`
    Flag(PathBuf),
    /// `./rules.toml`
    WorkingDir(PathBuf),
    /// `spades/rules.toml` in the user's config directory
    UserConfig(PathBuf),
    /// `--preset NAME`
    Preset(&'static str),
    BuiltIn,
}

impl fmt::Display for RulesSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesSource::Flag(p) => write!(f, "{} (from --rules)", p.display()),
            RulesSource::WorkingDir(p) => write!(f, "{} (in the current directory)", p.display()),
            RulesSource::UserConfig(p) => write!(f, "{} (user config)", p.display()),
            RulesSource::Preset(name) => write!(f, "the {name} preset (from --preset)"),
            RulesSource::BuiltIn => f.write_str("built-in defaults (the classic game)"),
        }
    }
}

/// A rules file that cannot be used, and exactly where it goes wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RulesFileError {
    pub file: String,
    /// 1-based line and column, when the problem has a place in the file.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for RulesFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{line}:{col}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Finds the rules: `--rules PATH`, else `./rules.toml`, else the user's
/// config file, else the built-in classic game.
pub fn find_rules(flag: Option<&Path>) -> Result<(Rules, RulesSource), RulesFileError> {
    if let Some(path) = flag {
        return Ok((read_rules(path)?, RulesSource::Flag(path.to_path_buf())));
    }
    let local = PathBuf::from("rules.toml");
    if local.is_file() {
        return Ok((read_rules(&local)?, RulesSource::WorkingDir(local)));
    }
    if let Some(user) = crate::paths::user_rules().filter(|p| p.is_file()) {
        return Ok((read_rules(&user)?, RulesSource::UserConfig(user)));
    }
    Ok((Rules::default(), RulesSource::BuiltIn))
}

pub fn read_rules(path: &Path) -> Result<Rules, RulesFileError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| RulesFileError {
        file: file.clone(),
        position: None,
        message: format!("cannot read the rules file: {e}"),
    })?;
    parse_rules(&text, &file)
}

/// Parses and checks the text of a rules file named `file` (for messages).
pub fn parse_rules(text: &str, file: &str) -> Result<Rules, RulesFileError> {
    let error = |span: Option<std::ops::Range<usize>>, message: String| RulesFileError {
        file: file.to_string(),
        position: span.map(|s| line_col(text, s.start)),
        message,
    };
    let doc = DeTable::parse(text).map_err(|e| {
        let said = e.message().trim();
        let named = e
            .span()
            .and_then(|at| duplicate::duplicate_key(text, said, &at));
        error(e.span(), named.unwrap_or_else(|| said.to_string()))
    })?;
    let schema = serde_json::to_value(Rules::default()).unwrap_or_default();
    check_keys(doc.get_ref(), &schema, "").map_err(|(span, msg)| error(Some(span), msg))?;
    let settings: RuleSettings = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        let entry = e.span().and_then(|span| entry_at(doc.get_ref(), &span));
        let msg = match entry {
            Some((key, value)) => {
                let why = wrong_value(&key, value, &schema).unwrap_or(msg);
                format!("`{key}`: {why}")
            }
            None => msg,
        };
        error(e.span(), msg)
    })?;
    Rules::new(settings).map_err(|e| {
        let span = span_of(doc.get_ref(), e.key);
        error(span, e.to_string())
    })
}

/// Rejects keys the rules do not have, suggesting the nearest one.
fn check_keys(
    table: &DeTable<'_>,
    schema: &serde_json::Value,
    prefix: &str,
) -> Result<(), (std::ops::Range<usize>, String)> {
    let Some(known) = schema.as_object() else {
        return Ok(());
    };
    for (key, value) in table.iter() {
        let name = key.get_ref().as_ref();
        let path = format!("{prefix}{name}");
        let Some(expected) = known.get(name) else {
            let nearest = known
                .keys()
                .map(|k| (strsim::jaro_winkler(name, k), k))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .filter(|(score, _)| *score > 0.7)
                .map(|(_, k)| format!(" (did you mean `{prefix}{k}`?)"))
                .unwrap_or_default();
            let place = if prefix.is_empty() {
                "at the top level".to_string()
            } else {
                format!("in [{}]", prefix.trim_end_matches('.'))
            };
            return Err((key.span(), format!("unknown key `{path}` {place}{nearest}")));
        };
        if let (DeValue::Table(inner), true) = (value.get_ref(), expected.is_object()) {
            check_keys(inner, expected, &format!("{path}."))?;
        }
    }
    Ok(())
}

/// The dotted key whose value covers `span`, and that value, for type
/// errors.
fn entry_at<'a, 'i>(
    table: &'a DeTable<'i>,
    span: &std::ops::Range<usize>,
) -> Option<(String, &'a DeValue<'i>)> {
    let covers = |r: std::ops::Range<usize>| r.start <= span.start && span.end <= r.end;
    for (key, value) in table.iter() {
        let name = key.get_ref().to_string();
        // A table's own span may be just its header, so look inside first.
        if let DeValue::Table(inner) = value.get_ref()
            && let Some((sub, found)) = entry_at(inner, span)
        {
            return Some((format!("{name}.{sub}"), found));
        }
        if covers(value.span()) || covers(key.span()) {
            return Some((name, value.get_ref()));
        }
    }
    None
}

/// Why `value` does not do for `key`, in the reader's words rather than
/// Rust's (no "expected i32"): what the key takes, and what it was given.
/// `schema` is the rules as JSON, which says what each key holds.
fn wrong_value(key: &str, value: &DeValue<'_>, schema: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let takes = match schema.pointer(&format!("/{}", key.replace('.', "/")))? {
        // `losing_score`, unset by default, is the only key that may be null.
        Value::Number(_) | Value::Null => {
            if let DeValue::Integer(n) = value {
                // A whole number that fits no rule's range at all.
                return Some(format!("{n} is out of range"));
            }
            "a whole number".to_string()
        }
        Value::Bool(_) => "true or false".to_string(),
        Value::String(_) => {
            let names: Vec<String> = crate::engine::rules::choices(key)?
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect();
            match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                Some((last, _)) => last.clone(),
                None => return None,
            }
        }
        Value::Object(_) => format!("a table of settings ([{key}])"),
        Value::Array(_) => return None,
    };
    let given = match value {
        DeValue::String(s) => format!("the text {:?}", s.as_ref()),
        DeValue::Integer(n) => n.to_string(),
        DeValue::Float(x) => x.to_string(),
        DeValue::Boolean(b) => b.to_string(),
        DeValue::Datetime(d) => format!("the date {d}"),
        DeValue::Array(_) => "a list".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    };
    Some(format!("expected {takes}, found {given}"))
}

/// Where a dotted key's value is written, if it is.
fn span_of(table: &DeTable<'_>, dotted: &str) -> Option<std::ops::Range<usize>> {
    let (head, rest) = match dotted.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (dotted, None),
    };
    let (_, value) = table.iter().find(|(k, _)| k.get_ref().as_ref() == head)?;
    match (rest, value.get_ref()) {
        (None, _) => Some(value.span()),
        (Some(rest), DeValue::Table(inner)) => span_of(inner, rest),
        _ => None,
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The rules as a complete, commented `rules.toml`: what `spades rules`
/// prints and `spades rules --init` writes. One section a key group, in the
/// order rules-toml.md lists them.
pub fn commented_toml(rules: &Rules) -> String {
    let sections = [
        top_section(rules),
        bags_section(rules),
        nil_section(rules),
        blind_nil_section(rules),
        bidding_section(rules),
        deck_section(rules),
        blind_bid_section(rules),
        boston_section(rules),
        scoring_section(rules),
        play_section(rules),
        game_section(rules),
    ];
    let mut text = String::from(
        "\
# The house rules for spades. Every key is optional; a missing key takes the
# classic game's value. See `spades rules` for the rules in force.
",
    );
    for section in sections {
        text.push('\n');
        text.push_str(&section);
    }
    text
}

fn yes(v: bool) -> &'static str {
    if v { "true" } else { "false" }
}

fn top_section(rules: &Rules) -> String {
    let losing = match rules.losing_score {
        Some(l) => format!("losing_score = {l}"),
        None => "# losing_score = -200".to_string(),
    };
    format!(
        "\
mode = \"{mode}\"  # \"partnership\" (4 seats, 2 sides) | \"cutthroat\" (3 seats, 17 cards, 1 out) | \"individual\" (4 seats, no partners) | \"dummy\" (below)
# With \"dummy\": three players (seats 0-2) and a dummy hand (seat 3), 13 cards each. Players alone deal and
# bid, a team total from 1 to 13 (no nil or blind nil: those keys are ignored). The highest bidder (the earlier
# on a tie) declares: it sees the dummy at once, plays its cards in its turn and must take its bid with it.
# The other two defend with a contract of 13 less that bid, each scoring it on its own score and bags. The
# first bidder leads; the dummy lies face up once the opening lead is down.
target_score = {target}  # the game ends after a hand in which a side reaches this
{losing}  # optional: the game also ends after a hand in which a side is at or below this
",
        mode = rules.mode,
        target = rules.target_score,
    )
}

fn bags_section(rules: &Rules) -> String {
    format!(
        "\
[bags]
limit = {limit}  # each time a side's bag count reaches `limit`...
penalty = {penalty}  # ...the side loses `penalty` points and `limit` comes off the count
",
        limit = rules.bags.limit,
        penalty = rules.bags.penalty,
    )
}

fn nil_section(rules: &Rules) -> String {
    format!(
        "\
[nil]
allowed = {allowed}  # may a player bid nil (take no tricks)?
value = {value}  # won if the nil bidder takes no trick, lost otherwise
failed_tricks_count = {count}  # partnership: a failed nil's (or blind nil's) tricks count toward the partner's contract, and only tricks over it are bags (false: they are all bags)
pass = {pass}  # nil pass: after the bidding a plain-nil bidder whose partner bid a number swaps this many cards with that partner, both at once (0-3; partnership only; 0 = none); beside a blind nil the blind-nil exchange is made instead, and two plain nils swap nothing
",
        allowed = yes(rules.nil.allowed),
        value = rules.nil.value,
        count = yes(rules.nil.failed_tricks_count),
        pass = rules.nil.pass,
    )
}

fn blind_nil_section(rules: &Rules) -> String {
    let b = &rules.blind_nil;
    format!(
        "\
[blind_nil]
allowed = {allowed}  # may a player bid nil before looking at the cards?
value = {value}  # won or lost like nil, for this many points
min_deficit = {deficit}  # only a side trailing the leading other side by at least this at the deal may bid it (0: any side, even one ahead)
one_per_side = {one}  # at most one blind nil per side in a hand
exchange = {exchange}  # cards the blind-nil bidder and partner swap after the bidding, whatever the partner bid (a plain nil too) unless both bid blind nil (partnership only; 0 = none)
",
        allowed = yes(b.allowed),
        value = b.value,
        deficit = b.min_deficit,
        one = yes(b.one_per_side),
        exchange = b.exchange,
    )
}

fn bidding_section(rules: &Rules) -> String {
    let b = &rules.bidding;
    format!(
        "\
[bidding]
forbid_exact_total = {exact}  # the last bidder may not bring the numeric bids' total to exactly the tricks in the hand
min_bid = {min}  # the smallest numeric bid (seen or blind); nil is still nil, as [nil] says
board = {board}  # partnership only: a side's second bidder must bring the side's numeric bids to at least this (a nil adds 0; 0 = no board)
double_at = {double}  # \"10 for 200\": a side whose numeric bids total at least this scores 20 a trick bid, made or set; bags still 1 each (0 = off)
game = \"{game}\"  # \"classic\" | \"mirror\" (everyone bids their spade count, none: nil) | \"suicide\" (partnership: one partner of each side bids nil, the other at least suicide_min) | \"whiz\" (each bids nil or their spade count); no blind bids outside classic
suicide_min = {suicide}  # suicide: the least the non-nil partner bids (or the board, if higher)
",
        exact = yes(b.forbid_exact_total),
        min = b.min_bid,
        board = b.board,
        double = b.double_at,
        game = b.game,
        suicide = b.suicide_min,
    )
}

fn blind_bid_section(rules: &Rules) -> String {
    let b = &rules.blind_bid;
    format!(
        "\
[blind_bid]
allowed = {allowed}  # may a player bid a number of tricks before looking at the cards (\"blind 6\")? classic game only
min = {min}  # the smallest blind bid
min_deficit = {deficit}  # only a side trailing the leading other side by at least this at the deal may bid one (0: any side, even one ahead)
# a side with a blind bid scores its whole contract double, made or set (once, also with double_at)
",
        allowed = yes(b.allowed),
        min = b.min,
        deficit = b.min_deficit,
    )
}

fn boston_section(rules: &Rules) -> String {
    let b = &rules.boston;
    format!(
        "\
[boston]
bonus = {bonus}  # points on top of the contract for a side that bids every trick of the hand and takes them all (0 = none)
wins_game = {wins}  # such a side wins the game at once, whatever the scores (\"moonshot\")
",
        bonus = b.bonus,
        wins = yes(b.wins_game),
    )
}

fn game_section(rules: &Rules) -> String {
    let g = &rules.game;
    format!(
        "\
[game]
kind = \"{kind}\"  # \"standard\": play to target_score | \"quick\": Quick Play, one hand at a time until your side has lost its lives (no target; the run's result is your side's total)
lives = {lives}  # Quick Play: your side's lives; each bid it loses costs one (a set contract; a failed nil, see below)
failed_nil_costs_life = {nil}  # Quick Play: a failed nil or blind nil of your side also costs a life (two lost bids in a hand cost two)
hands = {hands}  # the game also ends after this many hands, the highest score winning (level: another hand); 0 = no limit
",
        kind = word(g.kind),
        lives = g.lives,
        nil = yes(g.failed_nil_costs_life),
        hands = g.hands,
    )
}

/// A text key's value as rules.toml writes it (its serde name).
fn word(value: impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn scoring_section(rules: &Rules) -> String {
    format!(
        "\
[scoring]
overtrick_points = {over}  # points for each trick over the contract: 1 or 0 (each is a bag either way)
set_penalty = \"{set}\"  # \"bid\": a set side loses 10 a trick bid | \"bid_and_short\": and 10 more for each trick short (a doubled contract doubles both: bid 10, took 9 loses 220)
",
        over = rules.scoring.overtrick_points,
        set = word(rules.scoring.set_penalty),
    )
}

fn play_section(rules: &Rules) -> String {
    format!(
        "\
[play]
first_lead = \"{first}\"  # \"dealer_left\": the dealer's left leads | \"two_of_clubs\": the holder of the 2C leads it (cutthroat: of the lowest club dealt)
spades_lead = \"{spades}\"  # \"broken\": no spade lead until a spade is played, unless holding only spades | \"any_time\"
trump_first_trick = {trump}  # false: on the first trick a player void in the suit led plays no spade unless holding only spades
",
        first = word(rules.play.first_lead),
        spades = word(rules.play.spades_lead),
        trump = yes(rules.play.trump_first_trick),
    )
}

fn deck_section(rules: &Rules) -> String {
    format!(
        "\
[deck]
jokers = \"{jokers}\"  # \"none\" (the classic 52 cards) | \"replace_2h_2c\" (the Big and Little Joker replace the 2 of hearts and 2 of clubs: spades rank BJ > LJ > A > K ... > 2) | \"replace_2d_2c\" (the jokers replace the 2 of diamonds and 2 of clubs) | \"deuces_high\" (2H and 2C out, jokers in; trumps from the top: BJ, LJ, 2 of diamonds, 2 of spades, then A, K ... 3 of spades; the 2 of diamonds is a spade in every way)
",
        jokers = rules.deck.jokers,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{FirstLead, Mode, SetPenalty, SpadesLead};

    fn err(text: &str) -> RulesFileError {
        parse_rules(text, "rules.toml").unwrap_err()
    }

    #[test]
    fn empty_file_is_the_classic_game() {
        assert_eq!(parse_rules("", "r").unwrap(), Rules::default());
    }

    #[test]
    fn commented_output_parses_back_to_the_same_rules() {
        let rules = Rules::classic(Mode::Cutthroat)
            .with(|r| {
                r.losing_score = Some(-250);
                r.blind_nil.exchange = 3;
                r.bidding.forbid_exact_total = true;
                r.deck.jokers = crate::engine::Jokers::DeucesHigh;
            })
            .unwrap();
        let house = Rules::default()
            .with(|r| {
                r.nil.failed_tricks_count = true;
                r.scoring.overtrick_points = 0;
                r.scoring.set_penalty = SetPenalty::BidAndShort;
                r.play.first_lead = FirstLead::TwoOfClubs;
                r.play.spades_lead = SpadesLead::AnyTime;
                r.play.trump_first_trick = false;
            })
            .unwrap();
        for r in [Rules::default(), rules, house] {
            assert_eq!(parse_rules(&commented_toml(&r), "r").unwrap(), r);
        }
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let e = err("target_score = 300\n[bags\nlimit = 5\n");
        assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
        assert!(e.to_string().starts_with("rules.toml:2:"), "{e}");
    }

    #[test]
    fn unknown_key_suggests_the_nearest_name() {
        let e = err("target_scor = 300\n");
        assert_eq!(e.position, Some((1, 1)));
        assert!(e.message.contains("did you mean `target_score`"), "{e}");
        let e = err("[bags]\nlimt = 5\n");
        assert_eq!(e.position, Some((2, 1)));
        assert!(e.message.contains("`bags.limt`"), "{e}");
        assert!(e.message.contains("did you mean `bags.limit`"), "{e}");
    }

    #[test]
    fn wrong_type_names_the_key() {
        let e = err("[nil]\nvalue = \"a lot\"\n");
        assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
        assert!(e.message.contains("nil.value"), "{e}");
        let e = err("mode = \"solo\"\n");
        assert!(e.message.contains("mode"), "{e}");
        let e = err("[deck]\njokers = \"three\"\n");
        assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
        assert!(e.message.contains("deck.jokers"), "{e}");
        assert!(e.message.contains("replace_2h_2c"), "{e}");
    }

    /// `text`'s error is on `line` and says `said`, in words a player
    /// knows, never the Rust types and serde terms behind them.
    fn says_plainly(text: &str, line: usize, said: &str) {
        let e = err(text);
        assert_eq!(e.position.map(|p| p.0), Some(line), "{e}");
        assert!(e.message.contains(said), "{text:?}: {e}");
        for rust in ["i32", "u8", "invalid type", "invalid value", "struct"] {
            assert!(!e.message.contains(rust), "{text:?}: {e}");
        }
    }

    #[test]
    fn wrong_type_says_what_the_key_takes_in_plain_words() {
        assert_eq!(
            err("target_score = \"high\"\n").to_string(),
            "rules.toml:1:16: `target_score`: expected a whole number, found the text \"high\""
        );
        assert_eq!(
            err("[nil]\nallowed = \"yes\"\n").to_string(),
            "rules.toml:2:11: `nil.allowed`: expected true or false, found the text \"yes\""
        );
        assert_eq!(
            err("mode = 3\n").to_string(),
            "rules.toml:1:8: `mode`: expected \"partnership\", \"cutthroat\", \"individual\" or \"dummy\", found 3"
        );
    }

    #[test]
    fn a_number_key_says_it_takes_a_whole_number_and_what_it_found() {
        says_plainly(
            "target_score = 1.5\n",
            1,
            "`target_score`: expected a whole number, found 1.5",
        );
        says_plainly(
            "target_score = true\n",
            1,
            "`target_score`: expected a whole number, found true",
        );
        says_plainly(
            "target_score = 1979-05-27\n",
            1,
            "`target_score`: expected a whole number, found the date 1979-05-27",
        );
        says_plainly(
            "losing_score = \"-200\"\n",
            1,
            "`losing_score`: expected a whole number, found the text \"-200\"",
        );
        says_plainly(
            "[bags]\nlimit = [1]\n",
            2,
            "`bags.limit`: expected a whole number, found a list",
        );
        says_plainly(
            "[nil]\nvalue = { a = 1 }\n",
            2,
            "`nil.value`: expected a whole number, found a table",
        );
        says_plainly(
            "[blind_nil]\nexchange = 2.0\n",
            2,
            "`blind_nil.exchange`: expected a whole number, found 2.0",
        );
    }

    #[test]
    fn a_switch_says_it_takes_true_or_false() {
        says_plainly(
            "[blind_nil]\none_per_side = 1\n",
            2,
            "`blind_nil.one_per_side`: expected true or false, found 1",
        );
        says_plainly(
            "[bidding]\nforbid_exact_total = \"no\"\n",
            2,
            "`bidding.forbid_exact_total`: expected true or false",
        );
    }

    #[test]
    fn a_choice_or_a_table_says_what_it_takes() {
        says_plainly(
            "mode = \"solo\"\n",
            1,
            "`mode`: expected \"partnership\", \"cutthroat\", \"individual\" or \"dummy\", found the text \"solo\"",
        );
        says_plainly(
            "bags = 3\n",
            1,
            "`bags`: expected a table of settings ([bags]), found 3",
        );
    }

    #[test]
    fn a_number_out_of_range_says_so_in_plain_words() {
        says_plainly(
            "[blind_nil]\nexchange = -1\n",
            2,
            "`blind_nil.exchange`: -1 is out of range",
        );
        says_plainly(
            "[bags]\npenalty = 3000000000\n",
            2,
            "`bags.penalty`: 3000000000 is out of range",
        );
    }

    #[test]
    fn out_of_range_value_names_key_and_line() {
        let e = err("target_score = 500\n\n[bags]\nlimit = 0\n");
        assert_eq!(e.position.map(|p| p.0), Some(4), "{e}");
        assert!(e.message.contains("bags.limit"), "{e}");
        let e = err("target_score = 300\nlosing_score = 300\n");
        assert!(e.message.contains("losing_score"), "{e}");
        let e = err("[blind_nil]\nexchange = 14\n");
        assert!(e.message.contains("blind_nil.exchange"), "{e}");
        // Values that would make scores overflow are refused, not wrapped.
        for big in ["2000000000", "3000000000"] {
            let e = err(&format!("[bags]\npenalty = {big}\n"));
            assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
            assert!(e.message.contains("bags.penalty"), "{e}");
        }
    }

    #[test]
    fn the_scoring_and_play_keys_are_checked_where_they_are_written() {
        assert_eq!(
            err("[play]\nfirst_lead = \"three_of_clubs\"\n").to_string(),
            "rules.toml:2:14: `play.first_lead`: expected \"dealer_left\" or \"two_of_clubs\", \
             found the text \"three_of_clubs\""
        );
        let e = err("[play]\nspades_lead = \"never\"\n");
        assert!(e.message.contains("\"broken\" or \"any_time\""), "{e}");
        let e = err("[scoring]\nset_penalty = \"double\"\n");
        assert!(e.message.contains("\"bid\" or \"bid_and_short\""), "{e}");
        let e = err("[scoring]\novertrick_points = 2\n");
        assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
        assert!(e.message.contains("scoring.overtrick_points"), "{e}");
        let e = err("mode = \"cutthroat\"\n[nil]\nfailed_tricks_count = true\n");
        assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
        assert!(e.message.contains("nil.failed_tricks_count"), "{e}");
        let e = err("[play]\ntrump_first_trik = false\n");
        assert!(
            e.message.contains("did you mean `play.trump_first_trick`"),
            "{e}"
        );
    }
}
