/**
 * npm run load [-- --seconds 10 --budget 200 --workers 2 --queue 2]
 *
 * Overload test: best-move requests at 1x, 2x and 10x the pool's capacity (capacity = workers +
 * queue slots) against a locally started server on loopback, each level bounded in time. Reports,
 * for accepted requests only, p50/p99 latency minus the budget; the 503 rate; throughput; peak RSS;
 * how fast /health and legal-moves answer meanwhile, and the server's event-loop delay (p99 and max of
 * perf_hooks.monitorEventLoopDelay over the level, read from /metrics, where prom-client resets it at
 * every scrape).
 */
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { ProbeJob } from './load-probe.js';
import { BENCH_MNK_STATE, answersBySource, sourceDelta, startServer } from './http.js';

interface Level {
  factor: number;
  connections: number;
  accepted: number;
  rejected: number;
  other: number;
  p50: number;
  p99: number;
  max: number;
  throughput: number;
  healthP99: number;
  cheapP99: number;
  loopP99: number;
  loopMax: number;
}

/** Event-loop delay since the previous scrape (ms): prom-client's monitorEventLoopDelay figures, reset per scrape. */
export async function eventLoopDelay(url: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^kibitz_nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read('p99'), max: read('max') };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times sequential probes of a cheap endpoint while the load runs, on a thread of its own (bench/load-probe.ts). */
function probe(url: string, init: RequestInit | undefined, until: number, everyMs: number): Promise<number[]> {
  const job: ProbeJob = { url, init, until, everyMs };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-probe.js', import.meta.url), { workerData: job });
    worker.once('message', (times: number[]) => resolve(times));
    worker.once('error', reject);
  });
}

interface LoadOptions {
  readonly seconds: number;
  readonly budget: number;
  readonly workers: number;
  readonly queue: number;
  /** One level of this many clients instead of 1x, 2x and 10x the capacity. */
  readonly clients: number | undefined;
  /** Pause between two probes of /health (and of legal-moves). */
  readonly probeMs: number;
  readonly logLevel: string;
}

async function level(url: string, connections: number, capacity: number, opts: LoadOptions): Promise<Level> {
  const { budget, seconds } = opts;
  const factor = connections / capacity;
  const latencies: number[] = [];
  let rejected = 0;
  let other = 0;
  await eventLoopDelay(url); // resets the server's histogram
  const until = Date.now() + seconds * 1000;
  const health = probe(`${url}/health`, undefined, until, opts.probeMs);
  const legalMoves = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: BENCH_MNK_STATE }) };
  const cheap = probe(`${url}/v1/games/mnk/legal-moves`, legalMoves, until, opts.probeMs);
  let finish: (r: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve) => (finish = resolve));
  const instance = autocannon(
    {
    url: `${url}/v1/games/mnk/best-move`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: BENCH_MNK_STATE, timeBudgetMs: budget }),
      connections,
      duration: seconds,
      timeout: 30,
    },
    (_error, r) => finish(r),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === 200) latencies.push(responseTime);
    else if (statusCode === 503) rejected++;
    else other++;
  });
  const result = await done;
  const healthTimes = await health;
  const cheapTimes = await cheap;
  const loop = await eventLoopDelay(url);
  latencies.sort((a, b) => a - b);
  return {
    factor,
    connections,
    accepted: latencies.length,
    rejected,
    other: other + result.errors + result.timeouts,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    throughput: latencies.length / seconds,
    healthP99: percentile(healthTimes, 99),
    cheapP99: percentile(cheapTimes, 99),
    loopP99: loop.p99,
    loopMax: loop.max,
  };
}

export async function runLoad(print: (line: string) => void, opts: LoadOptions): Promise<void> {
  const server = await startServer({ WORKERS: String(opts.workers), MAX_QUEUE: String(opts.queue), CACHE_ENTRIES: '0', LOG_LEVEL: opts.logLevel });
  const capacity = opts.workers + opts.queue;
  try {
    const setup = `WORKERS=${opts.workers} MAX_QUEUE=${opts.queue} (capacity ${capacity})`;
    print(`best-move mnk 15x15, timeBudgetMs ${opts.budget}, ${setup}, ${opts.seconds} s per level, LOG_LEVEL=${opts.logLevel}, probes every ${opts.probeMs} ms`);
    print(
      '| load | clients | accepted | 503 | 503 rate | other | p50-budget ms | p99-budget ms | max-budget ms | accepted/s | /health p99 ms | ' +
        'legal-moves p99 ms | loop delay p99 ms | loop delay max ms |',
    );
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    const sources: string[] = [];
    for (const connections of opts.clients === undefined ? [1, 2, 10].map((f) => f * capacity) : [opts.clients]) {
      const before = await answersBySource(server.url);
      const l = await level(server.url, connections, capacity, opts);
      sources.push(`${connections} clients: ${sourceDelta(before, await answersBySource(server.url))}`);
      const total = l.accepted + l.rejected + l.other;
      print(
        `| ${Number(l.factor.toFixed(1))}x | ${l.connections} | ${l.accepted} | ${l.rejected} | ${((100 * l.rejected) / Math.max(1, total)).toFixed(1)}% | ${l.other} | ` +
          `${(l.p50 - opts.budget).toFixed(0)} | ${(l.p99 - opts.budget).toFixed(0)} | ${(l.max - opts.budget).toFixed(0)} | ${l.throughput.toFixed(1)} | ` +
          `${l.healthP99.toFixed(1)} | ${l.cheapP99.toFixed(1)} | ${l.loopP99.toFixed(1)} | ${l.loopMax.toFixed(1)} |`,
      );
    }
    // 'fallback': queued at its deadline, answered by a depth-2 search on the fallback thread.
    print(`accepted answers by source: ${sources.join('; ')}`);
    print(`peak RSS of the server: ${server.peakRssMb() ?? '?'} MiB`);
  } finally {
    const code = await server.stop();
    print(`server exit code after SIGTERM: ${code}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logLevelOption(value: string | undefined): string {
  if (value === undefined) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(value)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

const spec = {
  name: 'load',
  usage: `npm run load [-- --seconds 10] [-- --budget 200] [-- --workers 2] [-- --queue 2] [-- --clients N] [-- --probe-ms 25]

Starts the built server on a free loopback port and offers best-move traffic at 1x, 2x and 10x its
capacity, then prints per level: throughput, answers by status, latency and budget overshoot
percentiles, /health and cheap-route latency while the pool is saturated.

  --seconds N   seconds per load level (default 10)
  --budget MS   timeBudgetMs of each search (default 200)
  --workers N   WORKERS of the server under test (default 2)
  --queue N     MAX_QUEUE of the server under test (default 2)
  --clients N   one level of N concurrent clients instead of 1x, 2x and 10x the capacity
  --probe-ms N  pause between two /health (and legal-moves) probes (default 25)
  --log-level L LOG_LEVEL of the server under test (default info, the service's default: a log line per search)
  --help        this text`,
  options: {
    seconds: { type: 'string' },
    budget: { type: 'string' },
    workers: { type: 'string' },
    queue: { type: 'string' },
    clients: { type: 'string' },
    'probe-ms': { type: 'string' },
    'log-level': { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  await runLoad((line) => console.log(line), {
    seconds: intOption(values, 'seconds', 10, 1, 3600),
    budget: intOption(values, 'budget', 200, 1, 60_000),
    workers: intOption(values, 'workers', 2, 1, 64),
    queue: intOption(values, 'queue', 2, 0, 10_000),
    clients: values.clients === undefined ? undefined : intOption(values, 'clients', 1, 1, 10_000),
    probeMs: intOption(values, 'probe-ms', 25, 1, 10_000),
    logLevel: logLevelOption(values['log-level']),
  });
}

runCliIfMain(import.meta.url, spec, main);
