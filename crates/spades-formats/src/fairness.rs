//! Deals nobody can know during the game and anyone can check after it.
//!
//! A game's cards come from its seed. Before the first card is dealt the
//! table draws the seed and a salt from the operating system and publishes
//! only a commitment to them: the SHA-256 of the text `SEED:SALT` (the seed
//! in decimal, the salt as 32 lowercase hex digits). When the game ends or
//! is abandoned, the seed and salt are revealed. Anyone can then hash them,
//! compare with the commitment published at the start, and deal every hand
//! again from the seed: the deals cannot have been changed mid-game, and
//! without the salt the commitment says nothing about the seed.
//!
//! A seed the player chose (`--seed`) is open from the start: the screen and
//! the record say the deals are known.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bytes of salt: enough that the commitment cannot be searched for the seed.
const SALT_BYTES: usize = 16;

/// How a table's deals are chosen.
#[derive(Clone, PartialEq, Eq)]
pub enum Dealing {
    /// A seed nobody knows until the game is over.
    Secret(SecretSeed),
    /// A seed given openly: the deals are known to whoever knows it.
    Open(u64),
}

impl Dealing {
    /// A fresh secret seed from the operating system's randomness.
    pub fn secret() -> std::io::Result<Dealing> {
        SecretSeed::draw().map(Dealing::Secret)
    }

    /// The seed the deals come from. Only the table may ask: whoever
    /// knows it knows every card.
    pub fn seed(&self) -> u64 {
        match self {
            Dealing::Secret(secret) => secret.seed,
            Dealing::Open(seed) => *seed,
        }
    }

    /// The seed when it is public from the start.
    pub fn open_seed(&self) -> Option<u64> {
        match self {
            Dealing::Secret(_) => None,
            Dealing::Open(seed) => Some(*seed),
        }
    }

    /// What is published at the start when the seed is secret.
    pub fn commitment(&self) -> Option<Commitment> {
        match self {
            Dealing::Secret(secret) => Some(secret.commitment()),
            Dealing::Open(_) => None,
        }
    }

    /// What is revealed at the end when the seed was secret.
    pub fn reveal(&self) -> Option<Reveal> {
        match self {
            Dealing::Secret(secret) => Some(secret.reveal()),
            Dealing::Open(_) => None,
        }
    }
}

/// Never prints the secret seed.
impl fmt::Debug for Dealing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dealing::Secret(secret) => write!(f, "Secret({})", secret.commitment()),
            Dealing::Open(seed) => write!(f, "Open({seed})"),
        }
    }
}

/// Secret seeds for many games from one secret that is never shown: game
/// `n`'s seed is a hash of the secret and `n`, so a seed revealed at the end
/// of one game says nothing about the seed of any other.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretSeeds([u8; 32]);

impl SecretSeeds {
    pub fn draw() -> std::io::Result<SecretSeeds> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| {
            std::io::Error::other(format!("the system gave no randomness for a deal: {e}"))
        })?;
        Ok(SecretSeeds(key))
    }

    /// The seed of game `n`.
    pub fn seed(&self, n: u64) -> u64 {
        let mut hash = Sha256::new();
        hash.update(self.0);
        hash.update(n.to_le_bytes());
        let digest = hash.finalize();
        u64::from_le_bytes(std::array::from_fn(|i| digest[i]))
    }
}

/// Never prints the secret.
impl fmt::Debug for SecretSeeds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretSeeds(..)")
    }
}

/// A seed and the salt that hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretSeed {
    seed: u64,
    salt: [u8; SALT_BYTES],
}

impl SecretSeed {
    /// Draws both from the operating system's randomness, which nobody at
    /// the table can predict (a clock would be guessable).
    pub fn draw() -> std::io::Result<SecretSeed> {
        let mut bytes = [0u8; 8 + SALT_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| {
            std::io::Error::other(format!("the system gave no randomness for a deal: {e}"))
        })?;
        let (seed, salt) = bytes.split_at(8);
        Ok(SecretSeed {
            seed: u64::from_le_bytes(seed.try_into().unwrap_or_default()),
            salt: salt.try_into().unwrap_or_default(),
        })
    }

    /// A seed chosen by the caller, hidden by a fresh salt: for many games
    /// dealt from one secret (the arena's duplicate deals).
    pub fn with_fresh_salt(seed: u64) -> std::io::Result<SecretSeed> {
        let mut secret = SecretSeed::draw()?;
        secret.seed = seed;
        Ok(secret)
    }

    /// A known seed and salt: for tests and for checking a reveal.
    pub fn from_parts(seed: u64, salt: [u8; SALT_BYTES]) -> SecretSeed {
        SecretSeed { seed, salt }
    }

    pub fn commitment(&self) -> Commitment {
        self.reveal().commitment()
    }

    pub fn reveal(&self) -> Reveal {
        Reveal {
            seed: self.seed,
            salt: self.salt.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// The SHA-256 of `SEED:SALT`, as 64 lowercase hex digits.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Commitment(String);

impl TryFrom<String> for Commitment {
    type Error = String;
    fn try_from(text: String) -> Result<Commitment, String> {
        Commitment::parse(&text)
            .ok_or_else(|| format!("`{text}` is not a commitment: 64 hex digits"))
    }
}

impl From<Commitment> for String {
    fn from(c: Commitment) -> String {
        c.0
    }
}

impl Commitment {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A commitment as written in a record: 64 hex digits, any case.
    pub fn parse(text: &str) -> Option<Commitment> {
        (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| Commitment(text.to_ascii_lowercase()))
    }

    /// The first hex digits, enough to tell commitments apart on screen.
    pub fn short(&self) -> &str {
        &self.0[..12.min(self.0.len())]
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({})", self.0)
    }
}

/// The seed and salt behind a commitment, as the record's closing line
/// reveals them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    pub seed: u64,
    /// 32 hex digits.
    pub salt: String,
}

impl Reveal {
    /// The commitment these would make: SHA-256 of `SEED:SALT`.
    pub fn commitment(&self) -> Commitment {
        let digest = Sha256::digest(format!("{}:{}", self.seed, self.salt).as_bytes());
        Commitment(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Do the seed and salt hash to `commitment`?
    pub fn matches(&self, commitment: &Commitment) -> bool {
        self.commitment() == *commitment
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_is_the_sha256_of_seed_colon_salt() {
        // printf '%s' '42:000102030405060708090a0b0c0d0e0f' | sha256sum
        let secret = SecretSeed::from_parts(42, std::array::from_fn(|i| i as u8));
        assert_eq!(secret.reveal().salt, "000102030405060708090a0b0c0d0e0f");
        assert_eq!(
            secret.commitment().as_str(),
            "a8a20deef2917c1aae27edf566dd48eb919390678c37ac5d7353d1a28c0a7405"
        );
        assert!(secret.reveal().matches(&secret.commitment()));
    }

    #[test]
    fn another_seed_or_salt_does_not_match() {
        let secret = SecretSeed::from_parts(42, [7; SALT_BYTES]);
        let commitment = secret.commitment();
        let mut other = secret.reveal();
        other.seed = 43;
        assert!(!other.matches(&commitment));
        let mut other = secret.reveal();
        other.salt = "07".repeat(15) + "08";
        assert!(!other.matches(&commitment));
    }

    #[test]
    fn drawn_seeds_differ_and_are_never_printed() {
        let a = Dealing::secret().unwrap();
        let b = Dealing::secret().unwrap();
        assert_ne!(a.seed(), b.seed());
        assert_ne!(a.commitment(), b.commitment());
        let shown = format!("{a:?}");
        assert!(!shown.contains(&a.seed().to_string()), "{shown}");
        assert_eq!(a.open_seed(), None);
        assert_eq!(Dealing::Open(5).open_seed(), Some(5));
        assert_eq!(Dealing::Open(5).commitment(), None);
    }

    #[test]
    fn one_secret_gives_unrelated_seeds() {
        let seeds = SecretSeeds::draw().unwrap();
        let (a, b) = (seeds.seed(1), seeds.seed(2));
        assert_ne!(a, b);
        assert_ne!(a.wrapping_add(1), b, "not a counter");
        assert_eq!(seeds.seed(1), a, "the same game, the same seed");
        assert_ne!(SecretSeeds::draw().unwrap().seed(1), a);
        assert_eq!(format!("{seeds:?}"), "SecretSeeds(..)");
    }

    #[test]
    fn commitments_parse_from_records() {
        let c = SecretSeed::from_parts(1, [0; SALT_BYTES]).commitment();
        assert_eq!(Commitment::parse(&c.as_str().to_uppercase()), Some(c));
        assert_eq!(Commitment::parse("abc"), None);
        assert_eq!(Commitment::parse(&"g".repeat(64)), None);
    }
}
