/**
 * Load shedding: with every worker busy and the queue full, best-move is refused with 503 before its
 * body is validated or decoded (the cheapest refusal); other routes answer as usual.
 */
import t from 'tap';
import { closeTestApp, testApp } from '../support/app.js';
import { OPEN_STATE } from '../support/states.js';
import { poolError, refusalWaitMs } from '../../src/http/pool-errors.js';
import { SearchFailedError } from '../../src/pool/pool.js';

t.test('a full pool refuses best-move before validation; other routes and later requests are unaffected', async (t) => {
  const ctx = await testApp({ WORKERS: '1', MAX_QUEUE: '0' });
  t.teardown(() => closeTestApp(ctx));
  const busy = Promise.resolve(ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 1500 } }));
  const until = Date.now() + 10_000;
  while (ctx.pool.stats().running === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  t.equal(ctx.pool.stats().running, 1, 'the only worker is busy');
  const invalid = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: { nonsense: true } } });
  t.equal(invalid.statusCode, 503, 'refused before validation');
  t.equal(invalid.json().code, 'QUEUE_FULL');
  t.equal(invalid.headers['retry-after'], '1');
  const legal = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/legal-moves', payload: { state: OPEN_STATE } });
  t.equal(legal.statusCode, 200, 'other routes answer');
  t.equal((await busy).statusCode, 200);
  const later = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: { nonsense: true } } });
  t.equal(later.statusCode, 400, 'validated again once a worker is free');
  t.equal(later.json().code, 'VALIDATION_ERROR');
  const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
  t.match(metrics.body, /kibitz_search_rejected_total\{reason="queue_full"\} 1/);
});

t.test('refusals are held (REFUSAL_HOLD_MS), never past half the budget', async (t) => {
  t.equal(refusalWaitMs(100, 1000, 1000, 1000), 100, 'the configured hold');
  t.equal(refusalWaitMs(100, 1000, 60, 1000), 30, 'at most half the budget');
  t.equal(refusalWaitMs(100, 1000, 60, 1025), 5, 'counted from the arrival');
  t.equal(refusalWaitMs(100, 1000, 60, 1040), 0, 'past half the budget: at once');
  t.equal(refusalWaitMs(0, 1000, 1000, 1000), 0, 'REFUSAL_HOLD_MS=0: at once');

  const ctx = await testApp({ WORKERS: '1', MAX_QUEUE: '0', REFUSAL_HOLD_MS: '300' });
  t.teardown(() => closeTestApp(ctx));
  const busy = Promise.resolve(ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 3000 } }));
  const until = Date.now() + 10_000;
  while (ctx.pool.stats().running === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  const sent = Date.now();
  const refused = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: OPEN_STATE, timeBudgetMs: 2000 } });
  t.equal(refused.statusCode, 503);
  // A timer never fires early: the lower bound holds on any machine.
  t.ok(Date.now() - sent >= 290, `the refusal was held (${Date.now() - sent} ms)`);
  t.equal((await busy).statusCode, 200);
});

t.test("a failed worker's 500 keeps the worker's error as its cause, for the log, not the answer", async (t) => {
  const failure = new SearchFailedError(new Error('worker exited with code 1'));
  const apiError = poolError(failure);
  t.equal(apiError.code, 'SEARCH_FAILED');
  t.equal(apiError.statusCode, 500);
  t.equal(apiError.cause, failure, 'the cause is the pool error');
  t.equal(apiError.message, 'the search worker failed; retry the request', 'the client sees no internals');
  t.equal(poolError(new Error('other')).cause, undefined, 'no cause where none is given');
});
