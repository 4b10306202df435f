//! The program's layers, and the tests that keep what the compiler cannot
//! (docs/architecture.md draws them). The layers are the workspace's
//! crates: a crate may use only the crates below it, and Cargo refuses a
//! circle among them. What is left to check here: the crates depend in
//! the order below, no modules import each other in a circle among the
//! modules of any one folder of a crate, and docs/architecture.md names
//! every crate and every top module. Test code (`#[cfg(test)]`) may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every crate of the program, lowest layer first, by its folder in the
/// workspace (the top package's is the workspace's root).
const CRATES: &[(&str, &str)] = &[
    ("spades-core", "crates/spades-core"),
    ("spades-formats", "crates/spades-formats"),
    ("spades-store", "crates/spades-store"),
    ("spades-net", "crates/spades-net"),
    ("spades-tui", "crates/spades-tui"),
    ("spades", "."),
];

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A module's path from its crate's root: `src/app/keys.rs` is
/// `app::keys`, `src/server/mod.rs` is `server`.
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

/// Every import of one crate (its `src` folder): module path to the
/// module paths it names.
fn imports(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let named: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = files
        .iter()
        .map(|file| {
            let from = module_path(src, file);
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

/// The `spades-*` crates a crate's manifest depends on (build and normal
/// dependencies, not dev-dependencies: test code may reach anywhere).
fn crate_dependencies(folder: &str) -> BTreeSet<String> {
    let path = workspace().join(folder).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("a manifest reads");
    let manifest: toml::Table = text.parse().expect("a manifest parses");
    let mut tables = vec![manifest.get("dependencies")];
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table()) {
        tables.extend(targets.values().map(|t| t.get("dependencies")));
    }
    tables
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_table())
        .flat_map(|t| t.keys())
        .filter(|name| name.starts_with("spades"))
        .cloned()
        .collect()
}

#[test]
fn every_crate_uses_only_the_crates_below_it() {
    let members: Vec<&str> = CRATES.iter().map(|(name, _)| *name).collect();
    for (at, (name, folder)) in CRATES.iter().enumerate() {
        for used in crate_dependencies(folder) {
            let theirs = members.iter().position(|m| *m == used);
            assert!(
                theirs.is_some_and(|theirs| theirs < at),
                "{name} depends on {used}, which is not a layer below it"
            );
        }
    }
    // Every crate in crates/ has its place.
    for entry in std::fs::read_dir(workspace().join("crates"))
        .expect("crates/ reads")
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(
            members.contains(&name.as_str()),
            "crates/{name} is in no layer: add it to CRATES"
        );
    }
}

/// Each crate's top modules, by crate.
fn top_modules() -> Vec<(&'static str, BTreeSet<String>)> {
    CRATES
        .iter()
        .map(|(name, folder)| {
            let tops = imports(&workspace().join(folder).join("src"))
                .keys()
                .filter_map(|path| path.first().cloned())
                .filter(|top| top != "layers")
                .collect();
            (*name, tops)
        })
        .collect()
}

#[test]
fn the_architecture_names_every_crate_and_top_module() {
    let text = std::fs::read_to_string(workspace().join("docs/architecture.md"))
        .expect("docs/architecture.md reads");
    let mut missing = Vec::new();
    for (name, tops) in top_modules() {
        if !text.contains(&format!("`{name}`")) {
            missing.push(format!("the crate `{name}`"));
        }
        for top in tops {
            if !text.contains(&format!("`{top}")) {
                missing.push(format!("`{top}` of {name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name:\n{}",
        missing.join("\n")
    );
}

#[test]
fn no_modules_import_each_other() {
    let mut found = Vec::new();
    for (name, folder) in CRATES {
        for circle in circles_in(&workspace().join(folder).join("src")) {
            found.push(format!("{name}, {circle}"));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other:\n{}",
        found.join("\n")
    );
}

/// The circles among the modules of each folder of one crate.
fn circles_in(src: &Path) -> Vec<String> {
    // For each folder, the graph of its modules (the top level included).
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, names) in imports(src) {
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
    found
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

/// Every source path the docs name (`crates/…`, `src/…`, `tests/…` in
/// backquotes) exists: a page that points at a file that moved misleads.
#[test]
fn the_docs_name_files_that_exist() {
    let mut missing = Vec::new();
    let docs = std::fs::read_dir(workspace().join("docs")).expect("docs/ reads");
    let mut pages: Vec<PathBuf> = docs.flatten().map(|e| e.path()).collect();
    pages.push(workspace().join("README.md"));
    for page in pages
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(page).expect("a page reads");
        for quoted in text.split('`').skip(1).step_by(2) {
            let is_path = ["crates/", "src/", "tests/"]
                .iter()
                .any(|start| quoted.starts_with(start));
            if is_path && !quoted.contains(['*', ' ', '<']) && !workspace().join(quoted).exists() {
                let name = page.file_name().unwrap_or_default().to_string_lossy();
                missing.push(format!("{name}: {quoted}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name files that do not exist:\n{}",
        missing.join("\n")
    );
}
