//! The program's layers, and the test that keeps them (docs/architecture.md
//! draws them). A module may import modules of its own layer and of the
//! layers below, never above; and no modules import each other in a
//! circle, whether at the top or among the modules of any one folder.
//! Test code (`#[cfg(test)]`) may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module, lowest layer first.
const LAYERS: &[(&str, &[&str])] = &[
    ("rules", &["engine"]),
    ("search", &["search"]),
    ("bots", &["bots"]),
    (
        "formats and vocabulary",
        &[
            "fairness",
            "naming",
            "paths",
            "signals",
            "config",
            "presets",
            "record",
            "protocol",
            "look",
            "outside",
            "appending",
        ],
    ),
    (
        "table, session and store",
        &[
            "table",
            "save",
            "session",
            "history",
            "rating",
            "stats",
            "verify",
            "story",
            "analysis",
            "records_folder",
            "ladder",
        ],
    ),
    ("network and arena", &["net", "sim"]),
    ("screen", &["tui"]),
    ("command line", &["cli"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// A module's path from the crate root: `src/tui/app/keys.rs` is
/// `tui::app::keys`, `src/net/mod.rs` is `net`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The source with test modules, comments, strings and characters taken
/// out: only code the program runs is looked at.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..bytes.len().min(i + 2)].iter().collect();
        if rest == "//" {
            while i < bytes.len() && bytes[i] != '\n' {
                i += 1;
            }
        } else if rest == "/*" {
            while i + 1 < bytes.len() && !(bytes[i] == '*' && bytes[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if bytes[i] == '"' {
            i += 1;
            while i < bytes.len() && bytes[i] != '"' {
                i += if bytes[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if bytes[i] == '\''
            && i + 2 < bytes.len()
            && (bytes[i + 2] == '\'' || bytes[i + 1] == '\\')
        {
            // A character literal ('{', '\n'); a lifetime has no closing quote.
            i += 1;
            while i < bytes.len() && bytes[i] != '\'' {
                i += if bytes[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    without_test_modules(&out)
}

/// `code` without its `#[cfg(test)]` modules, inline or declared.
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let after = &out[at..];
        let end = match (after.find('{'), after.find(';')) {
            (Some(brace), semi) if semi.is_none_or(|s| brace < s) => {
                let mut depth = 0;
                let mut end = at + brace;
                for (k, c) in out[at + brace..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = at + brace + k + 1;
                        break;
                    }
                }
                end
            }
            (_, Some(semi)) => at + semi + 1,
            _ => out.len(),
        };
        out.replace_range(at..end, "");
    }
    out
}

/// The paths `code` (of module `from`) names: each path that starts with
/// `crate::` or `super::`, resolved from the crate root and whole
/// (`crate::net::client::Target` is `net::client::Target`, so an import
/// inside one folder is seen); `imports` cuts each to the module it is in.
fn named_modules(from: &[String], code: &str) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = 0;
    while let Some(offset) = code[at..].find(['c', 's']) {
        let start = at + offset;
        at = start + 1;
        // Only a path's start: `crate::`, not `my_crate::` or `a::super::`.
        if code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == ':')
        {
            continue;
        }
        let mut rest = &code[start..];
        let mut base = Vec::new();
        if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
        } else if rest.starts_with("super::") {
            base = from.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
        } else {
            continue;
        }
        // `crate::{a, b::c}` names each of `a` and `b`.
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => {
                let mut depth = 0;
                let end = group
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth < 0
                    })
                    .map_or(group.len(), |(i, _)| i);
                group[..end].split(',').collect()
            }
            None => vec![rest],
        };
        for name in names {
            let words = path_words(name);
            if !words.is_empty() && words[0] != "self" {
                let mut path = base.clone();
                path.extend(words);
                found.insert(path);
            }
        }
    }
    found
}

/// The words of the path `text` starts with: `a::b::C` is `[a, b, C]`,
/// stopping where the path does (a `{`, a `;`, a space).
fn path_words(text: &str) -> Vec<String> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut words = Vec::new();
    let mut rest = text.trim_start();
    loop {
        let word: String = rest.chars().take_while(|&c| is_word(c)).collect();
        if word.is_empty() {
            return words;
        }
        rest = &rest[word.len()..];
        words.push(word);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return words,
        }
    }
}

/// `path` cut to the deepest module of `modules` it starts with (an item
/// such as `net::client::Target` is in `net::client`); its first word
/// when none is.
fn module_of(path: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|prefix| modules.contains(prefix))
        .unwrap_or_else(|| path[..1].to_vec())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ reads").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every import of the program: module path to the module paths it names.
fn imports() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let named: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = files
        .iter()
        .map(|file| {
            let from = module_path(&src, file);
            let text = std::fs::read_to_string(file).expect("a source file reads");
            let names = named_modules(&from, &code_of(&text));
            (from, names)
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = named.keys().cloned().collect();
    named
        .into_iter()
        .map(|(from, names)| {
            let names = names.iter().map(|p| module_of(p, &modules)).collect();
            (from, names)
        })
        .collect()
}

/// Groups of modules that import each other, round a circle.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Each module's reach; two that reach each other share a circle.
    let reach = |start: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.clone()];
        while let Some(m) = todo.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut found: Vec<Vec<String>> = Vec::new();
    for (m, r) in &reaches {
        if !r.contains(*m) || found.iter().any(|c| c.contains(m)) {
            continue;
        }
        let circle = r
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        found.push(circle);
    }
    found
}

#[test]
fn every_module_has_a_layer() {
    let tops: BTreeSet<String> = imports()
        .keys()
        .filter_map(|path| path.first().cloned())
        .filter(|top| top != "layers")
        .collect();
    for top in &tops {
        assert!(
            layer_of(top).is_some(),
            "`{top}` is in no layer: add it to LAYERS"
        );
    }
    for (_, modules) in LAYERS {
        for m in *modules {
            assert!(
                tops.contains(*m),
                "LAYERS names `{m}`, which does not exist"
            );
        }
    }
}

#[test]
fn no_module_imports_a_higher_layer() {
    let mut wrong = Vec::new();
    for (from, names) in imports() {
        let Some(own) = from.first().and_then(|m| layer_of(m)) else {
            continue;
        };
        for name in names {
            let Some(theirs) = name.first().and_then(|m| layer_of(m)) else {
                continue;
            };
            if theirs > own {
                wrong.push(format!(
                    "{} ({}) imports {} ({})",
                    from.join("::"),
                    LAYERS[own].0,
                    name.join("::"),
                    LAYERS[theirs].0
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports of a higher layer:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_modules_import_each_other() {
    // For each folder, the graph of its modules (the top level included).
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, names) in imports() {
        for name in names {
            let common = from.iter().zip(&name).take_while(|(a, b)| a == b).count();
            if let (Some(a), Some(b)) = (from.get(common), name.get(common)) {
                graphs
                    .entry(from[..common].to_vec())
                    .or_default()
                    .entry(a.clone())
                    .or_default()
                    .insert(b.clone());
            }
        }
    }
    let mut found = Vec::new();
    for (folder, graph) in &graphs {
        for circle in circles(graph) {
            let folder = if folder.is_empty() {
                "crate".to_string()
            } else {
                folder.join("::")
            };
            found.push(format!("in {folder}: {}", circle.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_must() {
    let from = vec!["tui".to_string(), "app".to_string(), "keys".to_string()];
    let code = code_of(
        "use super::super::hand::X; use crate::{engine::Card, net}; \
         // use crate::cli;\n let s = \"crate::sim\"; let c = '{'; \
         #[cfg(test)] mod tests { use crate::session::X; }",
    );
    let names: Vec<String> = named_modules(&from, &code)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(names, ["engine::Card", "net", "tui::hand::X"]);
    // The blind spot a first word alone had: an import inside one folder
    // written from the crate's root.
    let code = code_of("fn target() -> crate::net::client::Target { todo() }");
    let from = ["net".to_string(), "code".to_string()];
    let named: Vec<Vec<String>> = named_modules(&from, &code).into_iter().collect();
    let modules: BTreeSet<Vec<String>> = [vec!["net"], vec!["net", "client"], vec!["net", "code"]]
        .into_iter()
        .map(|p| p.into_iter().map(String::from).collect())
        .collect();
    assert_eq!(module_of(&named[0], &modules), ["net", "client"]);
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &["a"][..]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_string(), to.iter().map(|t| t.to_string()).collect()))
    .collect();
    assert_eq!(circles(&graph), [["a", "b", "c"]]);
}
