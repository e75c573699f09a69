//! `toscana k8s` means what the template means, whichever way the template was written: the
//! same stack in the Simple Profile 1.0, 1.3 and TOSCA 2.0 spellings gives the same objects.

use std::fs;
use std::path::Path;

/// Every file of an expected output folder, by name, with the `toscana.io/source` annotation
/// (which names the input file and line, and so differs between spellings) taken out.
fn objects(case: &str) -> Vec<(String, String)> {
    let dir = Path::new("golden").join(case).join("expected/k8s");
    let mut files: Vec<(String, String)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let text = fs::read_to_string(&path).unwrap();
            let kept: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("toscana.io/source:"))
                .map(|l| format!("{l}\n"))
                .collect();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                kept,
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn block_storage_in_1_0_1_3_and_2_0_spellings_gives_the_same_objects() {
    let v13 = objects("k8s-blockstorage-1-3");
    assert!(
        v13.iter()
            .any(|(name, text)| name.starts_with("statefulset-")
                && text.contains("volumeClaimTemplates")),
        "the attached disk is a claim template: {v13:?}"
    );
    for other in ["k8s-blockstorage-1-0", "k8s-blockstorage-2-0"] {
        assert_eq!(
            objects(other),
            v13,
            "{other} differs from k8s-blockstorage-1-3"
        );
    }
}

#[test]
fn wiring_does_not_depend_on_declaration_order() {
    let app_first = objects("k8s-nodejs-mongodb");
    assert_eq!(objects("k8s-nodejs-mongodb-db-first"), app_first);
    let app = &app_first
        .iter()
        .find(|(name, _)| name == "deployment-app-server.yaml")
        .expect("the application server is a Deployment")
        .1;
    // The application reaches MongoDB through the database server's Service.
    assert!(
        app.contains("- name: mongodb_ip\n          value: mongo-server\n"),
        "{app}"
    );
    let db = &app_first
        .iter()
        .find(|(name, _)| name == "statefulset-mongo-server.yaml")
        .expect("the database server is a StatefulSet")
        .1;
    // MongoDB binds to its own address: the pod IP, never loopback.
    assert!(db.contains("fieldPath: status.podIP"), "{db}");
    assert!(
        db.contains("- name: mongodb_ip\n          value: $(TOSCANA_POD_IP)\n"),
        "{db}"
    );
    assert!(!db.contains("localhost"), "{db}");
    // Its data survives a restart.
    assert!(db.contains("mountPath: /var/lib/mongodb"), "{db}");
    assert!(db.contains("volumeClaimTemplates"), "{db}");
}

#[test]
fn every_server_a_client_connects_to_has_a_service_even_without_a_declared_port() {
    let objects = objects("k8s-portless-servers");
    let file = |name: &str| {
        objects
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} is written: {objects:?}"))
            .1
            .clone()
    };
    // A known product: its default port, on the Service and the container.
    assert!(file("service-elasticsearch-server.yaml").contains("port: 9200"));
    assert!(file("service-logstash-server.yaml").contains("port: 5044"));
    // An unknown one: a headless Service, so its DNS name still resolves to the pods.
    assert!(file("service-relay-server.yaml").contains("clusterIP: None"));
    let kibana = file("deployment-kibana-server.yaml");
    assert!(
        kibana.contains("- name: ELASTICSEARCH_HOST\n          value: elasticsearch-server\n"),
        "{kibana}"
    );
    assert!(kibana.contains("- name: ELASTICSEARCH_PORT\n          value: \"9200\"\n"));
    let app = file("deployment-app-server.yaml");
    assert!(app.contains("- name: RELAY_HOST\n          value: relay-server\n"));
    assert!(!app.contains("RELAY_PORT"), "{app}");
}

/// Scope 3: lifted software that keeps data without being a DBMS (Elasticsearch, known to the
/// product table by its type) makes its server a StatefulSet whose claim is mounted where the
/// distribution's package keeps the data; the software beside it that keeps none stays a
/// Deployment.
#[test]
fn lifted_software_that_keeps_data_is_a_stateful_set_with_its_data_on_a_claim() {
    let objects = objects("k8s-portless-servers");
    let names: Vec<&str> = objects.iter().map(|(n, _)| n.as_str()).collect();
    let search = &objects
        .iter()
        .find(|(n, _)| n == "statefulset-elasticsearch-server.yaml")
        .unwrap_or_else(|| panic!("Elasticsearch's server is a StatefulSet: {names:?}"))
        .1;
    assert!(
        search.contains("- mountPath: /var/lib/elasticsearch\n          name: data\n"),
        "{search}"
    );
    assert!(search.contains("volumeClaimTemplates"), "{search}");
    assert!(search.contains("storage: 8Gi"), "{search}");
    for stateless in ["kibana", "logstash", "relay", "app"] {
        assert!(
            names.contains(&format!("deployment-{stateless}-server.yaml").as_str()),
            "{stateless}: {names:?}"
        );
    }
}

/// Scope 6: every environment value of `golden/k8s-values` is exactly the string the template
/// gave, written as a double-quoted YAML string: integers beyond 2^53 with every digit, and
/// strings that a YAML 1.1 or 1.2 reader would take for a boolean, null, a number or a time
/// quoted, so no reader changes their type.
#[test]
fn values_reach_the_container_as_written() {
    let deployment = objects("k8s-values")
        .into_iter()
        .find(|(name, _)| name == "deployment-ledger.yaml")
        .expect("the ledger is a Deployment")
        .1;
    let expected = [
        ("BIG", "9007199254740993"),
        ("MOST_NEGATIVE", "-9223372036854775808"),
        ("shards", "9007199254740993"),
        ("ANSWER", "yes"),
        ("\"y\"", "n"),
        ("FILE_MODE", "0755"),
        ("EXPONENT", "1e3"),
        ("NOTHING", "null"),
        ("TRUTH", "true"),
        ("TILDE", "~"),
        ("HEXADECIMAL", "0x1F"),
        ("INFINITY", ".inf"),
        ("UNDERSCORED", "1_000"),
        ("EMPTY", ""),
        ("SWITCH", "off"),
        ("CLOCK", "12:30"),
        (
            "SETTINGS",
            r#"{\"limit\":9007199254740993,\"mode\":\"0755\",\"enabled\":\"no\"}"#,
        ),
    ];
    for (name, text) in expected {
        let entry = format!("- name: {name}\n          value: \"{text}\"\n");
        assert!(
            deployment.contains(&entry),
            "expected\n{entry}in\n{deployment}"
        );
    }
}

/// A server that hosts only container applications (here through a container runtime, as the
/// Simple Profile draws a Docker host) is a node of the cluster, not a workload: lifting it
/// would run an idle pod beside the container's own.
#[test]
fn a_server_that_only_hosts_containers_is_the_cluster_not_a_workload() {
    let names: Vec<String> = objects("k8s-container-on-server")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(
        names,
        [
            "deployment-dashboards.yaml",
            "kustomization.yaml",
            "secret-dashboards-secret.yaml"
        ]
    );
}
