//! Matches beyond one machine (issue 21): shards played as separate
//! processes (and through GNU parallel when it is installed) add up, with
//! `crescendo match merge`, to the unsharded match, game for game; a run
//! killed with SIGKILL mid-game resumes and loses no pair and counts none
//! twice; merge refuses files of another match; a stop file stops a shard.
//!
//! The engines are random movers (`crescendo random-engine`), which restart
//! their choices from their seed at each game: a game depends only on its
//! opening and the seeds, so every machine plays the same games.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

#[path = "support/cli.rs"]
mod cli;

use cli::{BIN, assert_success, fixture, json_of};

/// A scratch directory of this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crescendo-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The match of these tests: two random movers under a node limit,
/// random openings, `games` games, seed 5.
fn match_args(games: u32) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    args.extend(random_mover("R1", 11));
    args.extend(random_mover("R2", 12));
    args.extend(strings(&[
        "--games",
        &games.to_string(),
        "--random-openings",
        "2",
    ]));
    args.extend(strings(&["--seed", "5", "--json"]));
    args
}

/// The `--engine` flag of a random mover `name` with `seed` under a limit
/// of 1000 nodes.
fn random_mover(name: &str, seed: u32) -> Vec<String> {
    let args = format!("args=random-engine --seed {seed}");
    strings(&[
        "--engine",
        &format!("cmd={BIN}"),
        &format!("name={name}"),
        &args,
        "nodes=1000",
    ])
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

fn run(args: &[String], extra: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .args(extra)
        .output()
        .expect("crescendo runs")
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The games of PGN files by round, without the `Date` tag (a run may
/// cross midnight).
fn pgn_by_round(files: &[PathBuf]) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for game in text.split("[Event ").filter(|g| !g.trim().is_empty()) {
            let game: String = game
                .lines()
                .filter(|l| !l.starts_with("[Date "))
                .collect::<Vec<_>>()
                .join("\n");
            let round = game
                .lines()
                .find_map(|l| l.strip_prefix("[Round \""))
                .and_then(|r| r.trim_end_matches("\"]").parse().ok())
                .expect("a Round tag");
            assert!(out.insert(round, game).is_none(), "round {round} twice");
        }
    }
    out
}

/// What the game list of a results file says: per pair, its opening, the
/// colours, results and terminations.
fn game_list(files: &[PathBuf]) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    for file in files {
        for l in lines(file) {
            let key = l["pair"].as_u64().unwrap();
            let value = format!(
                "{} {} {} {} {}",
                l["opening"], l["rounds"], l["white"], l["results"], l["terminations"]
            );
            assert!(out.insert(key, value).is_none(), "pair {key} twice");
        }
    }
    out
}

#[test]
fn four_shards_and_a_merge_are_the_unsharded_match() {
    let dir = scratch("four");
    let games = 23; // 12 pairs, the last of one game
    let args = match_args(games);
    let (all_results, all_pgn) = (dir.join("all.jsonl"), dir.join("all.pgn"));
    let out = Command::new(BIN)
        .args(&args)
        .args(["--results", all_results.to_str().unwrap()])
        .args(["--pgn", all_pgn.to_str().unwrap()])
        .env("RUST_LOG", "trace")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // nodes=N: the engines are sent a node limit, never the clock.
    assert!(stderr.contains("< go nodes 1000"), "{stderr}");
    assert!(!stderr.contains("wtime"), "{stderr}");
    let whole = json_of(&out);
    assert_eq!(whole["games"], games, "{whole}");
    assert_eq!(whole["time_control"], "nodes 1000");
    assert!(whole["shard"].is_null());

    // The shards as four processes at once.
    let mut children = Vec::new();
    let mut shard_results = Vec::new();
    let mut shard_pgns = Vec::new();
    for k in 1..=4 {
        let (results, pgn) = (
            dir.join(format!("shard{k}.jsonl")),
            dir.join(format!("shard{k}.pgn")),
        );
        let child = Command::new(BIN)
            .args(&args)
            .args(["--shard", &format!("{k}/4")])
            .args(["--results", results.to_str().unwrap()])
            .args(["--pgn", pgn.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        children.push(child);
        shard_results.push(results);
        shard_pgns.push(pgn);
    }
    for (k, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        assert_success(&out);
        let json = json_of(&out);
        assert_eq!(json["shard"], format!("{}/4", k + 1));
        // Pairs k, k+4, k+8: 6 games, but shard 4 holds pair 11 of one game.
        assert_eq!(json["games"], if k == 3 { 5 } else { 6 }, "{json}");
    }
    // The same games: openings, colours, results, every move.
    assert_eq!(
        game_list(&shard_results),
        game_list(std::slice::from_ref(&all_results))
    );
    assert_eq!(
        pgn_by_round(&shard_pgns),
        pgn_by_round(std::slice::from_ref(&all_pgn))
    );

    // The same report, from the shards in any order.
    let mut merge = vec!["match".to_string(), "merge".into(), "--json".into()];
    merge.extend(shard_results.iter().rev().map(|p| p.display().to_string()));
    let out = run(&merge, &[]);
    assert_success(&out);
    assert_eq!(json_of(&out), whole);
    // And the text report is the one a single run prints.
    merge.retain(|a| a != "--json");
    let out = run(&merge, &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Results of R1 vs R2 (nodes 1000, italian rules, seed 5):"),
        "{text}"
    );
    assert!(text.contains(&format!("Games: {games}, ")), "{text}");
    assert!(text.contains("Ptnml(0-2): ["), "{text}");

    // GNU parallel, when installed, with the README's recipe on this machine
    // (`--sshlogin 4/:` is four jobs on the local host; `-q` keeps the
    // arguments with spaces whole through the shell).
    if Command::new("parallel").arg("--version").output().is_ok() {
        let mut cmd = Command::new("parallel");
        cmd.args(["-q", "--sshlogin", "4/:", "--halt", "now,fail=1", BIN])
            .args(&args)
            .args(["--shard", "{}/4", "--results"])
            .arg(dir.join("par{}.jsonl"))
            .args([":::", "1", "2", "3", "4"]);
        let out = cmd.output().unwrap();
        assert_success(&out);
        let files: Vec<PathBuf> = (1..=4).map(|k| dir.join(format!("par{k}.jsonl"))).collect();
        assert_eq!(
            game_list(&files),
            game_list(std::slice::from_ref(&all_results))
        );
        let mut merge = vec!["match".to_string(), "merge".into(), "--json".into()];
        merge.extend(files.iter().map(|p| p.display().to_string()));
        assert_eq!(json_of(&run(&merge, &[])), whole);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A random mover that takes `delay` seconds per turn: a shell loop feeds
/// it its input, pausing before each `go`.
fn slow_random(seed: u32, delay: &str) -> Vec<String> {
    let script = format!(
        "while IFS= read -r l; do case \"$l\" in go*) sleep {delay};; esac; \
         printf '%s\\n' \"$l\"; done | exec {BIN} random-engine --seed {seed}"
    );
    vec![
        "--engine".into(),
        "cmd=bash".into(),
        "name=Slow".into(),
        "arg=-c".into(),
        format!("arg={script}"),
        "nodes=1000".into(),
    ]
}

fn slow_match(games: u32) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    args.extend(random_mover("R1", 11));
    args.extend(slow_random(12, "0.02"));
    args.extend(strings(&[
        "--games",
        &games.to_string(),
        "--random-openings",
        "2",
    ]));
    args.extend(strings(&["--seed", "9", "--concurrency", "2", "--json"]));
    args
}

/// Starts `crescendo ARGS EXTRA` with its output piped, and waits until
/// its results file has a pair.
fn start_until_a_pair(args: &[String], extra: &[&str], results: &Path) -> Child {
    let mut child = Command::new(BIN)
        .args(args)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_lines(results, 1, &mut child);
    child
}

/// Waits until the results file has at least `n` lines.
fn wait_for_lines(path: &Path, n: usize, child: &mut std::process::Child) {
    let start = Instant::now();
    loop {
        let have = std::fs::read_to_string(path).map_or(0, |t| t.lines().count());
        if have >= n {
            return;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(start.elapsed() < Duration::from_secs(120), "no results");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_run_killed_mid_game_resumes_and_counts_every_pair_once() {
    let dir = scratch("kill");
    let results = dir.join("r.jsonl");
    let games = 12;
    let args = slow_match(games);
    let with_results = |extra: &[&str]| {
        let mut cmd = Command::new(BIN);
        cmd.args(&args)
            .args(["--results", results.to_str().unwrap()])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    };
    let mut child = with_results(&[]).spawn().unwrap();
    wait_for_lines(&results, 2, &mut child);
    // Games follow each other at once and every turn of Slow takes 20 ms:
    // the run is in the middle of a game (two, with concurrency 2).
    std::thread::sleep(Duration::from_millis(50));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = lines(&results).len();
    assert!((2..6).contains(&before), "{before} pairs before the kill");

    let out = with_results(&[]).output().unwrap();
    assert_success(&out);
    let resumed = json_of(&out);
    assert_eq!(resumed["games"], games, "{resumed}");
    let pairs: Vec<u64> = lines(&results)
        .iter()
        .map(|l| l["pair"].as_u64().unwrap())
        .collect();
    let mut sorted = pairs.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        (0..6).collect::<Vec<_>>(),
        "every pair exactly once: {pairs:?}"
    );
    let merged = run(
        &[
            "match".into(),
            "merge".into(),
            "--json".into(),
            results.display().to_string(),
        ],
        &[],
    );
    let merged = json_of(&merged);
    assert_eq!(merged, resumed);
    assert_eq!(cli::pentanomial_pairs(&merged), 6);

    // Once more: nothing is left to play, and the report stays.
    let out = with_results(&[]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(json_of(&out), resumed);
    assert_eq!(lines(&results).len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_stops_cleanly_and_the_run_resumes() {
    let dir = scratch("term");
    let results = dir.join("r.jsonl");
    let args = slow_match(12);
    let child = start_until_a_pair(&args, &["--results", results.to_str().unwrap()], &results);
    let sent = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    // Games cut off, engines told to quit (0.5 s grace at most), file closed.
    assert!(
        sent.elapsed() < Duration::from_secs(5),
        "{:?}",
        sent.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let json = json_of(&out);
    assert_eq!(json["stopped_early"], true);
    let kept = lines(&results); // every line whole
    assert!(!kept.is_empty() && kept.len() < 6);
    let out = Command::new(BIN)
        .args(&args)
        .args(["--results", results.to_str().unwrap()])
        .output()
        .unwrap();
    assert_success(&out);
    assert_eq!(json_of(&out)["games"], 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stop_file_stops_a_shard_between_games() {
    let dir = scratch("stop");
    let (results, stop) = (dir.join("r.jsonl"), dir.join("stop"));
    let (r, s) = (results.to_str().unwrap(), stop.to_str().unwrap());
    let extra = ["--shard", "1/2", "--results", r, "--stop-file", s];
    let child = start_until_a_pair(&slow_match(40), &extra, &results);
    std::fs::write(&stop, "H1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("exists: no more games started"), "{stderr}");
    let json = json_of(&out);
    assert_eq!(json["stopped_early"], true, "{json}");
    assert!(json["games"].as_u64().unwrap() < 20, "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_files_of_different_matches_naming_the_difference() {
    let dir = scratch("refuse");
    let (a, b, c) = (
        dir.join("a.jsonl"),
        dir.join("b.jsonl"),
        dir.join("c.jsonl"),
    );
    let args = match_args(4);
    assert!(
        run(&args, &["--results", a.to_str().unwrap()])
            .status
            .success()
    );
    let mut other = args.clone();
    let seed = other.iter().position(|s| s == "--seed").unwrap();
    other[seed + 1] = "6".into();
    assert!(
        run(&other, &["--results", b.to_str().unwrap()])
            .status
            .success()
    );
    let merge = |files: &[&Path]| {
        let mut m = vec!["match".to_string(), "merge".into()];
        m.extend(files.iter().map(|p| p.display().to_string()));
        run(&m, &[])
    };
    let out = merge(&[&a, &b]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("are from different matches: seed: 5 vs 6"),
        "{stderr}"
    );
    // Another option of an engine is another match too.
    let mut opt = args.clone();
    opt.insert(6, "option.Hash=32".into());
    assert!(
        run(&opt, &["--results", c.to_str().unwrap()])
            .status
            .success()
    );
    let stderr = String::from_utf8_lossy(&merge(&[&a, &c]).stderr).to_string();
    assert!(
        stderr.contains("engines[0].options: [] vs [[\"Hash\",\"32\"]]"),
        "{stderr}"
    );
    // Resuming into a file of another match is refused before any game.
    let out = run(&other, &["--results", a.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("is from another match (seed: 6 vs 5)"),
        "{stderr}"
    );
    // Bad shards name the flag.
    let stderr = String::from_utf8_lossy(&run(&args, &["--shard", "0/4"]).stderr).to_string();
    assert!(stderr.contains("numbered from 1"), "{stderr}");
    // A seed from the clock would make each shard a match of its own.
    let mut unseeded = args.clone();
    unseeded.drain(seed..seed + 2);
    let out = run(&unseeded, &["--shard", "1/4"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--shard and --results need --seed"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_writes_the_stop_file_once_the_sprt_has_decided() {
    let dir = scratch("sprt");
    let (results, stop) = (dir.join("r.jsonl"), dir.join("stop"));
    let fake = format!("arg={}", fixture("fake_engine.sh"));
    let engine = format!("cmd={BIN}");
    let mut args = vec!["match", "--engine", "cmd=bash", &fake, "arg=illegal"];
    args.extend([
        "--engine",
        &engine,
        "args=random-engine --seed 3",
        "--games",
        "200",
    ]);
    args.extend(["--tc", "5+0", "--seed", "1", "--sprt", "elo0=0", "elo1=10"]);
    args.extend(["--results", results.to_str().unwrap(), "--json"]);
    let out = cli::succeeds(&args);
    let single = json_of(&out);
    assert_eq!(single["sprt"]["result"], "H0");
    let out = run(
        &[
            "match".into(),
            "merge".into(),
            "--json".into(),
            "--stop-file".into(),
            stop.display().to_string(),
            results.display().to_string(),
        ],
        &[],
    );
    assert!(out.status.success());
    let merged = json_of(&out);
    assert_eq!(merged["sprt"]["result"], "H0", "{merged}");
    assert_eq!(std::fs::read_to_string(&stop).unwrap(), "H0 accepted\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_searching_engine_under_a_node_limit_plays_the_same_games_in_shards() {
    // Crescendo itself, `go nodes 300` on one thread, against a random
    // mover: every move of every game is the same in two shards as in one run.
    let dir = scratch("search");
    let args: Vec<String> = [
        "match",
        "--engine",
        &format!("cmd={BIN}"),
        "name=Crescendo",
        "option.Threads=1",
        "nodes=300",
        "--engine",
        &format!("cmd={BIN}"),
        "name=R",
        "args=random-engine --seed 4",
        "nodes=300",
        "--games",
        "8",
        "--random-openings",
        "2",
        "--seed",
        "13",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let whole = dir.join("whole.pgn");
    let out = run(&args, &["--pgn", whole.to_str().unwrap()]);
    assert_success(&out);
    let mut shards = Vec::new();
    for k in 1..=2 {
        let pgn = dir.join(format!("shard{k}.pgn"));
        let shard = format!("{k}/2");
        let out = run(&args, &["--shard", &shard, "--pgn", pgn.to_str().unwrap()]);
        assert_success(&out);
        shards.push(pgn);
    }
    let games = pgn_by_round(std::slice::from_ref(&whole));
    assert_eq!(games.len(), 8);
    assert_eq!(pgn_by_round(&shards), games);
    let _ = std::fs::remove_dir_all(&dir);
}
