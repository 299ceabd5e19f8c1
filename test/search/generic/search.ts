import t from 'tap';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { perft } from '../../../src/search/perft.js';
import { WIN_SCORE, isProven, provenPlies } from '../../../src/search/score.js';
import { SubtractionGame } from '../../support/subtraction-game.js';
import { RandomTree } from '../../support/random-tree.js';

// Expected values: subtraction game 1..3 (see test/support/subtraction-game.ts): the mover loses iff
// heap % 4 == 0; a won game lasts 1 + 2*floor(heap/4) plies, a lost one heap/2 plies.
t.test('proves wins and losses with distance to the end', async (t) => {
  for (const heap of [2, 3, 4, 5, 8, 11, 13, 20]) {
    const searcher = new Searcher(new TranspositionTable(1));
    const r = searcher.search(new SubtractionGame(heap), { maxDepth: 64 });
    t.ok(r.exact, `heap ${heap}: exact`);
    t.ok(isProven(r.score), `heap ${heap}: proven`);
    if (heap % 4 === 0) {
      t.ok(r.score < 0, `heap ${heap}: loss`);
      t.equal(provenPlies(r.score), heap / 2, `heap ${heap}: plies to the end`);
    } else {
      t.ok(r.score > 0, `heap ${heap}: win`);
      t.equal(r.move, heap % 4, `heap ${heap}: leaves a multiple of 4`);
      t.equal(provenPlies(r.score), 1 + 2 * Math.floor(heap / 4), `heap ${heap}: plies to the end`);
    }
    t.equal(r.stopReason, 'proven');
    t.equal(r.pv[0], r.move, 'pv starts with the move');
  }
});

t.test('a fixed depth short of the end is heuristic, not proven', async (t) => {
  const searcher = new Searcher(new TranspositionTable(1));
  const r = searcher.search(new SubtractionGame(40, 7), { maxDepth: 4 });
  t.equal(r.exact, false);
  t.equal(r.depth, 4);
  t.equal(r.stopReason, 'depth');
  t.equal(r.score, 7, 'even depth: the evaluation of the side to move at the root');
});

t.test('same request, same answer and node count (fresh table)', async (t) => {
  const run = () => new Searcher(new TranspositionTable(1)).search(new SubtractionGame(37, 3), { maxDepth: 9, seed: 5 });
  const a = run();
  const b = run();
  t.same([a.move, a.score, a.nodes, a.pv], [b.move, b.score, b.nodes, b.pv]);
});

t.test('a position with no move is a loss with no move to play', async (t) => {
  const r = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(0), {});
  t.equal(r.move, -1);
  t.equal(r.score, -WIN_SCORE);
  t.ok(r.exact);
});

t.test('an only move is reported as such', async (t) => {
  const r = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(1), { maxDepth: 5 });
  t.equal(r.move, 1);
  t.equal(r.stopReason, 'onlyMove');
});

t.test('stops at an expired deadline but still gives a legal move', async (t) => {
  const r = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(400, 1), { deadline: Date.now() - 1 });
  t.ok([1, 2, 3].includes(r.move), 'a legal move');
  t.equal(r.stopReason, 'time');
});

t.test('a cancel flag stops the search and says so', async (t) => {
  const r = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(400, 1), { shouldStop: () => true, maxDepth: 60 });
  t.equal(r.stopReason, 'cancelled');
  t.ok([1, 2, 3].includes(r.move));
});

t.test('perft counts move sequences', async (t) => {
  // Heap 4, two plies: taking 1, 2 or 3 leaves 3, 2 or 1 tokens, so 3 + 2 + 1 = 6 sequences.
  t.equal(perft(new SubtractionGame(4), 2), 6);
  // Heap 2 depth 3: 1-1 (then empty: finished game) counts 0; with countFinishedGames it counts 1 each.
  t.equal(perft(new SubtractionGame(2), 3), 0);
  t.equal(perft(new SubtractionGame(2), 3, true), 2);
  t.equal(perft(new SubtractionGame(5), 0), 1);
});

// Expected values: the same search with the root's full window (test/support/random-tree.ts: plain alpha-beta, one
// minimax value a depth whatever the window). A window of one point fails high or low at nearly every iteration.
t.test('an aspiration window searches again until the score lies inside it, and finds the full window\'s value', async (t) => {
  let researched = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const full = new Searcher(new TranspositionTable(1)).search(new RandomTree(seed, 5, 200_000, undefined), { maxDepth: 6 });
    for (const delta of [1, 3000, 400_000]) {
      const searcher = new Searcher(new TranspositionTable(1));
      const r = searcher.search(new RandomTree(seed, 5, 200_000, delta), { maxDepth: 6 });
      t.equal(r.score, full.score, `seed ${seed}, window ${delta}: the full window's score`);
      t.equal(r.move, full.move, `seed ${seed}, window ${delta}: the full window's move`);
      t.equal(r.pv[0], r.move, 'the line starts with the move');
      if (delta === 400_000) t.equal(searcher.aspirationResearches, 0, 'a window wider than the evaluation never fails');
      else researched += searcher.aspirationResearches;
      if (delta === 1) t.ok(searcher.aspirationResearches >= 2, `seed ${seed}: a one-point window is searched again each iteration from depth 5`);
    }
  }
  t.ok(researched > 12, `searched again ${researched} times`);
});

t.test('an aspiration window stopped by the deadline still answers a legal move', async (t) => {
  const r = new Searcher(new TranspositionTable(1)).search(new RandomTree(9, 6, 200_000, 1), { deadline: Date.now() + 30 });
  t.ok(r.move >= 0 && r.move < 6, `move ${r.move}`);
  t.equal(r.stopReason, 'time');
});
