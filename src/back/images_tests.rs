use super::*;

#[test]
fn every_image_of_the_table_is_pinned() {
    let t = table();
    assert!(is_pinned(&t.default));
    for e in t.operating_systems.iter().chain(&t.products) {
        let version = e.default_version.as_deref().unwrap_or("1");
        let image = fill(&e.image, &release_of(e, version));
        assert!(is_pinned(&image), "{image}");
        assert!(!image.ends_with(":latest"), "{image}");
    }
}

#[test]
fn a_bare_major_becomes_its_newest_release() {
    let c = for_os("web", Some("Ubuntu"), Some("22"));
    assert_eq!(c.image, "ubuntu:22.04");
    assert!(c.findings.is_empty());
    let c = for_os("web", Some("rhel"), Some("8"));
    assert_eq!(c.image, "registry.access.redhat.com/ubi8/ubi:8.10");
}

#[test]
fn ubi_starts_at_7_and_older_releases_use_the_default() {
    let c = for_os("web", Some("rhel"), Some("6"));
    assert_eq!(c.image, "registry.access.redhat.com/ubi9/ubi:9.5");
    assert!(c.findings[0].message.contains("has no image at all"));
    let c = for_os("web", Some("rhel"), Some("7"));
    assert_eq!(c.image, "registry.access.redhat.com/ubi7/ubi:7.9");
    assert!(c.findings[0].message.contains("out of support"));
}

#[test]
fn out_of_support_releases_are_warned_and_kept() {
    let c = for_os("web", Some("ubuntu"), Some("14.04"));
    assert_eq!(c.image, "ubuntu:14.04");
    assert!(c.findings[0].message.contains("supported from 22.04"));
    let c = for_os("web", Some("fedora"), Some("18"));
    assert_eq!(c.image, "fedora:41");
    assert!(c.findings[0].message.contains("has no image at all"));
}

#[test]
fn an_unknown_system_gets_the_default_with_a_finding() {
    let c = for_os("web", Some("plan9"), None);
    assert_eq!(c.image, "ubuntu:24.04");
    assert_eq!(c.findings.len(), 1);
    assert_eq!(for_os("web", None, None).image, "ubuntu:24.04");
}

#[test]
fn products_have_their_images() {
    let c = for_product("db", "mysql", None).unwrap();
    assert_eq!(c.image, "mysql:8.4");
    let c = for_product("db", "mysql", Some("5")).unwrap();
    assert_eq!(c.image, "mysql:5.7");
    assert!(c.findings[0].message.contains("out of support"));
    assert!(for_product("db", "oracle", None).is_none());
}

#[test]
fn named_images_are_checked() {
    assert!(check_named("db", "mysql:8.4").is_empty());
    assert!(
        check_named("db", "mysql")[0]
            .message
            .contains("names no tag")
    );
    assert!(
        check_named("db", "docker.io/library/mysql:5.7")[0]
            .message
            .contains("out of support")
    );
    assert!(
        check_named("web", "ubuntu:14.04")[0]
            .hint
            .contains("ubuntu:24.04")
    );
    assert!(check_named("web", "nginx:1.27").is_empty());
    assert!(check_named("web", "app@sha256:abc").is_empty());
}

#[test]
fn an_image_is_pinned_by_a_tag_or_a_digest() {
    assert!(is_pinned("mysql:8.4"));
    assert!(is_pinned("registry:5000/app:1.2"));
    assert!(is_pinned("app@sha256:abc"));
    assert!(!is_pinned("mysql"));
    assert!(!is_pinned("registry:5000/app"));
}

#[test]
fn image_references_name_their_registry_except_docker_hub() {
    assert_eq!(
        image_ref("mysql:8.4", Some("https://docker.io")),
        "mysql:8.4"
    );
    assert_eq!(
        image_ref("app:1", Some("https://quay.io/v2/")),
        "quay.io/app:1"
    );
    assert_eq!(image_ref("app:1", None), "app:1");
    assert_eq!(
        image_ref("team/app:2", Some("https://ghcr.io/")),
        "ghcr.io/team/app:2"
    );
    assert_eq!(
        image_ref("app:2", Some("https://registry.example.com:5000/v2/")),
        "registry.example.com:5000/app:2"
    );
}

#[test]
fn an_image_is_named_by_its_last_path_part() {
    assert_eq!(repository("mysql"), "mysql");
    assert_eq!(repository("docker.io/library/mysql:8.4"), "mysql");
    assert_eq!(repository("registry:5000/team/postgres"), "postgres");
    assert_eq!(repository("mongo@sha256:0123"), "mongo");
}

#[test]
fn non_root_images_name_their_user() {
    assert_eq!(
        non_root_user("grafana/grafana:11.3.0"),
        Some(ImageUser {
            user: 472,
            group: Some(0)
        })
    );
    // The database images start as root to chown their data folder.
    assert_eq!(non_root_user("mysql:8.4"), None);
    assert_eq!(non_root_user("ubuntu:24.04"), None);
    // Every entry is a user other than root.
    assert!(table().non_root.iter().all(|e| e.user > 0));
}
