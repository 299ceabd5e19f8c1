import t from 'tap';
import { screen, weightsFromJson } from '../../bench/tablut-screen.js';
import { DEFAULT_WEIGHTS } from '../../src/games/tablut/evaluation.js';

t.test('tablut screen: fixed-depth games are deterministic, so weight sets compare on the same openings', async (t) => {
  const options = { weights: {}, colour: 'WHITE' as const, depth: 2, ms: undefined, games: 3, seeds: [5, 6] };
  const first = screen(options);
  t.equal(first.length, 2, 'one total per opening seed');
  t.same(screen(options), first, 'the same weights replay the same games');
  for (const points of first) t.ok(points >= 0 && points <= 3, `points within 0..3 (${points})`);
  const asBlack = screen({ ...options, colour: 'BLACK' });
  t.equal(asBlack.length, 2);
});

t.test('tablut screen: --weights overrides DEFAULT_WEIGHTS and rejects unknown names and non-numbers', async (t) => {
  const weights = weightsFromJson('{"kingMobility":10}');
  t.equal(weights.kingMobility, 10);
  t.equal(weights.whitePawn, DEFAULT_WEIGHTS.whitePawn, 'the others keep their default');
  t.throws(() => weightsFromJson('{"kingMobilty":10}'), /unknown weight kingMobilty/);
  t.throws(() => weightsFromJson('{"kingMobility":"10"}'), /weight kingMobility must be a number/);
});
