// solvo's page: the board, live move values with their lines, play, the game's moves
// and evaluation graph, game analysis, paste/export/set-up, links to a game or position
// (?game=f5d6c3&ply=2, ?board=...&size=6), and the WTHOR browser. The server is the
// rules' authority: every position, legal move, value and line comes from the JSON API.
'use strict';

const $ = (id) => document.getElementById(id);

const S = {
  size: 8, variant: 'normal', start: null, // start board string (null: standard start)
  plies: [], game: null, cursor: 0,
  names: {}, // players, place and date of the game (a WTHOR game's), kept for the GGF export
  analysis: null, analysisFor: null, controller: null,
  evals: {}, // position index -> black's value (from analyses and reviews)
  review: null, reviewController: null,
  setup: null, // cells string while setting up
  busy: 0, engineThinking: false,
  info: null,
  hover: null, // the valued square under the pointer (its line is shown)
};

// ---------- errors and progress ----------
function showError(msg) {
  $('error-text').textContent = msg;
  $('error').hidden = false;
}
function clearError() { $('error').hidden = true; }
function setStatus(text, working) {
  $('status-text').textContent = text;
  $('spinner').hidden = !working;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  };
  let res;
  try { res = await fetch(path, opts); } catch (e) { throw new Error('the server cannot be reached: ' + e.message); }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new Error((data && data.error) || ('HTTP ' + res.status));
  return data;
}

// Reads a server-sent-events response, calling onEvent(name, data) per event.
async function readEvents(res, onEvent) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      let name = 'message', data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

async function streamApi(path, body, controller, onEvent) {
  const res = await fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal,
  });
  if (!res.ok) {
    let data = null;
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    throw new Error((data && data.error) || ('HTTP ' + res.status));
  }
  await readEvents(res, onEvent);
}

// ---------- the game ----------
function gameSpec(upto) {
  const plies = upto === undefined ? S.plies : S.plies.slice(0, upto);
  const g = { size: S.size, variant: S.variant, moves: plies.join('') };
  if (S.start) g.start = S.start;
  for (const k of ['black', 'white', 'place', 'date']) if (S.names[k]) g[k] = S.names[k];
  return g;
}
function level() { return clampLevel($('level').value); }
function clampLevel(v) { const n = parseInt(v, 10); return Number.isFinite(n) ? Math.min(60, Math.max(1, n)) : 10; }
function pos() { return S.game ? S.game.positions[S.cursor] : null; }
function sqName(r, c) {
  const off = (8 - S.size) / 2;
  return String.fromCharCode(97 + c + off) + (r + 1 + off);
}

function setGame(g, cursor) {
  const sameStart = S.game && g.start === S.game.start && g.size === S.game.size && g.variant === S.game.variant;
  const keepEvals = sameStart && g.plies.slice(0, S.plies.length).join() === S.plies.slice(0, g.plies.length).join();
  S.game = g;
  S.size = g.size; S.variant = g.variant;
  S.start = isStandardStart(g) ? null : g.start;
  S.plies = g.plies.slice();
  S.names = g.names || {};
  S.cursor = cursor === undefined ? g.plies.length : Math.max(0, Math.min(cursor, g.plies.length));
  if (!keepEvals) {
    if (S.reviewController) { S.reviewController.abort(); S.reviewController = null; }
    S.evals = {}; S.review = null; $('mistakes').innerHTML = ''; $('review-progress').textContent = '';
    $('game-info').textContent = '';
  }
  $('size').value = String(S.size); $('variant').value = S.variant;
  $('out-transcript').value = g.transcript; $('out-ggf').value = g.ggf;
  render();
  positionChanged();
}

// ---------- links ----------
// The link of the game and position shown: size and rules when not the default, the
// start board when not the standard one, the moves, and the position when not the last.
function linkQuery() {
  const q = new URLSearchParams();
  if (S.size !== 8) q.set('size', String(S.size));
  if (S.variant !== 'normal') q.set('variant', S.variant);
  if (S.start) q.set('board', S.start);
  if (S.plies.length) q.set('game', S.plies.join(''));
  if (S.game && S.cursor !== S.plies.length) q.set('ply', String(S.cursor));
  return q.toString();
}
function linkHref() { return location.origin + location.pathname + (linkQuery() ? '?' + linkQuery() : ''); }
function updateLink() {
  const q = linkQuery();
  const want = q ? '?' + q : '';
  if (location.search !== want) history.replaceState(null, '', location.pathname + want);
  $('link').value = linkHref();
}
async function copyLink() {
  const href = linkHref();
  $('link').value = href;
  $('link').hidden = false;
  $('link').select();
  let copied = false;
  try { await navigator.clipboard.writeText(href); copied = true; } catch (e) {
    try { copied = document.execCommand('copy'); } catch (e2) { copied = false; }
  }
  $('link-status').textContent = copied ? 'link copied' : 'copy the selected link';
}
// The game or position named by the page's address, if any: true when one was loaded.
async function loadFromLink() {
  const q = new URLSearchParams(location.search);
  const known = ['game', 'board', 'size', 'variant', 'ply'];
  if (!known.some((k) => q.has(k))) return false;
  const unknown = [...q.keys()].filter((k) => !known.includes(k));
  const game = {};
  if (q.has('size')) {
    const n = Number(q.get('size'));
    if (!Number.isInteger(n)) { showError('link: size ' + JSON.stringify(q.get('size')) + ': expected 4, 6 or 8'); return false; }
    game.size = n;
  }
  if (q.has('variant')) game.variant = q.get('variant');
  if (q.has('board')) game.start = q.get('board');
  if (q.has('game')) game.moves = q.get('game');
  let ply;
  if (q.has('ply')) {
    ply = Number(q.get('ply'));
    if (!Number.isInteger(ply) || ply < 0) { showError('link: ply ' + JSON.stringify(q.get('ply')) + ': expected a move number (0 for the start)'); return false; }
  }
  try {
    const g = await api('/api/game', { game });
    if (ply !== undefined && ply > g.plies.length) throw new Error('ply ' + ply + ': the game has ' + g.plies.length + ' moves');
    S.game = null;
    setGame(g, ply);
    if (unknown.length) showError('link: ignored ' + unknown.join(', ') + ' (known: ' + known.join(', ') + ')');
    return true;
  } catch (e) {
    showError('link: ' + e.message);
    return false;
  }
}
function isStandardStart(g) {
  const std = { 8: '---------------------------OX------XO--------------------------- X', 6: '--------------OX----XO-------------- X', 4: '-----OX--XO----- X' };
  return std[g.size] === g.start;
}

async function newGame() {
  try {
    clearError();
    S.start = null; S.plies = [];
    const g = await api('/api/game', { game: { size: S.size, variant: S.variant } });
    S.game = null;
    setGame(g);
  } catch (e) { showError(e.message); }
}

async function play(move) {
  if (S.setup !== null) return;
  try {
    clearError();
    const g = await api('/api/move', { game: gameSpec(S.cursor), move });
    setGame(g);
  } catch (e) { showError(e.message); }
}

function step(to) {
  if (!S.game) return;
  const n = Math.max(0, Math.min(S.game.plies.length, to));
  if (n === S.cursor) return;
  S.cursor = n;
  render();
  positionChanged();
}
function undo() {
  // Against the engine: back to the last position where the person is to move.
  let to = S.cursor - 1;
  if ($('mode').value === 'engine') {
    while (to > 0 && S.game.positions[to].side === $('engine-color').value) to--;
  }
  step(to);
}
function redo() { step(S.cursor + 1); }

// ---------- analysis ----------
function positionChanged() {
  if (S.controller) { S.controller.abort(); S.controller = null; }
  S.analysis = null;
  S.hover = null;
  updateLink();
  renderValues();
  const p = pos();
  if (!p) return;
  $('pass').hidden = !p.must_pass;
  if (p.over) {
    const s = p.black_score;
    setStatus('Game over: ' + (s > 0 ? 'black wins by ' + s : s < 0 ? 'white wins by ' + (-s) : 'a draw') + '.', false);
    S.evals[S.cursor] = s;
    renderGraph();
    $('board').dataset.analysis = 'done';
    return;
  }
  if (maybeEngineMove()) return;
  if ($('show-values').checked && !p.must_pass) analyze();
  else {
    setStatus(p.must_pass ? p.side + ' has no move and must pass.' : '', false);
    $('board').dataset.analysis = 'off';
  }
}

function analyze() {
  const controller = new AbortController();
  S.controller = controller;
  const at = S.cursor;
  $('board').dataset.analysis = 'running';
  setStatus('Analysing…', true);
  const body = { game: gameSpec(at), level: level() };
  streamApi('/api/analyze', body, controller, (name, data) => {
    if (S.controller !== controller) return;
    if (name === 'error') { showError('analysis: ' + data.error); return; }
    S.analysis = data; S.analysisFor = at;
    if (data.moves.length > 0 && data.moves.length === data.legal) {
      const black = S.game.positions[at].side === 'black' ? 1 : -1;
      S.evals[at] = black * data.value;
      renderGraph();
    }
    renderValues();
    describeAnalysis(data, name === 'done');
    if (name === 'done') { $('board').dataset.analysis = 'done'; S.controller = null; }
  }).catch((e) => {
    if (e.name === 'AbortError') return;
    if (S.controller === controller) { S.controller = null; $('board').dataset.analysis = 'error'; setStatus('', false); }
    showError('analysis: ' + e.message);
  });
}

// A value known only by proven bounds (an exact solve under way): '≥+2', '≤-4', '-4…+2'.
function fmtBounds(m, max) {
  const s = (v) => (v > 0 ? '+' : '') + v;
  if (m.upper >= max) return '≥' + s(m.lower);
  if (m.lower <= -max) return '≤' + s(m.upper);
  return s(m.lower) + '…' + s(m.upper);
}
function fmtMove(m) { return m.lower !== undefined ? fmtBounds(m, S.size * S.size) : fmt(m.score, m.exact); }
function fmt(score, exact) {
  if (exact) return (score > 0 ? '+' : '') + Math.round(score);
  const r = Math.round(score * 10) / 10;
  return (r > 0 ? '+' : '') + r.toFixed(1);
}

function describeAnalysis(t, done) {
  if (!t.moves.length) { setStatus(done ? 'No value.' : 'Analysing…', !done); return; }
  const best = t.moves[0];
  const tied = t.moves.filter((m) => m.best);
  let how;
  if (t.all_exact && S.size < 8) how = 'exact: perfect play (' + t.empties + ' empties; ' + S.size + 'x' + S.size + ' is always solved)';
  else if (t.all_exact) how = 'exact: solved (' + t.empties + ' empties; exact from ' + t.exact_from + ' at this level)';
  else if (S.size < 8) how = 'not exact yet: Monte Carlo estimates (means of random games), perfect play being solved (' + t.moves.filter((m) => m.exact).length + ' of ' + t.legal + ' exact, ' + t.empties + ' empties; a store makes it instant)';
  else if (t.moves.some((m) => m.exact)) how = 'solving every move exactly (' + t.moves.filter((m) => m.exact).length + ' of ' + t.legal + ' done, ' + t.empties + ' empties)';
  else how = 'midgame search, depth ' + best.depth + (best.selectivity < 100 ? ' @' + best.selectivity + '%' : '') + (t.empties <= t.exact_from ? ' (exact solve next)' : ' (exact from ' + t.exact_from + ' empties)');
  const stopped = t.stopped ? ' — stopped at the time or node budget' : '';
  const head = tied.length > 1 && !best.exact && best.error !== undefined
    ? 'Tied: ' + tied.map((m) => m.move).join(' ') + ' (estimates within their error of ' + fmtMove(best) + ')'
    : tied.length > 1 ? 'Best ' + tied.map((m) => m.move).join(' ') + ' ' + fmtMove(best)
    : 'Best ' + best.move + ' ' + fmtMove(best);
  setStatus(head + ' · ' + how + stopped + (done ? '' : ' …'), !done);
}

// ---------- lines ----------
// The line of the hovered move, else of the best one: as text under the board, and
// (for a hovered move) as numbered steps on the board's empty squares.
function shownLine() {
  const t = S.analysis;
  if (!t || S.analysisFor !== S.cursor || !t.moves.length || S.setup !== null || !$('show-values').checked) return null;
  const m = (S.hover && t.moves.find((x) => x.move === S.hover)) || t.moves[0];
  return { m, hovered: m.move === S.hover };
}
function renderLine() {
  const board = $('board');
  for (const el of board.querySelectorAll('.pvstep')) el.remove();
  for (const el of board.querySelectorAll('.online')) el.classList.remove('online');
  const el = $('pv');
  const l = shownLine();
  if (!l) { el.textContent = ''; el.dataset.move = ''; return; }
  const { m, hovered } = l;
  const label = hovered || S.analysis.moves.filter((x) => x.best).length > 1 ? 'Line of ' + m.move : 'Best line';
  if (m.pv.length <= 1) {
    el.textContent = m.move + ' ' + fmtMove(m) + ': ' + (m.depth === 0 ? 'a Monte Carlo estimate, no line' : 'no line yet');
  } else {
    el.textContent = label + ' ' + fmtMove(m) + (m.exact ? ' (perfect play)' : '') + ': ' + m.pv.join(' ');
  }
  el.dataset.move = m.move;
  if (!hovered) return;
  // Numbered from the hovered move (1, under the pointer, not drawn) in the colour of
  // the side that plays each one (a pass is a ply too).
  const black = pos().side === 'black';
  const taken = new Set([m.move]);
  m.pv.forEach((sq, i) => {
    if (sq === 'pa' || taken.has(sq)) return;
    taken.add(sq);
    const d = board.querySelector('[data-sq="' + sq + '"]');
    if (!d || d.querySelector('.disc')) return;
    const k = document.createElement('span');
    k.className = 'pvstep ' + ((i % 2 === 0) === black ? 'X' : 'O');
    k.textContent = String(i + 1);
    d.classList.add('online');
    d.appendChild(k);
  });
}

// ---------- the engine ----------
function maybeEngineMove() {
  const p = pos();
  if ($('mode').value !== 'engine' || !p || p.over || S.cursor !== S.plies.length) return false;
  if (p.side !== $('engine-color').value) return false;
  engineMove();
  return true;
}
async function engineMove() {
  if (S.engineThinking) return;
  S.engineThinking = true;
  $('board').dataset.analysis = 'engine';
  setStatus('The engine is thinking (level ' + level() + ')…', true);
  const at = S.cursor;
  try {
    const r = await api('/api/engine-move', { game: gameSpec(at), level: level(), time_ms: 20000 });
    S.engineThinking = false;
    if (S.cursor !== at) return;
    await play(r.move || 'pa');
  } catch (e) {
    S.engineThinking = false;
    setStatus('', false);
    showError('engine: ' + e.message);
  }
}

// ---------- rendering ----------
function cellsNow() { return S.setup !== null ? S.setup : pos().cells; }

function render() {
  const board = $('board');
  const n = S.size;
  board.style.gridTemplateColumns = 'repeat(' + n + ', 1fr)';
  board.style.gridTemplateRows = 'repeat(' + n + ', 1fr)';
  board.innerHTML = '';
  if (!S.game) return;
  const p = pos();
  const cells = cellsNow();
  const legal = S.setup === null ? new Set(p.moves) : new Set();
  const lastPly = S.cursor > 0 ? S.game.plies[S.cursor - 1] : null;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const name = sqName(r, c);
      const d = document.createElement('div');
      d.className = 'sq';
      d.dataset.sq = name;
      d.dataset.index = String(r * n + c);
      const ch = cells[r * n + c];
      if (ch === 'X' || ch === 'O') {
        const disc = document.createElement('div');
        disc.className = 'disc ' + ch;
        d.appendChild(disc);
      }
      if (legal.has(name)) d.classList.add('legal');
      if (name === lastPly) d.classList.add('last');
      if (S.setup !== null) d.classList.add('setup');
      board.appendChild(d);
    }
  }
  renderCoords();
  $('turn').textContent = S.setup !== null ? 'Setting up' : p.over ? 'Game over' : (p.side === 'black' ? '● Black' : '○ White') + ' to move';
  const b = (cells.match(/X/g) || []).length, w = (cells.match(/O/g) || []).length;
  $('discs').textContent = '● ' + b + ' – ' + w + ' ○';
  renderMoveList();
  renderGraph();
  renderValues();
}

// The files (a..h) above the board and the ranks (1..8) beside it, outside the squares.
function renderCoords() {
  const n = S.size;
  const files = $('coords-files'), ranks = $('coords-ranks');
  files.style.gridTemplateColumns = 'repeat(' + n + ', 1fr)';
  ranks.style.gridTemplateRows = 'repeat(' + n + ', 1fr)';
  let f = '', r = '';
  for (let i = 0; i < n; i++) {
    const name = sqName(i, i);
    f += '<span class="coord">' + name[0] + '</span>';
    r += '<span class="coord">' + name.slice(1) + '</span>';
  }
  files.innerHTML = f; ranks.innerHTML = r;
}

function renderValues() {
  const board = $('board');
  for (const el of board.querySelectorAll('.val')) el.remove();
  for (const el of board.querySelectorAll('.best, .valued')) el.classList.remove('best', 'valued');
  const t = S.analysis;
  if (!t || S.analysisFor !== S.cursor || !$('show-values').checked || S.setup !== null) { renderLine(); return; }
  t.moves.forEach((m) => {
    const d = board.querySelector('[data-sq="' + m.move + '"]');
    if (!d) return;
    const v = document.createElement('span');
    v.className = 'val ' + (m.exact ? 'exact' : m.lower !== undefined ? 'est bounds' : 'est');
    v.textContent = fmtMove(m);
    v.dataset.score = String(m.score);
    v.dataset.exact = m.exact ? '1' : '0';
    v.title = (m.exact ? 'exact value' : m.lower !== undefined ? 'proven bounds (the exact solve stopped)' : m.depth === 0 ? 'Monte Carlo estimate (mean of random games) ± ' + m.error : 'search depth ' + m.depth + (m.selectivity < 100 ? ' @' + m.selectivity + '%' : '')) +
      (m.pv.length > 1 ? '\nline: ' + m.pv.join(' ') : '');
    d.appendChild(v);
    d.classList.add('valued');
    if (m.best) d.classList.add('best');
  });
  renderLine();
}

function renderMoveList() {
  const ol = $('movelist');
  ol.innerHTML = '';
  const li0 = document.createElement('li');
  li0.textContent = 'start';
  li0.dataset.ply = '0';
  if (S.cursor === 0) li0.classList.add('cur');
  ol.appendChild(li0);
  const losses = {};
  if (S.review) for (const p of S.review.plies) losses[p.index] = p.loss;
  S.game.plies.forEach((ply, i) => {
    const li = document.createElement('li');
    li.textContent = (i + 1) + '.' + ply;
    li.dataset.ply = String(i + 1);
    const loss = losses[i];
    if (loss !== undefined) {
      li.title = 'loss ' + loss;
      if (loss >= 4) li.classList.add('mistake'); else if (loss >= 2) li.classList.add('inacc');
    }
    if (S.cursor === i + 1) li.classList.add('cur');
    ol.appendChild(li);
  });
}

// The graph's geometry: the width of the viewBox, the margins around the plot, and the
// x of ply i of n (the click handler inverts it).
const G = { W: 600, H: 160, left: 30, right: 8, top: 8, bottom: 16 };
function graphX(i, n) { return G.left + (i / n) * (G.W - G.left - G.right); }
// The vertical scale: the smallest of 4, 8, 16, 32... (at most the board's squares)
// holding every value, so a close game fills the graph as a rout does.
function graphScale(values) {
  const most = values.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
  let lim = 4;
  while (lim < most && lim < S.size * S.size) lim *= 2;
  return Math.min(lim, S.size * S.size);
}
function renderGraph() {
  const svg = $('graph');
  if (!S.game) return;
  const { W, H } = G, n = Math.max(1, S.game.plies.length);
  const pts = Object.keys(S.evals).map(Number).filter((i) => i <= S.game.plies.length).sort((a, b) => a - b);
  const lim = graphScale(pts.map((i) => S.evals[i]));
  const mid = (G.top + H - G.bottom) / 2, half = (H - G.bottom - G.top) / 2;
  const x = (i) => graphX(i, n);
  const y = (v) => mid - (Math.max(-lim, Math.min(lim, v)) / lim) * half;
  let s = '';
  for (const v of [lim, lim / 2, 0, -lim / 2, -lim]) {
    s += '<line x1="' + G.left + '" x2="' + (W - G.right) + '" y1="' + y(v) + '" y2="' + y(v) + '" stroke="' + (v ? '#e6e3d8' : '#bbb') + '"/>';
    s += '<text x="' + (G.left - 3) + '" y="' + (y(v) + 3.5) + '" font-size="10" fill="#777" text-anchor="end">' + (v > 0 ? '+' : '') + v + '</text>';
  }
  const step = n > 40 ? 10 : n > 16 ? 5 : n > 8 ? 2 : 1;
  for (let i = step; i <= n; i += step) {
    s += '<text x="' + x(i) + '" y="' + (H - 4) + '" font-size="10" fill="#999" text-anchor="middle">' + i + '</text>';
  }
  s += '<line x1="' + x(S.cursor) + '" x2="' + x(S.cursor) + '" y1="0" y2="' + (H - G.bottom) + '" stroke="#e3b341" stroke-width="2"/>';
  if (pts.length) {
    const path = pts.map((i, k) => (k ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(S.evals[i]).toFixed(1)).join(' ');
    s += '<path d="' + path + '" fill="none" stroke="#2d4a34" stroke-width="2"/>';
    for (const i of pts) s += '<circle cx="' + x(i).toFixed(1) + '" cy="' + y(S.evals[i]).toFixed(1) + '" r="2.5" fill="#2d4a34"><title>' + (i ? 'after move ' + i : 'start') + ': ' + (S.evals[i] > 0 ? 'black +' + S.evals[i] : S.evals[i] < 0 ? 'white +' + (-S.evals[i]) : 'even') + '</title></circle>';
  }
  s += '<text x="' + (G.left + 4) + '" y="' + (G.top + 10) + '" font-size="10" fill="#777">black ahead</text><text x="' + (G.left + 4) + '" y="' + (H - G.bottom - 4) + '" font-size="10" fill="#777">white ahead</text>';
  svg.innerHTML = s;
  svg.dataset.points = String(pts.length);
  svg.dataset.scale = String(lim);
}
// The ply under a click at clientX on the graph.
function graphPly(clientX) {
  const r = $('graph').getBoundingClientRect();
  const n = Math.max(1, S.game.plies.length);
  const vx = ((clientX - r.left) / r.width) * G.W;
  return Math.round(((vx - G.left) / (G.W - G.left - G.right)) * n);
}

// ---------- game analysis ----------
function analyzeGame() {
  if (!S.game || !S.game.plies.length) { showError('analyse game: the game has no moves yet'); return; }
  if (S.reviewController) S.reviewController.abort();
  const controller = new AbortController();
  S.reviewController = controller;
  const reviewLevel = clampLevel($('review-level').value);
  S.review = { plies: [] };
  $('mistakes').innerHTML = '';
  $('review-progress').textContent = 'analysing…';
  $('analyze-game').disabled = true;
  $('graph-panel').dataset.review = 'running';
  streamApi('/api/analyze-game', { game: gameSpec(), level: reviewLevel }, controller, (name, data) => {
    if (name === 'ply') {
      S.review.plies.push(data);
      if (data.played) S.evals[data.index] = data.black_value;
      $('review-progress').textContent = 'move ' + (data.index + 1) + ' of ' + data.of;
      renderGraph(); renderMoveList();
    } else if (name === 'done') {
      S.review = data;
      for (const p of data.plies) if (p.played) S.evals[p.index] = p.black_value;
      if (data.final_black_score !== null) S.evals[S.game.plies.length] = data.final_black_score;
      $('review-progress').textContent = data.stopped ? 'stopped at the time limit' : 'done';
      renderMistakes(data);
      renderGraph(); renderMoveList();
      $('graph-panel').dataset.review = 'done';
    } else if (name === 'error') {
      showError('analyse game: ' + data.error);
    }
  }).catch((e) => {
    if (e.name !== 'AbortError') showError('analyse game: ' + e.message);
    $('review-progress').textContent = '';
    $('graph-panel').dataset.review = 'error';
  }).finally(() => { $('analyze-game').disabled = false; });
}

function renderMistakes(r) {
  const div = $('mistakes');
  if (!r.mistakes.length) { div.innerHTML = '<p>No mistake of ' + r.mistake_threshold + ' discs or more.</p>'; return; }
  const shown = r.mistakes.slice(0, 12);
  let h = '<p>' + r.mistakes.length + ' mistakes (losing ' + r.mistake_threshold + ' discs or more), worst first:</p><ul>';
  for (const m of shown) {
    h += '<li data-ply="' + m.index + '">' + (m.index + 1) + '. ' + m.side + ' ' + m.played + ' (' + fmt(m.played_score, m.exact) +
      '), best ' + m.best + ' (' + fmt(m.best_score, m.exact) + '): loses ' + (Math.round(m.loss * 10) / 10) + '</li>';
  }
  if (r.mistakes.length > shown.length) h += '<li>… and ' + (r.mistakes.length - shown.length) + ' more (marked in the move list)</li>';
  div.innerHTML = h + '</ul>';
}

// ---------- paste, export, set up ----------
async function loadText() {
  const text = $('paste').value.trim();
  const looksLikeMoves = !text.startsWith('(;') && !text.includes(';') && /\d/.test(text);
  try {
    clearError();
    const g = await api('/api/parse', { text, size: looksLikeMoves || text === '' ? S.size : null, variant: S.variant });
    S.game = null;
    setGame(g);
  } catch (e) { showError('paste: ' + e.message); }
}
function startSetup() {
  if (!S.game) return;
  if (S.controller) { S.controller.abort(); S.controller = null; }
  S.setup = pos().cells;
  $('setup-side').value = pos().side === 'black' ? 'X' : 'O';
  $('setup-tools').hidden = false;
  S.analysis = null;
  render();
  setStatus('Set up: click squares, then Done.', false);
}
function setupClick(index) {
  const next = { '-': 'X', 'X': 'O', 'O': '-' };
  const a = S.setup.split('');
  a[index] = next[a[index]];
  S.setup = a.join('');
  render();
}
async function finishSetup(apply) {
  const cells = S.setup;
  S.setup = null;
  $('setup-tools').hidden = true;
  if (!apply) { render(); positionChanged(); return; }
  try {
    const g = await api('/api/parse', { text: cells + ' ' + $('setup-side').value, size: S.size, variant: S.variant });
    S.game = null;
    setGame(g);
  } catch (e) { showError('set up: ' + e.message); render(); positionChanged(); }
}

// ---------- WTHOR ----------
async function wthorSearch() {
  const q = new URLSearchParams();
  const player = $('wthor-player').value.trim(), tournament = $('wthor-tournament').value.trim(), year = $('wthor-year').value.trim();
  if (player) q.set('player', player);
  if (tournament) q.set('tournament', tournament);
  if (year) q.set('year', year);
  q.set('limit', '100');
  try {
    clearError();
    const r = await api('/api/wthor?' + q.toString());
    const t = $('wthor-results');
    let h = '<tr><th colspan="5">' + r.total + ' games' + (r.total > r.games.length ? ' (first ' + r.games.length + ')' : '') + '</th></tr>';
    for (const g of r.games) {
      h += '<tr class="game" data-id="' + g.id + '"><td>' + g.year + '</td><td>' + esc(g.black) + '</td><td>' + esc(g.white) + '</td><td>' +
        g.black_discs + '-' + (64 - g.black_discs) + '</td><td>' + esc(g.tournament) + '</td></tr>';
    }
    t.innerHTML = h;
  } catch (e) { showError('WTHOR: ' + e.message); }
}
async function wthorOpen(id) {
  try {
    clearError();
    const r = await api('/api/wthor/' + id);
    S.game = null;
    setGame(r.game, 0);
    $('game-info').textContent = r.info.black + ' (black) vs ' + r.info.white + ' (white), ' + r.info.tournament + ' ' + r.info.year +
      ': ' + r.info.black_discs + '-' + (64 - r.info.black_discs) + ' (perfect play from the last empties: ' + r.info.theoretical_black_discs + ')';
  } catch (e) { showError('WTHOR: ' + e.message); }
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

// ---------- wiring ----------
function wire() {
  $('board').addEventListener('click', (e) => {
    const d = e.target.closest('.sq');
    if (!d) return;
    if (S.setup !== null) { setupClick(parseInt(d.dataset.index, 10)); return; }
    if (d.classList.contains('legal')) play(d.dataset.sq);
  });
  $('new').onclick = newGame;
  $('undo').onclick = undo;
  $('redo').onclick = redo;
  $('first').onclick = () => step(0);
  $('last').onclick = () => step(S.game.plies.length);
  $('pass').onclick = () => play('pa');
  $('size').onchange = () => { S.size = parseInt($('size').value, 10); newGame(); };
  $('variant').onchange = () => { S.variant = $('variant').value; newGame(); };
  $('mode').onchange = () => { $('engine-color-label').hidden = $('mode').value !== 'engine'; positionChanged(); };
  $('engine-color').onchange = positionChanged;
  $('level').onchange = positionChanged;
  $('show-values').onchange = positionChanged;
  $('analyze-game').onclick = analyzeGame;
  $('load').onclick = loadText;
  $('export').onclick = () => { $('io-panel').open = true; $('out-transcript').select(); };
  $('setup').onclick = startSetup;
  $('setup-done').onclick = () => finishSetup(true);
  $('setup-cancel').onclick = () => finishSetup(false);
  $('setup-clear').onclick = () => { S.setup = S.setup.replace(/[XO]/g, '-'); render(); };
  $('error-close').onclick = clearError;
  $('wthor-search').onclick = wthorSearch;
  $('wthor-results').addEventListener('click', (e) => { const tr = e.target.closest('tr.game'); if (tr) wthorOpen(tr.dataset.id); });
  $('movelist').addEventListener('click', (e) => { const li = e.target.closest('li'); if (li) step(parseInt(li.dataset.ply, 10)); });
  $('mistakes').addEventListener('click', (e) => { const li = e.target.closest('li[data-ply]'); if (li) step(parseInt(li.dataset.ply, 10)); });
  $('graph').addEventListener('click', (e) => { if (S.game) step(graphPly(e.clientX)); });
  $('board').addEventListener('mouseover', (e) => {
    const d = e.target.closest('.sq.valued');
    const sq = d ? d.dataset.sq : null;
    if (sq !== S.hover) { S.hover = sq; renderLine(); }
  });
  $('board').addEventListener('mouseleave', () => { if (S.hover !== null) { S.hover = null; renderLine(); } });
  $('copy-link').onclick = copyLink;
  document.addEventListener('keydown', (e) => {
    if (e.target && e.target.matches && e.target.matches('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') { step(S.cursor - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { step(S.cursor + 1); e.preventDefault(); }
    else if (e.key === 'Home') { step(0); e.preventDefault(); }
    else if (e.key === 'End') { step(S.game.plies.length); e.preventDefault(); }
    else if (e.key === 'Escape') clearError();
  });
  $('engine-color-label').hidden = true;
}

async function init() {
  wire();
  try {
    S.info = await api('/api/info');
    $('level').value = String(S.info.level);
    $('wthor-info').textContent = S.info.wthor_games ? S.info.wthor_games + ' games in ' + S.info.wthor_files.join(', ') : 'No WTHOR file was given to the server (solvo serve --wthor FILE).';
  } catch (e) { showError(e.message); }
  if (!(await loadFromLink())) {
    const linkError = $('error').hidden ? null : $('error-text').textContent;
    await newGame();
    if (linkError) showError(linkError);
  }
}
init();
