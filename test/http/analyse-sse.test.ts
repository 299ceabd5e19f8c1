/**
 * Live analysis over Server-Sent Events, through a real HTTP client against a listening server (one
 * worker, no queue): events parse, depths increase, the `result` event is the JSON answer; overload is
 * a plain 503 before any event; a client that disconnects stops its search and frees the worker
 * (pool statistics and /metrics show it); quiet periods carry heartbeat comments.
 */
import t from 'tap';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeTestApp, testApp } from '../support/app.js';

const ctx = await testApp({ WORKERS: '1', MAX_QUEUE: '0', SSE_HEARTBEAT_MS: '10' });
t.teardown(() => closeTestApp(ctx));
await ctx.app.listen({ port: 0, host: '127.0.0.1' });
const port = (ctx.app.server.address() as AddressInfo).port;

interface SseEvent {
  event: string;
  data: unknown;
}

interface Stream {
  readonly req: ClientRequest;
  readonly response: Promise<IncomingMessage>;
  /** Resolves with every event and the number of heartbeat comments once the stream ends. */
  readonly done: Promise<{ events: SseEvent[]; heartbeats: number; body: string }>;
  /** Resolves with the first event. */
  readonly first: Promise<SseEvent>;
}

function open(game: string, payload: unknown, accept = 'text/event-stream', to = port): Stream {
  const req = request({
    host: '127.0.0.1',
    port: to,
    method: 'POST',
    path: `/v1/games/${game}/analyse`,
    headers: { 'content-type': 'application/json', accept },
  });
  let firstResolve: (e: SseEvent) => void = () => {};
  const first = new Promise<SseEvent>((resolve) => (firstResolve = resolve));
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  const done = response.then(
    (res) =>
      new Promise<{ events: SseEvent[]; heartbeats: number; body: string }>((resolve) => {
        const events: SseEvent[] = [];
        let heartbeats = 0;
        let buffer = '';
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            let name = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) heartbeats++;
              else if (line.startsWith('event: ')) name = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data !== '') {
              const e = { event: name, data: JSON.parse(data) as unknown };
              events.push(e);
              if (events.length === 1) firstResolve(e);
            }
          }
        });
        const finish = () => resolve({ events, heartbeats, body });
        res.on('end', finish);
        res.on('close', finish);
      }),
  );
  req.end(JSON.stringify(payload));
  return { req, response, done, first };
}

const othelloStart = await (await fetch(`http://127.0.0.1:${port}/v1/games/othello/initial-state`)).json();

t.test('progress per iteration, then the result, equal to the JSON answer', async (t) => {
  const payload = { state: othelloStart, maxDepth: 6, seed: 5, multiPv: 3, timeBudgetMs: 60_000 };
  const stream = open('othello', payload);
  const res = await stream.response;
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/event-stream/);
  const { events } = await stream.done;
  const progress = events.filter((e) => e.event === 'progress').map((e) => e.data as { depth: number; lines: unknown[] });
  t.same(progress.map((p) => p.depth), [1, 2, 3, 4, 5, 6], 'one progress event per iteration, deepening');
  t.ok(progress.every((p) => p.lines.length === 3), 'three lines each');
  t.equal(events[events.length - 1].event, 'result', 'the result comes last');
  t.equal(events.filter((e) => e.event === 'result').length, 1, 'once');
  const result = events[events.length - 1].data as Record<string, unknown>;
  const headers = { 'content-type': 'application/json' };
  const json = await (await fetch(`http://127.0.0.1:${port}/v1/games/othello/analyse`, { method: 'POST', headers, body: JSON.stringify(payload) })).json();
  const pick = (a: Record<string, unknown>) => [a.lines, a.depth, a.nodes, a.stopReason];
  t.same(pick(result), pick(json), 'the result event is the JSON answer');
  t.same(progress[5].lines, json.lines, 'the last progress has the final lines');
});

t.test('heartbeat comments while a long iteration runs', async (t) => {
  // SSE_HEARTBEAT_MS=10: any iteration longer than that is followed by a comment.
  const stream = open('tablut', { state: await (await fetch(`http://127.0.0.1:${port}/v1/games/tablut/initial-state`)).json(), timeBudgetMs: 1500 });
  const { events, heartbeats } = await stream.done;
  t.ok(heartbeats > 0, `${heartbeats} heartbeats`);
  t.equal(events[events.length - 1].event, 'result');
  // The only tablut analyse request is this stream: counted once in the request metrics.
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  t.match(metrics, /kibitz_http_request_duration_seconds_count\{route="\/v1\/games\/tablut\/analyse",method="POST",status="200"\} 1\n/);
});

t.test('overload is a plain 503; a disconnect stops the search and frees the worker', async (t) => {
  const long = open('othello', { state: othelloStart, timeBudgetMs: 60_000 });
  const first = await long.first;
  t.equal(first.event, 'progress', 'the long search is running');
  t.equal(ctx.pool.stats().running, 1);

  const refused = open('othello', { state: othelloStart, timeBudgetMs: 1000 });
  const res = await refused.response;
  const { body } = await refused.done;
  t.equal(res.statusCode, 503);
  t.match(res.headers['content-type'], /^application\/json/);
  t.same([JSON.parse(body).code, res.headers['retry-after']], ['QUEUE_FULL', '1'], 'a JSON error, no event');

  const cancelledBefore = ctx.pool.stats().cancelled;
  long.req.destroy();
  // Generous slack: the worker polls its stop flag every 128 nodes.
  const until = Date.now() + 20_000;
  while (ctx.pool.stats().running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  t.equal(ctx.pool.stats().running, 0, 'the worker is free long before the 60 s budget');
  t.equal(ctx.pool.stats().cancelled, cancelledBefore + 1, 'counted as cancelled');
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  t.match(metrics, /kibitz_search_cancelled_total\{game="othello"\} 1/);
  t.match(metrics, /kibitz_pool_running 0/);
  const next = await fetch(`http://127.0.0.1:${port}/v1/games/othello/analyse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: othelloStart, maxDepth: 3 }),
  });
  t.equal(next.status, 200, 'the freed worker takes the next search');
});

t.test('MAX_STREAMS: streams up to the limit run, one more is a plain 503 TOO_MANY_STREAMS, JSON answers are unaffected', async (t) => {
  const limited = await testApp({ WORKERS: '2', MAX_QUEUE: '4', MAX_STREAMS: '2' });
  t.teardown(() => closeTestApp(limited));
  await limited.app.listen({ port: 0, host: '127.0.0.1' });
  const to = (limited.app.server.address() as AddressInfo).port;
  const long = { state: othelloStart, timeBudgetMs: 60_000 };
  const streams = [open('othello', long, undefined, to), open('othello', long, undefined, to)];
  const firsts = await Promise.all(streams.map((s) => s.first));
  t.same(firsts.map((e) => e.event), ['progress', 'progress'], 'two streams, at the limit, run');

  const refused = open('othello', long, undefined, to);
  const res = await refused.response;
  const { body } = await refused.done;
  t.equal(res.statusCode, 503);
  t.same([JSON.parse(body).code, res.headers['retry-after']], ['TOO_MANY_STREAMS', '1'], 'the third is refused before any event');
  const plain = await fetch(`http://127.0.0.1:${to}/v1/games/othello/analyse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: othelloStart, maxDepth: 2 }),
  });
  t.equal(plain.status, 200, 'a JSON analysis is not a stream');

  for (const s of streams) s.req.destroy();
  const until = Date.now() + 20_000;
  while (limited.pool.stats().running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  const again = open('othello', { state: othelloStart, maxDepth: 2 }, undefined, to);
  t.equal((await again.response).statusCode, 200, 'closed streams free their places');
  await again.done;
  const metrics = await (await fetch(`http://127.0.0.1:${to}/metrics`)).text();
  t.match(metrics, /kibitz_search_rejected_total\{reason="too_many_streams"\} 1/);
});
