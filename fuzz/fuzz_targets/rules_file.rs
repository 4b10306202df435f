//! Any bytes as a rules file: `parse_rules` must never panic, every error
//! must say where (a line and column, or the key at fault), and rules it
//! accepts must survive being written back out as `rules.toml`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spades_formats::config::{commented_toml, parse_rules};

fuzz_target!(|data: &[u8]| {
    // A rules file is read as UTF-8; any bytes that are not are replaced,
    // so every input reaches the parser.
    let text = String::from_utf8_lossy(data);
    match parse_rules(&text, "fuzz.toml") {
        Ok(rules) => {
            let written = commented_toml(&rules);
            let again = parse_rules(&written, "written.toml")
                .unwrap_or_else(|e| panic!("rules read back from their own file fail: {e}"));
            assert_eq!(again, rules, "rules change when written and read back");
        }
        Err(e) => match e.position {
            Some((line, col)) => {
                let lines = text.split('\n').count();
                assert!(line >= 1 && col >= 1, "{e}");
                assert!(line <= lines, "line {line} of a {lines}-line file: {e}");
            }
            // The toml crate refuses a dotted key of 80 parts or more without
            // saying where (fuzz/README.md); known, and left alone.
            None if e.message == "recursion limit" => {}
            None => assert!(e.message.contains('`'), "an error naming no place: {e}"),
        },
    }
});
