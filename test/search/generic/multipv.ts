/**
 * Multi-PV, root move filters, node limits and the per-iteration hook of the generic search.
 *
 * Expected values: the subtraction game's theory (test/support/subtraction-game.ts: the mover loses
 * iff heap % 4 == 0; a won game lasts 1 + 2*floor(heap/4) plies, a lost one heap/2 plies), and,
 * on the real games, the search's own single-line answers: at depth 3 no node is reduced (late-move
 * reductions start at a remaining depth of 3, i.e. below the root's children only from depth 4) and
 * no position recurs at another depth within three plies (every move of these games adds a stone or
 * moves a piece for good), so every root move's depth-3 value is the minimax value of its tree,
 * whatever the order and table contents. Deeper, alpha-beta with reductions is path-dependent and
 * lines may differ by a little from separate searches, as in every such engine.
 */
import t from 'tap';
import { MAX_MULTI_PV, Searcher, rootMoveList, type IterationInfo, type SearchLimits } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { WIN_SCORE } from '../../../src/search/score.js';
import { GAMES } from '../../../src/games/registry.js';
import type { GameDefinition, SearchPosition } from '../../../src/games/types.js';
import { SubtractionGame } from '../../support/subtraction-game.js';
import { useSelectiveSearch } from '../../../src/games/mnk/pattern-search.js';

const fresh = () => new Searcher(new TranspositionTable(4));

function positionAfter(def: GameDefinition<SearchPosition>, query: Record<string, unknown>, moves: readonly string[]): SearchPosition {
  const initial = def.initialState(query);
  if (!initial.ok) throw new Error(initial.error.message);
  const decoded = def.decodeState(initial.value, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const pos = decoded.value;
  for (const m of moves) {
    const code = def.decodeMove(pos, m, 'move');
    if (!code.ok) throw new Error(code.error.message);
    pos.makeMove(code.value);
  }
  return pos;
}

/** A middle-game position per game (the bench's openings). */
const POSITIONS: ReadonlyArray<{ game: 'othello' | 'tablut' | 'mnk' | 'hadron'; query: Record<string, unknown>; moves: string[] }> = [
  { game: 'othello', query: {}, moves: ['f5', 'd6', 'c3', 'd3', 'c4'] },
  { game: 'tablut', query: {}, moves: ['g5-g2', 'e8-b8', 'f5-g5', 'b5-b3'] },
  // Five in a row with its selective search off: its pruning depends on the window (docs/analysis.md); four in a row.
  { game: 'mnk', query: { m: 15, n: 15, k: 5 }, moves: ['7,7', '8,8', '7,8'] },
  { game: 'mnk', query: { m: 15, n: 15, k: 4 }, moves: ['7,7', '8,8', '7,8'] },
  { game: 'hadron', query: { rows: 7, cols: 7 }, moves: ['D4', 'C3'] },
];

t.test('subtraction game: every line exact, best first, with its own distance', async (t) => {
  // Heap 10: taking 2 leaves 8 (a lost heap for the opponent: win in 1 + 8/2 = 5 plies); taking 1
  // leaves 9 (the opponent wins in 1 + 2*2 = 5, so a loss in 6); taking 3 leaves 7 (loss in 1 + 3 = 4).
  const r = fresh().search(new SubtractionGame(10), { maxDepth: 64, multiPv: 3 });
  t.same(
    r.lines.map((l) => [l.move, l.score, l.exact]),
    [
      [2, WIN_SCORE - 5, true],
      [1, -(WIN_SCORE - 6), true],
      [3, -(WIN_SCORE - 4), true],
    ],
  );
  t.same([r.move, r.score, r.exact, r.stopReason], [2, WIN_SCORE - 5, true, 'proven'], 'lines[0] is the answer');
  for (const line of r.lines) t.equal(line.pv[0], line.move, 'each pv starts with its move');
});

t.test('multiPv above the number of moves gives every move once', async (t) => {
  const r = fresh().search(new SubtractionGame(30, 2), { maxDepth: 4, multiPv: 32 });
  t.same(r.lines.map((l) => l.move).sort(), [1, 2, 3]);
});

t.test('multiPv 1 and no filter is the plain search, node for node', async (t) => {
  const def = GAMES.tablut;
  const plain = fresh().search(positionAfter(def, {}, POSITIONS[1].moves), { maxDepth: 4 });
  const one = fresh().search(positionAfter(def, {}, POSITIONS[1].moves), { maxDepth: 4, multiPv: 1 });
  t.same([one.move, one.score, one.nodes, one.pv], [plain.move, plain.score, plain.nodes, plain.pv]);
  t.same(one.lines, [{ move: plain.move, score: plain.score, pv: plain.pv, exact: plain.exact }]);
});

for (const { game, query, moves } of POSITIONS) {
  t.test(`${game} ${JSON.stringify(query)}: at depth 3, line 1 is the plain search and each line is its move's own search`, async (t) => {
    useSelectiveSearch(false);
    t.teardown(() => useSelectiveSearch(true));
    const def = GAMES[game];
    const depth = 3;
    const r = fresh().search(positionAfter(def, query, moves), { maxDepth: depth, multiPv: 4 });
    const plain = fresh().search(positionAfter(def, query, moves), { maxDepth: depth });
    t.equal(r.lines.length, 4);
    t.equal(r.depth, depth);
    t.equal(r.lines[0].score, plain.score, 'line 1 has the plain search score');
    t.ok(
      r.lines.some((l) => l.move === plain.move && l.score === plain.score),
      'the plain search move is among the lines with that score (equal moves may be listed in another order)',
    );
    for (let i = 1; i < r.lines.length; i++) t.ok(r.lines[i - 1].score >= r.lines[i].score, 'sorted best first');
    for (const line of r.lines) {
      const alone = fresh().search(positionAfter(def, query, moves), { maxDepth: depth, rootMoves: [line.move] });
      const name = def.encodeMove(positionAfter(def, query, moves), line.move).notation;
      t.same([alone.move, alone.score, alone.depth], [line.move, line.score, depth], `${name}: same score searched alone`);
    }
  });
}

t.test('root filter: only the given legal moves, each once, searched to the full depth', async (t) => {
  const def = GAMES.othello;
  const pos = positionAfter(def, {}, POSITIONS[0].moves);
  const legal = rootMoveList(pos, 64);
  const chosen = [legal[3], legal[1], legal[3], 999];
  t.same(rootMoveList(pos, 1, chosen), [legal[3], legal[1]], 'duplicates and illegal codes dropped, order kept');
  const r = fresh().search(pos, { maxDepth: 5, rootMoves: chosen, multiPv: 8 });
  t.same(r.lines.map((l) => l.move).sort((a, b) => a - b), [legal[1], legal[3]].sort((a, b) => a - b));
  const single = fresh().search(pos, { maxDepth: 5, rootMoves: [legal[2]] });
  t.same([single.move, single.depth, single.stopReason], [legal[2], 5, 'depth'], 'one allowed move is still searched, not an only move');
  const none = fresh().search(pos, { maxDepth: 5, rootMoves: [999] });
  t.same([none.move, none.lines], [-1, []], 'no legal move left: no answer');
});

t.test('a game that narrows its root list still shows the lines asked for', async (t) => {
  // X to move with X X . on the top row: the search's own list is the winning cell alone
  // (src/games/mnk/moves.ts); multiPv 3 tops it up with other legal cells.
  const def = GAMES.mnk;
  const decoded = def.decodeState({ m: 3, n: 3, k: 3, board: ['XX.', '.O.', '..O'], turn: 'X' }, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const pos = decoded.value;
  const plain = fresh().search(pos, { maxDepth: 4 });
  t.same([plain.move, plain.stopReason], [2, 'onlyMove'], 'one move: the win at 0,2');
  const r = fresh().search(pos, { maxDepth: 4, multiPv: 3 });
  t.equal(r.lines.length, 3);
  t.same([r.lines[0].move, r.lines[0].score], [2, WIN_SCORE - 1], 'the win first');
  t.equal(new Set(r.lines.map((l) => l.move)).size, 3, 'three different cells');
  t.equal(rootMoveList(pos, 32).length, 5, 'multiPv above the legal moves: every empty cell');
});

t.test('node limits are deterministic', async (t) => {
  const def = GAMES.tablut;
  for (const extra of [{}, { multiPv: 3 }] as SearchLimits[]) {
    const run = () => fresh().search(positionAfter(def, {}, POSITIONS[1].moves), { nodeLimit: 5000, seed: 3, ...extra });
    const a = run();
    const b = run();
    t.same([a.nodes, a.move, a.score, a.depth, a.lines], [b.nodes, b.move, b.score, b.depth, b.lines], `same answer ${JSON.stringify(extra)}`);
    // The limit is polled every 128 nodes.
    t.ok(a.nodes >= 5000 && a.nodes < 5000 + 128, `stops within one poll of the limit: ${a.nodes}`);
    t.equal(a.stopReason, 'time');
  }
});

t.test('onIteration: once per completed iteration, deepening, the last one is the answer', async (t) => {
  const def = GAMES.othello;
  for (const multiPv of [1, 3]) {
    const seen: IterationInfo[] = [];
    const r = fresh().search(positionAfter(def, {}, POSITIONS[0].moves), { maxDepth: 5, multiPv, onIteration: (i) => seen.push(i) });
    t.same(seen.map((i) => i.depth), [1, 2, 3, 4, 5], `multiPv ${multiPv}: depths`);
    t.ok(seen.every((i, k) => k === 0 || i.nodes > seen[k - 1].nodes), 'nodes grow');
    t.ok(seen.every((i) => i.lines.length === multiPv), 'as many lines as asked for');
    t.same(seen[4].lines, r.lines, 'the last iteration is the answer');
    t.equal(seen[4].nodes, r.nodes);
  }
});

t.test('an interrupted multi-PV iteration keeps the last completed lines', async (t) => {
  const def = GAMES.othello;
  const full = fresh().search(positionAfter(def, {}, POSITIONS[0].moves), { maxDepth: 4, multiPv: 3 });
  let iterations = 0;
  let polls = 0;
  const r = fresh().search(positionAfter(def, {}, POSITIONS[0].moves), {
    multiPv: 3,
    onIteration: () => iterations++,
    // Cancel after the fourth iteration, inside the fifth.
    shouldStop: () => iterations >= 4 && ++polls > 1,
  });
  t.equal(r.stopReason, 'cancelled');
  t.equal(r.depth, 4);
  t.same(r.lines, full.lines, 'the depth-4 lines');
  t.ok(MAX_MULTI_PV >= 32, 'the HTTP maximum fits');
});

t.test('a second search on the same table keeps whole principal variations (no table cutoff at PV nodes)', async (t) => {
  // Found in the playground: the second analysis of a position on a warm worker answered lines of one move, the
  // table's exact entries from the first search having ended each line at the root's children.
  for (const { game, query, moves } of POSITIONS) {
    const def = GAMES[game];
    const searcher = fresh();
    const first = searcher.search(positionAfter(def, query, moves), { maxDepth: 4, multiPv: 3 });
    const again = searcher.search(positionAfter(def, query, moves), { maxDepth: 4, multiPv: 3 });
    t.ok(first.lines.every((l) => l.pv.length >= 4), `${game}: the first search's lines reach depth 4`);
    t.same(again.lines.map((l) => l.pv.length >= 4), [true, true, true], `${game}: so do the second's: ${again.lines.map((l) => l.pv.length).join(' ')}`);
  }
});
