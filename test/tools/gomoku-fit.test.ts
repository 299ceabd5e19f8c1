/**
 * The gomoku evaluation fit (tools/gomoku-fit.ts): samples of a hand-made game, the log loss and its
 * gradient on a tiny data set with a known optimum, the cell-shape fit (--cells) likewise, positions labelled by
 * searches (--label-depth, --labels), and the shipped values table (pattern-values.json) as the engine loads it.
 */
import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  C_BLOCK4,
  C_FLEX3,
  C_ONE,
  CELL_KEYS,
  CELL_SHAPE,
  CELL_VALUE,
  CLASS_COUNT,
  HAND_SET_VALUES,
  HINT_VALUE,
  PATTERN_VALUES,
  POW9,
  SHAPE_COUNT,
  SHAPE_NAMES,
  TEMPO_QUARTERS,
  cellValueOf,
  evaluationValueOf,
} from '../../src/games/mnk/pattern-tables.js';
import {
  PARAMS,
  ROW,
  type ShapeSample,
  evalOf,
  fitScale,
  fitShapeScale,
  fitShapes,
  fitValues,
  gameSamples,
  engineEvalOf,
  labelByEngine,
  labelPositions,
  labelSamples,
  logLoss,
  lossGradient,
  paramsOf,
  shapeLoss,
  shapePrior,
  shapeSamples,
  type SearchLabel,
} from '../../tools/gomoku-fit.js';
import { KIBITZ_BRAIN } from '../../tools/pbrain-match.js';
import { fromRoot } from '../support/paths.js';

/** Black x = 5..9 on row 10, white x = 5..8 on row 0, alternating: black makes five at ply 8. */
const FIVE_GAME = {
  size: 15,
  rule: 0,
  moves: [[5, 10], [5, 0], [6, 10], [6, 0], [7, 10], [7, 0], [8, 10], [8, 0], [9, 10]] as [number, number][],
  winner: 0,
};

t.test('samples: positions before the decided ones, labelled for the side to move', async (t) => {
  // Plies 0-5 are kept; at ply 6 black has an open three (a winning-four cell), at 7 black has two five
  // cells, at 8 black has a five cell: the evaluation does not reach its heuristic branch there.
  const rows = gameSamples(FIVE_GAME, 0);
  t.same(rows.map((r) => r[ROW - 1]), [1, 0, 1, 0, 1, 0]);
  t.equal(gameSamples(FIVE_GAME, 2).length, 4, 'the first two plies skipped');
  t.same(gameSamples({ ...FIVE_GAME, winner: 1 }, 0), [], 'a winner that did not make the last move: not a five, no samples');
  // The empty board: both sides see the same cells, so the evaluation at tempo 1 is 0; every cell and
  // direction on a 15x15 board where a five fits is ONE: 225 cells on rows, 225 on columns, and per diagonal
  // direction 225 less the 2 * (1 + 2 + 3 + 4) cells on diagonals shorter than five.
  const empty = rows[0];
  t.equal(evalOf(empty, paramsOf(HAND_SET_VALUES), 1), 0);
  t.equal(empty[C_ONE - 1], 225 + 225 + 205 + 205);
  t.equal(empty[PARAMS + C_ONE - 1], empty[C_ONE - 1]);
});

t.test('loss and gradient: a known optimum', async (t) => {
  // One feature (the mover's ONE count) 1 in every sample, the side to move wins 3 of 4: the log loss
  // is least at sigmoid(w) = 3/4, w = ln 3, where it is the entropy of (3/4, 1/4).
  const row = (y: number): Float64Array => {
    const r = new Float64Array(ROW);
    r[0] = 1;
    r[ROW - 1] = y;
    return r;
  };
  const rows = [row(1), row(1), row(1), row(0)];
  const zero = new Float64Array(PARAMS);
  t.equal(logLoss(rows, zero, 1, 1), Math.log(2));
  // d/dw mean((sigmoid(w) - y) * x) at 0: (4 * 0.5 - 3) / 4.
  t.equal(lossGradient(rows, zero, 1, 1)[0], -0.25);
  t.equal(lossGradient(rows, zero, 1, 1)[1], 0, 'a feature never seen has no gradient');
  const w = fitValues(rows, zero, 1, 1);
  t.ok(Math.abs(w[0] - Math.log(3)) < 1e-4, `w = ${w[0]} is ln 3`);
  t.ok(Math.abs(lossGradient(rows, w, 1, 1)[0]) < 1e-6, 'the gradient vanishes there');
  t.ok(Math.abs(logLoss(rows, w, 1, 1) - (-0.75 * Math.log(0.75) - 0.25 * Math.log(0.25))) < 1e-9);
  // With the values fixed at 2 ln 3 the best scale is 2.
  const doubled = Float64Array.from(w, (v) => 2 * v);
  t.ok(Math.abs(fitScale(rows, doubled, 1) - 2) < 1e-3);
  // The opponent's count enters with sign -1, the mover's with the tempo.
  const mixed = new Float64Array(ROW);
  mixed[0] = 4;
  mixed[PARAMS] = 2;
  t.equal(evalOf(mixed, Float64Array.of(3, ...new Array(PARAMS - 1).fill(0)), 1.25), 1.25 * 12 - 6);
});

t.test('cell shapes: the multisets of four line classes', async (t) => {
  // Multisets of 4 from 9 classes: C(9 + 4 - 1, 4) = 495.
  t.equal(SHAPE_COUNT, 495);
  t.equal(SHAPE_NAMES[0], '0000', 'key 0: no line through the cell can make five');
  t.equal(new Set(SHAPE_NAMES).size, SHAPE_COUNT);
  // The directions' order does not matter: an open three on line 0 and a four on line 3 is the shape of the reverse.
  const a = C_FLEX3 * POW9[0] + C_BLOCK4 * POW9[3];
  const b = C_BLOCK4 * POW9[0] + C_FLEX3 * POW9[2];
  t.equal(CELL_SHAPE[a], CELL_SHAPE[b]);
  t.equal(SHAPE_NAMES[CELL_SHAPE[a]], `${C_BLOCK4}${C_FLEX3}00`);
  t.not(CELL_SHAPE[a], CELL_SHAPE[C_FLEX3 * POW9[0] + C_FLEX3 * POW9[3]]);
  // With cellValues the evaluation reads the shape's value; without, the class sums.
  const cellValues = Object.fromEntries(SHAPE_NAMES.map((name, i) => [name, i]));
  t.equal(evaluationValueOf(a, { ...HAND_SET_VALUES, cellValues }), CELL_SHAPE[a]);
  t.equal(evaluationValueOf(a, HAND_SET_VALUES), 56 + 64 + 200, 'hand-set: FLEX3 56, BLOCK4 64, four-three 200');
});

t.test('shape fit: samples of the hand-made game, and a known optimum', async (t) => {
  const samples = shapeSamples(FIVE_GAME, 0, 1.25);
  t.same(samples.map((r) => r.y), [1, 0, 1, 0, 1, 0], 'the same positions as the class fit');
  // The empty board: both sides see the same shapes, so each shape's net count is 1.25 n - n = n / 4. Every cell
  // is ONE on its row and column; on both diagonals too except the 2 * 2 * (1 + 2 + 3 + 4) = 40 cells on a diagonal
  // shorter than five (no cell is on two such): 185 cells of shape 1111, 40 of 1110. Shape 0 never enters.
  const empty = samples[0];
  const count = (name: string): number => empty.x[[...empty.index].indexOf(SHAPE_NAMES.indexOf(name))] * 4;
  t.same([count('1111'), count('1110'), empty.index.length], [185, 40, 2]);
  // One shape present in every sample, the mover wins 3 of 4: w / k = ln 3 at the optimum (k = 1, no ridge pull).
  const one = (y: number): ShapeSample => ({ index: Int32Array.of(5), x: Float64Array.of(1), y });
  const rows = [one(1), one(1), one(1), one(0)];
  const zero = new Float64Array(SHAPE_COUNT);
  t.equal(shapeLoss(rows, zero, 1), Math.log(2));
  const w = fitShapes(rows, zero, 1, 0);
  t.ok(Math.abs(w[5] - Math.log(3)) < 1e-3, `w = ${w[5]} is ln 3`);
  t.equal(w[0], 0, 'shape 0 stays 0');
  t.equal(w[6], 0, 'a shape never seen keeps its prior');
  t.ok(Math.abs(fitShapeScale(rows, Float64Array.from(w, (v) => 2 * v)) - 2) < 1e-3, 'values doubled: the best scale is 2');
  // A ridge pulls toward the prior.
  const prior = new Float64Array(SHAPE_COUNT);
  prior[5] = 3;
  const pulled = fitShapes(rows, prior, 1, 10);
  t.ok(pulled[5] > Math.log(3) && pulled[5] < 3, `between the data's ln 3 and the prior 3: ${pulled[5]}`);
  // The prior of the class values: each shape's class sums and bonuses.
  const priorOfHand = shapePrior(HAND_SET_VALUES);
  // A four-three cell (FLEX3 and BLOCK4 on two lines), the empty key and the last key (FIVE on all four lines).
  for (const key of [C_FLEX3 * POW9[1] + C_BLOCK4 * POW9[2], 0, CELL_KEYS - 1]) {
    t.equal(priorOfHand[CELL_SHAPE[key]], cellValueOf(key, HAND_SET_VALUES));
  }
});

t.test('search labels: the positions of the game, a search score each, and the mixed targets', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gomoku-labels-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'games.jsonl'), `${JSON.stringify(FIVE_GAME)}\n${JSON.stringify({ ...FIVE_GAME, winner: 1 })}\n`);
  const out = join(dir, 'labels.jsonl');
  const options = { skip: 0, holdout: 10, depth: 2, every: 1, part: 0, parts: 1 };
  // The same six positions as the samples (the second game is not decided by a five), one line each.
  t.equal(labelPositions([join(dir, 'games.jsonl')], options, out), 6);
  const labels = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.same(labels.map((l) => (l.moves as unknown[]).length), [0, 1, 2, 3, 4, 5]);
  t.same(labels.map((l) => l.result), [1, 0, 1, 0, 1, 0]);
  t.same(labels.map((l) => [l.depth, l.held, l.size, l.rule]), new Array(6).fill([2, false, 15, 0]));
  // Ply 5: white to move against black's open three (x = 5..7 on row 10): a depth-2 search sees white behind.
  t.ok((labels[5].score as number) < 0, `white behind after black's open three: ${String(labels[5].score)}`);
  // Every other position (staggered by the game's index, 0): plies 0, 2, 4; the second of two parts owns no game.
  t.equal(labelPositions([join(dir, 'games.jsonl')], { ...options, every: 2 }, join(dir, 'every2.jsonl')), 3);
  t.equal(labelPositions([join(dir, 'games.jsonl')], { ...options, part: 1, parts: 2 }, join(dir, 'part2.jsonl')), 0);

  // The targets: the result alone (mix 0), the search's probability alone (mix 1), and a proven win's score.
  const label = { size: 15, rule: 0, moves: FIVE_GAME.moves.slice(0, 5), result: 0, score: 0, depth: 2, held: false };
  const samples = shapeSamples(FIVE_GAME, 0, 1.25);
  const results = labelSamples([label], 1000, 0, 1.25);
  t.same(results.train[0], { ...samples[5], y: 0 }, 'the features of the position at ply 5');
  t.equal(labelSamples([label], 1000, 1, 1.25).train[0].y, 0.5, 'score 0: probability 1/2');
  t.equal(labelSamples([{ ...label, score: 999_990 }], 1000, 0.7, 1.25).train[0].y, 0.7, 'a proven win: 1, mixed with the loss');
  const held = labelSamples([{ ...label, held: true }], 1000, 0.5, 1.25);
  t.same([held.train.length, held.test.length], [0, 1]);
  // The loss with a probability as target is least where sigmoid(w / k) equals it: all targets 3/4 give ln 3 again.
  const soft = [0.75, 0.75].map((y) => ({ index: Int32Array.of(5), x: Float64Array.of(1), y }));
  const w = fitShapes(soft, new Float64Array(SHAPE_COUNT), 1, 0);
  t.ok(Math.abs(w[5] - Math.log(3)) < 1e-3, `w = ${w[5]} is ln 3`);
  t.ok(Math.abs(shapeLoss(soft, w, 1) - (-0.75 * Math.log(0.75) - 0.25 * Math.log(0.25))) < 1e-9, 'the loss is then the entropy');
});

t.test('engine labels: the evaluation a brain reports, and its probability in the targets', async (t) => {
  t.equal(engineEvalOf(['MESSAGE Speed 428K | Depth 12-24 | Eval -180 | Node 30K | Time 70ms', 'MESSAGE Bestline J11 L13']), -180, 'Rapfi');
  t.equal(engineEvalOf(['MESSAGE Speed 14000 | Depth 8-2 | Eval -M2 | Node 14 | Time 0ms']), -1e6, "Rapfi's found loss");
  t.equal(engineEvalOf(['MESSAGE Eval 20', 'MESSAGE Eval M3']), 1e6, 'the last line counts');
  t.equal(engineEvalOf(['MESSAGE depth 9 score -2.5 pv 7,7 nodes 10 time 5/90 ms']), -2.5, "Kibitz's brain");
  t.equal(engineEvalOf(['MESSAGE depth 3 win in 3 plies pv 7,7 nodes 10 time 5/90 ms']), 1e6, "Kibitz's proven win");
  t.equal(engineEvalOf(['DEBUG Eval 5', '9,10']), null, 'no MESSAGE: none');
  // The targets: sigmoid(engineEval / S) in place of the search score's.
  const label = { size: 15, rule: 0, moves: FIVE_GAME.moves.slice(0, 5), result: 0, score: 0, depth: 0, held: false };
  t.equal(labelSamples([{ ...label, engineEval: 0 }], 1000, 1, 1.25, 200).train[0].y, 0.5, 'eval 0: 1/2');
  const y = labelSamples([{ ...label, engineEval: 200 * Math.log(3) }], 1000, 1, 1.25, 200).train[0].y;
  t.ok(Math.abs(y - 0.75) < 1e-12, `eval S ln 3: 3/4 (${y})`);
  t.equal(labelSamples([{ ...label, engineEval: -1e6 }], 1000, 0.5, 1.25, 200).train[0].y, 0, 'a found loss: 0');
});

t.test("engine labels: Kibitz's own brain labels the positions of a game", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-fit-engine-'));
  try {
    const records = join(dir, 'games.jsonl');
    writeFileSync(records, `${JSON.stringify(FIVE_GAME)}\n`);
    const out = join(dir, 'labels.jsonl');
    const options = { skip: 0, holdout: 10, every: 1, part: 0, parts: 1, command: `node ${KIBITZ_BRAIN}`, turnMs: 100 };
    t.equal(await labelByEngine([records], options, out), 6, 'the six sampled positions');
    const labels = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SearchLabel);
    t.same(labels.map((l) => l.moves.length), [0, 1, 2, 3, 4, 5]);
    t.same(labels.map((l) => l.result), [1, 0, 1, 0, 1, 0], 'the result for the side to move');
    t.ok(labels.every((l) => typeof l.engineEval === 'number' && Number.isFinite(l.engineEval)), 'an evaluation each');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

t.test('the shipped values: the engine loads pattern-values.json; move ordering keeps the hand-set values', async (t) => {
  const file = JSON.parse(readFileSync(fromRoot('src/games/mnk/pattern-values.json'), 'utf8')) as Record<string, unknown>;
  t.same(file.classValues, PATTERN_VALUES.classValues);
  t.same([file.doubleFour, file.fourThree, file.doubleThree, file.tempoQuarters], [
    PATTERN_VALUES.doubleFour,
    PATTERN_VALUES.fourThree,
    PATTERN_VALUES.doubleThree,
    TEMPO_QUARTERS,
  ]);
  // A cell with a FLEX3 on two lines, a BLOCK4 on one and nothing on the fourth: a four-three. The evaluation reads
  // its shape's fitted value (the file's cellValues), move ordering the hand-set sums.
  const key = C_FLEX3 * POW9[0] + C_FLEX3 * POW9[1] + C_BLOCK4 * POW9[2];
  const shapes = file.cellValues as Record<string, number>;
  t.equal(Object.keys(shapes).length, SHAPE_COUNT);
  t.equal(CELL_VALUE[key], shapes[`${C_BLOCK4}${C_FLEX3}${C_FLEX3}0`]);
  for (let k = 0; k < CELL_KEYS; k += 97) t.equal(CELL_VALUE[k], shapes[SHAPE_NAMES[CELL_SHAPE[k]]]);
  t.equal(HINT_VALUE[key], 2 * 56 + 64 + 200, 'hand-set: FLEX3 56, BLOCK4 64, four-three 200');
  t.equal(cellValueOf(key, HAND_SET_VALUES), HINT_VALUE[key]);
  t.equal(CELL_VALUE.length, CLASS_COUNT ** 4);
});
