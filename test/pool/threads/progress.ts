/**
 * Live progress from a real search worker: one message per completed iteration, delivered on the
 * main thread before the task's answer, with the new limits (lines, node limit) crossing to the worker.
 */
import t from 'tap';
import { SearchPool } from '../../../src/pool/pool.js';
import { newControlBlock, type ProgressMessage, type SearchTask } from '../../../src/pool/task.js';
import { GAMES } from '../../../src/games/registry.js';
import { fallbackResult } from '../../../src/http/game-service.js';

const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb: 4, fallbackThread: false });
await pool.warmUp();
t.teardown(() => pool.close());

const othello = GAMES.othello;
const state = othello.initialState({});
if (!state.ok) throw new Error('no initial state');
const decoded = othello.decodeState(state.value, undefined);
if (!decoded.ok) throw new Error('bad state');
const start = decoded.value;

function task(extra: Partial<SearchTask>): SearchTask {
  return {
    gameId: 'othello',
    snapshot: othello.engine.snapshot(start),
    deadline: Date.now() + 60_000,
    maxDepth: undefined,
    seed: 1,
    profile: undefined,
    control: newControlBlock(),
    ...extra,
  };
}

t.test('one progress message per iteration, all before the answer', async (t) => {
  const seen: ProgressMessage[] = [];
  let answered = false;
  const outcome = await pool.submit({
    task: task({ maxDepth: 6, multiPv: 3 }),
    fallback: () => fallbackResult(start),
    onProgress: (info) => {
      t.notOk(answered, 'progress before the answer');
      seen.push(info);
    },
  });
  answered = true;
  t.same(seen.map((i) => i.depth), [1, 2, 3, 4, 5, 6]);
  t.ok(seen.every((i) => i.lines.length === 3), 'three lines each time');
  t.same(outcome.result.lines, seen[5].lines, 'the answer is the last iteration');
  t.equal(outcome.result.depth, 6);
});

t.test('a node limit crosses to the worker and gives the same answer twice', async (t) => {
  const run = () => pool.submit({ task: task({ maxNodes: 4000, multiPv: 2 }), fallback: () => fallbackResult(start) });
  const a = (await run()).result;
  const b = (await run()).result;
  t.same([a.nodes, a.lines], [b.nodes, b.lines]);
  t.ok(a.nodes >= 4000 && a.nodes < 4000 + 128, `stopped at the limit: ${a.nodes}`);
});

t.test('root moves cross to the worker', async (t) => {
  const c4 = othello.decodeMove(start, 'c4', 'move');
  if (!c4.ok) throw new Error('c4');
  const { result } = await pool.submit({ task: task({ maxDepth: 4, rootMoves: [c4.value] }), fallback: () => fallbackResult(start) });
  t.same([result.move, result.depth, result.lines.length], [c4.value, 4, 1]);
});
