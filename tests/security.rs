//! The security cases of the outside sweep, re-run against the real
//! binary: no workflow command injected into a GitHub Actions log, no
//! secret in a tool's arguments, a save or the output, and no run past the
//! caps to a name unless every address it resolved to is loopback. Each
//! test prints its tally (`cargo test --test security -- --nocapture`).

mod common;
mod http_support;

use common::{Ran, run, yardstick};
use http_support::start;
use std::path::Path;
use yardstick_http::address::system_lookup;

/// The workflow commands GitHub's runner would act on in `log`: lines (cut
/// at `\n` and `\r`, as the runner reads them) that start with `::` after
/// leading white space, outside `::stop-commands::TOKEN` ... `::TOKEN::`.
fn commands(log: &str) -> Vec<String> {
    let mut stopped: Option<String> = None;
    let mut found = Vec::new();
    for line in log.split(['\n', '\r']) {
        let line = line.trim_start();
        if let Some(token) = &stopped {
            if line == format!("::{token}::") {
                stopped = None;
            }
            continue;
        }
        if let Some(token) = line.strip_prefix("::stop-commands::") {
            stopped = Some(token.to_string());
        } else if line.starts_with("::") {
            found.push(line.to_string());
        }
    }
    found
}

/// yardstick's own annotations (see `output/github.rs`).
fn ours(command: &str) -> bool {
    [
        "::warning title=Performance regression%3A ",
        "::notice title=Inconclusive%3A ",
        "::notice title=Slower than the last run%3A ",
    ]
    .iter()
    .any(|p| command.starts_with(p))
}

/// A saved micro run whose every text field tries to start a line with a
/// workflow command; `scale` multiplies its times.
fn hostile_run(scale: f64) -> String {
    saved_run(
        &[
            "::error::key at a line start",
            "  ::error::indented key",
            "key\n::error::after a newline",
            "key\r::error::after a carriage return",
            "key\u{85}::error::after NEL\u{1b}[2J",
        ],
        "note\n::error::note\u{2028}::error::separator",
        scale,
    )
}

/// A saved micro run of probes named `keys`, each with `note`, its other
/// text fields hostile too; `scale` multiplies its times.
fn saved_run(keys: &[&str], note: &str, scale: f64) -> String {
    let row = |key: &&str| {
        serde_json::json!({
            "key": key, "kind": "probe", "name": key, "n": 3, "median": scale,
            "samples": [scale, scale, scale], "calibration_samples": [1.0, 1.0, 1.0],
            "requests": 3, "errors": 0, "error_messages": {}, "note": note,
        })
    };
    let run = serde_json::json!({
        "tool": "yardstick", "format": 1, "mode": "micro",
        // `started` must be a date (a hostile one is refused when read);
        // `environment.date` is shown as written.
        "started": "2026-12-06T05:28:05Z", "machine": "m\r::error::machine",
        "settings": {},
        "environment": {
            "date": "\n::error::date", "rustc": "rustc\n::error::rustc", "profile": "release",
            "opt_level": "3", "debug_assertions": false, "target": "t\n::error::target",
            "os": "linux", "arch": "x86_64", "machine": "m", "cpus": 2, "load": null,
            "git_commit": "::error::commit", "ci": "\n::set-output name=x::y",
            "machine_class": "class\n::error::class",
        },
        "warnings": ["warning\n::error::warning"],
        "rows": keys.iter().map(row).collect::<Vec<_>>(),
        "calibration": {
            "n": 3, "min": 1.0, "mean": 1.0, "median": 1.0, "p90": 1.0, "p95": 1.0,
            "p99": 1.0, "max": 1.0, "stddev": 0.0, "before_median": 1.0,
            "after_median": 1.0, "drift_pct": 0.0, "checksum": 1,
        },
    });
    run.to_string()
}

#[test]
fn no_workflow_command_is_injected_into_a_ci_log() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let slow = dir.path().join("slow.json");
    std::fs::write(&base, hostile_run(1.0)).unwrap();
    std::fs::write(&slow, hostile_run(3.0)).unwrap();
    let summary = dir.path().join("summary.md");
    let missing = dir.path().join("no\n::error::file name.json");
    let mut runs: Vec<(String, Ran)> = Vec::new();
    for format in ["table", "csv", "json"] {
        let f = format!("--format={format}");
        for args in [
            vec!["show", base.to_str().unwrap(), &f],
            vec![
                "compare",
                base.to_str().unwrap(),
                slow.to_str().unwrap(),
                &f,
            ],
            vec!["show", missing.to_str().unwrap(), &f],
        ] {
            let mut cmd = yardstick();
            cmd.args(&args)
                .env("GITHUB_ACTIONS", "true")
                .env("GITHUB_STEP_SUMMARY", &summary);
            runs.push((args.join(" "), run(cmd)));
        }
    }
    let mut injected = Vec::new();
    let mut annotations = 0;
    for (what, ran) in &runs {
        for log in [&ran.stdout, &ran.stderr] {
            let (own, other): (Vec<String>, Vec<String>) =
                commands(log).into_iter().partition(|c| ours(c));
            annotations += own.len();
            injected.extend(other.into_iter().map(|c| format!("{what}: {c}")));
        }
    }
    println!(
        "security: {} workflow commands injected in {} outputs; {annotations} annotations of yardstick's own",
        injected.len(),
        runs.len() * 2
    );
    assert!(injected.is_empty(), "{injected:#?}");
    // The shield must not silence yardstick's own annotations: five
    // regressed keys in each of the three formats of `compare`.
    assert_eq!(annotations, 15);
}

/// `yardstick compare` writes the job summary as every judging command
/// does, and no address in a run's text is a link there: GitHub turns
/// `scheme://`, `www.` and `user@host` into links, so none of these
/// appears unescaped, while the text still reads the same.
#[test]
fn compare_writes_a_job_summary_in_which_no_address_is_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let keys = ["http://evil.example/auto", "www.evil.example"];
    let note = "see https://evil.example or mail user@evil.example";
    let (base, slow) = (dir.path().join("base.json"), dir.path().join("slow.json"));
    std::fs::write(&base, saved_run(&keys, note, 1.0)).unwrap();
    std::fs::write(&slow, saved_run(&keys, note, 3.0)).unwrap();
    let summary = dir.path().join("summary.md");
    let mut cmd = yardstick();
    cmd.args(["compare", base.to_str().unwrap(), slow.to_str().unwrap()])
        .env("GITHUB_STEP_SUMMARY", &summary);
    let ran = run(cmd);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let written = std::fs::read_to_string(&summary).unwrap_or_default();
    assert!(
        written.starts_with("## yardstick micro")
            && written.contains("**FAIL: slower than the baseline**")
            && written.contains("| http\\://evil.example/auto | median/calib |")
            && written.contains("| www\\.evil.example | median/calib |"),
        "{written}"
    );
    let live: Vec<&str> = ["http://", "https://", "www.", "r@e"]
        .into_iter()
        .filter(|link| written.contains(link))
        .collect();
    assert!(live.is_empty(), "{live:?} in {written}");
}

/// Secrets of one kind each, every one findable by its marker.
const SECRETS: [&str; 8] = [
    "url-QZ1",
    "auth-QZ2",
    "cookie-QZ3",
    "authorization-QZ4",
    "apikey-QZ5",
    "token-QZ6",
    "marked-QZ7",
    "env-QZ8",
];

fn secret_args(url: &str) -> Vec<String> {
    vec![
        format!("--url={url}"),
        "--cookie=session=cookie-QZ3".into(),
        "--header=Authorization: Bearer authorization-QZ4".into(),
        "--header=X-Api-Key: apikey-QZ5".into(),
        "--header=X-Session-Token: token-QZ6".into(),
        "--secret-header=X-Deploy: marked-QZ7".into(),
        "--requests=2".into(),
        "--concurrency=1".into(),
    ]
}

fn count_secrets(text: &str) -> usize {
    SECRETS
        .iter()
        .filter(|s| text.contains(&s[s.len() - 3..]))
        .count()
}

/// A stand-in for each load tool that records its arguments, and the mode
/// and text of any script it is given, then fails as a tool would.
fn fake_tools(dir: &Path) {
    for tool in ["ab", "wrk", "oha", "h2load"] {
        let path = dir.join(tool);
        let script = format!(
            "#!/bin/sh\nlog={}/{tool}.argv\nprintf '%s\\n' \"$@\" >> \"$log\"\n\
             while [ $# -gt 0 ]; do\n  if [ \"$1\" = -s ]; then stat -c '%a' \"$2\" >> {0}/{tool}.script; cat \"$2\" >> {0}/{tool}.script; fi\n  shift\ndone\necho 'no summary' >&2\nexit 1\n",
            dir.display()
        );
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn no_secret_reaches_a_tools_arguments_a_save_or_the_output() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let with_url = format!("http://user:url-QZ1@127.0.0.1:{}/", s.addr.port());
    let plain = s.url("/");
    let mut leaked = Vec::new();
    // The built-in client: credentials from the URL, then from --auth and
    // the environment; everything printed and saved is searched.
    for (url, extra) in [(&with_url, None), (&plain, Some("--auth=user:auth-QZ2"))] {
        let mut cmd = yardstick();
        cmd.arg("http")
            .args(secret_args(url))
            .args(extra)
            .arg(format!("--save={}", save.display()))
            .env("YARDSTICK_SECRET_HEADERS", "X-Env: env-QZ8");
        let ran = run(cmd);
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        let saved = std::fs::read_to_string(&save).unwrap();
        for (place, text) in [
            ("stdout", &ran.stdout),
            ("stderr", &ran.stderr),
            ("save", &saved),
        ] {
            if count_secrets(text) > 0 {
                leaked.push(format!("built-in {place}: {text}"));
            }
        }
    }
    assert!(
        s.seen.authorization.lock().unwrap().len() >= 4,
        "credentials were sent"
    );
    // The tools: every argument each was given, and the scripts.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    fake_tools(&bin);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut refused = 0;
    for tool in ["ab", "wrk", "oha", "h2load"] {
        let mut cmd = yardstick();
        cmd.arg("http")
            .args(secret_args(&with_url))
            .arg(format!("--tool={tool}"))
            .args((tool == "wrk").then_some("--duration=1"))
            .env("PATH", &path)
            .env("YARDSTICK_SECRET_HEADERS", "X-Env: env-QZ8");
        let ran = run(cmd);
        assert_eq!(ran.code, 2, "{tool}: {}", ran.stderr);
        if ran.stderr.starts_with(&format!(
            "REFUSED: --tool={tool}: {tool} takes headers only"
        )) {
            refused += 1;
        }
        let argv = std::fs::read_to_string(bin.join(format!("{tool}.argv"))).unwrap_or_default();
        for (place, text) in [
            ("argv", &argv),
            ("stdout", &ran.stdout),
            ("stderr", &ran.stderr),
        ] {
            if count_secrets(text) > 0 {
                leaked.push(format!("{tool} {place}: {text}"));
            }
        }
    }
    // wrk ran, and got every credential from a script only it can read.
    let script = std::fs::read_to_string(bin.join("wrk.script")).unwrap_or_default();
    assert!(script.starts_with("600\n"), "{script}");
    // The credentials come first; the hooks that count statuses follow.
    let credentials = script.split("\nlocal threads").next().unwrap_or("");
    let decoded: String = credentials
        .split('\\')
        .filter_map(|n| {
            n.trim_end_matches(|c: char| !c.is_ascii_digit())
                .parse::<u8>()
                .ok()
        })
        .map(char::from)
        .collect();
    for secret in &SECRETS[2..] {
        assert!(decoded.contains(secret), "{secret} not in wrk's script");
    }
    // A password with an unencoded `/` is refused, none of it shown.
    let ran = run(yardstick().args([
        "http",
        &format!(
            "--url=http://user:pass/word-QZ9@127.0.0.1:{}/",
            s.addr.port()
        ),
    ]));
    assert_eq!(ran.code, 2);
    if ran.stderr.contains("QZ9") {
        leaked.push(format!("url refusal: {}", ran.stderr));
    }
    println!(
        "security: {} secrets in tools' arguments, saves or output; {refused} of 3 argument-only tools refused credentials",
        leaked.len()
    );
    assert!(leaked.is_empty(), "{leaked:#?}");
    assert_eq!(refused, 3);
}

#[test]
fn no_uncapped_run_to_a_name_unless_every_address_is_loopback() {
    let s = start();
    let port = s.addr.port();
    let names = [
        "localhost.",
        "app.localhost",
        "127.0.0.1.example.com",
        "localhost.example.com",
        "example.invalid",
        "localhost",
    ];
    let mut uncapped_off_loopback = Vec::new();
    let mut refused = 0;
    for name in names {
        let ran = run(yardstick().args([
            "http",
            &format!("--url=http://{name}:{port}/"),
            "--requests=1001",
            "--warmup=0",
            "--concurrency=1",
            "-q",
        ]));
        let answers = system_lookup(name, port);
        let loopback =
            !answers.is_empty() && answers.iter().all(|a| a.to_canonical().is_loopback());
        if ran.stderr.starts_with("REFUSED:") {
            refused += 1;
            assert!(
                !loopback,
                "{name} resolves to loopback only ({answers:?}) but was capped"
            );
        } else if !loopback {
            uncapped_off_loopback.push(format!("{name} {answers:?}: exit {}", ran.code));
        }
    }
    // --resolve away from loopback caps even localhost.
    let ran = run(yardstick().args([
        "http",
        &format!("--url=http://localhost:{port}/"),
        &format!("--resolve=localhost:{port}:192.0.2.1"),
        "--requests=1001",
    ]));
    assert!(ran.stderr.starts_with("REFUSED:"), "{}", ran.stderr);
    println!(
        "security: {} uncapped runs to a name with an address off loopback; {refused} of {} names capped",
        uncapped_off_loopback.len(),
        names.len()
    );
    assert!(
        uncapped_off_loopback.is_empty(),
        "{uncapped_off_loopback:#?}"
    );
}
