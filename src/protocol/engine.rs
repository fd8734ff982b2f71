//! The engine state and the handling of each command. The input loop runs on
//! the caller's thread; searches run on their own thread, so `stop`,
//! `isready` and `quit` are answered at once in every state.

use super::command::{self, Command, Go, Start};
use super::game::{Game, Job, JobContext};
use super::options::{Changed, Options};
use super::output::Output;
use super::ponder::Ponder;
use super::query::{self, Record};
use crate::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long `stop` and `quit` wait for the search thread to finish its
/// last line (a search notices the flag within about a millisecond).
const STOP_WAIT: Duration = Duration::from_millis(40);

/// Whether the input loop goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// A job running on the search thread.
struct Running {
    stop: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// `go infinite` or `go ponder`: runs until stopped (or `ponderhit`).
    infinite: bool,
    /// `go ponder`: the flags `ponderhit` and `stop` set.
    ponder: Option<Arc<Ponder>>,
}

/// The engine: options, the game, the output, and the running job.
pub struct Engine {
    options: Options,
    game: Box<dyn Game>,
    out: Output,
    running: Option<Running>,
    /// The last accepted `position`, for the GUI queries.
    record: Record,
}

impl Engine {
    /// An engine writing to `out`, with default options at the start position.
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        let game = super::game::new_game(options.variant, &options);
        Engine {
            options,
            game,
            out,
            running: None,
            record: Record::default(),
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(cmd)) => self.handle(cmd),
            Err(e) => {
                self.out.error(&e);
                Flow::Continue
            }
        }
    }

    /// Answers an input line that was not read (too long) with its error.
    pub fn reject_line(&mut self, why: &str) -> Flow {
        self.out.log_input("<line dropped>");
        self.out.error(why);
        Flow::Continue
    }

    fn handle(&mut self, cmd: Command) -> Flow {
        self.reap();
        match cmd {
            Command::Uci => self.uci(),
            Command::Debug(on) => log::debug!("debug {on}"),
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => self.new_game(),
            Command::Quit => {
                self.stop();
                return Flow::Quit;
            }
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.position(&start, &moves),
            Command::Go(go) => self.go(&go),
            Command::Display => {
                for line in self.game.display() {
                    self.out.line(&line);
                }
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Legal => self.query(query::legal_line),
            Command::State => self.query(query::state_line),
        }
        Flow::Continue
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name Crescendo {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Crescendo developers");
        for line in Options::uci_lines() {
            self.out.line(&line);
        }
        self.out.line("uciok");
    }

    /// Forgets a finished job's thread.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
            && let Some(r) = self.running.take()
        {
            let _ = r.handle.join();
        }
    }

    /// Is a job still running? A job that was told to stop, or has printed
    /// its last line, is given [`STOP_WAIT`] to end (a search ends within
    /// milliseconds); one that takes longer counts as running, so that no
    /// command ever blocks the input loop on it.
    fn is_running(&mut self) -> bool {
        let ending = self
            .running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::Acquire) || r.stop.load(Ordering::Relaxed));
        if ending {
            self.join_within(STOP_WAIT);
        }
        self.running.is_some()
    }

    /// Joins the job if it ends within `wait`; otherwise keeps it to join later.
    fn join_within(&mut self, wait: Duration) {
        let Some(r) = self.running.take() else {
            return;
        };
        let deadline = Instant::now() + wait;
        while !r.handle.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        if r.handle.is_finished() {
            let _ = r.handle.join();
        } else {
            self.running = Some(r);
        }
    }

    /// Asks the running job to stop and waits briefly for its last line.
    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
            if let Some(p) = &r.ponder {
                p.stop();
            }
        }
        self.join_within(STOP_WAIT);
    }

    /// `ponderhit`: the pondering search goes on under its `go`'s limits,
    /// counted from now. Without one running, an error line.
    fn ponderhit(&mut self) {
        let hit = self
            .running
            .as_ref()
            .and_then(|r| r.ponder.as_ref())
            .is_some_and(|p| p.hit());
        if !hit {
            self.out
                .error("ponderhit: no 'go ponder' is running (it ended, or none was sent)");
        }
    }

    /// `ucinewgame` stops a running job first (UCI does not allow one then,
    /// but a GUI may send it anyway). Every job answers `stop` within
    /// milliseconds; should one ever not, waiting without bound would block
    /// the input loop behind it, so that case is an error instead.
    fn new_game(&mut self) {
        self.stop();
        if self.running.is_some() {
            return self.out.error(
                "ucinewgame: the last job is still ending (send it again after its last line)",
            );
        }
        self.game.new_game();
        self.record = Record::default();
    }

    /// Answers a GUI query (never touching the running job).
    fn query(&mut self, answer: fn(&Options, &Record) -> Result<String, String>) {
        match answer(&self.options, &self.record) {
            Ok(line) => self.out.line(&line),
            Err(e) => self.out.error(&e),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut next = self.options.clone();
        let changed = match next.set(name, value) {
            Ok(c) => c,
            Err(e) => return self.out.error(&e),
        };
        let touches_table = matches!(
            changed,
            Changed::Hash | Changed::ClearHash | Changed::Variant | Changed::GameRules
        );
        if touches_table && self.is_running() {
            return self.out.error(&format!(
                "setoption: cannot change '{name}' while searching (send stop first)"
            ));
        }
        let new_rules = changed == Changed::Variant
            || (changed == Changed::GameRules
                && next.variant == Variant::LinearProgression
                && next.lp != self.options.lp);
        if new_rules {
            self.record = Record::default();
        }
        match changed {
            Changed::Variant => self.game = super::game::new_game(next.variant, &next),
            Changed::GameRules => self.game.rules_changed(&next),
            Changed::Hash => self.game.set_hash(next.hash_mib),
            Changed::ClearHash => self.game.clear_hash(),
            Changed::DebugLogFile => {
                if let Err(e) = self.out.set_log_file(&next.debug_log_file) {
                    return self.out.error(&e);
                }
            }
            Changed::SearchSetting => {}
        }
        self.tell_thread_cap(next.threads);
        self.options = next;
    }

    /// Says once, when `Threads` is set above the hardware threads, how
    /// many the engine will run (see [`crate::search::usable_threads`]).
    fn tell_thread_cap(&self, threads: usize) {
        let usable = crate::search::usable_threads(threads);
        if threads != self.options.threads && usable < threads {
            self.out.line(&format!(
                "info string Threads {threads}: this machine has {usable} hardware threads; the engine runs {usable}"
            ));
        }
    }

    fn position(&mut self, start: &Start, moves: &[String]) {
        match self.game.set_position(start, moves) {
            Ok(()) => {
                self.record = Record {
                    start: start.clone(),
                    entries: moves.to_vec(),
                }
            }
            Err(e) => self.out.error(&e),
        }
    }

    fn context(&self) -> JobContext {
        JobContext {
            out: self.out.clone(),
            stop: Arc::new(AtomicBool::new(false)),
            done: Arc::new(AtomicBool::new(false)),
            threads: crate::search::usable_threads(self.options.threads),
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            style: self.options.style(),
            ponder: Arc::new(Ponder::default()),
            received: Instant::now(),
        }
    }

    fn go(&mut self, go: &Go) {
        if self.is_running() {
            return self
                .out
                .error("go: a search is already running (send stop first)");
        }
        if go.perft.is_none()
            && let Some(why) = self.game.game_over()
        {
            self.out.error(&format!("go: the game is over: {why}"));
            self.out.line("bestmove (none)");
            return;
        }
        let ctx = self.context();
        match self.game.go_job(go, ctx.clone()) {
            Ok(job) => {
                let ponder = go.ponder.then(|| Arc::clone(&ctx.ponder));
                self.spawn(job, ctx, go.infinite || go.ponder);
                if let Some(r) = &mut self.running {
                    r.ponder = ponder;
                }
            }
            Err(e) => self.out.error(&e),
        }
    }

    fn bench(&mut self, depth: Option<u32>) {
        if self.is_running() {
            return self
                .out
                .error("bench: a search is already running (send stop first)");
        }
        let ctx = self.context();
        let job = self.game.bench_job(depth, ctx.clone());
        self.spawn(job, ctx, false);
    }

    fn spawn(&mut self, job: Job, ctx: JobContext, infinite: bool) {
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20) // deep recursion over long turns
            .spawn(job);
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    stop: ctx.stop,
                    done: ctx.done,
                    handle,
                    infinite,
                    ponder: None,
                })
            }
            Err(e) => self
                .out
                .error(&format!("cannot start the search thread: {e}")),
        }
    }

    /// At the end of input: a job with limits may finish (so that
    /// `echo "go depth 6" | crescendo` prints its answer); `go infinite`
    /// and `go ponder` (no `ponderhit` can come now) are stopped.
    pub fn shutdown(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.infinite) {
            self.stop();
        }
        if let Some(r) = self.running.take() {
            // Waits for the job, unless the caller is gone meanwhile: then
            // no one reads the answer and the process leaves at once.
            while !r.handle.is_finished() {
                self.out.exit_if_caller_gone();
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = r.handle.join();
        }
    }
}
