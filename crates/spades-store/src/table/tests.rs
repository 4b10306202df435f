use super::*;
use crate::bots::random::RandomBot;
use crate::engine::{Mode, RuleSettings, Rules};

fn short(mode: Mode) -> Rules {
    // Random bots rarely make contracts: a short game with a losing
    // score ends either way.
    Rules::new(RuleSettings {
        target_score: 150,
        losing_score: Some(-150),
        ..RuleSettings::classic(mode)
    })
    .expect("valid rules")
}

fn bots(mode: Mode) -> Vec<Player> {
    (0..mode.players())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect()
}

#[test]
fn random_bots_finish_a_game_in_every_mode() {
    for mode in Mode::ALL {
        for seed in 0..20 {
            let mut table = Table::new(short(mode), Dealing::Open(seed), bots(mode));
            table.run_bots().unwrap();
            assert_eq!(table.phase(), Phase::Over, "{mode} seed {seed}");
            assert!(table.winner().is_some());
        }
    }
}

#[test]
fn a_human_seat_hears_only_what_it_may_see() {
    let mode = Mode::Partnership;
    let mut players = bots(mode);
    players[0] = Player::Human;
    let mut table = Table::new(short(mode), Dealing::secret().unwrap(), players);
    assert!(table.revealed().is_none());
    let you = Seat::new(0);
    let first = table.take_events(you);
    assert!(matches!(first[..], [SeatEvent::Dealt { hand: 1, .. }]));
    table.run_bots().unwrap();
    let turn = table.human_turn().expect("the human's turn");
    let view = table.view(you);
    let action = match turn.decision {
        Decision::BlindNil => Action::Look,
        Decision::Bid => Action::Bid(view.allowed_bids()[0]),
        Decision::Exchange | Decision::Play => unreachable!("bidding comes first"),
    };
    table.act(you, action).unwrap();
    // Bots never see a human seat's inbox, and bots get no inbox.
    assert!(table.take_events(Seat::new(1)).is_empty());
}
