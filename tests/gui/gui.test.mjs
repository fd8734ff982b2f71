// Browser tests of `crescendo gui`: a real headless Chromium, driven through
// the DevTools protocol (playwright-core), clicks the page like a player and
// asserts on the DOM. Screenshots go to target/gui/.
//
//   node tests/gui/gui.test.mjs [--quick] [--bin PATH] [--chromium PATH]
//
// --quick runs the subset CI runs (two-player mate, Learn, a short Linear
// Progression game, a puzzle solved and one failed); without it every test runs.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const flag = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const quick = args.includes('--quick');
const bin = flag('--bin', join(root, 'target/release/crescendo'));
const chromiumPath = flag('--chromium', '/usr/bin/chromium');
const shots = join(root, 'target/gui');
mkdirSync(shots, { recursive: true });

function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(bin, ['gui', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+/.exec(out);
      if (m) ok({ child, url: m[0] });
    });
    child.on('exit', (code) => fail(new Error(`crescendo gui exited (${code}) before printing its URL`)));
  });
}

const view = (name) => `#views [data-view=${name}]`;

// The page's own session object, read only to pick a legal move to click
// (the page got it from the engine's `legal` reply).
async function sessionInfo(page, name) {
  return page.evaluate((n) => {
    const s = window.crescendo.tabs.find((t) => t.id === n).session;
    return { state: s.state, legal: s.legal, busy: s.busy, humans: [...s.humans] };
  }, name);
}

async function clickSquare(page, name, sq) {
  await page.click(`${view(name)} .sq[data-sq="${sq}"]`);
}

// Waits until the session is idle (no engine search, no request pending).
async function settle(page, name, timeout = 60000) {
  await page.waitForFunction((n) => {
    const s = window.crescendo.tabs.find((t) => t.id === n).session;
    return s.state && !s.busy && window.crescendo.engine.queue.length === 0;
  }, name, { timeout });
}

// Plays one legal move by clicks: from-square, to-square (and the
// promotion piece when asked); for Linear Progression the move's squares.
async function clickMove(page, name, pick = (legal) => legal[0], useDrag = false) {
  const { legal, state } = await sessionInfo(page, name);
  const mv = pick(legal, state);
  assert.ok(mv, 'a legal move to play');
  const before = state.turns.reduce((n, t) => n + t.moves.length, 0);
  if (mv.kind) {
    if (mv.kind === 'pass') await page.click(`${view(name)} #pass`);
    else {
      const squares = mv.kind === 'drop' ? [mv.to, mv.blocker_to] : [mv.from, mv.to, mv.blocker_to];
      for (const sq of squares.filter(Boolean)) await clickSquare(page, name, sq);
      if (mv.kind === 'slide' && !mv.blocker_to && (await page.$(`${view(name)} #no-blocker`))) await page.click(`${view(name)} #no-blocker`);
    }
  } else if (useDrag) {
    await page.dragAndDrop(`${view(name)} .sq[data-sq="${mv.from}"]`, `${view(name)} .sq[data-sq="${mv.to}"]`);
  } else {
    await clickSquare(page, name, mv.from);
    await clickSquare(page, name, mv.to);
    if (mv.promotion) await page.click(`#promo button[data-promo="${mv.promotion}"]`);
  }
  await page.waitForFunction(([n, b]) => {
    const s = window.crescendo.tabs.find((t) => t.id === n).session;
    return s.state && s.state.turns.reduce((k, t) => k + t.moves.length, 0) > b;
  }, [name, before], { timeout: 20000 });
  return mv;
}

async function newGame(page, setup) {
  await page.click('#tab-play');
  for (const [field, value] of Object.entries(setup)) {
    const sel = `form.setup [name=${field}]`;
    if (typeof value === 'boolean') await page.setChecked(sel, value);
    else if (await page.$eval(sel, (e) => e.tagName === 'SELECT')) await page.selectOption(sel, value);
    else await page.fill(sel, value);
  }
  await page.click('#new-game');
  await settle(page, 'play');
}

const tests = [];
const test = (name, fn, inQuick = false) => tests.push({ name, fn, inQuick });

test('two players reach a known mate (Italian rules)', async (page) => {
  await newGame(page, { rules: 'italian', opponent: 'human', clock: 'none' });
  const line = [['e2', 'e4'], ['e7', 'e5'], ['b8', 'c6'], ['d1', 'h5'], ['f1', 'c4'], ['h5', 'f7']];
  for (const [i, [a, b]] of line.entries()) {
    await clickSquare(page, 'play', a);
    if (i === 3) {
      // A picked piece shows its legal targets, from the engine's list.
      const targets = await page.$$eval(`${view('play')} .sq.target`, (e) => e.map((x) => x.dataset.sq));
      assert.ok(targets.includes('h5') && targets.includes('g4'), `queen targets ${targets}`);
      await page.screenshot({ path: join(shots, 'play-targets.png') });
    }
    await clickSquare(page, 'play', b);
    await settle(page, 'play');
  }
  const result = await page.textContent(`${view('play')} .result`);
  assert.match(result, /1-0 · White wins by checkmate/);
  const moves = await page.textContent(`${view('play')} [data-role=moves]`);
  assert.match(moves.replace(/\s+/g, ' '), /1\. e4 2\. e5 Nc6 3\. Qh5 Bc4 Qxf7#/);
  await page.screenshot({ path: join(shots, 'play-two-players-mate.png') });
}, true);

test('Learn: an early check is refused under the Italian rules, each task is checked', async (page) => {
  await page.click('#tab-learn');
  await settle(page, 'learn');
  await page.click('[data-lesson=last-check]');
  await settle(page, 'learn');
  await clickSquare(page, 'learn', 'a1');
  await clickSquare(page, 'learn', 'a8');
  await settle(page, 'learn');
  const msg = await page.textContent(`${view('learn')} [data-role=message]`);
  assert.match(msg, /a1a8: illegal move: it gives check with move 1 of 3 \(Italian rules/);
  await page.screenshot({ path: join(shots, 'learn-early-check-refused.png') });
  for (const [a, b] of [['e1', 'd2'], ['d2', 'e2'], ['a1', 'a8']]) { await clickSquare(page, 'learn', a); await clickSquare(page, 'learn', b); await settle(page, 'learn'); }
  assert.equal(await page.getAttribute(`${view('learn')} [data-role=message]`, 'data-done'), 'last-check');
  // The Italian mate, the Scottish check and the stalemate mid-turn, by clicks.
  const tasks = [['growing', [['e2', 'e4'], ['e7', 'e5'], ['d7', 'd6'], ['g1', 'f3'], ['f1', 'c4'], ['b1', 'c3']]],
    ['escape', [['e1', 'e2'], ['h1', 'h3'], ['h3', 'h4']]], ['italian-mate', [['a4', 'b5']]], ['scottish', [['a1', 'a8']]], ['stalemate', [['e7', 'f7']]],
    ['en-passant', [['e5', 'd6']]], ['quiet', [['a1', 'a2'], ['a2', 'a3'], ['a3', 'a4']]]];
  for (const [id, clicks] of tasks) {
    await page.click(`[data-lesson=${id}]`);
    await settle(page, 'learn');
    for (const [a, b] of clicks) { await clickSquare(page, 'learn', a); await clickSquare(page, 'learn', b); await settle(page, 'learn'); }
    assert.equal(await page.getAttribute(`${view('learn')} [data-role=message]`, 'data-done'), id, `task ${id}`);
  }
  await page.screenshot({ path: join(shots, 'learn.png') });
}, true);

test('a Linear Progression game on a 6x4 board, against the engine', async (page) => {
  await newGame(page, { rules: 'linear', opponent: 'engine', colour: 'white', clock: 'none', think: '300', lpboard: '6x4' });
  const cells = await page.$$eval(`${view('play')} .sq`, (e) => e.length);
  const removed = await page.$$eval(`${view('play')} .sq.removed`, (e) => e.map((x) => x.dataset.sq).sort());
  assert.equal(cells, 24);
  assert.deepEqual(removed, ['a1', 'a4', 'f1', 'f4']);
  for (let turn = 0; turn < 40; turn++) {
    await settle(page, 'play');
    const { state } = await sessionInfo(page, 'play');
    if (state.over) break;
    await clickMove(page, 'play', (legal) => legal[Math.floor(legal.length / 2)]);
    if (turn === 2) await page.screenshot({ path: join(shots, 'lp-6x4.png') });
  }
  await settle(page, 'play');
  const result = await page.textContent(`${view('play')} .result`);
  assert.match(result, /(1-0 · White wins|0-1 · Black wins|½–½ · draw): (board full|both passed) \(White \d+, Black \d+\)/);
  await page.screenshot({ path: join(shots, 'lp-6x4-result.png') });
}, true);

test('a game against Novice: whole turns by clicks and drags, a move taken back, a result', async (page) => {
  await newGame(page, { rules: 'italian', opponent: 'engine', level: 'Novice', colour: 'white', clock: 'none', think: '300' });
  assert.match(await page.textContent(`${view('play')} .bottom-player`), /You/);
  let tookBack = false;
  for (let turn = 0; turn < 30; turn++) {
    await settle(page, 'play');
    const { state } = await sessionInfo(page, 'play');
    if (state.over) break;
    assert.equal(state.side, 'white');
    if (turn === 1) {
      // The engine's last turn is marked, its moves numbered in order.
      assert.ok(await page.$(`${view('play')} .sq .badge.past`), 'the engine\'s turn is numbered');
      await page.screenshot({ path: join(shots, 'play-after-engine-turn.png') });
    }
    const shown = await page.getAttribute(`${view('play')} [data-turn]`, 'data-turn');
    assert.equal(Number(shown), state.turn_length);
    for (let k = 0; k < state.turn_length; k++) {
      const s = (await sessionInfo(page, 'play')).state;
      if (s.over || s.side !== 'white') break;
      // Prefer quiet moves so that the game lasts a few turns.
      await clickMove(page, 'play', (legal) => legal.find((m) => !/[x+#]/.test(m.san)) || legal[0], k % 2 === 1);
      await settle(page, 'play');
      if (!tookBack && turn >= 1 && k === 0) {
        const s2 = (await sessionInfo(page, 'play')).state;
        assert.equal(s2.moves_made, 1);
        assert.ok(await page.$(`${view('play')} .sq .badge:not(.past)`), 'the turn\'s move is marked');
        await page.screenshot({ path: join(shots, 'play-mid-turn.png') });
        await page.click(`${view('play')} #undo-move`);
        await settle(page, 'play');
        assert.equal((await sessionInfo(page, 'play')).state.moves_made, 0);
        assert.equal(await page.getAttribute(`${view('play')} [data-left]`, 'data-left'), String(s2.turn_length));
        tookBack = true;
        k = -1;
      }
    }
  }
  await settle(page, 'play');
  assert.ok(tookBack, 'a move was taken back');
  const result = await page.textContent(`${view('play')} .result`);
  assert.match(result, /(1-0|0-1|½–½) · /);
  await page.screenshot({ path: join(shots, 'play-vs-novice-result.png') });
  // Undo a whole turn against the engine: back to the start of our last turn.
  await page.click(`${view('play')} #undo-turn`);
  await settle(page, 'play');
  const { state } = await sessionInfo(page, 'play');
  assert.equal(state.side, 'white');
  assert.equal(state.moves_made, 0);
  assert.ok(!state.over);
});

test('a promotion asks for the piece; a bad start FEN is refused with the reason', async (page) => {
  await newGame(page, { rules: 'italian', opponent: 'human', clock: 'none', fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1' });
  await clickSquare(page, 'play', 'a7');
  await clickSquare(page, 'play', 'a8');
  await page.waitForSelector('#promo:not(.hidden) button[data-promo=n]');
  await page.screenshot({ path: join(shots, 'play-promotion.png') });
  await page.click('#promo button[data-promo=n]');
  await settle(page, 'play');
  assert.equal(await page.getAttribute(`${view('play')} .sq[data-sq=a8] img`, 'alt'), 'wN');
  await newGame(page, { fen: '8/8/8/8/8/8/8/8 w - - 0 1' });
  assert.match(await page.textContent(`${view('play')} [data-role=message]`), /Start FEN refused: position fen: /);
  await newGame(page, { fen: '' });
});

test('a whole game against each level', async (page) => {
  for (const level of ['Novice', 'Beginner', 'Casual', 'Intermediate', 'Club', 'Full']) {
    await newGame(page, { rules: 'italian', opponent: 'engine', level, colour: level === 'Casual' ? 'black' : 'white', clock: 'none', think: '300' });
    for (let k = 0; k < 200; k++) {
      await settle(page, 'play');
      const { state } = await sessionInfo(page, 'play');
      if (state.over) break;
      await clickMove(page, 'play', (legal) => legal.find((m) => !/[x+#]/.test(m.san)) || legal[0]);
    }
    await settle(page, 'play');
    assert.match(await page.textContent(`${view('play')} .result`), /(1-0|0-1|½–½) · /, level);
    console.log(`     ${level}: ${await page.textContent(`${view('play')} .result`)}, ${(await sessionInfo(page, 'play')).state.turns.length} turns`);
  }
  await page.screenshot({ path: join(shots, 'play-vs-full-result.png') });
});

test('Analysis: best turn and mate hint', async (page) => {
  await newGame(page, { rules: 'italian', opponent: 'human', clock: 'none' });
  for (const [a, b] of [['e2', 'e4'], ['f7', 'f6'], ['g7', 'g5']]) { await clickSquare(page, 'play', a); await clickSquare(page, 'play', b); await settle(page, 'play'); }
  await page.click(`${view('play')} #to-analysis`);
  await settle(page, 'analysis');
  await page.click(`${view('analysis')} #mate-hint`);
  await page.waitForSelector(`${view('analysis')} #mate-answer:has-text("A mate in this turn exists")`, { timeout: 30000 });
  await page.click(`${view('analysis')} #best-turn`);
  await page.waitForSelector(`${view("analysis")} #play-best`, { timeout: 30000 });
  assert.match(await page.textContent(`${view('analysis')} #best-line`), /Qh5#/);
  await page.screenshot({ path: join(shots, 'analysis.png') });
  await page.click(`${view('analysis')} #a-undo`);
  await page.click(`${view('analysis')} #a-undo`);
  await settle(page, 'analysis');
  await page.click(`${view('analysis')} #mate-hint`);
  await page.waitForSelector(`${view('analysis')} #mate-answer:has-text("Proved: no mate")`, { timeout: 30000 });
});

test('a game with a clock, and Linear Progression with blockers, on a phone-sized window', async (page) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await newGame(page, { rules: 'linear', opponent: 'human', clock: '3+2', lpboard: '8x8', lpblockers: true });
  assert.match(await page.textContent(`${view('play')} .bottom-player .clock`), /^[23]:\d\d$/);
  for (let i = 0; i < 4; i++) await clickMove(page, 'play', (legal) => legal.find((m) => m.blocker_to) || legal[0]);
  await settle(page, 'play');
  assert.equal(await page.$$eval(`${view('play')} .blocker`, (e) => e.length), 2);
  await page.screenshot({ path: join(shots, 'phone-lp-blockers.png'), fullPage: true });
  await newGame(page, { rules: 'scottish', opponent: 'engine', level: 'Full', colour: 'black', clock: '3+2' });
  await settle(page, 'play');
  assert.equal((await sessionInfo(page, 'play')).state.side, 'black');
  await page.screenshot({ path: join(shots, 'phone-play.png'), fullPage: true });
});

// ---- Puzzles
// The shipped records, read from the files the binary embeds, to know a
// served puzzle's solution (the page is not told it before the end).
const shipped = new Map();
for (const f of ['puzzles/italian.jsonl', 'puzzles/scottish.jsonl']) {
  for (const line of readFileSync(join(root, f), 'utf8').split('\n')) if (line.trim()) { const p = JSON.parse(line); shipped.set(p.id, p); }
}

// Waits until the Puzzles tab shows a puzzle and nothing is pending.
async function puzzleIdle(page) {
  await page.waitForFunction(() => {
    const s = window.crescendo.tabs.find((t) => t.id === 'puzzles').session;
    return s.puzzle && s.state && !s.busy && !s.pending && window.crescendo.engine.queue.length === 0;
  }, null, { timeout: 20000 });
}

async function servedPuzzle(page) {
  await puzzleIdle(page);
  const id = await page.getAttribute(`${view('puzzles')} #pz-info`, 'data-id');
  const p = shipped.get(id);
  assert.ok(p, `the served puzzle ${id} is a shipped one`);
  return p;
}

const puzzleMoves = (page) => page.evaluate(() => window.crescendo.tabs.find((t) => t.id === 'puzzles').session.game.moves.length);

async function playPuzzleMove(page, uci) {
  const before = await puzzleMoves(page);
  await clickSquare(page, 'puzzles', uci.slice(0, 2));
  await clickSquare(page, 'puzzles', uci.slice(2, 4));
  if (uci.length === 5) await page.click(`#promo button[data-promo="${uci[4]}"]`);
  await page.waitForFunction((b) => window.crescendo.tabs.find((t) => t.id === 'puzzles').session.game.moves.length !== b, before, { timeout: 20000 });
  await puzzleIdle(page);
}

const puzzleRating = async (page) => Number(await page.getAttribute(`${view('puzzles')} #pz-rating`, 'data-rating'));
const verdict = (page) => page.getAttribute(`${view('puzzles')} [data-role=message]`, 'data-verdict');

test('Puzzles: solved by its solution, the rating rises and stays in the browser', async (page) => {
  await page.click('#tab-puzzles');
  const p = await servedPuzzle(page);
  const before = await puzzleRating(page);
  assert.equal(before, 1500, 'a new player starts at 1500');
  assert.match(await page.textContent(`${view('puzzles')} [data-role=extra]`), new RegExp(`mates in this turn \\(${p.turn_length} moves?`));
  for (const mv of p.solution_uci) await playPuzzleMove(page, mv);
  assert.equal(await verdict(page), 'solution');
  const after = await puzzleRating(page);
  const change = Number(await page.getAttribute(`${view('puzzles')} #pz-change`, 'data-change'));
  assert.ok(after > before && change > 0 && Math.abs(after - before - change) < 0.01, `${before} -> ${after} (${change})`);
  assert.match(await page.textContent(`${view('puzzles')} .result`), /wins by (checkmate|Italian mate)/);
  await page.screenshot({ path: join(shots, 'puzzle-solved.png') });
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('crescendo.puzzles')));
  assert.equal(stored.player.rating, after);
  // A reload keeps the rating; the next puzzle is another one.
  await page.reload(); // back on the Puzzles tab (the page's address names it)
  const q = await servedPuzzle(page);
  assert.equal(await puzzleRating(page), after);
  assert.notEqual(q.id, p.id);
}, true);

test('Puzzles: a turn without mate fails and shows the solution; giving up fails', async (page) => {
  await page.click('#tab-puzzles');
  const p = await servedPuzzle(page);
  // Moves of no solution where the position has one, until the turn ends.
  const avoid = new Set(p.solution_uci);
  while (!(await verdict(page))) {
    const { legal } = await sessionInfo(page, 'puzzles');
    const mv = legal.find((m) => !avoid.has(m.uci)) || legal[0];
    await playPuzzleMove(page, mv.uci);
  }
  assert.equal(await verdict(page), 'wrong');
  const change = Number(await page.getAttribute(`${view('puzzles')} #pz-change`, 'data-change'));
  assert.ok(change < 0, `change ${change}`);
  assert.equal((await page.textContent(`${view('puzzles')} #pz-solution`)).replace(/^Solution: /, ''), p.solution_san.join(' '));
  // The board shows the solution played: the mate.
  assert.match(await page.textContent(`${view('puzzles')} .result`), /wins by (checkmate|Italian mate)/);
  await page.screenshot({ path: join(shots, 'puzzle-failed.png') });
  const low = await puzzleRating(page);
  await page.click(`${view('puzzles')} #pz-next`);
  await page.waitForFunction((id) => window.crescendo.tabs.find((t) => t.id === 'puzzles').session.puzzle.id !== id, p.id, { timeout: 20000 });
  const q = await servedPuzzle(page);
  assert.notEqual(q.id, p.id);
  assert.equal(await verdict(page), null);
  await page.click(`${view('puzzles')} #pz-giveup`);
  await page.waitForFunction(() => window.crescendo.tabs.find((t) => t.id === 'puzzles').session.outcome, null, { timeout: 20000 });
  await puzzleIdle(page);
  assert.equal(await verdict(page), 'gave-up');
  assert.ok(await puzzleRating(page) < low);
}, true);

async function main() {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const { child, url } = await startServer();
  let failed = 0;
  try {
    for (const t of tests.filter((x) => !quick || x.inQuick)) {
      // The test's own polling (waitForFunction) evaluates strings, which the
      // page's Content-Security-Policy forbids; the page itself needs no eval.
      const context = await browser.newContext({ viewport: { width: 1180, height: 820 }, bypassCSP: true });
      const page = await context.newPage();
      const external = [];
      page.on('request', (r) => { if (!r.url().startsWith(url.replace(/\/$/, ''))) external.push(r.url()); });
      page.on('pageerror', (e) => { console.error(`  page error: ${e.message}`); failed++; });
      const start = Date.now();
      try {
        await page.goto(url);
        await settle(page, 'play');
        await t.fn(page);
        assert.deepEqual(external, [], 'no request leaves the server');
        console.log(`ok   ${t.name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${t.name}\n  ${e.stack || e}`);
        await page.screenshot({ path: join(shots, 'failure.png') }).catch(() => {});
      }
      await context.close();
    }
  } finally {
    child.kill();
    await browser.close();
  }
  if (failed) { console.log(`${failed} failure(s)`); process.exit(1); }
  console.log(`all browser tests passed; screenshots in ${shots}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
