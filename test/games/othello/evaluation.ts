/**
 * Evaluation profiles: the shipped pattern weights decode to symmetric tables, the evaluation is
 * invariant under the board's symmetries (the tables are shared by all instances), the weights
 * file roundtrips and rejects a file that does not fit the code, and the seed profile is the
 * seed's single table.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { NOT_TERMINAL } from '../../../src/search/score.js';
import { evaluatorFor } from '../../../src/games/othello/profiles.js';
import { ENGINES, prepareEngines } from '../../../src/games/engines.js';
import { decodePatternWeights, encodePatternWeights, patternWeights, shippedPatternTables } from '../../../src/games/othello/pattern-weights.js';
import { PHASE_BLOCK } from '../../../src/games/othello/pattern-eval.js';
import { PATTERN_BLOCK, PATTERN_LENGTHS, PATTERN_OFFSETS, partnerTable } from '../../../src/games/othello/patterns.js';
import { SEED_WEIGHTS } from '../../../src/games/othello/seed-eval.js';
import { EVAL_LIMIT } from '../../../src/search/score.js';
import { legalMoves, positionOf, startPosition } from './helpers.js';

type Transform = (row: number, col: number) => [number, number];
const SYMMETRIES: Transform[] = [
  (r, c) => [r, 7 - c],
  (r, c) => [7 - r, c],
  (r, c) => [7 - r, 7 - c],
  (r, c) => [c, r],
  (r, c) => [7 - c, 7 - r],
  (r, c) => [c, 7 - r],
  (r, c) => [7 - c, r],
];

function transformed(board: string[], g: Transform): string[] {
  const out = Array.from({ length: 8 }, () => Array(8).fill('.'));
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
    const [r2, c2] = g(r, c);
    out[r2][c2] = board[r][c];
  }
  return out.map((row) => row.join(''));
}

t.test('shipped weights: decoded once, on first use or by prepareEngines (the warm-up)', async (t) => {
  t.type(ENGINES.othello.prepare, 'function', 'Othello has tables to prepare');
  prepareEngines();
  const first = shippedPatternTables();
  prepareEngines();
  t.equal(shippedPatternTables(), first, 'the same decoded tables every time');
  const { weights } = patternWeights();
  t.equal(weights[PHASE_BLOCK + 5], first.tables[PATTERN_BLOCK + 5], 'the float form holds the same weights');
});

t.test('shipped weights: present, finite, tied partners equal', async (t) => {
  const { weights: w, stageOf } = patternWeights();
  const stages = stageOf[64] + 1;
  t.equal(w.length, stages * PHASE_BLOCK);
  t.equal(stageOf[0], 0, 'no empties: the first stage');
  t.ok(w.every((x) => Number.isFinite(x)));
  let mismatches = 0;
  let nonZero = 0;
  for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
    const partner = partnerTable(p);
    for (let phase = 0; phase < stages; phase++) {
      const base = phase * PHASE_BLOCK + PATTERN_OFFSETS[p];
      for (let i = 0; i < partner.length; i++) {
        if (w[base + i] !== w[base + partner[i]]) mismatches++;
        if (w[base + i] !== 0) nonZero++;
      }
    }
  }
  t.equal(mismatches, 0, 'mirror / transposed configurations share their weight');
  t.ok(nonZero > 10000, `${nonZero} fitted (non-zero) pattern weights`);
});

t.test('every profile is invariant under the 8 board symmetries and bounded', async (t) => {
  const rng = new Random(4242);
  const { definition } = await import('../../../src/games/othello/index.js');
  for (const profile of ['default', 'classic', 'pattern', 'seed']) {
    const evaluator = evaluatorFor(profile);
    let checked = 0;
    for (let game = 0; game < 8; game++) {
      const pos = startPosition();
      while (pos.terminal() === NOT_TERMINAL) {
        pos.evaluator = evaluator;
        const value = pos.evaluate();
        if (Math.abs(value) >= EVAL_LIMIT) t.fail(`${profile}: out of bounds`);
        const state = definition.encodeState(pos);
        for (const g of SYMMETRIES) {
          const image = positionOf(transformed(state.board, g), state.turn);
          image.evaluator = evaluator;
          if (image.evaluate() !== value) {
            t.fail(`${profile}: symmetry changes the value at ply ${pos.ply}`);
            return;
          }
        }
        checked++;
        const moves = legalMoves(pos);
        pos.makeMove(moves[rng.below(moves.length)]);
      }
    }
    t.ok(checked > 300, `${profile}: ${checked} positions x 7 symmetries`);
  }
});

t.test('weights file roundtrip (pattern weights as int16, global weights to 0.01)', async (t) => {
  const rng = new Random(3);
  const stages = 3;
  const w = new Float32Array(stages * PHASE_BLOCK);
  for (let phase = 0; phase < stages; phase++) {
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const partner = partnerTable(p);
      const base = phase * PHASE_BLOCK + PATTERN_OFFSETS[p];
      for (let i = 0; i < partner.length; i++) {
        if (partner[i] < i) w[base + i] = w[base + partner[i]];
        else w[base + i] = rng.below(10) < 7 ? 0 : rng.below(60001) - 30000;
      }
    }
    for (let k = PHASE_BLOCK - 7; k < PHASE_BLOCK; k++) w[phase * PHASE_BLOCK + k] = (rng.below(20001) - 10000) / 100;
  }
  const file = encodePatternWeights(w, 20, 'test');
  t.equal(file.stages, stages);
  const back = decodePatternWeights(JSON.parse(JSON.stringify(file)));
  let differ = 0;
  for (let i = 0; i < w.length; i++) if (back.weights[i] !== w[i]) differ++;
  t.equal(differ, 0, 'every weight decodes to its value');
  t.same([back.stageOf[0], back.stageOf[19], back.stageOf[20], back.stageOf[40], back.stageOf[64]], [0, 0, 1, 2, 2], 'width 20, last stage capped');
});

t.test('a weights file that does not fit the code is refused with the problem named', async (t) => {
  const good = encodePatternWeights(new Float32Array(2 * PHASE_BLOCK), 30, 'test');
  t.throws(() => decodePatternWeights({ ...good, patterns: [8, 8] }, 'w.json'), /w\.json: patterns \[8,8\] do not match/);
  t.throws(() => decodePatternWeights({ ...good, stages: 3 }, 'w.json'), /w\.json: linear must hold 3 rows/);
  t.throws(
    () =>
      decodePatternWeights(
        {
          ...good,
          linear: [good.linear[0], good.linear[0]],
          stages: 2,
          tables: encodePatternWeights(new Float32Array(PHASE_BLOCK), 30, 'x').tables,
        },
        'w.json',
      ),
    /tables hold \d+ weights, expected/,
  );
});

t.test('seed profile: own minus opponent table sum', async (t) => {
  // Black (to move) holds a1 (+4) and b2 (-4); white holds h8 (+4): 4 - 4 - 4 = -4 table points.
  const pos = positionOf(['B.......', '.B......', '........', '........', '........', '........', '........', '.......W'], 'B');
  pos.evaluator = evaluatorFor('seed');
  t.equal(SEED_WEIGHTS[0], 4, 'corners weigh 4 (the seed write-up)');
  t.equal(pos.evaluate(), -100, '-4 table points = -1 disc (a table point is a quarter disc)');
});

t.test('default profile: a corner is worth more than an X-square next to an empty corner', async (t) => {
  // Same material and shape, only the colour of a1 / b2 differs between the two boards.
  const ownCorner = positionOf(['B.......', '........', '..WWW...', '..WBBB..', '..BBW...', '...W....', '........', '........'], 'B');
  const ownXSquare = positionOf(['........', '.B......', '..WWW...', '..WBBB..', '..BBW...', '...W....', '........', '........'], 'B');
  ownCorner.evaluator = evaluatorFor('default');
  ownXSquare.evaluator = evaluatorFor('default');
  t.ok(ownCorner.evaluate() > ownXSquare.evaluate(), `${ownCorner.evaluate()} > ${ownXSquare.evaluate()}`);
  // Colours and side to move both swapped: the same position for the mover, the same value.
  const swapped = positionOf(['W.......', '........', '..BBB...', '..BWWW..', '..WWB...', '...B....', '........', '........'], 'W');
  swapped.evaluator = evaluatorFor('default');
  t.equal(swapped.evaluate(), ownCorner.evaluate(), 'colour symmetry');
});
