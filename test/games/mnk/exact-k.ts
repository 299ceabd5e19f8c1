/**
 * The exactK option (Gomocup's standard rule: exactly K in a row wins, an overline does not): the
 * codec, the rules (win detection), the solver and the search's forced moves, and the HTTP API.
 */
import t from 'tap';
import { definition, engine, type MnkPosition } from '../../../src/games/mnk/index.js';
import { generateSearchCandidates } from '../../../src/games/mnk/moves.js';
import { Random } from '../../../src/core/random.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { NOT_TERMINAL, RESULT_LOSS, isProven } from '../../../src/search/score.js';
import { cell } from '../../fixtures/mnk/boards.js';
import { closeTestApp, testApp } from '../../support/app.js';

function decode(board: string[], k: number, exactK: boolean | undefined, turn?: 'X' | 'O'): MnkPosition {
  let xs = 0;
  let os = 0;
  for (const row of board) for (const ch of row) if (ch === 'X') xs++; else if (ch === 'O') os++;
  const state: Record<string, unknown> = { m: board.length, n: board[0].length, k, board, turn: turn ?? (xs === os ? 'X' : 'O') };
  if (exactK !== undefined) state.exactK = exactK;
  const decoded = definition.decodeState(state, undefined);
  if (!decoded.ok) throw new Error(`${decoded.error.field}: ${decoded.error.message}`);
  return decoded.value;
}

// X: five stones on row 2 with a gap at column 5 (XXX.XX would be six with it filled), plus a
// separate four on row 6 that completes to exactly five at 6,6 (or 6,1).
const OVERLINE = [
  '..........',
  '.O.O.O.O..',
  '..XXX.XX..',
  '..........',
  '.O.O.O....',
  '..........',
  '..XXXX....',
  'O.......O.',
];

t.test('an overline wins under freestyle and does not under exactK; exactly K wins under both', async (t) => {
  for (const exactK of [undefined, false, true]) {
    const pos = decode(OVERLINE, 5, exactK);
    t.equal(pos.exactK, exactK === true);
    pos.makeMove(cell(pos, 2, 5));
    t.equal(pos.terminal(), exactK === true ? NOT_TERMINAL : RESULT_LOSS, `six in a row, exactK ${String(exactK)}`);
    pos.unmakeMove(cell(pos, 2, 5));
    pos.makeMove(cell(pos, 6, 6));
    t.equal(pos.terminal(), RESULT_LOSS, `exactly five, exactK ${String(exactK)}`);
    pos.unmakeMove(cell(pos, 6, 6));
    t.equal(pos.winsAt(cell(pos, 2, 5), 0), exactK !== true);
    t.equal(pos.winsAt(cell(pos, 6, 1), 0), true);
  }
  // A stone making six in one direction and exactly five in another wins.
  const both = decode(['XXX.XX.', 'O..X...', '...X...', '...X...', '...X...', 'O.O.O.O', 'O.O.O.O'], 5, true, 'X');
  t.equal(both.winsAt(cell(both, 0, 3), 0), true, 'six across, exactly five down');
  both.makeMove(cell(both, 0, 3));
  t.equal(both.terminal(), RESULT_LOSS);
});

t.test('codec: exactK is optional, round-trips, and only true is written', async (t) => {
  const plain = decode(OVERLINE, 5, undefined);
  t.notOk('exactK' in (definition.encodeState(plain) as object), 'freestyle states keep their old shape');
  const exact = decode(OVERLINE, 5, true);
  const state = definition.encodeState(exact) as Record<string, unknown>;
  t.equal(state.exactK, true);
  t.equal(engine.restore(engine.snapshot(exact)).exactK, true, 'the worker snapshot carries the rule');
  t.equal(engine.restore(engine.snapshot(plain)).exactK, false);
  const bad = definition.decodeState({ ...state, exactK: 'yes' }, undefined);
  t.equal(bad.ok ? '' : bad.error.field, 'body/state/exactK');
  // Six X in a row with O to move: freestyle says X has won (the game is over), exactK plays on.
  const six = ['.XXXXXX.', 'OO.O.O..', '........', '....O...'];
  t.equal(decode(six, 5, false).terminal(), RESULT_LOSS);
  t.equal(decode(six, 5, true).terminal(), NOT_TERMINAL);
  // Under exactK a finished line must still contain the last stone.
  const two = definition.decodeState(
    { m: 5, n: 7, k: 3, exactK: true, board: ['XXX....', '.......', '..XXX..', 'OO.O.OO', '.......'], turn: 'O' },
    undefined,
  );
  t.match(two.ok ? '' : two.error.message, /share no stone/);
});

t.test('solver and forced moves: an overline threat is no threat under exactK', async (t) => {
  const searcher = new Searcher(new TranspositionTable(4));
  // X to move: its only "four" on row 2 makes six. Freestyle: an immediate win; exactK: not.
  const board = [
    '..........',
    '..........',
    '..XXX.XX..',
    '..........',
    '..O.O.O...',
    '..........',
    '...O.O....',
    '..........',
  ];
  const free = decode(board, 5, false, 'X');
  const freeResult = analyse(engine, free, searcher, { maxDepth: 2 });
  t.equal(freeResult.move, cell(free, 2, 5));
  t.ok(isProven(freeResult.score) && freeResult.score > 0, 'freestyle: proven win');
  const exact = decode(board, 5, true, 'X');
  t.equal(engine.solve!(exact, { deadline: Infinity, shouldStop: () => false }), null, 'exactK: the solver proves nothing');
  const buf = new Int32Array(exact.cellCount);
  t.ok(generateSearchCandidates(exact, buf, 0) > 1, 'exactK: no forced win at the overline cell');

  // O to move, X threatens only an overline on row 2: O is not forced to block under exactK.
  const defendBoard = [...board.slice(0, 6), '...O......', '..........'];
  const defend = decode(defendBoard, 5, true, 'O');
  const count = generateSearchCandidates(defend, buf, 0);
  t.ok(count > 2, 'exactK: O may play anywhere near the stones');
  const defendFree = decode(defendBoard, 5, false, 'O');
  t.equal(generateSearchCandidates(defendFree, buf, 0), 1, 'freestyle: the block is forced');
  t.equal(buf[0], cell(defendFree, 2, 5));

  // A real exactly-five threat is still a forced block, and two of them are a proven loss.
  const real = decode(['..........', '.XXXX.....', '..........', '.O.O.O....', '..........', '...O.....X'], 5, true, 'O');
  const blocks = generateSearchCandidates(real, buf, 0);
  t.same([...buf.subarray(0, blocks)].sort((a, b) => a - b), [cell(real, 1, 0), cell(real, 1, 5)]);
  const lost = engine.solve!(real, { deadline: Infinity, shouldStop: () => false });
  t.ok(lost !== null && lost.score < 0 && isProven(lost.score), 'two exact-five cells: proven loss');
});

t.test('exactK search on small boards agrees with a brute-force rule check in random games', async (t) => {
  const rng = new Random(21);
  for (let game = 0; game < 40; game++) {
    const m = 5 + rng.below(3);
    const n = 5 + rng.below(3);
    const k = 3 + rng.below(2);
    const pos = decode(Array.from({ length: m }, () => '.'.repeat(n)), k, true, 'X');
    const cells = new Uint8Array(m * n);
    for (let ply = 0; pos.terminal() === NOT_TERMINAL; ply++) {
      const empty: number[] = [];
      for (let c = 0; c < m * n; c++) if (cells[c] === 0) empty.push(c);
      const move = empty[rng.below(empty.length)];
      const side = pos.side;
      t.equal(pos.winsAt(move, side), bruteWins(cells, m, n, k, move, side + 1), 'winsAt = brute force');
      pos.makeMove(move);
      cells[move] = side + 1;
      const won = bruteWins(cells, m, n, k, move, side + 1);
      if (won) t.equal(pos.terminal(), RESULT_LOSS);
      if (!won && empty.length > 1) t.equal(pos.terminal(), NOT_TERMINAL);
    }
  }
});

/** Whether the stone at `move` lies on a run of exactly k stones of its colour. */
function bruteWins(board: Uint8Array, m: number, n: number, k: number, move: number, stone: number): boolean {
  const r0 = Math.floor(move / n);
  const c0 = move % n;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let length = 1;
    const at = (r: number, c: number) => r >= 0 && r < m && c >= 0 && c < n && (r * n + c === move || board[r * n + c] === stone);
    for (let i = 1; at(r0 + i * dr, c0 + i * dc); i++) length++;
    for (let i = 1; at(r0 - i * dr, c0 - i * dc); i++) length++;
    if (length === k) return true;
  }
  return false;
}

t.test('HTTP: best-move accepts exactK and rejects a non-boolean naming the field', async (t) => {
  const ctx = await testApp();
  t.teardown(() => closeTestApp(ctx));
  const state = { m: 8, n: 10, k: 5, exactK: true, board: OVERLINE, turn: 'X' };
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state, maxDepth: 3 } });
  t.equal(res.statusCode, 200, res.body);
  const body = res.json() as { move: { notation: string } };
  t.not(body.move.notation, '2,5', 'not the overline');
  const bad = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: { ...state, exactK: 1 } } });
  t.equal(bad.statusCode, 400);
  t.match(bad.body, /exactK/);
});
