//! The wiring check (`tests/checkers/wiring.rs`, issue 26 scope 8) catches each kind of broken
//! reference: shown on a small application whose objects all fit together, and on copies of it
//! with one reference broken each. (`tests/golden.rs`, `tests/k8s_corpus.rs` and
//! `tests/k8s_profiles.rs` run it on every output.)

// Only the wiring check of the external checkers is used here.
#[allow(dead_code)]
mod checkers;

use checkers::wiring::{check_dir, check_stream, hosts_in, service_forms};

/// A web application and its database, every reference resolving: a Service per workload, a
/// ConfigMap and a Secret used as environment and volumes, a claim, a StatefulSet with its
/// headless Service and claim template, an HPA and an Ingress.
const WIRED: &str = r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  MODE: production
  site.conf: "listen 8080"
---
apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
stringData:
  password: secret
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: uploads
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: db
spec:
  clusterIP: None
  selector:
    app: db
  ports:
  - port: 5432
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
        tier: front
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - name: http
          containerPort: 8080
        env:
        - name: DB_HOST
          value: db
        - name: DATABASE_URL
          value: postgres://app@db:5432/app
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: db-credentials
              key: password
        - name: HOMEPAGE
          value: https://github.com/example/web
        - name: LISTEN_ADDRESS
          value: 0.0.0.0:8080
        envFrom:
        - configMapRef:
            name: web-config
        volumeMounts:
        - name: config
          mountPath: /etc/web
        - name: uploads
          mountPath: /srv/uploads
      volumes:
      - name: config
        configMap:
          name: web-config
          items:
          - key: site.conf
            path: site.conf
      - name: uploads
        persistentVolumeClaim:
          claimName: uploads
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: postgres:17
        ports:
        - containerPort: 5432
        volumeMounts:
        - name: data
          mountPath: /var/lib/postgresql/data
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 8Gi
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 1
  maxReplicas: 3
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              name: http
"#;

/// The problems the check finds in `WIRED` with `from` replaced by `to` (which must occur).
fn problems_with(from: &str, to: &str) -> String {
    assert!(WIRED.contains(from), "the fixture has no `{from}`");
    match check_stream("app.yaml", &WIRED.replacen(from, to, 1), &[]) {
        Ok(()) => String::new(),
        Err(report) => report,
    }
}

/// Asserts that breaking `from` into `to` is found, with a report that says `says`.
fn assert_caught(from: &str, to: &str, says: &str) {
    let report = problems_with(from, to);
    assert!(
        report.contains(says),
        "replacing `{from}` by `{to}` was not reported as `{says}`:\n{report}"
    );
}

#[test]
fn a_wired_application_passes() {
    check_stream("app.yaml", WIRED, &[]).unwrap();
}

#[test]
fn a_folder_of_files_is_checked_across_files() {
    let dir = tempfile::tempdir().unwrap();
    for (n, doc) in WIRED.split("\n---\n").enumerate() {
        std::fs::write(dir.path().join(format!("{n}.yaml")), doc).unwrap();
    }
    std::fs::write(
        dir.path().join("kustomization.yaml"),
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n",
    )
    .unwrap();
    check_dir(dir.path(), &[]).unwrap();
    std::fs::remove_file(dir.path().join("0.yaml")).unwrap();
    let report = check_dir(dir.path(), &[]).unwrap_err();
    assert!(
        report.contains("ConfigMap `web-config`, which is not in the output"),
        "{report}"
    );
}

#[test]
fn a_selector_that_selects_no_pod_is_caught() {
    assert_caught(
        "  selector:\n    app: web\n",
        "  selector:\n    app: website\n",
        "its selector {app=website} matches the labels of no pod template",
    );
}

#[test]
fn a_target_port_no_container_declares_is_caught() {
    assert_caught(
        "targetPort: http",
        "targetPort: web",
        "port 80 targets `web`, which no container of Deployment web declares (its ports: 8080, http)",
    );
    // A port without targetPort targets its own number.
    assert_caught(
        "  - port: 5432",
        "  - port: 5433",
        "port 5433 targets `5433`",
    );
}

#[test]
fn a_secret_key_ref_to_a_missing_secret_or_key_is_caught() {
    assert_caught(
        "name: db-credentials\n              key",
        "name: db-secret\n              key",
        "env `DB_PASSWORD` names Secret `db-secret`, which is not in the output",
    );
    assert_caught(
        "key: password",
        "key: passwd",
        "wants key `passwd` of Secret `db-credentials`, which holds only password",
    );
}

#[test]
fn a_config_map_key_ref_to_a_missing_key_is_caught() {
    assert_caught(
        "        envFrom:",
        "        - name: MODE\n          valueFrom:\n            configMapKeyRef:\n              name: web-config\n              key: mode\n        envFrom:",
        "env `MODE` wants key `mode` of ConfigMap `web-config`",
    );
}

#[test]
fn an_env_from_a_missing_config_map_is_caught() {
    assert_caught(
        "configMapRef:\n            name: web-config",
        "configMapRef:\n            name: web-settings",
        "envFrom names ConfigMap `web-settings`, which is not in the output",
    );
}

#[test]
fn volumes_of_missing_objects_or_keys_are_caught() {
    assert_caught(
        "configMap:\n          name: web-config",
        "configMap:\n          name: nginx-config",
        "volume `config` names ConfigMap `nginx-config`",
    );
    assert_caught(
        "- key: site.conf",
        "- key: nginx.conf",
        "volume `config` wants key `nginx.conf` of ConfigMap `web-config`",
    );
    assert_caught(
        "claimName: uploads",
        "claimName: media",
        "volume `uploads` names PersistentVolumeClaim `media`",
    );
    assert_caught(
        "configMap:\n          name: web-config",
        "secret:\n          secretName: tls",
        "volume `config` names Secret `tls`",
    );
}

#[test]
fn a_mount_of_no_volume_or_claim_template_is_caught() {
    assert_caught(
        "- name: uploads\n          mountPath",
        "- name: media\n          mountPath",
        "mounts `media`, which is no volume of the pod (config, uploads)",
    );
    assert_caught(
        "  - metadata:\n      name: data",
        "  - metadata:\n      name: pgdata",
        "StatefulSet db: container `db` mounts `data`",
    );
}

#[test]
fn a_stateful_set_without_its_service_is_caught() {
    assert_caught(
        "serviceName: db",
        "serviceName: db-headless",
        "serviceName `db-headless` names no Service of the output",
    );
}

#[test]
fn an_address_that_names_no_service_is_caught() {
    assert_caught(
        "value: db\n",
        "value: postgres\n",
        "env `DB_HOST` = `postgres`: `postgres` names no Service of the output (its Services: db, web)",
    );
    assert_caught("@db:5432", "@database:5432", "env `DATABASE_URL`");
    // `<svc>.<ns>.svc...` names the namespace too: the objects here have none.
    assert_caught(
        "@db:5432",
        "@db.prod.svc.cluster.local:5432",
        "`db.prod.svc.cluster.local` names no Service of the output in namespace `prod`",
    );
}

#[test]
fn a_service_address_with_its_namespace_resolves_in_that_namespace() {
    let namespaced = WIRED
        .replace(
            "metadata:
  name:",
            "metadata:
  namespace: shop
  name:",
        )
        .replace("@db:5432", "@db.shop.svc.cluster.local:5432");
    check_stream("app.yaml", &namespaced, &[]).unwrap();
    let report = check_stream(
        "app.yaml",
        &namespaced.replace("@db.shop.svc", "@db.prod.svc"),
        &[],
    )
    .unwrap_err();
    assert!(report.contains("in namespace `prod`"), "{report}");
}

#[test]
fn addresses_are_read_from_urls_and_from_variables_named_for_them() {
    assert_eq!(hosts_in("DB_HOST", "mysql:3306"), ["mysql"]);
    assert_eq!(hosts_in("mongodb_ip", "mongo-server"), ["mongo-server"]);
    assert_eq!(hosts_in("PEERS_ADDR", "a:1, b:2"), ["a", "b"]);
    assert_eq!(
        hosts_in("SINK", "http://user:pw@logstash:5044/in?x=1"),
        ["logstash"]
    );
    // Not addresses: a variable whose name does not say so, a value Kubernetes expands.
    assert!(hosts_in("MODE", "production").is_empty());
    assert!(hosts_in("DB_HOST", "$(PREFIX)-db").is_empty());
    // Not judged: IPs, localhost, other domains (the wired application has them).
    check_stream("app.yaml", WIRED, &[]).unwrap();
}

#[test]
fn service_names_are_recognised_by_their_form() {
    assert_eq!(service_forms("--upstream=mysql:3306", true), ["mysql"]);
    assert_eq!(
        service_forms("proxy_pass http://web.shop.svc.cluster.local:80/;", false),
        ["web.shop.svc.cluster.local"]
    );
    assert_eq!(
        service_forms("db.shop.svc, cache:6379", true),
        ["db.shop.svc", "cache"]
    );
    // Not a `<name>:<port>`: an image tag, an owner, a path, a credential, a variable, a
    // time; and none at all without `with_ports` (a lifted stack's scripts).
    for text in [
        "nginx:1.27",
        "chown mysql:mysql /data",
        "/srv/app:80",
        "user@db:5432",
        "$host:80",
        "10:30",
    ] {
        assert!(service_forms(text, true).is_empty(), "{text}");
    }
    assert!(service_forms("mysql:3306", false).is_empty());
    assert!(service_forms("$(DB).shop.svc", true).is_empty());
}

#[test]
fn an_address_in_any_env_value_or_argument_that_names_no_service_is_caught() {
    // By its form, whatever the variable is called.
    assert_caught(
        "value: https://github.com/example/web",
        "value: ghost:8080",
        "env `HOMEPAGE` = `ghost:8080`: `ghost` names no Service of the output",
    );
    assert_caught(
        "        image: nginx:1.27\n",
        "        image: nginx:1.27\n        args: [\"--upstream=ghost:5432\"]\n",
        "container `web` args `--upstream=ghost:5432`: `ghost` names no Service of the output",
    );
    assert_caught(
        "        image: nginx:1.27\n",
        "        image: nginx:1.27\n        command: [\"web\", \"--db\", \"ghost.shop.svc\"]\n",
        "container `web` command `ghost.shop.svc`: `ghost.shop.svc` names no Service of the output in namespace `shop`",
    );
    // An argument naming a Service of the output is fine.
    assert_eq!(
        problems_with(
            "        image: nginx:1.27\n",
            "        image: nginx:1.27\n        args: [\"--upstream=db:5432\"]\n",
        ),
        ""
    );
}

#[test]
fn a_config_file_naming_no_service_of_the_output_is_caught() {
    assert_caught(
        r#"site.conf: "listen 8080""#,
        r#"site.conf: "proxy_pass http://ghost.shop.svc.cluster.local:80;""#,
        "ConfigMap web-config: file `site.conf`: `ghost.shop.svc.cluster.local` names no Service of the output in namespace `shop`",
    );
}

#[test]
fn an_autoscaler_of_a_missing_workload_is_caught() {
    assert_caught(
        "    kind: Deployment\n    name: web",
        "    kind: Deployment\n    name: website",
        "scaleTargetRef names Deployment `website`, which is not in the output",
    );
    assert_caught(
        "    kind: Deployment\n    name: web",
        "    kind: StatefulSet\n    name: web",
        "scaleTargetRef names StatefulSet `web`",
    );
}

#[test]
fn an_ingress_backend_of_a_missing_service_or_port_is_caught() {
    assert_caught(
        "            name: web\n            port:",
        "            name: frontend\n            port:",
        "Ingress web: a backend names Service `frontend`, which is not in the output",
    );
    assert_caught(
        "              name: http\n",
        "              name: https\n",
        "a backend wants port {\"name\":\"https\"} of Service `web`, which does not serve it",
    );
    assert_caught(
        "            port:\n              name: http\n",
        "",
        "a backend names Service `web` but no port",
    );
}

#[test]
fn a_document_that_is_no_object_is_caught() {
    assert_caught(
        "kind: PersistentVolumeClaim\n",
        "kind: PersistentVolumeClaim\nmetadata: &m {}\n",
        "not a plain YAML map",
    );
}

/// A Service the template says the cluster has (a node selected from outside the topology) is
/// not in the output, and is no finding when named as in the cluster.
#[test]
fn a_service_the_cluster_has_is_not_a_finding() {
    let outside = WIRED.replacen("value: db\n", "value: orders\n", 1);
    assert!(check_stream("app.yaml", &outside, &[]).is_err());
    check_stream("app.yaml", &outside, &["orders".to_string()]).unwrap();
}
