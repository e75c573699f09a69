//! CSAR archives (zip and tar, plain or gzipped): the entry their meta names, imports kept
//! inside, unsafe entries and size limits refused.

use super::*;

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
