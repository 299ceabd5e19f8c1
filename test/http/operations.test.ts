import t from 'tap';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeTestApp, testApp } from '../support/app.js';

// A 9x9 K=5 position and its left-right mirror image (column c <-> 8 - c).
const POSITION = {
  m: 9,
  n: 9,
  k: 5,
  board: ['.........', '.........', '..X......', '...XO....', '....O....', '.........', '.........', '.........', '.........'],
  turn: 'X',
};
const MIRRORED = { ...POSITION, board: POSITION.board.map((row) => [...row].reverse().join('')) };

// Tests that need no configuration of their own share one app, and the cache tests another (each app is a
// worker pool to start): the metrics test runs first, so its counts are its own.
const plain = await testApp();
const cached = await testApp({ CACHE_ENTRIES: '100' });
t.teardown(async () => {
  await closeTestApp(plain);
  await closeTestApp(cached);
});

t.test('metrics in Prometheus format cover requests, the pool and searches', async (t) => {
  const ctx = plain;
  const search = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: POSITION, maxDepth: 2 } });
  t.equal(search.statusCode, 200);
  const res = await ctx.app.inject('/metrics');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/plain/);
  const text = res.body;
  t.match(text, /kibitz_http_request_duration_seconds_count\{route="\/v1\/games\/mnk\/best-move",method="POST",status="200"\} 1/);
  t.match(text, /kibitz_search_total\{game="mnk",reason="depth",source="worker"\} 1/);
  t.match(text, /kibitz_search_depth_bucket\{le="2",game="mnk"\} 1/);
  t.match(text, /kibitz_pool_threads 1/);
  t.match(text, /kibitz_pool_queue_depth 0/);
  t.match(text, /kibitz_search_queue_wait_seconds_count\{game="mnk"\} 1/);
  t.match(text, /kibitz_process_resident_memory_bytes/);
});

t.test('the result cache serves repeats and symmetric images, never a shallower answer', async (t) => {
  const ctx = cached;
  const ask = (state: unknown, extra: object) => ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state, ...extra } });
  const first = await ask(POSITION, { maxDepth: 3 });
  t.equal(first.headers['x-kibitz-cache'], undefined, 'first time: searched');
  const again = await ask(POSITION, { maxDepth: 3 });
  t.equal(again.headers['x-kibitz-cache'], 'hit');
  t.same(again.json().move, first.json().move);
  t.same(again.json().pv, first.json().pv);
  t.same(again.json().evaluation, first.json().evaluation);
  const mirrored = await ask(MIRRORED, { maxDepth: 3 });
  t.equal(mirrored.headers['x-kibitz-cache'], 'hit', 'the mirror image shares the entry');
  const m = first.json().move;
  t.same(mirrored.json().move, { row: m.row, col: 8 - m.col, notation: `${m.row},${8 - m.col}` }, 'the move is mirrored back');
  const deeper = await ask(POSITION, { maxDepth: 4 });
  t.equal(deeper.headers['x-kibitz-cache'], undefined, 'another depth is another search');

  const timed = await ask(POSITION, { timeBudgetMs: 200 });
  t.equal(timed.headers['x-kibitz-cache'], undefined);
  const longer = await ask(POSITION, { timeBudgetMs: 400 });
  t.equal(longer.headers['x-kibitz-cache'], undefined, 'a larger budget could search deeper: not served');
  const shorter = await ask(POSITION, { timeBudgetMs: 100 });
  t.equal(shorter.headers['x-kibitz-cache'], 'hit', 'a smaller budget gets the deeper cached answer');
});

t.test('a proven result is served for any limits', async (t) => {
  const ctx = cached;
  const state = { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' };
  const first = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state, timeBudgetMs: 1000 } });
  t.equal(first.json().evaluation.outcome, 'draw');
  const second = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state, maxDepth: 1 } });
  t.equal(second.headers['x-kibitz-cache'], 'hit');
  t.equal(second.json().evaluation.outcome, 'draw');
});

t.test('CORS is off by default and follows the allow-list when set', async (t) => {
  const off = plain;
  const none = await off.app.inject({ method: 'GET', url: '/v1/games', headers: { origin: 'https://a.example' } });
  t.equal(none.headers['access-control-allow-origin'], undefined);

  const on = await testApp({ CORS_ORIGINS: 'https://a.example' });
  t.teardown(() => closeTestApp(on));
  const allowed = await on.app.inject({
    method: 'OPTIONS',
    url: '/v1/games/mnk/best-move',
    headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
  });
  t.equal(allowed.headers['access-control-allow-origin'], 'https://a.example');
  const other = await on.app.inject({ method: 'GET', url: '/v1/games', headers: { origin: 'https://b.example' } });
  t.equal(other.headers['access-control-allow-origin'], undefined, 'other origins get no CORS grant');
});

t.test('optional rate limiting answers 429 with the catalogue code; probes are exempt', async (t) => {
  const ctx = await testApp({ RATE_LIMIT_PER_MINUTE: '2' });
  t.teardown(() => closeTestApp(ctx));
  const codes: number[] = [];
  for (let i = 0; i < 3; i++) codes.push((await ctx.app.inject('/v1/games')).statusCode);
  t.same(codes, [200, 200, 429]);
  const limited = await ctx.app.inject('/v1/games');
  t.equal(limited.json().code, 'RATE_LIMITED');
  t.ok(limited.headers['retry-after']);
  for (let i = 0; i < 4; i++) t.equal((await ctx.app.inject('/health')).statusCode, 200);
});

t.test('production errors carry no internals', async (t) => {
  const ctx = plain;
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', headers: { 'content-type': 'application/json' }, payload: '{"state": [' });
  t.equal(res.statusCode, 400);
  t.notMatch(res.body, /node_modules|\.js:\d+|stack/);
});

t.test('the connection tracker: a shutdown closes the quiet connections and leaves a search in flight alone', async (t) => {
  const ctx = await testApp({ WORKERS: '1' });
  t.teardown(() => closeTestApp(ctx));
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  t.teardown(() => agent.destroy());
  const call = (path: string, body?: unknown): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path,
        agent,
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  const search = call('/v1/games/mnk/best-move', { state: POSITION, timeBudgetMs: 800 });
  const until = Date.now() + 10_000;
  while (ctx.app.connections.counts().busy === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  t.same(ctx.app.connections.counts(), { open: 1, busy: 1 }, 'a search in flight keeps its connection busy');
  t.equal((await call('/health')).status, 200, 'a second connection (the first is busy)');
  t.same(ctx.app.connections.counts(), { open: 2, busy: 1 }, 'a keep-alive connection between requests is quiet');
  t.equal(ctx.app.connections.closeQuiet(), 1, 'only the quiet connection is closed');
  t.equal((await search).status, 200, 'the search in flight still answers');
});
