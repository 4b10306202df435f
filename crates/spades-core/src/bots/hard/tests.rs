use super::blind_nil::subsets;
use super::*;
use rand::RngExt;

#[test]
fn passes_tried_are_every_choice_of_the_pool() {
    let pool: CardSet = "AS KS QH 2C 3D".parse().unwrap();
    let passes = subsets(pool, 2);
    assert_eq!(passes.len(), 10);
    assert!(passes.iter().all(|p| p.len() == 2 && p.is_subset(pool)));
    let distinct: std::collections::BTreeSet<u64> = passes.iter().map(|p| p.bits()).collect();
    assert_eq!(distinct.len(), 10);
}

#[test]
fn a_seeded_weighing_is_the_same_on_any_number_of_threads() {
    let weighed = |threads: usize| {
        let budget = Budget {
            deals: 100,
            until: None,
            threads,
            cancel: Cancel::default(),
            weigh_side_nil: false,
        };
        let mut rng = BotRng::seed_from_u64(9);
        let trials = weigh(budget, 2, &mut rng, |rng, trials| {
            trials.values[0].push(rng.random::<f64>());
            trials.values[1].push(rng.random::<f64>());
        });
        (trials.values, rng.random::<u64>())
    };
    let one = weighed(1);
    assert_eq!(one.0[0].len(), 100);
    assert_eq!(one, weighed(2));
    assert_eq!(one, weighed(7));
}

/// Eight decisions at once, each asking for every core: the process never
/// has more searching at once than its pool's places (today's machine's
/// cores), and each decision still weighs every deal it was given.
#[test]
fn decisions_at_once_share_one_pool_of_workers() {
    let budget = Budget {
        deals: 40 * BLOCK,
        until: None,
        threads: cores().max(4),
        cancel: Cancel::default(),
        weigh_side_nil: false,
    };
    let weighed: Vec<usize> = std::thread::scope(|scope| {
        let deciders: Vec<_> = (0..8u64)
            .map(|seed| {
                let budget = budget.clone();
                scope.spawn(move || {
                    let mut rng = BotRng::seed_from_u64(seed);
                    let trials = weigh(budget, 1, &mut rng, |rng, trials| {
                        std::thread::sleep(Duration::from_micros(200));
                        trials.values[0].push(rng.random::<f64>());
                    });
                    trials.values[0].len()
                })
            })
            .collect();
        deciders.into_iter().map(|d| d.join().unwrap()).collect()
    });
    assert_eq!(weighed, vec![budget.deals as usize; 8]);
    let pool = pool::pool();
    assert_eq!(pool.size(), cores());
    assert!(pool.peak() <= cores(), "{} > {}", pool.peak(), cores());
    assert!(pool.peak() >= 1);
}

/// Trials whose choices came to `values`, deal by deal.
fn trials_of(values: &[&[f64]]) -> Trials {
    let mut trials = Trials::new(values.len());
    for (k, v) in values.iter().enumerate() {
        trials.values[k] = v.to_vec();
    }
    trials
}

#[test]
fn a_ruff_of_the_partners_sure_winner_loses_a_near_tie() {
    // The ruff (choice 0) is a hair better on average, within the noise.
    let ruff = [0.52, 0.48, 0.55, 0.47, 0.51, 0.50, 0.49, 0.53];
    let discard = [0.50, 0.49, 0.53, 0.48, 0.50, 0.51, 0.48, 0.52];
    let worse = [0.30; 8];
    let trials = trials_of(&[&ruff, &discard, &worse]);
    assert!(trials.mean(0) > trials.mean(1));
    assert_eq!(trials.spare(0, |k| k == 0), 1);
    // A choice the partner does not resent is left as it is.
    assert_eq!(trials.spare(1, |k| k == 0), 1);
}

#[test]
fn a_ruff_the_search_is_sure_of_still_stands() {
    // The ruff wins the game a tenth more often on every deal: a gain.
    let ruff = [0.62, 0.58, 0.65, 0.57, 0.61, 0.60, 0.59, 0.63];
    let discard = [0.52, 0.48, 0.55, 0.47, 0.51, 0.50, 0.49, 0.53];
    let trials = trials_of(&[&ruff, &discard]);
    assert_eq!(trials.spare(0, |k| k == 0), 0);
    // With nothing else to play, the ruff stands too.
    assert_eq!(trials.spare(0, |_| true), 0);
}

#[test]
fn a_nil_bidder_ducks_however_sure_the_search_is_of_winning_the_trick() {
    // Winning the trick (choice 0) looks better on every guessed deal, as
    // it does where the search sees defenders who bust the nil anyway.
    let win = [0.62, 0.58, 0.65, 0.57, 0.61, 0.60, 0.59, 0.63];
    let duck = [0.52, 0.48, 0.55, 0.47, 0.51, 0.50, 0.49, 0.53];
    let lower_duck = [0.30; 8];
    let trials = trials_of(&[&win, &duck, &lower_duck]);
    assert_eq!(trials.unbarred(0, |k| k == 0), 1);
    // A choice not barred stands, even below a barred one.
    assert_eq!(trials.unbarred(2, |k| k == 0), 2);
    // With nothing else to play, the barred card stands.
    assert_eq!(trials.unbarred(0, |_| true), 0);
}

/// A blind nil on offer when the side is level: the judge of a review
/// weighs it beside looking, names the player's choice among the ranked
/// ones, and says what `hard` itself chooses there, by the one rule it
/// bids by (the same deals: the bot's own answer).
#[test]
fn the_judge_says_what_the_blind_nil_rule_chooses() {
    use crate::engine::{Game, Mode, Rules, Turn};
    let rules = Rules::classic(Mode::Partnership)
        .with(|r| r.blind_nil.min_deficit = 0)
        .unwrap();
    let game = Game::new(rules, 7);
    let Some(Turn { seat, decision }) = game.to_act() else {
        panic!("someone bids first");
    };
    assert_eq!(decision, Decision::BlindNil);
    let view = game.view(seat);
    assert_eq!(view.hand, None);
    let effort = Effort::Deals(32);
    let rule = blind_or_look(&view, Budget::of(effort), &mut BotRng::seed_from_u64(3))
        .expect("a blind nil on offer is weighed");
    let blind = Action::Bid(Bid::BlindNil);
    for taken in [blind, Action::Look] {
        let judged = judge::judge(
            &view,
            decision,
            taken,
            effort,
            &mut BotRng::seed_from_u64(3),
        )
        .expect("a blind nil on offer is weighed");
        assert_eq!(judged.weighing.chosen, taken);
        let mut tried: Vec<Action> = judged.weighing.ranked.iter().map(|w| w.choice).collect();
        tried.sort_by_key(|a| *a == blind);
        assert_eq!(tried, vec![Action::Look, blind]);
        let rules_choice = if rule.chosen { blind } else { Action::Look };
        assert_eq!(judged.hard_choice, rules_choice);
    }
}

/// A hint nobody waits for any more stops: the block under way finishes,
/// no other starts.
#[test]
fn a_cancelled_weighing_starts_no_more_blocks() {
    let cancel = Cancel::default();
    let budget = Budget {
        deals: 100 * BLOCK,
        until: None,
        threads: 1,
        cancel: cancel.clone(),
        weigh_side_nil: false,
    };
    let mut rng = BotRng::seed_from_u64(3);
    let trials = weigh(budget, 1, &mut rng, |rng, trials| {
        cancel.cancel();
        trials.values[0].push(rng.random::<f64>());
    });
    assert_eq!(trials.values[0].len(), BLOCK as usize);
}

/// Trials of three choices on 100 deals: choice 0 (the usual one) wins
/// half the time, and choices 1 and 2 gain `gains` on average, give or
/// take 0.1 deal for deal: three standard errors for a gain of 0.03.
fn trials_gaining(gains: [f64; 2]) -> trials::Trials {
    let mut trials = trials::Trials::new(3);
    for deal in 0..100 {
        let swing = if deal % 2 == 0 { 0.1 } else { -0.1 };
        trials.values[0].push(0.5);
        trials.values[1].push(0.5 + gains[0] + swing);
        trials.values[2].push(0.5 + gains[1] + swing);
    }
    trials
}

#[test]
fn a_hunt_overrules_on_less_sure_ground_except_for_a_card_that_spoils_it() {
    let game = crate::engine::Game::new(crate::engine::Rules::classic(Mode::Partnership), 1);
    let view = game.view(Seat::new(0));
    // Three standard errors: enough at two, not at four.
    let trials = trials_gaining([0.03, 0.0]);
    assert_eq!(trials.hunt_verdict(0, &view, |_| trials::SURE_HUNT), 1);
    assert_eq!(trials.hunt_verdict(0, &view, |_| trials::SURE), 0);
    // Choice 2 gains more but spoils the hunt (it needs four): the best of
    // those sure enough is choice 1.
    let trials = trials_gaining([0.03, 0.035]);
    let sure = |k: usize| {
        if k == 2 {
            trials::SURE
        } else {
            trials::SURE_HUNT
        }
    };
    assert_eq!(trials.hunt_verdict(0, &view, sure), 1);
    let trials = trials_gaining([0.03, 0.06]);
    assert_eq!(
        trials.hunt_verdict(0, &view, sure),
        2,
        "six standard errors"
    );
}
