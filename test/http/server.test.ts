/**
 * The real process (dist/src/server.js, built by `npm test`'s pretest): structured search logs and
 * graceful SIGTERM shutdown with a search in flight, and with connections whose clients aborted
 * analysis streams.
 */
import t from 'tap';
import type { Test } from 'tap';
import { spawn } from 'node:child_process';
import { killWithParent } from '../../bench/child-process.js';
import { OPEN_STATE } from '../support/states.js';
import { freePort } from '../support/server-process.js';
import { fromRoot } from '../support/paths.js';

const entry = fromRoot('dist/src/server.js');

/** The real server on a free port, ready; its stdout collected; killed at teardown if still running. */
async function startServer(t: Test, env: Record<string, string>) {
  const port = await freePort();
  const child = killWithParent(
    spawn(process.execPath, [entry], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), TT_SIZE_MB: '4', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const out = { stdout: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  let ready = false;
  while (!ready && Date.now() < until) {
    ready = await fetch(`${url}/ready`).then((r) => r.status === 200, () => false);
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, out, exited, ready };
}

t.test('SIGTERM lets the in-flight search answer, logs it, and exits 0', async (t) => {
  const { child, url, out, exited, ready } = await startServer(t, { WORKERS: '1', NODE_ENV: 'production' });
  t.ok(ready, 'the server became ready');

  const inFlight = fetch(`${url}/v1/games/mnk/best-move`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'sigterm-test' },
    body: JSON.stringify({ state: OPEN_STATE, timeBudgetMs: 1500 }),
  });
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGTERM');

  const reply = await inFlight;
  t.equal(reply.status, 200, 'the search in flight still answers');
  const body = (await reply.json()) as { move: { notation: string }; stopReason: string };
  t.type(body.move.notation, 'string');
  t.equal(await exited, 0, 'the process exits 0');

  const lines = out.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const search = lines.find((line) => line.msg === 'search');
  t.ok(search, 'one structured line per search');
  t.match(search, { game: 'mnk', budgetMs: 1500, stopReason: body.stopReason, reqId: 'sigterm-test' });
  for (const field of ['elapsedMs', 'queueMs', 'depth', 'nodes']) t.type(search?.[field], 'number', `the search line carries ${field}`);
  t.ok(lines.some((line) => line.msg === 'shutdown complete'), 'shutdown is logged');
});

t.test('SIGTERM right after clients aborted analysis streams (Node fetch keeps the sockets): exits 0 at once', async (t) => {
  const { child, url, out, exited, ready } = await startServer(t, { WORKERS: '2', SHUTDOWN_TIMEOUT_MS: '20000' });
  t.ok(ready, 'the server became ready');
  const state = await (await fetch(`${url}/v1/games/othello/initial-state`)).json();
  const streams = [0, 1, 2].map(async () => {
    const controller = new AbortController();
    const res = await fetch(`${url}/v1/games/othello/analyse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ state, timeBudgetMs: 5000 }),
      signal: controller.signal,
    });
    await res.body!.getReader().read(); // the first event: the stream is running
    controller.abort();
    return res.status;
  });
  t.same(await Promise.all(streams), [200, 200, 200], 'three streams ran and were aborted by their clients');
  const signalled = Date.now();
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'the process exits 0');
  t.ok(Date.now() - signalled < 15_000, `well before the 20 s hard stop (${Date.now() - signalled} ms)`);
  t.match(out.stdout, /"msg":"shutdown complete"/);
  t.notMatch(out.stdout, /shutdown took too long/);
});
