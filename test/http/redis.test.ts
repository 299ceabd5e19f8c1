/**
 * Replicas sharing one real Redis (test/support/redis.ts): results searched by one replica are served by
 * the others, rate limits hold across replicas, and Redis unreachable, hung, or killed under load and
 * restarted costs no request. The replicas are apps built in this process on real ports over one search
 * pool: what a replica owns apart from its pool (its cache, its limits, its Redis connection) is per app.
 * Searches are tiny (fixed shallow depths, tic-tac-toe; one 100-300 ms budget) and apps are shared where
 * their settings allow, so the file costs a few seconds of CPU.
 */
import t, { type Test } from 'tap';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { Readiness } from '../../src/http/readiness.js';
import { ServiceMetrics } from '../../src/http/metrics.js';
import { PAUSE_MS, RedisLink } from '../../src/http/redis.js';
import { RATE_LIMIT_KEY_PREFIX, sharedRateLimitStore } from '../../src/http/rate-limit-store.js';
import { RESULT_KEY_PREFIX, RedisResults } from '../../src/http/shared-results.js';
import type { StoredResult } from '../../src/http/result-cache.js';
import { SearchPool } from '../../src/pool/pool.js';
import { startRedis } from '../support/redis.js';

// A 9x9 K=5 position and its left-right mirror image (column c <-> 8 - c).
const POSITION = {
  m: 9,
  n: 9,
  k: 5,
  board: ['.........', '.........', '..X......', '...XO....', '....O....', '.........', '.........', '.........', '.........'],
  turn: 'X',
};
const MIRRORED = { ...POSITION, board: POSITION.board.map((row) => [...row].reverse().join('')) };

interface Replica {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly logs: string[];
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

const redis = await startRedis();
t.teardown(() => redis.stop());
const admin = new Redis(redis.url, { lazyConnect: true });
// Redis is killed on purpose below: the test's own connection just reconnects.
admin.on('error', () => {});
await admin.connect();
t.teardown(() => admin.disconnect());
const pool = new SearchPool({ threads: 2, maxQueue: 64, ttSizeMb: 4, fallbackThread: false });
await pool.warmUp();
t.teardown(() => pool.close());

async function replica(t: Test, env: Record<string, string> = {}): Promise<Replica> {
  // A generous command timeout: a loaded machine must not turn a test of sharing into one of the fallback.
  const config = loadConfig({ WORKERS: '2', LOG_LEVEL: 'info', CACHE_ENTRIES: '100', REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '1000', ...env });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = await buildApp({ config, pool, readiness: new Readiness('ready'), logger: { level: 'info', stream } });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, logs };
}

async function metric(app: FastifyInstance, pattern: RegExp): Promise<number> {
  const text = (await app.inject('/metrics')).body;
  const match = text.match(pattern);
  return match === null ? 0 : Number(match[1]);
}

/** Waits until the replica uses Redis: it connects in the background. */
const sharing = (app: FastifyInstance) => until(async () => (await metric(app, /^kibitz_redis_up (\d)/m)) === 1);

async function post(base: string, game: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}/v1/games/${game}/best-move`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** Waits until Redis holds this many results: replicas store them after answering. */
const stored = (count: number) => until(async () => (await admin.keys(`${RESULT_KEY_PREFIX}*`)).length >= count);

/** What a stored answer must repeat (the rest, elapsedMs, queueMs and cached, are the serving's). */
const searched = (a: Answer) => ({ move: a.body.move, pv: a.body.pv, evaluation: a.body.evaluation, depth: a.body.depth, nodes: a.body.nodes });

t.beforeEach(async () => {
  await admin.flushall();
});

// Three replicas without a cache of their own: every hit they serve comes from Redis.
const [a, b, c] = [await replica(t, { CACHE_ENTRIES: '0' }), await replica(t, { CACHE_ENTRIES: '0' }), await replica(t, { CACHE_ENTRIES: '0' })];
await Promise.all([a, b, c].map((r) => sharing(r.app)));

t.test('a result searched by one replica is served by the others, mirrored; a deeper one replaces it', async (t) => {
  const first = await post(a.url, 'mnk', { state: POSITION, maxDepth: 3 });
  t.equal(first.status, 200);
  t.equal(first.body.cached, false, 'searched on replica a');
  await stored(1);
  const served = await post(b.url, 'mnk', { state: POSITION, maxDepth: 3 });
  t.equal(served.body.cached, true, 'replica b never saw it: served from Redis');
  t.equal(served.headers.get('x-kibitz-cache'), 'hit');
  t.same(searched(served), searched(first), 'the stored search: move, line, evaluation, depth and nodes');
  t.equal(served.body.queueMs, 0);
  t.equal(await metric(b.app, /^kibitz_result_cache_total\{result="hit",tier="redis"\} (\d+)/m), 1);

  const mirrored = await post(c.url, 'mnk', { state: MIRRORED, maxDepth: 3 });
  t.equal(mirrored.body.cached, true, 'the mirror image is the same entry');
  const m = first.body.move as { row: number; col: number };
  t.same(mirrored.body.move, { row: m.row, col: 8 - m.col, notation: `${m.row},${8 - m.col}` }, 'its move mirrored back');

  const deeper = await post(c.url, 'mnk', { state: MIRRORED, maxDepth: 4 });
  t.equal(deeper.body.cached, false, 'depth 4 is deeper than the stored depth 3: searched');
  const keys = await admin.keys(`${RESULT_KEY_PREFIX}*`);
  t.equal(keys.length, 1, 'one entry per position');
  await until(async () => (await admin.hget(keys[0], 'rank')) === '4');
  t.pass('the deeper result replaced the shallower one');
  const ttl = await admin.pttl(keys[0]);
  t.ok(ttl > 0 && ttl <= 86_400_000, `the entry expires (REDIS_TTL_S, default a day): ${ttl} ms left`);
  const shallower = await post(a.url, 'mnk', { state: POSITION, maxDepth: 2 });
  t.equal(shallower.body.cached, true, 'a shallower request is served...');
  t.equal(shallower.body.depth, 4, '...the deeper answer');
});

t.test('deterministic requests (maxDepth and seed) get exactly the answer their search gives', async (t) => {
  await post(a.url, 'mnk', { state: MIRRORED, maxDepth: 5 });
  await stored(1);
  const seeded = { state: POSITION, maxDepth: 3, seed: 7 };
  const first = await post(b.url, 'mnk', seeded);
  t.equal(first.body.cached, false, 'the deeper unseeded entry does not answer a seeded request');
  await stored(2);
  const again = await post(c.url, 'mnk', seeded);
  t.equal(again.body.cached, true);
  t.same(searched(again), searched(first), 'served: the answer of the search');
  t.equal((await post(a.url, 'mnk', { ...seeded, seed: 8 })).body.cached, false, 'another seed is another entry');
});

t.test('a timed answer serves budgets up to the one it was searched with', async (t) => {
  const state = { ...POSITION, board: ['.........', '....X....', '..X......', '...XO....', '....O....', '....O....', '.........', '.........', '.........'] };
  t.equal((await post(a.url, 'mnk', { state, timeBudgetMs: 150 })).body.cached, false);
  await stored(1);
  t.equal((await post(b.url, 'mnk', { state, timeBudgetMs: 150 })).body.cached, true, 'the same budget: served');
  t.equal((await post(b.url, 'mnk', { state, timeBudgetMs: 100 })).body.cached, true, 'a smaller budget: served');
  t.equal((await post(b.url, 'mnk', { state, timeBudgetMs: 300 })).body.cached, false, 'a larger budget could go deeper: searched');
  await until(async () => Number(await admin.hget((await admin.keys(`${RESULT_KEY_PREFIX}*`))[0], 'reach')) >= 300);
  t.equal((await post(a.url, 'mnk', { state, timeBudgetMs: 300 })).body.cached, true, 'and now served to the others');
});

t.test('Tablut: the history is part of the key (repetitions depend on it)', async (t) => {
  const call = async (path: string, body: unknown) =>
    (await fetch(`${a.url}/v1/games/tablut/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const initial = await (await fetch(`${a.url}/v1/games/tablut/initial-state`)).json();
  const { moves } = (await call('legal-moves', { state: initial })) as { moves: unknown[] };
  const { state } = (await call('play', { state: initial, move: moves[0] })) as { state: unknown };
  const body = { state, history: [initial], maxDepth: 1, seed: 1 };
  t.equal((await post(a.url, 'tablut', body)).body.cached, false);
  await stored(1);
  t.equal((await post(b.url, 'tablut', body)).body.cached, true, 'the same state and history: served');
  t.equal((await post(b.url, 'tablut', { ...body, history: undefined })).body.cached, false, 'without the history: another entry');
});

t.test('the rate limit holds across replicas, per client address behind a trusted proxy', async (t) => {
  const env = { RATE_LIMIT_PER_MINUTE: '4', TRUST_PROXY: 'loopback' };
  const replicas = [await replica(t, env), await replica(t, env)];
  for (const r of replicas) await sharing(r.app);
  const get = (r: Replica, client: string) => fetch(`${r.url}/v1/games/mnk/initial-state`, { headers: { 'x-forwarded-for': client } });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await get(replicas[i % 2], '203.0.113.7')).status);
  t.same(statuses, [200, 200, 200, 200, 429, 429], 'four in the minute over two replicas, then refused by each');
  const refused = await get(replicas[1], '203.0.113.7');
  t.equal(((await refused.json()) as { code: string }).code, 'RATE_LIMITED');
  t.equal((await get(replicas[0], '203.0.113.8')).status, 200, 'another client has its own count');
  t.equal((await fetch(`${replicas[0].url}/ready`)).status, 200, 'probes are not counted');
  t.ok((await admin.keys(`${RATE_LIMIT_KEY_PREFIX}*`)).length >= 2, 'the counts live in Redis');
});

t.test('Redis unreachable: local cache and local limits (not none), /ready true, one log line', async (t) => {
  const nowhere = await startRedis();
  await nowhere.kill();
  const lone = await replica(t, { REDIS_URL: nowhere.url, RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'loopback' });
  const get = () => fetch(`${lone.url}/v1/games/mnk/initial-state`, { headers: { 'x-forwarded-for': '203.0.113.9' } }).then((res) => res.status);
  t.same([await get(), await get(), await get(), await get()], [200, 200, 200, 429], 'the replica counts on its own');
  t.equal((await fetch(`${lone.url}/ready`)).status, 200);
  t.equal(await metric(lone.app, /^kibitz_redis_up (\d)/m), 0);
  t.equal(await metric(lone.app, /^kibitz_redis_fallback_total\{operation="rate_limit",reason="unavailable"\} (\d+)/m), 4);
  t.equal((await post(lone.url, 'mnk', { state: POSITION, maxDepth: 2 })).body.cached, false);
  t.equal((await post(lone.url, 'mnk', { state: POSITION, maxDepth: 2 })).body.cached, true, 'its own cache');
  t.equal(await metric(lone.app, /^kibitz_redis_fallback_total\{operation="cache_get",reason="unavailable"\} (\d+)/m), 1);
  const warnings = lone.logs.filter((line) => line.includes('redis unavailable'));
  t.equal(warnings.length, 1, 'one line for the outage, not one per reconnection attempt or request');
  t.match(JSON.parse(warnings[0]), { level: 40, reason: /ECONNREFUSED|closed/ });
});

t.test('Redis hung: a request waits at most the command timeout, then Redis is left alone; it resumes', async (t) => {
  const quick = await replica(t, { RATE_LIMIT_PER_MINUTE: '1000', CACHE_ENTRIES: '0', REDIS_TIMEOUT_MS: '50' });
  await sharing(quick.app);
  redis.freeze();
  let thawed = false;
  t.teardown(() => {
    if (!thawed) redis.thaw();
  });
  const started = Date.now();
  const answers = await Promise.all(TICTACTOE.slice(0, 3).map((state) => post(quick.url, 'mnk', { state, maxDepth: 1 })));
  const slowest = Date.now() - started;
  t.same(answers.map((x) => x.status), [200, 200, 200], 'every request answered');
  // Generous: without the timeout these would wait for as long as Redis is stopped.
  t.ok(slowest < 5000, `answered in ${slowest} ms while Redis is stopped`);
  t.ok((await metric(quick.app, /^kibitz_redis_fallback_total\{operation="rate_limit",reason="timeout"\} (\d+)/m)) >= 1);
  t.equal((await post(quick.url, 'mnk', { state: TICTACTOE[3], maxDepth: 1 })).status, 200);
  t.ok((await metric(quick.app, /^kibitz_redis_fallback_total\{operation="rate_limit",reason="unavailable"\} (\d+)/m)) >= 1, 'paused: not tried');
  t.equal(await metric(quick.app, /^kibitz_redis_up (\d)/m), 0);
  redis.thaw();
  thawed = true;
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + 50));
  const before = (await admin.keys(`${RESULT_KEY_PREFIX}*`)).length;
  t.equal((await post(quick.url, 'mnk', { state: TICTACTOE[4], maxDepth: 1 })).body.cached, false);
  await sharing(quick.app);
  await stored(before + 1);
  t.equal((await post(b.url, 'mnk', { state: TICTACTOE[4], maxDepth: 1 })).body.cached, true, 'sharing resumed');
  t.ok(quick.logs.some((line) => line.includes('redis available')), 'and the return is logged');
});

t.test('the shared tier keeps the deeper entry and the larger budget, atomically in Redis', async (t) => {
  const metrics = new ServiceMetrics(pool);
  const log = { info: () => {}, warn: () => {} } as unknown as FastifyInstance['log'];
  const link = new RedisLink({ url: redis.url, timeoutMs: 200, metrics, log });
  t.teardown(() => link.close());
  const results = new RedisResults(link, 60_000);
  while (!link.usable()) await new Promise((resolve) => setTimeout(resolve, 10));
  const entry = (depth: number, reachMs: number): StoredResult => ({
    evaluation: { score: depth, winProbability: 0.5 },
    depth,
    nodes: depth * 100,
    nps: 1000,
    stopReason: 'time',
    line: [[[depth, 0]]],
    reachMs,
  });
  await results.put('k', entry(5, 100), 5);
  await results.put('k', entry(3, 400), 3);
  t.match(await results.get('k'), { depth: 5, nodes: 500, reachMs: 400 }, 'a shallower result leaves the answer, raises the budget');
  await results.put('k', entry(7, 50), 7);
  t.match(await results.get('k'), { depth: 7, nodes: 700, reachMs: 400 }, 'a deeper one replaces it');
  t.equal(await results.get('absent'), undefined);
  t.ok((await admin.pttl(`${RESULT_KEY_PREFIX}k`)) <= 60_000);
  link.close();
  t.equal(await results.get('k'), undefined, 'a closed link: a miss, no error');
  await results.put('k', entry(9, 0), 9);
  t.equal(await metric2(metrics, /kibitz_redis_fallback_total\{operation="cache_set",reason="unavailable"\} (\d+)/), 1);
});

t.test('Redis killed under load and restarted: no request fails, and sharing resumes', async (t) => {
  const replicas = [a, b, c];
  // Two clients, each going round the replicas over five positions; phases end on counts, not clocks.
  const statuses = new Map<number, number>();
  let answered = 0;
  let served = 0;
  let running = true;
  const loop = async (client: number) => {
    for (let i = 0; running; i++) {
      const res = await post(replicas[(client + i) % 3].url, 'mnk', { state: TICTACTOE[i % 5], maxDepth: 2 }).catch(() => undefined);
      const status = res?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      answered++;
      if (res?.body.cached === true) served++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const loops = [0, 1].map(loop);
  await until(async () => served >= 3);
  const servedBeforeKill = served;
  await redis.kill();
  const answeredAtKill = answered;
  await until(async () => answered >= answeredAtKill + 15);
  const duringOutage = answered - answeredAtKill;
  await redis.restart();
  await Promise.all(replicas.map((r) => sharing(r.app)));
  const servedAtRestart = served;
  await until(async () => served >= servedAtRestart + 3);
  running = false;
  await Promise.all(loops);

  t.same([...statuses.keys()], [200], `every one of ${answered} requests answered 200 (${JSON.stringify(Object.fromEntries(statuses))})`);
  t.ok(servedBeforeKill >= 3, `results shared before the kill (${servedBeforeKill} served from Redis)`);
  t.ok(duringOutage >= 15, `${duringOutage} answered with Redis down`);
  t.ok(served >= servedAtRestart + 3, 'sharing resumed after the restart, under load');
  const outage = /^kibitz_redis_fallback_total\{operation="cache_get",reason="(unavailable|error)"\} (\d+)/gm;
  const counted = await Promise.all(replicas.map(async (r) => [...(await r.app.inject('/metrics')).body.matchAll(outage)].length));
  t.ok(counted.some((n) => n > 0), 'the outage is counted');
  t.ok(replicas.some((r) => r.logs.some((line) => line.includes('redis unavailable'))), 'and logged');
});

t.test('the per-route child of the shared rate-limit store counts in Redis under its own key', async (t) => {
  const metrics = new ServiceMetrics(pool);
  const log = { info: () => {}, warn: () => {} } as unknown as FastifyInstance['log'];
  const link = new RedisLink({ url: redis.url, timeoutMs: 1000, metrics, log });
  t.teardown(() => link.close());
  await until(async () => link.usable());
  const Store = sharedRateLimitStore(link);
  const child = new Store({}).child({ routeInfo: { method: 'GET', url: '/x' } } as never);
  const incr = () => new Promise<{ current: number }>((resolve, reject) => child.incr('k', (e, r) => (e || !r ? reject(e) : resolve(r)), 60_000, 5));
  t.same([(await incr()).current, (await incr()).current], [1, 2]);
  t.equal(await admin.get(`${RATE_LIMIT_KEY_PREFIX}GET/x-k`), '2');
});

t.test('configuration: REDIS_URL, REDIS_TTL_S, REDIS_TIMEOUT_MS and TRUST_PROXY', async (t) => {
  const none = loadConfig({});
  t.same([none.redisUrl, none.redisTtlS, none.redisTimeoutMs, none.trustProxy], [undefined, 86_400, 50, false], 'off by default');
  t.equal(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).redisUrl, 'rediss://:secret@cache.internal:6380/2');
  for (const bad of ['http://redis:6379', 'redis-host:6379', 'redis://']) {
    t.throws(() => loadConfig({ REDIS_URL: bad }), /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/, bad);
  }
  t.throws(() => loadConfig({ REDIS_URL: 'http://:secret@redis' }), { message: /^(?!.*secret)/ }, 'the message never shows the URL (a password)');
  t.throws(() => loadConfig({ REDIS_TTL_S: '0' }), /REDIS_TTL_S/);
  t.throws(() => loadConfig({ REDIS_TIMEOUT_MS: '5001' }), /REDIS_TIMEOUT_MS/);
  t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
  t.same(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy, ['loopback', '10.0.0.0/8', '::1']);
  t.throws(() => loadConfig({ TRUST_PROXY: 'nginx' }), /TRUST_PROXY/);
  t.throws(() => loadConfig({ TRUST_PROXY: '1' }), /TRUST_PROXY/, 'hop counts are refused (fastify trusts none)');
});

/** Polls (every 20 ms, at most 20 s: the machine may be loaded) until the condition holds. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Tic-tac-toe positions, no two the same under the board's symmetries (tiny searches). */
const TICTACTOE = [
  ['...', '...', '...', 'X'],
  ['X..', '...', '...', 'O'],
  ['.X.', '...', '...', 'O'],
  ['...', '.X.', '...', 'O'],
  ['X..', '.O.', '...', 'X'],
  ['XO.', '...', '...', 'X'],
].map(([r0, r1, r2, turn]) => ({ m: 3, n: 3, k: 3, board: [r0, r1, r2], turn }));

async function metric2(metrics: ServiceMetrics, pattern: RegExp): Promise<number> {
  const match = (await metrics.registry.metrics()).match(pattern);
  return match === null ? 0 : Number(match[1]);
}
