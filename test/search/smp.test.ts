/**
 * One search on several threads (Lazy SMP): the verified-key shared transposition table, the pool's
 * helper threads, and the `threads` request field. No timing thresholds: depths, moves and counts only.
 */
import t from 'tap';
import { BOUND_EXACT, BOUND_LOWER, TranspositionTable, sharedTableBuffer } from '../../src/search/tt.js';
import { SearchPool } from '../../src/pool/pool.js';
import { runTask } from '../../src/pool/run-task.js';
import { newControlBlock, type SearchTaskResult } from '../../src/pool/task.js';
import { GAMES } from '../../src/games/registry.js';
import { searchJob, searchThreads, legalMoveCodes } from '../../src/http/game-service.js';
import { closeTestApp, testApp } from '../support/app.js';
import type { GameId, SearchPosition } from '../../src/games/types.js';

function startPosition(id: GameId): SearchPosition {
  const def = GAMES[id];
  const decoded = def.decodeState(def.exampleState, undefined);
  if (!decoded.ok) throw new Error(`example state of ${id} does not decode`);
  return decoded.value;
}

t.test('table: an entry is found by its key only, and a torn or altered entry reads as a miss', async (t) => {
  const tt = new TranspositionTable(0.0625);
  tt.store(0x1234, 0x5678, 7, BOUND_EXACT, 42, 0, 99, false);
  const slot = tt.probe(0x1234, 0x5678);
  t.ok(slot >= 0, 'stored entry found');
  t.equal(tt.move(slot), 99);
  t.equal(tt.score(slot, 0), 42);
  t.equal(tt.depth(slot), 7);
  t.equal(tt.bound(slot), BOUND_EXACT);
  t.equal(tt.probe(0x1234, 0x5679), -1, 'same bucket, other key: miss');

  // A writer that stopped half-way (or two writers interleaved): the data no longer matches the key.
  for (const word of [1, 2, 3]) {
    const copy = tt.data.slice();
    tt.data[slot + word] ^= 1 << 4;
    t.equal(tt.probe(0x1234, 0x5678), -1, `word ${word} changed: rejected`);
    tt.data.set(copy);
  }
  t.ok(tt.probe(0x1234, 0x5678) >= 0, 'restored entry found again');

  // Words of two different entries of the same bucket slot combined: rejected too.
  tt.clear();
  tt.store(0x10, 0xaaaa, 3, BOUND_LOWER, 5, 0, 1, false);
  const first = tt.data.slice(0, 4);
  tt.clear();
  tt.store(0x10, 0xbbbb, 9, BOUND_EXACT, -77, 0, 2, false);
  const s = tt.probe(0x10, 0xbbbb);
  t.ok(s >= 0);
  tt.data[s + 2] = first[s + 2]!;
  t.equal(tt.probe(0x10, 0xbbbb), -1, 'key and move of one entry, score of another: rejected');
  t.equal(tt.probe(0x10, 0xaaaa), -1, 'and not taken for the other entry either');
});

t.test('table: two views of one shared buffer see each other\'s entries', async (t) => {
  const buffer = sharedTableBuffer(1);
  const a = new TranspositionTable(0, buffer);
  const b = new TranspositionTable(0, buffer);
  a.store(0xbeef, 0x1111, 5, BOUND_EXACT, 13, 0, 8, false);
  const slot = b.probe(0xbeef, 0x1111);
  t.ok(slot >= 0);
  t.equal(b.move(slot), 8);
  t.equal(b.score(slot, 0), 13);
  t.throws(() => new TranspositionTable(0, new SharedArrayBuffer(96)), /power of two/);
});

t.test('a request\'s threads: within MAX_SEARCH_THREADS, at least 1; one thread under a node limit', async (t) => {
  t.equal(searchThreads(undefined, 4), 1);
  t.equal(searchThreads(3, 4), 3);
  t.equal(searchThreads(99, 2), 2);
  const pos = startPosition('othello');
  t.equal(searchJob(GAMES.othello, pos, { deadline: 0, maxDepth: 3, seed: undefined, threads: 2 }).threads, 2);
  t.equal(searchJob(GAMES.othello, pos, { deadline: 0, maxDepth: 3, seed: undefined, threads: 1 }).threads, undefined);
  t.equal(searchJob(GAMES.othello, pos, { deadline: 0, maxDepth: 3, seed: undefined, maxNodes: 1000, threads: 2 }).threads, undefined);
});

/** Resolves once no task (search or helper) runs on the pool. */
async function idle(pool: SearchPool): Promise<void> {
  while (pool.stats().running > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

t.test('pool: threads:2 reaches the depth with a legal move, its helper stops; threads:1 is unchanged', async (t) => {
  const ttSizeMb = 4;
  const pool = new SearchPool({ threads: 2, maxQueue: 4, ttSizeMb, fallbackThread: false });
  t.teardown(() => pool.close());
  await pool.warmUp();
  for (const [id, depth] of [['othello', 7], ['mnk', 5], ['tablut', 3], ['hadron', 4]] as const) {
    const pos = startPosition(id);
    const legal = legalMoveCodes(pos);
    const helpers: SearchTaskResult[] = [];
    const base = { deadline: Date.now() + 120_000, maxDepth: depth, seed: 3 };
    const two = await pool.submit({ ...searchJob(GAMES[id], pos, { ...base, threads: 2 }), onHelperDone: (r) => helpers.push(r) });
    t.equal(two.source, 'worker', `${id}: answered by the search`);
    t.ok(legal.includes(two.result.move), `${id}: legal move`);
    // At least: a game's solver may prove the position deeper.
    t.ok(two.result.depth >= depth, `${id}: depth ${depth} reached with 2 threads`);
    await idle(pool);
    t.equal(helpers.length, 1, `${id}: one helper ran and stopped`);

    // threads:1 through the pool = the same task run in this process (fresh table at a fixed depth).
    const one = await pool.submit(searchJob(GAMES[id], pos, { ...base, threads: 1 }));
    const local = runTask({ ...searchJob(GAMES[id], pos, base).task, control: newControlBlock() }, ttSizeMb);
    t.same(
      { move: one.result.move, score: one.result.score, depth: one.result.depth, nodes: one.result.nodes, pv: one.result.pv },
      { move: local.move, score: local.score, depth: local.depth, nodes: local.nodes, pv: local.pv },
      `${id}: threads:1 gives the single-thread answer and node count`,
    );
    await idle(pool);
  }
});

t.test('pool: helpers only take free workers, and give theirs up to a waiting request', async (t) => {
  const pool = new SearchPool({ threads: 2, maxQueue: 4, ttSizeMb: 4, fallbackThread: false });
  t.teardown(() => pool.close());
  await pool.warmUp();
  const pos = startPosition('tablut');
  const helpers: SearchTaskResult[] = [];
  // Asks for 4 threads on a pool of 2: one helper.
  const longJob = searchJob(GAMES.tablut, pos, { deadline: Date.now() + 1_500, maxDepth: undefined, seed: undefined, threads: 4 });
  const long = pool.submit({ ...longJob, onHelperDone: (r) => helpers.push(r) });
  t.equal(pool.stats().running, 2, 'the search and one helper');
  const other = await pool.submit(searchJob(GAMES.tablut, pos, { deadline: Date.now() + 10_000, maxDepth: 2, seed: undefined }));
  const first = await long;
  t.ok(other.result.finishedAt < first.result.finishedAt, 'the waiting request ran while the long search went on');
  t.equal(other.source, 'worker');
  await idle(pool);
  t.equal(helpers.length, 1, 'one helper (capped by the pool, never queued)');
  t.ok(helpers[0]!.finishedAt <= other.result.startedAt + 1_000, 'the helper stopped to free its thread');
});

t.test('http: threads is validated (integer >= 1) and capped silently', async (t) => {
  const app = await testApp({ MAX_SEARCH_THREADS: '2' });
  t.teardown(() => closeTestApp(app));
  const state = GAMES.mnk.exampleState;
  for (const route of ['best-move', 'analyse']) {
    const send = (threads: unknown) => app.app.inject({ method: 'POST', url: `/v1/games/mnk/${route}`, payload: { state, maxDepth: 3, threads } });
    for (const bad of [0, -1, 1.5, '2']) {
      const reply = await send(bad);
      t.equal(reply.statusCode, 400, `${route}: threads ${JSON.stringify(bad)} refused`);
      t.equal(reply.json().code, 'VALIDATION_ERROR');
      t.equal(reply.json().field, 'body/threads');
    }
    for (const good of [1, 2, 64]) {
      const reply = await send(good);
      t.equal(reply.statusCode, 200, `${route}: threads ${good} accepted`);
      t.ok(reply.json().depth >= 3);
    }
  }
});

t.test('in process: a searchOnly main task fills the shared table, a helper stops with its main task', async (t) => {
  const pos = startPosition('othello');
  const job = searchJob(GAMES.othello, pos, { deadline: Date.now() + 60_000, maxDepth: 6, seed: 1 });
  const sharedTt = sharedTableBuffer(1);
  const leader = newControlBlock();
  const main = runTask({ ...job.task, control: leader, sharedTt, helper: 0, searchOnly: true }, 1);
  t.equal(main.depth, 6);
  t.ok(main.nodes > 0);
  // The main task is done: a helper started now (on an empty table) stops at its first poll.
  const helper = runTask({ ...job.task, control: newControlBlock(), sharedTt: sharedTableBuffer(1), helper: 1, leader }, 1);
  t.equal(helper.stopReason, 'cancelled', 'stopped by its main task');
  t.ok(helper.depth < 6);
  // A helper whose main task still runs searches on, and profits from the entries the main search left.
  const helped = runTask({ ...job.task, control: newControlBlock(), sharedTt, helper: 2, leader: newControlBlock() }, 1);
  t.equal(helped.depth, 6);
  t.ok(helped.nodes < main.nodes, `helper on the filled table: ${helped.nodes} nodes, main ${main.nodes}`);
  t.ok(legalMoveCodes(pos).includes(helped.move));
});
