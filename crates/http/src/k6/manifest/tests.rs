use super::*;
use serde_json::Value;

/// The k6 operator's TestRun definition (tests/fixtures/k6-operator/,
/// Apache-2.0, with its origin): the `openAPIV3Schema` of `v1alpha1`.
fn test_run_schema() -> Value {
    let crd: Value = yaml_serde::from_str(include_str!(
        "../../../../../tests/fixtures/k6-operator/k6.io_testruns.yaml"
    ))
    .unwrap();
    let versions = crd["spec"]["versions"].as_array().unwrap();
    let v1alpha1 = versions.iter().find(|v| v["name"] == "v1alpha1").unwrap();
    v1alpha1["schema"]["openAPIV3Schema"].clone()
}

fn manifest(secret: Option<&str>) -> Manifest {
    Manifest {
        name: "yardstick-demo".into(),
        parallelism: 3,
        script: "import http from 'k6/http';\nexport default function () {}\n".into(),
        secret: secret.map(str::to_string),
    }
}

/// The two documents of the stream, as JSON values.
fn documents(yaml: &str) -> Vec<Value> {
    yaml.split("---\n")
        .map(|doc| yaml_serde::from_str(doc).unwrap())
        .collect()
}

#[test]
fn the_test_run_is_valid_under_the_operator_s_schema() {
    let schema = test_run_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for secret in [None, Some("site-credentials")] {
        let docs = documents(&manifest(secret).to_yaml().unwrap());
        let test_run = &docs[1];
        let errors: Vec<String> = validator
            .iter_errors(test_run)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(test_run["spec"]["parallelism"], 3);
        assert_eq!(test_run["spec"]["arguments"], ARGUMENTS);
        assert_eq!(
            test_run["spec"]["script"]["configMap"]["name"],
            docs[0]["metadata"]["name"]
        );
    }
}

#[test]
fn the_script_travels_whole_and_credentials_only_by_name() {
    let m = manifest(Some("site-credentials"));
    let docs = documents(&m.to_yaml().unwrap());
    assert_eq!(docs[0]["kind"], "ConfigMap");
    assert_eq!(docs[0]["data"]["script.js"], m.script.as_str());
    assert_eq!(
        docs[1]["spec"]["runner"]["envFrom"][0]["secretRef"]["name"],
        "site-credentials"
    );
    // A schema that would accept anything proves nothing: a wrong type
    // is refused.
    let mut broken = docs[1].clone();
    broken["spec"]["parallelism"] = "three".into();
    let schema = test_run_schema();
    assert!(!jsonschema::is_valid(&schema, &broken));
}
