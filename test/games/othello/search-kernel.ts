/**
 * The WebAssembly kernel of the midgame search (assembly/search.ts, built by `npm run build`): loaded, and
 * the same search as the TypeScript negamax it replaces. Each position is searched twice on fresh tables,
 * with the kernel and without (disableSearchKernel): the same node count, score, move, principal variation
 * and ProbCut count, on positions of seeded random games from the opening to ten empties (where the search
 * reaches finished games and proven scores), with ProbCut on and off, with three lines (multi-PV), and
 * stopped by a node limit in mid-iteration (the stop check polled from inside the kernel).
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { Searcher, type SearchLimits, type SearchResult } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { disableSearchKernel } from '../../../src/games/othello/search-kernel.js';
import { evaluatorFor } from '../../../src/games/othello/profiles.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';
import { legalMoves, startPosition } from './helpers.js';

/** A position `plies` random moves into a seeded game (passes included), or null when the game ended first. */
function randomPosition(seed: number, plies: number): OthelloPosition | null {
  const rng = new Random(seed);
  const pos = startPosition();
  for (let i = 0; i < plies; i++) {
    if (pos.terminal() !== NOT_TERMINAL) return null;
    const moves = legalMoves(pos);
    pos.makeMove(moves[rng.below(moves.length)]);
  }
  return pos.terminal() === NOT_TERMINAL ? pos : null;
}

interface Signature {
  nodes: number;
  score: number;
  move: number;
  pv: number[];
  probCuts: number;
  lines: string;
}

function searchOnce(pos: OthelloPosition, limits: SearchLimits, kernel: boolean): Signature {
  disableSearchKernel(!kernel);
  try {
    const searcher = new Searcher(new TranspositionTable(2));
    const r: SearchResult = searcher.search(pos, limits);
    const lines = r.lines.map((line) => `${line.move}:${line.score}:${line.pv.join(',')}`).join(' ');
    return { nodes: r.nodes, score: r.score, move: r.move, pv: r.pv, probCuts: searcher.probCuts, lines };
  } finally {
    disableSearchKernel(false);
  }
}

t.test('the kernel is built and offered for the pattern evaluation only', async (t) => {
  const pos = startPosition();
  t.not(pos.subtreeSearch(), null, 'dist/src/games/othello/search.wasm (npm run build) was found and instantiated');
  pos.evaluator = evaluatorFor('classic');
  t.equal(pos.subtreeSearch(), null, 'the classic evaluation searches in TypeScript');
  disableSearchKernel(true);
  t.equal(startPosition().subtreeSearch(), null, 'switched off');
  disableSearchKernel(false);
});

t.test('kernel == TypeScript: nodes, score, move, PV and ProbCut cuts at fixed depth', async (t) => {
  const cases: { seed: number; plies: number; depth: number; probCut?: number; multiPv?: number }[] = [
    { seed: 1, plies: 0, depth: 7 },
    { seed: 2, plies: 12, depth: 7 },
    { seed: 3, plies: 24, depth: 7 },
    { seed: 4, plies: 30, depth: 6, probCut: 0 },
    { seed: 5, plies: 36, depth: 7, multiPv: 3 },
    { seed: 6, plies: 44, depth: 8 },
    { seed: 7, plies: 50, depth: 10 },
    { seed: 8, plies: 52, depth: 9 },
  ];
  let probCuts = 0;
  let proven = 0;
  for (const c of cases) {
    const pos = randomPosition(c.seed, c.plies);
    if (pos === null) continue;
    if (c.probCut !== undefined) pos.probCutConfidence = c.probCut;
    const limits: SearchLimits = { maxDepth: c.depth, ...(c.multiPv === undefined ? {} : { multiPv: c.multiPv }) };
    const withKernel = searchOnce(pos, limits, true);
    const without = searchOnce(pos, limits, false);
    t.same(withKernel, without, `seed ${c.seed}, ${pos.empties} empties, depth ${c.depth}: ${without.nodes} nodes`);
    probCuts += without.probCuts;
    if (Math.abs(without.score) >= 990_000) proven++;
  }
  t.ok(probCuts > 0, `ProbCut cut ${probCuts} times in these searches`);
  t.ok(proven > 0, `${proven} searches ended in a proven score`);
});

t.test('kernel == TypeScript when a node limit stops the search inside the kernel', async (t) => {
  const pos = randomPosition(11, 20)!;
  const limits: SearchLimits = { maxDepth: 20, nodeLimit: 30_000 };
  const withKernel = searchOnce(pos, limits, true);
  const without = searchOnce(pos, limits, false);
  t.same(withKernel, without, `stopped after ${without.nodes} nodes`);
  t.ok(without.nodes >= 30_000 && without.nodes < 30_200, 'stopped at the first check past the limit');
});

t.test('kernel == TypeScript on a warm table, and a cleared table searches as a fresh one', async (t) => {
  const first = randomPosition(21, 18)!;
  const second = randomPosition(22, 20)!;
  const run = (kernel: boolean, clearBetween: boolean): number[] => {
    disableSearchKernel(!kernel);
    try {
      const searcher = new Searcher(new TranspositionTable(2));
      const out = [searcher.search(first, { maxDepth: 7 }).nodes];
      if (clearBetween) searcher.tt.clear();
      out.push(searcher.search(second, { maxDepth: 7 }).nodes, searcher.search(second, { maxDepth: 8 }).nodes);
      return out;
    } finally {
      disableSearchKernel(false);
    }
  };
  t.same(run(true, false), run(false, false), 'three searches on one table: the same node counts');
  const fresh = searchOnce(second, { maxDepth: 7 }, true).nodes;
  t.equal(run(true, true)[1], fresh, 'after clear() the kernel searches as on a fresh table');
});

t.test('tables of two sizes in turn: the kernel reuses its table region (its memory stops growing)', async (t) => {
  // A tool that searches with two tables in turn grew the kernel's memory by a table at every switch, until the
  // views no longer fit (a RangeError after about 2 GB).
  const pos = randomPosition(11, 20)!;
  const small = new Searcher(new TranspositionTable(1));
  const large = new Searcher(new TranspositionTable(4));
  const kernel = pos.subtreeSearch() as unknown as { memoryBytes: number };
  const scores = new Set<number>();
  let afterFirstPair = 0;
  for (let round = 0; round < 20; round++) {
    scores.add(small.search(pos, { maxDepth: 3 }).score);
    scores.add(large.search(pos, { maxDepth: 3 }).score);
    if (round === 0) afterFirstPair = kernel.memoryBytes;
  }
  t.equal(kernel.memoryBytes, afterFirstPair, `memory ${afterFirstPair} bytes after the first pair and after 20 pairs`);
  t.equal(scores.size, 1, 'the same score from either table');
});
