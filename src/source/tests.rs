//! Loader behaviour on real files, directories and zip archives built in temporary folders.

use std::io::Write;
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

use super::*;
use crate::diag::{Diagnostics, codes};

const ST: &str =
    "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates: {}\n";
const TYPES: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {}\n";

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

fn zip_at(path: &Path, entries: &[(&str, &[u8])]) {
    let file = std::fs::File::create(path).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    for (name, data) in entries {
        zip.start_file(*name, SimpleFileOptions::default()).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap();
}

fn loader() -> Loader {
    Loader::new(SourceOptions::default())
}

fn loader_with(f: impl FnOnce(&mut SourceOptions)) -> Loader {
    let mut options = SourceOptions::default();
    f(&mut options);
    Loader::new(options)
}

fn codes_of(diags: &Diagnostics) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

fn messages(diags: &Diagnostics) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {} | {}",
                d.code,
                d.message,
                d.hint.clone().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn open(loader: &mut Loader, path: &Path) -> (Option<Input>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let input = loader.open_input(&InputArg::Path(path.to_path_buf()), &mut diags);
    (input, diags)
}

fn import(
    loader: &mut Loader,
    importer: FileId,
    url: &str,
) -> (Option<(FileId, bool)>, Diagnostics) {
    let mut diags = Diagnostics::new();
    let at = loader.sources().get(importer).span(importer, 0, 1);
    let r = loader.resolve_import(importer, &ImportRef::new(url), at, &mut diags);
    (r, diags)
}

// ----- plain files ---------------------------------------------------------------------

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
            "source::tests::permission_denied_is_unreadable_with_the_os_reason",
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

// ----- CSAR archives ---------------------------------------------------------------------

const META: &[u8] = b"TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: me\nEntry-Definitions: Definitions/main.yaml\n";

#[test]
fn a_csar_with_meta_opens_its_entry_and_resolves_imports_inside() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("app.csar");
    zip_at(
        &path,
        &[
            ("TOSCA-Metadata/TOSCA.meta", META),
            ("Definitions/main.yaml", ST.as_bytes()),
            ("Definitions/types.yaml", TYPES.as_bytes()),
            ("common/base.yaml", TYPES.as_bytes()),
        ],
    );
    let mut l = loader();
    let (input, diags) = open(&mut l, &path);
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    let meta = input.csar.unwrap();
    assert_eq!(meta.created_by.as_deref(), Some("me"));
    assert_eq!(
        meta.entry_definitions.as_deref(),
        Some("Definitions/main.yaml")
    );
    let shown = path.display().to_string();
    assert_eq!(
        l.sources().get(input.entry).name,
        format!("{shown}!/Definitions/main.yaml")
    );
    assert_eq!(
        l.sources().get(meta.meta_file.unwrap()).name,
        format!("{shown}!/TOSCA-Metadata/TOSCA.meta")
    );

    let (found, d) = import(&mut l, input.entry, "types.yaml");
    let (types, first) = found.unwrap_or_else(|| panic!("{}", messages(&d)));
    assert!(first);
    let (again, d) = import(&mut l, input.entry, "./types.yaml");
    assert_eq!(again, Some((types, false)), "{}", messages(&d));
    // T2-IMPORT-07: a leading `/` is the archive root.
    let (found, d) = import(&mut l, types, "/common/base.yaml");
    assert!(found.is_some(), "{}", messages(&d));
    let (found, d) = import(&mut l, types, "../common/base.yaml");
    assert_eq!(found.map(|f| f.1), Some(false), "{}", messages(&d));
    // Importing the entry itself (a cycle) returns the same file, not a second copy.
    let (found, _) = import(&mut l, types, "main.yaml");
    assert_eq!(found, Some((input.entry, false)));

    let (found, d) = import(&mut l, input.entry, "../../escape.yaml");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);
    assert!(
        messages(&d).contains("outside the CSAR"),
        "{}",
        messages(&d)
    );
    // So is a file URL: an archive has no place on the host.
    let (found, d) = import(&mut l, input.entry, "file:///etc/passwd");
    assert!(found.is_none());
    assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);
    let (found, d) = import(&mut l, input.entry, "missing.yaml");
    assert!(found.is_none());
    assert!(
        messages(&d).contains("Definitions/missing.yaml"),
        "{}",
        messages(&d)
    );
    assert!(d.iter().next().unwrap().span.is_some());
}

#[test]
fn a_csar_without_meta_uses_its_single_root_yaml() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one.zip");
    zip_at(
        &one,
        &[
            ("main.yaml", ST.as_bytes()),
            ("lib/t.yaml", TYPES.as_bytes()),
        ],
    );
    let mut l = loader();
    let (input, diags) = open(&mut l, &one);
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert_eq!(input.csar.unwrap().meta_file, None);

    let two = tmp.path().join("two.zip");
    zip_at(&two, &[("a.yaml", ST.as_bytes()), ("b.yml", ST.as_bytes())]);
    let (input, diags) = open(&mut loader(), &two);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::INPUT_AMBIGUOUS_ENTRY]);

    let none = tmp.path().join("none.zip");
    zip_at(&none, &[("lib/t.yaml", TYPES.as_bytes())]);
    let (_, diags) = open(&mut loader(), &none);
    assert_eq!(codes_of(&diags), [codes::INPUT_NO_ENTRY]);
}

#[test]
fn bad_meta_files_are_reported_in_the_meta_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bad.zip");
    zip_at(
        &path,
        &[
            (
                "TOSCA-Metadata/TOSCA.meta",
                b"CSAR-Version: 1.1\nEntry-Definitions, main.yaml\n",
            ),
            ("main.yaml", ST.as_bytes()),
        ],
    );
    let mut l = loader();
    let (input, diags) = open(&mut l, &path);
    assert!(input.is_none());
    let d = diags.iter().next().unwrap();
    assert_eq!(d.code, codes::CSAR_META);
    let span = d.span.unwrap();
    assert_eq!((span.line, span.col), (2, 1));
    assert!(
        l.sources()
            .get(span.file)
            .name
            .ends_with("bad.zip!/TOSCA-Metadata/TOSCA.meta")
    );

    let path = tmp.path().join("missing.zip");
    zip_at(
        &path,
        &[
            (
                "TOSCA-Metadata/TOSCA.meta",
                b"CSAR-Version: 1.1\nEntry-Definitions: nope.yaml\n",
            ),
            ("main.yaml", ST.as_bytes()),
        ],
    );
    let (input, diags) = open(&mut loader(), &path);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_META]);
    assert!(messages(&diags).contains("nope.yaml"));
    assert_eq!(diags.iter().next().unwrap().span.unwrap().line, 2);

    let path = tmp.path().join("nokey.zip");
    zip_at(
        &path,
        &[
            (
                "TOSCA-Metadata/TOSCA.meta",
                b"CSAR-Version: 1.1\nEntry-Definition: main.yaml\n",
            ),
            ("main.yaml", ST.as_bytes()),
        ],
    );
    let (_, diags) = open(&mut loader(), &path);
    assert_eq!(codes_of(&diags), [codes::CSAR_META]);
    assert!(messages(&diags).contains("found `Entry-Definition`"));

    let path = tmp.path().join("two.zip");
    zip_at(
        &path,
        &[("TOSCA-Metadata/TOSCA.meta", META), ("TOSCA.meta", META)],
    );
    let (_, diags) = open(&mut loader(), &path);
    assert_eq!(codes_of(&diags), [codes::CSAR_META]);

    let path = tmp.path().join("misplaced.zip");
    zip_at(
        &path,
        &[
            ("TOSCA-metadate/TOSCA.meta", META),
            ("main.yaml", ST.as_bytes()),
        ],
    );
    let (_, diags) = open(&mut loader(), &path);
    assert_eq!(codes_of(&diags), [codes::CSAR_META]);
    assert!(messages(&diags).contains("TOSCA-metadate/TOSCA.meta"));
}

fn assert_unsafe(path: &Path, fragment: &str) {
    let (input, diags) = open(&mut loader(), path);
    assert!(input.is_none(), "{fragment}");
    assert!(
        codes_of(&diags).contains(&codes::CSAR_UNSAFE_PATH),
        "{fragment}: {}",
        messages(&diags)
    );
    assert!(messages(&diags).contains(fragment), "{}", messages(&diags));
}

#[test]
fn unsafe_entries_refuse_the_whole_archive() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, (name, why)) in [
        ("../evil.yaml", "`..`"),
        ("/etc/evil.yaml", "absolute"),
        ("C:/evil.yaml", "drive letter"),
        ("dir\\evil.yaml", "separator"),
    ]
    .into_iter()
    .enumerate()
    {
        let path = tmp.path().join(format!("u{i}.zip"));
        zip_at(&path, &[("main.yaml", ST.as_bytes()), (name, b"x: 1\n")]);
        assert_unsafe(&path, why);
        assert!(messages(&open(&mut loader(), &path).1).contains(name));
    }

    let path = tmp.path().join("link.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    zip.start_file("main.yaml", SimpleFileOptions::default())
        .unwrap();
    zip.write_all(ST.as_bytes()).unwrap();
    zip.add_symlink("lib.yaml", "/etc/passwd", SimpleFileOptions::default())
        .unwrap();
    zip.finish().unwrap();
    assert_unsafe(&path, "symbolic link");

    // Two entries with the same name: write distinct names of equal length, then rename one
    // in both the local and the central headers.
    let path = tmp.path().join("dup.zip");
    zip_at(
        &path,
        &[("a.yaml", ST.as_bytes()), ("b.yaml", ST.as_bytes())],
    );
    let bytes = std::fs::read(&path).unwrap();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"b.yaml") {
            out.extend_from_slice(b"a.yaml");
            i += 6;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    std::fs::write(&path, out).unwrap();
    assert_unsafe(&path, "same name");
}

#[test]
fn archive_limits_are_enforced() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("many.zip");
    zip_at(
        &path,
        &[("main.yaml", ST.as_bytes()), ("a", b"1"), ("b", b"2")],
    );
    let mut l = loader_with(|o| o.limits.max_csar_entries = 2);
    let (input, diags) = open(&mut l, &path);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_LIMIT]);

    let mut l = loader_with(|o| o.limits.max_csar_bytes = 20);
    let (input, diags) = open(&mut l, &path);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_LIMIT]);

    let bomb = tmp.path().join("bomb.zip");
    let zeros = vec![b' '; 4 * 1024 * 1024];
    let file = std::fs::File::create(&bomb).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let deflated =
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("main.yaml", deflated).unwrap();
    zip.write_all(ST.as_bytes()).unwrap();
    zip.start_file("blob.yaml", deflated).unwrap();
    zip.write_all(&zeros).unwrap();
    zip.finish().unwrap();
    let (input, diags) = open(&mut loader(), &bomb);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_LIMIT]);
    assert!(messages(&diags).contains("blob.yaml"));
}

/// `entries` as a tar at `path`, gzipped when it ends in `.gz` or `.tgz`.
fn tar_at(path: &Path, entries: &[(&str, u8, &[u8])]) {
    let bytes = super::tar::tests::tar(entries);
    let name = path.to_string_lossy();
    if name.ends_with(".gz") || name.ends_with(".tgz") {
        let mut gz = flate2::write::GzEncoder::new(
            std::fs::File::create(path).unwrap(),
            flate2::Compression::default(),
        );
        std::io::Write::write_all(&mut gz, &bytes).unwrap();
        gz.finish().unwrap();
    } else {
        std::fs::write(path, bytes).unwrap();
    }
}

#[test]
fn tar_csars_plain_and_gzipped_open_like_zips() {
    // TOSCA 2.0 allows tar and tar.gz CSARs (§17.1.1.1 Tarballs).
    let tmp = tempfile::tempdir().unwrap();
    for name in ["app.tar", "app.tar.gz", "app.tgz"] {
        let path = tmp.path().join(name);
        tar_at(
            &path,
            &[
                ("TOSCA-Metadata/", b'5', b""),
                ("TOSCA-Metadata/TOSCA.meta", b'0', META),
                ("Definitions/main.yaml", b'0', ST.as_bytes()),
                ("Definitions/types.yaml", b'0', TYPES.as_bytes()),
            ],
        );
        let mut l = loader();
        let (input, diags) = open(&mut l, &path);
        let input = input.unwrap_or_else(|| panic!("{name}: {}", messages(&diags)));
        assert_eq!(
            l.sources().get(input.entry).name,
            format!("{}!/Definitions/main.yaml", path.display())
        );
        let (found, d) = import(&mut l, input.entry, "types.yaml");
        assert!(found.is_some(), "{name}: {}", messages(&d));
        let (found, d) = import(&mut l, input.entry, "../../escape.yaml");
        assert!(found.is_none());
        assert_eq!(codes_of(&d), [codes::INPUT_OUTSIDE_ROOT]);
    }
    // A link refuses the whole archive, as in a zip.
    let path = tmp.path().join("linked.tar");
    tar_at(
        &path,
        &[("main.yaml", b'0', ST.as_bytes()), ("etc", b'2', b"")],
    );
    let (input, diags) = open(&mut loader(), &path);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_UNSAFE_PATH]);
    assert!(
        messages(&diags).contains("`etc`: it is a link"),
        "{}",
        messages(&diags)
    );
    // So does a name that climbs out.
    let path = tmp.path().join("climbing.tar");
    tar_at(&path, &[("../main.yaml", b'0', ST.as_bytes())]);
    let (_, diags) = open(&mut loader(), &path);
    assert_eq!(codes_of(&diags), [codes::CSAR_UNSAFE_PATH]);
}

#[test]
fn non_zips_and_tars_are_invalid_and_pk_magic_means_zip() {
    let tmp = tempfile::tempdir().unwrap();
    let fake = write(tmp.path(), "fake.zip", ST);
    let (input, diags) = open(&mut loader(), &fake);
    assert!(input.is_none());
    assert_eq!(codes_of(&diags), [codes::CSAR_INVALID]);

    let tgz = write(tmp.path(), "app.tar.gz", "whatever");
    let (_, diags) = open(&mut loader(), &tgz);
    assert_eq!(codes_of(&diags), [codes::CSAR_INVALID]);
    assert!(messages(&diags).contains("not a valid tar archive"));

    let disguised = tmp.path().join("really-a-zip.yaml");
    zip_at(&disguised, &[("main.yaml", ST.as_bytes())]);
    let mut l = loader();
    let (input, diags) = open(&mut l, &disguised);
    let input = input.unwrap_or_else(|| panic!("{}", messages(&diags)));
    assert!(
        l.sources()
            .get(input.entry)
            .name
            .ends_with("really-a-zip.yaml!/main.yaml")
    );
}

// ----- imports on disk and URLs ----------------------------------------------------------

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
