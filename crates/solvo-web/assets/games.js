// The catalogue's other games: the server answers each position with its board and
// every legal move's exact value; the perfect player plays a best move.
'use strict';
const $ = (id) => document.getElementById(id);
let games = [];
let moves = [];
let humanSide = 0;
// Answers to older requests are dropped (a new game or move was asked for meanwhile).
let asked = 0;

function showError(text) {
  $('error-text').textContent = text;
  $('error').hidden = !text;
}

async function post(path, body) {
  const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
  return j;
}

// The page plays by the rules to the very end: the solvers' shortcuts that end a decided
// position early (tactics, lookahead, move-count bounds) are off unless the options name them.
function options() {
  const typed = $('sg-options').value;
  const g = games.find((x) => x.name === $('sg-game').value);
  const off = ['tactics', 'lookahead', 'bounds']
    .filter((k) => g && g.options.includes(k) && !typed.includes(k))
    .map((k) => k + '=off');
  return off.concat(typed ? [typed] : []).join(',');
}

function request() {
  return { game: $('sg-game').value, size: $('sg-size').value || null, options: options(), moves: moves.join(' ') };
}

async function refresh() {
  const mine = ++asked;
  $('sg-board').dataset.state = 'loading';
  showError('');
  let a;
  try {
    a = await post('/api/small-game', request());
  } catch (e) {
    if (mine !== asked) return;
    showError(e.message);
    $('sg-board').dataset.state = 'error';
    return;
  }
  if (mine !== asked) return;
  $('sg-board').textContent = a.board;
  $('sg-history').textContent = moves.join(' ');
  const side = a.to_move === 0 ? 'first player' : 'second player';
  if (a.over) {
    $('sg-status').textContent = 'Game over: ' + (a.value > 0 ? 'the ' + side + ' (to move) wins' : a.value < 0 ? 'the ' + side + ' (to move) loses' : 'a draw') + ' (' + a.value + ').';
  } else {
    $('sg-status').textContent = 'The ' + side + ' to move; perfect play gives it ' + (a.value > 0 ? '+' : '') + a.value + '. Best: ' + a.best + '.' + (a.from_store ? ' (From the store.)' : '');
  }
  const list = $('sg-moves');
  list.textContent = '';
  const perfectTurn = $('sg-perfect').checked && a.to_move !== humanSide && !a.over;
  if (a.must_pass && !perfectTurn) {
    const b = document.createElement('button');
    b.textContent = 'pass';
    b.dataset.move = 'pass';
    b.onclick = () => play('pass');
    list.appendChild(b);
  }
  for (const m of a.moves) {
    const b = document.createElement('button');
    b.dataset.move = m.name;
    // A move without a value: the position came from a store, the budgets did not
    // settle this move.
    b.dataset.value = m.value === null ? '' : m.value;
    if (m.value === a.value || m.name === a.best) b.classList.add('best');
    b.textContent = m.name;
    const v = document.createElement('span');
    v.className = 'v';
    v.textContent = m.value === null ? '?' : (m.value > 0 ? '+' : '') + m.value;
    b.appendChild(v);
    b.disabled = perfectTurn;
    b.onclick = () => play(m.name);
    list.appendChild(b);
  }
  $('sg-board').dataset.state = 'ready';
  $('sg-board').dataset.plies = String(moves.length);
  if (perfectTurn) {
    moves.push(a.must_pass ? 'pass' : a.best);
    await refresh();
  }
}

function play(name) {
  moves.push(name);
  refresh();
}

function newGame() {
  moves = [];
  humanSide = 0;
  refresh();
}

async function start() {
  const r = await fetch('/api/small-games');
  games = (await r.json()).games;
  const sel = $('sg-game');
  for (const g of games) {
    const o = document.createElement('option');
    o.value = g.name;
    o.textContent = g.name;
    sel.appendChild(o);
  }
  const describe = () => {
    const g = games.find((x) => x.name === sel.value);
    $('sg-description').textContent = g ? g.description + '. Options: ' + g.options : '';
    $('sg-size').placeholder = g ? g.size : '';
  };
  // A game's own size can be far too big to solve on demand: the player picks a size,
  // then starts the game.
  sel.onchange = () => {
    describe();
    $('sg-size').value = '';
    asked++;
    moves = [];
    $('sg-board').textContent = 'Choose a size (small boards solve at once), then New game.';
    $('sg-board').dataset.state = 'idle';
    $('sg-moves').textContent = '';
    $('sg-status').textContent = '';
  };
  sel.value = 'domineering';
  $('sg-size').value = '4x4';
  describe();
  $('sg-new').onclick = newGame;
  $('sg-undo').onclick = () => {
    // Back to the human's previous turn (the perfect player's answer undone too).
    moves.pop();
    if ($('sg-perfect').checked && moves.length % 2 !== humanSide) moves.pop();
    refresh();
  };
  newGame();
}

start();
