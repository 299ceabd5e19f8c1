import t from 'tap';
import { ENDPOINTS, fuzzEndpoint, fuzzInitialState } from '../../scripts/fuzz-harness.js';
import { GAME_IDS } from '../../src/games/types.js';
import { closeTestApp, testApp } from '../support/app.js';

// Fixed seed and a modest number of runs per endpoint keep CI reproducible and fast;
// `npm run fuzz -- --runs 2000 --seed <n>` explores further.
const SEED = 20261121;
const RUNS = 40;

const ctx = await testApp({ MAX_TIME_BUDGET_MS: '100', MAX_DEPTH: '3', WORKERS: '1' });
t.teardown(() => closeTestApp(ctx));
const catalogue = (await ctx.app.inject('/v1/games')).json() as Array<{ id: string; exampleState: never; exampleMove: never }>;

for (const endpoint of ENDPOINTS) {
  t.test(`${endpoint.game} ${endpoint.action}: no 5xx, every error coded and naming its field`, async (t) => {
    const entry = catalogue.find((c) => c.id === endpoint.game)!;
    const failure = await fuzzEndpoint(ctx.app, endpoint, { state: entry.exampleState, move: entry.exampleMove }, { runs: RUNS, seed: SEED });
    t.equal(failure, null);
  });
}

for (const game of GAME_IDS) {
  t.test(`${game} initial-state query fuzz`, async (t) => {
    t.equal(await fuzzInitialState(ctx.app, game, { runs: RUNS, seed: SEED }), null);
  });
}

t.test('the process is still healthy after the fuzzing', async (t) => {
  t.equal((await ctx.app.inject('/health')).statusCode, 200);
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
});
