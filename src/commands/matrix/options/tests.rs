use super::*;

fn parse(args: &[&str]) -> Result<MatrixOptions, Error> {
    MatrixOptions::parse(args.iter().map(OsString::from).collect())
}

#[test]
fn configurations_from_the_command_line_the_base_first() {
    let me = std::env::current_exe().unwrap();
    let me = me.to_str().unwrap();
    let o = parse(&[
        &format!("--bench={me}"),
        "--config=plain:",
        "--config=off:YARDSTICK_ALLOC=off,K=a=b",
        &format!("--config=other:{me}"),
        "--base=off",
        "--bench-arg=--node=5",
        "--rounds=12",
    ])
    .unwrap();
    assert_eq!((o.sampling.rounds, o.sets), (12, 10));
    let c = o.configurations().unwrap();
    let names: Vec<&str> = c.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["off", "plain", "other"]);
    assert_eq!(
        c[0].env,
        [
            ("YARDSTICK_ALLOC".to_string(), "off".to_string()),
            ("K".to_string(), "a=b".to_string())
        ]
    );
    assert!(
        c.iter()
            .all(|c| c.path.to_str() == Some(me) && c.args == ["--node=5"])
    );
    // Fewer rounds than the default sets: one round per set.
    assert_eq!(parse(&["--rounds=7"]).unwrap().sets, 7);
}

#[test]
fn refusals_name_the_option() {
    for (args, needle) in [
        (vec!["--rounds=5"], "--rounds"),
        (vec!["--sets=5"], "--sets"),
        (vec!["--rounds=8", "--sets=9"], "--sets"),
        (vec!["--config=nocolon"], "--config"),
        (vec!["--config=a b:"], "--config"),
        (vec!["--config=a:K=1,=2"], "--config"),
        (vec!["--metric=cycles"], "--metric"),
        (vec!["--threshold=5"], "--threshold"),
        (vec!["f.toml", "--config=a:"], "--config"),
        (vec!["f.toml", "--bench=x"], "--bench"),
        (vec!["f.toml", "--bench-arg=--node=5"], "--bench-arg"),
        (vec!["f.toml", "g.toml"], "g.toml"),
    ] {
        let e = parse(&args).unwrap_err().to_string();
        assert!(e.contains(needle), "{args:?}: {e}");
    }
    for (args, needle) in [
        (vec!["--bench=/bin/sh", "--config=a:"], "at least two"),
        (vec!["--config=a:", "--config=b:"], "--bench=PATH"),
        (
            vec!["--config=a:/nonexistent", "--config=b:/bin/sh"],
            "/nonexistent: no such",
        ),
        (
            vec!["--bench=/bin/sh", "--config=a:", "--config=a:"],
            "named twice",
        ),
        (
            vec!["--bench=/bin/sh", "--config=a:", "--config=b:", "--base=c"],
            "--base",
        ),
    ] {
        let e = parse(&args).unwrap().configurations().unwrap_err();
        assert!(e.to_string().contains(needle), "{args:?}: {e}");
        assert_eq!(e.exit_code(), 2);
    }
}

#[test]
fn a_matrix_past_the_workers_it_can_keep_running_is_refused() {
    let names: Vec<String> = (0..=MAX_CONFIGURATIONS)
        .map(|i| format!("--config=c{i}:"))
        .collect();
    let mut args = vec!["--bench=/bin/sh"];
    args.extend(names.iter().map(String::as_str));
    let e = parse(&args).unwrap().configurations().unwrap_err();
    assert!(
        e.to_string()
            .contains("--config: 65 configurations, more than the 64"),
        "{e}"
    );
    assert_eq!(e.exit_code(), 2);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.toml");
    let entries: String = (0..=MAX_CONFIGURATIONS)
        .map(|i| format!("[[configuration]]\nname = \"c{i}\"\n"))
        .collect();
    std::fs::write(&file, format!("bench = \"/bin/sh\"\n{entries}")).unwrap();
    let e = parse(&[file.to_str().unwrap()])
        .unwrap()
        .configurations()
        .unwrap_err();
    assert!(e.to_string().contains("big.toml: 65 configurations"), "{e}");
}
