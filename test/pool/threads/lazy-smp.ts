/**
 * Lazy SMP outside the pool (src/pool/lazy-smp.ts: the Tablut client's and the arena's threads): one
 * thread is the plain search; with two, a helper thread joins each search on the shared table and
 * stops when the search returns. Depths, moves and counts only; no timing thresholds.
 */
import t from 'tap';
import { LazySmp } from '../../../src/pool/lazy-smp.js';
import { definition, engine } from '../../../src/games/tablut/index.js';
import type { TablutPosition } from '../../../src/games/tablut/position.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable, sharedTableBuffer } from '../../../src/search/tt.js';
import { legalMoveCodes } from '../../../src/http/game-service.js';

function start(): TablutPosition {
  const decoded = definition.decodeState(definition.exampleState, undefined);
  if (!decoded.ok) throw new Error('the example state does not decode');
  return decoded.value;
}

t.test('one thread: no helper, the same search (same move and node count) as analyse on a table of its own', async (t) => {
  const smp = new LazySmp(1, 4);
  await smp.whenReady();
  const alone = analyse(engine, start(), new Searcher(new TranspositionTable(4)), { maxDepth: 3 });
  const viaSmp = smp.analyse(engine, start(), { maxDepth: 3 });
  t.equal(viaSmp.move, alone.move);
  t.equal(viaSmp.nodes, alone.nodes, 'identical tree');
  t.equal(smp.helpersStarted(), 0);
  await smp.close();
  t.throws(() => new LazySmp(0, 4), RangeError);
});

t.test('two threads: the helper searches with the main search and stops when it returns', async (t) => {
  const smp = new LazySmp(2, 4);
  await smp.whenReady();
  const pos = start();
  const before = smp.searcher.tt.age;
  const result = smp.analyse(engine, pos, { maxDepth: 5 });
  t.equal(result.depth, 5);
  t.ok(legalMoveCodes(pos).includes(result.move), 'a legal move');
  t.equal(smp.searcher.tt.age, before + 1, 'the table lives on: one search older');
  t.equal(smp.helpersStarted(), 1, 'the helper thread joined the search');
  const until = Date.now() + 10_000;
  while (smp.helpersRunning() > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
  t.equal(smp.helpersRunning(), 0, 'and stopped after it');
  // A second search on the warm table: still a legal answer, the helper joins again.
  pos.makeMove(result.move);
  const next = smp.analyse(engine, pos, { maxDepth: 3 });
  t.ok(legalMoveCodes(pos).includes(next.move));
  await smp.close();
});

t.test('a view of a shared table takes another view\'s age', async (t) => {
  const buffer = sharedTableBuffer(1);
  const main = new TranspositionTable(0, buffer);
  for (let i = 0; i < 5; i++) main.newSearch();
  const helper = new TranspositionTable(0, buffer);
  t.not(helper.age, main.age);
  helper.followAge(main.age);
  main.newSearch();
  helper.newSearch();
  t.equal(helper.age, main.age, 'both age their entries alike');
});
