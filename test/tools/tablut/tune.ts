import t from 'tap';
import { fit, generate, load, TUNED_WEIGHTS } from '../../../tools/tablut-tune.js';
import { DEFAULT_WEIGHTS } from '../../../src/games/tablut/evaluation.js';

t.test('tablut tune: deterministic games, one labelled line per searched position', async (t) => {
  const options = { games: 4, depth: 1, seed: 7, matchups: [['default', 'seed'] as [string, string]] };
  const lines = generate(options);
  t.same(generate(options), lines, 'the same seed replays the same games');
  t.ok(lines.length > 20, `${lines.length} positions`);
  for (const line of lines.slice(0, 5)) t.match(line, /^(1|0|0\.5),[01],[0-4]{81}$/, 'result, side to move, 81 cells');
});

t.test('tablut tune: the fit lowers the error and reads features off the evaluation', async (t) => {
  const lines = generate({ games: 16, depth: 2, seed: 3, matchups: [['default', 'seed'], ['seed', 'default']] });
  const data = load(lines);
  t.ok(data.count > 300 && data.count + data.skipped === lines.length, `${data.count} quiet positions, ${data.skipped} skipped`);
  // Feature 0 is the white pawn count (the whitePawn weight's term is whitePawn * whiteCount).
  const pawns = Number(lines[0].split(',')[2].split('').filter((c) => c === '1').length);
  t.equal(data.features[0], pawns, 'first feature of the first position: its white pawns');
  const result = fit(data, 300, () => {}, 10);
  t.same(Object.keys(result.weights), [...TUNED_WEIGHTS]);
  t.equal(result.weights.whitePawn, DEFAULT_WEIGHTS.whitePawn, 'scaled so that a white pawn keeps its value');
  t.ok(result.trainError < result.initialTrainError, `training error ${result.initialTrainError} -> ${result.trainError}`);
  t.ok(result.testError >= 0 && result.testError < 1, `held-out error ${result.testError}`);
  t.throws(() => load(['1,0,123']), /bad data line/);
});
