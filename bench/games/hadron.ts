/**
 * Hadron bench: perft on the empty 9x9 board (bulk counting; quick: depth 4), a fixed-depth search
 * from fixed positions with a deterministic node total, every board of small-boards.json solved
 * (whole board and every first move, checked against the file), the exact solve of the empty 5x5
 * board, and how early in 9x9 self-play games a 1 s budget proves the result. Single thread.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definition, engine } from '../../src/games/hadron/index.js';
import { HadronSolver } from '../../src/games/hadron/solver.js';
import { fastPerft, type HadronPosition } from '../../src/games/hadron/position.js';
import { solveHadron } from '../../src/games/hadron/solve.js';
import { Searcher } from '../../src/search/search.js';
import { fixedDepthBench } from '../fixed-depth.js';
import { TranspositionTable } from '../../src/search/tt.js';
import { analyse } from '../../src/search/analyse.js';

/** perft.json board9x9[d-1].perft, from the reference set shared/reference/hadron. */
const PERFT_9X9 = [1, 81, 6192, 446720, 30370520, 1946454516];

function emptyBoard(rows: number, cols: number): HadronPosition {
  const state = definition.initialState({ rows, cols });
  if (!state.ok) throw new Error(state.error.message);
  const pos = definition.decodeState(state.value, undefined);
  if (!pos.ok) throw new Error(pos.error.message);
  return pos.value;
}

function play(pos: HadronPosition, notations: string[]): HadronPosition {
  for (const n of notations) {
    const code = definition.decodeMove(pos, n, 'bench');
    if (!code.ok) throw new Error(code.error.message);
    pos.makeMove(code.value);
  }
  return pos;
}

/** Fixed bench positions: the empty board and two openings (arbitrary, fixed). */
const POSITIONS: Array<{ name: string; moves: string[] }> = [
  { name: 'empty', moves: [] },
  { name: 'center', moves: ['E5', 'A1', 'C3', 'G7'] },
  { name: 'corners', moves: ['A1', 'I9', 'A9', 'I1', 'C3', 'G7'] },
];

interface SmallBoard {
  rows: number;
  cols: number;
  firstPlayerWins: boolean;
  firstMoveMap: string[];
}

/** small-boards.json, from the copy in test/fixtures/hadron (origin: the reference set shared/reference/hadron). */
function loadSmallBoards(): SmallBoard[] {
  const candidates = [
    new URL('../../../test/fixtures/hadron/small-boards.json', import.meta.url).pathname,
    join(process.cwd(), 'test/fixtures/hadron/small-boards.json'),
  ];
  const file = candidates.find((f) => existsSync(f));
  if (file === undefined) throw new Error('test/fixtures/hadron/small-boards.json not found');
  return (JSON.parse(readFileSync(file, 'utf8')) as { results: SmallBoard[] }).results;
}

function benchSmallBoards(print: (line: string) => void): void {
  let allOk = true;
  const started = Date.now();
  for (const b of loadSmallBoards()) {
    // A fresh solver per board: the time includes building the game values.
    const solver = new HadronSolver();
    const t0 = Date.now();
    solver.load(b.rows, b.cols, new Uint8Array(b.rows * b.cols), 0);
    const wins = solver.solveLoaded();
    const map: string[] = [];
    for (let r = 0; r < b.rows; r++) {
      let line = '';
      for (let c = 0; c < b.cols; c++) line += solver.moveWins(r * b.cols + c) ? 'W' : 'L';
      map.push(line);
    }
    const ok = wins === b.firstPlayerWins && map.join('/') === b.firstMoveMap.join('/');
    allOk &&= ok;
    print(`small board ${b.rows}x${b.cols}: first player ${wins ? 'wins' : 'loses'}, map ${map.join('/')} ${ok ? 'ok' : 'MISMATCH'} in ${Date.now() - t0} ms`);
  }
  print(`small-boards.json: ${allOk ? 'all correct' : 'MISMATCHES'} in ${Date.now() - started} ms`);
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  const perftDepth = opts.quick ? 4 : 5;
  for (let depth = 1; depth <= perftDepth; depth++) {
    const pos = emptyBoard(9, 9);
    const started = process.hrtime.bigint();
    const nodes = fastPerft(pos, depth);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const check = nodes === PERFT_9X9[depth] ? 'ok' : `MISMATCH (expected ${PERFT_9X9[depth]})`;
    print(`perft 9x9 (${depth}) = ${nodes} ${check} in ${ms.toFixed(1)} ms`);
  }

  const searchDepth = opts.quick ? 4 : 5;
  fixedDepthBench(print, definition, POSITIONS.map(({ name, moves }) => ({ name, position: () => play(emptyBoard(9, 9), moves) })), searchDepth);

  benchSmallBoards(print);

  for (const [rows, cols] of [
    [5, 5],
    [4, 6],
  ]) {
    const pos = emptyBoard(rows, cols);
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    const solved = solveHadron(pos, { deadline: started + 60_000, shouldStop: () => false });
    const ms = Date.now() - started;
    // CPU time too: the wall clock on a shared machine says little.
    const cpuMs = Math.round(process.cpuUsage(cpuBefore).user / 1000);
    const verdict = solved === null ? 'not solved' : solved.score > 0 ? 'first player (W) wins' : 'first player (W) loses';
    const move = solved === null ? '-' : definition.encodeMove(pos, solved.move).notation;
    print(`solve empty ${rows}x${cols}: ${verdict}, move ${move}, ${ms} ms (${cpuMs} ms CPU)`);
  }

  // Self-play 9x9 games at 1 s per move: the first ply at which the engine's answer is proven.
  const games = opts.quick ? 1 : 3;
  const budgetMs = opts.quick ? 200 : 1000;
  for (let game = 0; game < games; game++) {
    const pos = engine.restore(engine.snapshot(emptyBoard(9, 9)), { seed: game + 1 });
    const searcher = new Searcher(new TranspositionTable(32));
    let ply = 0;
    let provenAt = -1;
    while (pos.playableCount > 0) {
      const result = analyse(engine, pos, searcher, { deadline: Date.now() + budgetMs, seed: game * 1000 + ply + 1 });
      if (provenAt < 0 && result.exact) provenAt = ply;
      if (result.move < 0) break;
      pos.makeMove(result.move);
      ply++;
    }
    print(`9x9 self-play game ${game + 1} at ${budgetMs} ms/move: proven from ply ${provenAt} of ${ply} (${pos.pieces} pieces placed)`);
  }
}
