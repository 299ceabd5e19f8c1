/**
 * Evaluation weights are data files loaded once per worker. These checks pin each shipped file by its
 * SHA-256, so a silently changed file fails here (update the hash together with the measurement that
 * justified the new weights, docs/strength.md), and check that the Tablut loader refuses a file that
 * does not fit the code, naming the problem. The Othello pattern file has its own shape tests in
 * test/games/othello/evaluation.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { DEFAULT_WEIGHTS, WEIGHT_NAMES, parseWeights } from '../../src/games/tablut/weights.js';
import { fromRoot } from '../support/paths.js';

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(fromRoot(path))).digest('hex');

t.test('shipped weight files are the measured ones', async (t) => {
  // Hashes of the files as committed with their measurements (sha256sum src/games/*/...json).
  t.equal(sha256('src/games/tablut/weights.json'), 'cb05d9256624ff81a321dab1c0b72fc75af75df24d67b77ef9712408888c89ba');
  t.equal(sha256('src/games/othello/pattern-weights.json'), '3e380a2e1bf2cf44fa2d7f7c5d8bed3ad1189b8f269138db072faaaf12087e13');
  // The gomoku values with the line policy (docs/gomoku-strength.md, thirty-third and thirty-fourth rounds).
  t.equal(sha256('src/games/mnk/pattern-values.json'), '46ae46931396a17c91501b5cd1395c9f16cdfef894ba6fd34fbb65b896e7c7d3');
});

t.test('tablut weights: the file decodes to the tuned values', async (t) => {
  t.equal(WEIGHT_NAMES.length, 30);
  // Three values from the round-2 fit and the hand-halved hangingBlack (src/games/tablut/weights.ts).
  t.equal(DEFAULT_WEIGHTS.whitePawn, 220);
  t.equal(DEFAULT_WEIGHTS.hangingBlack, 73);
  t.equal(DEFAULT_WEIGHTS.kingExposed, 401);
  // The hand-set squeeze (issue 42, docs/tablut-strength.md).
  t.same([DEFAULT_WEIGHTS.squeezeFrom, DEFAULT_WEIGHTS.squeezeMobility, DEFAULT_WEIGHTS.squeezeCap], [800, 20, 24]);
  t.ok(Object.isFrozen(DEFAULT_WEIGHTS));
});

t.test('tablut weights: a file that does not fit is refused with the field named', async (t) => {
  const good = { ...DEFAULT_WEIGHTS } as Record<string, unknown>;
  t.same(parseWeights(good), DEFAULT_WEIGHTS);
  t.throws(() => parseWeights([], 'w.json'), /w\.json: not an object/);
  t.throws(() => parseWeights({ ...good, queenValue: 3 }, 'w.json'), /unknown weight 'queenValue'/);
  const { kingCrowd: _, ...missing } = good;
  t.throws(() => parseWeights(missing, 'w.json'), /weight 'kingCrowd' must be an integer/);
  t.throws(() => parseWeights({ ...good, whitePawn: 2.5 }, 'w.json'), /weight 'whitePawn' must be an integer/);
});
