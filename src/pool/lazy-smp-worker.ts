/**
 * A Lazy SMP helper thread of src/pool/lazy-smp.ts: loads the engines, says so once, then runs each
 * helper task posted to it (run-task.ts's helper, which marks the task's control block done).
 */
import { parentPort } from 'node:worker_threads';
import { prepareEngines } from '../games/engines.js';
import { runTask } from './run-task.js';
import type { SearchTask } from './task.js';

prepareEngines();
parentPort?.on('message', (task: SearchTask) => {
  runTask(task, 0);
});
parentPort?.postMessage('ready');
