/**
 * The Othello evaluation fit (tools/othello-fit.ts): fitting some stages as a correction of prior
 * weights, and fitting on exact records only.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { EVAL_UNITS_PER_DISC } from '../../src/games/othello/eval-scale.js';
import { PHASE_BLOCK } from '../../src/games/othello/pattern-eval.js';
import { PATTERN_BLOCK } from '../../src/games/othello/patterns.js';
import { Searcher } from '../../src/search/search.js';
import { TranspositionTable } from '../../src/search/tt.js';
import { RECORD_INTS, R_EMPTIES, R_EXACT, R_GAME, TEST_EVERY, playGame } from '../../tools/othello-data.js';
import { type FitOptions, fitAll, resampleStages, stageCount } from '../../tools/othello-fit.js';
import { untracked } from '../support/untracked.js';
import { ROOT } from '../support/paths.js';

const GAME = { openMin: 2, openMax: 6, depth: 1, epsilon: 0.2, solveEmpties: 10, profile: 'default', probCut: 0, seed: 5, siblings: 0.5 };
const searcher = new Searcher(new TranspositionTable(10));
const games = Array.from({ length: 24 }, (_, g) => playGame(g + 1, GAME, searcher));
const data = new Int32Array(games.reduce((a, g) => a + g.length, 0));
games.reduce((at, g) => (data.set(g, at), at + g.length), 0);

const BASE: FitOptions = { stageWidth: 4, overlap: 1, lambda: 5, iterations: 20, searchMix: 0, minEmpties: 0 };
const STAGES = stageCount(4);
const quiet = (): void => {};

/** Prior weights: small distinct values in every slot (mirror images need not agree for these checks). */
const prior = new Float32Array(STAGES * PHASE_BLOCK);
for (let i = 0; i < prior.length; i++) prior[i] = ((i * 7919) % 201) - 100;

t.test('--stages: stages outside the range are the prior, unchanged', async (t) => {
  const out = fitAll(data, { ...BASE, prior, stages: [1, 2] }, quiet);
  for (const stage of [0, 3, 7, 14]) t.equal(differing(out, prior, stage), 0, `stage ${stage} copied`);
  t.ok(differing(out, prior, 1) > 1000, 'stage 1 fitted');
  t.throws(() => fitAll(data, { ...BASE, stages: [1, 2] }, quiet), /needs a prior/);
});

t.test('--prior: the ridge pulls toward the prior; a zero prior is the plain fit', async (t) => {
  const zero = new Float32Array(prior.length);
  // Two iterations suffice: the two fits take the same steps or they differ from the first.
  const plain = fitAll(data, { ...BASE, iterations: 2, stages: undefined }, quiet);
  const fromZero = fitAll(data, { ...BASE, iterations: 2, prior: zero }, quiet);
  let largest = 0;
  for (let i = 0; i < plain.length; i++) largest = Math.max(largest, Math.abs(plain[i] - fromZero[i]));
  t.ok(largest < 1e-3, `the same weights (largest difference ${largest})`);

  // Shrinkage far larger than the data's pull keeps the pattern weights at the prior's; little shrinkage
  // lets the data move the weights of the configurations it holds.
  const movedBy = (lambda: number): number => {
    const out = fitAll(data, { ...BASE, lambda, iterations: 8, prior: tiedPrior(), stages: [2, 2] }, quiet);
    let count = 0;
    for (let i = 2 * PHASE_BLOCK; i < 2 * PHASE_BLOCK + PATTERN_BLOCK; i++) if (Math.abs(out[i] - tiedPrior()[i]) > 0.01 * EVAL_UNITS_PER_DISC) count++;
    return count;
  };
  t.equal(movedBy(1e7), 0, 'lambda 1e7: no pattern weight moves by a hundredth of a disc');
  const loose = movedBy(1e-3);
  t.ok(loose > 500, `lambda 0.001: ${loose} pattern weights move`);
  t.throws(() => fitAll(data, { ...BASE, prior: new Float32Array(PHASE_BLOCK) }, quiet), /stages/);
});

t.test('--prior of another stage width: each new stage starts from the prior stage holding its fewest empties', async (t) => {
  t.equal(resampleStages(prior, 4, 4), prior, 'the same width is the prior itself');
  const halves = resampleStages(prior, 4, 2);
  t.equal(halves.length, stageCount(2) * PHASE_BLOCK, '30 stages of width 2');
  // Stage s of width 2 holds empties 2s..2s+1, inside stage floor(s / 2) of width 4.
  for (const [stage, source] of [[0, 0], [1, 0], [2, 1], [17, 8], [29, 14]] as const) {
    t.equal(halves[stage * PHASE_BLOCK + 7], prior[source * PHASE_BLOCK + 7], `width-2 stage ${stage} from width-4 stage ${source}`);
    t.equal(differing(halves, prior, stage, source), 0, `the whole block of stage ${stage}`);
  }
  const fifths = resampleStages(prior, 4, 5);
  t.equal(fifths.length, stageCount(5) * PHASE_BLOCK, '12 stages of width 5');
  // Width 5, stage 3 holds empties 15..19: it starts from width-4 stage 3 (12..15); stage 11 (55..60) from 13 (52..55).
  t.equal(differing(fifths, prior, 3, 3), 0, 'stage 3 from stage 3');
  t.equal(differing(fifths, prior, 11, 13), 0, 'stage 11 from stage 13');
  const doubled = resampleStages(halves, 2, 4);
  t.equal(differing(doubled, prior, 5, 5), 0, 'back to width 4: stage 5 from width-2 stage 10, a copy of width-4 stage 5');
});

t.test('--exact-only: a stage is fitted on its exact training records alone', async (t) => {
  const lines: string[] = [];
  fitAll(data, { ...BASE, prior, stages: [2, 2], exactOnly: true }, (line) => lines.push(line));
  let exact = 0;
  let all = 0;
  for (let r = 0; r < data.length; r += RECORD_INTS) {
    const e = data[r + R_EMPTIES];
    if (data[r + R_GAME] % TEST_EVERY === 0 || e < 7 || e > 12) continue;
    all++;
    if (data[r + R_EXACT] === 1) exact++;
  }
  t.ok(exact < all, 'the band holds records that are not exact');
  t.same(lines.map((l) => l.replace(/ fitted in .*/, '')), [`stage 2 (empties 7..12): ${exact} positions,`]);
});

t.test('the command line: a --prior that cannot be read or does not fit, and a bad --stages, are one-line usage errors', async (t) => {
  const root = ROOT;
  // The compiled entry, as users run it (the suite builds first), untracked: no coverage of a child process.
  const fit = (...args: string[]): { status: number; stderr: string } => {
    try {
      const argv = ['dist/tools/othello-fit.js', '--data', 'none', '--out', 'none.json', ...args];
      execFileSync(...untracked(process.execPath, argv), { cwd: root, stdio: 'pipe' });
      return { status: 0, stderr: '' };
    } catch (error) {
      const e = error as { status: number; stderr: Buffer };
      return { status: e.status, stderr: e.stderr.toString() };
    }
  };
  const shipped = 'src/games/othello/pattern-weights.json';
  for (const [args, message] of [
    [['--prior', 'no-such-weights.json'], /^othello-fit: --prior no-such-weights.json: ENOENT/],
    [['--prior', 'package.json'], /^othello-fit: --prior package.json: /],
    [['--prior', shipped, '--stages', '4-2'], /--stages must be A-B with A <= B < 15, got '4-2'/],
    [['--stages', '1-4'], /--stages needs --prior/],
  ] as const) {
    const { status, stderr } = fit(...args);
    t.equal(status, 2, `${args.join(' ')}: exit 2`);
    t.match(stderr, message, 'the message names the option');
    t.equal(stderr.trim().split('\n').length, 1, 'one line, no stack');
  }
});

/**
 * Weights of stage `stage` of `a` that differ from stage `stageOfB` of `b` (by default the same stage; tap's deep
 * comparison is slow on 100,000 numbers).
 */
function differing(a: Float32Array, b: Float32Array, stage: number, stageOfB = stage): number {
  let count = 0;
  for (let i = 0; i < PHASE_BLOCK; i++) if (a[stage * PHASE_BLOCK + i] !== b[stageOfB * PHASE_BLOCK + i]) count++;
  return count;
}

/** The prior made symmetric the way a fit stores it: a configuration and its mirror image share a weight. */
let tied: Float32Array | undefined;
function tiedPrior(): Float32Array {
  tied ??= fitAll(data, { ...BASE, lambda: 50, iterations: 3 }, quiet); // any fit is tied; a few steps suffice
  return tied;
}
