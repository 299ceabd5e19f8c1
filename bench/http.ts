/**
 * HTTP figures: best-move with a 100 ms budget at 1, 2 and 8 concurrent clients against a locally
 * started server (loopback only, bounded in time), reporting latency minus budget, throughput and
 * 503s. Also used by bench/load.ts for the overload table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { killWithParent } from './child-process.js';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Peak resident set size so far (VmHWM), MiB; undefined off Linux. */
  peakRssMb(): number | undefined;
  stop(): Promise<number | null>;
}

/** A free loopback TCP port (bench/soak.ts uses it too). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const entry = fileURLToPath(new URL('../src/server.js', import.meta.url));
  const child = killWithParent(spawn(process.execPath, [entry], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/ready`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('server did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    peakRssMb() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = /VmHWM:\s+(\d+)/.exec(status);
        return kb === null ? undefined : Math.round(Number(kb[1]) / 1024);
      } catch {
        return undefined;
      }
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
    },
  };
}

export interface LoadFigures {
  readonly connections: number;
  readonly requests: number;
  readonly ok: number;
  readonly rejected503: number;
  readonly otherErrors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly throughput: number;
}

/** Searches answered so far, by where the answer came from (worker, fallback, cache, direct), read from /metrics. */
export async function answersBySource(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const match of text.matchAll(/^kibitz_search_total\{[^}]*source="([a-z]+)"[^}]*\} (\d+)/gm)) {
    out[match[1]] = (out[match[1]] ?? 0) + Number(match[2]);
  }
  return out;
}

/** The answers between two answersBySource readings, as "worker N, fallback N, ...". */
export function sourceDelta(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(after)
    .sort()
    .map((source) => `${source} ${after[source] - (before[source] ?? 0)}`)
    .join(', ');
}

export async function measure(url: string, path: string, body: unknown, connections: number, seconds: number): Promise<LoadFigures> {
  const result = await autocannon({
    url: `${url}${path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections,
    duration: seconds,
    timeout: 70,
  });
  const codes = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const count = (code: string): number => codes[code]?.count ?? 0;
  const ok = count('200');
  const rejected503 = count('503');
  const total = Object.values(codes).reduce((a, c) => a + c.count, 0);
  return {
    connections,
    requests: total,
    ok,
    rejected503,
    otherErrors: total - ok - rejected503 + result.errors + result.timeouts,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    throughput: total / seconds,
  };
}

/** A quiet 15x15 gomoku opening (no forced win in reach): searches use their whole budget. */
export const BENCH_MNK_STATE = {
  m: 15,
  n: 15,
  k: 5,
  board: [
    '...............',
    '...............',
    '...............',
    '...............',
    '...............',
    '...............',
    '......OO.......',
    '.......X.......',
    '........X......',
    '...............',
    '...............',
    '...............',
    '...............',
    '...............',
    '...............',
  ],
  turn: 'X',
};

export async function runHttpBench(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  const budget = 100;
  const seconds = opts.quick ? 3 : 10;
  const body = { state: BENCH_MNK_STATE, timeBudgetMs: budget };
  const header = 'clients | requests | 200 | 503 | other | p50-budget ms | p99-budget ms | req/s';
  const row = (connections: number, f: LoadFigures): string =>
    `${String(connections).padStart(7)} | ${String(f.requests).padStart(8)} | ${String(f.ok).padStart(3)} | ${String(f.rejected503).padStart(3)} | ` +
    `${String(f.otherErrors).padStart(5)} | ${(f.p50Ms - budget).toFixed(0).padStart(13)} | ` +
    `${(f.p99Ms - budget).toFixed(0).padStart(13)} | ${f.throughput.toFixed(1)}`;
  // Searches: the result cache is off, or every request after the first would be a cache hit.
  const server = await startServer({ CACHE_ENTRIES: '0' });
  try {
    print(`best-move mnk 15x15, timeBudgetMs ${budget}, ${seconds} s per level, default settings but CACHE_ENTRIES=0 (every request searches)`);
    print(header);
    const sources: string[] = [];
    for (const connections of [1, 2, 8]) {
      const before = await answersBySource(server.url);
      print(row(connections, await measure(server.url, '/v1/games/mnk/best-move', body, connections, seconds)));
      sources.push(`${connections} clients: ${sourceDelta(before, await answersBySource(server.url))}`);
    }
    // 'fallback' answers come from a depth-2 search on the main thread for requests still queued at their deadline.
    print(`answered by: ${sources.join('; ')}`);
    print(`peak RSS ${server.peakRssMb() ?? '?'} MiB`);
  } finally {
    await server.stop();
  }
  const cached = await startServer();
  try {
    print(`the same request repeated with the result cache on (default CACHE_ENTRIES): cache hits after the first search`);
    print(header);
    print(row(8, await measure(cached.url, '/v1/games/mnk/best-move', body, 8, seconds)));
  } finally {
    await cached.stop();
  }
}
