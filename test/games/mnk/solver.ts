/**
 * Solver and search on reference positions.
 *  - tactics.json (copied from the reference set shared/reference/mnk into test/fixtures/mnk): every position,
 *    field `correct` (the set of right moves per its `category`), must be answered by a right move.
 *  - known-values.json (same origin): empty-board values, field `value` of entries 3x3k3 (draw),
 *    4x3k3, 3x4k3, 4x4k3 (P1 win), 4x4k4 and 5x4k4 (draw), proven exactly by the solver.
 *  - The threat-space search agrees with a brute-force full-width search on random positions.
 * (known-values.json against analyse() under deadlines: targets.test.ts.)
 */
import t from 'tap';
import { definition, engine, type MnkPosition } from '../../../src/games/mnk/index.js';
import { ThreatSearch } from '../../../src/games/mnk/threats.js';
import { Symmetries } from '../../../src/games/mnk/symmetry.js';
import { LEVEL_FOUR, MnkPosition as Position } from '../../../src/games/mnk/position.js';
import { Random } from '../../../src/core/random.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { PROVEN_THRESHOLD, WIN_SCORE } from '../../../src/search/score.js';
import { KNOWN_VALUES as known, TACTICS as tactics, emptyPosition, positionOf } from '../../fixtures/mnk/boards.js';


/** Generous: the solver's own node budgets end it long before on any machine. */
const SLACK_MS = 60_000;
const ctx = (): { deadline: number; shouldStop: () => boolean } => {
  const deadline = Date.now() + SLACK_MS;
  return { deadline, shouldStop: () => Date.now() >= deadline };
};

function decode(p: Tactic): MnkPosition {
  const r = definition.decodeState({ m: p.m, n: p.n, k: p.k, board: p.board, turn: p.turn }, undefined);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

t.test('every tactics.json position gets a correct move (solver, then a node-limited search)', async (t) => {
  t.equal(tactics.length, 20, 'fixture has 20 positions');
  const searcher = new Searcher(new TranspositionTable(8));
  for (const p of tactics) {
    const pos = decode(p);
    const result = analyse(engine, pos, searcher, { nodeLimit: 200_000, maxDepth: 8 });
    const move: [number, number] = [Math.floor(result.move / p.n), result.move % p.n];
    t.ok(p.correct.some(([r, c]) => r === move[0] && c === move[1]), `${p.id}: ${move.join(',')} is in ${JSON.stringify(p.correct)}`);
    if (p.category.startsWith('win')) {
      // The solver proves the win at the reference distance (fields `category` / `plies`).
      t.equal(result.score, WIN_SCORE - p.plies, `${p.id}: proven win in ${p.plies} plies`);
    }
  }
});

t.test('known values of small boards are proven by the solver', async (t) => {
  const cases: [number, number, number, 'draw' | 'P1 win'][] = [
    [3, 3, 3, 'draw'],
    [4, 3, 3, 'P1 win'],
    [3, 4, 3, 'P1 win'],
    [4, 4, 3, 'P1 win'],
    [4, 4, 4, 'draw'],
    [5, 4, 4, 'draw'],
  ];
  for (const [m, n, k, value] of cases) {
    const entry = known.find((e) => e.m === m && e.n === n && e.k === k);
    t.equal(entry?.value, value, `known-values.json lists ${m}x${n}k${k} as ${value}`);
    const pos = emptyPosition(m, n, k);
    const solved = engine.solve!(pos, ctx());
    t.ok(solved !== null, `${m}x${n}k${k} solved`);
    if (solved === null) continue;
    t.equal(pos.cells[solved.move], 0, 'a legal move');
    if (value === 'draw') {
      t.equal(solved.score, 0, `${m}x${n}k${k} proven draw`);
      t.equal(solved.exactScore, 0);
    } else {
      t.ok(solved.score >= PROVEN_THRESHOLD, `${m}x${n}k${k} proven first-player win`);
    }
  }
});

t.test('win distances of the solver agree with brute force', async (t) => {
  // The reference gives values, not distances: the distance is checked against the full-width
  // brute force below (no pruning beyond "a K-1 window wins next move").
  for (const [m, n, k] of [[4, 3, 3], [3, 4, 3], [4, 4, 3]] as const) {
    const solved = engine.solve!(emptyPosition(m, n, k), ctx())!;
    const ownMoves = (WIN_SCORE - solved.score + 1) / 2;
    t.ok(bruteWin(emptyPosition(m, n, k), ownMoves, true), `${m}x${n}k${k}: X wins within ${ownMoves} own moves`);
    t.notOk(bruteWin(emptyPosition(m, n, k), ownMoves - 1, true), `${m}x${n}k${k}: but not within ${ownMoves - 1}`);
  }
  t.equal(engine.solve!(emptyPosition(4, 4, 3), ctx())!.score, WIN_SCORE - 5, '4x4 k3: X wins with its third stone');
});

/** Brute force: does the side to move force a K-line within d own moves (all empty cells tried)? */
function bruteWin(pos: Position, d: number, attacker: boolean): boolean {
  if (attacker) {
    if (pos.threatCount(pos.side, LEVEL_FOUR) > 0) return true;
    if (d <= 1) return false;
  } else if (pos.threatCount(pos.side, LEVEL_FOUR) > 0) {
    return false;
  }
  let any = false;
  for (let cell = 0; cell < pos.cellCount; cell++) {
    if (pos.cells[cell] !== 0) continue;
    any = true;
    pos.makeMove(cell);
    const won = bruteWin(pos, attacker ? d - 1 : d, !attacker);
    pos.unmakeMove(cell);
    if (attacker && won) return true;
    if (!attacker && !won) return false;
  }
  return attacker ? false : any;
}

t.test('threat-space search = brute force on random small positions (win within 1..3 own moves)', async (t) => {
  const rng = new Random(2024);
  const shapes: [number, number, number][] = [[5, 5, 4], [5, 5, 3], [6, 5, 4], [4, 6, 3], [5, 6, 4], [7, 4, 4]];
  const search = new ThreatSearch();
  const seen = [0, 0, 0, 0];
  let tested = 0;
  while (tested < 400) {
    const [m, n, k] = shapes[rng.below(shapes.length)];
    const stones = 2 + rng.below(Math.min(14, m * n - 8));
    const cells = new Uint8Array(m * n);
    for (let placed = 0; placed < stones; ) {
      const c = rng.below(m * n);
      if (cells[c] === 0) cells[c] = (placed++ % 2) + 1;
    }
    const pos = new Position(m, n, k, cells, stones % 2);
    if (pos.hasCompleteLine(0) || pos.hasCompleteLine(1)) continue;
    const maxD = m * n - stones > 19 ? 2 : 3;
    let brute = 0;
    for (let d = 1; d <= maxD && brute === 0; d++) if (bruteWin(pos, d, true)) brute = d;
    search.reset(pos, { shouldStop: () => false });
    const found = search.findWin(maxD);
    if (found !== brute) t.fail(`${m}x${n}k${k} ${Array.from(cells).join('')}: brute ${brute}, threat search ${found}`);
    if (found > 0) {
      pos.makeMove(search.pv[0]);
      const wins = found === 1 || bruteWin(pos, found - 1, false);
      pos.unmakeMove(search.pv[0]);
      if (!wins) t.fail(`${m}x${n}k${k}: move ${search.pv[0]} does not win within ${found}`);
    }
    seen[brute]++;
    tested++;
  }
  t.ok(seen[2] > 20 && seen[3] > 5, `wins in 1/2/3 own moves all exercised: ${seen.join('/')}`);
  t.pass('all agree');
});

t.test('the seed profile has no solver; finished positions are not solved', async (t) => {
  const tactic = tactics.find((p) => p.category === 'win1')!;
  const seed = engine.restore(engine.snapshot(decode(tactic)), { profile: 'seed' });
  t.equal(engine.solve!(seed, ctx()), null);
  const over = definition.decodeState({ m: 3, n: 3, k: 3, board: ['XXX', 'OO.', '...'], turn: 'O' }, undefined);
  t.ok(over.ok && engine.solve!(over.value, ctx()) === null);
});

t.test('root defence: two unstoppable threats are a proven loss; an open three is blocked', async (t) => {
  // 9x9, K = 4: O has two separate open twos (each becomes an open three = two winning cells),
  // X has scattered stones and no threat: whatever X does, O wins within 2 moves of its own.
  const lost = positionOf(
    ['.........', '..OO.....', '.........', '.........', 'X.......X', '.........', '......O..', '......O..', 'X.......X'],
    4,
    'X',
  );
  const solved = engine.solve!(lost, ctx());
  t.ok(solved !== null, 'solved');
  t.equal(solved?.score, -(WIN_SCORE - 4), 'X loses at ply 4 (X, O open three, X block, O wins)');
  // 15x15, K = 5: O's open three on row 7 (columns 6-8) must be answered at 7,5 or 7,9.
  const rows = Array.from({ length: 15 }, () => '.'.repeat(15).split(''));
  for (const c of [6, 7, 8]) rows[7][c] = 'O';
  rows[3][3] = 'X';
  rows[11][11] = 'X';
  rows[3][11] = 'X';
  const open3 = positionOf(rows.map((r) => r.join('')), 5, 'X');
  const searcher = new Searcher(new TranspositionTable(8));
  const result = analyse(engine, open3, searcher, { nodeLimit: 100_000, maxDepth: 6 });
  t.ok([7 * 15 + 5, 7 * 15 + 9].includes(result.move), `blocks the open three (played ${result.move})`);
  t.ok(result.score < 0, 'and knows it is under pressure');
});

t.test('search moves: forced win, forced blocks, threat zone against an open three', async (t) => {
  const buf = new Int32Array(256);
  const win = positionOf(['XXX.....', 'OOO.....', '........', '........'], 4, 'X');
  t.same([...buf.subarray(0, win.generateSearchMoves(buf, 0))], [3], 'X completes the row');
  const block = positionOf(['XXX.....', 'OO......', '........', '........'], 4, 'O');
  t.same([...buf.subarray(0, block.generateSearchMoves(buf, 0))], [3], 'O must block at 0,3');
  // O to answer X's open two on a K = 4 board: only cells of K-2 windows of either side matter.
  const zone = positionOf(['..........', '..........', '...XX.....', '..........', '.......O..', '..........'], 4, 'O');
  const count = zone.generateSearchMoves(buf, 0);
  const cells = [...buf.subarray(0, count)].sort((a, b) => a - b);
  // X's windows with two stones: columns 1-4, 2-5, 3-6 of row 2; their empty cells 1, 2, 5, 6.
  t.same(cells, [21, 22, 25, 26], 'row 2, columns 1, 2, 5, 6');
  t.equal(zone.generateMoves(buf, 0), 57, 'while every empty cell stays legal');
});

t.test('null move: passes the turn and restores it', async (t) => {
  const pos = positionOf(['X..', '.O.', '...'], 3, 'X');
  const before = [pos.hashLo, pos.hashHi, pos.side];
  pos.makeNullMove();
  t.equal(pos.side, 1);
  t.not(pos.hashLo, before[0]);
  pos.unmakeNullMove();
  t.same([pos.hashLo, pos.hashHi, pos.side], before);
});

t.test('symmetry pruning keeps one move per orbit of the symmetric stones', async (t) => {
  const buf = new Int32Array(64);
  const square = new Symmetries(3, 3);
  const empty = emptyPosition(3, 3, 3);
  for (let i = 0; i < 9; i++) buf[i] = i;
  let count = square.pruneMoves(empty, buf, 0, 9);
  t.same([...buf.subarray(0, count)], [0, 1, 4], 'empty 3x3: corner, edge, centre');
  const rect = new Symmetries(2, 3);
  const wide = emptyPosition(2, 3, 2);
  for (let i = 0; i < 6; i++) buf[i] = i;
  count = rect.pruneMoves(wide, buf, 0, 6);
  t.same([...buf.subarray(0, count)], [0, 1], 'empty 2x3: corner and middle of a long side');
  // X in a corner of 3x3 keeps only the diagonal mirror: 8 moves become 5.
  const corner = positionOf(['X..', '...', '...'], 3, 'O');
  const moves = [1, 2, 3, 4, 5, 6, 7, 8];
  buf.set(moves);
  count = square.pruneMoves(corner, buf, 0, moves.length);
  t.same([...buf.subarray(0, count)], [1, 2, 4, 5, 8]);
  // An asymmetric position prunes nothing.
  const lopsided = positionOf(['XO.', '...', '...'], 3, 'X');
  buf.set([2, 3, 4, 5, 6, 7, 8]);
  t.equal(square.pruneMoves(lopsided, buf, 0, 7), 7);
});
