/**
 * The K = 5 pattern path's selective search (search.ts, PATTERN_SELECTIVE_SEARCH): which positions get
 * it, where the static evaluation may prune (quietForPruning), and what the single-reply extension buys:
 * a forced win proven a ply earlier than by the full-width search, in fewer nodes.
 */
import t from 'tap';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { WINDOW_PROFILE } from '../../../src/games/mnk/profile.js';
import { PATTERN_SELECTIVE_SEARCH, useSelectiveSearch } from '../../../src/games/mnk/pattern-search.js';
import { Searcher, logReduction } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { NOT_TERMINAL, WIN_SCORE, isProven } from '../../../src/search/score.js';
import { TACTICS, emptyPosition as empty, positionOf } from '../../fixtures/mnk/boards.js';

t.test('selective search: the K = 5 pattern path on boards of more than 30 cells only', async (t) => {
  t.equal(empty(15, 15, 5).selectiveSearch, PATTERN_SELECTIVE_SEARCH, '15x15, five in a row');
  t.equal(empty(20, 20, 5).selectiveSearch, PATTERN_SELECTIVE_SEARCH, '20x20 freestyle');
  t.equal(empty(15, 15, 4).selectiveSearch, null, 'K = 4: no pattern board');
  t.equal(empty(5, 5, 5).selectiveSearch, null, '25 cells: the window lists prove results there');
  const window = new MnkPosition(15, 15, 5, new Uint8Array(225), 0, WINDOW_PROFILE);
  t.equal(window.selectiveSearch, null, 'the window profile (the engine before the pattern path)');
});

t.test('quietForPruning: not under an open three or a four of the opponent, not in the last 20 empties', async (t) => {
  const pos = empty(15, 15, 5);
  t.equal(pos.quietForPruning(), true, 'the empty board');
  // X: 7,6 7,7 7,8 (an open three); O: 0,0 0,14; O to move faces a winning-four cell of X.
  for (const cell of [7 * 15 + 6, 0, 7 * 15 + 7, 14, 7 * 15 + 8]) pos.makeMove(cell);
  t.equal(pos.side, 1);
  t.equal(pos.quietForPruning(), false, 'O to move against an open three');
  pos.makeMove(7 * 15 + 5); // O blocks one end: X's three is closed
  t.equal(pos.quietForPruning(), true, 'X to move, O has no threat');
  pos.makeMove(7 * 15 + 9); // X makes a four (O must block at 7,10)
  t.equal(pos.quietForPruning(), false, 'O to move against a four');

  // 6x6 (36 cells), rows XXOOXX / OOXXOO / XXOO..: no line of five; 14 stones leave 22 empties, 16 leave 20.
  const rows = ['XXOOXX', 'OOXXOO', 'XXOO..'];
  const x: number[] = [];
  const o: number[] = [];
  rows.forEach((row, r) => [...row].forEach((ch, c) => (ch === 'X' ? x : ch === 'O' ? o : []).push(r * 6 + c)));
  const small = empty(6, 6, 5);
  t.equal(small.selectiveSearch, PATTERN_SELECTIVE_SEARCH);
  for (let i = 0; i < 7; i++) {
    small.makeMove(x[i]);
    small.makeMove(o[i]);
  }
  t.equal(small.terminal(), NOT_TERMINAL);
  t.equal(small.quietForPruning(), true, '22 empties');
  small.makeMove(x[7]);
  small.makeMove(o[7]);
  t.equal(small.terminal(), NOT_TERMINAL);
  t.equal(small.quietForPruning(), false, '20 empties: the full-width lists');
});

t.test('single-reply extension: a forced win in 5 plies proven at depth 4, full width at depth 5', async (t) => {
  // test/fixtures/mnk/tactics.json, 15x15k5-win5-1 (O to move; its only winning move 8,6, a four then a
  // double threat: verified there by full-width brute force). The forced block of the four costs no ply.
  const board = TACTICS.find((p) => p.id === '15x15k5-win5-1')!.board;
  const provenAt = (selective: boolean): { depth: number; nodes: number; move: number; score: number } => {
    useSelectiveSearch(selective);
    try {
      for (let depth = 1; ; depth++) {
        const pos = positionOf(board, 5, 'O');
        t.equal(pos.selectiveSearch, selective ? PATTERN_SELECTIVE_SEARCH : null);
        const r = new Searcher(new TranspositionTable(16)).search(pos, { maxDepth: depth });
        if (isProven(r.score) || depth === 8) return { depth, nodes: r.nodes, move: r.move, score: r.score };
      }
    } finally {
      useSelectiveSearch(true);
    }
  };
  const sel = provenAt(true);
  const full = provenAt(false);
  t.same([sel.move, sel.score, sel.depth], [8 * 15 + 6, WIN_SCORE - 5, 4], 'selective: 8,6 wins in 5 plies, proven at depth 4');
  t.same([full.move, full.score, full.depth], [8 * 15 + 6, WIN_SCORE - 5, 5], 'full width: the same win at depth 5');
  t.ok(sel.nodes < full.nodes, `fewer nodes (${sel.nodes} against ${full.nodes})`);
});

t.test('logReduction: ln(depth) x ln(move number) plies, rounded, less for tactical moves and at PV nodes', async (t) => {
  // Hand-computed: depth 12, the tenth move (index 9): ln 12 x ln 10 = 5.72 -> 6 plies; not improving 7;
  // the second move (index 1) at depth 12: ln 12 x ln 2 = 1.72 -> 2 (3 not improving).
  const rows: [depth: number, index: number, pv: boolean, improving: boolean, tactical: boolean, expected: number][] = [
    [12, 9, false, true, false, 6],
    [12, 9, false, false, false, 7],
    [12, 9, false, false, true, 6],
    [12, 9, true, false, true, 5],
    [12, 1, false, true, false, 2],
    [12, 1, false, false, false, 3],
    [3, 20, false, false, false, 1], // ln 3 x ln 21 = 3.34 -> 3, 4 not improving, capped: the child keeps one ply
    [2, 5, false, true, false, 0], // capped at depth - 2
    [1, 30, false, false, false, 0],
    [6, 1, true, true, true, 0], // ln 6 x ln 2 = 1.24 -> 1, less 2: never negative
    [100, 200, false, true, false, 17], // beyond the table: ln 63 x ln 63 = 17.2 -> 17
    [8, 1, false, true, false, 2], // ln 8 x ln 2 = 1.44: a quarter ply first (1.5), then a ply (2)
  ];
  for (const [depth, index, pv, improving, tactical, expected] of rows) {
    const row = `depth ${depth}, index ${index}, pv ${pv}, improving ${improving}, tactical ${tactical}`;
    t.equal(logReduction(depth, index, 1, pv, improving, tactical), expected, row);
  }
  t.equal(logReduction(12, 9, 0, true, false, true), 7, 'relief 0: tactical moves and PV nodes reduced as the rest');
});
