//! `yardstick k6 manifest`: the resources that run one test as N k6 pods
//! under the k6 operator: a ConfigMap that holds the script, and a
//! `TestRun` (`k6.io/v1alpha1`) with its parallelism and arguments. The
//! operator gives each pod its execution segment; every pod writes its
//! per-request points to its log (`--out json=/dev/stdout`), which
//! `yardstick k6 collect` merges (see `output`).
//!
//! Credentials never appear in either resource: the runner takes its
//! environment from a Secret the user creates, named here.

use serde::Serialize;
use std::collections::BTreeMap;

/// What the manifest is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The TestRun's name; the ConfigMap is named after it.
    pub name: String,
    /// The k6 instances (pods) the test is split over.
    pub parallelism: u32,
    /// The generated script.
    pub script: String,
    /// The Secret whose keys become the runner's environment (`__ENV`),
    /// when the test needs credentials.
    pub secret: Option<String>,
}

/// The arguments every pod runs k6 with: the points to its log, nothing
/// else on it.
pub const ARGUMENTS: &str = "--out json=/dev/stdout --quiet --no-summary --no-usage-report";

/// The script's file name inside the ConfigMap.
const SCRIPT_FILE: &str = "script.js";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Resource<T: Serialize> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata,
    #[serde(flatten)]
    body: T,
}

#[derive(Serialize)]
struct Metadata {
    name: String,
}

#[derive(Serialize)]
struct ConfigMapBody {
    data: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
struct TestRunBody {
    spec: Spec,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    parallelism: u32,
    script: Script,
    arguments: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    runner: Option<Runner>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Script {
    config_map: ConfigMapRef,
}

#[derive(Serialize)]
struct ConfigMapRef {
    name: String,
    file: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Runner {
    env_from: Vec<EnvFrom>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EnvFrom {
    secret_ref: SecretRef,
}

#[derive(Serialize)]
struct SecretRef {
    name: String,
}

impl Manifest {
    /// The name of the ConfigMap that holds the script.
    pub fn config_map_name(&self) -> String {
        format!("{}-script", self.name)
    }

    /// Both resources as one YAML stream: the ConfigMap, then the TestRun.
    pub fn to_yaml(&self) -> Result<String, String> {
        let config_map = Resource {
            api_version: "v1",
            kind: "ConfigMap",
            metadata: Metadata {
                name: self.config_map_name(),
            },
            body: ConfigMapBody {
                data: [(SCRIPT_FILE, self.script.clone())].into(),
            },
        };
        let test_run = Resource {
            api_version: "k6.io/v1alpha1",
            kind: "TestRun",
            metadata: Metadata {
                name: self.name.clone(),
            },
            body: TestRunBody {
                spec: Spec {
                    parallelism: self.parallelism,
                    script: Script {
                        config_map: ConfigMapRef {
                            name: self.config_map_name(),
                            file: SCRIPT_FILE,
                        },
                    },
                    arguments: ARGUMENTS,
                    runner: self.secret.as_ref().map(|name| Runner {
                        env_from: vec![EnvFrom {
                            secret_ref: SecretRef { name: name.clone() },
                        }],
                    }),
                },
            },
        };
        Ok(format!("{}---\n{}", yaml(&config_map)?, yaml(&test_run)?))
    }
}

/// One resource as YAML.
fn yaml(resource: &impl Serialize) -> Result<String, String> {
    yaml_serde::to_string(resource).map_err(|e| format!("manifest: {e}"))
}

#[cfg(test)]
mod tests;
