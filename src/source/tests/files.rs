//! Plain files, standard input and directories as the input: which file is the entry, and
//! what is refused.

use super::*;

#[test]
fn a_file_is_read_under_the_name_given() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "st.yaml", ST);
    let mut l = loader();
    let (input, diags) = open(&mut l, &tmp.path().join("st.yaml"));
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert!(input.csar.is_none());
    let file = l.sources().get(input.entry);
    assert_eq!(file.name, tmp.path().join("st.yaml").display().to_string());
    assert_eq!(&*file.text, ST);
}

#[test]
fn missing_file_and_directory_as_entry_are_named_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let (input, diags) = open(&mut loader(), &tmp.path().join("nope.yaml"));
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_NOT_FOUND]);
    assert!(messages(&diags).contains("nope.yaml"));

    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    let mut l = loader_with(|o| o.entry = Some("sub".into()));
    let (input, diags) = open(&mut l, tmp.path());
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_IS_DIRECTORY]);
}

#[test]
fn oversized_binary_and_empty_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "big.yaml", ST);
    let mut l = loader_with(|o| o.limits.max_file_bytes = 10);
    let (input, diags) = open(&mut l, &tmp.path().join("big.yaml"));
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_TOO_LARGE]);

    std::fs::write(tmp.path().join("bin.yaml"), b"a: \0\x01").unwrap();
    let (_, diags) = open(&mut loader(), &tmp.path().join("bin.yaml"));
    assert_eq!(codes_of(&diags), [codes::INPUT_BINARY]);

    write(tmp.path(), "empty.yaml", "  \n");
    let (_, diags) = open(&mut loader(), &tmp.path().join("empty.yaml"));
    assert_eq!(codes_of(&diags), [codes::INPUT_EMPTY]);
}

/// A file the process may not read is `input::unreadable`, with the OS's reason. A privileged
/// process (root, as CI runs) reads any file, so there the test runs itself again without the
/// capabilities that override file permissions (`setpriv` with an empty bounding set: still uid
/// 0, as the test binary must stay reachable wherever the checkout is, but unable to read a file
/// whose owner bits forbid it). Without `setpriv` it skips visibly, and fails under `CI=true`.
#[cfg(unix)]
#[test]
fn permission_denied_is_unreadable_with_the_os_reason() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let path = write(tmp.path(), "locked.yaml", ST);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&path).is_ok() {
        assert!(
            std::env::var_os("TOSCANA_UNPRIVILEGED").is_none(),
            "dropping privileges did not stop this process from reading a file mode 000"
        );
        return rerun_without_privileges(
            "source::tests::files::permission_denied_is_unreadable_with_the_os_reason",
        );
    }
    let (input, diags) = open(&mut loader(), &path);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_UNREADABLE]);
    assert!(
        messages(&diags).contains("ermission denied"),
        "{}",
        messages(&diags)
    );
}

/// Runs `test` of this test binary again with every capability dropped (see
/// [`permission_denied_is_unreadable_with_the_os_reason`]), and fails when it fails.
#[cfg(unix)]
fn rerun_without_privileges(test: &str) {
    let exe = std::env::current_exe().unwrap();
    let run = std::process::Command::new("setpriv")
        .args(["--bounding-set=-all", "--inh-caps=-all", "--"])
        .arg(exe)
        .args([test, "--exact", "--nocapture", "--test-threads", "1"])
        .env("TOSCANA_UNPRIVILEGED", "1")
        .output();
    let out = match run {
        Ok(out) => out,
        Err(e) => {
            return crate::test_skip::skip(
                test,
                &format!(
                    "running privileged, and `setpriv` (util-linux) cannot drop privileges: {e}"
                ),
            );
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains(&format!("test {test} ... ok")),
        "{test} failed without privileges:\n{text}"
    );
}

#[test]
fn stdin_is_named_and_imports_from_the_current_directory() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "types.yaml", TYPES);
    let mut l = loader();
    l.cwd = tmp.path().to_path_buf();
    let mut diags = Diagnostics::new();
    let input = l.open_reader(ST.as_bytes(), &mut diags).unwrap();
    assert_eq!(l.sources().get(input.entry).name, "<stdin>");
    let (found, diags) = import(&mut l, input.entry, "types.yaml");
    let (id, first) = found.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert!(first);
    assert_eq!(l.sources().get(id).name, "types.yaml");
}

#[test]
fn input_arg_dash_is_stdin() {
    assert_eq!(InputArg::from_arg("-".as_ref()), InputArg::Stdin);
    assert_eq!(
        InputArg::from_arg("a.yaml".as_ref()),
        InputArg::Path("a.yaml".into())
    );
}

// ----- directories ---------------------------------------------------------------------

#[test]
fn a_directory_yields_its_single_service_template() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "main.yml", ST);
    write(tmp.path(), "types.yaml", TYPES);
    write(tmp.path(), "notes.txt", ST);
    write(tmp.path(), "nested/other.yaml", ST);
    let mut l = loader();
    let (input, diags) = open(&mut l, tmp.path());
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert!(l.sources().get(input.entry).name.ends_with("main.yml"));
}

#[test]
fn a_directory_with_no_or_several_templates_asks_for_entry() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "types.yaml", TYPES);
    let (input, diags) = open(&mut loader(), tmp.path());
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_NO_ENTRY]);
    assert!(messages(&diags).contains("--entry"));

    write(tmp.path(), "b.yaml", ST);
    write(
        tmp.path(),
        "a.yaml",
        "\"tosca_definitions_version\": tosca_2_0\nservice_template :\n  node_templates: {}\n",
    );
    let (input, diags) = open(&mut loader(), tmp.path());
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_AMBIGUOUS_ENTRY]);
    let m = messages(&diags);
    assert!(
        m.contains("`a.yaml`, `b.yaml`") && m.contains("--entry a.yaml"),
        "{m}"
    );

    let mut l = loader_with(|o| o.entry = Some("b.yaml".into()));
    let (input, diags) = open(&mut l, tmp.path());
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert!(l.sources().get(input.entry).name.ends_with("b.yaml"));
}

#[test]
fn an_unpacked_csar_directory_follows_its_meta_and_keeps_imports_inside() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("app");
    write(
        &root,
        "TOSCA-Metadata/TOSCA.meta",
        "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nEntry-Definitions: Definitions/main.yaml\n",
    );
    write(&root, "Definitions/main.yaml", ST);
    write(&root, "Definitions/types.yaml", TYPES);
    write(&root, "common.yaml", TYPES);
    write(tmp.path(), "outside.yaml", TYPES);
    let mut l = loader();
    let (input, diags) = open(&mut l, &root);
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    let meta = input.csar.clone().unwrap();
    assert_eq!(meta.csar_version.as_deref(), Some("1.1"));
    assert!(meta.meta_file.is_some());
    let (found, d) = import(&mut l, input.entry, "types.yaml");
    assert!(found.is_some(), "{}", messages(&d));
    let (found, d) = import(&mut l, input.entry, "/common.yaml");
    assert!(found.is_some(), "{}", messages(&d));
    let (found, d) = import(&mut l, input.entry, "../../outside.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);
    assert!(
        messages(&d).contains("outside the CSAR directory"),
        "{}",
        messages(&d)
    );
}
