//! Accounts without passwords: each player holds an Ed25519 key pair, made
//! once and kept in their data folder, and signs the server's fresh
//! challenge to sign in. Nothing secret ever leaves the player's machine,
//! and the server keeps only public keys, which are worth nothing to a
//! thief.

use std::fmt;
use std::path::{Path, PathBuf};

use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

use super::UnixTime;
pub use super::weak_keys::Weakness;

/// What an exported key starts with: says what the text is, and which
/// form, so that a later form can be told apart.
pub const EXPORT_PREFIX: &str = "spades-key-1:";

/// Signed ahead of a challenge: a signature made to sign in can never pass
/// for one made for anything else (a key rotation, another protocol).
const SIGN_IN_CONTEXT: &[u8] = b"spades sign-in v1";
/// Signed ahead of a key rotation's two keys.
const ROTATE_CONTEXT: &[u8] = b"spades rotate v1";

/// A player's public key: the account's identity on a server.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PublicKey([u8; 32]);

impl PublicKey {
    /// The key from its 32 bytes, or `None` when there are not 32.
    pub fn from_bytes(bytes: &[u8]) -> Option<PublicKey> {
        bytes.try_into().ok().map(PublicKey)
    }

    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Why this key can never be an account's (small order, or not a
    /// canonical encoding), if it cannot.
    pub fn weakness(&self) -> Option<Weakness> {
        super::weak_keys::key_weakness(&self.0)
    }

    /// Whether `signature` is this key's over `message`: never for a weak
    /// key or signature, which the verifier alone would let through.
    pub fn verifies(&self, message: &[u8], signature: &Signature) -> bool {
        self.weakness().is_none()
            && signature.weakness().is_none()
            && UnparsedPublicKey::new(&ED25519, self.0)
                .verify(message, &signature.0)
                .is_ok()
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", data_encoding::HEXLOWER.encode(&self.0))
    }
}

/// An Ed25519 signature.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature([u8; 64]);

impl Signature {
    pub fn from_bytes(bytes: &[u8]) -> Option<Signature> {
        bytes.try_into().ok().map(Signature)
    }

    pub fn as_bytes(&self) -> &[u8; 64] {
        &self.0
    }

    /// Why this signature is refused whatever it signs (S not reduced, R
    /// of small order or not canonical), if it is.
    pub fn weakness(&self) -> Option<Weakness> {
        super::weak_keys::signature_weakness(&self.0)
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({})", data_encoding::HEXLOWER.encode(&self.0))
    }
}

/// A server's identity in what is signed (its certificate's fingerprint):
/// a signature made for one server is worthless on another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ServerId(pub [u8; 32]);

/// A challenge's random bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Nonce(pub [u8; 32]);

/// What a server asks a player to sign to sign in: fresh random bytes,
/// good once and until `expires`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Challenge {
    pub server: ServerId,
    pub nonce: Nonce,
    pub expires: UnixTime,
}

impl Challenge {
    /// A fresh challenge from the system's secure random source.
    pub fn fresh(server: ServerId, expires: UnixTime) -> Result<Challenge, KeyError> {
        let mut nonce = [0; 32];
        SystemRandom::new()
            .fill(&mut nonce)
            .map_err(|_| KeyError::NoRandomness)?;
        Ok(Challenge {
            server,
            nonce: Nonce(nonce),
            expires,
        })
    }

    /// The bytes a player signs: the context, the server's id, the nonce.
    pub fn message(&self) -> Vec<u8> {
        [SIGN_IN_CONTEXT, &self.server.0, &self.nonce.0].concat()
    }
}

/// A player's answer to a challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignIn {
    pub key: PublicKey,
    pub nonce: Nonce,
    pub signature: Signature,
}

/// The old key's word that the new key replaces it: a player who lost a
/// machine moves their account to a new key from one that still has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    pub old: PublicKey,
    pub new: PublicKey,
    pub signature: Signature,
}

impl Rotation {
    fn message(old: &PublicKey, new: &PublicKey) -> Vec<u8> {
        [ROTATE_CONTEXT, &old.0, &new.0].concat()
    }

    /// Whether the old key signed this rotation.
    pub fn is_signed(&self) -> bool {
        self.old
            .verifies(&Rotation::message(&self.old, &self.new), &self.signature)
    }
}

/// Why a key could not be made, read, kept or imported.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("the system gave no random bytes to make a key or a challenge")]
    NoRandomness,
    #[error("could not read or write the key file {}: {source}", .path.display())]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the key file {} can be read by other users (mode {mode:o}): \
         make it yours alone with `chmod 600 {}` and try again",
        .path.display(),
        .path.display()
    )]
    OpenToOthers { path: PathBuf, mode: u32 },
    #[error("the key file {} already exists: move it away first, it may be your only key", .0.display())]
    Exists(PathBuf),
    #[error("the key file {} does not hold a spades key: {why}", .path.display())]
    BadFile { path: PathBuf, why: String },
    #[error("not a spades key: {0}")]
    BadExport(String),
}

/// A player's key pair, as kept in their data folder.
pub struct Identity {
    /// The key pair in PKCS#8, as kept and exported.
    pkcs8: Vec<u8>,
    pair: Ed25519KeyPair,
}

impl fmt::Debug for Identity {
    // The private key never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Identity")
            .field("public_key", &self.public_key())
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// A new key pair.
    pub fn generate() -> Result<Identity, KeyError> {
        let document = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new())
            .map_err(|_| KeyError::NoRandomness)?;
        Identity::from_pkcs8(document.as_ref()).map_err(|_| KeyError::NoRandomness)
    }

    fn from_pkcs8(pkcs8: &[u8]) -> Result<Identity, String> {
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8)
            .map_err(|e| format!("not an Ed25519 key pair ({e})"))?;
        Ok(Identity {
            pkcs8: pkcs8.to_vec(),
            pair,
        })
    }

    /// The key kept at `path`, made and kept there (readable by its owner
    /// alone) the first time.
    pub fn load_or_create(path: &Path) -> Result<Identity, KeyError> {
        match Identity::load(path) {
            Err(KeyError::File { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                let identity = Identity::generate()?;
                identity.save_new(path)?;
                Ok(identity)
            }
            other => other,
        }
    }

    /// The key kept at `path`; refused when others may read the file, as
    /// the key may have been copied.
    pub fn load(path: &Path) -> Result<Identity, KeyError> {
        let file_error = |source| KeyError::File {
            path: path.to_path_buf(),
            source,
        };
        let file = std::fs::File::open(path).map_err(file_error)?;
        refuse_if_open_to_others(&file, path)?;
        let mut pkcs8 = Vec::new();
        // A PKCS#8 Ed25519 key is 85 bytes: a big file is not one.
        std::io::Read::read_to_end(&mut std::io::Read::take(file, 4096), &mut pkcs8)
            .map_err(file_error)?;
        Identity::from_pkcs8(&pkcs8).map_err(|why| KeyError::BadFile {
            path: path.to_path_buf(),
            why,
        })
    }

    /// Keeps the key at `path`, a new file readable by its owner alone;
    /// never over another key, which may be the player's only one.
    pub fn save_new(&self, path: &Path) -> Result<(), KeyError> {
        let file_error = |source| KeyError::File {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(file_error)?;
        }
        crate::paths::create_private(path, &self.pkcs8).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => KeyError::Exists(path.to_path_buf()),
            _ => file_error(e),
        })
    }

    /// The key as text to carry to another machine (`import` reads it).
    /// Whoever has it can sign in as the player.
    pub fn export(&self) -> String {
        format!(
            "{EXPORT_PREFIX}{}",
            data_encoding::BASE32_NOPAD.encode(&self.pkcs8)
        )
    }

    /// A key `export` wrote; spaces and line breaks around it are ignored.
    pub fn import(text: &str) -> Result<Identity, KeyError> {
        let text = text.trim();
        let body = text.strip_prefix(EXPORT_PREFIX).ok_or_else(|| {
            KeyError::BadExport(format!("an exported key starts with `{EXPORT_PREFIX}`"))
        })?;
        let pkcs8 = data_encoding::BASE32_NOPAD
            .decode(body.as_bytes())
            .map_err(|e| {
                KeyError::BadExport(format!("the text after the prefix is damaged ({e})"))
            })?;
        Identity::from_pkcs8(&pkcs8).map_err(KeyError::BadExport)
    }

    pub fn public_key(&self) -> PublicKey {
        let mut key = [0; 32];
        key.copy_from_slice(self.pair.public_key().as_ref());
        PublicKey(key)
    }

    fn sign(&self, message: &[u8]) -> Signature {
        let mut signature = [0; 64];
        signature.copy_from_slice(self.pair.sign(message).as_ref());
        Signature(signature)
    }

    /// The answer to a server's challenge.
    pub fn answer(&self, challenge: &Challenge) -> SignIn {
        SignIn {
            key: self.public_key(),
            nonce: challenge.nonce,
            signature: self.sign(&challenge.message()),
        }
    }

    /// This key's word that `new` replaces it.
    pub fn rotate_to(&self, new: &PublicKey) -> Rotation {
        let old = self.public_key();
        Rotation {
            old,
            new: *new,
            signature: self.sign(&Rotation::message(&old, new)),
        }
    }
}

#[cfg(unix)]
fn refuse_if_open_to_others(file: &std::fs::File, path: &Path) -> Result<(), KeyError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = file
        .metadata()
        .map_err(|source| KeyError::File {
            path: path.to_path_buf(),
            source,
        })?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(KeyError::OpenToOthers {
            path: path.to_path_buf(),
            mode: mode & 0o777,
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn refuse_if_open_to_others(_: &std::fs::File, _: &Path) -> Result<(), KeyError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_key_file_is_the_owners_alone_and_refused_when_others_may_read_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys").join("spades.key");
        let made = Identity::load_or_create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let again = Identity::load_or_create(&path).unwrap();
        assert_eq!(again.public_key(), made.public_key());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = Identity::load_or_create(&path).unwrap_err();
        assert!(
            matches!(refused, KeyError::OpenToOthers { .. }),
            "{refused}"
        );
        assert!(refused.to_string().contains(&path.display().to_string()));
        assert!(matches!(made.save_new(&path), Err(KeyError::Exists(_))));
    }

    #[test]
    fn a_key_file_of_garbage_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spades.key");
        let garbage = Identity::generate().unwrap();
        garbage.save_new(&path).unwrap();
        std::fs::write(&path, b"not a key").unwrap();
        let e = Identity::load(&path).unwrap_err();
        assert!(matches!(e, KeyError::BadFile { .. }), "{e}");
        assert!(e.to_string().contains(&path.display().to_string()));
    }

    #[test]
    fn an_exported_key_imports_as_the_same_key_and_garbage_is_refused() {
        let identity = Identity::generate().unwrap();
        let text = identity.export();
        assert!(text.starts_with(EXPORT_PREFIX));
        let back = Identity::import(&format!("  {text}\n")).unwrap();
        assert_eq!(back.public_key(), identity.public_key());
        for bad in [
            "",
            "hello",
            "spades-key-1:",
            "spades-key-1:!!!!",
            "spades-key-1:MFRGGZDFMZTWQ2LK",
            &text[1..],
            &text[..text.len() - 3],
        ] {
            let e = Identity::import(bad).expect_err(bad);
            assert!(e.to_string().starts_with("not a spades key"), "{e}");
        }
        assert!(!format!("{identity:?}").contains(&text[EXPORT_PREFIX.len()..]));
    }

    #[test]
    fn a_signature_holds_for_its_key_and_message_only() {
        let identity = Identity::generate().unwrap();
        let other = Identity::generate().unwrap();
        let challenge = Challenge::fresh(ServerId([7; 32]), UnixTime(100)).unwrap();
        let answer = identity.answer(&challenge);
        assert!(answer.key.verifies(&challenge.message(), &answer.signature));
        assert!(
            !other
                .public_key()
                .verifies(&challenge.message(), &answer.signature)
        );
        let mut flipped = *answer.signature.as_bytes();
        flipped[10] ^= 1;
        let flipped = Signature::from_bytes(&flipped).unwrap();
        assert!(!answer.key.verifies(&challenge.message(), &flipped));
        // Signed for one server, worthless on another.
        let elsewhere = Challenge {
            server: ServerId([8; 32]),
            ..challenge
        };
        assert!(!answer.key.verifies(&elsewhere.message(), &answer.signature));
        // A rotation is signed by the old key, and a sign-in signature
        // does not pass for one.
        let rotation = identity.rotate_to(&other.public_key());
        assert!(rotation.is_signed());
        let forged = Rotation {
            signature: answer.signature,
            ..rotation
        };
        assert!(!forged.is_signed());
    }
}
