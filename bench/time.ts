/**
 * Time-management bench (npm run bench -- --only time): per game, a fixed set of non-trivial positions
 * (the start and positions after seeded random plies) searched with a 1000 ms budget the way a worker
 * does it (analyse(): the game's solver, then the search, the deadline kept back by the service's
 * response reserve), once with the old rule (timePolicy 'legacy', main before issue 18) and once with
 * the time manager (src/search/timeman.ts). Prints per position the time used, its share of the
 * budget and the depth reached; per game the median share, the largest overshoot and the mean depth.
 * Quick: two positions per game. Runtime about 2 x positions x 1 s.
 */
import { Random } from '../src/core/random.js';
import { GAMES } from '../src/games/registry.js';
import type { GameDefinition, GameId, SearchPosition } from '../src/games/types.js';
import { legalMoveCodes, statusOf } from '../src/http/game-service.js';
import { baseReserveMs } from '../src/http/response-reserve.js';
import { analyse } from '../src/search/analyse.js';
import { Searcher } from '../src/search/search.js';
import { type TimePolicy } from '../src/search/timeman.js';
import { TranspositionTable } from '../src/search/tt.js';

export const BUDGET_MS = 1000;

/**
 * Random plies from the start (seeded): 0 is the start position. Fixed per game, chosen so no position
 * is trivial (the empty 15x15 board has one candidate move, the centre: answered at once).
 */
const PLIES: Record<GameId, readonly number[]> = {
  mnk: [2, 6, 12, 20],
  othello: [0, 8, 16, 24],
  tablut: [0, 6, 12, 20],
  hadron: [0, 6, 12, 20],
};
const SEED = 18;

export interface TimeSample {
  name: string;
  policy: TimePolicy;
  usedMs: number;
  depth: number;
  stopReason: string;
}

function position(def: GameDefinition<SearchPosition>, plies: number, rng: Random): SearchPosition {
  for (;;) {
    const initial = def.initialState({});
    if (!initial.ok) throw new Error('initial state');
    const decoded = def.decodeState(initial.value, undefined);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const pos = decoded.value;
    for (let i = 0; i < plies && statusOf(def, pos).status === 'ongoing'; i++) {
      const legal = legalMoveCodes(pos);
      pos.makeMove(legal[rng.below(legal.length)]);
    }
    if (statusOf(def, pos).status === 'ongoing' && legalMoveCodes(pos).length > 1) return pos;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One search as a worker runs it: budget from now, deadline minus the response reserve. */
export function timedSearch(def: GameDefinition<SearchPosition>, pos: SearchPosition, searcher: Searcher, policy: TimePolicy, budgetMs: number) {
  const own = def.engine.restore(def.engine.snapshot(pos));
  searcher.tt.clear();
  const start = Date.now();
  const result = analyse(def.engine, own, searcher, {
    deadline: start + budgetMs - baseReserveMs(budgetMs),
    budgetStart: start,
    timePolicy: policy,
  });
  return { usedMs: Date.now() - start, depth: result.depth, stopReason: result.stopReason };
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  print(`budget ${BUDGET_MS} ms per search (deadline ${BUDGET_MS - baseReserveMs(BUDGET_MS)} ms: the service's response reserve), fresh table each`);
  const summary: string[] = [];
  for (const id of Object.keys(PLIES) as GameId[]) {
    const def = GAMES[id];
    const searcher = new Searcher(new TranspositionTable(64));
    const rng = new Random(SEED);
    const plies = opts.quick ? PLIES[id].slice(0, 2) : PLIES[id];
    const positions = plies.map((n) => ({ name: n === 0 ? 'start' : `${n} random plies`, pos: position(def, n, rng) }));
    // Warm-up (not counted): the first search otherwise measures the JIT compiling the engine.
    timedSearch(def, positions[0].pos, searcher, 'adaptive', 200);
    const samples: TimeSample[] = [];
    for (const { name, pos } of positions) {
      const row: string[] = [];
      for (const policy of ['legacy', 'adaptive'] as const) {
        const r = timedSearch(def, pos, searcher, policy, BUDGET_MS);
        samples.push({ name, policy, ...r });
        row.push(`${policy} ${r.usedMs} ms (${Math.round((100 * r.usedMs) / BUDGET_MS)}%) depth ${r.depth} ${r.stopReason}`);
      }
      print(`${id} ${name}: ${row.join(' | ')}`);
    }
    for (const policy of ['legacy', 'adaptive'] as const) {
      const mine = samples.filter((s) => s.policy === policy);
      const share = median(mine.map((s) => s.usedMs / BUDGET_MS));
      const most = Math.max(...mine.map((s) => s.usedMs));
      const depth = mine.reduce((acc, s) => acc + s.depth, 0) / mine.length;
      const over = most > BUDGET_MS ? `over the budget by ${most - BUDGET_MS} ms` : 'none over the budget';
      const line = `${id} ${policy}: median share ${(100 * share).toFixed(0)}%, longest ${most} ms (${over}), mean depth ${depth.toFixed(2)}`;
      print(line);
      summary.push(line);
    }
  }
  print('summary:');
  for (const line of summary) print(`  ${line}`);
}
