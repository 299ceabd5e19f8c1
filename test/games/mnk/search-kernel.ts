/**
 * The K = 5 search below the root in WebAssembly (assembly/search.ts, built by `npm run build`): offered where it
 * applies, and the same search as the TypeScript negamax it replaces. Each position is searched twice on fresh
 * tables, with the kernel and without (useSearchKernel): the same node count, score, move, principal variation and
 * lines, and afterwards the same candidate list and flag sets in the same order (the position's candidate arrays live
 * in the kernel's memory once it is made; the kernel evaluates a depth-1 node's children without placing them, and
 * must leave both orders as the TypeScript search's place and remove do, since the move lists read them).
 * Positions are seeded random stones near the centre with no five or winning-four cell for either side, on 20x20 and
 * 15x15, freestyle and exactly five, with the selective search on and off, three lines (multi-PV), a node limit that
 * stops the search inside the kernel, and boards small enough that the top of the tree stays in TypeScript
 * (search-kernel.ts covers()) while the kernel searches below it.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { WINDOW_PROFILE } from '../../../src/games/mnk/profile.js';
import { useSelectiveSearch } from '../../../src/games/mnk/pattern-search.js';
import { useSearchKernel } from '../../../src/games/mnk/search-kernel.js';
import { NOT_TERMINAL, isProven } from '../../../src/search/score.js';
import { Searcher, type SearchLimits } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { F_FIVE, F_FOUR, F_THREE, F_WIN4 } from '../../../src/games/mnk/pattern-tables.js';
import { emptyPosition } from '../../fixtures/mnk/boards.js';

/**
 * Moves of a seeded random position on an empty size x size board, K = 5: `stones` stones, X first, each on a random
 * empty cell near the centre that leaves neither side a five or a winning-four cell (so the search has work to do).
 */
function randomQuiet(size: number, exactK: boolean, seed: number, stones: number): number[] {
  const rng = new Random(seed);
  const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, exactK);
  const p = pos.patterns!;
  const centre = size >> 1;
  const moves: number[] = [];
  for (let tries = 0; moves.length < stones && tries < 100 * stones; tries++) {
    const radius = Math.min(centre, 2 + (moves.length >> 2));
    const row = Math.min(size - 1, Math.max(0, centre + rng.below(2 * radius + 1) - radius));
    const col = Math.min(size - 1, Math.max(0, centre + rng.below(2 * radius + 1) - radius));
    const move = row * size + col;
    if (pos.cells[move] !== 0) continue;
    pos.makeMove(move);
    if (p.count(0, F_FIVE) + p.count(1, F_FIVE) + p.count(0, F_WIN4) + p.count(1, F_WIN4) > 0) pos.unmakeMove(move);
    else moves.push(move);
  }
  return moves;
}

function positionAfter(size: number, exactK: boolean, moves: readonly number[]): MnkPosition {
  const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, exactK);
  for (const move of moves) pos.makeMove(move);
  return pos;
}

interface Signature {
  nodes: number;
  score: number;
  move: number;
  pv: number[];
  depth: number;
  lines: string;
  candidates: number[];
  /** Each side's cells of each flag, in the board's set order. */
  flagSets: string;
  /** Root searches repeated outside the aspiration window (the selective search's, from depth 5). */
  researches: number;
}

function searchOnce(make: () => MnkPosition, limits: SearchLimits, kernel: boolean): Signature {
  useSearchKernel(kernel);
  try {
    const pos = make();
    const searcher = new Searcher(new TranspositionTable(4));
    const r = searcher.search(pos, limits);
    const lines = r.lines.map((line) => `${line.move}:${line.score}:${line.exact}:${line.pv.join(',')}`).join(' ');
    const candidates = Array.from(pos.candidates.subarray(0, pos.candidateCount));
    const sets: string[] = [];
    for (const s of [0, 1]) {
      for (const flag of [F_FIVE, F_WIN4, F_FOUR, F_THREE]) {
        const items: number[] = [];
        for (let i = 0; i < pos.patterns!.count(s, flag); i++) items.push(pos.patterns!.item(s, flag, i));
        sets.push(items.join(','));
      }
    }
    const flagSets = sets.join(' ');
    return { nodes: r.nodes, score: r.score, move: r.move, pv: r.pv, depth: r.depth, lines, candidates, flagSets, researches: searcher.aspirationResearches };
  } finally {
    useSearchKernel(true);
  }
}

t.test('the kernel is offered for the K = 5 pattern path on boards of 31 to 1,024 cells', async (t) => {
  t.not(emptyPosition(20, 20, 5).subtreeSearch(), null, 'dist/src/games/mnk/patterns.wasm (npm run build) holds the search');
  t.not(emptyPosition(15, 15, 5).subtreeSearch(), null, '15x15');
  t.not(emptyPosition(32, 32, 5).subtreeSearch(), null, '32x32, the largest');
  t.equal(emptyPosition(33, 33, 5).subtreeSearch(), null, '33x33: the search stays in TypeScript (the kernel memory is bounded)');
  t.equal(emptyPosition(5, 5, 5).subtreeSearch(), null, '25 cells: the window engine');
  t.equal(emptyPosition(15, 15, 4).subtreeSearch(), null, 'K = 4: no pattern board');
  t.equal(new MnkPosition(15, 15, 5, new Uint8Array(225), 0, WINDOW_PROFILE).subtreeSearch(), null, 'the window profile');
  useSearchKernel(false);
  t.equal(emptyPosition(20, 20, 5).subtreeSearch(), null, 'switched off');
  useSearchKernel(true);
  const pos = emptyPosition(20, 20, 5);
  t.equal(pos.subtreeSearch(), pos.subtreeSearch(), 'made once per position');
});

t.test('kernel == TypeScript: nodes, score, move, PV, lines and the candidate list at fixed depth', async (t) => {
  const cases: { size: number; exactK?: boolean; seed: number; plies: number; depth: number; multiPv?: number; plain?: boolean }[] = [
    { size: 20, seed: 1, plies: 8, depth: 11 },
    { size: 20, seed: 2, plies: 16, depth: 10 },
    { size: 20, seed: 3, plies: 24, depth: 9, multiPv: 3 },
    { size: 20, seed: 4, plies: 30, depth: 7, plain: true },
    { size: 15, seed: 5, plies: 12, depth: 10 },
    { size: 15, exactK: true, seed: 6, plies: 20, depth: 10 },
    { size: 15, exactK: true, seed: 7, plies: 28, depth: 9, multiPv: 2 },
    { size: 20, seed: 8, plies: 40, depth: 11 },
  ];
  let proven = 0;
  let searched = 0;
  let researches = 0;
  for (const c of cases) {
    const moves = randomQuiet(c.size, c.exactK === true, c.seed, c.plies);
    const make = (): MnkPosition => positionAfter(c.size, c.exactK === true, moves);
    if (make().terminal() !== NOT_TERMINAL) continue;
    const limits: SearchLimits = { maxDepth: c.depth, ...(c.multiPv === undefined ? {} : { multiPv: c.multiPv }) };
    useSelectiveSearch(c.plain !== true);
    try {
      const withKernel = searchOnce(make, limits, true);
      const without = searchOnce(make, limits, false);
      t.same(withKernel, without, `${c.size}x${c.size}${c.exactK ? ' exactly five' : ''}, ${moves.length} stones, depth ${c.depth}: ${without.nodes} nodes`);
      searched++;
      researches += without.researches;
      if (isProven(without.score)) proven++;
    } finally {
      useSelectiveSearch(true);
    }
  }
  t.ok(searched >= 6, `${searched} of the 8 games were still going`);
  t.ok(proven > 0, `${proven} searches ended in a proven score`);
  t.ok(researches > 0, `the root searched again outside its aspiration window ${researches} times`);
});

t.test('kernel == TypeScript when a node limit stops the search inside the kernel', async (t) => {
  const moves = randomQuiet(20, false, 11, 8);
  const make = (): MnkPosition => positionAfter(20, false, moves);
  const limits: SearchLimits = { maxDepth: 30, nodeLimit: 20_000 };
  const withKernel = searchOnce(make, limits, true);
  const without = searchOnce(make, limits, false);
  t.same(withKernel, without, `stopped after ${without.nodes} nodes`);
  t.ok(without.nodes >= 20_000 && without.nodes < 20_200, 'stopped at the first check past the limit');
});

t.test('near the end of the board the top of the tree stays in TypeScript and the kernel searches below it', async (t) => {
  // 10x10 with 35 stones: 65 empties. A node at ply 1 searches in the kernel only when, even with a single-reply
  // extension at each of plies 1 to 39, no node below it with a ply left reaches the last 20 empties: 65 - d - 39 > 20,
  // so d <= 5; at depth 10 the nodes of depth 6 to 9 search in TypeScript.
  const moves = randomQuiet(10, false, 35, 35);
  const make = (): MnkPosition => positionAfter(10, false, moves);
  t.equal(moves.length, 35);
  t.equal(make().terminal(), NOT_TERMINAL, 'the game is still going');
  const pos = make();
  const kernel = pos.subtreeSearch()!;
  t.equal(kernel.covers!(5, 1), true, 'depth 5 below the root: the kernel');
  t.equal(kernel.covers!(6, 1), false, 'depth 6: TypeScript');
  const withKernel = searchOnce(make, { maxDepth: 10 }, true);
  const without = searchOnce(make, { maxDepth: 10 }, false);
  t.same(withKernel, without, `depth 10: ${without.nodes} nodes`);
  t.equal(without.depth, 10, 'no proven result cut it short');
});

t.test('a timed search with the kernel answers in its budget', async (t) => {
  const moves = randomQuiet(20, false, 13, 14);
  const pos = positionAfter(20, false, moves);
  const searcher = new Searcher(new TranspositionTable(4));
  const started = Date.now();
  const r = searcher.search(pos, { deadline: started + 300 });
  t.ok(r.depth >= 4, `depth ${r.depth}`);
  t.ok(pos.cells[r.move] === 0, 'an empty cell');
  // Generous slack: a loaded machine; the stop check runs every 16 nodes inside the kernel too.
  t.ok(Date.now() - started < 2000, 'stopped near its deadline');
});
