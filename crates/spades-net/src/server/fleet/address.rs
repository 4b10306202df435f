//! `--public-address`: where players reach a node, as the fleet's other
//! lobbies name it in the codes of its tables.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use crate::code::{ServerAddress, Trust};

/// A host name or address, and the port when it is not the one the node
/// listens on (a port forwarded to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicAddress {
    pub host: String,
    pub port: Option<u16>,
}

/// The longest host name DNS allows.
const MAX_HOST: usize = 253;

impl FromStr for PublicAddress {
    type Err = String;

    fn from_str(text: &str) -> Result<PublicAddress, String> {
        let bad = |why: &str| {
            format!(
                "`{text}` is not an address players can reach ({why}): give HOST or HOST:PORT, e.g. cards1.example.org or 203.0.113.7:4466"
            )
        };
        let text = text.trim();
        // An IPv6 address is written in brackets when a port follows.
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(|| bad("no closing ]"))?;
            match after {
                "" => (host, None),
                _ => (
                    host,
                    Some(
                        after
                            .strip_prefix(':')
                            .ok_or_else(|| bad("no :PORT after ]"))?,
                    ),
                ),
            }
        } else if text.matches(':').count() > 1 {
            (text, None)
        } else {
            match text.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (text, None),
            }
        };
        let port = port
            .map(|p| {
                p.parse::<u16>()
                    .ok()
                    .filter(|&p| p != 0)
                    .ok_or_else(|| bad("the port is a number from 1 to 65535"))
            })
            .transpose()?;
        if host.is_empty() || host.len() > MAX_HOST {
            return Err(bad("the host is 1 to 253 characters"));
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '_');
        if !host.chars().all(allowed) {
            return Err(bad(
                "a host is letters, digits, dots and dashes, or an IP address",
            ));
        }
        if host.contains(':') && host.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(bad("not an IPv6 address"));
        }
        if host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_unspecified())
        {
            return Err(bad("a wildcard reaches no machine"));
        }
        Ok(PublicAddress {
            host: host.to_string(),
            port,
        })
    }
}

impl fmt::Display for PublicAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        match self.port {
            Some(port) => write!(f, "{host}:{port}"),
            None => write!(f, "{host}"),
        }
    }
}

/// Where players reach a node listening on `listening` with `trust`: the
/// public address given (its port the one listened on unless it names
/// one), else the address listened on unless it is a wildcard; `None`
/// when no address of it can be told.
pub(crate) fn reached_at(
    given: Option<&PublicAddress>,
    listening: SocketAddr,
    trust: Trust,
) -> Option<ServerAddress> {
    let (host, port) = match given {
        Some(given) => (given.host.clone(), given.port.unwrap_or(listening.port())),
        None if listening.ip().is_unspecified() => return None,
        None => (listening.ip().to_string(), listening.port()),
    };
    Some(ServerAddress { trust, host, port })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_address_is_a_host_and_maybe_a_port() {
        let read = |text: &str| text.parse::<PublicAddress>();
        let at = |host: &str, port| PublicAddress {
            host: host.into(),
            port,
        };
        assert_eq!(
            read("cards1.example.org"),
            Ok(at("cards1.example.org", None))
        );
        assert_eq!(read("203.0.113.7:4466"), Ok(at("203.0.113.7", Some(4466))));
        assert_eq!(read("[2001:db8::7]:9"), Ok(at("2001:db8::7", Some(9))));
        assert_eq!(read("2001:db8::7"), Ok(at("2001:db8::7", None)));
        assert_eq!(read("[::1]").unwrap().to_string(), "[::1]");
        for bad in [
            "",
            ":4466",
            "host:0",
            "host:port",
            "host:70000",
            "a b",
            "x@y",
            "host/path",
            "0.0.0.0",
            "[::]:1",
            "[::1",
            "1:2:zz",
            &"a".repeat(300),
        ] {
            let why = read(bad).unwrap_err();
            assert!(why.contains("HOST or HOST:PORT"), "{bad}: {why}");
        }
    }

    #[test]
    fn a_node_is_reached_where_it_says_or_where_it_listens() {
        let trust = Trust::Plain;
        let listening: SocketAddr = "127.0.0.1:4466".parse().unwrap();
        let given = PublicAddress {
            host: "cards1.example.org".into(),
            port: None,
        };
        let at = reached_at(Some(&given), listening, trust.clone()).unwrap();
        assert_eq!((at.host.as_str(), at.port), ("cards1.example.org", 4466));
        let at = reached_at(None, listening, trust.clone()).unwrap();
        assert_eq!((at.host.as_str(), at.port), ("127.0.0.1", 4466));
        let wildcard: SocketAddr = "0.0.0.0:4466".parse().unwrap();
        assert_eq!(reached_at(None, wildcard, trust), None);
    }
}
