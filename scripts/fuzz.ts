/** npm run fuzz -- [--runs 1000] [--seed N]: longer property-based fuzzing of every endpoint. */
import { type ParsedArgs, intOption, runCliIfMain } from '../src/core/cli.js';
import { GAME_IDS } from '../src/games/types.js';

const spec = {
  name: 'fuzz',
  usage: `npm run fuzz -- [--runs 1000] [--seed N]

Property-based fuzzing of every endpoint and game (fast-check): malformed and random requests must get
a 4xx with a stable code or a valid answer, never a 5xx or a crash. Exits 1 when a violation is found,
printing the seed and the shrunk counterexample.

  --runs N   runs per endpoint (default 1000)
  --seed N   fast-check seed (default: from the clock, printed)
  --help     this text`,
  options: { runs: { type: 'string' }, seed: { type: 'string' } },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<number> {
  const runs = intOption(values, 'runs', 1000, 1);
  const seed = intOption(values, 'seed', Date.now() % 2 ** 31, 0);
  // Loaded after the command line is parsed: --help and a bad option answer without loading fastify, the pool and fast-check.
  const [{ loadConfig }, { buildApp }, { SearchPool }, { ENDPOINTS, fuzzEndpoint, fuzzInitialState }] = await Promise.all([
    import('../src/config.js'),
    import('../src/http/app.js'),
    import('../src/pool/pool.js'),
    import('./fuzz-harness.js'),
  ]);
  const config = loadConfig({ MAX_TIME_BUDGET_MS: '100', MAX_DEPTH: '3', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
  const pool = new SearchPool({ threads: config.workers, maxQueue: config.maxQueue, ttSizeMb: 8 });
  await pool.warmUp();
  const app = await buildApp({ config, pool });
  const catalogue = (await app.inject('/v1/games')).json() as Array<{ id: string; exampleState: never; exampleMove: never }>;
  console.log(`fuzzing ${ENDPOINTS.length} endpoints + ${GAME_IDS.length} queries, ${runs} runs each, seed ${seed}`);
  let failures = 0;
  for (const endpoint of ENDPOINTS) {
    const entry = catalogue.find((c) => c.id === endpoint.game)!;
    const started = Date.now();
    const failure = await fuzzEndpoint(app, endpoint, { state: entry.exampleState, move: entry.exampleMove }, { runs, seed });
    console.log(
      `${failure === null ? 'ok  ' : 'FAIL'} ${endpoint.game} ${endpoint.action} (${Date.now() - started} ms)` +
        `${failure === null ? '' : `\n${failure}`}`,
    );
    if (failure !== null) failures++;
  }
  for (const game of GAME_IDS) {
    const failure = await fuzzInitialState(app, game, { runs, seed });
    console.log(`${failure === null ? 'ok  ' : 'FAIL'} ${game} initial-state${failure === null ? '' : `\n${failure}`}`);
    if (failure !== null) failures++;
  }
  await app.close();
  await pool.close();
  console.log(failures === 0 ? 'no violations' : `${failures} endpoints with violations (seed ${seed})`);
  return failures === 0 ? 0 : 1;
}

runCliIfMain(import.meta.url, spec, main);
