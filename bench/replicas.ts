/**
 * npm run replicas [-- --replicas 3 --positions 60 --repeats 3 --budget 300 --clients 6 --seconds 15]
 *
 * Replicas sharing one Redis, on this machine: starts a redis-server (KIBITZ_REDIS_SERVER, or
 * redis-server on the PATH; nothing written to disk) and N server processes (WORKERS=1, SEARCH_NICE=0,
 * REDIS_URL, rate limiting on with a limit no client reaches, so that every request also goes through
 * the shared limit), then:
 *
 *  1. Sharing: every position is searched once (timed, --budget) on one replica, then asked again
 *     --repeats times, one request at a time, each time on the next replica. Prints the share of repeats
 *     served from a cache, by tier (this replica's own or Redis), the searches the repeats cost, and the
 *     latency of a served answer (client round trip and the server's elapsedMs, p50/p99).
 *  2. Redis killed under load: for --seconds, --clients clients each ask a new position on one replica
 *     and then the same position on the next replica; Redis is killed (SIGKILL) at a third and started
 *     again, empty, at two thirds. Prints per period the requests, the requests lost (anything but a
 *     200, network errors included), how many repeats were served from a cache, latencies, and how
 *     long the replicas took to use Redis again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { killWithParent } from './child-process.js';
import { Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { type ParsedArgs, intOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { freePort, startServer, type RunningServer } from './http.js';
import { percentile } from './load.js';

interface Options {
  readonly replicas: number;
  readonly positions: number;
  readonly repeats: number;
  readonly budget: number;
  readonly clients: number;
  readonly seconds: number;
  readonly redisTimeoutMs: number;
  readonly redisServer: string;
}

interface Asked {
  readonly status: number;
  readonly cached: boolean;
  /** Client round trip, ms. */
  readonly roundTripMs: number;
  /** The server's elapsedMs (arrival to answer), NaN without an answer. */
  readonly serverMs: number;
}

type MnkState = { m: number; n: number; k: number; board: string[]; turn: string };

/** Distinct 15x15 gomoku openings: three stones each near the centre, X to move. */
export function openings(count: number, seed: number): MnkState[] {
  const rng = new Random(seed);
  const seen = new Set<string>();
  const out: MnkState[] = [];
  while (out.length < count) {
    const cells = Array.from({ length: 15 }, () => new Array<string>(15).fill('.'));
    for (let stone = 0; stone < 6; ) {
      const r = 4 + rng.below(7);
      const c = 4 + rng.below(7);
      if (cells[r][c] !== '.') continue;
      cells[r][c] = stone % 2 === 0 ? 'X' : 'O';
      stone++;
    }
    const board = cells.map((row) => row.join(''));
    const key = board.join('/');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ m: 15, n: 15, k: 5, board, turn: 'X' });
  }
  return out;
}

/** A redis-server of its own on a free loopback port, that the bench kills and starts again. */
class RedisProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly binary: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'];
    const child = killWithParent(spawn(this.binary, args, { stdio: 'ignore' }));
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(error.code === 'ENOENT' ? `${this.binary} not found: install redis-server or set KIBITZ_REDIS_SERVER` : error.message)),
      );
      child.once('spawn', resolve);
    });
    const until = Date.now() + 10_000;
    while (!(await pong(this.port))) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`${this.binary} did not answer on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  kill(): Promise<void> {
    const child = this.child;
    return new Promise((resolve) => {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/** Answers PING with PONG on a fresh connection (false on refusal or within 200 ms of silence); the Redis tests use it too. */
export function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(200, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

async function ask(url: string, state: MnkState, budget: number): Promise<Asked> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/v1/games/mnk/best-move`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state, timeBudgetMs: budget }),
    });
    const body = (await res.json()) as { cached?: boolean; elapsedMs?: number };
    return { status: res.status, cached: body.cached === true, roundTripMs: performance.now() - started, serverMs: body.elapsedMs ?? NaN };
  } catch {
    return { status: 0, cached: false, roundTripMs: performance.now() - started, serverMs: NaN };
  }
}

/** Sums a Prometheus counter's samples whose labels match, over every replica. */
async function counter(servers: readonly RunningServer[], name: string, labels: RegExp = /.*/): Promise<number> {
  let sum = 0;
  for (const server of servers) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    for (const match of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))) {
      if (labels.test(match[1] ?? '')) sum += Number(match[2]);
    }
  }
  return sum;
}

/** kibitz_redis_fallback_total over every replica, by its labels. */
async function fallbackCounts(servers: readonly RunningServer[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const server of servers) {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    for (const m of text.matchAll(/^kibitz_redis_fallback_total\{operation="([a-z_]+)",reason="([a-z]+)"\} (\S+)$/gm)) {
      const key = `${m[1]} ${m[2]}`;
      out.set(key, (out.get(key) ?? 0) + Number(m[3]));
    }
  }
  return out;
}

function describeFallbacks(before: Map<string, number>, after: Map<string, number>): string {
  const parts = [...after].map(([key, n]) => [key, n - (before.get(key) ?? 0)] as const).filter(([, n]) => n > 0);
  return parts.length === 0 ? 'none' : parts.map(([key, n]) => `${key} ${n}`).join(', ');
}

const ms = (values: number[], p: number) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length === 0 ? '-' : percentile(sorted, p).toFixed(1);
};

export async function runReplicas(print: (line: string) => void, opts: Options): Promise<number> {
  const redis = new RedisProcess(opts.redisServer, await freePort());
  await redis.start();
  const servers: RunningServer[] = [];
  try {
    // SEARCH_NICE=0: N replicas share this machine's cores with the bench (and whatever else runs); niced search
    // threads would lose them to it and have their first searches answered by the fallback, which is not stored.
    const env = { WORKERS: '1', TT_SIZE_MB: '16', SEARCH_NICE: '0', LOG_LEVEL: 'error', REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: String(opts.redisTimeoutMs), RATE_LIMIT_PER_MINUTE: '10000000' };
    for (let i = 0; i < opts.replicas; i++) servers.push(await startServer(env));
    print(
      `${opts.replicas} replicas (WORKERS=1 each, REDIS_TIMEOUT_MS=${opts.redisTimeoutMs}) and one redis-server on this machine ` +
        `(load average ${loadavg()[0].toFixed(1)}); best-move mnk 15x15, timeBudgetMs ${opts.budget}`,
    );
    const fallbacksAt0 = await fallbackCounts(servers);

    // 1. Sharing.
    const positions = openings(opts.positions, 1);
    const searchesBefore = await counter(servers, 'kibitz_search_total', /source="worker"/);
    const fallbacksBefore1 = await counter(servers, 'kibitz_search_total', /source="fallback"/);
    // One lane per replica, so first searches never queue (a search that waits past its deadline is answered
    // by the fallback, which is not stored).
    const firsts = new Array<Asked>(positions.length);
    await Promise.all(
      servers.map(async (server, lane) => {
        for (let i = lane; i < positions.length; i += servers.length) firsts[i] = await ask(server.url, positions[i], opts.budget);
      }),
    );
    const searchesAfterFirsts = await counter(servers, 'kibitz_search_total', /source="worker"/);
    const fallbacksAfterFirsts = await counter(servers, 'kibitz_search_total', /source="fallback"/);
    const fallbacksInFirsts = fallbacksAfterFirsts - fallbacksBefore1;
    const hits = async () => ({
      local: await counter(servers, 'kibitz_result_cache_total', /tier="local"/),
      redis: await counter(servers, 'kibitz_result_cache_total', /tier="redis"/),
    });
    const hitsBefore = await hits();
    // One at a time: this measures what serving costs, not how clients queue. Before a position's N-th repeat
    // (N replicas) the replica asked has never seen it, so a hit can only come from Redis; from then on,
    // the replica may have it in its own cache.
    const repeats: Asked[] = [];
    const fromRedisOnly: Asked[] = [];
    for (let r = 1; r <= opts.repeats; r++) {
      for (const [i, state] of positions.entries()) {
        const answer = await ask(servers[(i + r) % servers.length].url, state, opts.budget);
        repeats.push(answer);
        if (r < servers.length) fromRedisOnly.push(answer);
      }
    }
    const searchesByRepeats = (await counter(servers, 'kibitz_search_total', /source="worker"/)) - searchesAfterFirsts;
    const fallbacksInRepeats = (await counter(servers, 'kibitz_search_total', /source="fallback"/)) - fallbacksAfterFirsts;
    const hitsAfter = await hits();
    const local = hitsAfter.local - hitsBefore.local;
    const shared = hitsAfter.redis - hitsBefore.redis;
    const served = repeats.filter((a) => a.cached);
    print('');
    print(
      `1. ${positions.length} positions, each searched once (one request at a time per replica), then asked ${opts.repeats} more times, ` +
        'each time on the next replica (one request at a time)',
    );
    print('| requests | 200 | served from a cache | of which from Redis | searches | fallbacks | round trip p50 / p99 ms | server elapsedMs p50 / p99 |');
    print('|---|---|---|---|---|---|---|---|');
    const row = (label: string, list: Asked[], cachedCount: string, fromRedis: string, searches: [number, number]) =>
      print(
        `| ${label}: ${list.length} | ${list.filter((a) => a.status === 200).length} | ${cachedCount} | ${fromRedis} | ${searches[0]} | ${searches[1]} | ` +
          `${ms(list.map((a) => a.roundTripMs), 50)} / ${ms(list.map((a) => a.roundTripMs), 99)} | ` +
          `${ms(list.map((a) => a.serverMs), 50)} / ${ms(list.map((a) => a.serverMs), 99)} |`,
      );
    row('first asks', firsts, String(firsts.filter((a) => a.cached).length), '-', [searchesAfterFirsts - searchesBefore, fallbacksInFirsts]);
    const share = `${served.length} (${((100 * served.length) / Math.max(1, repeats.length)).toFixed(1)}%)`;
    row('repeats', repeats, share, `${shared} (local ${local})`, [searchesByRepeats, fallbacksInRepeats]);
    // A search still queued at its deadline is answered by the fallback (depth 2), and such answers are not stored.
    print(`operations answered without Redis: ${describeFallbacks(fallbacksAt0, await fallbackCounts(servers))}`);
    const fallbacksAt1 = await fallbackCounts(servers);
    const latency = (label: string, list: Asked[]) =>
      print(
        `${label} (${list.length}): round trip p50 ${ms(list.map((a) => a.roundTripMs), 50)} ms, p99 ${ms(list.map((a) => a.roundTripMs), 99)} ms; ` +
          `server elapsedMs p50 ${ms(list.map((a) => a.serverMs), 50)}, p99 ${ms(list.map((a) => a.serverMs), 99)}`,
      );
    latency('served by replicas that had never seen the position (from Redis)', fromRedisOnly.filter((a) => a.cached));
    latency('all served answers', served);

    // 2. Redis killed under load and started again.
    const asked = new Set(positions.map((p) => p.board.join('/')));
    const fresh = openings(5000, 2).filter((p) => !asked.has(p.board.join('/')));
    let freshNext = 0;
    const started = Date.now();
    const end = started + opts.seconds * 1000;
    const killAt = started + (opts.seconds * 1000) / 3;
    const restartAt = started + (opts.seconds * 2000) / 3;
    const log: Array<Asked & { at: number; repeat: boolean }> = [];
    let turn = 0;
    // Each client: a new position on one replica, then the same position on the next one.
    const client = async () => {
      while (Date.now() < end) {
        const state = fresh[freshNext++ % fresh.length];
        const replica = turn++ % servers.length;
        for (const [offset, repeat] of [[0, false], [1, true]] as const) {
          const at = Date.now();
          log.push({ ...(await ask(servers[(replica + offset) % servers.length].url, state, opts.budget)), at, repeat });
        }
      }
    };
    const chaos = (async () => {
      await new Promise((r) => setTimeout(r, killAt - Date.now()));
      await redis.kill();
      await new Promise((r) => setTimeout(r, restartAt - Date.now()));
      await redis.start();
      const restarted = Date.now();
      const back: number[] = [];
      for (const server of servers) {
        while (!/^kibitz_redis_up 1/m.test(await (await fetch(`${server.url}/metrics`)).text())) await new Promise((r) => setTimeout(r, 10));
        back.push(Date.now() - restarted);
      }
      return back;
    })();
    await Promise.all(Array.from({ length: opts.clients }, client));
    const resumedAfter = await chaos;

    print('');
    print(
      `2. ${opts.clients} clients for ${opts.seconds} s, each asking a new position on one replica, then the same on the next; ` +
        `Redis killed (SIGKILL) at ${(opts.seconds / 3).toFixed(1)} s and started again, empty, at ${((2 * opts.seconds) / 3).toFixed(1)} s`,
    );
    print('| period | requests | lost | repeats served from a cache | served: round trip p50 / p99 ms | searched: round trip p50 / p99 ms |');
    print('|---|---|---|---|---|---|');
    const periods: Array<[string, number, number]> = [
      ['Redis up', started, killAt],
      ['Redis down', killAt, restartAt],
      ['Redis back (empty)', restartAt, Infinity],
    ];
    let lost = 0;
    for (const [label, from, to] of periods) {
      const list = log.filter((a) => a.at >= from && a.at < to);
      const bad = list.filter((a) => a.status !== 200).length;
      lost += bad;
      const again = list.filter((a) => a.repeat);
      const hit = list.filter((a) => a.cached);
      const searched = list.filter((a) => !a.cached && a.status === 200);
      print(
        `| ${label} | ${list.length} | ${bad} | ${again.filter((a) => a.cached).length} of ${again.length} | ` +
          `${ms(hit.map((a) => a.roundTripMs), 50)} / ${ms(hit.map((a) => a.roundTripMs), 99)} | ` +
          `${ms(searched.map((a) => a.roundTripMs), 50)} / ${ms(searched.map((a) => a.roundTripMs), 99)} |`,
      );
    }
    const statuses = new Map<number, number>();
    for (const a of log) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    print(`requests lost: ${lost} of ${log.length} (by status: ${JSON.stringify(Object.fromEntries(statuses))}; 0 = a network error)`);
    print(`replicas using Redis again ${resumedAfter.map((x) => `${x} ms`).join(', ')} after its restart`);
    print(`operations answered without Redis: ${describeFallbacks(fallbacksAt1, await fallbackCounts(servers))}`);
    print(`load average at the end: ${loadavg()[0].toFixed(1)}`);
    return lost === 0 ? 0 : 1;
  } finally {
    for (const server of servers) await server.stop();
    await redis.kill();
  }
}

const spec = {
  name: 'replicas',
  usage: `npm run replicas [-- --replicas 3] [-- --positions 60] [-- --repeats 3] [-- --budget 300] [-- --clients 6] [-- --seconds 15]
                 [-- --redis-timeout 50]

Starts a redis-server (KIBITZ_REDIS_SERVER, or redis-server on the PATH) and N built servers sharing it,
then measures (1) how many repeated positions are served from a cache when each repeat goes to another
replica, and how fast, and (2) requests lost when Redis is killed under load and started again, and
how sharing stops and resumes meanwhile.
Exits 1 if any request was lost.

  --replicas N    server processes, WORKERS=1 each (default 3)
  --positions N   distinct 15x15 gomoku openings (default 60)
  --repeats N     times each is asked again, each time on the next replica (default 3)
  --budget MS     timeBudgetMs of every request (default 300)
  --clients N     concurrent clients of the kill-and-restart run (default 6)
  --seconds N     length of the Redis kill-and-restart run (default 15)
  --redis-timeout MS  REDIS_TIMEOUT_MS of the replicas (default 50, the service's default)
  --help          this text`,
  options: {
    replicas: { type: 'string' },
    positions: { type: 'string' },
    repeats: { type: 'string' },
    budget: { type: 'string' },
    clients: { type: 'string' },
    seconds: { type: 'string' },
    'redis-timeout': { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<number> {
  return runReplicas((line) => console.log(line), {
    replicas: intOption(values, 'replicas', 3, 1, 16),
    positions: intOption(values, 'positions', 60, 1, 10_000),
    repeats: intOption(values, 'repeats', 3, 1, 100),
    budget: intOption(values, 'budget', 300, 1, 60_000),
    clients: intOption(values, 'clients', 6, 1, 1000),
    seconds: intOption(values, 'seconds', 15, 3, 3600),
    redisTimeoutMs: intOption(values, 'redis-timeout', 50, 1, 5000),
    redisServer: process.env.KIBITZ_REDIS_SERVER ?? 'redis-server',
  });
}

runCliIfMain(import.meta.url, spec, main);
