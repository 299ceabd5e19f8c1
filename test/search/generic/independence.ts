/**
 * A search must not depend on what the worker searched before (issue 23): one Searcher and one
 * Hadron solver per thread serve every game and board shape, so their tables must never match a
 * position of another game or shape, and per-shape ordering state must not leak across shapes.
 * Expected values come from the same search on fresh objects (no timing anywhere).
 */
import t from 'tap';
import { definition as mnk } from '../../../src/games/mnk/index.js';
import { definition as hadron } from '../../../src/games/hadron/index.js';
import { definition as othello } from '../../../src/games/othello/index.js';
import { definition as tablut } from '../../../src/games/tablut/index.js';
import { HadronSolver } from '../../../src/games/hadron/solver.js';
import type { GameDefinition, SearchPosition } from '../../../src/games/types.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable, keySalt } from '../../../src/search/tt.js';

function initial<P extends SearchPosition>(def: GameDefinition<P>, query: Record<string, unknown>): P {
  const state = def.initialState(query);
  if (!state.ok) throw new Error(state.error.message);
  const pos = def.decodeState(state.value, undefined);
  if (!pos.ok) throw new Error(pos.error.message);
  return def.engine.restore(def.engine.snapshot(pos.value));
}

const mnkShape = (m: number, n: number, k: number) => () => initial(mnk, { m, n, k });

t.test('an (m,n,k) search gives the fresh result after searches of other shapes', async (t) => {
  // Before the keys were salted, 3x4x3 then 3x3x3 "proved" tic-tac-toe a first-player win.
  const shapes: Array<[number, number, number]> = [[3, 3, 3], [3, 4, 3], [4, 3, 3], [4, 4, 3], [4, 4, 4], [2, 5, 2]];
  for (const before of shapes) {
    for (const after of shapes) {
      if (before === after) continue;
      const fresh = new Searcher(new TranspositionTable(4)).search(mnkShape(...after)(), { maxDepth: 7 });
      const searcher = new Searcher(new TranspositionTable(4));
      searcher.search(mnkShape(...before)(), { maxDepth: 7 });
      const used = searcher.search(mnkShape(...after)(), { maxDepth: 7 });
      const label = `${after.join('x')} after ${before.join('x')}`;
      t.equal(used.score, fresh.score, `${label}: score`);
      t.equal(used.move, fresh.move, `${label}: move`);
      t.equal(used.nodes, fresh.nodes, `${label}: nodes`);
    }
  }
});

t.test('a Hadron search gives the fresh result after searches of every other game', async (t) => {
  const target = () => initial(hadron, { rows: 4, cols: 4 });
  const fresh = new Searcher(new TranspositionTable(4)).search(target(), { maxDepth: 6 });
  const searcher = new Searcher(new TranspositionTable(4));
  searcher.search(initial(mnk, { m: 4, n: 4, k: 3 }), { maxDepth: 6 });
  searcher.search(initial(othello, {}), { maxDepth: 4 });
  searcher.search(initial(tablut, {}), { maxDepth: 2 });
  searcher.search(initial(hadron, { rows: 3, cols: 6 }), { maxDepth: 6 });
  searcher.search(initial(hadron, { rows: 4, cols: 5 }), { maxDepth: 6 });
  const used = searcher.search(target(), { maxDepth: 6 });
  t.equal(used.score, fresh.score, 'score');
  t.equal(used.move, fresh.move, 'move');
  t.ok(used.nodes <= 2 * fresh.nodes && fresh.nodes <= 2 * used.nodes, `nodes ${used.nodes} vs fresh ${fresh.nodes}`);
});

t.test('positions of different games and shapes get different key salts', async (t) => {
  const salts = [
    initial(mnk, { m: 3, n: 3, k: 3 }).keySalt,
    initial(mnk, { m: 3, n: 4, k: 3 }).keySalt,
    initial(mnk, { m: 4, n: 3, k: 3 }).keySalt,
    initial(mnk, { m: 4, n: 4, k: 3 }).keySalt,
    initial(mnk, { m: 4, n: 4, k: 4 }).keySalt,
    initial(hadron, { rows: 4, cols: 4 }).keySalt,
    initial(hadron, { rows: 3, cols: 6 }).keySalt,
    initial(hadron, { rows: 6, cols: 3 }).keySalt,
    initial(othello, {}).keySalt,
    initial(tablut, {}).keySalt,
  ];
  t.equal(new Set(salts).size, salts.length);
  t.equal(keySalt('hadron', 5, 5), initial(hadron, { rows: 5, cols: 5 }).keySalt, 'salt of a shape is stable');
});

function solveEmpty(solver: HadronSolver, rows: number, cols: number): { wins: boolean | null; nodes: number } {
  solver.load(rows, cols, new Uint8Array(rows * cols), 0);
  const wins = solver.solveLoaded({ nodeLimit: 2_000_000 });
  return { wins, nodes: solver.nodes };
}

t.test('the Hadron solver proves 5x5 as fast after a 3x6 proof as on a fresh solver', async (t) => {
  // Issue 23: the 3x6 history (cell numbers of another shape) made the 5x5 proof 3.5x longer.
  const fresh = solveEmpty(new HadronSolver(), 5, 5);
  t.equal(fresh.wins, true, '5x5: first player wins');
  const solver = new HadronSolver();
  t.equal(solveEmpty(solver, 3, 6).wins, true, '3x6: first player wins');
  const used = solveEmpty(solver, 5, 5);
  t.equal(used.wins, true, '5x5 after 3x6: first player wins');
  t.ok(used.nodes <= 1.5 * fresh.nodes, `nodes ${used.nodes} vs fresh ${fresh.nodes}`);
  // And back: the 3x6 proof after 5x5 is unchanged too.
  const back = solveEmpty(solver, 3, 6);
  t.equal(back.wins, true, '3x6 after 5x5');
});
