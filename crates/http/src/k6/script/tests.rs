use super::*;
use crate::k6::plan::Plan;

fn written(f: impl FnOnce(&mut Job)) -> Script {
    let mut job = Job {
        compare: vec![
            "http://127.0.0.1:1".into(),
            "http://user:pw-in-url@127.0.0.1:2".into(),
        ],
        ..Job::default()
    };
    f(&mut job);
    let schedule = Schedule::new(&job, vec!["/".into(), "/x?a=1".into()]).unwrap();
    let plan = Plan::new(&schedule, &job).unwrap();
    write(&plan, &schedule, &job, 600)
}

/// The JSON of the constant `name` in the script.
fn constant(text: &str, name: &str) -> Value {
    let start = text.find(name).unwrap() + name.len();
    let rest = &text[start..];
    let mut de = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    de.next().unwrap().unwrap()
}

#[test]
fn a_counted_run_is_one_scenario_of_every_block() {
    let s = written(|_| {});
    let options = constant(&s.text, "export const options = ");
    let scenario = &options["scenarios"]["requests"];
    // 100 requests in 2 rounds: 50 a block, which 4 users cannot split
    // evenly, so they share.
    assert_eq!(scenario["executor"], "shared-iterations");
    assert_eq!(scenario["iterations"], 400);
    assert_eq!(scenario["maxDuration"], "600s");
    let plan = constant(&s.text, "const PLAN = ");
    assert_eq!(plan["ends"][0], 50);
    assert_eq!(plan["blocks"][0]["tags"]["name"], "/");
    assert_eq!(plan["blocks"][0]["tags"]["round"], "1");
    assert_eq!(plan["blocks"][3]["url"], "http://127.0.0.1:2/x?a=1");
    assert_eq!(plan["cold"], false);
    let s = written(|j| j.concurrency = 5);
    let options = constant(&s.text, "export const options = ");
    assert_eq!(
        options["scenarios"]["requests"]["executor"],
        "per-vu-iterations"
    );
    assert_eq!(options["scenarios"]["requests"]["iterations"], 80);
}

#[test]
fn credentials_go_to_the_environment_never_into_the_script() {
    let s = written(|j| {
        j.cookie = Some("session=cookie-secret".into());
        j.headers.push(("X-Api-Key".into(), "key-secret".into()));
        j.headers.push(("X-Plain".into(), "shown".into()));
    });
    for secret in [
        "cookie-secret",
        "key-secret",
        "pw-in-url",
        "dXNlcjpwdy1pbi11cmw",
    ] {
        assert!(!s.text.contains(secret), "{secret} in the script");
    }
    assert!(s.text.contains("\"X-Plain\":\"shown\""), "{}", s.text);
    let values: Vec<&str> = s.env.iter().map(|(_, v)| v.as_str()).collect();
    assert!(values.contains(&"session=cookie-secret"), "{values:?}");
    assert!(values.contains(&"key-secret"), "{values:?}");
    // The server with a password in its URL gets basic auth; each value
    // once, however many blocks use it.
    assert!(values.iter().any(|v| v.starts_with("Basic ")), "{values:?}");
    assert_eq!(s.env.len(), 3);
    assert_eq!(s.env_headers.len(), 3);
    assert!(
        s.env_headers.contains(&"Authorization".to_string()),
        "{:?}",
        s.env_headers
    );
    let plan = constant(&s.text, "const PLAN = ");
    let secrets = plan["blocks"][1]["secrets"].as_array().unwrap();
    assert!(
        secrets.iter().any(|p| p[0] == "Authorization"),
        "{secrets:?}"
    );
}

#[test]
fn timed_runs_start_each_block_after_the_last_and_its_grace() {
    let s = written(|j| {
        j.rate = Some(12.5);
        j.duration = Some(2);
        j.cold = true;
    });
    let options = constant(&s.text, "export const options = ");
    let b1 = &options["scenarios"]["b1"];
    assert_eq!(b1["executor"], "constant-arrival-rate");
    assert_eq!(
        (b1["rate"].as_u64(), b1["timeUnit"].as_str()),
        (Some(12_500), Some("1000s"))
    );
    assert_eq!(b1["duration"], "1000ms");
    assert_eq!(b1["startTime"], format!("{}ms", 1000 + GRACE_MS));
    assert_eq!(b1["exec"], "timed");
    // Eight blocks, then the end mark once every block has had its grace.
    assert_eq!(options["scenarios"].as_object().unwrap().len(), 9);
    let end = &options["scenarios"]["end"];
    assert_eq!(
        (end["exec"].as_str(), end["vus"].as_u64()),
        (Some("end"), Some(1))
    );
    assert_eq!(
        end["startTime"],
        format!("{}ms", 8 * (1000 + GRACE_MS) + 200)
    );
    // With segments, one virtual user each: every instance writes its mark.
    let segmented = written(|j| {
        j.duration = Some(2);
        j.concurrency = 4;
        j.segments = 3;
    });
    let scenarios = &constant(&segmented.text, "export const options = ")["scenarios"];
    assert_eq!(scenarios["end"]["vus"], 3);
    // Dropped iterations are known by their scenario alone.
    assert!(
        options["systemTags"]
            .as_array()
            .unwrap()
            .contains(&json!("scenario"))
    );
    assert_eq!(constant(&s.text, "const PLAN = ")["cold"], true);
}
