use super::nil_report::{Balance, NilTally};
use super::*;
use crate::bots::Level;
use crate::engine::score::{NilResult, score_hand};
use crate::engine::{Bid, PerSeat, Seat, SideTotals};

#[test]
fn wilson_interval_matches_known_values() {
    // 50 of 100: 0.4038 to 0.5962 (standard tables).
    let [lo, hi] = wilson(50, 100);
    assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
    let [lo, hi] = wilson(0, 10);
    assert_eq!(lo, 0.0);
    assert!((hi - 0.2775).abs() < 1e-3);
}

#[test]
fn games_are_played_at_most_a_window_ahead_of_the_oldest_unfinished() {
    const WINDOW: u32 = 8;
    // (games other than 0 played, furthest game started)
    let state = std::sync::Mutex::new((0, 0));
    let played = std::sync::Condvar::new();
    let play = |index: u32| {
        let mut s = state.lock().unwrap();
        s.1 = s.1.max(index);
        if index == 0 {
            // Game 0 lasts until the other worker has played every game
            // the window allows: WINDOW - 1 of them.
            while s.0 < WINDOW - 1 {
                s = played.wait(s).unwrap();
            }
        } else {
            s.0 += 1;
            played.notify_all();
        }
        index
    };
    let mut taken = Vec::new();
    let mut furthest_ahead = 0;
    play_in_order(40, 2, WINDOW, play, |index, played| {
        assert_eq!(index, played);
        furthest_ahead = furthest_ahead.max(state.lock().unwrap().1 - index);
        taken.push(index);
        Ok::<(), ()>(())
    })
    .unwrap();
    assert_eq!(taken, (0..40).collect::<Vec<_>>());
    assert!(furthest_ahead < WINDOW, "{furthest_ahead} games ahead");
}

/// The hands of a game between normal bots.
fn normal_game_results(mode: Mode, seed: u64) -> Vec<HandResult> {
    let players = (0..mode.players())
        .map(|_| Player::Bot(Level::Normal.bot(bots::Effort::Usual)))
        .collect();
    let mut table = Table::new(Rules::classic(mode), Dealing::Open(seed), players);
    while table.hand_no() <= 20 && table.step_bot().is_some() {}
    table.results().to_vec()
}

/// The engine's score of every nil or blind nil of the game.
fn nils_of(results: &mut [HandResult]) -> impl Iterator<Item = &mut NilResult> {
    results
        .iter_mut()
        .flat_map(|r| {
            r.sides
                .as_mut_slice()
                .iter_mut()
                .flat_map(|s| s.nils.iter_mut())
        })
        .flatten()
}

#[test]
fn nils_made_are_the_engines_verdict() {
    // Nobody bids nil with a dummy.
    for mode in Mode::ALL.into_iter().filter(|m| m.dummy().is_none()) {
        let mut results = (0..)
            .map(|seed| normal_game_results(mode, seed))
            .find(|r| nils_of(&mut r.clone()).any(|n| n.made()))
            .unwrap();
        let before = seat_tallies(&Rules::classic(mode), &results);
        // Mark a nil the engine scored as made as lost instead: the tally
        // must follow the engine's score, not recount the tricks.
        let nil = nils_of(&mut results).find(|n| n.made()).unwrap();
        nil.tricks = 1;
        let seat = nil.seat.index();
        let after = seat_tallies(&Rules::classic(mode), &results);
        assert_eq!(after[seat].nils.0 + 1, before[seat].nils.0, "{mode}");
        assert_eq!(after[seat].nils.1, before[seat].nils.1, "{mode}");
    }
}

fn config(mode: Mode, games: u32, duplicate: bool) -> SimConfig {
    SimConfig {
        rules: Rules::classic(mode),
        games,
        seeds: Seeds::Open(10),
        lineup: Level::ALL[..mode.players()]
            .iter()
            .map(|&l| l.into())
            .collect(),
        duplicate,
        threads: 2,
        max_hands: 2,
        effort: bots::Effort::Usual,
        bot_timeout: crate::table::exec::DEFAULT_TIMEOUT,
    }
}

#[test]
fn in_duplicate_every_seat_of_the_lineup_plays_every_side_of_every_deal() {
    for mode in Mode::ALL {
        let config = config(mode, 3, true);
        let mut seen: BTreeMap<u64, BTreeMap<String, Vec<usize>>> = BTreeMap::new();
        let lineups: Vec<Vec<BotSpec>> = (0..total_games(&config))
            .map(|index| lineup_for(&config, index))
            .collect();
        for (index, lineup) in lineups.iter().enumerate() {
            let seed = dealing_for(&config, index as u32).unwrap().open_seed();
            let deal = seen.entry(seed.unwrap()).or_default();
            for (seat, bot) in mode.each_player().zip(lineup) {
                deal.entry(bot.to_string())
                    .or_default()
                    .push(mode.side_of(seat).index());
            }
        }
        assert_eq!(seen.len(), 3, "{mode}: one seed per deal");
        let every_side: Vec<usize> = (0..mode.sides()).collect();
        for (seed, bots) in seen {
            for (bot, mut sides) in bots {
                sides.sort_unstable();
                assert_eq!(sides, every_side, "{mode}, deal {seed}, bot {bot}");
            }
        }
    }
}

#[test]
fn the_games_counted_are_the_games_played_and_recorded() {
    for mode in Mode::ALL {
        for duplicate in [false, true] {
            let mut config = config(mode, 2, duplicate);
            config.lineup = vec![Level::Random.into(); mode.players()];
            let ticks = std::sync::atomic::AtomicU32::new(0);
            let mut record = Vec::new();
            let report = run(&config, Some(&mut record), &|| {
                ticks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            })
            .unwrap();
            let seatings = if duplicate { mode.sides() as u32 } else { 1 };
            let recorded = crate::record::read_games(&String::from_utf8(record).unwrap())
                .unwrap()
                .len();
            assert_eq!(report.games, 2 * seatings, "{mode}");
            assert_eq!(report.deals, 2, "{mode}");
            assert_eq!(total_games(&config), report.games, "{mode}");
            assert_eq!(ticks.into_inner(), report.games, "{mode}");
            assert_eq!(recorded, report.games as usize, "{mode}");
            let summary = render_table(&report);
            assert!(
                summary.starts_with(&format!("{} games of {mode}", report.games)),
                "{summary}"
            );
        }
    }
}

/// A partnership hand scored by the engine from each seat's bid and tricks,
/// the sides' totals before it being `before` (side 0's, side 1's score).
fn scored_hand(
    rules: &Rules,
    hand: u32,
    before: [i32; 2],
    bids: [Bid; 4],
    tricks: [u8; 4],
) -> HandResult {
    let mode = Mode::Partnership;
    let bids = PerSeat::from_slice(&bids).unwrap();
    let tricks = PerSeat::from_slice(&tricks).unwrap();
    let before = PerSide::from_fn(mode, |side| SideTotals {
        score: before[side.index()],
        bags: 0,
    });
    HandResult {
        hand,
        dealer: Seat::new(0),
        bids,
        declarer: None,
        tricks,
        sides: score_hand(rules, &bids, &tricks, &before),
        lives_left: None,
    }
}

#[test]
fn nils_are_tallied_by_kind_and_tricks_against_bids_by_seat_and_side() {
    use Bid::{BlindNil, Nil, Tricks};
    let rules = Rules::classic(Mode::Partnership);
    // Hand 1, at 0-0: seat 0's nil is made; side 0 bid 5 and took 7;
    // side 1 bid 7 and took 6, and so trails by far more than 100.
    let first = scored_hand(
        &rules,
        1,
        [0, 0],
        [Nil, Tricks(4), Tricks(5), Tricks(3)],
        [0, 4, 7, 2],
    );
    let after = first.sides.map(|s| s.score);
    assert!(after[Side::new(0)] - after[Side::new(1)] >= rules.blind_nil.min_deficit);
    // Hand 2: seat 1's blind nil takes a trick; side 0 bid 7 and took 8.
    let second = scored_hand(
        &rules,
        2,
        [after[Side::new(0)], after[Side::new(1)]],
        [Tricks(3), BlindNil, Tricks(4), Tricks(4)],
        [4, 1, 4, 4],
    );
    let seats = seat_tallies(&rules, &[first, second]);
    let nils = |eligible, bid, made| NilTally {
        eligible,
        bid,
        made,
    };
    let balance = |sum, count| Balance { sum, count };
    assert_eq!(seats[0].plain_nils, nils(2, 1, 1));
    assert_eq!(seats[0].blind_nils, nils(0, 0, 0));
    assert_eq!(seats[0].over_tricks, balance(1, 1), "4 on a bid of 3");
    assert_eq!(seats[0].side_over_tricks, balance(2 + 1, 2));
    assert_eq!(seats[1].plain_nils, nils(2, 0, 0));
    // Only hand 2 was dealt with side 1 trailing.
    assert_eq!(seats[1].blind_nils, nils(1, 1, 0));
    assert_eq!(seats[1].over_tricks, balance(0, 1), "4 on a bid of 4");
    // 6 on 7 in hand 1; in hand 2 the contract is seat 3's alone, 4 on 4
    // (the blind nil's trick is a bag).
    assert_eq!(seats[1].side_over_tricks, balance(-1, 2));
    assert_eq!(seats[2].over_tricks, balance(2, 2));
    assert_eq!(seats[2].blind_nils, nils(0, 0, 0));
    assert_eq!(seats[3].blind_nils, nils(1, 0, 0));
    assert_eq!(seats[3].over_tricks, balance(-1, 2));
    for (seat, t) in seats.iter().enumerate() {
        let by_kind = (
            t.plain_nils.made + t.blind_nils.made,
            t.plain_nils.bid + t.blind_nils.bid,
        );
        assert_eq!(by_kind, t.nils, "seat {seat}");
    }
}

#[test]
fn a_side_trailing_by_exactly_the_minimum_may_bid_blind_nil_and_by_less_may_not() {
    let rules = Rules::classic(Mode::Partnership);
    let min = rules.blind_nil.min_deficit;
    // Each side makes its contract exactly: 70 to side 0, 60 to side 1.
    let bids = [3, 3, 4, 3].map(Bid::Tricks);
    let tricks = [3, 3, 4, 3];
    let blind_eligible = |rules: &Rules, lead: i32| -> Vec<u32> {
        let first = scored_hand(rules, 1, [lead - 10, 0], bids, tricks);
        let second = scored_hand(rules, 2, [0, 0], bids, tricks);
        seat_tallies(rules, &[first, second])
            .iter()
            .map(|t| t.blind_nils.eligible)
            .collect()
    };
    // Side 1 (seats 1 and 3) trails by `lead` at hand 2's deal.
    assert_eq!(blind_eligible(&rules, min), [0, 1, 0, 1]);
    assert_eq!(blind_eligible(&rules, min - 1), [0, 0, 0, 0]);
    let no_blind = rules.with(|r| r.blind_nil.allowed = false).unwrap();
    assert_eq!(blind_eligible(&no_blind, min), [0, 0, 0, 0]);
    let no_nil = rules.with(|r| r.nil.allowed = false).unwrap();
    let first = scored_hand(&no_nil, 1, [0, 0], bids, tricks);
    assert!(
        seat_tallies(&no_nil, &[first])
            .iter()
            .all(|t| t.plain_nils.eligible == 0)
    );
}

#[test]
fn with_a_dummy_only_the_sides_contracts_count_tricks_against_bids() {
    let results = normal_game_results(Mode::Dummy, 3);
    let seats = seat_tallies(&Rules::classic(Mode::Dummy), &results);
    for t in &seats {
        assert_eq!(t.over_tricks.count, 0);
        assert_eq!(t.side_over_tricks.count, results.len() as u32);
        assert_eq!((t.plain_nils.eligible, t.blind_nils.eligible), (0, 0));
    }
}

#[test]
fn nils_by_kind_add_up_to_all_nils_over_real_games() {
    for mode in Mode::ALL.into_iter().filter(|m| m.dummy().is_none()) {
        let rules = Rules::classic(mode);
        for seed in 0..3 {
            let results = normal_game_results(mode, seed);
            for t in seat_tallies(&rules, &results) {
                let (plain, blind) = (t.plain_nils, t.blind_nils);
                assert_eq!(
                    (plain.made + blind.made, plain.bid + blind.bid),
                    t.nils,
                    "{mode}"
                );
                assert_eq!(plain.eligible, results.len() as u32, "{mode}");
                assert!(
                    plain.bid <= plain.eligible && blind.bid <= blind.eligible,
                    "{mode}"
                );
                // Every hand the seat bid a number or a nil.
                assert_eq!(
                    t.over_tricks.count + t.nils.1,
                    results.len() as u32,
                    "{mode}"
                );
            }
        }
    }
}

#[test]
fn a_run_of_normal_bots_reports_consistent_nil_and_bags_figures() {
    let mode = Mode::Partnership;
    let mut config = config(mode, 3, false);
    config.lineup = vec![Level::Normal.into(); mode.players()];
    config.max_hands = 40;
    let report = run(&config, None, &|| {}).unwrap();
    let [bot] = report.bots.as_slice() else {
        panic!("one bot in every seat: {:?}", report.bots)
    };
    let n = bot.nil_figures;
    let seat_hands = 4 * report.hands as u32;
    assert_eq!(n.plain_nil_bids + n.blind_nil_bids, bot.nil_bids);
    assert_eq!(n.plain_nils_made + n.blind_nils_made, bot.nils_made);
    assert_eq!(n.nil_eligible, seat_hands);
    assert!(n.blind_nil_eligible <= seat_hands && n.blind_nil_bids <= n.blind_nil_eligible);
    assert!(n.plain_nils_made <= n.plain_nil_bids && n.plain_nil_bids <= n.nil_eligible);
    assert_eq!(n.seat_bids + bot.nil_bids, seat_hands);
    // Both sides are its own, each counted once a hand it had a contract.
    assert!(n.side_contracts <= 2 * report.hands as u32 && n.side_contracts > 0);
    let per_100 = n.nils_per_100.unwrap();
    assert!((per_100 - 100.0 * f64::from(n.plain_nil_bids) / f64::from(seat_hands)).abs() < 1e-9);
    let table = render_table(&report);
    let line = table
        .lines()
        .skip_while(|l| *l != "Nil and bags")
        .find(|l| l.starts_with("normal "))
        .unwrap_or_else(|| panic!("{table}"));
    let made = format!("{}/{}", n.plain_nils_made, n.plain_nil_bids);
    assert_eq!(
        line.split_whitespace().nth(2),
        Some(made.as_str()),
        "{table}"
    );
}
