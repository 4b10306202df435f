//! The blunder suite: situations where a computer player is known to go
//! wrong, each with what it must (or must not) do. The cases live in
//! `tests/bots/blunders/*.txt`; the format is described at the top of
//! `tests/bots/blunders/play.txt`.
//!
//! Every case is also checked to be able to fail: some legal action must
//! break it, so a careless bot would be caught. Set `BLUNDER_TRACE=1` to
//! see every decision the bots make, and `BLUNDER_CASE=words` to run only
//! the cases whose name holds those words.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use spades::bots::{bot_rng, decide};
use spades::engine::play::beats;
use spades::engine::score::deficit;
use spades::engine::{
    Action, Auction, Bid, Card, CardSet, Decision, ExchangeView, FirstLead, Mode, PerSeat, PerSide,
    Phase, PlayerView, PublicPlay, Rules, Seat, Shown, SideTotals, SpadesLead, Suit, TrickDone,
};

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
struct Case {
    file: String,
    line: usize,
    fields: BTreeMap<&'static str, Vec<String>>,
}

impl Case {
    fn name(&self) -> String {
        format!(
            "{}:{} `{}`",
            self.file,
            self.line,
            self.one("case:").unwrap_or("")
        )
    }

    fn one(&self, key: &str) -> Option<&str> {
        self.fields
            .get(key)
            .and_then(|v| v.last())
            .map(String::as_str)
    }

    fn all(&self, key: &str) -> &[String] {
        self.fields.get(key).map_or(&[], Vec::as_slice)
    }

    fn need(&self, key: &str) -> Result<&str, String> {
        self.one(key).ok_or_else(|| format!("missing `{key}`"))
    }
}

/// Splits the files into cases: a `case:` line starts one; several
/// `key: value` fields may share a line; `#` starts a comment.
fn parse_cases(file: &str, text: &str) -> Vec<Case> {
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

fn cards(s: &str) -> Result<CardSet, String> {
    let set: CardSet = s.parse().map_err(|e| format!("{e}"))?;
    let count = s.split_whitespace().count();
    if set.len() as usize != count {
        return Err(format!("a card is listed twice in `{s}`"));
    }
    Ok(set)
}

fn card(s: &str) -> Result<Card, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn seat_no(s: &str, seats: usize) -> Result<Seat, String> {
    let seat: usize = s.parse().map_err(|_| format!("`{s}` is not a seat"))?;
    if seat >= seats {
        return Err(format!("there is no seat {seat}"));
    }
    Ok(Seat::new(seat))
}

fn parse_bid(s: &str) -> Result<Option<Bid>, String> {
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
enum Ask {
    BlindNil,
    Bid,
    Exchange,
    Play,
}

fn ask_of(case: &Case) -> Result<Ask, String> {
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

/// Builds the seat's view of the situation, checking that it could arise.
fn build_view(case: &Case, ask: Ask) -> Result<PlayerView, String> {
    let mode: Mode = case.one("mode:").unwrap_or("partnership").parse()?;
    let rules: Rules = match case.one("rules:") {
        Some(r) => toml::from_str(&r.replace(';', "\n")).map_err(|e| format!("rules: {e}"))?,
        None => Rules::default(),
    };
    let rules = rules.with(|r| r.mode = mode).map_err(|e| e.to_string())?;
    let n = mode.seats();
    let seat = seat_no(case.need("seat:")?, n)?;
    let dealer = seat_no(case.need("dealer:")?, n)?;

    let mut totals = PerSide::filled(mode, SideTotals::default());
    if let Some(s) = case.one("scores:") {
        let parts: Vec<&str> = s.split_whitespace().collect();
        if parts.len() != mode.sides() {
            return Err(format!(
                "scores: give one score/bags per side ({})",
                mode.sides()
            ));
        }
        for (side, p) in mode.each_side().zip(&parts) {
            let (score, bags) = p.split_once('/').ok_or("scores: write score/bags")?;
            totals[side] = SideTotals {
                score: score.parse().map_err(|_| format!("bad score `{score}`"))?,
                bags: bags.parse().map_err(|_| format!("bad bags `{bags}`"))?,
            };
        }
    }
    let scores = totals.map(|t| t.score);
    let deficits = PerSide::from_fn(mode, |side| deficit(mode, &scores, side));

    let bid_words: Vec<&str> = case.need("bids:")?.split_whitespace().collect();
    if bid_words.len() != n {
        return Err(format!("bids: give one per seat ({n})"));
    }
    let by_seat: Vec<Option<Bid>> = bid_words
        .iter()
        .map(|w| parse_bid(w))
        .collect::<Result<_, _>>()?;
    let by_seat = PerSeat::from_slice(&by_seat).ok_or("bids: none given")?;
    if mode
        .each_seat()
        .any(|s| !mode.is_player(s) && by_seat[s].is_some())
    {
        return Err("bids: the dummy never bids: write `-` for it".into());
    }
    // Bids are made clockwise from the dealer's left: replay that order,
    // which must be a run of bids followed only by seats yet to bid. The
    // dummy (written `-`) never bids.
    let order: Vec<Seat> = (1..=n)
        .map(|k| mode.after(dealer, k))
        .filter(|&s| mode.is_player(s))
        .collect();
    let made: Vec<Bid> = order.iter().map_while(|&s| by_seat[s]).collect();
    if order[made.len()..].iter().any(|&s| by_seat[s].is_some()) {
        return Err("bids: a seat has bid before one to its right".into());
    }

    let hand = match case.one("hand:") {
        Some(h) => Some(cards(h)?),
        None if ask == Ask::BlindNil => None,
        None => return Err("missing `hand:`".into()),
    };
    let not_dealt = hand.unwrap_or_default().minus(rules.deck());
    if !not_dealt.is_empty() {
        return Err(format!("hand: {not_dealt} is not in this game's deck"));
    }

    let mut view = PlayerView {
        seat,
        rules,
        hand_no: 1,
        dealer,
        phase: Phase::Bidding,
        turn: Some(seat),
        hand,
        shown: None,
        auction: Auction::new(rules, dealer, deficits),
        exchange: None,
        play: PublicPlay {
            leader: mode.next_player(dealer),
            turn: mode.next_player(dealer),
            trick: PerSeat::filled(mode, None),
            led: None,
            winning: None,
            spades_broken: false,
            tricks_won: PerSeat::filled(mode, 0),
            tricks_done: 0,
            played: CardSet::EMPTY,
            rules: rules.play,
        },
        tricks: Vec::new(),
        totals,
        last_hand: None,
        winner: None,
        lives_left: None,
    };
    view.replay_bids(&made)?;

    match ask {
        Ask::BlindNil | Ask::Bid => {
            if view.auction.next_bidder() != Some(seat) {
                return Err(format!("bids: seat {seat} is not the next to bid"));
            }
            let hidden = view.auction.cards_hidden(seat);
            if (ask == Ask::BlindNil) != hidden {
                return Err(if hidden {
                    "blind nil is on offer here: the cards are face down, drop `hand:`".into()
                } else {
                    "blind nil is not on offer here: give the `hand:`".into()
                });
            }
            if let Some(h) = hand
                && h.len() as usize != mode.hand_size()
            {
                return Err(format!("hand: a full hand has {} cards", mode.hand_size()));
            }
            return Ok(view);
        }
        Ask::Exchange | Ask::Play => {
            if made.len() != order.len() {
                return Err("bids: every seat must have bid".into());
            }
        }
    }
    let my_hand = hand.unwrap_or_default();

    if ask == Ask::Exchange {
        let partner = mode.partner(seat).ok_or("no exchange without a partner")?;
        let bid = |s: Seat| by_seat[s].unwrap_or(Bid::Nil);
        let count = rules.swap_size(bid(seat), bid(partner));
        if count == 0 {
            return Err(
                "an exchange needs one blind nil (or a nil pass) on this side and cards to swap"
                    .into(),
            );
        }
        if my_hand.len() as usize != mode.hand_size() {
            return Err(format!("hand: a full hand has {} cards", mode.hand_size()));
        }
        view.phase = Phase::Exchange;
        view.exchange = Some(ExchangeView {
            partner,
            count,
            given: None,
            received: None,
        });
        return Ok(view);
    }

    // The play so far: earlier tricks, then the current one.
    view.phase = Phase::Playing;
    let mut seen = my_hand;
    // With a dummy, the hand laid face up: the dummy's, or for the dummy's
    // seat (played by the declarer) the declarer's.
    if let Some(shown) = case.one("shown:") {
        let cards = cards(shown)?;
        let (Some(dummy), Some(declarer)) = (mode.dummy(), view.teams().declarer()) else {
            return Err("shown: only with a dummy, once there is a declarer".into());
        };
        let of = if seat == dummy { declarer } else { dummy };
        if !seen.intersect(cards).is_empty() {
            return Err("shown: a card is also in the hand".into());
        }
        seen |= cards;
        view.shown = Some(Shown { seat: of, cards });
    }
    let shown = view.shown.map_or(CardSet::EMPTY, |s| s.cards);
    let mut add = |c: Card| -> Result<(), String> {
        if seen.contains(c) {
            return Err(format!("{c} appears twice"));
        }
        if !rules.deck().contains(c) {
            return Err(format!("{c} is not in this game's deck"));
        }
        seen.insert(c);
        Ok(())
    };
    let mut leader = first_leader(case, &rules, seat, dealer)?;
    let mut won = PerSeat::filled(mode, 0u8);
    let mut broken = false;
    let mut my_voids = CardSet::EMPTY;
    for line in case.all("played:") {
        let (who, rest) = line
            .split_once(':')
            .ok_or("played: write `leader: cards`")?;
        let first = seat_no(who.trim(), n)?;
        if first != leader {
            return Err(format!(
                "played: seat {leader} leads `{line}`, not seat {first}"
            ));
        }
        let list: Vec<Card> = rest
            .split_whitespace()
            .map(card)
            .collect::<Result<_, _>>()?;
        if list.len() != n {
            return Err(format!("played: a trick has {n} cards: `{line}`"));
        }
        let mut by_seat = PerSeat::filled(mode, None);
        let mut winner = first;
        for (k, &c) in list.iter().enumerate() {
            add(c)?;
            let s = mode.after(first, k);
            by_seat[s] = Some(c);
            if k > 0 && by_seat[winner].is_some_and(|w| beats(c, w)) {
                winner = s;
            }
            if s == seat && k > 0 && c.suit() != list[0].suit() {
                my_voids |= CardSet::of_suit(list[0].suit());
            }
            let spades_free = rules.play.spades_lead == SpadesLead::AnyTime;
            if k == 0 && c.suit() == Suit::Spades && !broken && !spades_free && s == seat {
                return Err(format!(
                    "played: seat {seat} led {c} before spades were broken"
                ));
            }
            broken |= c.suit() == Suit::Spades;
        }
        won[winner] += 1;
        view.tricks.push(TrickDone {
            leader: first,
            cards: by_seat,
            winner,
        });
        leader = winner;
    }
    let done = view.tricks.len();
    let mut trick = PerSeat::filled(mode, None);
    let mut winning = None;
    let mut next = leader;
    if let Some(t) = case.one("trick:") {
        for (k, word) in t.split_whitespace().enumerate() {
            let (who, c) = word.split_once(':').ok_or("trick: write seat:card")?;
            let s = seat_no(who, n)?;
            if s != next {
                return Err(format!("trick: seat {next} plays next, not seat {s}"));
            }
            let c = card(c)?;
            add(c)?;
            trick[s] = Some(c);
            if k == 0
                || winning
                    .and_then(|w: Seat| trick[w])
                    .is_some_and(|w| beats(c, w))
            {
                winning = Some(s);
            }
            broken |= c.suit() == Suit::Spades;
            next = mode.next(s);
        }
    }
    if next != seat {
        return Err(format!("it is seat {next}'s turn, not seat {seat}'s"));
    }
    let expected = mode.hand_size() - done;
    if my_hand.len() as usize != expected {
        return Err(format!(
            "hand: after {done} tricks the seat holds {expected} cards"
        ));
    }
    if !my_hand.intersect(my_voids).is_empty() {
        return Err("hand: holds a suit the seat has shown out of".into());
    }
    if let Some(shown) = view.shown {
        let held = expected - usize::from(trick[shown.seat].is_some());
        if shown.cards.len() as usize != held {
            return Err(format!("shown: seat {} holds {held} cards now", shown.seat));
        }
    }
    let played = seen.minus(my_hand).minus(shown);
    view.turn = Some(seat);
    view.play = PublicPlay {
        leader,
        turn: seat,
        trick,
        led: trick[leader].map(Card::suit),
        winning,
        spades_broken: broken,
        tricks_won: won,
        tricks_done: done,
        played,
        rules: rules.play,
    };
    Ok(view)
}

/// The seat that led the first trick: the dealer's left, or under
/// `first_lead = "two_of_clubs"` the holder of the lowest club, which the
/// case shows by the first trick it gives (or, with none, the seat itself).
fn first_leader(case: &Case, rules: &Rules, seat: Seat, dealer: Seat) -> Result<Seat, String> {
    let mode = rules.mode;
    if rules.play.first_lead != FirstLead::TwoOfClubs {
        return Ok(mode.next_player(dealer));
    }
    let first = case
        .all("played:")
        .first()
        .and_then(|line| line.split_once(':').map(|(who, _)| who.trim().to_string()))
        .or_else(|| {
            case.one("trick:")
                .and_then(|t| t.split_whitespace().next())
                .and_then(|w| w.split_once(':').map(|(who, _)| who.to_string()))
        });
    match first {
        Some(who) => seat_no(&who, mode.seats()),
        None => Ok(seat),
    }
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
