/**
 * What crosses the thread boundary: plain data only (typed arrays, numbers, strings).
 * The control block is shared memory so the main thread can see a task start and stop it
 * cooperatively without terminating the worker.
 */
import type { MessagePort } from 'node:worker_threads';
import type { EngineOptions, GameId } from '../games/types.js';
import type { IterationInfo, SearchLine, StopReason } from '../search/search.js';

export interface SearchTask {
  readonly gameId: GameId;
  readonly snapshot: Int32Array;
  /** Absolute wall-clock deadline for the search (Date.now() scale). */
  readonly deadline: number;
  readonly maxDepth: number | undefined;
  readonly seed: number | undefined;
  readonly profile: string | undefined;
  /** Multi-ProbCut confidence for games that support it (absent: the game's default). */
  readonly probCut?: number;
  /** Playing level below the top (src/levels/): a node-limited search and a seeded choice among its lines. */
  readonly level?: number;
  /** Int32Array view over a SharedArrayBuffer: see CONTROL_* indices. */
  readonly control: Int32Array;
  /** Stop after about this many nodes (fixed-node requests are reproducible: fresh table). */
  readonly maxNodes?: number;
  /** Root lines with exact scores (default 1). */
  readonly multiPv?: number;
  /** Legal root move codes to restrict the search to. */
  readonly rootMoves?: readonly number[];
  /** Set by the pool when the caller wants progress: the worker posts one ProgressMessage per iteration. */
  readonly progress?: MessagePort;
  /**
   * Lazy SMP (set by the pool): the transposition table the threads of one search share. The main
   * search (helper 0 or absent) answers; helpers 1, 2, ... only fill the table.
   */
  readonly sharedTt?: SharedArrayBuffer;
  readonly helper?: number;
  /** The generic search only, without the game's solver (benchmarks measuring the search). */
  readonly searchOnly?: boolean;
  /** A helper's main task's control block: the helper stops once that task is done or cancelled. */
  readonly leader?: Int32Array;
  /**
   * The shared table's age before this search, when the table outlives one search (the Challenge
   * client's): the helper's view of the table takes it, so all threads age entries alike.
   */
  readonly ttAge?: number;
}

/** What the worker posts on the progress port after each completed iteration. */
export type ProgressMessage = IterationInfo;

export interface SearchTaskResult {
  readonly move: number;
  readonly score: number;
  readonly exactScore: number | undefined;
  readonly exact: boolean;
  readonly pv: number[];
  readonly depth: number;
  readonly nodes: number;
  readonly stopReason: StopReason;
  /** Best first; lines[0] is move/score/pv (empty only for a task cancelled before it started). */
  readonly lines: readonly SearchLine[];
  /** When the worker started and finished the search (Date.now() scale). */
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** The engine options a task carries into `engine.restore`. */
export function taskEngineOptions(task: SearchTask): EngineOptions {
  return {
    ...(task.profile === undefined ? {} : { profile: task.profile }),
    ...(task.seed === undefined ? {} : { seed: task.seed }),
    ...(task.probCut === undefined ? {} : { probCut: task.probCut }),
  };
}

export const CONTROL_STATE = 0;
export const CONTROL_CANCEL = 1;
/** Thread id of the worker running the task, so a task that overruns its deadline can be cut off. */
export const CONTROL_THREAD = 2;
export const CONTROL_INTS = 3;

export const STATE_QUEUED = 0;
export const STATE_RUNNING = 1;
export const STATE_DONE = 2;

export function newControlBlock(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(CONTROL_INTS * Int32Array.BYTES_PER_ELEMENT));
}
