//! Any bytes as what clients send a server: a line each, its first byte
//! choosing which of three clients at one table sends the rest (`@TABLE`
//! and `@TOKEN0`.. stand for the table opened and the seat tokens given).
//! The real connection state machine answers over in-memory streams, and
//! `probe::check` holds it to its promises: no panic, no hang, every reply
//! a valid message line, no client text said back beyond a short excerpt,
//! every connection ended once its client stops, and a new hello welcomed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spades_net::server::probe;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = probe::check(&probe::script(data)) {
        panic!("{why}");
    }
});
