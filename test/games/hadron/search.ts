/**
 * Hadron under the generic search: deadlines are honoured (generous slack, no timing thresholds
 * beyond "returns long before a hang would"), answers are legal, and the seed profile scores what
 * the seed's README (shared/seeds/hadron-aenigma.md) describes.
 */
import t from 'tap';
import { engine } from '../../../src/games/hadron/index.js';
import { SEED_UNIT, SeedEvaluator } from '../../../src/games/hadron/seed-evaluation.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { type Vector, emptyBoard, fixture, legalMoves, positionOf } from '../../fixtures/hadron/boards.js';

/** Far above the deadlines used here, far below a hang. */
const SLACK_MS = 2_000;

t.test('a 50 ms deadline is honoured on the empty 9x9 board and mid-game', async (t) => {
  const searcher = new Searcher(new TranspositionTable(4));
  // vectors.json positions[0] (ply 29) and [2] (ply 17), copied into test/fixtures/hadron.
  const vectors = fixture<{ positions: Vector[] }>('vectors.json').positions;
  const boards = [emptyBoard(9, 9), positionOf(vectors[0].board, vectors[0].turn), positionOf(vectors[1].board, vectors[1].turn)];
  for (const board of boards) {
    const pos = engine.restore(engine.snapshot(board));
    const started = Date.now();
    const result = analyse(engine, pos, searcher, { deadline: started + 50 });
    const elapsed = Date.now() - started;
    t.ok(elapsed < SLACK_MS, `answered in ${elapsed} ms`);
    t.ok(legalMoves(pos).includes(result.move), 'a legal move');
    t.equal(pos.pieces, board.pieces, 'the position is left as it was');
  }
});

t.test('cancellation through shouldStop stops the solver and the search', async (t) => {
  const searcher = new Searcher(new TranspositionTable(4));
  // A late 9x9 position (vectors.json positions[0]) where the solver may try a proof.
  const v = fixture<{ positions: Vector[] }>('vectors.json').positions[0];
  const pos = engine.restore(engine.snapshot(positionOf(v.board, v.turn)));
  let polls = 0;
  const started = Date.now();
  const result = analyse(engine, pos, searcher, { deadline: started + 60_000, shouldStop: () => ++polls > 3 });
  t.ok(Date.now() - started < SLACK_MS, 'stopped long before the deadline');
  t.ok(legalMoves(pos).includes(result.move), 'still a legal move');
});

t.test('fixed-depth search from the empty board completes and the evaluation is deterministic', async (t) => {
  const pos = engine.restore(engine.snapshot(emptyBoard(9, 9)));
  const a = new Searcher(new TranspositionTable(4)).search(pos, { maxDepth: 2 });
  const b = new Searcher(new TranspositionTable(4)).search(engine.restore(engine.snapshot(pos)), { maxDepth: 2 });
  t.equal(a.depth, 2);
  t.equal(a.move, b.move, 'same best move');
  t.equal(a.nodes, b.nodes, 'same node count');
  t.ok(legalMoves(pos).includes(a.move));
});

t.test('analyse proves the loss of the side to move in a solved position', async (t) => {
  // 3x3 after W at the centre B2, Black to move: small-boards.json 3x3 firstMoveMap[1][1] = 'W'
  // (White's opening there wins), so Black is lost.
  const pos = engine.restore(engine.snapshot(positionOf(['...', '.W.', '...'], 'B')));
  const result = analyse(engine, pos, new Searcher(new TranspositionTable(1)), { deadline: Date.now() + 10_000 });
  t.ok(result.exact && result.score < 0, 'Black is proven lost');
});

t.test('seed profile: special moves, then 0.5 special + 0.5 parity below 10 moves, plus noise in [0, 1)', async (t) => {
  // Every vectors.json position (copied into test/fixtures/hadron), against an independent count.
  const vectors = fixture<{ positions: Vector[] }>('vectors.json').positions;
  const evaluator = new SeedEvaluator(1);
  let withSpecials = 0;
  let endgames = 0;
  for (const v of vectors) {
    if (v.terminal) continue;
    const pos = positionOf(v.board, v.turn);
    const special = handSpecials(v.board, pos.side);
    if (special !== 0) withSpecials++;
    const parity = v.moveCount % 2 === 1 ? 1 : -1;
    const base = v.moveCount >= 10 ? special : 0.5 * special + 0.5 * parity;
    if (v.moveCount < 10) endgames++;
    const value = evaluator.evaluate(pos) / SEED_UNIT;
    if (!(value >= base - 0.01 && value <= base + 1.01)) t.fail(`id ${v.id}: ${value} is not ${base} + noise`);
  }
  t.ok(withSpecials > 5, `positions with special moves were checked (${withSpecials})`);
  t.ok(endgames > 5, `endgame-phase positions were checked (${endgames})`);
  const opening = evaluator.evaluate(emptyBoard(9, 9)) / SEED_UNIT;
  t.ok(opening >= 0 && opening <= 1, 'empty board: noise only');
  const pos = positionOf(vectors[3].board, vectors[3].turn);
  t.equal(new SeedEvaluator(7).evaluate(pos), new SeedEvaluator(7).evaluate(pos), 'the noise is seeded');
});

/** The seed's weak special-move count, written out independently: White's minus Black's for `side`. */
function handSpecials(board: string[], side: number): number {
  const rows = board.length;
  const cols = board[0].length;
  const at = (r: number, c: number) => (r < 0 || c < 0 || r >= rows || c >= cols ? '#' : board[r][c]);
  const around = (r: number, c: number) => [
    [r - 1, c],
    [r + 1, c],
    [r, c - 1],
    [r, c + 1],
  ];
  const bal = (r: number, c: number) => around(r, c).reduce((s, [a, b]) => s + (at(a, b) === 'W' ? 1 : at(a, b) === 'B' ? -1 : 0), 0);
  let white = 0;
  let black = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (at(r, c) !== '.' || bal(r, c) !== 0) continue;
      for (const [pr, pc] of around(r, c)) {
        if (at(pr, pc) !== '.') continue;
        const b = bal(pr, pc);
        if (b !== 1 && b !== -1) continue;
        const closed = around(pr, pc).every(([a, d]) => (a === r && d === c) || at(a, d) !== '.');
        if (!closed) continue;
        if (b === 1) white++;
        else black++;
      }
    }
  }
  return side === 0 ? white - black : black - white;
}
