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
