// A scripted Piscina worker for pool tests: it honours the task protocol (control block, deadline,
// cancel flag) without any game. gameId selects the behaviour: 'busy' spins until its deadline or
// cancel flag (or for maxDepth ms when set), 'throw' throws, 'exit' ends its thread mid-task,
// 'hang' never returns. The `fallback` export plays the pool's fallback thread: 'fallback-hang' never
// returns, 'fallback-throw' throws, anything else answers move 9 with its thread id as `nodes`.
import { threadId } from 'node:worker_threads';

export default function fakeSearch(task) {
  if (task.ping) return threadId;
  const startedAt = Date.now();
  const control = task.control;
  if (Atomics.compareExchange(control, 0, 0, 1) !== 0) {
    return {
      move: -1, score: 0, exactScore: undefined, exact: false, pv: [], depth: 0, nodes: threadId,
      stopReason: 'cancelled', startedAt, finishedAt: Date.now(),
    };
  }
  Atomics.store(control, 2, threadId);
  // 'hang' ignores its deadline and cancel flag (a runaway search) until the thread is terminated.
  if (task.gameId === 'hang') for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  if (task.gameId === 'throw') throw new Error('scripted failure');
  if (task.gameId === 'exit') process.exit(3);
  let stopReason = 'time';
  const until = task.maxDepth === undefined ? task.deadline : Math.min(task.deadline, startedAt + task.maxDepth);
  while (Date.now() < until) {
    if (Atomics.load(control, 1) !== 0) {
      stopReason = 'cancelled';
      break;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
  Atomics.store(control, 0, 2);
  return { move: 7, score: 0, exactScore: undefined, exact: false, pv: [7], depth: 1, nodes: threadId, stopReason, startedAt, finishedAt: Date.now() };
}

export function fallback(task) {
  if (task.ping) return threadId;
  const startedAt = Date.now();
  if (task.gameId === 'fallback-hang') for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  if (task.gameId === 'fallback-throw') throw new Error('scripted fallback failure');
  const finishedAt = Date.now();
  return { move: 9, score: 0, exactScore: undefined, exact: false, pv: [9], depth: 2, nodes: threadId, stopReason: 'time', lines: [], startedAt, finishedAt };
}
