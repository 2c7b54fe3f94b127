//! The product never depends on the lab: no crate under `crates/` names a lab crate
//! (one under `lab/`) among its dependencies of any kind (normal, dev, build, per
//! target), by name or by a path into `lab/`. ARCHITECTURE.md states the rule; this test
//! reads the manifests, so a new crate or dependency is checked without anyone listing it.

use std::path::{Path, PathBuf};

/// The repository's root (this crate is `lab/solvo-lab`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `Cargo.toml` of every crate directly under `dir`.
fn manifests(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| Some(e.ok()?.path().join("Cargo.toml")))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// The package name a manifest declares.
fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(v) = line.strip_prefix("name").map(str::trim_start).and_then(|r| r.strip_prefix('=')) {
                return Some(v.trim().trim_matches('"').to_string());
            }
        }
    }
    None
}

/// The dependencies of `manifest` (every `[...dependencies]` table, and
/// `[...dependencies.NAME]` tables) that are lab crates (`lab_names`) or point into a
/// `lab/` directory: `(dependency, line)`.
fn lab_dependencies(manifest: &str, lab_names: &[String]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            let header = line.trim_matches(|c| c == '[' || c == ']');
            in_deps = false;
            // `[dependencies.solvo-train]`, `[target.'cfg(unix)'.dev-dependencies.x]`.
            if let Some((_, name)) = header.rsplit_once("dependencies.") {
                let name = name.trim_matches('"').to_string();
                if lab_names.contains(&name) {
                    found.push((name, line.to_string()));
                }
            } else {
                in_deps = header.ends_with("dependencies");
            }
            continue;
        }
        if !in_deps || line.starts_with('#') || line.is_empty() {
            continue;
        }
        let key = line.split(['=', '.']).next().unwrap_or("").trim().trim_matches('"').to_string();
        let package = line
            .split("package")
            .nth(1)
            .and_then(|r| r.trim_start().strip_prefix('='))
            .and_then(|r| r.trim_start().strip_prefix('"'))
            .and_then(|r| r.split('"').next())
            .map(String::from);
        let into_lab = line.contains("\"lab/") || line.contains("/lab/") || line.contains("../lab");
        if lab_names.contains(&key) || package.is_some_and(|p| lab_names.contains(&p)) || into_lab {
            found.push((key, line.to_string()));
        }
    }
    found
}

/// The names of the lab's crates.
fn lab_names() -> Vec<String> {
    manifests(&root().join("lab")).iter().filter_map(|m| package_name(&std::fs::read_to_string(m).unwrap())).collect()
}

#[test]
fn no_product_crate_depends_on_the_lab() {
    let lab = lab_names();
    assert!(lab.len() >= 3 && lab.iter().any(|n| n == "solvo-train"), "lab crates found: {lab:?}");
    let product = manifests(&root().join("crates"));
    assert!(product.len() >= 10, "{} product manifests", product.len());
    let mut violations = Vec::new();
    for m in &product {
        let text = std::fs::read_to_string(m).unwrap();
        for (dep, line) in lab_dependencies(&text, &lab) {
            violations.push(format!("{}: depends on the lab crate {dep} ({line})", m.display()));
        }
    }
    assert!(violations.is_empty(), "the product must not depend on lab/:\n{}", violations.join("\n"));
}

/// The check itself finds every way a manifest can name a lab crate, and nothing else.
#[test]
fn the_check_finds_each_spelling_of_a_lab_dependency() {
    let lab = vec!["solvo-train".to_string(), "solvo-study".to_string()];
    let spellings = [
        "[dependencies]\nsolvo-train.workspace = true\n",
        "[dependencies]\nsolvo-train = { path = \"../../lab/solvo-train\" }\n",
        "[dev-dependencies]\nsolvo-study = { workspace = true }\n",
        "[build-dependencies]\ntrain = { package = \"solvo-train\", path = \"x\" }\n",
        "[target.'cfg(unix)'.dependencies]\nx = { path = \"../../lab/anything\" }\n",
        "[dependencies.solvo-study]\nworkspace = true\n",
    ];
    for text in spellings {
        assert_eq!(lab_dependencies(text, &lab).len(), 1, "{text}");
    }
    let clean = "[package]\nname = \"solvo-train-like\"\n[dependencies]\nsolvo-eval.workspace = true\nserde = \"1\"\n\
                 [features]\nsolvo-train = []\n";
    assert!(lab_dependencies(clean, &lab).is_empty());
    assert_eq!(package_name(clean).as_deref(), Some("solvo-train-like"));
}

/// The direct `[dependencies]` on workspace crates (`solvo-*`) that `manifest` declares.
fn solvo_dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps {
            if let Some(name) = line.split(['=', '.', ' ']).next().filter(|n| n.starts_with("solvo-")) {
                out.push(name.to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// ARCHITECTURE.md's list of the product's dependencies is the manifests' own: a crate or
/// dependency added, or one removed, without the drawing's list following, fails here.
#[test]
fn the_architecture_lists_the_products_dependencies_as_the_manifests_declare_them() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let block = text
        .split("<!-- dependencies -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- end dependencies -->").next())
        .expect("ARCHITECTURE.md has a <!-- dependencies --> list");
    let mut listed: Vec<(String, Vec<String>)> = block
        .lines()
        .filter_map(|l| l.split_once("->"))
        .map(|(name, deps)| (name.trim().to_string(), deps.split_whitespace().map(str::to_string).collect()))
        .collect();
    listed.sort();
    let mut actual: Vec<(String, Vec<String>)> = manifests(&root().join("crates"))
        .iter()
        .map(|m| {
            let text = std::fs::read_to_string(m).unwrap();
            let name = package_name(&text).unwrap_or_else(|| panic!("{}: no package name", m.display()));
            (name, solvo_dependencies(&text))
        })
        .collect();
    actual.sort();
    assert_eq!(listed, actual, "ARCHITECTURE.md's dependency list (left) differs from the manifests (right)");
}
