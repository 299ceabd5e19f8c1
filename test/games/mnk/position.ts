/**
 * Incremental state of MnkPosition: after any sequence of makeMove / unmakeMove, the hash, window
 * counts, threat sets, line scores, open-window counts and candidate cells equal those of a
 * position built from scratch on the same board; unmaking everything restores the start exactly.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { DEFAULT_PROFILE, SEED_PROFILE, type MnkProfile } from '../../../src/games/mnk/profile.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { SHAPES_KEPT, neighbourLists } from '../../../src/games/mnk/neighbours.js';

interface Snapshot {
  hash: [number, number];
  side: number;
  counts: number[];
  sets: number[][];
  lineScore: number[];
  live: number;
  open: number[];
  candidates: number[];
  eval: number;
}

function snapshotOf(pos: MnkPosition): Snapshot {
  const sets: number[][] = [];
  for (let side = 0; side < 2; side++) {
    for (let level = 0; level < 2; level++) {
      const items: number[] = [];
      for (let i = 0; i < pos.threatCount(side, level); i++) items.push(pos.threatWindow(side, level, i));
      sets.push(items.sort((a, b) => a - b));
    }
  }
  return {
    hash: [pos.hashLo, pos.hashHi],
    side: pos.side,
    counts: [...pos.counts],
    sets,
    lineScore: [...pos.lineScore],
    live: pos.liveWindows,
    open: [...pos.openWindows],
    candidates: [...pos.candidates.subarray(0, pos.candidateCount)].sort((a, b) => a - b),
    eval: pos.evaluate(),
  };
}

/**
 * Threat sets recomputed from the window counts alone (independent of the incremental code that
 * maintains them, which `rebuilt` shares): windows K-1 / K-2 full of one side and free of the other.
 */
function bruteSets(pos: MnkPosition): number[][] {
  const sets: number[][] = [[], [], [], []];
  for (let w = 0; w < pos.geometry.windowCount; w++) {
    for (let side = 0; side < 2; side++) {
      const own = pos.counts[2 * w + side];
      if (own === 0 || pos.counts[2 * w + 1 - side] !== 0) continue;
      if (own === pos.k - 1) sets[side * 2].push(w);
      else if (own === pos.k - 2) sets[side * 2 + 1].push(w);
    }
  }
  return sets;
}

function rebuilt(pos: MnkPosition, profile: MnkProfile): MnkPosition {
  return new MnkPosition(pos.m, pos.n, pos.k, Uint8Array.from(pos.cells), pos.side, profile);
}

const shapes: [number, number, number][] = [
  [3, 3, 3],
  [1, 9, 4],
  [6, 5, 4],
  [9, 9, 5],
  [12, 7, 1],
  [15, 15, 5],
  [20, 30, 10],
];

for (const profile of [DEFAULT_PROFILE, SEED_PROFILE]) {
  t.test(`incremental state equals a rebuilt position (${profile.name})`, async (t) => {
    const rng = new Random(profile === DEFAULT_PROFILE ? 7 : 8);
    let checks = 0;
    for (const [m, n, k] of shapes) {
      for (let game = 0; game < 4; game++) {
        const pos = new MnkPosition(m, n, k, new Uint8Array(m * n), 0, profile);
        const start = snapshotOf(pos);
        const moves: number[] = [];
        const buf = new Int32Array(m * n);
        while (pos.terminal() === NOT_TERMINAL && moves.length < 60) {
          // Mostly search moves (clustered, realistic), sometimes any legal move.
          const count = rng.below(3) === 0 ? pos.generateMoves(buf, 0) : pos.generateSearchMoves(buf, 0);
          const move = buf[rng.below(count)];
          pos.makeMove(move);
          moves.push(move);
          if (rng.below(4) === 0) {
            const now = snapshotOf(pos);
            t.same(now, snapshotOf(rebuilt(pos, profile)), `${m}x${n}k${k} after ${moves.length} moves`);
            t.same(now.sets, bruteSets(pos), `${m}x${n}k${k}: threat sets match the window counts`);
            checks++;
          }
          // Occasionally take one back and redo it.
          if (rng.below(5) === 0 && pos.terminal() === NOT_TERMINAL) {
            const before = snapshotOf(pos);
            const last = moves[moves.length - 1];
            pos.unmakeMove(last);
            pos.makeMove(last);
            t.same(snapshotOf(pos), before, 'unmake + make is the identity');
          }
        }
        for (let i = moves.length - 1; i >= 0; i--) pos.unmakeMove(moves[i]);
        t.same(snapshotOf(pos), start, `${m}x${n}k${k}: unmaking everything restores the start`);
        t.equal(pos.stones, 0);
        t.equal(pos.ply, 0);
      }
    }
    t.ok(checks > 20, 'enough comparisons happened');
  });
}

t.test('the side to move is part of the hash', async (t) => {
  const cells = new Uint8Array(9);
  cells[0] = 1;
  cells[4] = 2;
  const x = new MnkPosition(3, 3, 3, cells, 0);
  const o = new MnkPosition(3, 3, 3, cells, 1);
  t.not(x.hashLo ^ o.hashLo | (x.hashHi ^ o.hashHi), 0);
  const a = new MnkPosition(3, 3, 3, new Uint8Array(9), 0);
  a.makeMove(0);
  a.makeMove(4);
  t.same([a.hashLo, a.hashHi], [x.hashLo, x.hashHi], 'transposition: same board, same side, same hash');
});

// Each cell's neighbour list (neighbours.ts): the ring's offsets that stay on the board, in the ring's order; shared by
// positions of one shape, and only the last SHAPES_KEPT shapes kept (a client's choice of board sizes bounds no memory).
t.test('neighbour lists: on-board cells in ring order, shared per shape, a bounded number of shapes kept', async (t) => {
  const ring = DEFAULT_PROFILE.patternNeighbourhood;
  const lists = neighbourLists(15, 15, ring);
  const of = (cell: number): number[] => Array.from(lists.cells.subarray(lists.start[cell], lists.start[cell + 1]));
  const ring1Of = (cell: number): number[] => Array.from(lists.ring1.subarray(lists.start[cell], lists.start[cell + 1]));
  // Corner (0,0) under the 5x5 ring: rows 0-2 x columns 0-2 without the corner, row by row; three of them adjacent.
  t.same(of(0), [1, 2, 15, 16, 17, 30, 31, 32]);
  t.same(ring1Of(0), [1, 0, 1, 1, 0, 0, 0, 0]);
  t.equal(of(7 * 15 + 7).length, 24, 'a centre cell has all 24');
  t.equal(of(7 * 15 + 7).filter((_, i) => ring1Of(7 * 15 + 7)[i] === 1).length, 8, 'eight of them adjacent');
  t.equal(neighbourLists(15, 15, ring), lists, 'the same lists for the same shape');
  // Shapes no other test uses (one met before would not be made again, and would not push the oldest out).
  for (let size = 50; size < 50 + SHAPES_KEPT; size++) neighbourLists(size, 43, ring);
  t.not(neighbourLists(15, 15, ring), lists, `made again after ${SHAPES_KEPT} other shapes`);
});
