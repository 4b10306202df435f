//! The accounts the store's tests make: one server, one moment, and a
//! player registered by signing its challenge. Shared by the store's
//! tests and the farming tests, which each run on any store.

use super::keys::{Identity, ServerId, SignIn};
use super::store::{Account, Store};
use super::{UnixTime, challenge, register};

pub(super) const SERVER: ServerId = ServerId([5; 32]);
pub(super) const NOW: UnixTime = UnixTime(1_800_000_000);

pub(super) fn signed<S: Store>(store: &mut S, identity: &Identity) -> SignIn {
    let challenge = challenge(store, SERVER, NOW).expect("a challenge");
    identity.answer(&challenge)
}

pub(super) fn join<S: Store>(store: &mut S, name: &str) -> (Identity, Account) {
    let identity = Identity::generate().expect("a key");
    let answer = signed(store, &identity);
    let account = register(store, &SERVER, name, &answer, NOW).expect(name);
    (identity, account)
}
