/**
 * The K = 5 pattern VCT (src/games/mnk/vct.ts) and the root defence built on it (solver.ts):
 *  - a double-three win (no four on the board, so no VCF) found as a win in three own moves, under
 *    freestyle and exactly five; the move and the distance are derived by hand in the comment and
 *    checked against the window threat search (threats.ts), which is exhaustive up to three own
 *    moves under freestyle, so an independent proof. Under exactly five the solver before the VCT
 *    had only the VCF there and returned nothing;
 *  - a like shape for the opponent under exactly five: the root defence removes the replies after
 *    which the opponent still wins (all but two removals checked with the window threat search) and
 *    keeps the block;
 *  - the same search in the board's WebAssembly kernel (assembly/vct.ts): on seeded random positions, one solver's
 *    calls in turn (its table handed from board to board) give the depth, winning move, node count and stop flag the
 *    TypeScript search gives (useSearchKernel(false)), under node budgets and a stop check that end calls early.
 */
import t from 'tap';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { VcfSolver } from '../../../src/games/mnk/vcf.js';
import { VctSolver } from '../../../src/games/mnk/vct.js';
import { useSearchKernel } from '../../../src/games/mnk/search-kernel.js';
import { F_FIVE } from '../../../src/games/mnk/pattern-tables.js';
import { Random } from '../../../src/core/random.js';
import { EXACT_DEPTH, ThreatSearch } from '../../../src/games/mnk/threats.js';
import { solveMnk } from '../../../src/games/mnk/solver.js';
import { WIN_SCORE } from '../../../src/search/score.js';

const NEVER = { deadline: Infinity, shouldStop: (): boolean => false };

/** A 15x15 position from (row, column) lists of each side's stones. */
function position(xs: number[][], os: number[][], side: number, exact: boolean): MnkPosition {
  const cells = new Uint8Array(225);
  for (const [r, c] of xs) cells[r * 15 + c] = 1;
  for (const [r, c] of os) cells[r * 15 + c] = 2;
  return new MnkPosition(15, 15, 5, cells, side, undefined, exact);
}

// The attacker's two open twos, 7,5 7,6 (row 7) and 5,7 6,7 (column 7), with three empty cells
// beyond each end, cross at 7,7: a stone there makes two open threes (.XXX. on row 7 and column 7).
// The defender blocks one; the other becomes an open four (two five cells); the defender blocks one
// of them; five. A win in 3 own moves (5 plies). No shorter win (the attacker has no three, so no
// four or open four in one move), and no other cell makes two threats at once. The other side's
// stones are far apart (no two within a line of five), so it has no counter-threat.
const TWOS = [[7, 5], [7, 6], [5, 7], [6, 7]];
const SCATTERED = [[0, 14], [14, 0], [14, 14], [11, 10]];
const CROSS = 7 * 15 + 7;
const SPLIT_TWOS = [[7, 8], [7, 10], [4, 7], [5, 7]];
const NEAR = [[6, 9], [5, 8], [0, 14], [14, 0]];

t.test('VCT: a double three is a win in three own moves, found where the VCF finds none', async (t) => {
  const vcf = new VcfSolver();
  const vct = new VctSolver();
  for (const exact of [false, true]) {
    const pos = position(TWOS, SCATTERED, 0, exact);
    t.equal(vcf.findWin(pos, 24, 100_000), 0, `no VCF (no three on the board), exact=${exact}`);
    t.equal(vct.findWin(pos, 12, 100_000), 3, `VCT of 3 own moves, exact=${exact}`);
    t.equal(vct.pv[0], CROSS, 'starting on the crossing cell 7,7');
    t.equal(vct.stopped, false);
    const solved = solveMnk(pos, NEVER);
    t.ok(solved !== null, `the root solver proves it, exact=${exact}`);
    t.equal(solved!.move, CROSS);
    t.equal(solved!.score, WIN_SCORE - 5, 'a win in 5 plies');
  }
  // The independent check: the window threat search, exhaustive to EXACT_DEPTH own moves (freestyle).
  const pos = position(TWOS, SCATTERED, 0, false);
  pos.useWindows();
  const threats = new ThreatSearch();
  threats.reset(pos, NEVER);
  t.equal(threats.findWin(EXACT_DEPTH), 3, 'the window threat search agrees: 3 own moves');
  t.equal(threats.pv[0], CROSS);
});

t.test('VCT: refuses a single three (every reply answered)', async (t) => {
  // Only the row two: 7,7 makes one open three, which the defender blocks; nothing follows.
  const pos = position([[7, 5], [7, 6], [2, 2], [12, 2]], SCATTERED, 0, false);
  const vct = new VctSolver();
  t.equal(vct.findWin(pos, 12, 100_000), 0);
  t.equal(vct.stopped, false, 'refused by a complete search, not the budget');
});

t.test('root defence: replies that leave the opponent a VCT are removed, the block kept', async (t) => {
  // O's split twos 7,8 7,10 (row 7) and 4,7 5,7 (column 7) with room beyond: O on 7,7 would make
  // two open split threes (OO.O on each line), a win in 3 (as above). X to move, with two stones near
  // (6,9 5,8) and no threat of its own. Exactly five: the root defence before the VCT only looked
  // for the opponent's VCF (there is none here) and left the root list whole. (Under freestyle the
  // window defence, exhaustive to three own moves, already cut it.)
  const pos = position(NEAR, SPLIT_TWOS, 0, true);
  const all = new Int32Array(225);
  const count = pos.generateSearchMoves(all, 0);
  t.equal(solveMnk(pos, NEVER), null, 'no proven result for X');
  const kept = new Int32Array(225);
  const keptCount = pos.writeRootMoves(kept, 0);
  const keptSet = new Set(kept.subarray(0, keptCount));
  t.ok(keptCount > 0 && keptCount < count, `the root list is cut (${keptCount} of ${count})`);
  t.ok(keptSet.has(CROSS), "the crossing cell (O's double-three point) is kept");
  // Each removed reply checked with the exhaustive window threat search (freestyle stones, same shapes;
  // no overline is possible within three moves here): O wins within 3 own moves after it. Two removals
  // rest on longer VCTs that only the pattern VCT finds (beyond the window search's exhaustive depth):
  // X on 3,7 or 6,7 blocks the column but leaves O the row's split three and threats around 7,7.
  const longer = new Set([3 * 15 + 7, 6 * 15 + 7]);
  const check = position(NEAR, SPLIT_TWOS, 0, false);
  check.useWindows();
  const threats = new ThreatSearch();
  let confirmed = 0;
  for (const move of all.subarray(0, count)) {
    if (keptSet.has(move) || longer.has(move)) continue;
    check.makeMove(move);
    threats.reset(check, NEVER);
    const d = threats.findWin(EXACT_DEPTH);
    check.unmakeMove(move);
    t.ok(d > 0, `after X ${Math.floor(move / 15)},${move % 15} O wins by threats (window search: ${d})`);
    confirmed++;
  }
  t.equal(confirmed, count - keptCount - 2, 'every other removal confirmed');
});

/** Moves of a seeded random position near the centre of an empty size x size board, K = 5, without a five. */
function randomStones(size: number, exact: boolean, seed: number, stones: number): number[] {
  const rng = new Random(seed);
  const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, exact);
  const p = pos.patterns!;
  const centre = size >> 1;
  const moves: number[] = [];
  for (let tries = 0; moves.length < stones && tries < 100 * stones; tries++) {
    const radius = Math.min(centre, 3 + (moves.length >> 2));
    const move = (centre + rng.below(2 * radius + 1) - radius) * size + (centre + rng.below(2 * radius + 1) - radius);
    if (pos.cells[move] !== 0) continue;
    pos.makeMove(move);
    if (p.count(0, F_FIVE) + p.count(1, F_FIVE) > 0) pos.unmakeMove(move);
    else moves.push(move);
  }
  return moves;
}

interface VctCase {
  size: number;
  exact: boolean;
  moves: number[];
  limit: number;
  /** Stop-check calls answered "go on" before the first "stop" (undefined: no stop check). */
  stopAfter?: number;
}

/** One solver's findWin on each case in turn, in the kernel or in TypeScript: "depth:move:nodes:stopped" each. */
function vctRun(kernel: boolean, cases: readonly VctCase[]): string[] {
  useSearchKernel(kernel);
  try {
    const vct = new VctSolver();
    return cases.map((c) => {
      const pos = new MnkPosition(c.size, c.size, 5, new Uint8Array(c.size * c.size), 0, undefined, c.exact);
      for (const move of c.moves) pos.makeMove(move);
      let calls = 0;
      const stop = c.stopAfter === undefined ? undefined : { shouldStop: (): boolean => calls++ >= c.stopAfter! };
      const d = vct.findWin(pos, 12, c.limit, stop);
      if (kernel) {
        if (pos.vctKernel() === null || pos.vctKernel()!.vctNodes !== vct.nodes) throw new Error('the kernel did not run the VCT');
      } else if (pos.vctKernel() !== null) {
        throw new Error('a kernel where none was asked for');
      }
      return `${d}:${d > 0 ? vct.pv[0] : -1}:${vct.nodes}:${vct.stopped}`;
    });
  } finally {
    useSearchKernel(true);
  }
}

t.test('VCT in the WebAssembly kernel: the TypeScript search, move for move', async (t) => {
  const cases: VctCase[] = [];
  for (let seed = 1; seed <= 48; seed++) {
    const size = seed % 3 === 0 ? 15 : 20;
    const exact = seed % 4 === 0;
    const limit = seed % 5 === 0 ? 700 : 20_000;
    const stopAfter = seed % 7 === 0 ? 3 : undefined;
    cases.push({ size, exact, moves: randomStones(size, exact, 4000 + seed, 10 + (seed % 30)), limit, stopAfter });
  }
  const inTypeScript = vctRun(false, cases);
  const inKernel = vctRun(true, cases);
  t.same(inKernel, inTypeScript, 'the same depth, winning move, nodes and stop flag, call after call');
  const outcomes = inTypeScript.map((r) => r.split(':'));
  t.ok(outcomes.filter((r) => Number(r[0]) > 1).length >= 10, 'wins by threats among them');
  t.ok(outcomes.filter((r) => r[0] === '0' && Number(r[2]) > 0 && r[3] === 'false').length >= 3, 'refutations by a complete search among them');
  t.ok(outcomes.filter((r) => r[3] === 'true' && Number(r[2]) === 700).length >= 3, 'calls ended by the node budget among them');
  t.ok(outcomes.filter((r) => r[3] === 'true' && Number(r[2]) === 4 * 64).length >= 1, 'calls ended by the stop check among them');
});

t.test('VCT in the kernel: two solvers on one board keep their own tables, as in TypeScript', async (t) => {
  // Each solver's table decides what it finds quickly; on one board the kernel holds one table, which the solver that
  // used it last gets a copy of before the other takes it over.
  const moves = randomStones(20, false, 4100, 40);
  const run = (kernel: boolean): string[] => {
    useSearchKernel(kernel);
    try {
      const pos = new MnkPosition(20, 20, 5, new Uint8Array(400), 0);
      const solvers = [new VctSolver(), new VctSolver()];
      const out: string[] = [];
      for (let i = 0; i < moves.length; i++) {
        pos.makeMove(moves[i]);
        if (i < 20 || i % 3 !== 0) continue;
        for (const [j, solver] of [0, 1, 0].map((k) => [k, solvers[k]] as const)) {
          const d = solver.findWin(pos, 12, 3000 + 500 * j);
          out.push(`${i}/${j}:${d}:${solver.nodes}`);
        }
      }
      return out;
    } finally {
      useSearchKernel(true);
    }
  };
  const inTypeScript = run(false);
  t.same(run(true), inTypeScript, 'the same results and nodes, call after call');
  t.ok(new Set(inTypeScript.map((r) => r.split(':')[2])).size > 3, 'calls of different sizes among them');
});

t.test('VCT: boards without the kernel (33x33) run the TypeScript search', async (t) => {
  const cells = new Uint8Array(33 * 33);
  for (const [r, c] of TWOS) cells[r * 33 + c] = 1;
  for (const [r, c] of SCATTERED) cells[r * 33 + c] = 2;
  const pos = new MnkPosition(33, 33, 5, cells, 0);
  t.equal(pos.vctKernel(), null, 'no kernel past 1,024 cells');
  const vct = new VctSolver();
  t.equal(vct.findWin(pos, 12, 100_000), 3, 'the double three wins in three own moves');
  t.equal(vct.pv[0], 7 * 33 + 7);
});
