// Crescendo's Puzzles tab: mate in this turn, served by the player's rating.
// The rating (Glicko-2: rating, deviation, volatility) lives in this browser
// (localStorage) and goes with each request; the server picks the puzzle
// (the lichess window), judges the turn by the rules core and applies the
// Glicko-2 update. The page applies no rule and no formula: the moves are
// played through the tab's engine like any other board (app.js).
'use strict';

const PUZZLE_STORE = 'crescendo.puzzles';
const RECENT_KEPT = 50;

// One JSON request to the server: its answer, or {error}.
async function puzzleRequest(name, body) {
  let r;
  try {
    r = await fetch(`/puzzles/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch (e) {
    return { error: `the server cannot be reached (${e.message})` };
  }
  const text = await r.text();
  try {
    const v = JSON.parse(text);
    return r.ok ? v : { error: v.error || text };
  } catch {
    return { error: text || `HTTP ${r.status}` };
  }
}

const VERDICTS = {
  solution: ['Solved: mate!', 'good'],
  'other-mate': ['Solved: another mate (not the stored solution, and accepted: a mate is a mate).', 'good'],
  wrong: ['Failed: the turn ended without mate. The solution is on the board.', 'bad'],
  'gave-up': ['Given up: the solution is on the board.', 'bad'],
};

class PuzzleSession extends Session {
  constructor(app) {
    super(app, 'puzzles');
    this.puzzle = null;
    this.outcome = null; // the server's answer once the turn is over
    this.pending = false;
    this.info = null;
    this.store = PuzzleSession.load();
    this.setupBox = el('div', { class: 'puzzle-setup' });
    this.ui.extra.before(this.setupBox);
  }

  static load() {
    let s = null;
    try { s = JSON.parse(localStorage.getItem(PUZZLE_STORE) || 'null'); } catch { s = null; }
    s = s && typeof s === 'object' ? s : {};
    const r = s.player;
    const ok = r && [r.rating, r.deviation, r.volatility].every((x) => typeof x === 'number' && Number.isFinite(x));
    return {
      player: ok ? r : null,
      rules: ['any', 'italian', 'scottish'].includes(s.rules) ? s.rules : 'any',
      theme: typeof s.theme === 'string' ? s.theme : '',
      recent: Array.isArray(s.recent) ? s.recent.filter((x) => typeof x === 'string').slice(-RECENT_KEPT) : [],
      solved: Number(s.solved) || 0,
      failed: Number(s.failed) || 0,
    };
  }

  save() {
    try { localStorage.setItem(PUZZLE_STORE, JSON.stringify(this.store)); } catch { /* private mode: the rating lasts the visit */ }
  }

  humanToMove() { return super.humanToMove() && !!this.puzzle && !this.outcome && !this.pending; }

  playerName(side) {
    if (!this.puzzle) return cap(side);
    return side === this.puzzle.side ? `${cap(side)} (you: mate in this turn)` : cap(side);
  }

  async activate() {
    if (!this.info) {
      const v = await puzzleRequest('info', {});
      if (v.error) { this.say(`Puzzles: ${v.error}`, 'bad'); return; }
      this.info = v;
      if (!this.store.player) { this.store.player = { ...v.new_player }; this.save(); }
      this.renderSetup();
    }
    return this.puzzle ? this.sync() : this.next();
  }

  async next() {
    const body = { player: this.store.player, rules: this.store.rules, theme: this.store.theme || null, recent: this.store.recent };
    const v = await puzzleRequest('next', body);
    if (v.error) { this.say(v.error, 'bad'); this.renderSetup(); return; }
    const p = v.puzzle;
    this.generation++;
    this.puzzle = p;
    this.outcome = null;
    this.game = { rules: p.rules, lp: { board: '8x8', equal: false, blockers: false }, fen: p.fen, moves: [] };
    this.humans = new Set([p.side]);
    this.view.flipped = p.side === 'black';
    this.store.recent = [...this.store.recent.filter((x) => x !== p.id), p.id].slice(-RECENT_KEPT);
    this.save();
    this.say('');
    delete this.ui.message.dataset.verdict;
    await this.sync();
  }

  // The turn is over when the side to move changed or the game ended.
  turnOver() {
    const s = this.state;
    return !!(s && this.puzzle && this.game.moves.length && (s.over || s.side !== this.puzzle.side));
  }

  afterSync() {
    if (this.puzzle && !this.outcome && !this.pending && this.turnOver()) this.submit(false);
    else this.renderExtra();
  }

  async submit(gaveUp) {
    if (!this.puzzle || this.outcome || this.pending) return;
    this.pending = true;
    this.renderControls();
    const gen = this.generation;
    const v = await puzzleRequest('attempt', { player: this.store.player, id: this.puzzle.id, moves: this.game.moves, gave_up: gaveUp });
    this.pending = false;
    if (gen !== this.generation) return;
    if (v.error) { this.say(v.error, 'bad'); this.render(); this.renderExtra(); return; }
    this.outcome = v;
    this.store.player = v.player;
    if (v.solved) this.store.solved++; else this.store.failed++;
    this.save();
    const [text, kind] = VERDICTS[v.verdict] || [v.verdict, ''];
    this.say(text, kind);
    this.ui.message.dataset.verdict = v.verdict;
    if (!v.solved) this.game.moves = [...v.solution_uci];
    await this.sync();
    this.renderSetup();
  }

  async undoMove() {
    if (this.outcome || this.pending) return;
    return super.undoMove();
  }

  resetRating() {
    if (!this.info) return;
    this.store.player = { ...this.info.new_player };
    this.store.solved = this.store.failed = 0;
    this.save();
    this.renderSetup();
  }

  renderControls() {
    const s = this.state;
    const done = !!this.outcome;
    this.ui.controls.replaceChildren(...[
      button('Undo move', () => this.undoMove(), { id: 'pz-undo', disabled: done || this.pending || !s || s.moves_made === 0 }),
      button('Give up: show the solution', () => this.submit(true), { id: 'pz-giveup', disabled: done || this.pending || !this.puzzle }),
      button('Next puzzle', () => this.next(), { id: 'pz-next', class: done ? 'btn primary' : 'btn', disabled: this.pending }),
      button('Flip', () => this.flip()),
      button('Analyse', () => this.app.analyse(this), { id: 'pz-analyse', disabled: !done, title: 'open this position in Analysis' }),
    ]);
  }

  renderSetup() {
    const info = this.info;
    if (!info) return;
    const r = this.store.player;
    const sel = (name, options, value, onchange) => el('select', { id: `pz-${name}`, name, onchange },
      options.map(([v, t]) => el('option', { value: v, selected: v === value }, t)));
    const change = this.outcome ? this.outcome.change : null;
    const rating = el('div', { id: 'pz-rating', 'data-rating': r.rating },
      'Your puzzle rating: ', el('b', {}, Math.round(r.rating)), ` ± ${Math.round(r.deviation)}`,
      change == null ? null : el('span', { id: 'pz-change', class: change >= 0 ? 'up' : 'down', 'data-change': change },
        ` (${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)})`));
    const c = info.counts;
    this.setupBox.replaceChildren(
      rating,
      el('div', { class: 'muted' }, `${this.store.solved} solved, ${this.store.failed} failed in this browser`),
      el('form', { class: 'setup', onsubmit: (e) => e.preventDefault() },
        el('label', { for: 'pz-rules' }, 'Rules'),
        sel('rules', [['any', `Italian and Scottish (${c.italian + c.scottish})`], ['italian', `Italian (${c.italian})`], ['scottish', `Scottish (${c.scottish})`]],
          this.store.rules, (e) => { this.store.rules = e.target.value; this.save(); }),
        el('label', { for: 'pz-theme' }, 'Theme'),
        sel('theme', [['', 'any'], ...info.themes.filter((t) => t.count).map((t) => [t.name, `${t.name} (${t.count})`])],
          this.store.theme, (e) => { this.store.theme = e.target.value; this.save(); }),
        el('div', { class: 'full row' }, el('span', { class: 'muted' }, 'applies from the next puzzle'),
          button('Reset rating', () => this.resetRating(), { id: 'pz-reset' }))),
    );
  }

  renderExtra() {
    const p = this.puzzle;
    if (!p) { this.ui.extra.replaceChildren(); return; }
    const moves = p.turn_length === 1 ? '1 move' : `${p.turn_length} moves`;
    const box = [
      el('div', { id: 'pz-info', 'data-id': p.id, 'data-rating': p.rating },
        el('b', {}, `${cap(p.side)} mates in this turn`), ` (${moves}, ${cap(p.rules)} rules)`),
      el('div', {}, `Puzzle rating ${Math.round(p.rating)} · themes: ${p.themes.length ? p.themes.join(', ') : 'none'}`),
    ];
    const o = this.outcome;
    if (o) {
      box.push(el('div', { id: 'pz-solution' }, 'Solution: ', el('b', {}, o.solution_san.join(' '))));
    } else {
      box.push(el('div', { class: 'muted' }, p.rules === 'scottish'
        ? 'Scottish rules: a check ends the turn, so only a mate may check.'
        : 'Italian rules: only the last move may give check.'));
    }
    this.ui.extra.replaceChildren(...box);
  }
}
