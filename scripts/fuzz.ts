/** npm run fuzz -- [--runs 1000] [--seed N]: longer property-based fuzzing of every endpoint. */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { SearchPool } from '../src/pool/pool.js';
import { GAME_IDS } from '../src/games/types.js';
import { ENDPOINTS, fuzzEndpoint, fuzzInitialState } from './fuzz-harness.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
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
  console.log(`${failure === null ? 'ok  ' : 'FAIL'} ${endpoint.game} ${endpoint.action} (${Date.now() - started} ms)${failure === null ? '' : `\n${failure}`}`);
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
process.exit(failures === 0 ? 0 : 1);
