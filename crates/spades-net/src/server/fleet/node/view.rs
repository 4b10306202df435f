//! The other nodes' tables, as this node lists them. Every row comes from
//! another process through the store, so none is believed as it is: a
//! node's address must read as a server, a table's listing must be a
//! listing of a table of that node (its id the row's, its seats its
//! mode's), its names and words are cleaned as at the edge, and the
//! numbers of nodes and tables are bounded, so a buggy or hostile node
//! can neither crash nor flood another's lobby.

use std::collections::{HashMap, HashSet};

use super::{MAX_FLEET_TABLES, MAX_LISTING_BYTES, MAX_NODE_TABLES, MAX_NODES, MAX_SERVER_BYTES};
use crate::code::{ServerAddress, TableCode};
use crate::ladder::fleet::{NodeRow, TableRow};
use crate::protocol::lobby::ListedTable;
use crate::server::{clean_name, clean_text};

/// The longest id of a node or a table read (both are 16 now).
const MAX_ID: usize = 32;
/// The most characters of a table's rules line, or of why it is unrated.
const MAX_WORDS: usize = 200;

/// The fleet as this node sees it, itself left out.
pub(super) struct View {
    own: String,
    nodes: HashMap<String, Node>,
}

struct Node {
    server: ServerAddress,
    tables: HashMap<String, (u64, ListedTable)>,
}

/// What an announcement's payload names: a whole node, or one table of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Announced {
    Node(String),
    Table(String, String),
}

/// An id as nodes make them: base32 letters and digits, short.
fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_ID
        && text
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b))
}

/// An announcement's payload read: `NODE` or `NODE TABLE`; `None` for
/// anything else (which nothing honest sends).
pub(super) fn announced(payload: &str) -> Option<Announced> {
    let mut words = payload.split(' ');
    let node = words.next().filter(|n| is_id(n))?;
    let table = words.next();
    if words.next().is_some() {
        return None;
    }
    match table {
        None => Some(Announced::Node(node.to_string())),
        Some(table) if is_id(table) => Some(Announced::Table(node.into(), table.into())),
        Some(_) => None,
    }
}

/// A table's row believed: its listing read and cleaned, with its code at
/// `server`; `None` when it is not the listing of a table.
fn believe(server: &ServerAddress, row: &TableRow) -> Option<(u64, ListedTable)> {
    if row.listing.len() > MAX_LISTING_BYTES || !is_id(&row.table) {
        return None;
    }
    let mut table: ListedTable = serde_json::from_str(&row.listing).ok()?;
    if table.table != row.table || table.seats.len() != table.mode.players() {
        return None;
    }
    let code = TableCode {
        table: table.table.clone(),
        trust: server.trust.clone(),
        host: server.host.clone(),
        port: server.port,
    };
    table.code = Some(code.to_string());
    table.rules = words(&table.rules);
    table.unrated = table.unrated.as_deref().map(words);
    for seat in &mut table.seats {
        seat.name = seat.name.as_deref().map(clean_name);
    }
    Some((u64::try_from(row.opened).ok()?, table))
}

fn words(text: &str) -> String {
    clean_text(text).chars().take(MAX_WORDS).collect()
}

/// A node's address believed: a server as codes name it, of a bounded
/// length (a code that names no reachable place is refused by the
/// client's own rules: `plain` off loopback, say).
fn believe_server(row: &NodeRow) -> Option<ServerAddress> {
    if row.server.len() > MAX_SERVER_BYTES || !is_id(&row.node) {
        return None;
    }
    row.server.parse().ok()
}

impl View {
    pub(super) fn new(own: String) -> View {
        View {
            own,
            nodes: HashMap::new(),
        }
    }

    /// Every table listed, with when it opened.
    pub(super) fn tables(&self) -> impl Iterator<Item = (u64, &ListedTable)> {
        self.nodes
            .values()
            .flat_map(|node| node.tables.values().map(|(at, t)| (*at, t)))
    }

    fn count(&self) -> usize {
        self.nodes.values().map(|n| n.tables.len()).sum()
    }

    /// The nodes listed.
    pub(super) fn nodes(&self) -> Vec<String> {
        self.nodes.keys().cloned().collect()
    }

    pub(super) fn knows(&self, node: &str) -> bool {
        self.nodes.contains_key(node)
    }

    /// The nodes alive now are `rows`: the others go (with their tables),
    /// the new ones come (their tables still to be read). Which are new,
    /// and whether any went.
    pub(super) fn alive(&mut self, rows: &[NodeRow]) -> (Vec<String>, bool) {
        let believed: HashMap<&str, ServerAddress> = rows
            .iter()
            .filter(|row| row.node != self.own)
            .filter_map(|row| Some((row.node.as_str(), believe_server(row)?)))
            .take(MAX_NODES)
            .collect();
        let before = self.nodes.len();
        self.nodes.retain(|node, known| {
            believed
                .get(node.as_str())
                .is_some_and(|server| *server == known.server)
        });
        let went = self.nodes.len() != before;
        let mut new = Vec::new();
        for (node, server) in believed {
            if !self.nodes.contains_key(node) {
                let tables = HashMap::new();
                self.nodes.insert(node.to_string(), Node { server, tables });
                new.push(node.to_string());
            }
        }
        (new, went)
    }

    /// `rows` are the tables of `node` now: all of them when `only` is
    /// `None`, else the tables named in `only` (a table named and not in
    /// `rows` is gone). Whether anything changed.
    pub(super) fn read(&mut self, node: &str, only: Option<&[String]>, rows: &[TableRow]) -> bool {
        let room = MAX_FLEET_TABLES.saturating_sub(self.count());
        let Some(known) = self.nodes.get_mut(node) else {
            return false;
        };
        let before = known.tables.clone();
        match only {
            None => known.tables.clear(),
            Some(ids) => {
                let ids: HashSet<&String> = ids.iter().collect();
                known.tables.retain(|id, _| !ids.contains(id));
            }
        }
        let mut room = room + before.len() - known.tables.len();
        for row in rows.iter().filter(|row| row.node == node) {
            if known.tables.len() >= MAX_NODE_TABLES || room == 0 {
                break;
            }
            if let Some(table) = believe(&known.server, row) {
                known.tables.insert(row.table.clone(), table);
                room -= 1;
            }
        }
        known.tables != before
    }

    /// The store cannot be read: nothing of it is shown, rather than
    /// tables that may have ended. Whether anything was.
    pub(super) fn clear(&mut self) -> bool {
        let had = !self.nodes.is_empty();
        self.nodes.clear();
        had
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Mode;
    use crate::protocol::SeatPlayer;
    use crate::protocol::lobby::ListedSeat;

    const FP: &str = "MFRGGZDFMZTWQ2LKNNWG23TPOA";

    fn node(id: &str, server: &str) -> NodeRow {
        NodeRow {
            node: id.into(),
            server: server.into(),
        }
    }

    fn listing(id: &str, mode: Mode) -> ListedTable {
        ListedTable {
            table: id.into(),
            mode,
            rules: "to 500".into(),
            seats: (0..mode.players())
                .map(|_| ListedSeat {
                    name: Some("Ann".into()),
                    player: SeatPlayer::Person,
                    rating: None,
                    guest: false,
                })
                .collect(),
            started: false,
            rated: false,
            unrated: None,
            watchers: 0,
            code: None,
        }
    }

    fn row(node: &str, table: &str, listing: &str) -> TableRow {
        TableRow {
            node: node.into(),
            table: table.into(),
            opened: 7,
            listing: listing.into(),
        }
    }

    fn json(table: &ListedTable) -> String {
        serde_json::to_string(table).unwrap()
    }

    #[test]
    fn another_nodes_table_is_listed_with_its_code() {
        let mut view = View::new("OWN".into());
        let server = format!("{FP}@cards2.example.org:4466");
        let (new, _) = view.alive(&[node("OWN", &server), node("TWO", &server)]);
        assert_eq!(new, ["TWO"], "a node does not list itself");
        let t = listing("ABCDEFGH", Mode::Partnership);
        assert!(view.read("TWO", None, &[row("TWO", "ABCDEFGH", &json(&t))]));
        let listed: Vec<_> = view.tables().collect();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].0, 7);
        assert_eq!(
            listed[0].1.code.as_deref(),
            Some(format!("ABCDEFGH.{FP}@cards2.example.org:4466").as_str())
        );
        // Named and not read again: gone.
        assert!(view.read("TWO", Some(&["ABCDEFGH".into()]), &[]));
        assert_eq!(view.tables().count(), 0);
        // The node gone: so are its tables.
        view.read("TWO", None, &[row("TWO", "ABCDEFGH", &json(&t))]);
        let (_, went) = view.alive(&[]);
        assert!(went);
        assert_eq!(view.tables().count(), 0);
    }

    #[test]
    fn hostile_rows_are_refused_or_cleaned() {
        let mut view = View::new("OWN".into());
        let bad_servers = [
            "nonsense",
            "plain@203.0.113.7:4466",
            "SHORT@h:1",
            &format!("{FP}@{}:1", "h".repeat(400)),
        ];
        let rows: Vec<NodeRow> = bad_servers.iter().map(|s| node("BAD", s)).collect();
        for row in &rows {
            assert_eq!(view.alive(std::slice::from_ref(row)).0.len(), 0, "{row:?}");
        }
        assert_eq!(
            view.alive(&[node("bad id", &format!("{FP}@h:1"))]).0.len(),
            0
        );
        view.alive(&[node("TWO", &format!("{FP}@h:1"))]);
        let honest = listing("ABCDEFGH", Mode::Partnership);
        let mut other_id = honest.clone();
        other_id.table = "ZZZZZZZZ".into();
        let mut few_seats = honest.clone();
        few_seats.seats.pop();
        let mut long = honest.clone();
        long.rules = "x".repeat(MAX_LISTING_BYTES);
        let refused = [
            row("TWO", "ABCDEFGH", "not json"),
            row("TWO", "ABCDEFGH", &json(&other_id)),
            row("TWO", "ABCDEFGH", &json(&few_seats)),
            row("TWO", "ABCDEFGH", &json(&long)),
            row("TWO", "abc", &json(&honest)),
            TableRow {
                opened: -1,
                ..row("TWO", "ABCDEFGH", &json(&honest))
            },
            row("TWO", "ABCDEFGH", &"[".repeat(MAX_LISTING_BYTES)),
        ];
        for bad in &refused {
            assert!(
                !view.read("TWO", None, std::slice::from_ref(bad)),
                "{bad:?}"
            );
        }
        // Cleaned as at the edge: names cut, control characters gone.
        let mut dirty = honest.clone();
        dirty.seats[0].name = Some("Bartholomew\u{1b}[2J the Great".into());
        dirty.rules = format!("to 500\u{202e}{}", "y".repeat(500));
        dirty.code = Some("LIE.plain@127.0.0.1:1".into());
        assert!(view.read("TWO", None, &[row("TWO", "ABCDEFGH", &json(&dirty))]));
        let (_, shown) = view.tables().next().unwrap();
        assert_eq!(shown.seats[0].name.as_deref(), Some("Bartholomew"));
        assert!(!shown.rules.contains('\u{202e}'));
        assert_eq!(shown.rules.chars().count(), MAX_WORDS);
        assert!(shown.code.as_deref().unwrap().starts_with("ABCDEFGH."));
    }

    #[test]
    fn a_flood_of_nodes_and_tables_is_bounded() {
        let mut view = View::new("OWN".into());
        let rows: Vec<NodeRow> = (0..100)
            .map(|i| node(&format!("N{}", base32(i)), &format!("{FP}@h:1")))
            .collect();
        let (new, _) = view.alive(&rows);
        assert_eq!(new.len(), MAX_NODES);
        let one = &new[0];
        let tables: Vec<TableRow> = (0..MAX_NODE_TABLES + 50)
            .map(|i| {
                let id = format!("T{}", base32(i));
                row(one, &id, &json(&listing(&id, Mode::Cutthroat)))
            })
            .collect();
        view.read(one, None, &tables);
        assert_eq!(view.tables().count(), MAX_NODE_TABLES);
        for node in &new[1..] {
            let tables: Vec<TableRow> = tables
                .iter()
                .map(|t| TableRow {
                    node: node.clone(),
                    ..t.clone()
                })
                .collect();
            view.read(node, None, &tables);
        }
        assert_eq!(view.tables().count(), MAX_FLEET_TABLES);
    }

    /// `n` in base32 letters, as an id part.
    fn base32(n: usize) -> String {
        let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        let mut n = n;
        let mut out = vec![letters[n % 32]];
        while n >= 32 {
            n /= 32;
            out.push(letters[n % 32]);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn announcements_name_a_node_or_a_table() {
        assert_eq!(announced("ABC"), Some(Announced::Node("ABC".into())));
        assert_eq!(
            announced("ABC DEF"),
            Some(Announced::Table("ABC".into(), "DEF".into()))
        );
        for bad in [
            "",
            "abc",
            "ABC DEF GHI",
            "ABC  DEF",
            &"A".repeat(40),
            "A\u{0}",
        ] {
            assert_eq!(announced(bad), None, "{bad:?}");
        }
    }
}
