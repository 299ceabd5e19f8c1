/**
 * The fallback search, run in the pool's dedicated fallback thread (pool.ts): a shallow search
 * (depth 2, a few milliseconds) for requests whose queue wait ate their budget, or whose search
 * overran. It runs off the main thread so that the event loop stays free under overload.
 */
import { ENGINES } from '../games/engines.js';
import { Searcher } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';
import type { SearchTask, SearchTaskResult } from './task.js';

/** Depth and time of a fallback search (the same on the fallback thread and, as a last resort, the main thread). */
export const FALLBACK_MAX_DEPTH = 2;
export const FALLBACK_SEARCH_MS = 5;

let searcher: Searcher | undefined;

export function runFallback(task: SearchTask): SearchTaskResult {
  const startedAt = Date.now();
  searcher ??= new Searcher(new TranspositionTable(1));
  const engine = ENGINES[task.gameId];
  const options = { ...(task.profile === undefined ? {} : { profile: task.profile }), ...(task.seed === undefined ? {} : { seed: task.seed }) };
  const position = engine.restore(task.snapshot, options);
  // Its own few milliseconds from now, whatever is left of the job (an overrunning job is past its deadline).
  const result = searcher.search(position, { maxDepth: FALLBACK_MAX_DEPTH, deadline: startedAt + FALLBACK_SEARCH_MS });
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
