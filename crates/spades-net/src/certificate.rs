//! Where a server's certificate comes from. A server's identity is its
//! certificate: table codes pin its fingerprint and sign-ins are bound to
//! it, so `spades serve` keeps the one it made in its data folder and
//! finds it again at every start; an operator may give one a certificate
//! authority signed instead. A file that is there but cannot be used is an
//! error naming it, never replaced: replacing it would break every code
//! the players saved.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// The name a made certificate is for: clients that pin it check its
/// fingerprint, not its name.
pub const MADE_FOR: &str = "spades.table";

/// The kept certificate's file name in the server's data folder.
pub const KEPT_CERT: &str = "tls-cert.pem";
/// The kept private key's file name in the server's data folder.
pub const KEPT_KEY: &str = "tls-key.pem";

/// A certificate chain or key file is a few kilobytes: a bigger one is
/// not one, and is not read whole.
const MAX_PEM_BYTES: u64 = 256 * 1024;

/// Which certificate a server presents.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Certificate {
    /// A new one, made at start and forgotten at stop (`spades host`: its
    /// codes live as long as its one table).
    #[default]
    Fresh,
    /// The one kept in this folder (`KEPT_CERT`, `KEPT_KEY`), made and
    /// kept there the first time.
    Kept(PathBuf),
    /// An operator's: a PEM certificate chain (the server's own first) and
    /// its PEM private key, e.g. from a public certificate authority.
    Given { chain: PathBuf, key: PathBuf },
}

/// A certificate chain and the key it was made for, ready for rustls.
pub struct Identity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

/// Why a server's certificate cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    /// The machine would not make one.
    #[error("cannot make a certificate: {0}")]
    Make(String),
    /// A file is there (or was asked for) and cannot be used.
    #[error("the server's {what} {} {why}", .path.display())]
    File {
        what: &'static str,
        path: PathBuf,
        why: String,
    },
}

impl Certificate {
    /// The certificate this says, made (and kept) if need be.
    pub fn identity(&self) -> Result<Identity, CertificateError> {
        match self {
            Certificate::Fresh => made(),
            Certificate::Kept(folder) => kept(folder),
            Certificate::Given { chain, key } => Ok(Identity {
                chain: read_chain(chain)?,
                key: read_key(key)?,
            }),
        }
    }
}

impl Certificate {
    /// rustls refused the certificate with its key (they do not belong
    /// together, or one cannot be read): said naming the file.
    pub fn unusable(&self, e: rustls::Error) -> CertificateError {
        let path = match self {
            Certificate::Fresh => return CertificateError::Make(e.to_string()),
            Certificate::Kept(folder) => folder.join(KEPT_CERT),
            Certificate::Given { chain, .. } => chain.clone(),
        };
        CertificateError::File {
            what: "certificate",
            path,
            why: format!("cannot be used with its key ({e})"),
        }
    }
}

/// A new self-signed certificate.
fn made() -> Result<Identity, CertificateError> {
    let made = rcgen::generate_simple_self_signed(vec![MADE_FOR.to_string()])
        .map_err(|e| CertificateError::Make(e.to_string()))?;
    Ok(Identity {
        chain: vec![made.cert.der().clone()],
        key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.signing_key.serialize_der())),
    })
}

/// The certificate kept in `folder`, made and kept there when neither of
/// its files is there. One file without the other is an error: the
/// identity is half lost, and the operator decides.
fn kept(folder: &Path) -> Result<Identity, CertificateError> {
    if folder.metadata().is_ok_and(|m| !m.is_dir()) {
        return Err(CertificateError::File {
            what: "data folder",
            path: folder.to_path_buf(),
            why: "is not a folder".into(),
        });
    }
    let cert = folder.join(KEPT_CERT);
    let key = folder.join(KEPT_KEY);
    match (cert.try_exists(), key.try_exists()) {
        (Ok(false), Ok(false)) => {}
        (Ok(true), Ok(true)) => {
            return Ok(Identity {
                chain: read_chain(&cert)?,
                key: read_key(&key)?,
            });
        }
        (Ok(true), Ok(false)) => return Err(missing("key", &key, &cert)),
        (Ok(false), Ok(true)) => return Err(missing("certificate", &cert, &key)),
        (Err(e), _) => return Err(file_error("certificate", &cert, e)),
        (_, Err(e)) => return Err(file_error("key", &key, e)),
    }
    let identity = made()?;
    let cert_pem = pem("CERTIFICATE", &identity.chain[0]);
    let key_pem = pem("PRIVATE KEY", identity.key.secret_der());
    std::fs::create_dir_all(folder).map_err(|e| write_error("data folder", folder, e))?;
    // The key first: a certificate without its key is useless, and a
    // start cut short between the two is told plainly next time.
    crate::paths::create_private(&key, key_pem.as_bytes())
        .map_err(|e| write_error("key", &key, e))?;
    crate::paths::create_private(&cert, cert_pem.as_bytes())
        .map_err(|e| write_error("certificate", &cert, e))?;
    Ok(identity)
}

fn missing(what: &'static str, path: &Path, other: &Path) -> CertificateError {
    CertificateError::File {
        what,
        path: path.to_path_buf(),
        why: format!(
            "is missing beside {}: put it back, or move both away to make the server a new \
             identity (every saved code will then need the new fingerprint)",
            other.display()
        ),
    }
}

/// The file `path` cannot be `done` ("read", "written").
fn io_error(what: &'static str, path: &Path, done: &str, e: std::io::Error) -> CertificateError {
    CertificateError::File {
        what,
        path: path.to_path_buf(),
        why: format!("cannot be {done}: {e}"),
    }
}

fn file_error(what: &'static str, path: &Path, e: std::io::Error) -> CertificateError {
    io_error(what, path, "read", e)
}

fn write_error(what: &'static str, path: &Path, e: std::io::Error) -> CertificateError {
    io_error(what, path, "written", e)
}

/// `der` as PEM text under `label`.
fn pem(label: &str, der: &[u8]) -> String {
    let body = data_encoding::BASE64.encode(der);
    let mut text = format!("-----BEGIN {label}-----\n");
    for line in body.as_bytes().chunks(64) {
        text.push_str(&String::from_utf8_lossy(line));
        text.push('\n');
    }
    text.push_str(&format!("-----END {label}-----\n"));
    text
}

/// A file's bytes, at most `MAX_PEM_BYTES`.
fn read_bounded(what: &'static str, path: &Path) -> Result<Vec<u8>, CertificateError> {
    let file = std::fs::File::open(path).map_err(|e| file_error(what, path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_PEM_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| file_error(what, path, e))?;
    if bytes.len() as u64 > MAX_PEM_BYTES {
        return Err(CertificateError::File {
            what,
            path: path.to_path_buf(),
            why: format!("is bigger than {MAX_PEM_BYTES} bytes, so not a PEM file"),
        });
    }
    Ok(bytes)
}

/// The PEM certificates in `path`, the server's own first.
fn read_chain(path: &Path) -> Result<Vec<CertificateDer<'static>>, CertificateError> {
    const WHAT: &str = "certificate";
    let bytes = read_bounded(WHAT, path)?;
    let bad = |why: String| CertificateError::File {
        what: WHAT,
        path: path.to_path_buf(),
        why,
    };
    let chain = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| bad(format!("is damaged ({e})")))?;
    if chain.is_empty() {
        return Err(bad("holds no PEM certificate".into()));
    }
    Ok(chain)
}

/// The PEM private key in `path`.
fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, CertificateError> {
    const WHAT: &str = "key";
    let bytes = read_bounded(WHAT, path)?;
    let bad = |why: String| CertificateError::File {
        what: WHAT,
        path: path.to_path_buf(),
        why,
    };
    let key = PrivateKeyDer::from_pem_slice(&bytes).map_err(|e| match e {
        rustls::pki_types::pem::Error::NoItemsFound => bad("holds no PEM private key".into()),
        e => bad(format!("is damaged ({e})")),
    })?;
    rustls::crypto::ring::sign::any_supported_type(&key)
        .map_err(|e| bad(format!("is not a key that can be used ({e})")))?;
    Ok(key)
}
