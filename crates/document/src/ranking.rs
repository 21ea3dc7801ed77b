//! The ranking of a run's variants: per group (workload), each variant's
//! figure and its ratio to the reference with their intervals, and who
//! won; across groups, each variant's wins and the geometric mean of its
//! ratios. Made from the rows by `judge::ranking`, saved with the run.

use crate::row::Memory;
use serde::{Deserialize, Serialize};
use yardstick_probe::Role;
use yardstick_stats::bootstrap::Interval;

/// Where a row stands among the variants of its group (saved on the row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Member {
    /// The workload.
    pub group: String,
    /// The implementation.
    pub variant: String,
    /// How it is ranked.
    #[serde(with = "role")]
    #[cfg_attr(test, schemars(schema_with = "role::schema"))]
    pub role: Role,
}

/// Every group of a run and the tally across them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Ranking {
    /// One per group, by name.
    pub groups: Vec<Group>,
    /// One per variant name, across the groups it is in.
    pub standings: Vec<Standing>,
    /// The equivalence margin the outcomes were decided with, as a
    /// fraction (`judge::equivalence`). Absent in runs made before it,
    /// whose outcomes compared the variants' median intervals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
}

/// One workload and its variants, measured in the same rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Group {
    /// The workload.
    pub name: String,
    /// The variant every ratio divides by.
    pub reference: String,
    /// The variants, by name.
    pub variants: Vec<Entry>,
    /// Who won, if anyone.
    pub outcome: Outcome,
}

/// One variant of a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Entry {
    /// The implementation.
    pub variant: String,
    /// Its row's key.
    pub key: String,
    /// How it is ranked.
    #[serde(with = "role")]
    #[cfg_attr(test, schemars(schema_with = "role::schema"))]
    pub role: Role,
    /// Its median per iteration (milliseconds, or a count) with a 95 %
    /// interval; none when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<Interval>,
    /// Its figure over the reference's, with a 95 % interval; none for
    /// the reference, and when either failed or there were too few rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<Interval>,
    /// What one iteration allocated, when counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    /// Why the variant is not ranked: its probe failed, or its result
    /// differs from the reference's. A failed variant is never called
    /// fast.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

/// How a group came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every other ranked variant's paired ratio to this one lies wholly
    /// above the margin.
    Winner(String),
    /// The fastest variant and those whose paired ratio to it reaches
    /// inside the margin, fastest first.
    Tie(Vec<String>),
    /// Fewer than two variants could be ranked.
    Unranked,
}

/// One variant across the groups it is in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Standing {
    /// The implementation.
    pub variant: String,
    /// Groups it is in with at least one other variant that is not a
    /// floor.
    pub groups: usize,
    /// Groups it won.
    pub wins: usize,
    /// Groups it tied for first.
    pub ties: usize,
    /// Groups where it failed.
    pub failed: usize,
    /// The geometric mean of its ratios to the reference, over the groups
    /// that gave one; 1 for a variant that is always the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geomean_ratio: Option<f64>,
}

/// A role as the saved format spells it: the light crate that defines
/// [`Role`] has no serde, so its names are read and written here.
mod role {
    use serde::{Deserialize, Deserializer, Serializer};
    use yardstick_probe::Role;

    pub(super) fn serialize<S: Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(role.as_str())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let name = String::deserialize(d)?;
        Role::named(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("`{name}` is not a variant's role")))
    }

    /// The names a role is saved as.
    #[cfg(test)]
    pub(super) fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        schemars::json_schema!({ "type": "string", "enum": names })
    }
}
