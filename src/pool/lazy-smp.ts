/**
 * Lazy SMP for a program that searches on its own thread (the Tablut Challenge client, the arena): the
 * caller's search runs where it is, on a transposition table in shared memory that lives across its
 * searches, while threads - 1 helper threads, started once and kept warm, search the same position on
 * that table (run-task.ts's helper: its answer is not used, its table entries are). It is the service's
 * Lazy SMP (SearchPool with a job's `threads`) without the pool: no queue, no fallback, and nothing
 * that needs the caller's event loop during or between searches (a task is posted to a helper's port,
 * its progress read from shared memory), so a synchronous loop such as the arena's can use it too.
 * With one thread there are no helpers and the table is an ordinary one: the search is unchanged.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GameEngine, SearchPosition } from '../games/types.js';
import { analyse, type AnalysisResult } from '../search/analyse.js';
import { Searcher, type SearchLimits } from '../search/search.js';
import { TranspositionTable, sharedTableBuffer } from '../search/tt.js';
import { workerEnv, workerExecArgv } from './pool.js';
import { CONTROL_STATE, CONTROL_THREAD, STATE_DONE, STATE_QUEUED, STATE_RUNNING, newControlBlock, type SearchTask } from './task.js';

/** A helper still running this long after its search ended is left behind (it stops at its deadline anyway). */
const HELPER_STOP_WAIT_MS = 1_000;

export function helperWorkerFile(): string {
  const here = fileURLToPath(new URL('./lazy-smp-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  return fileURLToPath(new URL('../../dist/src/pool/lazy-smp-worker.js', import.meta.url));
}

export class LazySmp {
  readonly threads: number;
  readonly searcher: Searcher;
  private readonly sharedTt: SharedArrayBuffer | undefined;
  private readonly workers: Worker[] = [];
  private readonly ready: Promise<void>;
  /** Control blocks of the last search's helpers (the next search waits for them to stop). */
  private helperControls: Int32Array[] = [];

  /** `threads`: 1 (no helpers) or more; `ttMb`: the table all the threads share. */
  constructor(threads: number, ttMb: number, workerFile: string = helperWorkerFile()) {
    if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    this.threads = threads;
    if (threads === 1) {
      this.searcher = new Searcher(new TranspositionTable(ttMb));
      this.ready = Promise.resolve();
      return;
    }
    this.sharedTt = sharedTableBuffer(ttMb);
    this.searcher = new Searcher(new TranspositionTable(0, this.sharedTt));
    const started: Promise<void>[] = [];
    for (let i = 1; i < threads; i++) {
      const worker = new Worker(workerFile, { execArgv: workerExecArgv(process.execArgv), env: workerEnv(process.env) });
      // A helper thread must never keep the program alive on its own.
      worker.unref();
      started.push(
        new Promise<void>((resolve, reject) => {
          worker.once('message', () => resolve());
          worker.once('error', reject);
        }),
      );
      this.workers.push(worker);
    }
    this.ready = Promise.all(started).then(() => undefined);
  }

  /** Resolves once every helper thread has loaded the engines (before that, a search starts its helpers late). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  /**
   * analyse() with the helpers: they search the same position on the shared table until this search
   * returns (or its deadline passes). Without a deadline (a fixed depth), the helpers run until the
   * main search is done.
   */
  analyse<P extends SearchPosition>(engine: GameEngine<P>, pos: P, limits: SearchLimits): AnalysisResult {
    if (this.workers.length === 0) return analyse(engine, pos, this.searcher, limits);
    this.waitForHelpers();
    const leader = newControlBlock();
    Atomics.store(leader, CONTROL_STATE, STATE_RUNNING);
    const base: SearchTask = {
      gameId: engine.id,
      snapshot: engine.snapshot(pos),
      deadline: limits.deadline ?? Number.MAX_SAFE_INTEGER,
      maxDepth: limits.maxDepth,
      seed: limits.seed,
      profile: undefined,
      control: leader,
      sharedTt: this.sharedTt,
      leader,
      ttAge: this.searcher.tt.age,
    };
    this.helperControls = this.workers.map((worker, i) => {
      const control = newControlBlock();
      worker.postMessage({ ...base, control, helper: i + 1 });
      return control;
    });
    try {
      return analyse(engine, pos, this.searcher, limits);
    } finally {
      Atomics.store(leader, CONTROL_STATE, STATE_DONE);
      // A helper that has not started yet never will.
      for (const control of this.helperControls) Atomics.compareExchange(control, CONTROL_STATE, STATE_QUEUED, STATE_DONE);
    }
  }

  /** Helpers of the last search that started on it (a helper still loading joins late, or not at all). */
  helpersStarted(): number {
    return this.helperControls.filter((control) => Atomics.load(control, CONTROL_THREAD) !== 0).length;
  }

  /** Helpers of the last search still searching (they stop within a few nodes of its end). */
  helpersRunning(): number {
    return this.helperControls.filter((control) => Atomics.load(control, CONTROL_STATE) !== STATE_DONE).length;
  }

  /** Stops the helper threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
    this.workers.length = 0;
  }

  /** The last search's helpers stop within a few nodes of its end; their table writes must not mix with the next search's start. */
  private waitForHelpers(): void {
    const until = Date.now() + HELPER_STOP_WAIT_MS;
    for (const control of this.helperControls) {
      while (Atomics.load(control, CONTROL_STATE) !== STATE_DONE && Date.now() < until) Atomics.wait(control, CONTROL_STATE, STATE_RUNNING, 1);
    }
    this.helperControls = [];
  }
}
