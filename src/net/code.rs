//! Table codes and seat tokens. A table code names a table on a server and
//! pins the server's certificate: `ID.FINGERPRINT@HOST:PORT`, where ID is
//! the table's secret name and FINGERPRINT the first 128 bits of the
//! SHA-256 of the server's certificate. Joining by code therefore also
//! proves the host is the one that made the code: no certificate authority
//! is needed. Codes and tokens come from the operating system's secure
//! generator and are long enough not to be guessed (80 and 128 bits).

use std::fmt;
use std::str::FromStr;

use data_encoding::BASE32_NOPAD;
use sha2::{Digest, Sha256};

/// Random bytes in a table's id: 80 bits, 16 characters.
const ID_BYTES: usize = 10;
/// Random bytes in a seat token: 128 bits, 26 characters.
const TOKEN_BYTES: usize = 16;
/// Bytes of the certificate's SHA-256 kept in a code: 128 bits.
const FINGERPRINT_BYTES: usize = 16;

/// Secret random bytes written in base32 (A-Z, 2-7), or the system's error.
fn secret(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("no secure random numbers here: {e}"))?;
    Ok(BASE32_NOPAD.encode(&buf))
}

/// A new table id.
pub fn table_id() -> Result<String, String> {
    secret(ID_BYTES)
}

/// A new seat token.
pub fn seat_token() -> Result<String, String> {
    secret(TOKEN_BYTES)
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The certificate's fingerprint as a code carries it.
pub fn fingerprint(certificate_der: &[u8]) -> String {
    let digest = Sha256::digest(certificate_der);
    BASE32_NOPAD.encode(&digest[..FINGERPRINT_BYTES])
}

/// What `spades join` is given: a table, the certificate it must find,
/// and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCode {
    pub table: String,
    /// `None` for a server without TLS (`--insecure-plain`, loopback only).
    pub fingerprint: Option<String>,
    pub host: String,
    pub port: u16,
}

impl TableCode {
    /// The address to connect to.
    pub fn address(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Display for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.fingerprint {
            Some(fp) => write!(f, "{}.{fp}@{}", self.table, self.address()),
            None => write!(f, "{}.plain@{}", self.table, self.address()),
        }
    }
}

/// Why a table code cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{code}` is not a table code ({why}): it looks like TABLE.FINGERPRINT@HOST:PORT")]
pub struct BadCode {
    pub code: String,
    pub why: &'static str,
}

fn is_base32(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
}

impl FromStr for TableCode {
    type Err = BadCode;

    fn from_str(code: &str) -> Result<TableCode, BadCode> {
        let bad = |why| BadCode {
            code: code.to_string(),
            why,
        };
        let trimmed = code.trim();
        let (name, place) = trimmed
            .split_once('@')
            .ok_or_else(|| bad("no @HOST:PORT"))?;
        let (table, fp) = name.split_once('.').ok_or_else(|| bad("no .FINGERPRINT"))?;
        let table = table.to_ascii_uppercase();
        if !is_base32(&table) {
            return Err(bad("the table part is letters A-Z and digits 2-7"));
        }
        let fingerprint = match fp {
            "plain" => None,
            fp => {
                let fp = fp.to_ascii_uppercase();
                let full = FINGERPRINT_BYTES * 8 / 5 + 1;
                if !is_base32(&fp) || fp.len() != full {
                    return Err(bad("the fingerprint is 26 letters A-Z and digits 2-7"));
                }
                Some(fp)
            }
        };
        let (host, port) = place.rsplit_once(':').ok_or_else(|| bad("no :PORT"))?;
        let port = port.parse().map_err(|_| bad("the port is a number"))?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return Err(bad("no host"));
        }
        Ok(TableCode {
            table,
            fingerprint,
            host: host.to_string(),
            port,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_say_what_is_wrong() {
        let code = TableCode {
            table: table_id().unwrap(),
            fingerprint: Some(fingerprint(b"a certificate")),
            host: "192.168.1.5".into(),
            port: 4466,
        };
        let text = code.to_string();
        assert_eq!(text.parse::<TableCode>().unwrap(), code);
        assert_eq!(text.to_lowercase().parse::<TableCode>().unwrap(), code);
        let v6 = TableCode {
            host: "::1".into(),
            ..code.clone()
        };
        assert_eq!(v6.to_string().parse::<TableCode>().unwrap(), v6);
        for bad in [
            "",
            "ABC@host:1",
            "ABC.plain@host",
            "AB1.plain@h:1",
            "A.plain@:1",
        ] {
            assert!(bad.parse::<TableCode>().is_err(), "{bad}");
        }
    }

    #[test]
    fn secrets_are_long_and_differ() {
        let a = seat_token().unwrap();
        let b = seat_token().unwrap();
        assert_eq!(a.len(), 26);
        assert_ne!(a, b);
        assert_eq!(table_id().unwrap().len(), 16);
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, &a[1..]));
    }
}
