/**
 * (M,N,K)-game bench:
 *  - perft of tic-tac-toe (move generation + make/unmake + win detection);
 *  - fixed-depth search over a fixed position set (tactics, a 15x15 opening, a 70x70 K=10 middle
 *    game): the total node count is a deterministic signature of the engine; nodes/s its speed;
 *  - the tactics score at 1 s per position (solver + search, as the service runs them);
 *  - time to prove the empty 3x3 K=3 (draw), 4x3 K=3 (win) and, outside quick mode, 5x4 K=4 (draw).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definition, engine, type MnkPosition } from '../../src/games/mnk/index.js';
import { usePatternKernel } from '../../src/games/mnk/pattern-kernel.js';
import { useSearchKernel } from '../../src/games/mnk/search-kernel.js';
import { useSelectiveSearch } from '../../src/games/mnk/pattern-search.js';
import { VctSolver } from '../../src/games/mnk/vct.js';
import { analyse } from '../../src/search/analyse.js';
import { perft } from '../../src/search/perft.js';
import { Searcher } from '../../src/search/search.js';
import { TranspositionTable } from '../../src/search/tt.js';

interface Tactic {
  id: string;
  m: number;
  n: number;
  k: number;
  turn: 'X' | 'O';
  board: string[];
  correct: [number, number][];
}

function loadTactics(): Tactic[] {
  const candidates = [
    new URL('../../../test/fixtures/mnk/tactics.json', import.meta.url).pathname,
    join(process.cwd(), 'test/fixtures/mnk/tactics.json'),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (file === undefined) throw new Error('test/fixtures/mnk/tactics.json not found');
  return (JSON.parse(readFileSync(file, 'utf8')) as { positions: Tactic[] }).positions;
}

/**
 * 20x20 middle games: the given plies of the first `games` games of a recorded match against Rapfi (moves as [row, column]),
 * at most `max`. The defaults are the 24 positions of docs/gomoku-strength.md's eighth round.
 */
export function middleGames(plies: readonly number[] = [10, 16, 22], games = Infinity, max = 24): MnkPosition[] {
  const name = 'tools/records/gomoku-round6/fitted11-kernel-rapfi50.jsonl';
  const file = [new URL(`../../../${name}`, import.meta.url).pathname, join(process.cwd(), name)].find((f) => existsSync(f));
  if (file === undefined) throw new Error(`${name} not found`);
  const positions: MnkPosition[] = [];
  for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(0, games)) {
    const moves = (JSON.parse(line) as { moves: [number, number][] }).moves;
    for (const at of plies) if (moves.length > at + 2 && positions.length < max) positions.push(withStones(20, 20, 5, moves.slice(0, at)));
  }
  return positions;
}

function decode(state: unknown): MnkPosition {
  const r = definition.decodeState(state, undefined);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

function empty(m: number, n: number, k: number): MnkPosition {
  const s = definition.initialState({ m, n, k });
  if (!s.ok) throw new Error(s.error.message);
  return decode(s.value);
}

/** A board with stones at "r,c" cells, X first. */
function withStones(m: number, n: number, k: number, cells: [number, number][]): MnkPosition {
  const pos = empty(m, n, k);
  for (const [r, c] of cells) pos.makeMove(r * n + c);
  return engine.restore(engine.snapshot(pos));
}

/** A 15x15 opening (a few plies around the centre) and a 70x70 K=10 middle game. */
function benchPositions(tactics: Tactic[]): { name: string; pos: MnkPosition; depth: number }[] {
  const pick = (id: string): MnkPosition => {
    const p = tactics.find((x) => x.id === id)!;
    return decode({ m: p.m, n: p.n, k: p.k, board: p.board, turn: p.turn });
  };
  const opening = withStones(15, 15, 5, [[7, 7], [7, 8], [8, 6], [6, 8], [8, 8], [8, 7]]);
  const big: [number, number][] = [];
  for (let i = 0; i < 14; i++) big.push([33 + (i % 5) + (i >> 2), 30 + ((i * 7) % 9)]);
  const middle = withStones(70, 70, 10, big);
  return [
    { name: 'tactic 15x15k5-win5-4', pos: pick('15x15k5-win5-4'), depth: 7 },
    { name: 'tactic 9x9k4-win5-2', pos: pick('9x9k4-win5-2'), depth: 7 },
    { name: 'tactic 10x10k5-block-1', pos: pick('10x10k5-block-1'), depth: 6 },
    { name: '15x15k5 opening', pos: opening, depth: 10 },
    { name: '70x70k10 middle game', pos: middle, depth: 6 },
  ];
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  // Perft of tic-tac-toe: 549945 move sequences over plies 1..9 (finished games stop).
  const perftDepth = opts.quick ? 7 : 9;
  let started = performance.now();
  let sequences = 0;
  for (let d = 1; d <= perftDepth; d++) sequences += perft(empty(3, 3, 3), d);
  print(`perft 3x3k3 plies 1..${perftDepth}: ${sequences} sequences in ${(performance.now() - started).toFixed(0)} ms`);

  const tactics = loadTactics();
  const searcher = new Searcher(new TranspositionTable(32));
  let totalNodes = 0;
  let totalMs = 0;
  for (const { name, pos, depth } of benchPositions(tactics)) {
    const d = opts.quick ? Math.max(2, depth - 2) : depth;
    searcher.tt.clear();
    started = performance.now();
    const r = searcher.search(pos, { maxDepth: d });
    const ms = performance.now() - started;
    totalNodes += r.nodes;
    totalMs += ms;
    const move = definition.encodeMove(pos, r.move).notation;
    print(`search ${name} depth ${d}: ${r.nodes} nodes, ${ms.toFixed(0)} ms, best ${move}, score ${r.score}`);
  }
  print(`search total: ${totalNodes} nodes (signature), ${Math.round((totalNodes / totalMs) * 1000)} nodes/s`);

  // The search below the root in WebAssembly, the pattern board's kernel alone (make and unmake), and TypeScript
  // throughout: the same search, node for node.
  const kernelDepth = opts.quick ? 12 : 13;
  const rates: Record<string, { nodes: number; ms: number }> = {};
  for (let round = 0; round < 2; round++) {
    for (const key of ['search', 'board', 'typescript']) {
      usePatternKernel(key !== 'typescript');
      useSearchKernel(key === 'search');
      const { pos } = benchPositions(tactics)[3];
      searcher.tt.clear();
      started = performance.now();
      const r = searcher.search(pos, { maxDepth: kernelDepth });
      const ms = performance.now() - started;
      if (rates[key] === undefined || ms < rates[key].ms) rates[key] = { nodes: r.nodes, ms };
    }
  }
  usePatternKernel(true);
  useSearchKernel(true);
  const rate = (key: string): number => (rates[key].nodes / rates[key].ms) * 1000;
  print(
    `K = 5 search, 15x15k5 opening depth ${kernelDepth}: ${rates.search.nodes} nodes with the search in WebAssembly ` +
      `(${rates.board.nodes} with the board's kernel alone, ${rates.typescript.nodes} in TypeScript), ${Math.round(rate('search'))}, ` +
      `${Math.round(rate('board'))} and ${Math.round(rate('typescript'))} nodes/s (${(rate('search') / rate('board')).toFixed(2)} and ` +
      `${(rate('board') / rate('typescript')).toFixed(2)} times)`,
  );
  // The root's pattern VCT in WebAssembly and in TypeScript: the same searches, node for node (one solver each, as a
  // thread keeps one; a fresh board per position).
  const vctNodes = opts.quick ? 20_000 : 100_000;
  const vct: Record<string, { nodes: number; wins: number; ms: number }> = {};
  for (const key of ['kernel', 'typescript']) {
    useSearchKernel(key === 'kernel');
    const solver = new VctSolver();
    let nodes = 0;
    let wins = 0;
    let ms = 0;
    for (const pos of middleGames()) {
      started = performance.now();
      if (solver.findWin(pos, 12, vctNodes) > 0) wins++;
      ms += performance.now() - started;
      nodes += solver.nodes;
    }
    vct[key] = { nodes, wins, ms };
  }
  useSearchKernel(true);
  print(
    `K = 5 VCT, 24 20x20k5 middle games, ${vctNodes} nodes each at most: ${vct.kernel.nodes} nodes (${vct.typescript.nodes} in TypeScript), ` +
      `${vct.kernel.wins} wins, ${vct.kernel.ms.toFixed(0)} ms in WebAssembly against ${vct.typescript.ms.toFixed(0)} ms in TypeScript ` +
      `(${(vct.typescript.ms / vct.kernel.ms).toFixed(2)} times)`,
  );
  // The selective search against the full-width one on the middle games: nodes to the same depth, and the rate.
  const middleDepth = opts.quick ? 8 : 10;
  for (const on of [true, false]) {
    useSelectiveSearch(on);
    let nodes = 0;
    started = performance.now();
    for (const pos of middleGames()) {
      searcher.tt.clear();
      nodes += searcher.search(pos, { maxDepth: middleDepth }).nodes;
    }
    const ms = performance.now() - started;
    const rate = Math.round((nodes / ms) * 1000);
    print(`search 24 20x20k5 middle games depth ${middleDepth}, selective search ${on ? 'on' : 'off'}: ${nodes} nodes, ${ms.toFixed(0)} ms, ${rate} nodes/s`);
  }
  useSelectiveSearch(true);
  // What a board costs to make, and to move into its kernel (done only for boards that are searched).
  const boards = opts.quick ? 300 : 2000;
  const made: MnkPosition[] = [];
  started = performance.now();
  for (let i = 0; i < boards; i++) made.push(empty(20, 20, 5));
  const makeMs = performance.now() - started;
  started = performance.now();
  for (const pos of made) pos.patterns!.attachKernel();
  const attachMs = performance.now() - started;
  started = performance.now();
  for (const pos of made) pos.subtreeSearch();
  const searchMs = performance.now() - started;
  print(
    `pattern board 20x20k5: ${((makeMs / boards) * 1000).toFixed(0)} us to make, ${((attachMs / boards) * 1000).toFixed(0)} us to move into its kernel, ` +
      `${((searchMs / boards) * 1000).toFixed(0)} us more to set up the search there`,
  );

  const budgetMs = opts.quick ? 250 : 1000;
  // As the service runs a move: solver first, then the search, under the budget. The effective
  // rate (search nodes / wall time) shows what the solver's share costs the search.
  const middle = withStones(15, 15, 5, [[7, 7], [7, 8], [8, 6], [6, 8], [8, 8], [8, 7], [6, 6], [9, 9], [5, 5], [4, 4], [6, 7], [5, 8]]);
  for (const [name, pos] of [['15x15k5 opening', benchPositions(tactics)[3].pos], ['15x15k5 middle game', middle]] as const) {
    searcher.tt.clear();
    started = performance.now();
    const r = analyse(engine, pos, searcher, { deadline: Date.now() + budgetMs });
    const ms = performance.now() - started;
    const effective = Math.round((r.nodes / ms) * 1000);
    print(`analyse ${name} at ${budgetMs} ms: depth ${r.depth}, ${r.nodes} nodes in ${ms.toFixed(0)} ms (${effective} nodes/s effective), ${r.stopReason}`);
  }
  let correct = 0;
  let worstMs = 0;
  for (const p of tactics) {
    const pos = decode({ m: p.m, n: p.n, k: p.k, board: p.board, turn: p.turn });
    searcher.tt.clear();
    started = performance.now();
    const r = analyse(engine, pos, searcher, { deadline: Date.now() + budgetMs });
    worstMs = Math.max(worstMs, performance.now() - started);
    const row = Math.floor(r.move / p.n);
    const col = r.move % p.n;
    if (p.correct.some(([a, b]) => a === row && b === col)) correct++;
    else print(`tactic ${p.id}: wrong move ${row},${col}`);
  }
  print(`tactics at ${budgetMs} ms: ${correct}/${tactics.length} correct (slowest answer ${worstMs.toFixed(0)} ms)`);

  const solveCases: [number, number, number][] = opts.quick ? [[3, 3, 3], [4, 3, 3]] : [[3, 3, 3], [4, 3, 3], [4, 4, 4], [5, 4, 4]];
  for (const [m, n, k] of solveCases) {
    const pos = empty(m, n, k);
    started = performance.now();
    const deadline = Date.now() + 60_000;
    const solved = engine.solve!(pos, { deadline, shouldStop: () => Date.now() >= deadline });
    const ms = performance.now() - started;
    const value = solved === null ? 'unsolved' : solved.score === 0 ? 'draw' : solved.score > 0 ? `win in ${1_000_000 - solved.score}` : 'loss';
    print(`solve empty ${m}x${n}k${k}: ${value} in ${ms.toFixed(0)} ms (${solved?.nodes ?? 0} nodes)`);
  }
}
