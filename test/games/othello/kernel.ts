/**
 * The WebAssembly kernel of the solver's last plies (assembly/endgame.ts, built by `npm run build`):
 * loaded, and the same as the TypeScript path it replaces: flips and stable discs square by square on
 * positions of seeded random games, and exact solves (score and node count) of the reference endgames
 * and of random positions with 6 to 13 empties (and 14 to 16 under the selective pass), searched once with the kernel
 * and once without. The kernel searches the solver's deep nodes up to 12 empties and its shallow nodes.
 */
import t, { type Test } from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { flips, flipsHi } from '../../../src/games/othello/flips.js';
import { endgameKernel } from '../../../src/games/othello/kernel.js';
import { EndgameSolver } from '../../../src/games/othello/solver.js';
import { stableDiscs, stableHi } from '../../../src/games/othello/stability.js';
import type { OthelloPosition } from '../../../src/games/othello/position.js';
import { fixture, legalMoves, positionOf, startPosition, type Endgame } from './helpers.js';

const kernel = endgameKernel();

function sideBoards(pos: OthelloPosition): [number, number, number, number] {
  const s = pos.side << 1;
  return [pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]];
}

/** Positions of seeded random games, every ply. */
function randomPositions(seed: number, games: number, keep: (pos: OthelloPosition) => boolean): [number, number, number, number][] {
  const rng = new Random(seed);
  const out: [number, number, number, number][] = [];
  for (let game = 0; game < games; game++) {
    const pos = startPosition();
    while (pos.terminal() === NOT_TERMINAL) {
      if (keep(pos)) out.push(sideBoards(pos));
      const moves = legalMoves(pos);
      pos.makeMove(moves[rng.below(moves.length)]);
    }
  }
  return out;
}

t.test('the kernel is built and loaded', async (t) => {
  t.not(kernel, null, 'dist/src/games/othello/endgame.wasm (npm run build) was found and instantiated');
});

t.test('flips and stable discs: kernel == TypeScript on every square of random positions', async (t) => {
  const k = kernel!;
  let differences = 0;
  let checked = 0;
  for (const [pl, ph, ol, oh] of randomPositions(515, 6, () => true)) {
    for (let sq = 0; sq < 64; sq++) {
      const occupied = sq < 32 ? ((pl | ol) >>> sq) & 1 : ((ph | oh) >>> (sq - 32)) & 1;
      if (occupied !== 0) continue;
      const lo = flips(sq, pl, ph, ol, oh);
      const hi = flipsHi;
      if (k.flipsOf(sq, pl, ph, ol, oh) !== lo || k.flipsHigh() !== hi) differences++;
      checked++;
    }
    const sl = stableDiscs(pl, ph, ol, oh);
    const sh = stableHi;
    if (k.stableOf(pl, ph, ol, oh) !== sl || k.stableHighHalf() !== sh) differences++;
  }
  t.equal(differences, 0, `${checked} (position, square) pairs`);
});

function solveBoth(t: Test, label: string, pl: number, ph: number, ol: number, oh: number, alpha = -64, beta = 64, width?: number): number {
  const withKernel = new EndgameSolver();
  const without = new EndgameSolver(null);
  if (width !== undefined) {
    withKernel.width = width;
    without.width = width;
  }
  const a = withKernel.solve(pl, ph, ol, oh, alpha, beta, null);
  const b = without.solve(pl, ph, ol, oh, alpha, beta, null);
  if (a !== b || withKernel.nodes !== without.nodes) t.fail(`${label}: kernel ${a} in ${withKernel.nodes} nodes, TypeScript ${b} in ${without.nodes}`);
  return without.nodes;
}

t.test('exact solves: same score and node count with the kernel as without (reference endgames up to 15 empties)', async (t) => {
  const { positions } = fixture<{ positions: Endgame[] }>('endgames.json');
  let nodes = 0;
  let solved = 0;
  for (const p of positions.filter((x) => x.empties <= 15)) {
    const [pl, ph, ol, oh] = sideBoards(positionOf(p.board, p.turn));
    nodes += solveBoth(t, p.id, pl, ph, ol, oh);
    solved++;
  }
  t.equal(solved, 7, 'the four 12-empty and three 15-empty positions');
  t.ok(nodes > 100000, `${solved} positions, ${nodes} nodes each way`);
});

t.test('exact solves and null windows: same score and nodes on random positions with 6 to 13 empties', async (t) => {
  const rng = new Random(77);
  const positions = randomPositions(99, 24, (pos) => pos.empties >= 6 && pos.empties <= 13 && rng.below(4) === 0);
  let nodes = 0;
  positions.forEach(([pl, ph, ol, oh], i) => {
    nodes += solveBoth(t, `random ${i}`, pl, ph, ol, oh);
    nodes += solveBoth(t, `random ${i} window (-1, 1)`, pl, ph, ol, oh, -1, 1);
  });
  t.ok(positions.length > 40, `${positions.length} positions, ${nodes} nodes`);
});

t.test('the selective pass (three moves a node from 11 empties): same score and nodes on positions with 14 to 16 empties', async (t) => {
  const positions = randomPositions(2026, 6, (pos) => pos.empties >= 14 && pos.empties <= 16);
  let nodes = 0;
  positions.forEach(([pl, ph, ol, oh], i) => {
    nodes += solveBoth(t, `random ${i} width 3`, pl, ph, ol, oh, -64, 64, 3);
  });
  t.equal(positions.length, 18, 'three positions from each of six games');
  t.ok(nodes > 10000, `${positions.length} positions, ${nodes} nodes`);
});
