/**
 * The chaos scenario of test/pool/chaos.test.ts, run in a child process: worker threads (search threads
 * and the fallback thread) are terminated at random while best-move requests of every game arrive over
 * real sockets, more than the pool can hold. It prints one JSON line with what it observed; the test
 * asserts on it. (In a child, because Node itself can crash while threads start and end this often; see
 * the test.)
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Random } from '../../src/core/random.js';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { SearchPool } from '../../src/pool/pool.js';
import { GAMES } from '../../src/games/registry.js';
import { GAME_IDS } from '../../src/games/types.js';

export const HANG_MS = 20_000;

export interface ChaosObservation {
  sent: number;
  hung: number;
  statuses: Record<string, number>;
  kills: number;
  /** Warnings and errors logged, other than the failed searches' "request failed". */
  unexpectedLogs: string[];
  workerThreads: number;
  fallbackThreads: number;
  running: number;
  queued: number;
  configuredWorkers: number;
  /** Statuses of two searches sent once the pool has healed. */
  after: number[];
}

async function observe(seed: number): Promise<ChaosObservation> {
  const config = loadConfig({ WORKERS: '2', MAX_QUEUE: '4', TT_SIZE_MB: '4', CACHE_ENTRIES: '0', LOG_LEVEL: 'warn' });
  const pool = new SearchPool({ threads: config.workers, maxQueue: config.maxQueue, ttSizeMb: config.ttSizeMb });
  await pool.warmUp();
  // Warnings and errors are kept: fastify warns when a reply is sent twice.
  const logs: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') logs.push(JSON.parse(line) as (typeof logs)[number]);
      done();
    },
  });
  const app = await buildApp({ config, pool, logger: { level: 'warn', stream } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const random = new Random(seed);
  const states = GAME_IDS.map((id) => ({ id, state: GAMES[id].exampleState }));
  const statuses: Record<string, number> = {};
  let hung = 0;
  let sent = 0;
  const until = Date.now() + 5_000; // about ten kills (every 150-500 ms); the test asks for five
  const count = (key: string): void => {
    statuses[key] = (statuses[key] ?? 0) + 1;
  };

  const client = async (): Promise<void> => {
    while (Date.now() < until) {
      const { id, state } = states[random.below(states.length)];
      const budget = 50 + random.below(400);
      sent++;
      try {
        const res = await fetch(`${url}/v1/games/${id}/best-move`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ state, timeBudgetMs: budget }),
          signal: AbortSignal.timeout(HANG_MS),
        });
        const body = (await res.json()) as { code?: string };
        count(res.status === 200 ? '200' : `${res.status} ${body.code}`);
        if (res.status === 503) await new Promise((r) => setTimeout(r, 20));
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') hung++;
        else count(`error ${(error as Error).message}`);
      }
    }
  };
  let kills = 0;
  const killer = async (): Promise<void> => {
    while (Date.now() < until - 500) {
      await new Promise((r) => setTimeout(r, 150 + random.below(350)));
      const threads = [...pool.workerThreads, ...pool.fallbackThreads];
      if (threads.length === 0) continue;
      kills++;
      void threads[random.below(threads.length)].terminate();
    }
  };
  await Promise.all([killer(), ...Array.from({ length: 10 }, () => client())]);

  // The pool heals: full size again, and every thread serves.
  const healed = Date.now() + HANG_MS;
  // (A task claimed back from a thread that was still starting stays counted until a thread runs it.)
  const busy = (): boolean => pool.stats().running > 0 || pool.stats().queued > 0;
  while ((pool.workerThreads.length < config.workers || pool.fallbackThreads.length < 1 || busy()) && Date.now() < healed) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await pool.warmUp();
  const observation: ChaosObservation = {
    sent,
    hung,
    statuses,
    kills,
    unexpectedLogs: logs.filter((l) => !(l.level === 50 && l.msg === 'request failed')).map((l) => l.msg),
    workerThreads: pool.workerThreads.length,
    fallbackThreads: pool.fallbackThreads.length,
    running: pool.stats().running,
    queued: pool.stats().queued,
    configuredWorkers: config.workers,
    after: [],
  };
  observation.after = await Promise.all(
    [0, 1].map(() =>
      fetch(`${url}/v1/games/mnk/best-move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: { m: 15, n: 15, k: 5, board: Array(15).fill('.'.repeat(15)), turn: 'X' }, timeBudgetMs: 300 }),
      }).then((r) => r.status),
    ),
  );
  await app.close();
  await pool.close();
  return observation;
}

const seed = Number(process.argv[2] ?? 22);
process.stdout.write(`${JSON.stringify(await observe(seed))}\n`);
