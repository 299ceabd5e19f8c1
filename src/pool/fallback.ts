/**
 * The fallback search, run in the pool's dedicated fallback thread (pool.ts): a shallow search
 * (depth 2, a few milliseconds) for requests whose queue wait ate their budget, or whose search
 * overran. It runs off the main thread so that the event loop stays free under overload.
 */
import { ENGINES } from '../games/engines.js';
import { Searcher } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';
import type { SearchPosition } from '../games/types.js';
import { taskEngineOptions, type SearchTask, type SearchTaskResult } from './task.js';

/** Depth and time of a fallback search (the same on the fallback thread and, as a last resort, the main thread). */
export const FALLBACK_MAX_DEPTH = 2;
export const FALLBACK_SEARCH_MS = 5;

/** Root options a fallback keeps to (a filtered request never gets a move it excluded). */
export interface RootOptions {
  readonly multiPv?: number | undefined;
  readonly rootMoves?: readonly number[] | undefined;
}

/** The shallow search itself, for the fallback thread and for the main thread's last resort. */
export function fallbackSearch(searcher: Searcher, position: SearchPosition, root: RootOptions = {}): SearchTaskResult {
  const startedAt = Date.now();
  // Its own few milliseconds from now, whatever is left of the job (an overrunning job is past its deadline).
  const result = searcher.search(position, {
    maxDepth: FALLBACK_MAX_DEPTH,
    deadline: startedAt + FALLBACK_SEARCH_MS,
    ...(root.multiPv === undefined ? {} : { multiPv: root.multiPv }),
    ...(root.rootMoves === undefined ? {} : { rootMoves: root.rootMoves }),
  });
  return {
    move: result.move,
    score: result.score,
    exactScore: undefined,
    exact: result.exact,
    pv: result.pv,
    depth: result.depth,
    nodes: result.nodes,
    stopReason: 'time',
    lines: result.lines,
    startedAt,
    finishedAt: Date.now(),
  };
}

let searcher: Searcher | undefined;

export function runFallback(task: SearchTask): SearchTaskResult {
  searcher ??= new Searcher(new TranspositionTable(1));
  const engine = ENGINES[task.gameId];
  const options = taskEngineOptions(task);
  return fallbackSearch(searcher, engine.restore(task.snapshot, options), { multiPv: task.multiPv, rootMoves: task.rootMoves });
}
