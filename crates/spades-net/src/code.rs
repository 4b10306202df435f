//! Table codes and seat tokens. A table code names a table on a server and
//! pins the server's certificate: `ID.FINGERPRINT@HOST:PORT`, where ID is
//! the table's secret name and FINGERPRINT the first 128 bits of the
//! SHA-256 of the server's certificate. Joining by code therefore also
//! proves the host is the one that made the code: no certificate authority
//! is needed. A server whose certificate an authority signed may be named
//! without one, `ID@HOST:PORT`: then the certificate is checked the web's
//! way, against the system's authorities and the host's name. Codes and
//! tokens come from the operating system's secure generator and are long
//! enough not to be guessed (80 and 128 bits).

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

/// How a client knows it reached the server a code names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trust {
    /// No TLS (`--insecure-plain`, loopback only): written `plain`.
    Plain,
    /// The certificate with this fingerprint, and no other.
    Pinned(String),
    /// A certificate for the host's name, signed by an authority this
    /// system trusts: written as nothing before the `@`.
    Authority,
}

impl Trust {
    /// A server's own: pinned to its fingerprint, or plain without TLS.
    pub fn of(fingerprint: Option<&str>) -> Trust {
        fingerprint.map_or(Trust::Plain, |fp| Trust::Pinned(fp.to_string()))
    }

    /// The pinned fingerprint, if this trust pins one.
    pub fn fingerprint(&self) -> Option<&str> {
        match self {
            Trust::Pinned(fp) => Some(fp),
            Trust::Plain | Trust::Authority => None,
        }
    }
}

/// What `spades join` is given: a table, the certificate it must find,
/// and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCode {
    pub table: String,
    pub trust: Trust,
    pub host: String,
    pub port: u16,
}

impl TableCode {
    /// The address to connect to.
    pub fn address(&self) -> String {
        host_port(&self.host, self.port)
    }
}

impl fmt::Display for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.trust {
            Trust::Pinned(fp) => write!(f, "{}.{fp}@{}", self.table, self.address()),
            Trust::Plain => write!(f, "{}.plain@{}", self.table, self.address()),
            Trust::Authority => write!(f, "{}@{}", self.table, self.address()),
        }
    }
}

/// Why a table code cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{code}` is not a table code ({why}): it looks like TABLE.FINGERPRINT@HOST:PORT (or TABLE@HOST:PORT)"
)]
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
        let (named, place) = trimmed
            .split_once('@')
            .ok_or_else(|| bad("no @HOST:PORT"))?;
        let (table, trust) = match named.split_once('.') {
            Some((table, trust)) => (table, Some(trust)),
            None => (named, None),
        };
        let table = table.to_ascii_uppercase();
        if !is_base32(&table) {
            return Err(bad("the table part is letters A-Z and digits 2-7"));
        }
        let server = parse_server(trust, place).map_err(bad)?;
        Ok(TableCode {
            table,
            trust: server.trust,
            host: server.host,
            port: server.port,
        })
    }
}

/// A table server as `spades serve` prints it, for `spades host
/// --server`: `FINGERPRINT@HOST:PORT` (`plain@HOST:PORT` without TLS;
/// `HOST:PORT` for a certificate from an authority).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddress {
    pub trust: Trust,
    pub host: String,
    pub port: u16,
}

impl FromStr for ServerAddress {
    type Err = String;

    fn from_str(text: &str) -> Result<ServerAddress, String> {
        let trimmed = text.trim();
        let parsed = match trimmed.split_once('@') {
            Some((trust, place)) => parse_server(Some(trust), place),
            None => parse_server(None, trimmed),
        };
        parsed.map_err(|why| {
            format!(
                "`{text}` is not a server ({why}): give it as `spades serve` prints it, FINGERPRINT@HOST:PORT (or HOST:PORT)"
            )
        })
    }
}

/// Why a `plain` code or server naming another machine is refused.
pub const PLAIN_OFF_LOOPBACK: &str = "a plain code has no encryption, so it names only this machine: \
     127.0.0.1, ::1 or localhost";

/// A host that is this machine without asking the network: a literal
/// loopback address or the name `localhost`. Any other name could resolve
/// anywhere, so it is not trusted with clear text.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

/// The server from what is written before its `@` (`trust`: a
/// fingerprint, `plain`, or nothing for an authority's certificate) and
/// `HOST:PORT`, or why not.
fn parse_server(trust: Option<&str>, place: &str) -> Result<ServerAddress, &'static str> {
    let trust = match trust {
        None => Trust::Authority,
        Some("plain") => Trust::Plain,
        Some(fp) => {
            let fp = fp.to_ascii_uppercase();
            let full = FINGERPRINT_BYTES * 8 / 5 + 1;
            if !is_base32(&fp) || fp.len() != full {
                return Err("the fingerprint is 26 letters A-Z and digits 2-7");
            }
            Trust::Pinned(fp)
        }
    };
    let (host, port) = place.rsplit_once(':').ok_or("no :PORT")?;
    let port = port.parse().map_err(|_| "the port is a number")?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err("no host");
    }
    // Without TLS the hello and every card would cross the network in
    // clear text: the client refuses that before it connects, as the
    // server refuses to listen off loopback.
    if trust == Trust::Plain && !is_loopback(host) {
        return Err(PLAIN_OFF_LOOPBACK);
    }
    Ok(ServerAddress {
        trust,
        host: host.to_string(),
        port,
    })
}

/// This machine's address on the network its default route leads to, as
/// friends on that network reach it. Connecting a UDP socket sends nothing:
/// it only picks the way out.
pub fn lan_address() -> Option<String> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then(|| ip.to_string())
}

/// `host:port`, with an IPv6 host in brackets.
pub(crate) fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// The id a player's sign-in signature names the server by: the SHA-256 of
/// its fingerprint as table codes write it (`plain` for a server without
/// TLS). The client checked that certificate in the handshake (pinned, or
/// signed by an authority for the host's name), so an answer signed for
/// one server is worthless on another.
pub fn server_id(fingerprint: Option<&str>) -> crate::ladder::keys::ServerId {
    let text = fingerprint.map_or_else(|| "plain".to_string(), str::to_ascii_uppercase);
    crate::ladder::keys::ServerId(Sha256::digest(text.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_say_what_is_wrong() {
        let code = TableCode {
            table: table_id().unwrap(),
            trust: Trust::Pinned(fingerprint(b"a certificate")),
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
        // Without a fingerprint: an authority's certificate for the name,
        // a name with dots of its own.
        let named = TableCode {
            trust: Trust::Authority,
            host: "cards.example.org".into(),
            ..code.clone()
        };
        let text = named.to_string();
        assert_eq!(text, format!("{}@cards.example.org:4466", code.table));
        assert_eq!(text.parse::<TableCode>().unwrap(), named);
        for bad in [
            "",
            "ABC",
            "ABC.host:1",
            "ABC@host",
            "AB1@host:1",
            "ABC.plain@host",
            "AB1.plain@h:1",
            "A.plain@:1",
        ] {
            assert!(bad.parse::<TableCode>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_server_reads_as_spades_serve_prints_it() {
        let fp = fingerprint(b"a certificate");
        let server: ServerAddress = format!("{}@[::1]:4466", fp.to_lowercase()).parse().unwrap();
        assert_eq!(server.trust, Trust::Pinned(fp.clone()));
        assert_eq!(server.target().address, "[::1]:4466");
        let plain: ServerAddress = "plain@127.0.0.1:9".parse().unwrap();
        assert_eq!(plain.trust, Trust::Plain);
        let named: ServerAddress = "cards.example.org:4466".parse().unwrap();
        assert_eq!(named.trust, Trust::Authority);
        assert_eq!(named.target().address, "cards.example.org:4466");
        for bad in [
            "cards.example.org",
            "cards.example.org:port",
            ":4466",
            "XYZ@h:1",
            "plain@h",
            "plain@:1",
            "plain@h:port",
        ] {
            let why = bad.parse::<ServerAddress>().unwrap_err();
            assert!(why.contains("FINGERPRINT@HOST:PORT"), "{why}");
        }
    }

    #[test]
    fn plain_names_only_this_machine() {
        for host in ["127.0.0.1", "127.8.9.10", "[::1]", "localhost", "LocalHost"] {
            let code: TableCode = format!("ABCDEF.plain@{host}:4466").parse().unwrap();
            assert_eq!(code.trust, Trust::Plain, "{host}");
            let server: ServerAddress = format!("plain@{host}:4466").parse().unwrap();
            assert_eq!(server.trust, Trust::Plain, "{host}");
        }
        let fp = fingerprint(b"a certificate");
        for host in [
            "10.1.2.3",
            "192.168.1.5",
            "[2001:db8::1]",
            "[::ffff:10.1.2.3]",
            "0.0.0.0",
            "example.com",
            "localhost.example.com",
        ] {
            let code = format!("ABCDEF.plain@{host}:4466");
            let refused = code.parse::<TableCode>().unwrap_err();
            assert_eq!(refused.why, PLAIN_OFF_LOOPBACK, "{host}");
            let why = format!("plain@{host}:4466")
                .parse::<ServerAddress>()
                .unwrap_err();
            assert!(why.contains(PLAIN_OFF_LOOPBACK), "{why}");
            // With TLS any host is fine: the fingerprint protects it.
            let tls = format!("ABCDEF.{fp}@{host}:4466");
            assert!(tls.parse::<TableCode>().is_ok(), "{tls}");
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
