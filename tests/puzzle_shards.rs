//! `crescendo puzzles generate --shard K/N` and `crescendo puzzles merge`:
//! shards merged are the unsharded run; other settings are refused naming
//! the difference; repeated ids are dropped; bad shards are named.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn crescendo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crescendo-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// Games 0..16 of seed 5 (Scottish: puzzles in games 2 and 15, one in
/// each shard of 2), optionally one shard of them.
fn generate(out: &Path, shard: Option<&str>) -> Output {
    let mut args = vec![
        "puzzles",
        "generate",
        "--count",
        "100",
        "--rules",
        "scottish",
        "--seed",
        "5",
        "--games",
        "16",
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    crescendo(&args)
}

fn merge(files: &[&Path], out: &Path) -> Output {
    let mut args = vec!["puzzles", "merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    crescendo(&args)
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn two_shards_merged_are_the_unsharded_run_and_repeats_are_dropped() {
    let (whole, one, two) = (temp("whole.jsonl"), temp("1.jsonl"), temp("2.jsonl"));
    ok(&generate(&whole, None));
    // The second shard first: the order of the work does not matter.
    ok(&generate(&two, Some("2/2")));
    ok(&generate(&one, Some("1/2")));
    let (a, b) = (text(&one), text(&two));
    assert!(!a.is_empty() && !b.is_empty(), "a puzzle in each shard");
    for (line, shard) in a.lines().map(|l| (l, 0)).chain(b.lines().map(|l| (l, 1))) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["game"]["index"].as_u64().unwrap() % 2, shard, "{line}");
    }
    let merged = temp("merged.jsonl");
    ok(&merge(&[&two, &one], &merged));
    assert_eq!(text(&merged), text(&whole), "the shards merged");
    // Every puzzle twice: each kept once, the file the same.
    let again = temp("again.jsonl");
    let o = merge(&[&one, &whole, &two], &again);
    ok(&o);
    assert_eq!(text(&again), text(&whole));
    let err = String::from_utf8_lossy(&o.stderr);
    let n = text(&whole).lines().count();
    assert!(err.contains(&format!("{n} puzzles from 3 files")), "{err}");
    assert!(
        err.contains(&format!("({n} duplicate ids dropped)")),
        "{err}"
    );
    // A resumed shard adds nothing: its games are done.
    ok(&generate(&one, Some("1/2")));
    assert_eq!(text(&one), a);
}

#[test]
fn other_settings_are_refused_naming_the_difference() {
    let (whole, other) = (temp("s-whole.jsonl"), temp("s-other.jsonl"));
    ok(&generate(&whole, None));
    let first = text(&whole).lines().next().unwrap().to_string();
    let mut v: serde_json::Value = serde_json::from_str(&first).unwrap();
    v["settings"]["scan_nodes"] = serde_json::json!(1000);
    std::fs::write(&other, format!("{v}\n")).unwrap();
    let o = merge(&[&whole, &other], &temp("s-merged.jsonl"));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("are from different generations"), "{err}");
    assert!(err.contains("scan_nodes: 300000 vs 1000"), "{err}");
    assert!(err.contains("s-other.jsonl:1"), "{err}");
    // Another rule set is another generation too.
    let italian = temp("s-italian.jsonl");
    ok(&crescendo(&[
        "puzzles",
        "generate",
        "--count",
        "1",
        "--rules",
        "italian",
        "--seed",
        "2",
        "--games",
        "4",
        "--out",
        italian.to_str().unwrap(),
    ]));
    let o = merge(&[&whole, &italian], &temp("s-merged2.jsonl"));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("rules: \"scottish\" vs \"italian\""), "{err}");
    // Appending to a file of other settings is refused before any game.
    let o = generate(&other, None);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is from another generation (scan_nodes"),
        "{err}"
    );
}

#[test]
fn bad_shards_are_refused_with_a_message() {
    let out = temp("bad.jsonl");
    for (shard, says) in [
        ("0/2", "numbered from 1"),
        ("3/2", "expected K/N"),
        ("1/0", "expected K/N"),
        ("two", "expected K/N"),
    ] {
        let o = generate(&out, Some(shard));
        assert!(!o.status.success(), "{shard}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--shard") && err.contains(says),
            "{shard}: {err}"
        );
        assert!(!out.exists(), "{shard}: nothing written");
    }
    let o = crescendo(&["puzzles", "merge", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success(), "merge needs a file");
}
