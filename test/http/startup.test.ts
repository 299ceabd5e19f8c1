/**
 * Start-up: searches that arrive while the threads warm up wait for them inside their own budgets and
 * are answered; a budget too short for the warm-up gets 503 STARTING with Retry-After; never the
 * shutdown notice before shutdown. Checked on the life cycle itself, on the app with a starting
 * readiness, and on the real process with requests sent the instant its port opens.
 */
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { Readiness } from '../../src/http/readiness.js';
import { SearchPool } from '../../src/pool/pool.js';
import { startServerProcess } from '../support/server-process.js';
import { EMPTY_3X3 } from '../support/app.js';

t.test('the life cycle: waiters go on when ready, are refused when stopping or late', async (t) => {
  const starting = new Readiness();
  t.equal(starting.phase, 'starting');
  t.equal(starting.ready, false);
  const early = starting.waitReady(10_000);
  const late = starting.waitReady(5);
  t.equal(await late, false, 'a waiter whose time runs out first is told no');
  starting.markReady();
  t.equal(await early, true, 'a waiter goes on once the replica is ready');
  t.equal(starting.ready, true);
  t.equal(await starting.waitReady(0), true, 'a ready replica answers at once');

  const stopped = new Readiness();
  const waiting = stopped.waitReady(10_000);
  stopped.markStopping();
  t.equal(await waiting, false, 'shutdown during the start refuses the waiters');
  stopped.markReady();
  t.equal(stopped.phase, 'stopping', 'a stopping replica never becomes ready again');
  t.equal(await stopped.waitReady(10_000), false);
});

t.test('the app while starting', async (t) => {
  const config = loadConfig({ WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
  const pool = new SearchPool({ threads: 1, maxQueue: 8, ttSizeMb: 4 });
  t.teardown(() => pool.close());
  const warmedUp = pool.warmUp();
  const readiness = new Readiness('starting');
  const app = await buildApp({ config, pool, readiness });
  t.teardown(() => app.close());
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });

  const notReady = await app.inject('/ready');
  t.equal(notReady.statusCode, 503, '/ready says 503 while starting');
  t.equal(notReady.json().ready, false);
  const health = await app.inject('/health');
  t.equal(health.statusCode, 200, '/health answers while starting');

  const tooShort = await post('/v1/games/mnk/best-move', { state: EMPTY_3X3, timeBudgetMs: 60 });
  t.equal(tooShort.statusCode, 503, 'a budget that ends before the warm-up is refused');
  t.equal(tooShort.json().code, 'STARTING');
  t.equal(tooShort.headers['retry-after'], '1');
  t.match(tooShort.json().message, /starting/);

  // Every search route, sent while starting, answered once the warm-up ends.
  const pending = [
    post('/v1/games/mnk/best-move', { state: EMPTY_3X3, timeBudgetMs: 5000 }),
    post('/v1/games/mnk/analyse', { state: EMPTY_3X3, timeBudgetMs: 5000, multiPv: 2 }),
    app.inject({
      method: 'POST',
      url: '/v1/games/mnk/analyse',
      headers: { accept: 'text/event-stream' },
      payload: { state: EMPTY_3X3, timeBudgetMs: 5000 },
    }),
    post('/v1/games/mnk/review', { initialState: EMPTY_3X3, moves: ['1,1', '0,0'], timeBudgetMs: 5000 }),
  ];
  await warmedUp;
  await new Promise((resolve) => setTimeout(resolve, 50));
  readiness.markReady();
  const answers = await Promise.all(pending);
  t.same(answers.map((a) => a.statusCode), [200, 200, 200, 200], 'best-move, analyse, analyse (SSE) and review all answer');
  t.match(answers[0].json(), { evaluation: { outcome: 'draw' } });
  t.equal(answers[1].json().lines.length, 2);
  t.match(answers[2].body, /event: result/);
  t.equal(answers[3].json().plies.length, 2);

  const metrics = await app.inject('/metrics');
  t.match(metrics.body, /kibitz_search_rejected_total\{reason="starting"\} 1/, 'the refusal is counted as starting');
  t.notMatch(metrics.body, /kibitz_search_rejected_total\{reason="shutting_down"\} [1-9]/, 'nothing was refused as shutting down');

  // Shutdown: a search refused with the shutdown notice, as before.
  readiness.markStopping();
  const stopping = await post('/v1/games/mnk/best-move', { state: EMPTY_3X3, timeBudgetMs: 5000 });
  t.equal(stopping.json().code, 'SHUTTING_DOWN');
});

t.test('a shutdown during the start refuses the searches waiting for it as shutting down', async (t) => {
  const config = loadConfig({ WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
  const idle = { submit: () => Promise.reject(new Error('not reached')), stats: () => ({}) as never, saturated: () => false };
  const readiness = new Readiness('starting');
  const app = await buildApp({ config, pool: idle, readiness });
  t.teardown(() => app.close());
  const waiting = app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: EMPTY_3X3, timeBudgetMs: 5000 } });
  await new Promise((resolve) => setTimeout(resolve, 30));
  readiness.markStopping();
  const res = await waiting;
  t.equal(res.statusCode, 503);
  t.equal(res.json().code, 'SHUTTING_DOWN');
});

t.test('the real process: every search route, sent the instant the port opens, is answered', async (t) => {
  const server = await startServerProcess({ WORKERS: '2' }, { untilPortOpens: true });
  t.teardown(() => server.stop());
  const send = (path: string, payload: object, accept = 'application/json') =>
    fetch(`${server.url}/v1/games/mnk/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify(payload),
    }).then(async (res) => ({ status: res.status, body: await res.text() }));
  const answers = await Promise.all([
    send('best-move', { state: EMPTY_3X3, timeBudgetMs: 10_000 }),
    send('analyse', { state: EMPTY_3X3, timeBudgetMs: 10_000 }),
    send('analyse', { state: EMPTY_3X3, timeBudgetMs: 10_000 }, 'text/event-stream'),
    send('review', { initialState: EMPTY_3X3, moves: ['1,1'], timeBudgetMs: 10_000 }),
  ]);
  t.same(answers.map((a) => a.status), [200, 200, 200, 200], answers.map((a) => a.body.slice(0, 120)).join(' | '));
  t.match(JSON.parse(answers[0].body), { evaluation: { outcome: 'draw' } });
  t.match(answers[2].body, /event: result/);
  t.equal((await fetch(`${server.url}/ready`)).status, 200, 'and the replica is ready once they are answered');
  t.equal(await server.stop(), 0);
});
