/**
 * npm run bench -- --only multipv: the cost of multi-PV. Per game, one middle-game position (the
 * openings of test/search/multipv.test.ts) searched to a fixed depth with multiPv 1, 3 and 8, each
 * from a fresh searcher after a warm-up search: CPU milliseconds of this process (less sensitive than
 * wall time to other work on the machine), nodes, and the ratios to multiPv 1. The node counts are
 * deterministic.
 */
import { GAMES } from '../src/games/registry.js';
import type { GameId, SearchPosition } from '../src/games/types.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';

export const CASES: ReadonlyArray<{ game: GameId; query: Record<string, unknown>; moves: string[]; depth: number; quickDepth: number }> = [
  { game: 'othello', query: {}, moves: ['f5', 'd6', 'c3', 'd3', 'c4'], depth: 10, quickDepth: 7 },
  { game: 'tablut', query: {}, moves: ['g5-g2', 'e8-b8', 'f5-g5', 'b5-b3'], depth: 6, quickDepth: 4 },
  { game: 'mnk', query: { m: 15, n: 15, k: 5 }, moves: ['7,7', '8,8', '7,8'], depth: 8, quickDepth: 5 },
  { game: 'hadron', query: { rows: 7, cols: 7 }, moves: ['D4', 'C3'], depth: 5, quickDepth: 4 },
];

const MULTI_PV = [1, 3, 8];

export function position(game: GameId, query: Record<string, unknown>, moves: readonly string[]): SearchPosition {
  const def = GAMES[game];
  const initial = def.initialState(query);
  if (!initial.ok) throw new Error(initial.error.message);
  const decoded = def.decodeState(initial.value, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  const pos = decoded.value;
  for (const m of moves) {
    const code = def.decodeMove(pos, m, 'move');
    if (!code.ok) throw new Error(code.error.message);
    pos.makeMove(code.value);
  }
  return pos;
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  for (const { game, query, moves, depth, quickDepth } of CASES) {
    const d = opts.quick ? quickDepth : depth;
    const parts: string[] = [];
    let baseMs = 0;
    let baseNodes = 0;
    // Warm-up: compiles the game's code paths (single-line and multi-line roots) and touches its tables.
    for (const multiPv of MULTI_PV) new Searcher(new TranspositionTable(16)).search(position(game, query, moves), { maxDepth: d - 1, multiPv, seed: 1 });
    for (const multiPv of MULTI_PV) {
      // One measured run after the warm-up (the node counts are deterministic; the time is CPU time).
      let ms = Infinity;
      let r = null;
      for (let run = 0; run < 1; run++) {
        const searcher = new Searcher(new TranspositionTable(16));
        const pos = position(game, query, moves);
        const before = process.cpuUsage();
        r = searcher.search(pos, { maxDepth: d, multiPv, seed: 1 });
        const used = process.cpuUsage(before);
        ms = Math.min(ms, (used.user + used.system) / 1000);
      }
      if (r === null) throw new Error('no run');
      if (multiPv === 1) {
        baseMs = ms;
        baseNodes = r.nodes;
      }
      const ratio =
        multiPv === 1 ? '' : ` (x${(ms / Math.max(baseMs, 0.001)).toFixed(1)} time, x${(r.nodes / Math.max(1, baseNodes)).toFixed(1)} nodes)`;
      parts.push(`multiPv ${multiPv}: ${ms.toFixed(0)} ms, ${r.nodes} nodes${ratio}`);
    }
    print(`${game} depth ${d}: ${parts.join('; ')}`);
  }
}
