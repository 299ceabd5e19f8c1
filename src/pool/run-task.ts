/**
 * The body of a search task, kept out of the worker shim so tests run it in-process.
 * One Searcher (and its transposition table) lives per thread and stays warm across tasks.
 */
import { ENGINES } from '../games/engines.js';
import { analyse } from '../search/analyse.js';
import { Searcher } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';
import { threadId } from 'node:worker_threads';
import {
  CONTROL_CANCEL,
  CONTROL_STATE,
  CONTROL_THREAD,
  STATE_DONE,
  STATE_QUEUED,
  STATE_RUNNING,
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
  const options = { ...(task.profile === undefined ? {} : { profile: task.profile }), ...(task.seed === undefined ? {} : { seed: task.seed }) };
  const position = engine.restore(task.snapshot, options);
  const search = threadSearcher(ttSizeMb);
  // Fixed-depth and fixed-node requests must be reproducible: start them from an empty table.
  if (task.maxDepth !== undefined || task.maxNodes !== undefined) search.tt.clear();
  const port = task.progress;
  let result;
  try {
    result = analyse(engine, position, search, {
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
