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
    };
    let weighed: Vec<usize> = std::thread::scope(|scope| {
        let deciders: Vec<_> = (0..8u64)
            .map(|seed| {
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
