import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kernelThreadId, niceThisThread } from '../../src/pool/thread-priority.js';
import {
  CancelledError,
  PoolClosedError,
  QueueFullError,
  SearchFailedError,
  SearchPool,
  newPiscina,
  workerEnv,
  workerExecArgv,
  type SearchJob,
} from '../../src/pool/pool.js';
import { newControlBlock, type SearchTaskResult } from '../../src/pool/task.js';
import type { GameId } from '../../src/games/types.js';

const workerFile = fileURLToPath(new URL('../support/fake-worker.mjs', import.meta.url));

const FALLBACK: SearchTaskResult = {
  move: 1,
  score: 0,
  exactScore: undefined,
  exact: false,
  pv: [1],
  depth: 0,
  nodes: 0,
  stopReason: 'time',
  lines: [],
  startedAt: 0,
  finishedAt: 0,
};

/** A scripted job: runs until `ms` from now, or for `spinMs` once started when given. */
function job(behaviour: string, ms: number, spinMs?: number): SearchJob {
  return {
    task: {
      gameId: behaviour as GameId,
      snapshot: new Int32Array(1),
      deadline: Date.now() + ms,
      maxDepth: spinMs,
      seed: undefined,
      profile: undefined,
      control: newControlBlock(),
    },
    fallback: () => FALLBACK,
  };
}

/** A pool whose threads are up, so timings below measure the pool, not thread start-up. Fallbacks on the main thread unless asked. */
async function newPool(threads: number, maxQueue: number, fallbackThread = false): Promise<SearchPool> {
  const pool = new SearchPool({ threads, maxQueue, ttSizeMb: 1, workerFile, minSearchMs: 20, fallbackThread });
  await pool.warmUp();
  return pool;
}

t.test('worker threads skip the parent module loaders and require(esm), and inherit when an explicit list is refused', async (t) => {
  const noRequireEsm = '--no-experimental-require-module';
  t.same(workerExecArgv(['--import=tsx', '--max-old-space-size=512', '--loader', 'ts-node/esm', '-r', 'x.cjs', '--enable-source-maps']), [
    '--max-old-space-size=512',
    '--enable-source-maps',
    noRequireEsm,
  ]);
  t.same(workerExecArgv(['--experimental-loader=a.mjs', '--require=b.cjs', '--import', 'c.mjs']), [noRequireEsm]);
  t.same(workerExecArgv([noRequireEsm]), [noRequireEsm], 'not repeated');
  const filename = fileURLToPath(new URL('../support/fake-worker.mjs', import.meta.url));
  const stripped = newPiscina({ filename, minThreads: 1, maxThreads: 1 }, ['--import=x.mjs', '--enable-source-maps']);
  t.same(stripped.options.execArgv, ['--enable-source-maps', noRequireEsm], 'the loader is left out');
  t.type(await stripped.run({ ping: true } as never), 'number', 'and the thread runs');
  await stripped.destroy();
  // NODE_OPTIONS of the threads' environment: a thread parses it even with an explicit option list.
  t.same(workerEnv({ A: '1' }), { A: '1' });
  t.same(workerEnv({ NODE_OPTIONS: '"--import=file:///a b/hook.mjs"', A: '1' }), { A: '1' }, 'a quoted loader alone: no NODE_OPTIONS left');
  t.same(
    workerEnv({ NODE_OPTIONS: '--require ./apm.cjs --max-old-space-size=512 "--title=a \\"b\\" c" --enable-source-maps' }).NODE_OPTIONS,
    '--max-old-space-size=512 "--title=a \\"b\\" c" --enable-source-maps',
    'the other options kept, quoted as they came',
  );
  // A loader that cannot load would stop every thread that ran it.
  const missing = newPiscina({ filename, minThreads: 1, maxThreads: 1 }, ['--enable-source-maps'], { ...process.env, NODE_OPTIONS: '--require=/nonexistent/loader.cjs' });
  t.type(await missing.run({ ping: true } as never), 'number', 'a thread starts without the parent environment\'s loader');
  await missing.destroy();
  // Worker threads refuse process-wide options in an explicit list (ERR_WORKER_INVALID_EXEC_ARGV).
  const refused = newPiscina({ filename, minThreads: 1, maxThreads: 1 }, ['--import=x.mjs', '--max-old-space-size=256']);
  t.equal(refused.options.execArgv, undefined, 'refused: the threads inherit');
  t.type(await refused.run({ ping: true } as never), 'number', 'and the thread runs');
  await refused.destroy();
});

t.test('runs one search per thread, queues the rest, and refuses past the queue bound', async (t) => {
  const pool = await newPool(1, 1);
  t.teardown(() => pool.close());
  t.equal(pool.saturated(), false);
  const first = pool.submit(job('busy', 300));
  t.equal(pool.saturated(), false, 'the thread is busy, the queue has room');
  const second = pool.submit(job('busy', 5000, 100));
  t.equal(pool.stats().running, 1);
  t.equal(pool.stats().queued, 1);
  t.equal(pool.saturated(), true, 'the next search would be refused');
  await t.rejects(pool.submit(job('busy', 300)), QueueFullError);
  t.equal(pool.stats().rejected, 1);
  const [a, b] = await Promise.all([first, second]);
  t.equal(a.source, 'worker');
  t.equal(b.source, 'worker');
  t.equal(a.result.stopReason, 'time');
});

t.test('a waiting search whose client leaves is dropped from the queue', async (t) => {
  const pool = await newPool(1, 4);
  t.teardown(() => pool.close());
  const running = pool.submit(job('busy', 300));
  const controller = new AbortController();
  const waiting = pool.submit(job('busy', 2000), controller.signal);
  t.equal(pool.stats().queued, 1);
  controller.abort();
  await t.rejects(waiting, CancelledError);
  t.equal(pool.stats().queued, 0, 'removed from the queue');
  t.equal((await running).source, 'worker');
});

t.test('a running search whose client leaves stops early and its thread lives on', async (t) => {
  const pool = await newPool(1, 4);
  t.teardown(() => pool.close());
  const controller = new AbortController();
  const started = Date.now();
  const cancelled = pool.submit(job('busy', 20_000), controller.signal);
  setTimeout(() => controller.abort(), 100);
  await t.rejects(cancelled, CancelledError);
  t.ok(Date.now() - started < 10_000, 'stopped long before its 20 s deadline');
  const next = await pool.submit(job('busy', 3000, 30));
  t.equal(next.source, 'worker', 'the pool still serves searches');
  t.equal(pool.stats().failed, 0, 'no worker failure was involved');
});

t.test('a search still waiting near its deadline is answered by its fallback', async (t) => {
  const pool = await newPool(1, 4);
  t.teardown(() => pool.close());
  const blocker = pool.submit(job('busy', 1500));
  const started = Date.now();
  const late = await pool.submit(job('busy', 200));
  t.equal(late.source, 'fallback');
  t.same(late.result, FALLBACK);
  t.ok(Date.now() - started < 1000, 'answered at its own deadline, not after the blocker');
  t.equal(pool.stats().fallbacks, 1);
  await blocker;
});

t.test('with the fallback thread, a late search is answered off the main thread', async (t) => {
  const pool = await newPool(1, 4, true);
  t.teardown(() => pool.close());
  t.equal(pool.fallbackThreads.length, 1, 'one dedicated fallback thread');
  const blocker = pool.submit(job('busy', 1500));
  const started = Date.now();
  const late = await pool.submit(job('busy', 200));
  t.equal(late.source, 'fallback');
  t.equal(late.result.move, 9, 'answered by the fallback thread');
  t.equal(late.result.nodes, pool.fallbackThreads[0].threadId, 'on that thread');
  t.ok(Date.now() - started < 1000, 'answered at its own deadline, not after the blocker');
  t.equal(pool.stats().fallbacksOnMainThread, 0);
  await blocker;
});

t.test('a fallback thread that fails or hangs: the main thread answers, and a hung thread is replaced', async (t) => {
  const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 1, workerFile, minSearchMs: 20, overrunKillMs: 300 });
  await pool.warmUp();
  t.teardown(() => pool.close());
  const blocker = pool.submit(job('busy', 2500));
  const failed = await pool.submit(job('fallback-throw', 200));
  t.same(failed.result, FALLBACK, 'a failing fallback thread: the main-thread fallback answers');
  const started = Date.now();
  const hung = await pool.submit(job('fallback-hang', 200));
  t.same(hung.result, FALLBACK, 'a hung fallback thread: the main-thread fallback answers');
  t.ok(Date.now() - started < 1500, 'shortly after the deadline (generous slack)');
  t.equal(pool.stats().fallbacksOnMainThread, 2);
  while (pool.stats().terminated === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await blocker;
  await pool.warmUp();
  const blocker2 = pool.submit(job('busy', 1000));
  const after = await pool.submit(job('busy', 200));
  t.equal(after.result.move, 9, 'a fresh fallback thread serves the next one');
  await blocker2;
});

t.test('a worker that throws fails only its own request', async (t) => {
  const pool = await newPool(1, 4);
  t.teardown(() => pool.close());
  await t.rejects(pool.submit(job('throw', 500)), SearchFailedError);
  const next = await pool.submit(job('busy', 3000, 30));
  t.equal(next.source, 'worker');
  t.equal(pool.stats().failed, 1);
});

t.test('a worker thread that dies mid-search is replaced', async (t) => {
  const pool = await newPool(2, 4);
  t.teardown(() => pool.close());
  const other = pool.submit(job('busy', 400));
  await t.rejects(pool.submit(job('exit', 500)), SearchFailedError);
  t.equal((await other).source, 'worker', 'the other request is unaffected');
  await pool.warmUp();
  const results = await Promise.all([pool.submit(job('busy', 3000, 30)), pool.submit(job('busy', 3000, 30))]);
  t.same(results.map((r) => r.source), ['worker', 'worker'], 'both threads serve again');
});

t.test('a thread killed from outside during a search fails that request only', async (t) => {
  const pool = await newPool(1, 4);
  t.teardown(() => pool.close());
  const victim = pool.submit(job('busy', 5000));
  await new Promise((r) => setTimeout(r, 100));
  await pool.workerThreads[0].terminate();
  await t.rejects(victim, SearchFailedError);
  await pool.warmUp();
  t.equal((await pool.submit(job('busy', 3000, 30))).source, 'worker', 'a new thread took its place');
});

t.test('close lets running work finish, then refuses new work', async (t) => {
  const pool = await newPool(1, 4);
  const running = pool.submit(job('busy', 200));
  const queued = pool.submit(job('busy', 5000, 100));
  const closed = pool.close();
  await t.rejects(pool.submit(job('busy', 100)), PoolClosedError);
  t.equal((await running).source, 'worker');
  t.equal((await queued).source, 'worker');
  await closed;
});

t.test('a job handed to a thread that is still starting is answered by its deadline', async (t) => {
  const slowFile = fileURLToPath(new URL('../support/slow-start-worker.mjs', import.meta.url));
  const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 1, workerFile: slowFile, minSearchMs: 20 });
  t.teardown(() => pool.close());
  const started = Date.now();
  const outcome = await pool.submit(job('busy', 300));
  t.equal(outcome.source, 'fallback');
  t.ok(Date.now() - started < 1200, 'did not wait for the thread to start');
  await pool.warmUp();
  t.equal((await pool.submit(job('busy', 3000, 30))).source, 'worker', 'served by the thread once it is up');
});

t.test('a thread that dies while starting: the pool replaces itself and serves again', async (t) => {
  // Piscina stops replacing threads once one has died during start-up; the pool notices and heals.
  const slowFile = fileURLToPath(new URL('../support/slow-start-worker.mjs', import.meta.url));
  const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 1, workerFile: slowFile, minSearchMs: 20, fallbackThread: false });
  t.teardown(() => pool.close());
  await pool.warmUp();
  // (Piscina's first threads count as started at once; their replacements do not.)
  const first = pool.workerThreads[0];
  await first.terminate();
  while (pool.workerThreads.length === 0 || pool.workerThreads[0] === first) await new Promise((resolve) => setTimeout(resolve, 10));
  await pool.workerThreads[0].terminate(); // the replacement, still loading its module (1.5 s)
  while (pool.stats().poolsReplaced === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await pool.warmUp();
  t.equal(pool.workerThreads.length, 1);
  t.equal((await pool.submit(job('busy', 3000, 30))).source, 'worker', 'the fresh pool serves');
});

t.test('a search that ignores its deadline is answered by the fallback, and its thread is replaced', async (t) => {
  const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 1, workerFile, minSearchMs: 20, overrunGraceMs: 100, overrunKillMs: 400 });
  await pool.warmUp();
  t.teardown(() => pool.close());
  const started = Date.now();
  const outcome = await pool.submit(job('hang', 100));
  t.equal(outcome.source, 'fallback', 'answered by the fallback');
  t.ok(Date.now() - started < 5_000, 'answered shortly after the deadline (generous slack)');
  t.equal(pool.stats().overruns, 1);
  // The runaway thread is terminated; Piscina replaces it and the next search is served normally.
  while (pool.stats().terminated === 0 || pool.stats().running > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await pool.warmUp();
  const next = await pool.submit(job('busy', 3000, 30));
  t.equal(next.source, 'worker');
  t.equal(next.result.move, 7);
  t.equal(pool.stats().terminated, 1);
});

t.test('warm-up survives the pool being replaced under it (its queued pings are aborted) and pings the fresh pool', async (t) => {
  const pool = new SearchPool({ threads: 2, maxQueue: 4, ttSizeMb: 1, workerFile, minSearchMs: 20, fallbackThread: true });
  t.teardown(() => pool.close());
  // What heal() does to a pool short of threads, done at once while the first pings wait for their threads to start.
  const internals = pool as unknown as { piscina: unknown; retire(old: unknown): void; makeSearchPiscina(): unknown };
  const first = internals.piscina;
  const warming = pool.warmUp();
  internals.retire(first);
  internals.piscina = internals.makeSearchPiscina();
  await warming;
  t.not(internals.piscina, first);
  t.equal(pool.workerThreads.length, 2, 'the fresh pool is up');
  const after = await pool.submit(job('busy', 3000, 30));
  t.equal(after.source, 'worker', 'and serves');
});

t.test('search threads run niced below the event loop; the fallback thread does not', async (t) => {
  t.equal(niceThisThread(0), false, 'nice 0 changes nothing');
  const tid = kernelThreadId();
  t.ok(tid !== undefined && Number.isInteger(tid), `a kernel thread id (${tid})`);
  const niceOf = (task: string): number => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[16]);
  const before = readdirSync('/proc/self/task').filter((task) => niceOf(task) === 7).length;
  const pool = new SearchPool({ threads: 2, maxQueue: 1, ttSizeMb: 1, searchNice: 7 });
  t.teardown(() => pool.close());
  await pool.warmUp();
  const niced = readdirSync('/proc/self/task').filter((task) => niceOf(task) === 7).length;
  t.equal(niced - before, 2, 'both search threads at nice 7');
  t.equal(niceOf(String(tid)), 0, 'the calling thread keeps its priority');
});
