// Crescendo's web GUI. The page never applies the rules: every legal move,
// every position and every result comes from the engine (the `legal` and
// `state` queries of protocol.md), over this tab's WebSocket.
'use strict';

// ---------------------------------------------------------------- engine
// One engine process per tab. Requests are serialised: each sends its lines
// and collects every line up to the one that answers it (`until`).
class Engine {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.queue = [];
    this.chain = Promise.resolve();
    this.options = {};
    this.ready = new Promise((resolve) => { this.setReady = resolve; });
    this.connect();
  }

  connect() {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = async () => {
      this.onStatus('engine connected', false);
      await this.raw(['uci'], (l) => l === 'uciok');
      this.setReady();
    };
    ws.onmessage = (ev) => this.receive(String(ev.data));
    ws.onclose = () => {
      this.onStatus('engine disconnected: reload the page', true);
      for (const w of this.queue) w.resolve({ lines: w.lines, errors: ['engine disconnected'] });
      this.queue = [];
    };
  }

  receive(line) {
    const w = this.queue[0];
    if (!w) return;
    w.lines.push(line);
    if (w.onLine) w.onLine(line);
    if (w.until(line)) {
      this.queue.shift();
      const errors = w.lines.filter((l) => l.startsWith('info string error: ')).map((l) => l.slice(19));
      w.resolve({ lines: w.lines, errors, last: line });
    }
  }

  // Sends lines now and waits for the answer (callers go through `request`).
  raw(lines, until, onLine) {
    return new Promise((resolve) => {
      this.queue.push({ lines: [], until, onLine, resolve });
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(lines.join('\n'));
      else resolve({ lines: [], errors: ['engine not connected'] });
    });
  }

  // Queued request: the lines, then wait for the line `until` accepts.
  request(lines, until, onLine) {
    const run = () => this.ready.then(() => this.raw(lines, until, onLine));
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // `stop` bypasses the queue: it ends the search the queue waits on.
  stop() { if (this.ws.readyState === WebSocket.OPEN) this.ws.send('stop'); }

  // The setoption lines needed to reach `wanted` (only the changed ones).
  optionLines(wanted) {
    const out = [];
    for (const [name, value] of Object.entries(wanted)) {
      if (this.options[name] !== value) {
        out.push(`setoption name ${name} value ${value}`);
        this.options[name] = value;
      }
    }
    return out;
  }
}

const isJSON = (kw) => (l) => l.startsWith(kw + ' ');
const parseReply = (lines, kw) => {
  const line = lines.find((l) => l.startsWith(kw + ' '));
  return line ? JSON.parse(line.slice(kw.length + 1)) : null;
};

// ---------------------------------------------------------------- helpers
const $ = (sel, root = document) => root.querySelector(sel);
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  for (const k of kids.flat(3)) if (k != null) e.append(k.nodeType ? k : document.createTextNode(String(k)));
  return e;
}
const button = (text, onclick, extra = {}) => el('button', { class: 'btn', type: 'button', onclick, ...extra }, text);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const fileName = (i) => String.fromCharCode(97 + i);
const sqName = (f, r) => fileName(f) + (r + 1);
function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  if (ms < 10000) return `${m}:${String(s % 60).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}
const LEVELS = ['Novice', 'Beginner', 'Casual', 'Intermediate', 'Club', 'Full'];
const VARIANTS = { italian: 'progressive', scottish: 'progressive-scottish', linear: 'linear-progression' };
const LP_BOARDS = ['8x8', '6x6', '6x4', '10x10', '12x8', '8x8-corner-blocks', 'center-isle', '4/4/4/4'];
const CLOCKS = [['none', 'No clock'], ['3+2', '3 min + 2 s'], ['5+3', '5 min + 3 s'], ['10+5', '10 min + 5 s'], ['15+10', '15 min + 10 s'], ['custom', 'Custom…']];

// The score of an info line in words, from the side to move's view.
function scoreText(info, lp) {
  const m = / score (cp|mate) (-?\d+)/.exec(info);
  if (!m) return '';
  const n = Number(m[2]);
  if (m[1] === 'cp') {
    const v = (n / 100).toFixed(2);
    return (n > 0 ? '+' : '') + v + (lp ? ' squares' : '');
  }
  if (lp) return n > 0 ? `wins (in ${n} turns)` : `loses (in ${-n} turns)`;
  if (n === 1) return 'mate in this turn';
  return n > 0 ? `mate in ${n} turns` : `mated in ${-n === 1 ? 'the next turn' : -n + ' turns'}`;
}

// ---------------------------------------------------------------- board view
// Draws a W x H grid (chess or any Linear Progression shape) and reports
// clicks and drags as square names. It knows nothing of the rules.
class BoardView {
  constructor(root, onSquare) {
    this.root = root;
    this.onSquare = onSquare;
    this.flipped = false;
    this.cells = new Map();
    this.drag = null;
    root.addEventListener('pointerdown', (e) => this.down(e));
    window.addEventListener('pointermove', (e) => this.move(e));
    window.addEventListener('pointerup', (e) => this.up(e));
  }

  squareAt(x, y) {
    const t = document.elementFromPoint(x, y);
    const sq = t && t.closest && t.closest('.sq');
    return sq && this.root.contains(sq) ? sq.dataset.sq : null;
  }

  down(e) {
    const sq = this.squareAt(e.clientX, e.clientY);
    if (!sq) return;
    e.preventDefault();
    const img = this.cells.get(sq) && this.cells.get(sq).querySelector('img.piece, .token');
    this.drag = { from: sq, x: e.clientX, y: e.clientY, img, ghost: null };
    this.onSquare(sq, 'down');
  }

  move(e) {
    const d = this.drag;
    if (!d || !d.img) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 6) {
      d.ghost = d.img.cloneNode(true);
      d.ghost.classList.add('ghost');
      const r = d.img.getBoundingClientRect();
      d.ghost.style.width = r.width + 'px';
      d.ghost.style.height = r.height + 'px';
      document.body.append(d.ghost);
      this.root.classList.add('dragging');
      this.cells.get(d.from).classList.add('drag-from');
    }
    if (d.ghost) { d.ghost.style.left = e.clientX + 'px'; d.ghost.style.top = e.clientY + 'px'; }
  }

  up(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    if (d.ghost) {
      d.ghost.remove();
      this.root.classList.remove('dragging');
      const from = this.cells.get(d.from);
      if (from) from.classList.remove('drag-from');
      const to = this.squareAt(e.clientX, e.clientY);
      if (to && to !== d.from) this.onSquare(to, 'drop');
    } else {
      this.onSquare(d.from, 'up');
    }
  }

  // spec: {width, height, lp, cells: (name) => {piece, token, blocker, removed}, marks: Map name -> Set of classes, badges: Map}
  draw(spec) {
    const { width, height } = spec;
    this.root.className = 'board' + (spec.lp ? ' lp' : '');
    this.root.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
    this.root.replaceChildren();
    this.cells.clear();
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const f = this.flipped ? width - 1 - col : col;
        const r = this.flipped ? row : height - 1 - row;
        const name = sqName(f, r);
        const c = spec.cell(name, f, r);
        const cls = ['sq'];
        if (spec.lp) { if (c.removed) cls.push('removed'); else if ((f + r) % 2) cls.push('alt'); }
        else cls.push((f + r) % 2 ? 'light' : 'dark');
        const marks = spec.marks.get(name);
        if (marks) cls.push(...marks);
        if (c.piece || c.token) cls.push('occupied');
        const d = el('div', { class: cls.join(' '), 'data-sq': name });
        if (c.piece) d.append(el('img', { class: 'piece', src: `/pieces/${c.piece}.svg`, alt: c.piece, draggable: 'false' }));
        if (c.token) d.append(el('div', { class: 'token ' + c.token }));
        if (c.blocker) d.append(el('div', { class: 'blocker ' + c.blocker }, c.blocker === 'w' ? 'W' : 'B'));
        const badge = spec.badges.get(name);
        if (badge) d.append(el('span', { class: badge.cls }, badge.text));
        if (row === height - 1) d.append(el('span', { class: 'coord file' }, fileName(f)));
        if (col === 0) d.append(el('span', { class: 'coord rank' }, r + 1));
        this.root.append(d);
        this.cells.set(name, d);
      }
    }
  }
}

// ---------------------------------------------------------------- a session
// One board with its game: the start, the moves, and the engine's answers.
// Play, Analysis and Learn each drive one; they share the tab's engine.
class Session {
  constructor(app, name) {
    this.app = app;
    this.engine = app.engine;
    this.name = name;
    this.node = $('#t-session').content.firstElementChild.cloneNode(true);
    this.node.classList.add(name);
    this.node.dataset.view = name;
    this.ui = {};
    for (const e of this.node.querySelectorAll('[data-role]')) this.ui[e.dataset.role] = e;
    this.view = new BoardView(this.ui.board, (sq, how) => this.onSquare(sq, how));
    this.game = { rules: 'italian', lp: { board: '8x8', equal: false, blockers: false }, fen: null, moves: [] };
    this.humans = new Set(['white', 'black']);
    this.level = 'Full';
    this.state = null;
    this.legal = [];
    this.picked = [];
    this.busy = false;
    this.generation = 0;
  }

  get lp() { return this.game.rules === 'linear'; }

  engineOptions() {
    const o = { UCI_Variant: VARIANTS[this.game.rules], Level: this.level };
    if (this.lp) {
      o.LP_Board = this.game.lp.board;
      o.LP_EqualMoves = String(this.game.lp.equal);
      o.LP_Blockers = String(this.game.lp.blockers);
    }
    return o;
  }

  positionLine(moves = this.game.moves) {
    const start = this.game.fen ? `position fen ${this.game.fen}` : 'position startpos';
    return moves.length ? `${start} moves ${moves.join(' ')}` : start;
  }

  // Sends the position (with `extra` moves on top) and asks legal + state.
  async ask(moves = this.game.moves) {
    const lines = [...this.engine.optionLines(this.engineOptions()), this.positionLine(moves), 'legal', 'state'];
    const r = await this.engine.request(lines, isJSON('state'));
    return { errors: r.errors, legal: parseReply(r.lines, 'legal'), state: parseReply(r.lines, 'state') };
  }

  async sync() {
    const r = await this.ask();
    if (r.errors.length && r.state) this.say(r.errors[0], 'bad');
    if (r.state) { this.state = r.state; this.legal = r.legal ? r.legal.moves : []; }
    this.picked = [];
    this.render();
    this.afterSync();
  }

  afterSync() {}

  // Tries one more move; the engine accepts it or says why not.
  async attempt(move) {
    const moves = [...this.game.moves, move];
    const r = await this.ask(moves);
    this.picked = [];
    if (r.errors.length) {
      // The engine kept the last good position; show its reason.
      const reason = r.errors[0].replace(/^position: (entry \d+ '[^']*': )?/, '');
      this.say(`${move}: ${reason}`, 'bad');
      this.render();
      return false;
    }
    this.game.moves = moves;
    this.state = r.state;
    this.legal = r.legal ? r.legal.moves : [];
    this.say('');
    this.onMoved();
    this.render();
    this.afterSync();
    return true;
  }

  onMoved() {}

  say(text, kind = '') {
    this.ui.message.textContent = text;
    this.ui.message.className = 'message' + (kind ? ' ' + kind : '');
  }

  humanToMove() { return this.state && !this.state.over && this.humans.has(this.state.side) && !this.busy; }

  // The squares to click, in order, for a legal move.
  path(m) {
    if (!this.lp) return [m.from, m.to];
    if (m.kind === 'drop') return m.blocker_to ? [m.to, m.blocker_to] : [m.to];
    if (m.kind === 'slide') return m.blocker_to ? [m.from, m.to, m.blocker_to] : [m.from, m.to];
    return [];
  }

  candidates(picked = this.picked) {
    return this.legal.filter((m) => { const p = this.path(m); return picked.every((s, i) => p[i] === s); });
  }

  ownPieceOn(sq) {
    if (!this.state || this.lp) return false;
    const [f, r] = [sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1];
    const ch = this.state.board[7 - r][f];
    return ch !== '.' && (ch === ch.toUpperCase()) === (this.state.side === 'white');
  }

  onSquare(sq, how) {
    if (how !== 'up') $('#promo').classList.add('hidden');
    if (!this.humanToMove()) return;
    const same = this.picked.length === 1 && this.picked[0] === sq;
    if (how === 'up') { if (same && this.wasPicked) { this.picked = []; this.render(); } this.wasPicked = false; return; }
    if (how === 'down') this.wasPicked = same;
    if (same) return;
    const next = [...this.picked, sq];
    const cands = this.candidates(next);
    if (this.picked.length && cands.length) return this.advance(next, cands);
    // A fresh start: a first square (a piece, a token, a drop square).
    const fresh = this.candidates([sq]);
    if (fresh.length || this.ownPieceOn(sq)) {
      if (!this.lp || fresh.length) { this.picked = [sq]; return this.advance([sq], fresh, true); }
    }
    if (!this.lp && this.picked.length === 1) {
      // Not a legal target: let the engine say why (an early check, ...).
      return this.attempt(this.picked[0] + sq);
    }
    if (this.picked.length) { this.picked = []; this.render(); }
  }

  advance(picked, cands, first = false) {
    this.picked = picked;
    const exact = cands.filter((m) => this.path(m).length === picked.length);
    const longer = cands.filter((m) => this.path(m).length > picked.length);
    if (!first && exact.length === 1 && !longer.length) return this.attempt(this.text(exact[0]));
    if (!first && exact.length > 1 && !this.lp) return this.choosePromotion(exact);
    if (this.lp && cands.length === 1 && this.path(cands[0]).length === picked.length) return this.attempt(this.text(cands[0]));
    this.render();
  }

  text(m) { return this.lp ? m.move : m.uci; }

  choosePromotion(moves) {
    const box = $('#promo');
    moves = [...moves].sort((a, b) => 'qrbn'.indexOf(a.promotion) - 'qrbn'.indexOf(b.promotion));
    const colour = this.state.side === 'white' ? 'w' : 'b';
    box.replaceChildren(...moves.map((m) => el('button', {
      type: 'button', 'data-promo': m.promotion, title: m.san,
      onclick: () => { box.classList.add('hidden'); this.attempt(m.uci); },
    }, el('img', { src: `/pieces/${colour}${m.promotion.toUpperCase()}.svg`, alt: m.promotion }))));
    const cell = this.view.cells.get(moves[0].to).getBoundingClientRect();
    box.style.left = Math.max(4, Math.min(window.innerWidth - 250, cell.left - 90)) + 'px';
    box.style.top = Math.max(4, cell.top) + 'px';
    box.classList.remove('hidden');
  }

  // ---- drawing
  render() {
    const s = this.state;
    if (!s) return;
    const marks = new Map();
    const badges = new Map();
    const mark = (sq, c) => { if (!sq) return; if (!marks.has(sq)) marks.set(sq, []); marks.get(sq).push(c); };
    const squaresOf = (mv) => this.lp ? lpSquares(mv.uci) : [mv.uci.slice(0, 2), mv.uci.slice(2, 4)];
    // The last turn's moves, numbered in their order (a long turn of the
    // engine is easier to follow), then the moves of the turn being made.
    if (s.last_turn && !s.current_turn.length) {
      s.last_turn.moves.forEach((mv, i) => {
        const sq = squaresOf(mv);
        sq.forEach((q) => mark(q, 'last'));
        if (s.last_turn.moves.length > 1 && sq.length) badges.set(sq[sq.length - 1], { text: String(i + 1), cls: 'badge past' });
      });
    }
    s.current_turn.forEach((mv, i) => { const [a, b] = squaresOf(mv); mark(a, 'turnmove'); mark(b, 'turnmove'); badges.set(b, { text: String(i + 1), cls: 'badge' }); });
    for (const q of this.picked) mark(q, 'sel');
    if (this.picked.length) {
      const next = new Set(this.candidates().map((m) => this.path(m)[this.picked.length]).filter(Boolean));
      for (const q of next) mark(q, 'target');
    } else if (this.lp && this.humanToMove()) {
      // Drops have one click: show where they may go.
      if (s.lp.drop) for (const m of this.legal) mark(m.to, 'target');
    }
    if (!this.lp && s.in_check) {
      const k = s.side === 'white' ? 'K' : 'k';
      s.board.forEach((row, i) => [...row].forEach((ch, f) => { if (ch === k) mark(sqName(f, 7 - i), 'check'); }));
    }
    let spec;
    if (this.lp) {
      const w = s.lp.width, h = s.lp.height;
      spec = {
        width: w, height: h, lp: true, marks, badges,
        cell: (name, f, r) => {
          const ch = s.board[h - 1 - r][f];
          return {
            removed: ch === '#', token: ch === 'w' || ch === 'b' ? ch : null,
            blocker: s.lp.blocker_white === name ? 'w' : s.lp.blocker_black === name ? 'b' : null,
          };
        },
      };
    } else {
      spec = {
        width: 8, height: 8, lp: false, marks, badges,
        cell: (name, f, r) => {
          const ch = s.board[7 - r][f];
          if (ch === '.') return {};
          return { piece: (ch === ch.toUpperCase() ? 'w' : 'b') + ch.toUpperCase() };
        },
      };
    }
    this.view.draw(spec);
    this.renderTurn();
    this.renderMoves();
    this.renderPlayers();
    this.renderControls();
  }

  resultText() {
    const s = this.state;
    if (this.flag) return this.flag;
    if (!s.over) return '';
    const score = s.result === '1/2-1/2' ? '½–½' : s.result;
    if (this.lp) {
      const who = s.winner ? `${cap(s.winner)} wins` : 'draw';
      return `${score} · ${who}: ${s.status} (White ${s.lp.white}, Black ${s.lp.black})`;
    }
    const who = s.winner ? `${cap(s.winner)} wins by ${s.status}` : `draw: ${s.status}`;
    return `${score} · ${who}`;
  }

  renderTurn() {
    const s = this.state;
    const box = this.ui.turnbox;
    box.replaceChildren();
    const result = this.resultText();
    if (result) { box.append(el('div', { class: 'result', 'data-result': s.result || '' }, result)); return; }
    const who = cap(s.side);
    if (this.lp) {
      const kind = s.lp.drop ? ' (drop a token)' : s.lp.must_pass ? ' (no move: pass)' : s.lp.final_move ? ' (the extra last move)' : '';
      box.append(el('div', { class: 'big' }, `Turn ${s.turn}: ${who} to move${kind}`));
      box.append(el('div', {}, `White ${s.lp.white} · Black ${s.lp.black} · empty ${s.lp.empty}`));
      return;
    }
    box.append(el('div', { class: 'big', 'data-turn': s.turn_length }, `Turn ${s.turn_length}: ${who}, ${s.turn_length} move${s.turn_length > 1 ? 's' : ''}`));
    const pips = el('div', { class: 'pips' });
    for (let i = 0; i < s.turn_length && i < 40; i++) pips.append(el('span', { class: 'pip' + (i < s.moves_made ? ' done' : '') }));
    box.append(pips);
    const left = el('div', { 'data-left': s.moves_left }, `${s.moves_made} made, ${s.moves_left} left`);
    if (s.in_check) left.append(el('b', {}, ' · in check: the first move must escape'));
    else if (s.rules === 'italian' && s.turn_length > 1) left.append(el('span', { class: 'muted' }, s.check_allowed ? ' · this move may give check' : ' · check only on the last move'));
    else if (s.rules === 'scottish') left.append(el('span', {}, ' · a check ends the turn'));
    box.append(left);
  }

  renderMoves() {
    const s = this.state;
    const box = this.ui.moves;
    box.replaceChildren();
    if (!s.turns.length) { box.append(el('span', { class: 'n' }, 'No moves yet')); return; }
    s.turns.forEach((t, i) => {
      const current = i === s.turns.length - 1 && s.moves_made > 0;
      const num = this.lp ? (t.side === 'white' ? `${Math.floor(i / 2) + 1}.` : (i === 0 ? '1...' : '')) : `${t.number}${t.from_move ? '...' : '.'}`;
      const span = el('span', { class: `t ${t.side}${current ? ' current' : ''}` }, num ? [el('span', { class: 'n' }, num), ' '] : null,
        t.moves.map((m, k) => [k ? ' ' : null, el('span', { class: 'm' }, m.san)]));
      box.append(span, ' ');
    });
    box.scrollTop = box.scrollHeight;
  }

  playerName(side) { return cap(side); }
  clockText() { return ''; }

  renderPlayers() {
    const bottom = this.view.flipped ? 'black' : 'white';
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [cls, side] of [['.top-player', top], ['.bottom-player', bottom]]) {
      const p = $(cls, this.node);
      const dot = el('span', { class: 'side-dot', style: `background:${side === 'white' ? '#fbfaf6' : '#2a2a2e'}` });
      const name = $('.pname', p);
      name.replaceChildren(dot, this.playerName(side));
      if (this.state && !this.state.over && this.state.side === side && this.busy) name.classList.add('thinking');
      else name.classList.remove('thinking');
      const c = $('.clock', p);
      c.textContent = this.clockText(side);
      c.dataset.side = side;
    }
  }

  renderControls() {}

  flip() { this.view.flipped = !this.view.flipped; this.render(); }

  // Takes back one move of the turn being made (never past its start).
  async undoMove() {
    if (!this.state || this.state.moves_made === 0 || this.busy) return;
    this.game.moves.pop();
    await this.sync();
  }

  // The moves of the game's turns, to take back whole turns.
  turnSizes() { return this.state.turns.map((t) => t.moves.length); }

  activate() { return this.sync(); }
  deactivate() { this.generation++; }
}

// The squares an LP move touches (for marking the last turn).
function lpSquares(text) {
  if (text === '0000') return [];
  const main = text.split('+')[0];
  if (main.startsWith('@')) return [main.slice(1)];
  const m = /^([a-p]\d+)([a-p]\d+)$/.exec(main);
  return m ? [m[1], m[2]] : [];
}

// ---------------------------------------------------------------- Play
class PlaySession extends Session {
  constructor(app) {
    super(app, 'play');
    this.setup = { rules: 'italian', opponent: 'engine', level: 'Novice', colour: 'white', clock: 'none', customMin: 10, customInc: 5, think: 1000, lp: { board: '8x8', equal: false, blockers: false } };
    this.clock = null;
    this.flag = '';
    setInterval(() => this.tick(), 200);
    this.buildSetup();
  }

  buildSetup() {
    const f = el('form', { class: 'setup', onsubmit: (e) => { e.preventDefault(); this.newGame(); } });
    const sel = (name, options, value) => el('select', { name, id: `play-${name}` },
      options.map(([v, t]) => el('option', { value: v, selected: v === value }, t)));
    f.append(
      el('label', { for: 'play-rules' }, 'Game'), sel('rules', [['italian', 'Progressive chess, Italian rules'], ['scottish', 'Progressive chess, Scottish rules'], ['linear', 'Linear Progression']], this.setup.rules),
      el('label', { for: 'play-opponent' }, 'Opponent'), sel('opponent', [['engine', 'Crescendo engine'], ['human', 'Two players, this device']], this.setup.opponent),
      el('label', { for: 'play-level', class: 'eng' }, 'Level'), sel('level', LEVELS.map((l) => [l, l]), this.setup.level),
      el('label', { for: 'play-colour', class: 'eng' }, 'You play'), sel('colour', [['white', 'White'], ['black', 'Black'], ['random', 'Random']], this.setup.colour),
      el('label', { for: 'play-clock' }, 'Clock'), sel('clock', CLOCKS, this.setup.clock),
      el('label', { class: 'custom' }, 'Custom'), el('div', { class: 'row custom' },
        el('input', { type: 'number', name: 'customMin', min: 1, max: 180, value: this.setup.customMin, style: 'width:70px', 'aria-label': 'minutes' }), 'min +',
        el('input', { type: 'number', name: 'customInc', min: 0, max: 60, value: this.setup.customInc, style: 'width:60px', 'aria-label': 'increment' }), 's'),
      el('label', { for: 'play-think', class: 'think' }, 'Engine time'), sel('think', [['300', '0.3 s a turn'], ['1000', '1 s a turn'], ['3000', '3 s a turn'], ['10000', '10 s a turn']], String(this.setup.think)),
      el('label', { for: 'play-fen', class: 'chesso' }, 'Start FEN'), el('input', { type: 'text', name: 'fen', id: 'play-fen', class: 'chesso', placeholder: 'empty: the start position', value: '' }),
      el('label', { for: 'play-lpboard', class: 'lpo' }, 'Board'), el('div', { class: 'row lpo' },
        el('select', { name: 'lpboard', id: 'play-lpboard' }, LP_BOARDS.map((b) => el('option', { value: b, selected: b === this.setup.lp.board }, b)), el('option', { value: 'custom' }, 'Custom…')),
        el('input', { type: 'text', name: 'lpcustom', placeholder: 'e.g. 7x5 or #4#/6/6/#4#', style: 'width:150px', class: 'lpcustom' })),
      el('label', { class: 'lpo' }, 'Options'), el('div', { class: 'row lpo' },
        el('label', {}, el('input', { type: 'checkbox', name: 'lpequal' }), ' equal moves'),
        el('label', {}, el('input', { type: 'checkbox', name: 'lpblockers' }), ' blockers')),
      el('div', { class: 'full row' }, el('button', { class: 'btn primary', type: 'submit', id: 'new-game' }, 'New game')),
    );
    const update = () => {
      const d = Object.fromEntries(new FormData(f));
      const eng = d.opponent === 'engine';
      for (const e of f.querySelectorAll('.eng')) e.classList.toggle('hidden', !eng);
      f.elements.colour.classList.toggle('hidden', !eng);
      const lvl = eng && d.rules !== 'linear';
      f.elements.level.classList.toggle('hidden', !lvl);
      f.querySelector('label[for=play-level]').classList.toggle('hidden', !lvl);
      for (const e of f.querySelectorAll('.custom')) e.classList.toggle('hidden', d.clock !== 'custom');
      for (const e of f.querySelectorAll('.think')) e.classList.toggle('hidden', !eng || d.clock !== 'none');
      f.elements.think.classList.toggle('hidden', !eng || d.clock !== 'none');
      for (const e of f.querySelectorAll('.lpo')) e.classList.toggle('hidden', d.rules !== 'linear');
      for (const e of f.querySelectorAll('.chesso')) e.classList.toggle('hidden', d.rules === 'linear');
      f.elements.lpcustom.classList.toggle('hidden', d.lpboard !== 'custom');
    };
    f.addEventListener('change', update);
    update();
    this.form = f;
    this.ui.extra.append(f);
  }

  readSetup() {
    const d = Object.fromEntries(new FormData(this.form));
    const lpBoard = d.lpboard === 'custom' ? (d.lpcustom || '8x8').trim() : d.lpboard;
    this.setup = {
      rules: d.rules, opponent: d.opponent, level: d.level, colour: d.colour, clock: d.clock,
      customMin: Number(d.customMin) || 10, customInc: Number(d.customInc) || 0, think: Number(d.think) || 1000,
      lp: { board: lpBoard, equal: !!d.lpequal, blockers: !!d.lpblockers },
      fen: d.rules === 'linear' ? '' : (d.fen || '').trim().replace(/\s+/g, ' '),
    };
  }

  async newGame() {
    this.readSetup();
    const st = this.setup;
    this.generation++;
    if (this.busy) this.engine.stop();
    this.game = { rules: st.rules, lp: { ...st.lp }, fen: st.fen || null, moves: [] };
    const colour = st.colour === 'random' ? (Math.random() < 0.5 ? 'white' : 'black') : st.colour;
    this.humans = st.opponent === 'engine' ? new Set([colour]) : new Set(['white', 'black']);
    this.engineSide = st.opponent === 'engine' ? (colour === 'white' ? 'black' : 'white') : null;
    this.level = st.opponent === 'engine' ? st.level : 'Full';
    this.view.flipped = st.opponent === 'engine' && colour === 'black';
    this.flag = '';
    this.clock = null;
    const tc = st.clock === 'custom' ? `${st.customMin}+${st.customInc}` : st.clock;
    if (tc !== 'none') {
      const [m, i] = tc.split('+').map(Number);
      this.clock = { white: m * 60000, black: m * 60000, inc: i * 1000, side: null, since: 0 };
    }
    // A new board: check the LP board description with the engine first.
    await this.engine.request(['ucinewgame', ...this.engine.optionLines(this.engineOptions()), 'isready'], (l) => l === 'readyok')
      .then((r) => { if (r.errors.length) this.say(r.errors[0], 'bad'); else this.say(''); });
    if (this.lp) {
      const st2 = await this.ask([]);
      if (st2.state && st2.state.lp.board !== this.game.lp.board) this.game.lp.board = this.engine.options.LP_Board = st2.state.lp.board;
    }
    if (this.game.fen) {
      const probe = await this.ask([]);
      if (probe.errors.length) {
        this.game.fen = null;
        this.busy = false;
        await this.sync();
        this.say(`Start FEN refused: ${probe.errors[0]}`, 'bad');
        return;
      }
    }
    this.busy = false;
    await this.sync();
  }

  playerName(side) {
    if (!this.engineSide) return cap(side);
    // Linear Progression is always played at full strength (protocol.md).
    if (side !== this.engineSide) return 'You';
    return this.lp ? 'Crescendo' : `Crescendo (${this.level})`;
  }

  clockText(side) { return this.clock ? fmtClock(this.clock[side]) : ''; }

  tick() {
    const c = this.clock;
    if (!c || !c.side || !this.state || this.state.over || this.flag) return;
    const now = performance.now();
    c[c.side] -= now - c.since;
    c.since = now;
    if (c[c.side] <= 0) {
      c[c.side] = 0;
      const winner = c.side === 'white' ? 'Black' : 'White';
      this.flag = `${winner === 'White' ? '1-0' : '0-1'} · ${winner} wins on time`;
      if (this.busy) { this.generation++; this.engine.stop(); this.busy = false; }
      this.render();
      return;
    }
    for (const e of this.node.querySelectorAll('.clock')) {
      const side = e.dataset.side;
      if (!side) continue;
      e.textContent = fmtClock(c[side]);
      e.classList.toggle('running', side === c.side);
      e.classList.toggle('low', c[side] < 10000);
    }
  }

  // The clock follows the engine's side to move: a finished turn adds the
  // increment to the side that made it.
  runClock() {
    const c = this.clock;
    if (!c || !this.state) return;
    const now = performance.now();
    if (c.side && c.side !== this.state.side) {
      c[c.side] -= now - c.since;
      c[c.side] += c.inc;
    }
    c.side = this.state.over ? null : this.state.side;
    c.since = now;
  }

  afterSync() {
    this.runClock();
    if (this.state && !this.state.over && !this.flag && this.state.side === this.engineSide && !this.busy) this.think();
  }

  async think() {
    const gen = this.generation;
    this.busy = true;
    this.renderPlayers();
    this.renderControls();
    let go = `go movetime ${this.setup.think}`;
    if (this.clock) {
      const c = this.clock;
      go = `go wtime ${Math.round(c.white)} btime ${Math.round(c.black)} winc ${c.inc} binc ${c.inc}`;
    }
    const r = await this.engine.request([...this.engine.optionLines(this.engineOptions()), this.positionLine(), go], (l) => l.startsWith('bestmove'));
    if (gen !== this.generation) return;
    this.busy = false;
    const best = (r.last || '').split(' ')[1];
    if (!best || best === '(none)') { this.say(r.errors[0] || 'the engine has no move', 'bad'); this.render(); return; }
    this.game.moves.push(...best.split(','));
    await this.sync();
  }

  // Back to the start of your previous turn (against the engine).
  async undoTurn() {
    if (!this.engineSide || !this.state) return;
    this.generation++;
    if (this.busy) { this.engine.stop(); this.busy = false; }
    const turns = this.state.turns;
    let moves = this.game.moves.length;
    for (let i = turns.length - 1; i >= 0; i--) {
      const t = turns[i];
      moves -= t.moves.length;
      const complete = !(i === turns.length - 1 && this.state.moves_made > 0);
      if (this.humans.has(t.side) && complete) break;
      if (i === 0) moves = 0;
    }
    this.game.moves = this.game.moves.slice(0, Math.max(0, moves));
    this.flag = '';
    await this.sync();
  }

  downloadPgn() {
    if (!this.state) return;
    let pgn = this.state.pgn
      .replace('[Event "?"]', '[Event "Crescendo GUI game"]')
      .replace('[Date "?"]', `[Date "${new Date().toISOString().slice(0, 10).replace(/-/g, '.')}"]`)
      .replace('[White "?"]', `[White "${this.playerName('white')}"]`)
      .replace('[Black "?"]', `[Black "${this.playerName('black')}"]`);
    const a = el('a', { href: URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' })), download: 'crescendo-game.pgn' });
    document.body.append(a);
    a.click();
    a.remove();
  }

  renderControls() {
    const s = this.state;
    const box = this.ui.controls;
    box.replaceChildren(...[
      button('Undo move', () => this.undoMove(), { id: 'undo-move', disabled: !s || s.moves_made === 0 || this.busy || !!this.flag, title: 'take back a move of this turn' }),
      this.engineSide ? button('Undo turn', () => this.undoTurn(), { id: 'undo-turn', disabled: !s || !s.turns.length }) : null,
      this.lp && s && s.lp.must_pass && this.humanToMove() ? button('Pass', () => this.attempt('0000'), { id: 'pass', class: 'btn primary' }) : null,
      this.lp && this.lpSkipBlocker() ? button('No blocker move', () => this.attempt(this.lpSkipBlocker().move), { id: 'no-blocker' }) : null,
      button('Flip', () => this.flip(), { id: 'flip' }),
      button('PGN', () => this.downloadPgn(), { id: 'pgn', title: 'download the game' }),
      button('Analyse', () => this.app.analyse(this), { id: 'to-analysis', title: 'open this position in Analysis' }),
    ].filter(Boolean));
  }

  // With blockers, a token move may end without a blocker move.
  lpSkipBlocker() {
    if (this.picked.length !== 2) return null;
    return this.candidates().find((m) => !m.blocker_to && this.path(m).length === 2) || null;
  }

  activate() { return this.state ? this.sync() : this.newGame(); }
}

// ---------------------------------------------------------------- Analysis
class AnalysisSession extends Session {
  constructor(app) {
    super(app, 'analysis');
    this.best = null;
    this.node.classList.add('analysis');
  }

  load(from) {
    this.game = JSON.parse(JSON.stringify(from.game));
    this.view.flipped = from.view.flipped;
    this.best = null;
    this.mate = '';
  }

  onMoved() { this.best = null; this.mate = ''; }
  afterSync() { this.renderExtra(); }

  async bestTurn(ms) {
    if (this.busy || !this.state || this.state.over) return;
    this.busy = true; this.best = { text: 'thinking…' }; this.renderExtra();
    let info = '';
    const r = await this.engine.request([...this.engine.optionLines(this.engineOptions()), this.positionLine(), `go movetime ${ms}`],
      (l) => l.startsWith('bestmove'), (l) => { if (l.startsWith('info depth')) { info = l; this.best = { text: 'thinking… ' + scoreText(l, this.lp) }; this.renderExtra(); } });
    const token = (r.last || '').split(' ')[1];
    this.busy = false;
    if (!token || token === '(none)') { this.best = { text: r.errors[0] || 'no move' }; this.renderExtra(); return; }
    const moves = token.split(',');
    // The engine names the moves: play them on a copy and read the SAN back.
    const q = await this.ask([...this.game.moves, ...moves]);
    const turn = q.state && (q.state.current_turn.length ? q.state.current_turn : (q.state.last_turn ? q.state.last_turn.moves : []));
    const sans = turn ? turn.slice(-moves.length).map((m) => m.san) : moves;
    await this.ask();
    const depth = (/ depth (\d+)/.exec(info) || [])[1];
    this.best = { moves, text: `${sans.join(' ')}`, score: scoreText(info, this.lp), depth };
    this.renderExtra();
  }

  async mateHint() {
    if (this.busy || !this.state || this.state.over || this.lp) return;
    this.busy = true; this.mate = 'looking for a mate in this turn…'; this.renderExtra();
    const r = await this.engine.request([...this.engine.optionLines(this.engineOptions()), this.positionLine(), 'go mate'], (l) => l.startsWith('bestmove'));
    this.busy = false;
    const all = r.lines.join('\n');
    if (/score mate 1/.test(all)) this.mate = 'A mate in this turn exists.';
    else if (/no mate in this turn \(proved\)/.test(all)) this.mate = 'Proved: no mate in this turn.';
    else this.mate = 'Unknown: the search limit was reached first.';
    this.mateLine = (r.last || '').split(' ')[1];
    this.renderExtra();
  }

  async playBest() {
    if (!this.best || !this.best.moves) return;
    this.game.moves.push(...this.best.moves);
    this.best = null; this.mate = '';
    await this.sync();
  }

  renderControls() {
    const s = this.state;
    this.ui.controls.replaceChildren(...[
      button('Best turn', () => this.bestTurn(2000), { id: 'best-turn', class: 'btn primary', disabled: this.busy || !s || s.over }),
      button('Mate hint', () => this.mateHint(), { id: 'mate-hint', disabled: this.busy || !s || s.over || this.lp, title: 'is there a mate in this turn?' }),
      button('Undo move', () => this.undoMove(), { id: 'a-undo', disabled: !s || !this.game.moves.length || this.busy }),
      button('Back to Play position', () => { this.load(this.app.play); this.sync(); }, { id: 'a-reload' }),
      button('Flip', () => this.flip()),
    ].filter(Boolean));
  }

  // Undo here goes back one move at any point: analysis explores freely.
  async undoMove() {
    if (!this.game.moves.length || this.busy) return;
    this.game.moves.pop();
    this.best = null; this.mate = '';
    await this.sync();
  }

  renderExtra() {
    const box = this.ui.extra;
    box.replaceChildren(el('div', {}, el('b', {}, 'Analysis'), ' — both sides move here; the engine judges the position on the board.'));
    if (this.best) {
      const line = el('div', { class: 'line', id: 'best-line' }, 'Best turn: ', el('b', {}, this.best.text));
      if (this.best.score) line.append(` · ${this.best.score}`, this.best.depth ? ` · depth ${this.best.depth}` : '');
      box.append(line);
      if (this.best.moves) box.append(button('Play it', () => this.playBest(), { id: 'play-best' }));
    }
    if (this.mate) {
      const m = el('div', { class: 'line', id: 'mate-answer' }, this.mate);
      box.append(m);
      if (this.mateLine && this.mateLine !== '(none)' && /exists/.test(this.mate)) {
        box.append(button('Show the mate', (e) => { e.target.replaceWith(el('div', { class: 'line' }, this.mateLine.split(',').join(' '))); }));
      }
    }
  }

  activate() { if (!this.state) this.load(this.app.play); return this.sync(); }
}

// ---------------------------------------------------------------- Learn
// One task per rule; the engine's state says whether the task is done.
const LESSONS = [
  {
    id: 'growing', title: 'Growing turns', rules: 'italian', fen: null,
    text: 'White makes <b>1</b> move, Black <b>2</b>, White <b>3</b>, and so on: every turn is one move longer. Play the first three turns, for both sides.',
    done: (s) => s.turn_length >= 4 && s.moves_made === 0,
  },
  {
    id: 'last-check', title: 'Check only on the last move', rules: 'italian', fen: '4k3/8/8/8/8/8/8/R3K3 w - - 0 3',
    text: 'Italian rules: a move may give check <b>only as the last move</b> of a turn. Try Ra8+ at once: the engine refuses it. Then give check with your third move.',
    done: (s) => s.side === 'black' && s.last_turn && s.last_turn.side === 'white' && /[+#]$/.test(s.last_turn.moves[s.last_turn.moves.length - 1].san),
  },
  {
    id: 'escape', title: 'Escape check with the first move', rules: 'italian', fen: '4k3/8/8/8/8/8/8/r3K2R w - - 0 3',
    text: 'White is in check at the start of the turn: the <b>first move</b> must end the check. Escape, then finish your three moves.',
    done: (s) => s.side === 'black' && !s.over,
  },
  {
    id: 'italian-mate', title: 'The Italian mate', rules: 'italian', fen: '3r4/8/8/3k1N2/Q7/8/8/3K4 w - - 0 1',
    text: 'A player in check whose every escape would give check too early is mated: the <b>Italian mate</b>. Black\'s king shields the d-file; check it with the queen so that each way out uncovers the rook on your king.',
    done: (s) => s.status === 'Italian mate',
  },
  {
    id: 'stalemate', title: 'Stalemate in the middle of a turn', rules: 'italian', fen: '7k/4K3/p5P1/8/P7/8/8/8 w - - 0 1',
    text: 'A player who cannot make <b>every</b> move of the turn is stalemated, even if a first move exists. Black must make 2 moves: leave Black\'s king no square, so that after ...a5 nothing is left.',
    done: (s) => s.status === 'stalemate',
  },
  {
    id: 'en-passant', title: 'En passant only on the first move', rules: 'italian', fen: '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 3',
    text: 'Black has just played d7–d5. White may take it en passant, but <b>only with the first move</b> of the turn. Take it: exd6.',
    done: (s) => s.turns.some((t) => t.side === 'white' && t.moves.length && t.moves[0].uci === 'e5d6'),
  },
  {
    id: 'quiet', title: 'Ten quiet turns', rules: 'italian', fen: '4k3/8/8/8/8/8/8/R3K3 w - - 9 3',
    text: 'Ten turns in a row without a capture or a pawn move draw the game, unless the player to move can mate in that turn. Nine have passed: make the tenth quiet turn: no capture and no pawn move.',
    done: (s) => s.status === 'ten quiet turns',
  },
  {
    id: 'scottish', title: 'The Scottish check', rules: 'scottish', fen: '4k3/8/8/8/8/8/8/R3K3 w - - 0 3',
    text: 'Under the Scottish rules a check <b>ends the turn at once</b>, whatever moves are left. Give check with your first move and watch the turn pass to Black.',
    done: (s) => s.side === 'black' && s.last_turn && s.last_turn.side === 'white' && s.last_turn.moves.length < 3,
  },
];

class LearnSession extends Session {
  constructor(app) {
    super(app, 'learn');
    this.index = 0;
    this.solved = new Set();
  }

  start(i) {
    this.index = i;
    const l = LESSONS[i];
    this.game = { rules: l.rules, lp: { board: '8x8', equal: false, blockers: false }, fen: l.fen, moves: [] };
    this.say('');
    return this.sync();
  }

  afterSync() {
    const l = LESSONS[this.index];
    if (this.state && l.done(this.state)) {
      this.solved.add(l.id);
      this.say(`Well done: ${l.title.toLowerCase()} — task complete.`, 'good');
      this.ui.message.dataset.done = l.id;
    }
    this.renderExtra();
  }

  async undoMove() {
    if (!this.game.moves.length) return;
    this.game.moves.pop();
    this.say('');
    await this.sync();
  }

  renderControls() {
    this.ui.controls.replaceChildren(...[
      button('Undo move', () => this.undoMove(), { id: 'l-undo', disabled: !this.game.moves.length }),
      button('Restart task', () => this.start(this.index), { id: 'l-restart' }),
      button('Next task', () => this.start((this.index + 1) % LESSONS.length), { id: 'l-next', class: 'btn primary' }),
      button('Flip', () => this.flip()),
    ].filter(Boolean));
  }

  renderExtra() {
    const l = LESSONS[this.index];
    const list = el('div', { class: 'lessons' }, LESSONS.map((x, i) => button(`${i + 1}. ${x.title}`, () => this.start(i),
      { class: `btn${this.solved.has(x.id) ? ' done' : ''}${i === this.index ? ' active' : ''}`, 'data-lesson': x.id })));
    const text = el('div', { class: 'lesson-text', id: 'lesson-text' });
    text.innerHTML = `<b>${l.title}.</b> ${l.text}`; // fixed text of this file, not user input
    this.ui.extra.replaceChildren(text, list);
  }

  activate() { return this.state ? this.sync() : this.start(0); }
}

// ---------------------------------------------------------------- the app
// Tabs are entries of `tabs`: a name and a session; adding one (Puzzles)
// is one more entry.
class App {
  constructor() {
    this.engine = new Engine((text, bad) => { const c = $('#conn'); c.textContent = text; c.classList.toggle('bad', bad); });
    this.play = new PlaySession(this);
    this.tabs = [
      { id: 'play', title: 'Play', session: this.play },
      { id: 'analysis', title: 'Analysis', session: new AnalysisSession(this) },
      { id: 'learn', title: 'Learn', session: new LearnSession(this) },
      { id: 'puzzles', title: 'Puzzles', session: new PuzzleSession(this) },
    ];
    const nav = $('#tabs');
    for (const t of this.tabs) {
      $('#views').append(t.session.node);
      nav.append(el('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, onclick: () => this.show(t.id) }, t.title));
    }
    this.show(location.hash.slice(1) || 'play');
  }

  async show(id) {
    const tab = this.tabs.find((t) => t.id === id) || this.tabs[0];
    if (this.current && this.current !== tab) {
      this.current.session.deactivate();
      if (this.current.session.busy) { this.engine.stop(); this.current.session.busy = false; }
    }
    this.current = tab;
    for (const t of this.tabs) {
      t.session.node.classList.toggle('hidden', t !== tab);
      $(`#tab-${t.id}`).setAttribute('aria-selected', String(t === tab));
    }
    history.replaceState(null, '', '#' + tab.id);
    await tab.session.activate();
  }

  analyse(from) {
    const a = this.tabs.find((t) => t.id === 'analysis').session;
    a.load(from);
    a.state = null;
    this.show('analysis');
  }
}

// After every script of the page (puzzles.js adds its tab's class).
window.addEventListener('DOMContentLoaded', () => { window.crescendo = new App(); });
