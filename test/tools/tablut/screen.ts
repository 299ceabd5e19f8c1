import t from 'tap';
import { describeStats } from '../../../tools/arena.js';
import { baselineLimits, screen, weightsFromJson } from '../../../tools/tablut-screen.js';
import { DEFAULT_WEIGHTS } from '../../../src/games/tablut/evaluation.js';

t.test('tablut screen: fixed-depth games are deterministic, so weight sets compare on the same openings', async (t) => {
  const options = { weights: {}, colour: 'WHITE' as const, depth: 2, ms: undefined, games: 3, seeds: [5, 6] };
  const first = screen(options);
  t.equal(first.points.length, 2, 'one total per opening seed');
  t.same(screen(options), first, 'the same weights replay the same games (and searches)');
  for (const points of first.points) t.ok(points >= 0 && points <= 3, `points within 0..3 (${points})`);
  // Every heuristic search stops at the fixed depth, so the mean depth is exactly 2.
  t.ok(first.screened.searches > 0 && first.baseline.searches > 0, 'both sides searched');
  t.equal(first.screened.depthSum, 2 * first.screened.searches, 'the screened profile searched to depth 2');
  t.equal(first.baseline.depthSum, 2 * first.baseline.searches, 'the baseline searched to depth 2');
  const asBlack = screen({ ...options, colour: 'BLACK' });
  t.equal(asBlack.points.length, 2);
  const deeperBaseline = screen({ ...options, baselineDepth: 3 });
  t.equal(deeperBaseline.screened.depthSum, 2 * deeperBaseline.screened.searches, 'the screened profile keeps depth 2');
  t.equal(deeperBaseline.baseline.depthSum, 3 * deeperBaseline.baseline.searches, '--baseline-depth 3 searches the baseline to depth 3');
});

t.test('describeStats: mean depth and nodes per heuristic search', async (t) => {
  t.equal(describeStats({ searches: 0, depthSum: 0, nodeSum: 0 }), 'no searches');
  t.equal(describeStats({ searches: 4, depthSum: 21, nodeSum: 166_000 }), 'mean depth 5.25, 42k nodes per search (4 searches)');
  t.equal(describeStats({ searches: 2, depthSum: 4, nodeSum: 701 }), 'mean depth 2.00, 351 nodes per search (2 searches)');
});

t.test('tablut screen: --weights overrides DEFAULT_WEIGHTS and rejects unknown names and non-numbers', async (t) => {
  const weights = weightsFromJson('{"kingMobility":10}');
  t.equal(weights.kingMobility, 10);
  t.equal(weights.whitePawn, DEFAULT_WEIGHTS.whitePawn, 'the others keep their default');
  t.throws(() => weightsFromJson('{"kingMobilty":10}'), /unknown weight kingMobilty/);
  t.throws(() => weightsFromJson('{"kingMobility":"10"}'), /weight kingMobility must be a number/);
});

t.test('tablut screen: the baseline takes its own depth or time per move, else the screened one', async (t) => {
  const options = { weights: {}, colour: 'WHITE' as const, depth: undefined, ms: 150, games: 1, seeds: [1] };
  t.same(baselineLimits(options), { depth: undefined, ms: 150 }, 'the same 150 ms by default');
  t.same(baselineLimits({ ...options, baselineMs: 100 }), { depth: undefined, ms: 100 }, '--baseline-ms 100');
  t.same(baselineLimits({ ...options, baselineDepth: 5, baselineMs: 100 }), { depth: 5, ms: undefined }, 'a fixed baseline depth wins');
  t.same(baselineLimits({ ...options, depth: 4, ms: undefined }), { depth: 4, ms: undefined }, 'the same fixed depth by default');
});
