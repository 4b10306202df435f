//! The independent record checker: it passes the records of real games, and
//! it catches errors planted in them. A checker that cannot fail is not one.

use serde_json::{Value, json};
use spades::engine::{Event, Mode, Rules};
use support::checker::{Report, check_record, run_cli};
use support::record::{Played, random_game};

fn short(mode: Mode) -> Rules {
    support::game::short(mode, 200)
}

fn lines(text: &str) -> Vec<Value> {
    support::record::json_lines(text)
}

fn text(lines: &[Value]) -> String {
    support::record::record_text(lines)
}

fn check(lines: &[Value]) -> Report {
    check_record(&text(lines))
}

fn event(v: &Value) -> &str {
    v["event"].as_str().unwrap_or("")
}

/// Index of the first line with this event (line number = index + 1).
fn first(lines: &[Value], name: &str) -> usize {
    lines
        .iter()
        .position(|l| event(l) == name)
        .unwrap_or_else(|| panic!("no `{name}` line"))
}

/// Asserts that the checker reports a problem at `index`'s line mentioning `words`.
fn assert_caught(lines: &[Value], index: usize, words: &str) {
    let report = check(lines);
    assert!(
        report.has(index + 1, words),
        "expected a problem at line {} mentioning {words:?}; got:\n{}",
        index + 1,
        report.describe()
    );
}

/// A finished partnership game, checked clean before any error is planted.
fn clean_game(seed: u64) -> Vec<Value> {
    let game = random_game(short(Mode::Partnership), seed, 500);
    assert!(game.finished);
    let record = game.record();
    let report = check_record(&record);
    assert!(report.is_ok(), "{}", report.describe());
    lines(&record)
}

/// The first seed whose game has a blind-nil exchange.
fn game_with_exchange() -> Played {
    (0..)
        .map(|seed| random_game(short(Mode::Partnership), seed, 500))
        .find(|g| g.events.iter().any(|e| matches!(e, Event::Exchange { .. })))
        .expect("some seed has an exchange")
}

/// Each play line with what its seat held just before it, the suit led
/// to the trick (if it follows) and whether spades were broken.
struct PlaySeen {
    index: usize,
    seat: usize,
    card: String,
    held: Vec<String>,
    led: Option<char>,
    broken: bool,
}

fn plays(lines: &[Value]) -> Vec<PlaySeen> {
    let mut held: Vec<Vec<String>> = Vec::new();
    let mut trick: Vec<String> = Vec::new();
    let mut broken = false;
    let mut seen = Vec::new();
    let cards = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    };
    for (index, l) in lines.iter().enumerate() {
        match event(l) {
            "deal" => {
                held = l["hands"].as_array().unwrap().iter().map(cards).collect();
                broken = false;
                trick.clear();
            }
            "exchange" => {
                let (from, to) = (l["from"].as_u64().unwrap(), l["to"].as_u64().unwrap());
                for c in cards(&l["cards"]) {
                    held[from as usize].retain(|h| *h != c);
                    held[to as usize].push(c);
                }
            }
            "play" => {
                let seat = l["seat"].as_u64().unwrap() as usize;
                let card = l["card"].as_str().unwrap().to_string();
                seen.push(PlaySeen {
                    index,
                    seat,
                    card: card.clone(),
                    held: held[seat].clone(),
                    led: trick.first().map(|c| c.chars().nth(1).unwrap()),
                    broken,
                });
                held[seat].retain(|h| *h != card);
                broken |= card.ends_with('S');
                trick.push(card);
                if trick.len() == held.len() {
                    trick.clear();
                }
            }
            _ => {}
        }
    }
    seen
}

/// Swaps the cards of two play lines by the same seat.
fn swap_cards(lines: &mut [Value], a: usize, b: usize) {
    let card_a = lines[a]["card"].clone();
    lines[a]["card"] = lines[b]["card"].clone();
    lines[b]["card"] = card_a;
}

/// The later play line of `card` by `seat` in the same hand.
fn later_play(seen: &[PlaySeen], after: usize, seat: usize, card: &str) -> usize {
    seen.iter()
        .find(|p| p.index > after && p.seat == seat && p.card == card)
        .expect("the card is played later")
        .index
}

#[test]
fn records_of_random_games_pass_in_every_mode() {
    for mode in Mode::ALL {
        for seed in 0..10 {
            let game = random_game(short(mode), seed, 500);
            let report = check_record(&game.record());
            assert!(report.is_ok(), "{mode} seed {seed}:\n{}", report.describe());
            assert_eq!(report.games, 1);
            let deals = game
                .events
                .iter()
                .filter(|e| matches!(e, Event::Deal { .. }))
                .count();
            assert_eq!(report.hands, deals);
        }
    }
}

#[test]
fn catches_a_wrong_score() {
    let clean = clean_game(1);
    let at = first(&clean, "score");

    let mut bad = clean.clone();
    let points = bad[at]["sides"][0]["points"].as_i64().unwrap();
    bad[at]["sides"][0]["points"] = json!(points + 1);
    assert_caught(&bad, at, "points");

    let mut bad = clean.clone();
    let score = bad[at]["sides"][1]["score"].as_i64().unwrap();
    bad[at]["sides"][1]["score"] = json!(score - 10);
    assert_caught(&bad, at, "score");

    let mut bad = clean.clone();
    let bags = bad[at]["sides"][1]["bags_added"].as_i64().unwrap();
    bad[at]["sides"][1]["bags_added"] = json!(bags + 1);
    assert_caught(&bad, at, "bags_added");

    let mut bad = clean.clone();
    let t0 = bad[at]["tricks"][0].as_i64().unwrap();
    bad[at]["tricks"][0] = json!(t0 + 1);
    assert_caught(&bad, at, "tricks");
}

/// A dummy game's record: the declarer named on each score line, the
/// dummy's tricks scored for the declarer, each defender scoring the
/// defenders' contract, and only players dealing and bidding (no nil).
#[test]
fn catches_wrong_dummy_records() {
    let game = random_game(short(Mode::Dummy), 3, 500);
    let record = game.record();
    let report = check_record(&record);
    assert!(report.is_ok(), "{}", report.describe());
    let clean = lines(&record);
    assert_eq!(clean[0]["dummy"], json!(3));
    let at = first(&clean, "score");
    let declarer = clean[at]["declarer"].as_u64().expect("a declarer") as usize;
    let defender = (declarer + 1) % 3;

    let mut bad = clean.clone();
    bad[at]["declarer"] = json!(defender);
    assert_caught(&bad, at, "declarer");

    // The declarer's line and a defender's swapped: both are wrong unless
    // they happened to score alike.
    let mut bad = clean.clone();
    let (d, o) = (
        clean[at]["sides"][declarer].clone(),
        clean[at]["sides"][defender].clone(),
    );
    if d["points"] != o["points"] {
        bad[at]["sides"][declarer] = o;
        bad[at]["sides"][defender] = d;
        assert_caught(&bad, at, &format!("side {declarer}"));
    }

    // The dummy never bids and nobody bids nil.
    let bid = first(&clean, "bid");
    let mut bad = clean.clone();
    bad[bid]["seat"] = json!(3);
    assert_caught(&bad, bid, "out of turn");
    let mut bad = clean.clone();
    bad[bid]["bid"] = json!("nil");
    assert_caught(&bad, bid, "dummy");

    // The dummy never deals.
    let deal = first(&clean, "deal");
    let mut bad = clean.clone();
    bad[deal]["dealer"] = json!(3);
    assert_caught(&bad, deal, "never deals");
}

#[test]
fn catches_a_card_not_followed_to_the_suit_led() {
    let clean = clean_game(2);
    let seen = plays(&clean);
    // A follower who followed suit while holding a card of another suit.
    let (revoke, other) = seen
        .iter()
        .find_map(|p| {
            let led = p.led?;
            let other = p.held.iter().find(|c| !c.ends_with(led))?;
            p.card.ends_with(led).then(|| (p, other.clone()))
        })
        .expect("someone follows suit holding another suit");
    let mut bad = clean.clone();
    let later = later_play(&seen, revoke.index, revoke.seat, &other);
    swap_cards(&mut bad, revoke.index, later);
    assert_caught(&bad, revoke.index, "must follow");
}

#[test]
fn catches_a_spade_led_before_spades_are_broken() {
    let clean = clean_game(3);
    let seen = plays(&clean);
    let (lead, spade) = seen
        .iter()
        .find_map(|p| {
            let spade = p.held.iter().find(|c| c.ends_with('S'))?;
            (p.led.is_none() && !p.broken && !p.card.ends_with('S')).then(|| (p, spade.clone()))
        })
        .expect("a lead before spades are broken by a seat holding a spade");
    let mut bad = clean.clone();
    let later = later_play(&seen, lead.index, lead.seat, &spade);
    swap_cards(&mut bad, lead.index, later);
    assert_caught(&bad, lead.index, "before spades are broken");
}

#[test]
fn catches_a_card_the_seat_does_not_hold_and_a_card_out_of_turn() {
    let clean = clean_game(4);
    let at = first(&clean, "play");
    let deal = &clean[first(&clean, "deal")];
    let seat = clean[at]["seat"].as_u64().unwrap() as usize;
    let elsewhere = deal["hands"][(seat + 1) % 4][0].clone();
    let mut bad = clean.clone();
    bad[at]["card"] = elsewhere;
    assert_caught(&bad, at, "does not hold");

    let mut bad = clean.clone();
    bad.swap(at, at + 1);
    assert_caught(&bad, at, "out of turn");
}

#[test]
fn catches_a_wrong_trick_winner_and_a_missing_trick_line() {
    let clean = clean_game(5);
    let at = first(&clean, "trick");
    let mut bad = clean.clone();
    let winner = bad[at]["winner"].as_u64().unwrap();
    bad[at]["winner"] = json!((winner + 1) % 4);
    assert_caught(&bad, at, "is won by seat");

    let mut bad = clean.clone();
    bad[at]["trick"] = json!(2);
    assert_caught(&bad, at, "numbered 1");

    let mut bad = clean.clone();
    bad.remove(at);
    assert_caught(&bad, at, "no `trick` line");
}

#[test]
fn catches_a_bad_deal() {
    let clean = clean_game(6);
    let at = first(&clean, "deal");

    // A card dealt twice, so another is missing.
    let mut bad = clean.clone();
    bad[at]["hands"][0][0] = bad[at]["hands"][1][0].clone();
    assert_caught(&bad, at, "dealt elsewhere");
    assert_caught(&bad, at, "missing");

    // Thirteen and twelve cards, with one out of play.
    let mut bad = clean.clone();
    let moved = bad[at]["hands"][2].as_array_mut().unwrap().pop().unwrap();
    bad[at]["out"] = json!([moved]);
    assert_caught(&bad, at, "seat 2 is dealt 12 cards");
    assert_caught(&bad, at, "out of play");

    // The deal must pass one seat clockwise each hand.
    let second = at + 1 + first(&clean[at + 1..], "deal");
    let mut bad = clean.clone();
    let dealer = bad[second]["dealer"].as_u64().unwrap();
    bad[second]["dealer"] = json!((dealer + 2) % 4);
    assert_caught(&bad, second, "deal passes to seat");

    // Hands count from 1, one after another.
    let mut bad = clean.clone();
    bad[second]["hand"] = json!(3);
    assert_caught(&bad, second, "hand 3 follows hand 1");
}

#[test]
fn catches_bids_out_of_order_or_out_of_range() {
    let clean = clean_game(7);
    let at = first(&clean, "bid");
    let mut bad = clean.clone();
    bad.swap(at, at + 1);
    assert_caught(&bad, at, "out of turn");

    for (bid, words) in [
        (json!(14), "not a bid"),
        (json!(0), "written \"nil\""),
        (json!("pass"), "not a bid"),
    ] {
        let mut bad = clean.clone();
        bad[at]["bid"] = bid;
        assert_caught(&bad, at, words);
    }
}

#[test]
fn catches_bids_the_rules_forbid() {
    let clean = clean_game(8);
    let at = first(&clean, "bid");

    // Blind nil needs the side to trail by min_deficit at the deal; at the
    // first deal nobody trails.
    let mut bad = clean.clone();
    bad[at]["bid"] = json!("blind_nil");
    assert_caught(&bad, at, "trailed by 0");

    // With no deficit needed, partners may still not both bid it.
    let mut bad = clean.clone();
    bad[0]["rules"]["blind_nil"]["min_deficit"] = json!(0);
    bad[at]["bid"] = json!("blind_nil");
    bad[at + 2]["bid"] = json!("blind_nil");
    assert!(check(&bad).problems.iter().all(|p| p.line != at + 1));
    assert_caught(&bad, at + 2, "one per side");

    // Nil when the rules turn it off.
    let mut bad = clean.clone();
    bad[0]["rules"]["nil"]["allowed"] = json!(false);
    bad[at]["bid"] = json!("nil");
    assert_caught(&bad, at, "nil is off");

    // The last bid may not make the total exactly 13 under the house rule.
    let mut bad = clean.clone();
    bad[0]["rules"]["bidding"]["forbid_exact_total"] = json!(true);
    let others: u64 = (0..3)
        .map(|k| bad[at + k]["bid"].as_u64().unwrap_or(0))
        .sum();
    assert!(others < 13);
    bad[at + 3]["bid"] = json!(13 - others);
    assert_caught(&bad, at + 3, "exactly 13");
}

#[test]
fn catches_a_wrong_exchange() {
    let game = game_with_exchange();
    let clean = lines(&game.record());
    assert!(check(&clean).is_ok());
    let at = first(&clean, "exchange");

    let mut bad = clean.clone();
    bad[at]["cards"].as_array_mut().unwrap().pop();
    assert_caught(&bad, at, "1 cards passed; the rules say 2");

    // A card from the partner's hand: each side gives from the hand it was dealt.
    let mut bad = clean.clone();
    let to = bad[at]["to"].clone();
    bad[at]["cards"][0] = bad[at + 1]["cards"][0].clone();
    assert_eq!(bad[at + 1]["from"], to);
    assert_caught(&bad, at, "not dealt");

    let mut bad = clean.clone();
    bad[at]["to"] = json!((bad[at]["from"].as_u64().unwrap() + 1) % 4);
    assert_caught(&bad, at, "owes seat");

    // The exchange must come before the first card.
    let mut bad = clean.clone();
    let line = bad.remove(at + 1);
    let play = at + 1 + first(&bad[at + 1..], "play");
    bad.insert(play + 1, line);
    assert_caught(&bad, play, "before the exchange is complete");

    // No exchange without a blind nil calling for one.
    let mut bad = clean_game(9);
    let first_play = first(&bad, "play");
    let from = bad[first_play]["seat"].as_u64().unwrap();
    let card = bad[first_play]["card"].clone();
    let exchange =
        json!({"event":"exchange","hand":1,"from":from,"to":(from + 2) % 4,"cards":[card]});
    bad.insert(first_play, exchange);
    assert_caught(&bad, first_play, "no blind nil calls for one");
}

#[test]
fn catches_a_wrong_or_missing_end() {
    let clean = clean_game(10);
    let end = clean.len() - 1;
    assert_eq!(event(&clean[end]), "end");

    let mut bad = clean.clone();
    let winner = bad[end]["winner"].as_u64().unwrap();
    bad[end]["winner"] = json!(1 - winner);
    assert_caught(&bad, end, "won, not side");

    let mut bad = clean.clone();
    bad[end]["scores"][0] = json!(bad[end]["scores"][0].as_i64().unwrap() + 1);
    assert_caught(&bad, end, "final scores");

    // Decided but no `end`: the deciding score line is reported.
    let mut bad = clean.clone();
    bad.pop();
    assert_caught(&bad, end - 1, "no `end` line");

    // An `end` before the game is decided.
    let mut bad = clean.clone();
    let score = first(&bad, "score");
    bad.insert(score + 1, json!({"event":"end","winner":0,"scores":[0,0]}));
    assert_caught(&bad, score + 1, "not decided");

    // Nothing but a new game after the end.
    let mut bad = clean.clone();
    bad.push(clean[1].clone());
    assert_caught(&bad, end + 1, "after the game was over");
}

/// Format 2: the seed is committed to at the start and revealed at the end.
#[test]
fn catches_a_reveal_that_does_not_match_the_commitment() {
    let clean = clean_game(21);
    let end = clean.len() - 1;
    assert!(clean[0]["commitment"].is_string() && clean[0]["seed"].is_null());

    let mut bad = clean.clone();
    bad[end]["seed"] = json!(clean[end]["seed"].as_u64().unwrap() + 1);
    assert_caught(&bad, end, "do not hash to the commitment");

    let mut bad = clean.clone();
    bad[end]["salt"] = json!("0".repeat(32));
    assert_caught(&bad, end, "do not hash to the commitment");

    let mut bad = clean.clone();
    bad[end].as_object_mut().unwrap().remove("salt");
    assert_caught(&bad, end, "does not reveal the salt");

    let mut bad = clean.clone();
    bad[0]["commitment"] = json!("ab".repeat(32));
    assert_caught(&bad, end, "do not hash to the commitment");

    let mut bad = clean.clone();
    bad[0]["seed"] = clean[end]["seed"].clone();
    assert_caught(&bad, 0, "either the seed");

    let mut bad = clean.clone();
    bad[0]["commitment"] = json!("not hex");
    assert_caught(&bad, 0, "64 lowercase hex");
}

#[test]
fn several_games_in_one_file_and_games_left_undecided() {
    let a = clean_game(11);
    let b = clean_game(12);
    let c = lines(&random_game(short(Mode::Cutthroat), 13, 500).record());
    let mut all = a.clone();
    all.extend(b.clone());
    all.extend(c.clone());
    let report = check(&all);
    assert!(report.is_ok(), "{}", report.describe());
    assert_eq!(report.games, 3);
    let deals = all.iter().filter(|l| event(l) == "deal").count();
    assert_eq!(report.hands, deals);

    // Left mid-hand, with or without an `abandoned` line (revealing the
    // seed, as `end` would have), then a new game.
    let cut = first(&a, "trick") + 3;
    let end = a.last().unwrap();
    for abandoned in [false, true] {
        let mut all = a[..cut].to_vec();
        if abandoned {
            all.push(json!({"event":"abandoned","seed":end["seed"],"salt":end["salt"]}));
        }
        all.extend(b.clone());
        let report = check(&all);
        assert!(report.is_ok(), "{}", report.describe());
        assert_eq!(report.games, 2);
    }

    // A record cut short by a crash is readable up to its last whole line,
    // even when the crash left part of a line behind.
    assert!(check(&a[..cut]).is_ok());
    let mut partial = text(&a[..cut]);
    partial.push_str(&a[cut].to_string()[..10]);
    assert!(check_record(&partial).is_ok());
    partial.push('\n');
    assert!(
        check_record(&partial).has(cut + 1, "not JSON"),
        "a whole bad line"
    );
    assert_eq!(check_record(""), Report::default());

    // A decided game whose `end` is missing cannot be followed by another.
    let mut all = a[..a.len() - 1].to_vec();
    all.extend(b.clone());
    assert_caught(&all, a.len() - 2, "no `end` line");

    // Nor may a decided game be marked abandoned.
    let mut all = a[..a.len() - 1].to_vec();
    all.push(json!({"event":"abandoned"}));
    assert_caught(&all, a.len() - 1, "`end` line is due");
}

#[test]
fn catches_a_bad_header_or_a_bad_line() {
    let clean = clean_game(14);

    let mut bad = clean.clone();
    bad[0]["format"] = json!(3);
    assert_caught(&bad, 0, "format 3");

    let mut bad = clean.clone();
    bad[0]["rules"]["blind_nil"]
        .as_object_mut()
        .unwrap()
        .remove("one_per_side");
    assert_caught(&bad, 0, "blind_nil.one_per_side");

    let mut bad = clean.clone();
    bad[0]["rules"]
        .as_object_mut()
        .unwrap()
        .remove("losing_score");
    assert_caught(&bad, 0, "losing_score");

    // Rules no game can be played with leave the game unchecked.
    let mut bad = clean.clone();
    bad[0]["rules"]["bags"]["limit"] = json!(0);
    assert_caught(&bad, 0, "`bags.limit` must be at least 1");
    assert_eq!(check(&bad).problems.len(), 1);
    let mut bad = clean.clone();
    bad[0]["rules"]["bags"]["penalty"] = json!(i64::MAX);
    assert_caught(&bad, 0, "out of range");

    let mut bad = clean.clone();
    bad[0]["names"].as_array_mut().unwrap().pop();
    assert_caught(&bad, 0, "names");

    let mut bad = clean.clone();
    bad[0]["mode"] = json!("cutthroat");
    assert_caught(&bad, 0, "differ");

    let mut bad = clean.clone();
    bad.remove(0);
    assert_caught(&bad, 0, "before any `game` line");

    let mut text = text(&clean);
    text.insert_str(
        text.find('\n').unwrap() + 1,
        "{\"hand\":1}\nnot json\n[1]\n",
    );
    let report = check_record(&text);
    assert!(report.has(2, "no `event`"), "{}", report.describe());
    assert!(report.has(3, "not JSON"));
    assert!(report.has(4, "not a JSON object"));

    let mut bad = clean.clone();
    bad.insert(2, json!({"event":"shuffle","hand":1}));
    assert_caught(&bad, 2, "unknown event");
}

#[test]
fn readers_ignore_keys_they_do_not_know() {
    let mut lines = clean_game(15);
    for l in &mut lines {
        l["comment"] = json!("added by a later version");
    }
    assert!(check(&lines).is_ok());
}

#[test]
fn the_command_line_reports_each_file_and_exits_by_the_worst() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.jsonl");
    let bad = dir.path().join("bad.jsonl");
    let clean = clean_game(16);
    std::fs::write(&good, text(&clean)).unwrap();
    let mut broken = clean.clone();
    let at = first(&broken, "trick");
    let winner = broken[at]["winner"].as_u64().unwrap();
    broken[at]["winner"] = json!((winner + 1) % 4);
    std::fs::write(&bad, text(&broken)).unwrap();
    let hands = clean.iter().filter(|l| event(l) == "deal").count();

    let run = |paths: &[&std::path::Path]| {
        let args: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let mut out = Vec::new();
        let code = run_cli(&args, &mut out);
        (code, String::from_utf8(out).unwrap())
    };

    let (code, out) = run(&[&good]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        format!("{}: games 1, hands {hands}, errors 0\n", good.display())
    );

    let (code, out) = run(&[&good, &bad]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!(
        "{}:{}: trick 1 is won by seat",
        bad.display(),
        at + 1
    )));

    let missing = dir.path().join("missing.jsonl");
    let (code, out) = run(&[&bad, &missing]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot read"));

    assert_eq!(run(&[]).0, 2);
}
