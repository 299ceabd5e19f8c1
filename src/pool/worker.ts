/** Piscina worker: a thin shim. All logic lives in run-task.ts (tested in-process). */
import { workerData } from 'node:worker_threads';
import { runTask } from './run-task.js';
import type { SearchTask, SearchTaskResult } from './task.js';

const ttSizeMb: number = (workerData as { ttSizeMb?: number } | null)?.ttSizeMb ?? 16;

export default function search(task: SearchTask): SearchTaskResult {
  return runTask(task, ttSizeMb);
}
