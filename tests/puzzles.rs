//! `crescendo puzzles`: generate (reproducible, sharded), check (names the
//! bad line), merge (shards merged are the unsharded run; other settings
//! refused naming the difference; repeated ids dropped), hard puzzles
//! beside the ordinary ones, pick and rate, driven through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn crescendo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crescendo-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `generate` for four games of seed 2 (Scottish); returns the file
/// and the summary up to the timing.
fn generate(out: &PathBuf, threads: &str) -> (String, String) {
    let o = crescendo(&[
        "puzzles",
        "generate",
        "--count",
        "3",
        "--rules",
        "scottish",
        "--seed",
        "2",
        "--games",
        "4",
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = String::from_utf8_lossy(&o.stdout).to_string();
    let summary = summary
        .split(" in ")
        .next()
        .unwrap()
        .replace(out.to_str().unwrap(), "FILE");
    (std::fs::read_to_string(out).unwrap(), summary)
}

#[test]
fn generate_is_reproducible_on_any_number_of_threads() {
    let (a, b) = (temp("a.jsonl"), temp("b.jsonl"));
    let (first, summary) = generate(&a, "1");
    assert!(summary.contains("from 4 games"), "{summary}");
    assert!(!summary.contains(" 0 candidates"), "{summary}");
    assert_eq!(
        generate(&b, "2"),
        (first.clone(), summary),
        "the same seed on 2 threads"
    );
    let o = crescendo(&["puzzles", "check", a.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["puzzles"].as_u64(), Some(first.lines().count() as u64));
}

/// Three good records (back-rank mates, Italian), one JSON line each.
fn good_lines() -> Vec<String> {
    use crescendo::chess::{Rules, fen, notation::parse_uci};
    use crescendo::mate::MateTable;
    [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        ("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "e1e8"),
        ("1k6/ppp5/8/8/8/8/8/6KR w - - 0 1", "h1h8"),
    ]
    .iter()
    .map(|(text, m)| {
        let pos = fen::parse(text, Rules::Italian).unwrap();
        let mv = parse_uci(&pos, m).unwrap();
        crescendo::puzzles::record(&pos, &[mv], 10, &[], (0, 0, "", ""), &MateTable::new(1))
            .to_line()
    })
    .collect()
}

#[test]
fn check_passes_good_records_and_names_a_corrupted_line() {
    let lines = good_lines();
    let path = temp("good.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let o = crescendo(&["puzzles", "check", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let mut v: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    // A move that does not mate instead of the solution.
    v["solution_uci"] = serde_json::json!(["e1e7"]);
    let corrupted = [lines[0].clone(), v.to_string(), lines[2].clone()].join("\n");
    let path = temp("corrupted.jsonl");
    std::fs::write(&path, corrupted).unwrap();
    let o = crescendo(&["puzzles", "check", path.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("corrupted.jsonl:2:"), "{err}");
    assert!(err.contains("does not mate"), "{err}");
    let o = crescendo(&["puzzles", "check", path.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["bad"][0]["line"].as_u64(), Some(2));
    assert_eq!(v["good"].as_u64(), Some(2));
}

#[test]
fn pick_and_rate_answer_in_json_and_bad_input_is_named() {
    let path = temp("pick.jsonl");
    std::fs::write(&path, good_lines().join("\n")).unwrap();
    let file = path.to_str().unwrap();
    let o = crescendo(&["puzzles", "pick", "--rating", "1500", "--file", file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let p: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(p["format"], "crescendo-puzzle-2");
    let id = p["id"].as_str().unwrap().to_string();
    let rate = |player: &'static str, puzzle, solved: &'static str| {
        let args = ["--player", player, "--puzzle", puzzle, "--solved", solved];
        [&["puzzles", "rate"][..], &args, &["--file", file]].concat()
    };
    let o = crescendo(&rate("1500,200,0.06", &id, "true"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(r["player"]["rating"].as_f64().unwrap() > 1500.0, "{r}");
    assert_eq!(r["puzzle"]["id"], id.as_str());
    assert!(r["puzzle"]["rating"].as_f64().unwrap() < p["rating"].as_f64().unwrap());
    for bad in [
        rate("1500,200", &id, "true"),
        rate("1500,200,0.06", "nope", "true"),
        rate("1500,200,0.06", &id, "yes"),
        vec![
            "puzzles", "pick", "--rating", "1500", "--theme", "nonsense", "--file", file,
        ],
        vec!["puzzles", "check", "/nonexistent/puzzles.jsonl"],
    ] {
        let o = crescendo(&bad);
        assert!(!o.status.success(), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).starts_with("crescendo: "),
            "{bad:?}"
        );
    }
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// Games 0..29 of seed 1 (Scottish: puzzles in games 15, 25 and 28, so
/// some in each shard of 2), optionally one shard of them.
fn generate_shard(out: &Path, shard: Option<&str>) -> Output {
    match shard {
        Some(s) => generate_games(out, "scottish", "29", &["--shard", s]),
        None => generate_games(out, "scottish", "29", &[]),
    }
}

/// `generate` up to 100 puzzles from games 0..`games` of seed 1.
fn generate_games(out: &Path, rules: &str, games: &str, more: &[&str]) -> Output {
    let mut args = vec![
        "puzzles",
        "generate",
        "--count",
        "100",
        "--rules",
        rules,
        "--seed",
        "1",
        "--games",
        games,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(more);
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
    ok(&generate_shard(&whole, None));
    // The second shard first: the order of the work does not matter.
    ok(&generate_shard(&two, Some("2/2")));
    ok(&generate_shard(&one, Some("1/2")));
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
    ok(&generate_shard(&one, Some("1/2")));
    assert_eq!(text(&one), a);
}

#[test]
fn other_settings_are_refused_naming_the_difference() {
    let (whole, other) = (temp("s-whole.jsonl"), temp("s-other.jsonl"));
    ok(&generate_shard(&whole, None));
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
        "1",
        "--games",
        "16",
        "--out",
        italian.to_str().unwrap(),
    ]));
    let o = merge(&[&whole, &italian], &temp("s-merged2.jsonl"));
    refused(&o, "rules: \"scottish\" vs \"italian\"");
    // Appending to a file of other settings is refused before any game.
    refused(
        &generate_shard(&other, None),
        "is from another generation (scan_nodes",
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
        let o = generate_shard(&out, Some(shard));
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

/// Games 15 and 387 of seed 1 (Italian: an ordinary puzzle in game 15, a
/// hard one in game 387), ordinary or `--hard`, appended to `out`.
fn generate_two_games(out: &Path, hard: bool) -> Output {
    let more: &[&str] = if hard {
        &["--shard", "16/372", "--hard"]
    } else {
        &["--shard", "16/372"]
    };
    generate_games(out, "italian", "388", more)
}

/// The records of a file as JSON values.
fn records(path: &Path) -> Vec<serde_json::Value> {
    text(path)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn hard_puzzles_join_the_ordinary_file_and_each_kind_resumes() {
    let file = temp("hard.jsonl");
    ok(&generate_two_games(&file, false));
    let ordinary = text(&file);
    let n = ordinary.lines().count();
    assert!(n > 0, "game 15 gives an ordinary puzzle");
    let o = generate_two_games(&file, true);
    ok(&o);
    let summary = String::from_utf8_lossy(&o.stdout);
    assert!(summary.contains("hard puzzles appended"), "{summary}");
    let all = text(&file);
    assert!(
        all.starts_with(&ordinary),
        "appended, the ordinary lines kept"
    );
    let recs = records(&file);
    assert!(recs.len() > n, "game 387 gives a hard puzzle");
    let top = recs[..n]
        .iter()
        .map(|r| r["rating"].as_f64().unwrap())
        .fold(f64::MIN, f64::max);
    for r in &recs[n..] {
        assert_eq!(r["settings"]["hard"]["scan_nodes"], 2_048_000, "{r}");
        assert_eq!(r["game"]["index"], 387);
        assert!(r["rating"].as_f64().unwrap() > top.max(2_300.0), "{r}");
    }
    for r in &recs[..n] {
        assert!(r["settings"].get("hard").is_none(), "{r}");
    }
    // Each kind resumes after its own last game: nothing left to add.
    ok(&generate_two_games(&file, false));
    ok(&generate_two_games(&file, true));
    assert_eq!(text(&file), all);
    let o = crescendo(&["puzzles", "check", file.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["good"].as_u64(), Some(recs.len() as u64));
    // The kinds merge; a hard record of other hard settings does not.
    let merged = temp("hard-merged.jsonl");
    ok(&merge(&[&file], &merged));
    assert_eq!(records(&merged).len(), recs.len());
    let mut other = recs[n].clone();
    other["settings"]["hard"]["all_nodes"] = serde_json::json!(1000);
    other["id"] = serde_json::json!("0000000000000000");
    let odd = temp("hard-odd.jsonl");
    std::fs::write(&odd, format!("{other}\n")).unwrap();
    let o = merge(&[&file, &odd], &temp("hard-merged2.jsonl"));
    refused(&o, "hard.all_nodes: 32000000 vs 1000");
    // A hard run refuses it too.
    refused(
        &generate_two_games(&odd, true),
        "another generation (hard.all_nodes",
    );
}

/// The command failed, its stderr saying `says`.
fn refused(o: &Output, says: &str) {
    assert!(!o.status.success(), "{says}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(says), "{err}");
}
