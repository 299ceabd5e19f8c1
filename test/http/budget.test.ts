import t from 'tap';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeTestApp, testApp } from '../support/app.js';
import { OPEN_STATE } from '../support/states.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { ResponseReserve } from '../../src/http/response-reserve.js';
import { SearchPool } from '../../src/pool/pool.js';

// Deadlines are checked with generous slack (machines are noisy: CI runs several test files at once on two cores, and a
// fresh worker's first search compiles its code); speed and latency are measured by `npm run bench`.
const SLACK_MS = 1000;

// Apps shared by the tests below (each app's threads cost CPU to start); a test that changes its app's state runs last on it.
const oneWorker = await testApp({ WORKERS: '1', MAX_QUEUE: '8' });
const noQueue = await testApp({ WORKERS: '1', MAX_QUEUE: '0' });
const twoWorkers = await testApp({ WORKERS: '2', MAX_QUEUE: '8' });
t.teardown(async () => {
  await closeTestApp(oneWorker);
  await closeTestApp(noQueue);
  await closeTestApp(twoWorkers);
});

t.test('a search answers within its budget with a legal move', async (t) => {
  const ctx = oneWorker;
  for (const budget of [50, 300]) {
    const started = Date.now();
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: budget } });
    const took = Date.now() - started;
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.ok(took <= budget + SLACK_MS, `budget ${budget}: answered in ${took} ms`);
    t.ok(body.elapsedMs <= budget + SLACK_MS, `budget ${budget}: reported ${body.elapsedMs} ms`);
    t.equal(OPEN_STATE.board[body.move.row][body.move.col], '.', 'an empty cell');
  }
});

t.test('queue wait counts against the budget', async (t) => {
  const ctx = oneWorker;
  const budget = 600;
  const started = Date.now();
  const replies = await Promise.all(
    [0, 1, 2].map(() => ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: budget } })),
  );
  const took = Date.now() - started;
  t.ok(took <= budget + SLACK_MS, `three searches on one worker all answered in ${took} ms`);
  for (const r of replies) t.equal(r.statusCode, 200);
  const queued = replies.map((r) => r.json().queueMs as number);
  t.ok(Math.max(...queued) > 0, 'some waited for the worker');
});

t.test('a full queue answers 503 at once with Retry-After', async (t) => {
  const ctx = noQueue;
  const busy = ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 1500 } });
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  const refused = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 1500 } });
  t.equal(refused.statusCode, 503);
  t.equal(refused.json().code, 'QUEUE_FULL');
  t.ok(Number(refused.headers['retry-after']) >= 1, 'Retry-After header');
  t.ok(Date.now() - started < 1000, 'refused at once, not after the running search');
  const cheap = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/legal-moves', payload: { state: OPEN_STATE } });
  t.equal(cheap.statusCode, 200, 'cheap endpoints still answer while every worker is busy');
  t.equal((await busy).statusCode, 200);
});

t.test('a replica shutting down refuses new searches', async (t) => {
  const ctx = noQueue; // its last test: the app stays marked stopping
  ctx.readiness.markStopping();
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 100 } });
  t.equal(res.statusCode, 503);
  t.equal(res.json().code, 'SHUTTING_DOWN');
  t.ok(res.headers['retry-after']);
});

t.test('a client that disconnects cancels its search and frees the worker', async (t) => {
  const ctx = oneWorker;
  const cancelledBefore = ctx.pool.stats().cancelled;
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = ctx.app.server.address() as AddressInfo;
  const body = JSON.stringify({ state: OPEN_STATE, timeBudgetMs: 30_000 });
  const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/games/mnk/best-move', headers: { 'content-type': 'application/json' } });
  req.on('error', () => {});
  req.end(body);
  await waitFor(() => ctx.pool.stats().running === 1, 5000);
  req.destroy();
  const freed = await waitFor(() => ctx.pool.stats().running === 0, 5000);
  t.ok(freed, 'the worker is free long before the 30 s budget');
  t.equal(ctx.pool.stats().cancelled, cancelledBefore + 1);
  const next = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 100 } });
  t.equal(next.statusCode, 200, 'the same worker serves the next request');
});

t.test('under load, disconnected clients free every worker and queue slot; cheap endpoints answer meanwhile', async (t) => {
  const ctx = twoWorkers;
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = ctx.app.server.address() as AddressInfo;
  const body = JSON.stringify({ state: OPEN_STATE, timeBudgetMs: 30_000 });
  const requests = Array.from({ length: 8 }, () => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/games/mnk/best-move', headers: { 'content-type': 'application/json' } });
    req.on('error', () => {});
    req.end(body);
    return req;
  });
  t.ok(await waitFor(() => ctx.pool.stats().running === 2 && ctx.pool.stats().queued === 6, 10_000), 'both workers busy, six waiting');
  const legal = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/legal-moves', payload: { state: OPEN_STATE } });
  t.equal(legal.statusCode, 200, 'legal-moves answers while every worker is busy');
  t.equal(legal.json().moves.length, 19 * 19 - 4);
  for (const req of requests) req.destroy();
  t.ok(await waitFor(() => ctx.pool.stats().running === 0 && ctx.pool.stats().queued === 0, 5000), 'all work dropped long before the 30 s budgets');
  t.equal(ctx.pool.stats().cancelled, 8);
  const next = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 300 } });
  t.equal(next.statusCode, 200);
  t.ok(next.json().queueMs < 300, 'the next search did not wait behind cancelled work');
});

t.test('a worker killed during a search fails that request with a stable code; others are unaffected', async (t) => {
  const ctx = twoWorkers; // its last test: one of its threads is replaced
  const request = () => ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 1500 } });
  const a = request();
  const b = request();
  await waitFor(() => ctx.pool.stats().running === 2, 5000);
  await ctx.pool.workerThreads[0].terminate();
  const replies = await Promise.all([a, b]);
  const codes = replies.map((r) => r.statusCode).sort();
  t.same(codes, [200, 500], 'one request failed, the other answered');
  const failed = replies.find((r) => r.statusCode === 500)!;
  t.equal(failed.json().code, 'SEARCH_FAILED');
  t.notMatch(failed.body, /at .*\.js/, 'no stack trace leaks');
  const after = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 200 } });
  t.equal(after.statusCode, 200, 'the pool replaced the thread');
});

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return condition();
}

t.test('the response reserve: the base share with no measurements, then a high percentile of recent delivery lateness', async (t) => {
  let now = 1_000_000;
  const reserve = new ResponseReserve(() => now);
  t.equal(reserve.forBudget(200), 9, '3 ms + 3% of 200 ms with no samples');
  t.equal(reserve.forBudget(10_000), 100, 'the base is capped at 100 ms');
  for (let i = 0; i < 61; i++) reserve.observe(now - 5, now); // delivered 5 ms past the deadline
  for (let i = 0; i < 3; i++) reserve.observe(now - 500, now); // three outliers of 64 are above the percentile
  t.equal(reserve.liveSamples(), 64);
  t.equal(reserve.recentLatenessMs(), 5);
  t.equal(reserve.forBudget(200), 9, 'lateness + 2 ms under the base: the base');
  // Replaces every sample: half delivered before their deadline (counted as 0), half 30 ms past it.
  for (let i = 0; i < 64; i++) reserve.observe(now - 30, i < 32 ? now - 40 : now);
  t.equal(reserve.recentLatenessMs(), 30);
  t.equal(reserve.forBudget(200), 32, 'follows delivery: 30 ms + 2 ms');
  t.equal(reserve.forBudget(100), 25, 'never more than a quarter of the budget');
  now += 10_001;
  t.equal(reserve.liveSamples(), 0, 'samples are forgotten after 10 s');
  t.equal(reserve.forBudget(200), 9, 'back to the base once load is gone');
});

t.test('answers that ran until their deadline feed the app\'s response reserve', async (t) => {
  const reserve = new ResponseReserve();
  const config = loadConfig({ WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
  const pool = new SearchPool({ threads: 1, maxQueue: 2, ttSizeMb: 4, fallbackThread: false });
  await pool.warmUp();
  const app = await buildApp({ config, pool, reserve });
  t.teardown(async () => {
    await app.close();
    await pool.close();
  });
  const timed = await app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 100 } });
  t.equal(timed.json().stopReason, 'time');
  const analysed = await app.inject({ method: 'POST', url: '/v1/games/mnk/analyse', payload: { state: OPEN_STATE, timeBudgetMs: 100 } });
  t.equal(analysed.json().stopReason, 'time');
  t.equal(reserve.liveSamples(), 2, 'both answers were measured');
  const deep = await app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, maxDepth: 1, timeBudgetMs: 5000 } });
  t.equal(deep.json().stopReason, 'depth');
  t.equal(reserve.liveSamples(), 2, 'a search that stopped at its depth limit says nothing about delivery');
});
