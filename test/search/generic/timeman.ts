import t from 'tap';
import {
  DEFAULT_BRANCHING,
  FIRST_MOVE_SHARE,
  MAX_GROWTH,
  MIN_GROWTH,
  type IterationRecord,
  IterationClock,
  decideNextIteration,
  effectiveBranching,
  instability,
  predictNextMs,
  predictedGrowth,
} from '../../../src/search/timeman.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { TrapGame } from '../../support/trap-game.js';
import { SubtractionGame } from '../../support/subtraction-game.js';

/** Iterations with node counts growing by `growth`, 1 ms per 1000 nodes, the same best move and score. */
function history(count: number, growth: number, bestMove = 7, score = 30): IterationRecord[] {
  const out: IterationRecord[] = [];
  let nodes = 1000;
  for (let depth = 1; depth <= count; depth++) {
    out.push({ depth, ms: nodes / 1000, nodes, bestMove, score });
    nodes *= growth;
  }
  return out;
}

function spent(iterations: readonly IterationRecord[], before = 0): number {
  return before + iterations.reduce((acc, it) => acc + it.ms, 0);
}

t.test('the next iteration is predicted from the growth of the node counts', async (t) => {
  const steady = history(5, 3);
  t.equal(predictedGrowth(steady), 3);
  t.equal(predictNextMs(steady), 81 * 3, 'last iteration 81 ms, growth 3');
  t.equal(effectiveBranching(steady), 3);
  // Odd-even effect: 1k, 5k, 10k, 50k, 100k: the next (even) one grows like the last even one did.
  const uneven: IterationRecord[] = [1, 5, 10, 50, 100].map((k, i) => ({ depth: i + 1, ms: k, nodes: k * 1000, bestMove: 1, score: 0 }));
  t.equal(predictedGrowth(uneven), 5, 'nodes(6) = nodes(4) * nodes(5) / nodes(3) = 500k');
  t.equal(predictedGrowth(history(1, 3)), DEFAULT_BRANCHING, 'one iteration: the default');
  t.equal(predictedGrowth(history(2, 4)), 4, 'two iterations: their ratio');
  t.equal(predictedGrowth(history(4, 1)), MIN_GROWTH, 'a warm table makes iterations look free: clamped');
  t.equal(predictedGrowth(history(4, 100)), MAX_GROWTH);
  // Time per node from the totals: a last iteration that was slow per node still counts in full.
  const slow: IterationRecord[] = [...history(3, 3), { depth: 4, ms: 100, nodes: 27_000, bestMove: 7, score: 30 }];
  t.equal(predictNextMs(slow), 300, 'at least the last iteration time the growth');
});

t.test('instability: best-move changes and score drops in the last iterations', async (t) => {
  t.equal(instability(history(6, 3)), 0, 'same move, same score');
  const changed = history(6, 3).map((it) => (it.depth === 6 ? { ...it, bestMove: 8 } : it));
  t.equal(instability(changed), 1, 'changed in the last iteration');
  const changedBefore = history(6, 3).map((it) => (it.depth >= 5 ? { ...it, bestMove: 8 } : it));
  t.equal(instability(changedBefore), 0.5, 'changed one iteration earlier');
  const dropped = history(6, 3).map((it) => (it.depth === 6 ? { ...it, score: -40 } : it));
  t.equal(instability(dropped), 1, 'score fell by 70');
  const rose = history(6, 3).map((it) => (it.depth === 6 ? { ...it, score: 200 } : it));
  t.equal(instability(rose), 0, 'a rising score is no alarm');
  const shallow = history(2, 3).map((it) => (it.depth === 2 ? { ...it, bestMove: 8 } : it));
  t.equal(instability(shallow), 0.5, 'depth 2 against depth 1 counts half');
});

t.test('stable best move: deepen while the next iteration can finish', async (t) => {
  const its = history(6, 3); // last iteration 243 ms, next predicted 729 ms, spent 364 ms
  const fits = decideNextIteration({ budgetMs: 1200, spentMs: spent(its), iterations: its, partialUseful: true });
  t.same([fits.next, fits.reason], [true, 'fits']);
  t.equal(fits.predictedMs, 729);
  // 1000 - 364 = 636 ms left: the next cannot finish, but the previous best can be searched to depth 7.
  const partial = decideNextIteration({ budgetMs: 1000, spentMs: spent(its), iterations: its, partialUseful: true });
  t.same([partial.next, partial.reason], [true, 'partial']);
  // Less than FIRST_MOVE_SHARE of the next iteration left: stop early.
  const budget = spent(its) + 729 * FIRST_MOVE_SHARE - 1;
  const stop = decideNextIteration({ budgetMs: budget, spentMs: spent(its), iterations: its, partialUseful: true });
  t.same([stop.next, stop.reason], [false, 'cannotFinish']);
});

t.test('queue wait counts: the same history with less of the budget left stops', async (t) => {
  const its = history(6, 3);
  const fresh = decideNextIteration({ budgetMs: 1200, spentMs: spent(its), iterations: its, partialUseful: true });
  const queued = decideNextIteration({ budgetMs: 1200, spentMs: spent(its, 700), beforeSearchMs: 700, iterations: its, partialUseful: true });
  t.equal(fresh.next, true);
  t.equal(queued.next, false, '136 ms left for a 729 ms iteration');
  t.equal(queued.remainingMs, 1200 - 700 - spent(its));
});

t.test('best move changed or score fell: use the rest of the budget', async (t) => {
  const base = history(6, 3);
  const budget = spent(base) + 729 * FIRST_MOVE_SHARE - 1; // a stable search stops here (see above)
  const changed = base.map((it) => (it.depth === 6 ? { ...it, bestMove: 9 } : it));
  const dropped = base.map((it) => (it.depth === 6 ? { ...it, score: -100 } : it));
  for (const [name, its] of [['changed', changed], ['dropped', dropped]] as const) {
    const d = decideNextIteration({ budgetMs: budget, spentMs: spent(its), iterations: its, partialUseful: true });
    t.same([d.next, d.reason], [true, 'unstable'], name);
  }
  const none = decideNextIteration({ budgetMs: spent(changed), spentMs: spent(changed), iterations: changed, partialUseful: true });
  t.same([none.next, none.reason], [false, 'noTime'], 'but not past the deadline');
});

t.test('a multi-line search starts only iterations that can finish (an unfinished one is discarded)', async (t) => {
  const its = history(6, 3).map((it) => (it.depth === 6 ? { ...it, bestMove: 9 } : it));
  const d = decideNextIteration({ budgetMs: 1000, spentMs: spent(its), iterations: its, partialUseful: false });
  t.same([d.next, d.reason], [false, 'cannotFinish']);
  const fits = decideNextIteration({ budgetMs: 2000, spentMs: spent(its), iterations: its, partialUseful: false });
  t.equal(fits.next, true);
});

t.test('legacy policy: stop once the search time plus the last iteration passes 55% of its time', async (t) => {
  const its = history(5, 3); // spent 121 ms, last 81 ms: 202 ms
  const go = decideNextIteration({ budgetMs: 400, spentMs: spent(its), iterations: its, partialUseful: true, policy: 'legacy' });
  t.same([go.next, go.reason], [true, 'legacyContinue'], '202 <= 220');
  const stop = decideNextIteration({ budgetMs: 360, spentMs: spent(its), iterations: its, partialUseful: true, policy: 'legacy' });
  t.same([stop.next, stop.reason], [false, 'legacyStop'], '202 > 198');
  const adaptive = decideNextIteration({ budgetMs: 360, spentMs: spent(its), iterations: its, partialUseful: true });
  t.equal(adaptive.next, true, 'the adaptive rule goes on: 243 ms predicted, 239 ms left, partial allowed');
});

t.test('IterationClock keeps per-iteration times and nodes from the running totals', async (t) => {
  const clock = new IterationClock(1000, 1100, 2100, 'adaptive', true);
  const first = clock.completed(1, 100, 5, 0, 1102);
  t.equal(first.remainingMs, 998);
  const second = clock.completed(2, 400, 5, 0, 1108);
  t.equal(second.predictedMs, 6 * 3, 'last 300 nodes in 6 ms, growth 3');
  t.equal(second.reason, 'fits');
});

t.test('search: an interrupted iteration plays a root move proven better than the previous best', async (t) => {
  // Depth 5 prefers root move 0; depth 6 finds it loses and proves move 1 better, then searches move 2.
  const probe = (limit?: number) => {
    const game = new TrapGame(12, 6);
    const searcher = new Searcher(new TranspositionTable(1));
    const marks = { endOf5: -1, move1At6: -1, move2At6: -1 };
    let depthNow = 1;
    game.onMove = (plies, move) => {
      if (plies === 1 && depthNow === 6 && move === 1) marks.move1At6 = searcher.nodes;
      if (plies === 1 && depthNow === 6 && move === 2) marks.move2At6 = searcher.nodes;
    };
    const result = searcher.search(game, {
      maxDepth: 6,
      ...(limit === undefined ? {} : { nodeLimit: limit }),
      onIteration: (info) => {
        if (info.depth === 5) marks.endOf5 = info.nodes;
        depthNow = info.depth + 1;
      },
    });
    return { result, marks };
  };
  const full = probe();
  t.equal(full.result.move, 1, 'depth 6 plays move 1');
  t.equal(full.result.depth, 6);
  t.equal(new Searcher(new TranspositionTable(1)).search(new TrapGame(12, 6), { maxDepth: 5 }).move, 0, 'depth 5 plays move 0');
  t.ok(full.marks.move1At6 > full.marks.endOf5 && full.marks.move2At6 > full.marks.move1At6, 'iteration 6 searches 0, 1, then 2');

  // Stopped while iteration 6 searches move 2: move 1 was proven better than move 0 with the full window.
  const late = probe(full.marks.move2At6 + 1);
  t.equal(late.result.depth, 5, 'iteration 6 did not finish');
  t.equal(late.result.stopReason, 'time');
  t.equal(late.result.move, 1, 'the partial iteration still plays move 1');
  t.equal(late.result.score, 10);
  t.equal(late.result.pv[0], 1);

  // Stopped while iteration 6 still searches move 0: nothing proven yet, the depth-5 move stays.
  const early = probe(full.marks.endOf5 + 1);
  t.equal(early.result.depth, 5);
  t.equal(early.result.move, 0, 'no better move proven: the previous best');
});

t.test('forced and trivial moves answer at once, whatever the budget', async (t) => {
  const deadline = Date.now() + 60_000;
  const only = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(1), { deadline });
  t.same([only.stopReason, only.depth], ['onlyMove', 1]);
  const proven = new Searcher(new TranspositionTable(1)).search(new SubtractionGame(5), { deadline });
  t.equal(proven.stopReason, 'proven');
  t.equal(proven.move, 1);
});

t.test('a fixed-depth search ignores the time manager (same nodes with a far deadline or none)', async (t) => {
  const plain = new Searcher(new TranspositionTable(1)).search(new TrapGame(8, 5), { maxDepth: 6 });
  const timed = new Searcher(new TranspositionTable(1)).search(new TrapGame(8, 5), { maxDepth: 6, deadline: Date.now() + 600_000 });
  t.same([timed.nodes, timed.move, timed.depth], [plain.nodes, plain.move, plain.depth]);
  t.equal(timed.stopReason, 'depth');
});
