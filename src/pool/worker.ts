/** Piscina worker: a thin shim. All logic lives in run-task.ts and fallback.ts (tested in-process). */
import { threadId, workerData } from 'node:worker_threads';
import { prepareEngines } from '../games/engines.js';
import { runFallback } from './fallback.js';
import { runTask } from './run-task.js';
import type { SearchTask, SearchTaskResult } from './task.js';
import { niceThisThread } from './thread-priority.js';

const data = workerData as { ttSizeMb?: number; nice?: number } | null;
const ttSizeMb: number = data?.ttSizeMb ?? 16;
niceThisThread(data?.nice ?? 0);

/** A `{ping: true}` task loads the engines' tables and answers the thread id (pool warm-up); anything else is a search. */
export default function search(task: SearchTask | { ping: true }): SearchTaskResult | number {
  if ('ping' in task) return warm();
  return runTask(task, ttSizeMb);
}

/** The shallow fallback search (the pool's fallback thread). */
export function fallback(task: SearchTask | { ping: true }): SearchTaskResult | number {
  if ('ping' in task) return warm();
  return runFallback(task);
}

function warm(): number {
  prepareEngines();
  return threadId;
}
