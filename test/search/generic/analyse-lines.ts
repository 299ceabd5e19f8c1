/**
 * Several lines and root filters through analyse(): the games' solvers still give exact or proven
 * values, line by line. Expected values come from the reference data:
 *  - Othello: test/fixtures/othello/endgames.json, `moveValues` (every legal move's exact final disc
 *    differential, agreed by two independent engines);
 *  - Hadron: test/fixtures/hadron/small-boards.json, `firstMoveMap` (W: the first player still wins
 *    after opening there, L: loses; exhaustive solver);
 *  - (M,N,K): tic-tac-toe is a draw (test/fixtures/mnk/known-values.json, 3x3 K=3), so no first move
 *    wins, and none loses (an extra stone never hurts in an m,n,k-game: strategy stealing, ibid.).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { analyse, compareLines, parentScore } from '../../../src/search/analyse.js';
import { Searcher, type IterationInfo } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { WIN_SCORE, isProven } from '../../../src/search/score.js';
import { GAMES } from '../../../src/games/registry.js';
import { fixture, positionOf } from '../../games/othello/helpers.js';
import type { Endgame } from '../../games/othello/helpers.js';

const fresh = () => new Searcher(new TranspositionTable(4));
const othello = GAMES.othello;

t.test('othello: every line of a solved endgame carries its exact disc differential', async (t) => {
  const { positions } = fixture<{ positions: Endgame[] }>('endgames.json');
  for (const p of positions.filter((e) => e.empties <= 12)) {
    const pos = positionOf(p.board, p.turn);
    const progress: IterationInfo[] = [];
    const r = analyse(othello.engine, pos, fresh(), { multiPv: 32, onIteration: (i) => progress.push(i) });
    const name = (move: number) => othello.encodeMove(pos, move).notation;
    const expected = Object.entries(p.moveValues).sort((a, b) => b[1] - a[1]);
    t.same(
      r.lines.map((l) => l.exactScore),
      expected.map(([, v]) => v),
      `${p.id}: values best first`,
    );
    t.same(
      Object.fromEntries(r.lines.map((l) => [name(l.move), l.exactScore])),
      p.moveValues,
      `${p.id}: each move's own value`,
    );
    t.ok(r.lines.every((l) => l.exact && isProven(l.score) === (l.exactScore !== 0)), `${p.id}: every line proven`);
    t.same([r.exactScore, r.solved, r.stopReason], [p.exactScore, true, 'proven'], `${p.id}: the answer is line 1`);
    t.ok(p.bestMoves.includes(name(r.move)), `${p.id}: a best move`);
    t.ok(progress.length >= 1 && progress[progress.length - 1].lines.length === r.lines.length, `${p.id}: progress reported`);
  }
});

t.test('othello: a root filter with the solver keeps to the allowed moves', async (t) => {
  const { positions } = fixture<{ positions: Endgame[] }>('endgames.json');
  const e01 = positions.find((p) => p.id === 'e01')!;
  const pos = positionOf(e01.board, e01.turn);
  const code = (name: string) => {
    const decoded = othello.decodeMove(pos, name, 'move');
    if (!decoded.ok) throw new Error(decoded.error.message);
    return decoded.value;
  };
  // a1 (-30) is the best move but not allowed: b1 (-34) is, then h7 (-40).
  for (const multiPv of [1, 3]) {
    const r = analyse(othello.engine, pos, fresh(), { rootMoves: [code('h7'), code('b1')], multiPv });
    t.same(
      r.lines.map((l) => [othello.encodeMove(pos, l.move).notation, l.exactScore]),
      [
        ['b1', -34],
        ['h7', -40],
      ].slice(0, multiPv),
      `multiPv ${multiPv}`,
    );
    t.same([r.move, r.exactScore], [code('b1'), -34]);
  }
});

t.test('othello: no solver in reach: the generic search gives the lines', async (t) => {
  const state = othello.initialState({});
  if (!state.ok) throw new Error('no initial state');
  const decoded = othello.decodeState(state.value, undefined);
  if (!decoded.ok) throw new Error('bad state');
  const r = analyse(othello.engine, decoded.value, fresh(), { maxDepth: 4, multiPv: 3, deadline: Date.now() + 60_000 });
  t.same([r.lines.length, r.solved, r.depth, r.stopReason], [3, false, 4, 'depth']);
  t.ok(r.lines.every((l) => !l.exact && l.exactScore === undefined), 'heuristic lines');
});

t.test('hadron: per-line win or loss matches the first-move maps of small boards', async (t) => {
  const hadron = GAMES.hadron;
  const { results } = JSON.parse(readFileSync(new URL('../../fixtures/hadron/small-boards.json', import.meta.url), 'utf8')) as {
    results: { rows: number; cols: number; firstMoveMap: string[] }[];
  };
  for (const board of results.filter((b) => (b.rows === 3 && b.cols === 4) || (b.rows === 2 && b.cols === 5))) {
    const state = hadron.initialState({ rows: board.rows, cols: board.cols });
    if (!state.ok) throw new Error(state.error.message);
    const decoded = hadron.decodeState(state.value, undefined);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const pos = decoded.value;
    const r = analyse(hadron.engine, pos, fresh(), { multiPv: 32 });
    t.equal(r.lines.length, board.rows * board.cols, `${board.rows}x${board.cols}: a line per cell`);
    const map = r.lines.map((l) => {
      const move = hadron.encodeMove(pos, l.move) as unknown as { row: number; col: number };
      return [move.row, move.col, l.exact && isProven(l.score) ? (l.score > 0 ? 'W' : 'L') : '?'] as const;
    });
    const got = board.firstMoveMap.map((row, r) => [...row].map((_, c) => map.find(([mr, mc]) => mr === r && mc === c)![2]).join(''));
    t.same(got, board.firstMoveMap, `${board.rows}x${board.cols}: every opening's proven result`);
    t.ok(r.lines.every((l, i) => i === 0 || compareLines(r.lines[i - 1], l) <= 0), 'wins first');
  }
});

t.test('mnk: tic-tac-toe lines are proven, wins and draws included', async (t) => {
  const mnk = GAMES.mnk;
  const decode = (board: string[], turn: string) => {
    const d = mnk.decodeState({ m: 3, n: 3, k: 3, board, turn }, undefined);
    if (!d.ok) throw new Error(d.error.message);
    return d.value;
  };
  const empty = decode(['...', '...', '...'], 'X');
  const r = analyse(mnk.engine, empty, fresh(), { multiPv: 9 });
  t.equal(r.lines.length, 9);
  t.ok(r.lines.every((l) => l.exact && l.score === 0 && l.exactScore === 0), 'every opening draws, proven');

  // X X . / . O . / . . O, X to move: 0,2 wins at once; 2,0 makes two threats (0,2 and 1,0): a win in 3.
  const threat = decode(['XX.', '.O.', '..O'], 'X');
  const lines = analyse(mnk.engine, threat, fresh(), { multiPv: 5 }).lines;
  t.same(lines.slice(0, 2).map((l) => [l.move, l.score]), [
    [2, WIN_SCORE - 1],
    [6, WIN_SCORE - 3],
  ]);
  t.equal(lines.length, 5, 'every empty cell');
  t.ok(lines.every((l) => l.exact), 'all proven');
});

t.test('a child value seen from its parent', async (t) => {
  t.equal(parentScore(WIN_SCORE - 3), -(WIN_SCORE - 4), 'the opponent wins in 3: a loss in 4');
  t.equal(parentScore(-(WIN_SCORE - 2)), WIN_SCORE - 3, 'the opponent loses in 2: a win in 3');
  t.equal(parentScore(150), -150);
  t.ok(Object.is(parentScore(0), 0), 'a draw stays 0 (not -0)');
});

t.test('a node limit skips the solvers and stays deterministic', async (t) => {
  const { positions } = fixture<{ positions: Endgame[] }>('endgames.json');
  const e01 = positions.find((p) => p.id === 'e01')!;
  const run = () => analyse(othello.engine, positionOf(e01.board, e01.turn), fresh(), { nodeLimit: 3000, multiPv: 2 });
  const a = run();
  const b = run();
  t.same([a.nodes, a.lines], [b.nodes, b.lines]);
  t.equal(a.solved, false);
  t.ok(a.nodes < 3000 + 128, `within one poll of the limit: ${a.nodes}`);
});
