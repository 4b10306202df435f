//! The blunder suite: situations where a computer player is known to go
//! wrong, each with what it must (or must not) do. The cases live in
//! `tests/bots/blunders/*.txt`; the format is described at the top of
//! `tests/bots/blunders/play.txt`.
//!
//! Every case is also checked to be able to fail: some legal action must
//! break it, so a careless bot would be caught. Set `BLUNDER_TRACE=1` to
//! see every decision the bots make, and `BLUNDER_CASE=words` to run only
//! the cases whose name holds those words.

mod case;
mod view;

use std::fs;
use std::path::Path;

use spades::bots::{bot_rng, decide};
use spades::engine::{Action, Bid, CardSet, Decision, PlayerView};

use case::{Ask, Case, ask_of, cards, parse_cases};
use view::build_view;

/// Each bot is asked with this many generator seeds, so a bot that slips
/// now and then is caught slipping where it must not (a one-in-ten slip
/// goes unseen in 16 seeds one time in five, in 256 practically never).
const SEEDS: u64 = 256;

/// `hard` searches thousands of deals a decision: an unoptimised build
/// asks it with 16 seeds, and `cargo test --release --test bots blunders` with
/// all of them (how the suite is judged before a change to `hard` lands).
const HARD_SEEDS: u64 = if cfg!(debug_assertions) { 16 } else { SEEDS };

fn seeds_for(level: &str) -> u64 {
    if level == "hard" { HARD_SEEDS } else { SEEDS }
}

/// A bid check: `nil`, `blind`, a number, or a range `A..B`.
fn bid_matches(spec: &str, bid: Bid) -> Result<bool, String> {
    let words: Vec<&str> = spec.split_whitespace().collect();
    for w in words {
        let hit = match w {
            "nil" => bid == Bid::Nil,
            "blind" => bid == Bid::BlindNil,
            w => {
                let (lo, hi) = w.split_once("..").unwrap_or((w, w));
                let lo: u8 = lo
                    .parse()
                    .map_err(|_| format!("`{w}` is not a bid or range"))?;
                let hi: u8 = hi
                    .parse()
                    .map_err(|_| format!("`{w}` is not a bid or range"))?;
                matches!(bid, Bid::Tricks(t) if (lo..=hi).contains(&t))
            }
        };
        if hit {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Does the action pass the case's checks?
fn judge(case: &Case, action: Action) -> Result<bool, String> {
    Ok(match action {
        Action::Play(c) => {
            let ok_must = match case.one("must:") {
                Some(m) => cards(m)?.contains(c),
                None => true,
            };
            let ok_not = match case.one("must-not:") {
                Some(m) => !cards(m)?.contains(c),
                None => true,
            };
            ok_must && ok_not
        }
        Action::Exchange(set) => {
            let ok_must = match case.one("must-pass:") {
                Some(m) => set.is_subset(cards(m)?),
                None => true,
            };
            let ok_not = match case.one("must-not-pass:") {
                Some(m) => set.intersect(cards(m)?).is_empty(),
                None => true,
            };
            ok_must && ok_not
        }
        Action::Bid(b) => judge_bid(case, b)?,
        // Looking passes unless the case demands a blind nil.
        Action::Look => case
            .one("must-bid:")
            .is_none_or(|m| m.split_whitespace().any(|w| w != "blind")),
    })
}

fn judge_bid(case: &Case, b: Bid) -> Result<bool, String> {
    let must = match case.one("must-bid:") {
        Some(m) => bid_matches(m, b)?,
        None => true,
    };
    let not = match case.one("must-not-bid:") {
        Some(m) => !bid_matches(m, b)?,
        None => true,
    };
    Ok(must && not)
}

/// Every action the rules allow here, to show that some break the case
/// and some pass it.
fn legal_actions(view: &PlayerView, ask: Ask) -> Vec<Action> {
    match ask {
        Ask::BlindNil => vec![Action::Bid(Bid::BlindNil), Action::Look],
        Ask::Bid => view.allowed_bids().into_iter().map(Action::Bid).collect(),
        // One card at a time is enough to know some pass breaks a check.
        Ask::Exchange => view
            .cards()
            .iter()
            .map(|c| Action::Exchange(CardSet::single(c)))
            .collect(),
        Ask::Play => view.legal_plays().iter().map(Action::Play).collect(),
    }
}

fn check_legal(view: &PlayerView, ask: Ask, action: Action) -> Result<(), String> {
    match (ask, action) {
        (Ask::BlindNil, Action::Bid(Bid::BlindNil) | Action::Look) => Ok(()),
        (Ask::Bid, Action::Bid(b)) => view.check_bid(b).map_err(|e| e.to_string()),
        (Ask::Exchange, Action::Exchange(set)) => {
            let count = view.exchange.map_or(0, |e| u32::from(e.count));
            if set.len() != count || !set.is_subset(view.cards()) {
                return Err(format!("passed {set}: not {count} cards of the hand"));
            }
            Ok(())
        }
        (Ask::Play, Action::Play(c)) => match view.play_error(c) {
            Some(e) => Err(e.to_string()),
            None => Ok(()),
        },
        _ => Err(format!("answered {action:?} to a {ask:?} decision")),
    }
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/blunders");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/bots/blunders exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("readable case file");
        let name = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        cases.extend(parse_cases(&name, &text));
    }
    cases
}

fn run_case(case: &Case) -> Result<Vec<String>, String> {
    let ask = ask_of(case)?;
    let view = build_view(case, ask)?;
    if case.one("why:").is_none_or(str::is_empty) {
        return Err("say `why:` the case matters".into());
    }
    let actions = legal_actions(&view, ask);
    let mut pass = 0;
    let mut fail = 0;
    for &a in &actions {
        if judge(case, a)? {
            pass += 1;
        } else {
            fail += 1;
        }
    }
    if fail == 0 {
        return Err("no legal action breaks this case: it cannot fail".into());
    }
    if pass == 0 {
        return Err("no legal action passes this case".into());
    }
    let bots: Vec<&str> = case.need("bots:")?.split_whitespace().collect();
    if bots.is_empty() {
        return Err("bots: name at least one bot".into());
    }
    let decision = match ask {
        Ask::BlindNil => Decision::BlindNil,
        Ask::Bid => Decision::Bid,
        Ask::Exchange => Decision::Exchange,
        Ask::Play => Decision::Play,
    };
    let mut failures = Vec::new();
    for name in bots {
        let mut bot = support::bot(name)?;
        for seed in 0..seeds_for(name) {
            let mut rng = bot_rng(seed, view.seat);
            let action = decide(bot.as_mut(), decision, &view, &mut rng);
            if let Err(e) = check_legal(&view, ask, action) {
                failures.push(format!(
                    "{name} (seed {seed}) broke a rule with {action:?}: {e}"
                ));
                break;
            }
            if std::env::var("BLUNDER_TRACE").is_ok() {
                eprintln!("{} {name} {seed}: {action:?}", case.name());
            }
            if !judge(case, action)? {
                failures.push(format!("{name} (seed {seed}) chose {action:?}"));
                break;
            }
        }
    }
    Ok(failures)
}

#[test]
fn bots_avoid_the_known_blunders() {
    let cases = load_cases();
    assert!(
        cases.len() >= 30,
        "the suite has only {} cases",
        cases.len()
    );
    let only = std::env::var("BLUNDER_CASE").ok();
    let mut problems = Vec::new();
    for case in &cases {
        if only
            .as_ref()
            .is_some_and(|w| !case.name().contains(w.as_str()))
        {
            continue;
        }
        match run_case(case) {
            Ok(failures) => {
                for f in failures {
                    problems.push(format!(
                        "{}: {f}\n    guards against: {}",
                        case.name(),
                        case.one("why:").unwrap_or("")
                    ));
                }
            }
            Err(e) => problems.push(format!("{}: bad case: {e}", case.name())),
        }
    }
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

/// The levels the suite judges. `random`, a uniformly random legal card,
/// is the arena's floor and exempt.
const JUDGED: &[&str] = &["easy", "normal", "hard"];

fn judges(case: &Case, level: &str) -> bool {
    case.one("bots:")
        .is_some_and(|b| b.split_whitespace().any(|w| w == level))
}

#[test]
fn every_bot_level_is_covered() {
    let cases = load_cases();
    for &level in JUDGED {
        let n = cases.iter().filter(|c| judges(c, level)).count();
        assert!(n >= 10, "only {n} cases run against {level}");
    }
}

/// A nil lost costs a whole nil's value: no level may be let off one, at
/// the table or in the blind-nil exchange.
#[test]
fn every_level_is_judged_on_nils() {
    let nil_cases = load_cases().into_iter().filter(|c| {
        c.file == "nil.txt"
            || c.fields.contains_key("must-pass:")
            || c.fields.contains_key("must-not-pass:")
    });
    for case in nil_cases {
        for &level in JUDGED {
            assert!(
                judges(&case, level),
                "{} does not judge {level}",
                case.name()
            );
        }
    }
}

#[test]
fn a_random_player_is_caught() {
    // The suite must be able to tell a careless player from a careful one.
    let cases = load_cases();
    let mut bot = support::bot("random").expect("random exists");
    let mut caught = 0;
    for case in &cases {
        let Ok(ask) = ask_of(case) else { continue };
        let Ok(view) = build_view(case, ask) else {
            continue;
        };
        let decision = match ask {
            Ask::BlindNil => Decision::BlindNil,
            Ask::Bid => Decision::Bid,
            Ask::Exchange => Decision::Exchange,
            Ask::Play => Decision::Play,
        };
        let failed = (0..SEEDS).any(|seed| {
            let mut rng = bot_rng(seed, view.seat);
            let action = decide(bot.as_mut(), decision, &view, &mut rng);
            !judge(case, action).unwrap_or(false)
        });
        caught += usize::from(failed);
    }
    assert!(
        caught * 10 >= cases.len() * 8,
        "random play broke only {caught} of {} cases",
        cases.len()
    );
}

#[test]
fn malformed_cases_are_refused() {
    let bad = [
        // Seat 0 is not the next to play: seat 1 led, seat 2 follows.
        "case: x why: y mode: partnership seat: 0 dealer: 0 bids: 3 3 3 3\nhand: 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC\ntrick: 1:AH\nmust: 2C",
        // The hand holds a card already played.
        "case: x why: y mode: partnership seat: 0 dealer: 3 bids: 3 3 3 3\nhand: 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC\ntrick: 0:2C\nmust: 3C",
        // Blind nil is not on offer with level scores.
        "case: x why: y mode: partnership seat: 0 dealer: 3 bids: - - - -\nmust-bid: blind",
    ];
    for text in bad {
        let case = &parse_cases("inline", text)[0];
        let ask = ask_of(case).expect("one kind of check");
        assert!(build_view(case, ask).is_err(), "accepted: {text}");
    }
}
