use super::*;

#[test]
fn keys_that_mean_nothing_with_a_dummy_are_refused() {
    let dummy = Rules::classic(Mode::Dummy);
    let refused = |change: fn(&mut RuleSettings)| dummy.with(change).unwrap_err().key;
    assert_eq!(
        refused(|r| r.bidding.forbid_exact_total = true),
        "bidding.forbid_exact_total"
    );
    assert_eq!(
        refused(|r| r.bidding.game = BiddingGame::Mirror),
        "bidding.game"
    );
    assert_eq!(refused(|r| r.blind_bid.allowed = true), "blind_bid.allowed");
    assert_eq!(
        refused(|r| r.play.first_lead = FirstLead::TwoOfClubs),
        "play.first_lead"
    );
    assert_eq!(refused(|r| r.nil.pass = 2), "nil.pass");
    assert!(dummy.with(|r| r.deck.jokers = Jokers::DeucesHigh).is_ok());
}

#[test]
fn the_mode_choices_are_every_mode() {
    let names: Vec<String> = Mode::ALL.iter().map(|m| m.to_string()).collect();
    assert_eq!(choices("mode").unwrap(), names);
}

#[test]
fn the_bidding_game_choices_are_every_game() {
    let names: Vec<&str> = BiddingGame::ALL.iter().map(|g| g.name()).collect();
    assert_eq!(choices("bidding.game").unwrap(), names);
    for game in BiddingGame::ALL {
        let json = serde_json::to_string(&game).unwrap();
        assert_eq!(json, format!("\"{game}\""));
    }
}

#[test]
fn the_bidding_keys_default_off() {
    let r = Rules::default();
    assert_eq!(
        (r.bidding.min_bid, r.bidding.board, r.bidding.double_at),
        (1, 0, 0)
    );
    assert_eq!(r.bidding.game, BiddingGame::Classic);
    assert!(!r.blind_bid.allowed && !r.boston.wins_game);
    assert_eq!((r.boston.bonus, r.nil.pass), (0, 0));
}

#[test]
fn the_jokers_choices_are_every_deck() {
    let names: Vec<&str> = Jokers::ALL.iter().map(|j| j.name()).collect();
    assert_eq!(choices("deck.jokers").unwrap(), names);
    let json = r#"{"deck":{"jokers":"deuces_high"}}"#;
    let rules: Rules = serde_json::from_str(json).unwrap();
    assert_eq!(rules.deck.jokers, Jokers::DeucesHigh);
    assert!(serde_json::from_str::<Rules>(r#"{"deck":{"jokers":"three"}}"#).is_err());
}

#[test]
fn defaults_are_the_classic_game() {
    let r = Rules::default();
    assert_eq!(r.target_score, 500);
    assert_eq!((r.bags.limit, r.bags.penalty), (10, 100));
    assert_eq!((r.nil.allowed, r.nil.value), (true, 100));
    assert_eq!(r.blind_nil.value, 200);
    assert_eq!(r.blind_nil.min_deficit, 100);
    assert!(r.blind_nil.one_per_side);
    assert_eq!(r.blind_nil.exchange, 2);
    assert!(!r.bidding.forbid_exact_total);
    assert_eq!(r.scoring.overtrick_points, 1);
    assert_eq!(r.scoring.set_penalty, SetPenalty::Bid);
    assert!(!r.nil.failed_tricks_count);
    assert_eq!(r.play.first_lead, FirstLead::DealerLeft);
    assert_eq!(r.play.spades_lead, SpadesLead::Broken);
    assert!(r.play.trump_first_trick);
    assert_eq!(r.deck.jokers, Jokers::None);
    assert_eq!(r.deck(), CardSet::DECK);
    assert_eq!(Rules::new(r.settings()), Ok(r));
}

fn refused(change: impl FnOnce(&mut RuleSettings)) -> &'static str {
    Rules::default().with(change).unwrap_err().key
}

#[test]
fn out_of_range_values_name_their_key() {
    assert_eq!(refused(|r| r.bags.limit = 0), "bags.limit");
    assert_eq!(refused(|r| r.losing_score = Some(500)), "losing_score");
    assert_eq!(refused(|r| r.blind_nil.exchange = 14), "blind_nil.exchange");
    assert_eq!(refused(|r| r.target_score = 0), "target_score");
    assert_eq!(refused(|r| r.game.lives = 0), "game.lives");
    assert_eq!(refused(|r| r.game.hands = MAX_HANDS + 1), "game.hands");
    assert_eq!(
        refused(|r| r.scoring.overtrick_points = 2),
        "scoring.overtrick_points"
    );
    assert_eq!(
        refused(|r| r.scoring.overtrick_points = -1),
        "scoring.overtrick_points"
    );
}

#[test]
fn a_failed_nils_tricks_need_a_partner() {
    for mode in [Mode::Cutthroat, Mode::Individual] {
        let e = Rules::classic(mode)
            .with(|r| r.nil.failed_tricks_count = true)
            .unwrap_err();
        assert_eq!(e.key, "nil.failed_tricks_count");
        assert!(e.problem.contains("no partners"), "{e}");
    }
    let partnership = Rules::default().with(|r| r.nil.failed_tricks_count = true);
    assert!(partnership.is_ok());
}

#[test]
fn the_scoring_and_play_keys_read_their_words() {
    let json = r#"{"scoring":{"overtrick_points":0,"set_penalty":"bid_and_short"},
        "nil":{"failed_tricks_count":true},
        "play":{"first_lead":"two_of_clubs","spades_lead":"any_time","trump_first_trick":false}}"#;
    let rules: Rules = serde_json::from_str(json).unwrap();
    assert_eq!(rules.scoring.set_penalty, SetPenalty::BidAndShort);
    assert_eq!(rules.play.first_lead, FirstLead::TwoOfClubs);
    assert_eq!(rules.play.spades_lead, SpadesLead::AnyTime);
    assert!(!rules.play.trump_first_trick);
    let json = serde_json::to_value(rules).unwrap();
    assert_eq!(json["play"]["first_lead"], "two_of_clubs");
    assert_eq!(json["scoring"]["set_penalty"], "bid_and_short");
    for (key, value) in [
        ("scoring.set_penalty", "bid_and_short"),
        ("play.first_lead", "two_of_clubs"),
        ("play.spades_lead", "any_time"),
    ] {
        assert!(choices(key).unwrap().contains(&value), "{key}");
    }
}

#[test]
fn every_number_has_an_upper_bound() {
    assert_eq!(refused(|r| r.target_score = MAX_POINTS + 1), "target_score");
    assert_eq!(refused(|r| r.bags.penalty = i32::MAX), "bags.penalty");
    assert_eq!(refused(|r| r.bags.limit = MAX_BAG_LIMIT + 1), "bags.limit");
    assert_eq!(refused(|r| r.nil.value = MAX_POINTS + 1), "nil.value");
    assert_eq!(refused(|r| r.blind_nil.value = i32::MAX), "blind_nil.value");
    assert_eq!(
        refused(|r| r.blind_nil.min_deficit = i32::MAX),
        "blind_nil.min_deficit"
    );
    assert_eq!(refused(|r| r.losing_score = Some(i32::MIN)), "losing_score");
    let largest = Rules::default().with(|r| {
        r.target_score = MAX_POINTS;
        r.losing_score = Some(-MAX_POINTS);
        r.bags.penalty = MAX_POINTS;
        r.nil.value = MAX_POINTS;
        r.blind_nil.value = MAX_POINTS;
    });
    assert!(largest.is_ok());
}

#[test]
fn rules_read_from_json_are_checked_and_ignore_unknown_keys() {
    let json =
        r#"{"target_score":300,"house_rule_of_the_future":true,"bags":{"limit":5,"colour":"red"}}"#;
    let rules: Rules = serde_json::from_str(json).unwrap();
    assert_eq!((rules.target_score, rules.bags.limit), (300, 5));
    let bad = serde_json::from_str::<Rules>(r#"{"bags":{"penalty":3000000000}}"#);
    assert!(bad.is_err());
    let bad = serde_json::from_str::<Rules>(r#"{"bags":{"limit":0}}"#).unwrap_err();
    assert!(bad.to_string().contains("bags.limit"), "{bad}");
}
