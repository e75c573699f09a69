//! State survives a restart (issue 26, scope 3): a container whose image is a product that keeps
//! state, such as tosca-parser's Docker MySQL (read from the corpus, never copied), is a
//! StatefulSet whose claim template is mounted where the image keeps its data. Locally a
//! missing corpus skips with a notice; under `CI=true` it is a failure.

mod common;

use common::{corpus_root, toscana};

/// The Docker MySQL of tosca-parser: a Deployment with no volume once, its data gone on every
/// restart; now a StatefulSet with a `data` claim template at `/var/lib/mysql`, and a warning
/// that says the size is the default.
#[test]
fn a_docker_mysql_keeps_its_data_on_a_claim() {
    if !common::corpus_present(
        "tosca-parser/containers",
        "the Docker MySQL of tosca-parser",
    ) {
        return;
    }
    // Run from inside the corpus folder: the output names the file relative to it.
    let out = toscana()
        .current_dir(corpus_root().join("tosca-parser/containers"))
        .args(["k8s", "test_container_docker_mysql.yaml"])
        .args(["--set", "mysql_root_pwd=s3cret"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    let statefulset = stdout
        .split("\n---\n")
        .find(|d| d.contains("kind: StatefulSet"))
        .unwrap_or_else(|| panic!("MySQL is a StatefulSet:\n{stdout}"));
    assert!(!stdout.contains("kind: Deployment"), "{stdout}");
    assert!(statefulset.contains("image: mysql\n"), "{statefulset}");
    assert!(
        statefulset.contains("- mountPath: /var/lib/mysql\n          name: data\n"),
        "{statefulset}"
    );
    assert!(
        statefulset.contains("volumeClaimTemplates:\n  - apiVersion: v1\n    kind: PersistentVolumeClaim\n    metadata:\n      name: data\n"),
        "{statefulset}"
    );
    assert!(statefulset.contains("storage: 8Gi"), "{statefulset}");
    // The root password reaches it from a Secret, never as a literal.
    assert!(
        statefulset.contains("secretKeyRef:\n              key: MYSQL_ROOT_PASSWORD"),
        "{statefulset}"
    );
    assert!(!statefulset.contains("s3cret"), "{statefulset}");
    assert!(
        stderr.contains(
            "`mysql_container` keeps its data in /var/lib/mysql on a claim of the default size 8Gi"
        ),
        "{stderr}"
    );
}

/// tosca-parser's single-instance WordPress, from its CSAR (the one with the scripts): MySQL,
/// WordPress and Apache on one server are one lifted StatefulSet whose MySQL data is on a claim;
/// each script runs with the program its shebang names (the DBMS install uses bash's `<<<`),
/// unattended (`DEBIAN_FRONTEND=noninteractive`, or apt-get would stop to ask).
#[test]
fn the_single_instance_wordpress_is_lifted_with_its_data_on_a_claim() {
    if !common::corpus_present("tosca-parser/CSAR", "tosca-parser's WordPress CSAR") {
        return;
    }
    let out = toscana()
        .current_dir(corpus_root().join("tosca-parser/CSAR"))
        .args(["k8s", "csar_wordpress.zip"])
        .args(["--set", "db_root_pwd=r00t", "--set", "cpus=1"])
        .args(["--set", "db_name=wordpress", "--set", "db_user=wp_user"])
        .args(["--set", "db_pwd=wp_pass", "--set", "db_port=3306"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stdout.matches("\nkind: StatefulSet\n").count(),
        1,
        "{stdout}"
    );
    assert!(!stdout.contains("kind: Deployment"), "{stdout}");
    for line in [
        "    bash 'Scripts/MYSQLDBMS/install.sh'\n",
        "    sh 'Scripts/MYSQLDBMS/configure.sh'\n",
        "    sh 'Scripts/MYSQLDatabase/configure.sh'\n",
        "    sh 'Scripts/WordPress/configure.sh'\n",
        "        - mountPath: /var/lib/mysql\n          name: data\n",
        "        - name: DEBIAN_FRONTEND\n          value: noninteractive\n",
    ] {
        assert!(stdout.contains(line), "{line:?} missing from\n{stdout}");
    }
    // MySQL before what connects to it: the DBMS's steps come before WordPress's.
    let dbms = stdout.find("Scripts/MYSQLDBMS/start.sh'").unwrap();
    let wordpress = stdout.find("Scripts/WordPress/configure.sh'").unwrap();
    assert!(dbms < wordpress, "{stdout}");
    assert!(
        stderr.contains(
            "`mysql_dbms` keeps its data in /var/lib/mysql on a claim of the default size 8Gi"
        ),
        "{stderr}"
    );
}

/// Translates `template` (written to a temporary folder) and returns the manifests and the
/// warnings.
fn translate(template: &str, args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("stack.yaml"), template).unwrap();
    let out = toscana()
        .current_dir(dir.path())
        .args(["k8s", "stack.yaml"])
        .args(args)
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// The one document of `kind` in `stdout`.
fn document<'a>(stdout: &'a str, kind: &str) -> &'a str {
    stdout
        .split("\n---\n")
        .find(|d| d.contains(&format!("kind: {kind}\n")))
        .unwrap_or_else(|| panic!("no {kind} in\n{stdout}"))
}

/// A database product (the example's PostgreSQL, run as the product's image) gets its claim at
/// the default size the way a container does: with the warning that says how to choose it.
#[test]
fn a_database_product_warns_that_its_claim_has_the_default_size() {
    let out = toscana()
        .args(["k8s", "examples/webapp.yaml", "--set", "db_password=x"])
        .output()
        .unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let statefulset = document(&stdout, "StatefulSet");
    assert!(
        statefulset.contains("- mountPath: /var/lib/postgresql/data\n          name: data\n"),
        "{statefulset}"
    );
    assert!(statefulset.contains("storage: 8Gi"), "{statefulset}");
    assert!(
        stderr.contains(
            "`postgres` keeps its data in /var/lib/postgresql/data on a claim of the default size 8Gi"
        ),
        "{stderr}"
    );
}

const TYPED: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  shop.nodes.Postgres:
    derived_from: tosca.nodes.Container.Application
  shop.nodes.Ledger:
    derived_from: tosca.nodes.Container.Application
    capabilities:
      sql: { type: tosca.capabilities.Endpoint.Database }
topology_template:
  node_templates:
    orders:
      type: shop.nodes.Postgres
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "shop/postgres-ha:16" }
    ledger:
      type: shop.nodes.Ledger
      capabilities:
        sql: { properties: { port: 7000 } }
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "shop/ledger:3.1" }
    web:
      type: tosca.nodes.Container.Application
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "shop/web:2.4.1" }
"#;

/// A container is stateful by its type too: one whose type names a product (`shop.nodes.Postgres`
/// running an image toscana does not know) keeps its data where the product does; one that
/// offers a database endpoint of a product toscana does not know keeps it at the documented
/// default folder `/data`, with a warning that says so. A container that is neither stays a
/// Deployment.
#[test]
fn containers_typed_as_databases_are_stateful() {
    let (stdout, stderr) = translate(TYPED, &[]);
    let statefulsets: Vec<&str> = stdout
        .split("\n---\n")
        .filter(|d| d.contains("kind: StatefulSet\n"))
        .collect();
    assert_eq!(statefulsets.len(), 2, "{stdout}");
    let orders = statefulsets
        .iter()
        .find(|d| d.contains("name: orders\n"))
        .unwrap();
    assert!(
        orders.contains("- mountPath: /var/lib/postgresql/data\n          name: data\n"),
        "{orders}"
    );
    let ledger = statefulsets
        .iter()
        .find(|d| d.contains("name: ledger\n"))
        .unwrap();
    assert!(
        ledger.contains("- mountPath: /data\n          name: data\n"),
        "{ledger}"
    );
    assert!(ledger.contains("storage: 1Gi"), "{ledger}");
    assert!(
        stderr.contains(
            "`ledger` keeps state, but toscana does not know where this product keeps its data: a claim of the default size 1Gi is mounted at the default folder /data"
        ),
        "{stderr}"
    );
    assert!(
        document(&stdout, "Deployment").contains("name: web\n"),
        "{stdout}"
    );
}

const LIFTED: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  ops.nodes.RabbitMQ:
    derived_from: tosca.nodes.SoftwareComponent
  ops.nodes.Ledger:
    derived_from: tosca.nodes.SoftwareComponent
    capabilities:
      sql: { type: tosca.capabilities.Endpoint.Database }
topology_template:
  node_templates:
    queue:
      type: ops.nodes.RabbitMQ
      requirements: [ { host: queue_server } ]
    ledger:
      type: ops.nodes.Ledger
      capabilities:
        sql: { properties: { port: 7000 } }
      requirements: [ { host: ledger_server } ]
    rabbitmq_client:
      type: tosca.nodes.SoftwareComponent
      requirements: [ { host: web_server } ]
    queue_server: { type: tosca.nodes.Compute }
    ledger_server: { type: tosca.nodes.Compute }
    web_server: { type: tosca.nodes.Compute }
"#;

/// Lifted software that keeps data without being a DBMS is stateful by class: software whose
/// type names a product the table knows keeps data (a queue, RabbitMQ) gets its claim where the
/// product's package keeps it (`/var/lib/rabbitmq`, at the product's size); software typed as a
/// database of a product toscana does not know gets the default folder `/data` with a warning.
/// A node's name alone does not make it stateful (`rabbitmq_client` is a SoftwareComponent).
#[test]
fn lifted_software_that_keeps_data_is_stateful() {
    let (stdout, stderr) = translate(LIFTED, &[]);
    let statefulset = |name: &str| {
        stdout
            .split("\n---\n")
            .find(|d| d.contains("kind: StatefulSet\n") && d.contains(&format!("name: {name}\n")))
            .unwrap_or_else(|| panic!("{name} is a StatefulSet:\n{stdout}"))
    };
    let queue = statefulset("queue-server");
    assert!(
        queue.contains("- mountPath: /var/lib/rabbitmq\n          name: data\n"),
        "{queue}"
    );
    assert!(queue.contains("storage: 1Gi"), "{queue}");
    assert!(
        stderr.contains(
            "`queue` keeps its data in /var/lib/rabbitmq on a claim of the default size 1Gi"
        ),
        "{stderr}"
    );
    let ledger = statefulset("ledger-server");
    assert!(
        ledger.contains("- mountPath: /data\n          name: data\n"),
        "{ledger}"
    );
    assert!(
        stderr.contains(
            "`ledger` keeps state, but toscana does not know where this product keeps its data"
        ),
        "{stderr}"
    );
    assert!(
        document(&stdout, "Deployment").contains("name: web-server\n"),
        "{stdout}"
    );
}

const FRESH_VOLUMES: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  ops.nodes.Kafka:
    derived_from: tosca.nodes.SoftwareComponent
  ops.nodes.MySQL:
    derived_from: tosca.nodes.DBMS
  ops.nodes.Tuned:
    derived_from: tosca.nodes.Container.Application
    properties:
      PGDATA: { type: string }
topology_template:
  node_templates:
    pg:
      type: tosca.nodes.Container.Application
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "postgres:17.2" }
    pg_own:
      type: ops.nodes.Tuned
      properties: { PGDATA: /var/lib/postgresql/data/cluster }
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "postgres:17.2" }
    maria:
      type: tosca.nodes.Container.Application
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "mariadb:11.4" }
    broker:
      type: tosca.nodes.Container.Application
      artifacts:
        image: { type: tosca.artifacts.Deployment.Image, file: "apache/kafka:3.9.0" }
    events:
      type: ops.nodes.Kafka
      requirements: [ { host: events_server } ]
    legacy_db:
      type: ops.nodes.MySQL
      properties: { root_password: secret, port: 3306 }
      requirements: [ { host: db_server } ]
    events_server: { type: tosca.nodes.Compute }
    db_server: { type: tosca.nodes.Compute }
"#;

/// The root of a fresh volume holds `lost+found`, which PostgreSQL's `initdb` and MySQL's
/// `mysqld --initialize` refuse and Kafka reads as a partition: where the claim is mounted at
/// such a product's data folder itself, the data goes one folder down (the product table's
/// `data_subfolder`). PostgreSQL is told `PGDATA` (a `PGDATA` the template sets is kept), Kafka
/// `KAFKA_LOG_DIRS`; MariaDB and a MySQL DBMS get the volume's subfolder mounted (`subPath`). Kafka is in the product table: its
/// image keeps its logs on a claim at `/var/lib/kafka/data`, a lifted one on the claim's
/// subfolder mounted at `/var/lib/kafka`.
#[test]
fn data_stays_out_of_a_fresh_volumes_lost_and_found() {
    let (stdout, stderr) = translate(FRESH_VOLUMES, &[]);
    let statefulset = |name: &str| {
        stdout
            .split("\n---\n")
            .find(|d| {
                d.contains("kind: StatefulSet\n") && d.contains(&format!("\n  name: {name}\n"))
            })
            .unwrap_or_else(|| panic!("{name} is a StatefulSet:\n{stdout}"))
    };
    let pg = statefulset("pg");
    assert!(
        pg.contains("- name: PGDATA\n          value: /var/lib/postgresql/data/pgdata\n"),
        "{pg}"
    );
    assert!(
        !pg.contains("subPath"),
        "PostgreSQL gets PGDATA, not a subPath:\n{pg}"
    );
    let own = statefulset("pg-own");
    assert!(
        own.contains("value: /var/lib/postgresql/data/cluster\n") && !own.contains("/pgdata"),
        "{own}"
    );
    let maria = statefulset("maria");
    assert!(
        maria.contains(
            "- mountPath: /var/lib/mysql\n          name: data\n          subPath: mysql\n"
        ),
        "{maria}"
    );
    let broker = statefulset("broker");
    assert!(
        broker.contains("- mountPath: /var/lib/kafka/data\n          name: data\n"),
        "{broker}"
    );
    assert!(
        broker
            .contains("- name: KAFKA_LOG_DIRS\n          value: /var/lib/kafka/data/kafka-logs\n"),
        "{broker}"
    );
    let events = statefulset("events-server");
    assert!(
        events.contains(
            "- mountPath: /var/lib/kafka\n          name: data\n          subPath: kafka-logs\n"
        ),
        "{events}"
    );
    assert!(
        stderr.contains(
            "`events` keeps its data in /var/lib/kafka on a claim of the default size 8Gi"
        ),
        "{stderr}"
    );
    // A DBMS of a product the table knows runs as the product's image, with the same subPath
    // (a lifted MySQL's is in the k8s-wordpress-mysql golden).
    let legacy = statefulset("legacy-db");
    assert!(
        legacy.contains(
            "- mountPath: /var/lib/mysql\n          name: data\n          subPath: mysql\n"
        ),
        "{legacy}"
    );
}
