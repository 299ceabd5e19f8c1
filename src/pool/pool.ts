/**
 * The search pool: Piscina runs the worker threads (warm, one search each, replaced when one dies);
 * admission is ours. Piscina can only cancel a running task by terminating its thread, which would
 * throw away the warm transposition table, so requests wait in our own bounded queue and are handed
 * to Piscina only when a thread is free. That gives:
 *  - a full queue answers at once (QueueFullError -> 503);
 *  - a waiting request whose client leaves is simply dropped from the queue;
 *  - a running search whose client leaves is stopped through a shared flag (the thread survives);
 *  - a request still waiting when its deadline nears is answered by its fallback (a shallow search on
 *    a small dedicated thread of its own, so the event loop stays free under overload; on the main
 *    thread only if that thread fails or is late), so the time budget holds, queue wait included.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { FALLBACK_SEARCH_MS } from './fallback.js';
import { sharedTableBuffer } from '../search/tt.js';
import {
  newControlBlock,
  CONTROL_CANCEL,
  CONTROL_STATE,
  CONTROL_THREAD,
  STATE_QUEUED,
  STATE_DONE,
  type ProgressMessage,
  type SearchTask,
  type SearchTaskResult,
} from './task.js';

export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('every search worker is busy and the queue is full');
    this.name = 'QueueFullError';
  }
}

export class PoolClosedError extends Error {
  constructor() {
    super('the search pool is shutting down');
    this.name = 'PoolClosedError';
  }
}

export class CancelledError extends Error {
  constructor() {
    super('the search was cancelled');
    this.name = 'CancelledError';
  }
}

export class SearchFailedError extends Error {
  constructor(cause: unknown) {
    super(`the search worker failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SearchFailedError';
  }
}

export interface PoolOptions {
  readonly threads: number;
  readonly maxQueue: number;
  readonly ttSizeMb: number;
  /** Worker module; defaults to the compiled worker next to this file (or in dist/ under ts-node). */
  readonly workerFile?: string;
  /** A waiting task is answered by its fallback once less than this remains before its deadline. */
  readonly minSearchMs?: number;
  /**
   * A running task still unanswered this long after its deadline (a search that does not poll its
   * clock) is answered by its fallback and told to stop.
   */
  readonly overrunGraceMs?: number;
  /** ... and if its thread is still busy this long after the deadline, the thread is terminated and replaced. */
  readonly overrunKillMs?: number;
  /**
   * Run fallback searches on a dedicated thread (default true): the worker module's `fallback`
   * export. False: on the calling (main) thread, as job.fallback.
   */
  readonly fallbackThread?: boolean;
  /** Nice value (0-19) of the search threads, below the event loop's (see thread-priority.ts); default 0. */
  readonly searchNice?: number;
}

export interface SearchJob {
  readonly task: SearchTask;
  /**
   * Answer computed on the calling thread when the job never reaches a worker in time and the
   * fallback thread cannot answer (it is off, failed or late).
   */
  readonly fallback: () => SearchTaskResult;
  /** Called on the main thread after each completed iteration of the running search (live analysis). */
  readonly onProgress?: (info: ProgressMessage) => void;
  /**
   * Threads for this one search (Lazy SMP, default 1): the main search plus up to threads - 1 helpers
   * on workers that are free when it starts (helpers never wait in the queue, and one gives way when
   * another request would have to wait), sharing a transposition table.
   */
  readonly threads?: number;
  /** Called with each helper's result once it stops (benchmarks count their nodes). */
  readonly onHelperDone?: (result: SearchTaskResult) => void;
}

export interface JobOutcome {
  readonly result: SearchTaskResult;
  /** Where the answer came from. */
  readonly source: 'worker' | 'fallback';
}

interface Waiting {
  readonly job: SearchJob;
  readonly resolve: (outcome: JobOutcome) => void;
  readonly reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** Watches a running task for overrun (see PoolOptions.overrunGraceMs). */
  watchdog: NodeJS.Timeout | undefined;
  detach: (() => void) | undefined;
  /** The caller has its answer (a task may still be finishing on its thread). */
  settled: boolean;
}

export interface PoolStats {
  readonly threads: number;
  readonly running: number;
  readonly queued: number;
  readonly maxQueue: number;
  readonly completed: number;
  readonly fallbacks: number;
  readonly cancelled: number;
  readonly rejected: number;
  readonly failed: number;
  /** Running tasks answered by their fallback because they overran their deadline. */
  readonly overruns: number;
  /** Threads terminated because a task would not stop. */
  readonly terminated: number;
  /** Fallback answers computed on the main thread (the fallback thread failed or was late). */
  readonly fallbacksOnMainThread?: number;
  /** Thread pools replaced because Piscina stopped replacing dead threads (see SearchPool.heal). */
  readonly poolsReplaced?: number;
  /** Share of the pool's thread time spent on tasks since start (Piscina's figure, 0..1). */
  readonly utilization: number;
}

const DEFAULT_MIN_SEARCH_MS = 15;
const DEFAULT_OVERRUN_GRACE_MS = 250;
const DEFAULT_OVERRUN_KILL_MS = 2_000;
/** A fallback thread answer later than this past the job's deadline (or its start) is replaced by the main-thread fallback. */
const FALLBACK_THREAD_GRACE_MS = 4 * FALLBACK_SEARCH_MS;
/** How often the pool checks that it has all its threads. */
const HEAL_CHECK_MS = 500;
/** Extra wait in close() past the latest deadline and the kill delay. */
const CLOSE_SLACK_MS = 500;

/** Delivers the progress messages already queued on the port. */
function drainProgress(port: MessagePort, deliver: (info: ProgressMessage) => void): void {
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) deliver(m.message as ProgressMessage);
}

export function defaultWorkerFile(): string {
  const here = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(here)) return here;
  // Running from TypeScript sources (tests): use the compiled worker.
  return fileURLToPath(new URL('../../dist/src/pool/worker.js', import.meta.url));
}

/**
 * Node options for the worker threads: the parent's less its module loaders (--import, --loader,
 * --require), which would only slow every thread's start (workers run compiled JavaScript; a test
 * runner's TypeScript loader is the usual one), plus --no-experimental-require-module. Piscina first
 * require()s the worker file, and on Node 20 a thread terminated during a synchronous require() of an ES
 * module can abort the whole process; without require(esm) Piscina falls back to import().
 */
export function workerExecArgv(parentArgs: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < parentArgs.length; i++) {
    const arg = parentArgs[i];
    const loader = /^(--import|--loader|--experimental-loader|--require|-r)(=|$)/.exec(arg);
    if (loader === null) kept.push(arg);
    else if (loader[2] === '') i++;
  }
  if (!kept.includes(NO_REQUIRE_ESM)) kept.push(NO_REQUIRE_ESM);
  return kept;
}

const NO_REQUIRE_ESM = '--no-experimental-require-module';

/**
 * The threads' environment: the parent's, with the same module loaders left out of NODE_OPTIONS. A thread
 * given an explicit option list still parses the NODE_OPTIONS of its environment (Node's worker.cc), so a
 * loader there (a test runner's coverage hook, an APM agent's --require) ran in every search thread: under
 * tap each thread's start cost 1.2 s of CPU instead of 0.45 s.
 */
export function workerEnv(parentEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = parentEnv.NODE_OPTIONS;
  if (options === undefined || options.trim() === '') return { ...parentEnv };
  // NODE_OPTIONS splits on spaces, with double quotes around values that hold them.
  const tokens = options.match(/(?:[^\s"]+|"(?:[^"\\]|\\.)*")+/g) ?? [];
  const unquote = (token: string): string => token.replace(/"((?:[^"\\]|\\.)*)"/g, (_m, inner: string) => inner.replace(/\\(.)/g, '$1'));
  const kept = workerExecArgv(tokens.map(unquote)).filter((arg) => arg !== NO_REQUIRE_ESM);
  const quoted = kept.map((arg) => (/[\s"\\]/.test(arg) ? `"${arg.replace(/(["\\])/g, '\\$1')}"` : arg));
  const env = { ...parentEnv };
  if (quoted.length === 0) delete env.NODE_OPTIONS;
  else env.NODE_OPTIONS = quoted.join(' ');
  return env;
}

type PiscinaOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/**
 * A Piscina whose threads get workerExecArgv. An explicit option list is checked where inheritance is not:
 * when it holds an option that worker threads refuse (a process-wide one such as --max-old-space-size),
 * the threads inherit the parent's options, Node's default.
 */
export function newPiscina(
  options: PiscinaOptions,
  parentArgs: readonly string[] = process.execArgv,
  parentEnv: NodeJS.ProcessEnv = process.env,
): Piscina<SearchTask, SearchTaskResult> {
  try {
    return new Piscina<SearchTask, SearchTaskResult>({ ...options, execArgv: workerExecArgv(parentArgs), env: workerEnv(parentEnv) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
  }
  return new Piscina<SearchTask, SearchTaskResult>(options);
}

export class SearchPool {
  readonly threads: number;
  readonly maxQueue: number;
  private piscina: Piscina<SearchTask, SearchTaskResult>;
  private fallbackPiscina: Piscina<SearchTask, SearchTaskResult> | undefined;
  /** Replaced Piscina instances still finishing their running tasks (see heal()). */
  private readonly retired = new Set<Piscina<SearchTask, SearchTaskResult>>();
  private readonly healTimer: NodeJS.Timeout;
  private readonly makeSearchPiscina: () => Piscina<SearchTask, SearchTaskResult>;
  private readonly makeFallbackPiscina: () => Piscina<SearchTask, SearchTaskResult>;
  private readonly queue: Waiting[] = [];
  private readonly minSearchMs: number;
  private readonly overrunGraceMs: number;
  private readonly overrunKillMs: number;
  private running = 0;
  private closing = false;
  private counters = {
    completed: 0,
    fallbacks: 0,
    cancelled: 0,
    rejected: 0,
    failed: 0,
    overruns: 0,
    terminated: 0,
    fallbacksOnMainThread: 0,
    poolsReplaced: 0,
  };
  /** Fallback answers outstanding on the fallback thread (close() waits for them). */
  private fallbacksPending = 0;
  /** The latest deadline of any job submitted: close() waits for the pool to drain until then at most. */
  private latestDeadline = 0;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly ttSizeMb: number;
  /** Control blocks of running Lazy SMP helpers (a waiting request stops one to take its thread). */
  private readonly helperControls = new Set<Int32Array>();

  constructor(options: PoolOptions) {
    this.threads = options.threads;
    this.maxQueue = options.maxQueue;
    this.ttSizeMb = options.ttSizeMb;
    this.minSearchMs = options.minSearchMs ?? DEFAULT_MIN_SEARCH_MS;
    this.overrunGraceMs = options.overrunGraceMs ?? DEFAULT_OVERRUN_GRACE_MS;
    this.overrunKillMs = Math.max(this.overrunGraceMs, options.overrunKillMs ?? DEFAULT_OVERRUN_KILL_MS);
    this.makeSearchPiscina = () => newPiscina({
      filename: options.workerFile ?? defaultWorkerFile(),
      minThreads: options.threads,
      maxThreads: options.threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      // Our queue holds waiting work; Piscina's only ever sees as many tasks as there are threads.
      maxQueue: options.threads,
      concurrentTasksPerWorker: 1,
      workerData: { ttSizeMb: options.ttSizeMb, nice: options.searchNice ?? 0 },
    });
    this.makeFallbackPiscina = () => newPiscina({
      filename: options.workerFile ?? defaultWorkerFile(),
      name: 'fallback',
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1,
      workerData: { ttSizeMb: 1 },
    });
    this.piscina = this.makeSearchPiscina();
    if (options.fallbackThread !== false) this.fallbackPiscina = this.makeFallbackPiscina();
    this.healTimer = setInterval(() => this.heal(), HEAL_CHECK_MS);
    this.healTimer.unref();
  }

  /**
   * Piscina replaces a thread that dies, except that once a thread has died while starting up it
   * stops replacing threads for good. A pool found short of threads is replaced by a fresh one;
   * the old one finishes its running tasks (its queued ones fail, and were answered by their
   * fallback at their deadline) and closes.
   */
  private heal(): void {
    // Also while closing: close() waits for tasks that a pool short of threads would never run.
    // A pool is replaced only when it was short at two checks in a row: Piscina itself replaces a
    // thread that dies while running (a moment's shortage), and a replaced pool costs every worker's
    // start-up (module loading, its transposition table), which under overload makes searches late.
    const searchShort = this.piscina.threads.length < this.threads;
    if (searchShort && this.searchWasShort) {
      this.retire(this.piscina);
      this.piscina = this.makeSearchPiscina();
      this.counters.poolsReplaced++;
    }
    this.searchWasShort = searchShort && !this.searchWasShort; // after a replacement, start counting again
    const fallbackShort = this.fallbackPiscina !== undefined && this.fallbackPiscina.threads.length < 1;
    if (fallbackShort && this.fallbackWasShort) {
      this.retire(this.fallbackPiscina!);
      this.fallbackPiscina = this.makeFallbackPiscina();
      this.counters.poolsReplaced++;
    }
    this.fallbackWasShort = fallbackShort && !this.fallbackWasShort;
  }

  private searchWasShort = false;
  private fallbackWasShort = false;

  private retire(old: Piscina<SearchTask, SearchTaskResult>): void {
    this.retired.add(old);
    void old
      .close({ force: true })
      .catch(() => undefined)
      .finally(() => this.retired.delete(old));
  }

  /** Runs a search, or answers it by its fallback; rejects with the errors above. */
  submit(job: SearchJob, signal?: AbortSignal): Promise<JobOutcome> {
    if (this.closing) return Promise.reject(new PoolClosedError());
    this.latestDeadline = Math.max(this.latestDeadline, job.task.deadline);
    if (signal?.aborted) return Promise.reject(new CancelledError());
    if (this.saturated()) {
      this.counters.rejected++;
      return Promise.reject(new QueueFullError(this.retryAfterSeconds()));
    }
    return new Promise<JobOutcome>((resolve, reject) => {
      const waiting: Waiting = { job, resolve, reject, timer: undefined, watchdog: undefined, detach: undefined, settled: false };
      if (signal !== undefined) {
        const onAbort = (): void => this.cancel(waiting);
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.detach = () => signal.removeEventListener('abort', onAbort);
      }
      if (this.running < this.threads) {
        this.dispatch(waiting);
      } else {
        this.queue.push(waiting);
        this.armDeadline(waiting);
        this.releaseHelper();
      }
    });
  }

  /**
   * True when a search submitted now would be refused (every thread busy, the queue full). Cheap,
   * unlike stats(): the HTTP layer asks it for every best-move request under overload.
   */
  saturated(): boolean {
    // Threads held by Lazy SMP helpers count as free: a helper gives its thread up to a waiting request.
    return this.running - this.helperControls.size >= this.threads && this.queue.length >= this.maxQueue;
  }

  /** Counters and sizes; `utilization` summarises Piscina's run-time histogram, which costs about a millisecond. */
  stats(): PoolStats {
    return {
      threads: this.threads,
      running: this.running,
      queued: this.queue.length,
      maxQueue: this.maxQueue,
      ...this.counters,
      utilization: this.piscina.utilization,
    };
  }

  /** Worker threads, for fault-injection tests. */
  get workerThreads(): readonly import('node:worker_threads').Worker[] {
    return this.piscina.threads;
  }

  /** The fallback thread (empty when fallbacks run on the main thread), for fault-injection tests. */
  get fallbackThreads(): readonly import('node:worker_threads').Worker[] {
    return this.fallbackPiscina?.threads ?? [];
  }

  /**
   * Resolves once every thread has loaded the worker module and answered, so the first real search
   * does not pay for thread start-up. The server reports ready only after this.
   */
  async warmUp(timeoutMs = 30_000): Promise<void> {
    const seen = new Set<number>();
    const until = Date.now() + timeoutMs;
    // A ping can fail when heal() replaces a pool short of threads meanwhile (its queued tasks are
    // aborted): the threads seen so far are forgotten and the fresh pool is pinged.
    let pool = this.piscina;
    while (seen.size < this.threads && Date.now() < until) {
      if (pool !== this.piscina) seen.clear();
      pool = this.piscina;
      const pings = Array.from({ length: this.threads }, () => pool.run({ ping: true } as unknown as SearchTask) as unknown as Promise<number>);
      const ids = await Promise.allSettled(pings);
      for (const id of ids) if (id.status === 'fulfilled') seen.add(id.value);
      if (ids.some((id) => id.status === 'rejected')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    while (this.fallbackPiscina !== undefined && Date.now() < until) {
      const fallback = this.fallbackPiscina;
      const ok = await fallback.run({ ping: true } as unknown as SearchTask).then(() => true, () => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Stops admitting work, lets running and queued searches finish, then stops the threads. */
  async close(): Promise<void> {
    this.closing = true;
    // Every job has a deadline and the watchdog ends a thread that overruns it, so the pool is idle by
    // the latest deadline plus the kill delay; past that, whatever is still counted will never finish
    // (a task lost with a thread), and the threads are closed by force rather than waited for forever.
    const giveUpAt = Math.max(Date.now(), this.latestDeadline) + this.overrunKillMs + CLOSE_SLACK_MS;
    while (this.busy() && Date.now() < giveUpAt) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, giveUpAt - Date.now());
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const force = this.busy();
    clearInterval(this.healTimer);
    await Promise.all([
      this.piscina.close({ force }),
      this.fallbackPiscina?.close({ force }),
      ...[...this.retired].map((p) => p.close({ force: true })),
    ]);
  }

  private busy(): boolean {
    return this.running > 0 || this.queue.length > 0 || this.fallbacksPending > 0;
  }

  private retryAfterSeconds(): number {
    return 1;
  }

  /** At the deadline, a job that no thread has started yet is answered by its fallback. */
  private armDeadline(waiting: Waiting): void {
    const wait = waiting.job.task.deadline - this.minSearchMs - Date.now();
    waiting.timer = setTimeout(() => {
      waiting.timer = undefined;
      const control = waiting.job.task.control;
      const inOurQueue = this.queue.includes(waiting);
      // Handed to Piscina but not started (its thread is still starting): claim it back.
      if (inOurQueue || Atomics.compareExchange(control, CONTROL_STATE, STATE_QUEUED, STATE_DONE) === STATE_QUEUED) {
        this.answerByFallback(waiting);
      }
    }, Math.max(0, wait));
  }

  /**
   * The safety net for a search that does not stop at its deadline (a bug, or an input that makes
   * one evaluation run for seconds): the caller gets the fallback answer shortly after the deadline,
   * and a thread that is still busy later is terminated (Piscina starts a fresh one).
   */
  private armWatchdog(waiting: Waiting): void {
    const control = waiting.job.task.control;
    const graceAt = waiting.job.task.deadline + this.overrunGraceMs;
    const killAt = waiting.job.task.deadline + this.overrunKillMs;
    waiting.watchdog = setTimeout(() => {
      Atomics.store(control, CONTROL_CANCEL, 1);
      if (!waiting.settled) {
        this.counters.overruns++;
        this.answerByFallback(waiting);
      }
      waiting.watchdog = setTimeout(() => {
        waiting.watchdog = undefined;
        const id = Atomics.load(control, CONTROL_THREAD);
        const thread = [this.piscina, ...this.retired].flatMap((p) => p.threads).find((worker) => worker.threadId === id);
        if (thread === undefined) return;
        this.counters.terminated++;
        void thread.terminate();
      }, Math.max(0, killAt - Date.now()));
    }, Math.max(0, graceAt - Date.now()));
  }

  private dispatch(waiting: Waiting): void {
    const { job } = waiting;
    if (job.task.deadline - Date.now() < this.minSearchMs) {
      this.answerByFallback(waiting);
      return;
    }
    this.running++;
    this.armDeadline(waiting);
    this.armWatchdog(waiting);
    let task = job.task;
    let transferList: MessagePort[] | undefined;
    let progressPort: MessagePort | undefined;
    const onProgress = job.onProgress;
    if (onProgress !== undefined) {
      // A port of its own per task: the worker posts once per iteration; the answer still comes back as the task's result.
      const channel = new MessageChannel();
      progressPort = channel.port1;
      progressPort.on('message', (info: ProgressMessage) => {
        if (!waiting.settled) onProgress(info);
      });
      task = { ...task, progress: channel.port2 };
      transferList = [channel.port2];
    }
    const helpers = Math.min(Math.floor(job.threads ?? 1) - 1, this.threads - this.running);
    let shared: SearchTask | undefined;
    if (helpers > 0) {
      const sharedTt = sharedTableBuffer(this.ttSizeMb);
      task = { ...task, sharedTt, helper: 0 };
      shared = { ...job.task, sharedTt };
    }
    this.piscina
      .run(task, transferList === undefined ? undefined : { transferList })
      .then(
        (result) => {
          this.counters.completed++;
          // Progress posted before the result is delivered before it (the two ports are not ordered).
          if (progressPort !== undefined && !waiting.settled) drainProgress(progressPort, onProgress!);
          if (waiting.settled) return;
          this.settle(waiting);
          if (result.stopReason === 'cancelled' && Atomics.load(job.task.control, CONTROL_CANCEL) !== 0) {
            waiting.reject(new CancelledError());
          } else {
            waiting.resolve({ result, source: 'worker' });
          }
        },
        (error: unknown) => {
          this.counters.failed++;
          if (waiting.settled) return;
          this.settle(waiting);
          waiting.reject(new SearchFailedError(error));
        },
      )
      .finally(() => {
        progressPort?.close();
        if (waiting.watchdog !== undefined) clearTimeout(waiting.watchdog);
        waiting.watchdog = undefined;
        this.running--;
        this.pump();
      });
    for (let i = 1; i <= helpers; i++) this.runHelper(shared!, i, job.onHelperDone);
  }

  /** One Lazy SMP helper of a running search; it holds a thread like a search but answers nobody. */
  private runHelper(main: SearchTask, helper: number, onDone: ((result: SearchTaskResult) => void) | undefined): void {
    const control = newControlBlock();
    this.running++;
    this.helperControls.add(control);
    this.piscina
      .run({ ...main, control, helper, leader: main.control })
      .then(
        (result) => onDone?.(result),
        () => undefined,
      )
      .finally(() => {
        this.helperControls.delete(control);
        this.running--;
        this.pump();
      });
  }

  /** A request has to wait: a helper (which only speeds up another search) gives its thread up. */
  private releaseHelper(): void {
    for (const control of this.helperControls) {
      if (Atomics.load(control, CONTROL_CANCEL) !== 0) continue;
      Atomics.store(control, CONTROL_CANCEL, 1);
      return;
    }
  }

  private pump(): void {
    while (this.running < this.threads && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (next.timer !== undefined) clearTimeout(next.timer);
      next.timer = undefined;
      this.dispatch(next);
    }
    if (!this.busy()) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private answerByFallback(waiting: Waiting): void {
    if (waiting.settled) return;
    this.removeFromQueue(waiting);
    this.settle(waiting);
    this.counters.fallbacks++;
    if (this.fallbackPiscina === undefined) {
      this.fallbackOnMainThread(waiting);
    } else {
      this.fallbackOnThread(waiting, this.fallbackPiscina);
    }
    this.pump();
  }

  private fallbackOnMainThread(waiting: Waiting): void {
    try {
      waiting.resolve({ result: waiting.job.fallback(), source: 'fallback' });
    } catch (error) {
      waiting.reject(new SearchFailedError(error));
    }
  }

  /**
   * The shallow search on the fallback thread, with a fresh control block (the job's may be claimed).
   * If that thread fails, or has not answered shortly after the job's deadline, the main thread answers.
   */
  private fallbackOnThread(waiting: Waiting, fallbackPiscina: Piscina<SearchTask, SearchTaskResult>): void {
    const { task } = waiting.job;
    const control = newControlBlock();
    let answered = false;
    const answerOnMain = (): void => {
      if (answered) return;
      answered = true;
      Atomics.store(control, CONTROL_CANCEL, 1);
      this.counters.fallbacksOnMainThread++;
      this.fallbackOnMainThread(waiting);
    };
    let pending = true;
    let kill: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      answerOnMain();
      // A fallback search stops within milliseconds; a thread still busy much later is replaced.
      kill = setTimeout(() => {
        if (!pending) return;
        this.counters.terminated++;
        for (const thread of fallbackPiscina.threads) void thread.terminate();
      }, this.overrunKillMs);
    }, Math.max(task.deadline - Date.now(), 0) + FALLBACK_THREAD_GRACE_MS);
    this.fallbacksPending++;
    const { progress: _progress, ...plain } = task;
    fallbackPiscina
      .run({ ...plain, control })
      .then(
        (result) => {
          if (answered) return;
          answered = true;
          waiting.resolve({ result, source: 'fallback' });
        },
        () => answerOnMain(),
      )
      .finally(() => {
        pending = false;
        clearTimeout(guard);
        if (kill !== undefined) clearTimeout(kill);
        this.fallbacksPending--;
        this.pump();
      });
  }

  private cancel(waiting: Waiting): void {
    this.counters.cancelled++;
    const control = waiting.job.task.control;
    if (waiting.settled) return;
    if (this.removeFromQueue(waiting)) {
      this.settle(waiting);
      waiting.reject(new CancelledError());
      this.pump();
      return;
    }
    // Running (or about to start): the worker polls this flag and stops within a few hundred nodes.
    Atomics.store(control, CONTROL_CANCEL, 1);
    Atomics.compareExchange(control, CONTROL_STATE, STATE_QUEUED, STATE_DONE);
  }

  private removeFromQueue(waiting: Waiting): boolean {
    const index = this.queue.indexOf(waiting);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    return true;
  }

  private settle(waiting: Waiting): void {
    waiting.settled = true;
    if (waiting.timer !== undefined) clearTimeout(waiting.timer);
    waiting.timer = undefined;
    waiting.detach?.();
    waiting.detach = undefined;
  }
}
