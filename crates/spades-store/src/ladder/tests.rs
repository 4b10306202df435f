//! The store's tests. Those in `store_keeps_its_word` take any `Store`, so
//! that the SQLite store (`sqlite_tests`) and the PostgreSQL store
//! (`postgres_tests`) run the very same ones; a build without one refuses
//! it by name.

use super::keys::{Identity, ServerId};
use super::store::{AccountId, Occupant, RecordHash, Store, StoreError};
use super::test_accounts::{NOW, SERVER, join, signed};
use super::*;
use crate::bots::Level;
use crate::engine::Mode;

/// A partnership game between two players' sides, bots as partners.
fn partnership(record: u8, winner: AccountId, loser: AccountId, finished: i64) -> FinishedGame {
    FinishedGame {
        mode: Mode::Partnership,
        record: RecordHash([record; 32]),
        finished: UnixTime(finished),
        seats: vec![
            (Occupant::Player(winner), 500, false),
            (Occupant::Player(loser), 200, false),
            (Occupant::Bot(Level::Normal), 500, false),
            (Occupant::Bot(Level::Normal), 200, false),
        ],
    }
}

/// Every test a store must pass, on a fresh store from `fresh` each.
pub(crate) fn store_keeps_its_word<S: Store>(mut fresh: impl FnMut() -> S) {
    registers_and_signs_in(&mut fresh());
    refuses_forged_replayed_and_expired_answers(&mut fresh());
    refuses_taken_look_alike_and_bot_names(&mut fresh());
    rotates_a_key(&mut fresh());
    ranks_the_ladder_and_keeps_a_history(&mut fresh());
    records_a_game_whole_or_not_at_all(&mut fresh());
    provisional_until_the_deviation_narrows(&mut fresh());
    super::farming_tests::every_test(fresh);
}

fn registers_and_signs_in<S: Store>(store: &mut S) {
    let (identity, account) = join(store, "  Ada\u{202E} ");
    assert_eq!(account.name.shown(), "Ada");
    let answer = signed(store, &identity);
    let back = sign_in(store, &SERVER, &answer, NOW).expect("signed in");
    assert_eq!(back, account);
    assert_eq!(store.account_by_name("ADA").expect("read"), Some(account));
    // A key with no account signs well, and is told to register.
    let stranger = Identity::generate().expect("a key");
    let answer = signed(store, &stranger);
    assert!(matches!(
        sign_in(store, &SERVER, &answer, NOW),
        Err(LadderError::NoAccount)
    ));
    let answer = signed(store, &identity);
    assert!(matches!(
        register(store, &SERVER, "Ada Again", &answer, NOW),
        Err(LadderError::Store(StoreError::KeyTaken))
    ));
}

fn refuses_forged_replayed_and_expired_answers<S: Store>(store: &mut S) {
    let (identity, _) = join(store, "Ada");
    let other = Identity::generate().expect("a key");
    // Signed by another key, claiming Ada's.
    let mut forged = signed(store, &other);
    forged.key = identity.public_key();
    assert!(matches!(
        sign_in(store, &SERVER, &forged, NOW),
        Err(LadderError::BadSignature)
    ));
    // One byte of a good signature flipped.
    let mut flipped = signed(store, &identity);
    let mut bytes = *flipped.signature.as_bytes();
    bytes[0] ^= 0x80;
    flipped.signature = keys::Signature::from_bytes(&bytes).expect("64 bytes");
    assert!(matches!(
        sign_in(store, &SERVER, &flipped, NOW),
        Err(LadderError::BadSignature)
    ));
    // A good answer works once; played again, it is refused.
    let answer = signed(store, &identity);
    sign_in(store, &SERVER, &answer, NOW).expect("the first time");
    assert!(matches!(
        sign_in(store, &SERVER, &answer, NOW),
        Err(LadderError::Store(StoreError::UnknownChallenge))
    ));
    // A forged answer spent its challenge too: the good one comes late.
    let good = identity.answer(&keys::Challenge {
        server: SERVER,
        nonce: forged.nonce,
        expires: NOW,
    });
    assert!(sign_in(store, &SERVER, &good, NOW).is_err());
    // Answered too late.
    let late = signed(store, &identity);
    assert!(matches!(
        sign_in(store, &SERVER, &late, NOW.plus(CHALLENGE_SECONDS + 1)),
        Err(LadderError::Store(StoreError::ExpiredChallenge))
    ));
    // Given by another server.
    let elsewhere = signed(store, &identity);
    assert!(sign_in(store, &ServerId([6; 32]), &elsewhere, NOW).is_err());
}

fn refuses_taken_look_alike_and_bot_names<S: Store>(store: &mut S) {
    join(store, "Alice");
    for twin in [
        "Alice",
        "ALICE",
        "\u{410}lice",
        "al ice",
        "A1ice",
        "Ａｌｉｃｅ",
    ] {
        let identity = Identity::generate().expect("a key");
        let answer = signed(store, &identity);
        let refused = register(store, &SERVER, twin, &answer, NOW);
        assert!(
            matches!(refused, Err(LadderError::Store(StoreError::NameTaken(_)))),
            "{twin:?}: {refused:?}"
        );
    }
    for bot in ["Bot 2", "hard", "North"] {
        let identity = Identity::generate().expect("a key");
        let answer = signed(store, &identity);
        let refused = register(store, &SERVER, bot, &answer, NOW);
        assert!(
            matches!(refused, Err(LadderError::Name(_))),
            "{bot:?}: {refused:?}"
        );
        // The name was refused before the challenge was spent.
        register(store, &SERVER, &format!("{bot}x"), &answer, NOW).expect("another name");
    }
}

fn rotates_a_key<S: Store>(store: &mut S) {
    let (old, account) = join(store, "Ada");
    let new = Identity::generate().expect("a key");
    let stranger = Identity::generate().expect("a key");
    // Only the old key may sign its rotation.
    let mut forged = stranger.rotate_to(&stranger.public_key());
    forged.old = old.public_key();
    assert!(matches!(
        rotate(store, &forged, NOW),
        Err(LadderError::BadSignature)
    ));
    let moved = rotate(store, &old.rotate_to(&new.public_key()), NOW).expect("rotated");
    assert_eq!(moved.id, account.id);
    let answer = signed(store, &new);
    assert_eq!(
        sign_in(store, &SERVER, &answer, NOW).expect("new key").id,
        account.id
    );
    let answer = signed(store, &old);
    assert!(matches!(
        sign_in(store, &SERVER, &answer, NOW),
        Err(LadderError::NoAccount)
    ));
}

fn ranks_the_ladder_and_keeps_a_history<S: Store>(store: &mut S) {
    let (_, ada) = join(store, "Ada");
    let (_, bea) = join(store, "Bea");
    let (_, cyd) = join(store, "Cyd");
    let (_, abe) = join(store, "Abe");
    rate_game(store, &partnership(1, ada.id, bea.id, 10)).expect("rated");
    rate_game(store, &partnership(2, ada.id, cyd.id, 20)).expect("rated");
    // Abe beats Bea as Ada did: the same rating as Ada after one game, but
    // Ada has two.
    rate_game(store, &partnership(3, abe.id, bea.id, 30)).expect("rated");
    let ladder = store.ladder(Mode::Partnership).expect("the ladder");
    let names: Vec<&str> = ladder.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ada", "Abe", "Cyd", "Bea"], "{ladder:?}");
    assert_eq!(
        ladder.iter().map(|r| r.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    assert_eq!(ladder[0].games, 2);
    assert!(
        ladder
            .windows(2)
            .all(|w| w[0].rating.rating >= w[1].rating.rating)
    );
    assert!(store.ladder(Mode::Cutthroat).expect("empty").is_empty());
    let history = store.history(ada.id, Mode::Partnership).expect("history");
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].finished, UnixTime(10));
    assert_eq!(history[1].before, history[0].after);
    assert_eq!(
        store
            .standing(ada.id, Mode::Partnership)
            .expect("standing")
            .rating,
        history[1].after
    );
    assert!(
        store
            .history(ada.id, Mode::Individual)
            .expect("none")
            .is_empty()
    );
    // Ties by name: two new players who each won one game alike.
    let ties = two_equal_winners(store);
    assert_eq!(ties, ["Dee", "Eve"]);
}

/// Two new players who each beat the same bots: equal ratings, listed by
/// name.
fn two_equal_winners<S: Store>(store: &mut S) -> Vec<String> {
    let (_, eve) = join(store, "Eve");
    let (_, dee) = join(store, "Dee");
    for (record, player) in [(10, eve.id), (11, dee.id)] {
        let game = FinishedGame {
            mode: Mode::Individual,
            record: RecordHash([record; 32]),
            finished: UnixTime(50),
            seats: vec![
                (Occupant::Player(player), 500, false),
                (Occupant::Bot(Level::Easy), 200, false),
                (Occupant::Bot(Level::Easy), 200, false),
                (Occupant::Bot(Level::Easy), 200, false),
            ],
        };
        rate_game(store, &game).expect("rated");
    }
    let ladder = store.ladder(Mode::Individual).expect("ladder");
    assert_eq!(ladder[0].rating, ladder[1].rating);
    ladder.into_iter().map(|r| r.name).collect()
}

fn records_a_game_whole_or_not_at_all<S: Store>(store: &mut S) {
    let (_, ada) = join(store, "Ada");
    let (_, bea) = join(store, "Bea");
    // The seats are written after the game's row: a seat for an account
    // that does not exist fails there, and the game's row goes with it.
    let mut broken = partnership(7, ada.id, bea.id, 10);
    broken.seats[2].0 = Occupant::Player(AccountId(9_999));
    let refused = rate_game(store, &broken);
    assert!(matches!(refused, Err(LadderError::Store(_))), "{refused:?}");
    assert!(
        store
            .history(ada.id, Mode::Partnership)
            .expect("read")
            .is_empty()
    );
    assert!(store.ladder(Mode::Partnership).expect("read").is_empty());
    let standing = store.standing(ada.id, Mode::Partnership).expect("read");
    assert_eq!(standing.games, 0);
    // The same record, whole this time: its hash was not kept either.
    let whole = partnership(7, ada.id, bea.id, 10);
    rate_game(store, &whole).expect("rated");
    assert!(matches!(
        rate_game(store, &whole),
        Err(LadderError::Store(StoreError::AlreadyRated))
    ));
    assert_eq!(
        store
            .history(ada.id, Mode::Partnership)
            .expect("read")
            .len(),
        1
    );
    // A change worked from an old rating is refused whole.
    let mut game = store::RatedGame {
        mode: Mode::Partnership,
        record: RecordHash([8; 32]),
        finished: UnixTime(20),
        seats: Vec::new(),
        changes: vec![store::RatingChange {
            account: ada.id,
            games_before: 0,
            before: crate::rating::Rating::new_player(),
            after: crate::rating::Rating::new_player(),
        }],
    };
    assert!(matches!(store.record_game(&game), Err(StoreError::Stale)));
    game.changes[0].games_before = 1;
    store.record_game(&game).expect("fresh");
}

fn provisional_until_the_deviation_narrows<S: Store>(store: &mut S) {
    let (_, ada) = join(store, "Ada");
    let (_, bea) = join(store, "Bea");
    let mut games = 0u8;
    while glicko::provisional(
        &store
            .standing(ada.id, Mode::Partnership)
            .expect("read")
            .rating,
    ) {
        // Ada and Bea take turns to win.
        let (w, l) = if games.is_multiple_of(2) {
            (ada.id, bea.id)
        } else {
            (bea.id, ada.id)
        };
        rate_game(store, &partnership(games, w, l, i64::from(games))).expect("rated");
        games += 1;
        assert!(games < 60, "never narrowed");
    }
    assert!(games >= 5, "{games}");
    let ladder = store.ladder(Mode::Partnership).expect("read");
    assert!(
        ladder.iter().all(|r| r.games == u32::from(games)),
        "{ladder:?}"
    );
}

/// A build without SQLite names the feature when a ladder's file is
/// opened: `spades serve` says it and exits 2, as for any bad `--db`.
#[cfg(not(feature = "sqlite"))]
#[test]
fn a_build_without_sqlite_names_the_feature() {
    let db = Database::given("ladder.sqlite".into()).expect("a file is named in every build");
    let e = open(&db).err().expect("refused");
    assert!(
        matches!(e, StoreError::NotBuiltIn(store::Backend::Sqlite)),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "this spades was built without SQLite: build it with `--features sqlite`"
    );
}

/// A build without PostgreSQL refuses a `postgres://` address as it is
/// read, naming the feature, and never says the password back.
#[cfg(not(feature = "postgres"))]
#[test]
fn a_build_without_postgres_names_the_feature() {
    for given in [
        "postgres://ann:hunter2@db.example:5433/spades",
        "postgresql://ann@db.example/spades",
    ] {
        let e = Database::given(given.into()).err().expect("refused");
        assert!(
            matches!(e, StoreError::NotBuiltIn(store::Backend::Postgres)),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "this spades was built without PostgreSQL: build it with `--features postgres`"
        );
    }
}
