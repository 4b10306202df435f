use super::*;
use crate::bots::Level;
use crate::engine::score::NilResult;

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
        let before = seat_tallies(mode, &results);
        // Mark a nil the engine scored as made as lost instead: the tally
        // must follow the engine's score, not recount the tricks.
        let nil = nils_of(&mut results).find(|n| n.made()).unwrap();
        nil.tricks = 1;
        let seat = nil.seat.index();
        let after = seat_tallies(mode, &results);
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
