/**
 * npm run bench -- --only smp: one search on several threads (Lazy SMP). Per game, the middle-game
 * positions of the multipv section searched through a real worker pool to a fixed depth with
 * `threads` 1 and 2 (generic search only, no game solver; alternating, REPEAT times, after a warm-up): wall time to the depth (median), nodes
 * of all threads per second, and the speed-up. Wall time: the figures suffer from other work on the
 * machine (two threads need two idle cores).
 */
import { availableParallelism } from 'node:os';
import { GAMES } from '../src/games/registry.js';
import { SearchPool } from '../src/pool/pool.js';
import type { SearchTaskResult } from '../src/pool/task.js';
import { searchJob } from '../src/http/game-service.js';
import { CASES, position } from './multipv.js';

const REPEAT = 3;
/** Deeper than the multipv section: a search of a few seconds, so per-request costs (a fresh shared table) do not dominate. */
const DEPTHS: Record<string, { depth: number; quick: number }> = {
  othello: { depth: 12, quick: 10 },
  tablut: { depth: 7, quick: 6 },
  mnk: { depth: 10, quick: 8 },
  hadron: { depth: 6, quick: 5 },
};

async function idle(pool: SearchPool): Promise<void> {
  while (pool.stats().running > 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  const workers = Math.max(2, Math.min(availableParallelism(), 2));
  const pool = new SearchPool({ threads: workers, maxQueue: 4, ttSizeMb: 16, fallbackThread: false });
  await pool.warmUp();
  try {
    for (const { game, query, moves } of CASES) {
      const d = opts.quick ? DEPTHS[game]!.quick : DEPTHS[game]!.depth;
      const pos = position(game, query, moves);
      const once = async (threads: number): Promise<{ ms: number; nodes: number; depth: number; move: number }> => {
        const helpers: SearchTaskResult[] = [];
        const job = searchJob(GAMES[game], pos, { deadline: Date.now() + 600_000, maxDepth: d, seed: 1, threads });
        // The generic search only: a game's solver runs first on one thread and would hide the search's figures.
        const outcome = await pool.submit({ ...job, task: { ...job.task, searchOnly: true }, onHelperDone: (r) => helpers.push(r) });
        await idle(pool);
        const r = outcome.result;
        const nodes = r.nodes + helpers.reduce((sum, h) => sum + h.nodes, 0);
        return { ms: Math.max(1, r.finishedAt - r.startedAt), nodes, depth: r.depth, move: r.move };
      };
      await once(1);
      const runs: Record<number, Array<{ ms: number; nodes: number; depth: number; move: number }>> = { 1: [], 2: [] };
      for (let i = 0; i < (opts.quick ? 1 : REPEAT); i++) {
        for (const threads of [1, 2]) runs[threads]!.push(await once(threads));
      }
      const summary = (threads: number) => {
        const list = runs[threads]!;
        const ms = median(list.map((r) => r.ms));
        const nps = median(list.map((r) => Math.round((r.nodes * 1000) / r.ms)));
        const moves = new Set(list.map((r) => GAMES[game].encodeMove(pos, r.move).notation));
        return { ms, nps, text: `${threads} thread${threads > 1 ? 's' : ''} ${ms} ms (${nps} nodes/s, best ${[...moves].join('/')})` };
      };
      const one = summary(1);
      const two = summary(2);
      print(`smp ${game} depth ${d}: ${one.text}, ${two.text}: speed-up ${(one.ms / two.ms).toFixed(2)}x time, ${(two.nps / one.nps).toFixed(2)}x nodes/s`);
    }
  } finally {
    await pool.close();
  }
}
