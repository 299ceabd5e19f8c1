/**
 * Overload in the shape an operator reported it: 40 clients asking at once for 1.5 s searches of the
 * real server process (2 search threads, a queue of 4), each client asking again the moment it is
 * answered, while a probe asks `/health` every 25 ms. Every search gets a 200 or a 503 QUEUE_FULL with
 * Retry-After, and every probe a 200. The probe's latency is printed; it is bounded here only against
 * a stall (a generous ceiling, not the 20 ms goal, which `npm run load -- --clients 40 --budget 1500
 * --workers 2 --queue 4` measures on a quiet machine).
 */
import t from 'tap';
import autocannon from 'autocannon';
import { startServerProcess } from '../support/server-process.js';
import { OPEN_STATE } from '../support/states.js';

t.test('40 clients of 1.5 s searches against 2 threads and a queue of 4: every probe answered', async (t) => {
  const server = await startServerProcess({ WORKERS: '2', MAX_QUEUE: '4', CACHE_ENTRIES: '0', LOG_LEVEL: 'info' }, { untracked: true });
  t.teardown(() => server.stop());
  const seconds = 4;
  const until = Date.now() + seconds * 1000;
  const probes: { status: number; ms: number }[] = [];
  const probing = (async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const status = await fetch(`${server.url}/health`).then((r) => r.status, () => 0);
      probes.push({ status, ms: performance.now() - started });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const statuses = new Map<number, number>();
  const result = await autocannon({
    url: `${server.url}/v1/games/mnk/best-move`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: OPEN_STATE, timeBudgetMs: 1500 }),
    connections: 40,
    duration: seconds,
    timeout: 10,
    setupClient: (client) => client.on('response', (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)),
  });
  await probing;
  const byStatus = Object.fromEntries(statuses);
  t.comment(`searches by status: ${JSON.stringify(byStatus)}`);
  t.ok((statuses.get(200) ?? 0) > 0, 'searches were answered');
  t.ok((statuses.get(503) ?? 0) > 0, 'and the rest refused');
  t.same([...statuses.keys()].filter((s) => s !== 200 && s !== 503), [], 'nothing but 200 and 503');
  t.equal(result.errors, 0, 'no connection error');
  t.equal(result.timeouts, 0, 'no request timed out');
  const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
  const p99 = ms[Math.min(ms.length - 1, Math.floor(0.99 * ms.length))];
  t.comment(`/health: ${ms.length} probes, p50 ${ms[ms.length >> 1].toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms`);
  t.ok(probes.length >= 5, 'the probe ran throughout');
  t.ok(probes.every((p) => p.status === 200), 'every probe answered 200');
  t.ok(ms.at(-1)! < 5000, 'no probe stalled behind the load');
  t.equal(await server.stop(), 0, 'a clean exit after the load');
});
