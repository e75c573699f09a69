//! Imports on disk and URLs: read once, kept inside the template's root (links included),
//! URLs only through `--map-url`, and their number limited.

use super::*;

#[test]
fn disk_imports_relative_rooted_and_file_urls_are_read_once() {
    let tmp = tempfile::tempdir().unwrap();
    let main = write(tmp.path(), "app/main.yaml", ST);
    let types = write(tmp.path(), "app/lib/types.yaml", TYPES);
    write(tmp.path(), "shared.yaml", TYPES);
    let mut l = loader();
    let (input, _) = open(&mut l, &main);
    let entry = input.unwrap().entry;

    let (found, d) = import(&mut l, entry, "lib/types.yaml");
    let (id, first) = found.unwrap_or_else(|| panic!("{}", messages(&d)));
    assert!(first);
    for spelling in [
        "/lib/types.yaml".to_string(),
        format!("file://{}", types.display()),
        format!("FILE://localhost{}", types.display()),
        format!("file:{}", types.display()),
        "./lib/../lib/types.yaml".to_string(),
        "lib\\types.yaml".to_string(),
        "file:lib/types.yaml".to_string(),
    ] {
        let (found, d) = import(&mut l, entry, &spelling);
        assert_eq!(found, Some((id, false)), "{spelling}: {}", messages(&d));
    }
    // The folder of the file given is the root: nothing above it is read.
    let (found, d) = import(&mut l, id, "../../shared.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);
    // A leading `/` is the root, never the host's.
    let (found, d) = import(&mut l, entry, &types.display().to_string());
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::IMPORT_NOT_FOUND]);
    assert!(messages(&d).contains("not at the root of the file system"));

    let (found, d) = import(&mut l, entry, "nope.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::IMPORT_NOT_FOUND]);
    assert!(messages(&d).contains(&tmp.path().join("app/nope.yaml").display().to_string()));
}

/// Asserts that importing `spelling` from `entry` is refused as leaving the root, without the
/// secret file's content anywhere in what is said; returns what is said.
fn refused(l: &mut Loader, entry: FileId, spelling: &str) -> String {
    let (found, d) = import(l, entry, spelling);
    assert!(found.is_none(), "{spelling} was read");
    let said = messages(&d);
    assert_eq!(
        codes_of(&d),
        [codes::INPUT_OUTSIDE_ROOT],
        "{spelling}: {said}"
    );
    assert!(!said.contains("hunter2"), "{spelling}: {said}");
    said
}

#[test]
fn every_spelling_of_a_file_outside_the_root_is_refused_without_reading_it() {
    let tmp = tempfile::tempdir().unwrap();
    let main = write(tmp.path(), "app/main.yaml", ST);
    let secret = write(tmp.path(), "secret.yaml", "password: hunter2\n");
    let secret_text = secret.display().to_string();
    let encoded = secret_text.replace('/', "%2F").replacen("%2F", "/", 1);
    let mut l = loader();
    let (input, _) = open(&mut l, &main);
    let entry = input.unwrap().entry;
    for spelling in [
        format!("file://{secret_text}"),
        format!("file:{secret_text}"),
        format!("file://localhost{secret_text}"),
        format!("FILE://LOCALHOST{secret_text}"),
        format!("file://{encoded}"),
        format!("file://{}/app/%2e%2e/secret.yaml", tmp.path().display()),
        format!("file://{}/app/%2E%2E/secret.yaml", tmp.path().display()),
        format!("file://{}/app/..%2fsecret.yaml", tmp.path().display()),
        "file:../secret.yaml".to_string(),
        "../secret.yaml".to_string(),
        "..\\secret.yaml".to_string(),
        "lib/../../secret.yaml".to_string(),
        "/../secret.yaml".to_string(),
        "C:/Windows/win.ini".to_string(),
        "c:\\secret.yaml".to_string(),
        "file:///C:/secret.yaml".to_string(),
        "file://evil.example/secret.yaml".to_string(),
        "file:///etc/passwd".to_string(),
        format!("file://{secret_text}%00.yaml"),
        "a\0/../../secret.yaml".to_string(),
    ] {
        refused(&mut l, entry, &spelling);
    }
    assert_eq!(l.sources().len(), 1, "nothing but the entry was read");
}

#[cfg(unix)]
#[test]
fn links_that_leave_the_root_are_not_followed() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let secret = write(tmp.path(), "secret.yaml", "password: hunter2\n");
    let main = write(tmp.path(), "app/main.yaml", ST);
    write(tmp.path(), "app/lib/types.yaml", TYPES);
    symlink(&secret, tmp.path().join("app/link.yaml")).unwrap();
    symlink(tmp.path(), tmp.path().join("app/up")).unwrap();
    symlink("lib/types.yaml", tmp.path().join("app/inside.yaml")).unwrap();
    let mut l = loader();
    let (input, _) = open(&mut l, &main);
    let entry = input.unwrap().entry;
    for spelling in [
        "link.yaml",
        "up/secret.yaml",
        "up/missing.yaml",
        "/link.yaml",
    ] {
        let said = refused(&mut l, entry, spelling);
        assert!(said.contains("symbolic link"), "{spelling}: {said}");
    }
    // A link that stays inside is an ordinary file.
    let (found, d) = import(&mut l, entry, "inside.yaml");
    assert!(found.is_some(), "{}", messages(&d));
    // The file the user names is read as named, even through a link.
    let named = tmp.path().join("named.yaml");
    symlink(&main, &named).unwrap();
    let mut l = loader();
    let (input, d) = open(&mut l, &named);
    assert!(input.is_some(), "{}", messages(&d));
}

#[test]
fn urls_are_read_only_through_map_url_with_the_longest_prefix() {
    let tmp = tempfile::tempdir().unwrap();
    let main = write(tmp.path(), "main.yaml", ST);
    let all = tmp.path().join("mirror");
    let deep = tmp.path().join("deep");
    write(&all, "x/types.yaml", TYPES);
    write(&all, "x/sibling.yaml", TYPES);
    write(&deep, "types.yaml", TYPES);
    let mut l = loader_with(|o| {
        o.map_url = vec![
            ("https://example.org/".into(), all.clone()),
            ("https://example.org/deep/".into(), deep.clone()),
        ]
    });
    let (input, _) = open(&mut l, &main);
    let entry = input.unwrap().entry;

    let (found, d) = import(&mut l, entry, "https://example.org/x/types.yaml");
    let (x, _) = found.unwrap_or_else(|| panic!("{}", messages(&d)));
    assert!(l.sources().get(x).name.ends_with("mirror/x/types.yaml"));
    // A relative import of a URL-mapped file is a URL again.
    let (found, d) = import(&mut l, x, "sibling.yaml");
    assert!(found.is_some(), "{}", messages(&d));
    let (found, d) = import(&mut l, entry, "https://example.org/deep/types.yaml");
    let (y, _) = found.unwrap_or_else(|| panic!("{}", messages(&d)));
    assert!(l.sources().get(y).name.ends_with("deep/types.yaml"));

    let (found, d) = import(&mut l, entry, "https://other.net/p/t.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::IMPORT_UNMAPPED_URL]);
    assert!(messages(&d).contains("--map-url https://other.net/p/=DIR"));

    let (found, d) = import(&mut l, entry, "https://example.org/../secret.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);

    // A repository URL is joined with the import path, then mapped like any URL.
    let mut diags = Diagnostics::new();
    let at = l.sources().get(entry).span(entry, 0, 1);
    let r = l.resolve_import(
        entry,
        &ImportRef {
            url: "/types.yaml",
            repository_url: Some("https://example.org/deep/"),
        },
        at,
        &mut diags,
    );
    assert_eq!(r, Some((y, false)), "{}", messages(&diags));
}

#[test]
fn import_count_is_limited() {
    let tmp = tempfile::tempdir().unwrap();
    let main = write(tmp.path(), "main.yaml", ST);
    write(tmp.path(), "a.yaml", TYPES);
    write(tmp.path(), "b.yaml", TYPES);
    let mut l = loader_with(|o| o.limits.max_imports = 1);
    let entry = open(&mut l, &main).0.unwrap().entry;
    assert!(import(&mut l, entry, "a.yaml").0.is_some());
    // Already read: the cache answers without counting.
    assert!(import(&mut l, entry, "a.yaml").0.is_some());
    let (found, d) = import(&mut l, entry, "b.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::IMPORT_LIMIT]);
}

#[test]
fn builtins_import_each_other_relatively() {
    let mut l = loader();
    let profile = l.add_builtin("tosca-2.0/profile.yaml", TYPES);
    let data = l.add_builtin("tosca-2.0/data.yaml", TYPES);
    assert_eq!(l.add_builtin("tosca-2.0/data.yaml", TYPES), data);
    assert_eq!(
        l.sources().get(data).origin,
        Origin::Builtin("tosca-2.0/data.yaml".into())
    );
    assert_eq!(import(&mut l, profile, "data.yaml").0, Some((data, true)));
    assert_eq!(
        import(&mut l, profile, "./data.yaml").0,
        Some((data, false))
    );
    let (found, d) = import(&mut l, profile, "nope.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::IMPORT_NOT_FOUND]);
    assert!(l.take_builtin(profile));
    assert!(!l.take_builtin(profile));
}
