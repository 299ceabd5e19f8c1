/**
 * The fixed-depth part of a game's bench: a fresh searcher per position (so the node count is a
 * deterministic signature of the engine), each position's line, and the total with nodes/s.
 */
import type { GameDefinition, SearchPosition } from '../src/games/types.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';

export interface BenchPosition<P extends SearchPosition> {
  readonly name: string;
  readonly position: () => P;
}

export function fixedDepthBench<P extends SearchPosition>(
  print: (line: string) => void,
  definition: GameDefinition<P>,
  positions: readonly BenchPosition<P>[],
  depth: number,
): void {
  let totalNodes = 0;
  let totalMs = 0;
  for (const { name, position } of positions) {
    const pos = definition.engine.restore(definition.engine.snapshot(position()));
    const searcher = new Searcher(new TranspositionTable(32));
    const started = process.hrtime.bigint();
    const result = searcher.search(pos, { maxDepth: depth });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    totalNodes += result.nodes;
    totalMs += ms;
    const best = result.move >= 0 ? definition.encodeMove(pos, result.move).notation : '-';
    print(`search depth ${depth} ${name}: ${result.nodes} nodes, best ${best}, score ${result.score}, ${ms.toFixed(0)} ms`);
  }
  print(`search depth ${depth} total: ${totalNodes} nodes in ${totalMs.toFixed(0)} ms = ${Math.round((totalNodes * 1000) / totalMs)} nodes/s`);
}
