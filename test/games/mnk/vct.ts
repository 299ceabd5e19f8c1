/**
 * The K = 5 pattern VCT (src/games/mnk/vct.ts) and the root defence built on it (solver.ts):
 *  - a double-three win (no four on the board, so no VCF) found as a win in three own moves, under
 *    freestyle and exactly five; the move and the distance are derived by hand in the comment and
 *    checked against the window threat search (threats.ts), which is exhaustive up to three own
 *    moves under freestyle, so an independent proof. Under exactly five the solver before the VCT
 *    had only the VCF there and returned nothing;
 *  - a like shape for the opponent under exactly five: the root defence removes the replies after
 *    which the opponent still wins (all but two removals checked with the window threat search) and
 *    keeps the block.
 */
import t from 'tap';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { VcfSolver } from '../../../src/games/mnk/vcf.js';
import { VctSolver } from '../../../src/games/mnk/vct.js';
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
