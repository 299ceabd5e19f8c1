/**
 * The body of a search task, kept out of the worker shim so tests run it in-process.
 * One Searcher (and its transposition table) lives per thread and stays warm across tasks.
 */
import { ENGINES } from '../games/engines.js';
import type { SearchPosition } from '../games/types.js';
import { analyse, type AnalysisResult } from '../search/analyse.js';
import { Searcher, type SearchLimits } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';
import { WIN_PROB_CURVES } from '../analysis/winprob.js';
import { levelSetting } from '../levels/levels.js';
import { playLevel } from '../levels/play.js';
import { threadId } from 'node:worker_threads';
import {
  CONTROL_CANCEL,
  CONTROL_STATE,
  CONTROL_THREAD,
  STATE_DONE,
  STATE_QUEUED,
  STATE_RUNNING,
  taskEngineOptions,
  type ProgressMessage,
  type SearchTask,
  type SearchTaskResult,
} from './task.js';

let searcher: Searcher | undefined;
let searcherTtMb = 0;

export function threadSearcher(ttSizeMb: number): Searcher {
  if (searcher === undefined || searcherTtMb !== ttSizeMb) {
    searcher = new Searcher(new TranspositionTable(ttSizeMb));
    searcherTtMb = ttSizeMb;
  }
  return searcher;
}

/**
 * A Lazy SMP helper: the same position searched on the shared table until the main search is done
 * (or cancelled) or the deadline passes. Helpers skip the game's solver and vary the search a little
 * (odd helpers start one ply deeper, each breaks root ties with its own seed), so that the threads
 * do not all walk the same tree in step. Its answer is not used; its table entries are.
 */
function runHelper(task: SearchTask, position: SearchPosition, startedAt: number): SearchTaskResult {
  const control = task.control;
  const leader = task.leader;
  const helper = task.helper ?? 1;
  const table = new TranspositionTable(0, task.sharedTt);
  if (task.ttAge !== undefined) table.followAge(task.ttAge);
  const searcher = new Searcher(table);
  const deadline = task.deadline;
  const result = searcher.search(position, {
    ...(task.maxDepth === undefined ? {} : { maxDepth: task.maxDepth }),
    ...(task.multiPv === undefined ? {} : { multiPv: task.multiPv }),
    ...(task.rootMoves === undefined ? {} : { rootMoves: task.rootMoves }),
    seed: ((task.seed ?? 0) + Math.imul(helper, 0x9e3779b1)) >>> 0,
    startDepth: 1 + (helper % 2),
    // No clock of its own: a helper searches until the main search stops it.
    shouldStop: () =>
      Atomics.load(control, CONTROL_CANCEL) !== 0 ||
      (leader !== undefined && (Atomics.load(leader, CONTROL_CANCEL) !== 0 || Atomics.load(leader, CONTROL_STATE) === STATE_DONE)) ||
      Date.now() >= deadline,
  });
  Atomics.store(control, CONTROL_STATE, STATE_DONE);
  return { ...result, exactScore: undefined, startedAt, finishedAt: Date.now() };
}

/** A level's choice without a seed varies from request to request. */
function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296);
}

/** analyse() without the game's solver. */
function searchOnly(_engine: unknown, position: SearchPosition, searcher: Searcher, limits: SearchLimits): AnalysisResult {
  return { ...searcher.search(position, limits), solved: false };
}

export function runTask(task: SearchTask, ttSizeMb: number): SearchTaskResult {
  const startedAt = Date.now();
  const control = task.control;
  // A task cancelled while it waited is answered at once (the caller is gone; this just frees the slot).
  if (Atomics.compareExchange(control, CONTROL_STATE, STATE_QUEUED, STATE_RUNNING) !== STATE_QUEUED) {
    task.progress?.close();
    return {
      move: -1,
      score: 0,
      exactScore: undefined,
      exact: false,
      pv: [],
      depth: 0,
      nodes: 0,
      stopReason: 'cancelled',
      lines: [],
      startedAt,
      finishedAt: Date.now(),
    };
  }
  Atomics.store(control, CONTROL_THREAD, threadId);
  const engine = ENGINES[task.gameId];
  const options = taskEngineOptions(task);
  const position = engine.restore(task.snapshot, options);
  if (task.sharedTt !== undefined && (task.helper ?? 0) > 0) return runHelper(task, position, startedAt);
  // Lazy SMP's main search works on the table it shares with its helpers (fresh for this request).
  const search = task.sharedTt === undefined ? threadSearcher(ttSizeMb) : new Searcher(new TranspositionTable(0, task.sharedTt));
  // Fixed-depth and fixed-node requests must be reproducible: start them from an empty table.
  if (task.sharedTt === undefined && (task.maxDepth !== undefined || task.maxNodes !== undefined)) search.tt.clear();
  const port = task.progress;
  const setting = levelSetting(task.gameId, task.level);
  let result;
  try {
    result =
      setting !== undefined
        ? {
            ...playLevel(engine, position, search, setting, WIN_PROB_CURVES[task.gameId], task.seed ?? randomSeed(), {
              deadline: task.deadline,
              shouldStop: () => Atomics.load(control, CONTROL_CANCEL) !== 0,
              ...(task.rootMoves === undefined ? {} : { rootMoves: task.rootMoves }),
            }),
            solved: false,
          }
        : (task.searchOnly === true ? searchOnly : analyse)(engine, position, search, {
    deadline: task.deadline,
      ...(task.maxDepth === undefined ? {} : { maxDepth: task.maxDepth }),
      ...(task.seed === undefined ? {} : { seed: task.seed }),
      ...(task.maxNodes === undefined ? {} : { nodeLimit: task.maxNodes }),
      ...(task.multiPv === undefined ? {} : { multiPv: task.multiPv }),
      ...(task.rootMoves === undefined ? {} : { rootMoves: task.rootMoves }),
      // Once per completed iteration, never per node.
      ...(port === undefined ? {} : { onIteration: (info: ProgressMessage) => port.postMessage(info) }),
      shouldStop: () => Atomics.load(control, CONTROL_CANCEL) !== 0,
    });
  } finally {
    port?.close();
  }
  Atomics.store(control, CONTROL_STATE, STATE_DONE);
  return {
    move: result.move,
    score: result.score,
    exactScore: result.exactScore,
    exact: result.exact,
    pv: result.pv,
    depth: result.depth,
    nodes: result.nodes,
    stopReason: result.stopReason,
    lines: result.lines,
    startedAt,
    finishedAt: Date.now(),
  };
}
