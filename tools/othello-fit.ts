/**
 * Fits the Othello pattern evaluation (src/games/othello/pattern-eval.ts) on the positions of
 * tools/othello-data.ts, one least-squares fit per game stage, and reports the held-out mean absolute
 * error per stage beside the evaluations already shipped (offline; see docs/strength.md):
 *
 *   node dist/tools/othello-fit.js --data data/othello/games --out src/games/othello/pattern-weights.json
 *
 * Each stage (a band of --stage-width empty squares) is fitted on the training positions of its band
 * widened by --overlap on each side, by preconditioned conjugate gradients on the ridge-regularised
 * normal equations (deterministic, no learning rate). Weights of configurations that are mirror
 * images of one another are tied. The target is the position's exact value where known, else the
 * game's outcome, optionally mixed with the playing search's score (--search-mix). Held-out games
 * (game % TEST_EVERY === 0) are never fitted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isProven } from '../src/search/score.js';
import { type ParsedArgs, UsageError, intOption, numberOption, rangeOption, runCliIfMain } from '../src/core/cli.js';
import { FeatureEvaluator } from '../src/games/othello/classic-eval.js';
import { EVAL_UNITS_PER_DISC } from '../src/games/othello/eval-scale.js';
import { LINEAR_COUNT, PatternEvaluator, globalFeatures } from '../src/games/othello/pattern-eval.js';
import { decodePatternWeights, encodePatternWeights, type PatternWeightsFile, stageTable } from '../src/games/othello/pattern-weights.js';
import {
  INSTANCE_COUNT,
  INSTANCE_PATTERN,
  PATTERN_BLOCK,
  PATTERN_LENGTHS,
  PATTERN_OFFSETS,
  partnerTable,
  patternIndices,
} from '../src/games/othello/patterns.js';
import { evaluatorFor } from '../src/games/othello/profiles.js';
import type { Evaluator } from '../src/games/othello/position.js';
import { NO_SCORE, RECORD_INTS, R_EMPTIES, R_EXACT, R_GAME, R_OUTCOME, R_SEARCH, TEST_EVERY, loadRecords } from './othello-data.js';

const BLOCK = PATTERN_BLOCK + LINEAR_COUNT;

export interface FitOptions {
  readonly stageWidth: number;
  readonly overlap: number;
  readonly lambda: number;
  readonly iterations: number;
  readonly searchMix: number;
  readonly minEmpties: number;
  /**
   * Weights to start from (evaluation units, the same stage width): each stage is fitted as a correction
   * of them, and the ridge pulls toward them instead of toward zero. Stages outside `stages` are copied.
   */
  readonly prior?: Float32Array;
  /** Only these stages (inclusive) are fitted; needs a prior. */
  readonly stages?: readonly [number, number];
  /** Fit on exact records only. */
  readonly exactOnly?: boolean;
}

/** Canonical (tied) slot of each configuration of each pattern: the smaller of it and its mirror image. */
function canonicalTables(): Int32Array[] {
  return PATTERN_LENGTHS.map((_, p) => {
    const partner = partnerTable(p);
    return partner.map((q, i) => Math.min(q, i));
  });
}

interface Design {
  readonly count: number;
  /** INSTANCE_COUNT weight slots per sample. */
  readonly slots: Int32Array;
  /** LINEAR_COUNT features per sample. */
  readonly features: Float64Array;
  readonly labels: Float64Array;
}

function targetOf(data: Int32Array, r: number, searchMix: number): number {
  const outcome = data[r + R_OUTCOME];
  // A proven search score (a win or loss seen within the search) is far off the disc scale: outcome only.
  const search = data[r + R_SEARCH];
  if (data[r + R_EXACT] === 1 || searchMix === 0 || search === NO_SCORE || isProven(search)) return outcome;
  return searchMix * (search / EVAL_UNITS_PER_DISC) + (1 - searchMix) * outcome;
}

function design(data: Int32Array, rows: number[], canonical: Int32Array[], searchMix: number): Design {
  const count = rows.length;
  const slots = new Int32Array(count * INSTANCE_COUNT);
  const features = new Float64Array(count * LINEAR_COUNT);
  const labels = new Float64Array(count);
  const idx = new Int32Array(INSTANCE_COUNT);
  const f = new Float64Array(LINEAR_COUNT);
  rows.forEach((r, k) => {
    patternIndices(data[r], data[r + 1], data[r + 2], data[r + 3], idx);
    for (let s = 0; s < INSTANCE_COUNT; s++) {
      const p = INSTANCE_PATTERN[s];
      slots[k * INSTANCE_COUNT + s] = PATTERN_OFFSETS[p] + canonical[p][idx[s]];
    }
    globalFeatures(data[r], data[r + 1], data[r + 2], data[r + 3], f);
    features.set(f, k * LINEAR_COUNT);
    labels[k] = targetOf(data, r, searchMix);
  });
  return { count, slots, features, labels };
}

/** y = X w */
function multiply(d: Design, w: Float64Array, y: Float64Array): void {
  for (let k = 0; k < d.count; k++) {
    let v = 0;
    const sb = k * INSTANCE_COUNT;
    for (let s = 0; s < INSTANCE_COUNT; s++) v += w[d.slots[sb + s]];
    const fb = k * LINEAR_COUNT;
    for (let j = 0; j < LINEAR_COUNT; j++) v += w[PATTERN_BLOCK + j] * d.features[fb + j];
    y[k] = v;
  }
}

/** g = X^T y */
function multiplyTransposed(d: Design, y: Float64Array, g: Float64Array): void {
  g.fill(0);
  for (let k = 0; k < d.count; k++) {
    const v = y[k];
    const sb = k * INSTANCE_COUNT;
    for (let s = 0; s < INSTANCE_COUNT; s++) g[d.slots[sb + s]] += v;
    const fb = k * LINEAR_COUNT;
    for (let j = 0; j < LINEAR_COUNT; j++) g[PATTERN_BLOCK + j] += v * d.features[fb + j];
  }
}

/**
 * Ridge least squares by Jacobi-preconditioned conjugate gradients on (X^T X + lambda I_patterns) w
 * = X^T y. The global features (mobility, parity, bias) are not shrunk. Returns weights in discs.
 */
export function fitStage(d: Design, lambda: number, iterations: number): Float64Array {
  const n = BLOCK;
  const reg = new Float64Array(n);
  for (let i = 0; i < PATTERN_BLOCK; i++) reg[i] = lambda;
  // Diagonal of X^T X: squared column norms (a slot used twice in a sample counts 4).
  const diag = new Float64Array(n);
  for (let k = 0; k < d.count; k++) {
    const sb = k * INSTANCE_COUNT;
    for (let s = 0; s < INSTANCE_COUNT; s++) {
      const slot = d.slots[sb + s];
      let m = 0;
      for (let t = 0; t < INSTANCE_COUNT; t++) if (d.slots[sb + t] === slot) m++;
      diag[slot] += m; // summed over its m occurrences: m * m
    }
    const fb = k * LINEAR_COUNT;
    for (let j = 0; j < LINEAR_COUNT; j++) diag[PATTERN_BLOCK + j] += d.features[fb + j] ** 2;
  }
  const precond = new Float64Array(n);
  for (let i = 0; i < n; i++) precond[i] = 1 / (diag[i] + reg[i] + 1e-9);

  const w = new Float64Array(n);
  const r = new Float64Array(n);
  multiplyTransposed(d, d.labels, r); // r = b - A w with w = 0
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) z[i] = r[i] * precond[i];
  const p = Float64Array.from(z);
  const xp = new Float64Array(d.count);
  const ap = new Float64Array(n);
  let rz = dot(r, z);
  for (let it = 0; it < iterations; it++) {
    multiply(d, p, xp);
    multiplyTransposed(d, xp, ap);
    for (let i = 0; i < n; i++) ap[i] += reg[i] * p[i];
    const alpha = rz / dot(p, ap);
    for (let i = 0; i < n; i++) {
      w[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      z[i] = r[i] * precond[i];
    }
    const rzNext = dot(r, z);
    const beta = rzNext / rz;
    rz = rzNext;
    for (let i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
  }
  return w;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Fits every stage; returns the full (untied) weight tables in evaluation units, stage by stage. */
export function fitAll(data: Int32Array, options: FitOptions, print: (line: string) => void): Float32Array {
  const canonical = canonicalTables();
  const stages = stageCount(options.stageWidth);
  const out = new Float32Array(stages * BLOCK);
  const n = data.length / RECORD_INTS;
  const byEmpties: number[][] = Array.from({ length: 61 }, () => []);
  for (let i = 0; i < n; i++) {
    const r = i * RECORD_INTS;
    if (data[r + R_GAME] % TEST_EVERY === 0) continue;
    if (options.exactOnly === true && data[r + R_EXACT] !== 1) continue;
    const e = data[r + R_EMPTIES];
    if (e >= options.minEmpties) byEmpties[e].push(r);
  }
  const prior = options.prior;
  if (prior !== undefined && prior.length !== stages * BLOCK) throw new Error(`the prior has ${prior.length / BLOCK} stages, not ${stages}`);
  if (options.stages !== undefined && prior === undefined) throw new Error('fitting some stages only needs a prior');
  for (let stage = 0; stage < stages; stage++) {
    if (options.stages !== undefined && (stage < options.stages[0] || stage > options.stages[1])) {
      out.set(prior!.subarray(stage * BLOCK, (stage + 1) * BLOCK), stage * BLOCK);
      continue;
    }
    const lo = Math.max(0, stage * options.stageWidth - options.overlap);
    const hi = stage === stages - 1 ? 60 : Math.min(60, stage * options.stageWidth + options.stageWidth - 1 + options.overlap);
    const rows = byEmpties.slice(lo, hi + 1).flat();
    if (rows.length === 0) {
      if (prior !== undefined) out.set(prior.subarray(stage * BLOCK, (stage + 1) * BLOCK), stage * BLOCK);
      continue;
    }
    const d = design(data, rows, canonical, options.searchMix);
    const started = Date.now();
    const start = prior === undefined ? undefined : priorInDiscs(prior, stage, canonical);
    if (start !== undefined) {
      // Fit the correction: the target less the prior's prediction, shrunk toward zero.
      const predicted = new Float64Array(d.count);
      multiply(d, start, predicted);
      for (let k = 0; k < d.count; k++) d.labels[k] -= predicted[k];
    }
    const w = fitStage(d, options.lambda, options.iterations);
    if (start !== undefined) for (let i = 0; i < w.length; i++) w[i] += start[i];
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const offset = PATTERN_OFFSETS[p];
      const table = canonical[p];
      for (let i = 0; i < table.length; i++) out[stage * BLOCK + offset + i] = w[offset + table[i]] * EVAL_UNITS_PER_DISC;
    }
    for (let j = 0; j < LINEAR_COUNT; j++) out[stage * BLOCK + PATTERN_BLOCK + j] = w[PATTERN_BLOCK + j] * EVAL_UNITS_PER_DISC;
    print(`stage ${stage} (empties ${lo}..${hi}): ${rows.length} positions, fitted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return out;
}

/** A stage of full weight tables (evaluation units) as the fit's tied vector (discs). */
function priorInDiscs(prior: Float32Array, stage: number, canonical: Int32Array[]): Float64Array {
  const w = new Float64Array(BLOCK);
  for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
    const offset = PATTERN_OFFSETS[p];
    const table = canonical[p];
    for (let i = 0; i < table.length; i++) w[offset + table[i]] = prior[stage * BLOCK + offset + i] / EVAL_UNITS_PER_DISC;
  }
  for (let j = 0; j < LINEAR_COUNT; j++) w[PATTERN_BLOCK + j] = prior[stage * BLOCK + PATTERN_BLOCK + j] / EVAL_UNITS_PER_DISC;
  return w;
}

/**
 * Weights of one stage width as another's: each new stage starts from the old stage that holds its fewest
 * empties (a finer width splits each old stage into copies that the fit then corrects apart).
 */
export function resampleStages(weights: Float32Array, fromWidth: number, toWidth: number): Float32Array {
  if (fromWidth === toWidth) return weights;
  const fromStages = stageCount(fromWidth);
  const toStages = stageCount(toWidth);
  const out = new Float32Array(toStages * BLOCK);
  for (let stage = 0; stage < toStages; stage++) {
    const source = Math.min(fromStages - 1, Math.floor((stage * toWidth) / fromWidth));
    out.set(weights.subarray(source * BLOCK, (source + 1) * BLOCK), stage * BLOCK);
  }
  return out;
}

/** Stages of a width: the last one also takes the 60-empties start position. */
export function stageCount(width: number): number {
  return Math.ceil(60 / width);
}

/** Mean absolute error (discs) per stage of an evaluator on the held-out records, against `target`. */
export function heldOutError(
  data: Int32Array,
  evaluator: Evaluator,
  width: number,
  target: (r: number) => number | null,
): { mae: number; count: number }[] {
  const stages = stageCount(width);
  const sums = new Float64Array(stages);
  const counts = new Int32Array(stages);
  const n = data.length / RECORD_INTS;
  for (let i = 0; i < n; i++) {
    const r = i * RECORD_INTS;
    if (data[r + R_GAME] % TEST_EVERY !== 0) continue;
    const y = target(r);
    if (y === null) continue;
    const stage = Math.min(stages - 1, Math.floor(data[r + R_EMPTIES] / width));
    const v = evaluator.evaluate(data[r], data[r + 1], data[r + 2], data[r + 3]) / EVAL_UNITS_PER_DISC;
    sums[stage] += Math.abs(v - y);
    counts[stage]++;
  }
  return Array.from(sums, (s, i) => ({ mae: counts[i] === 0 ? NaN : s / counts[i], count: counts[i] }));
}

const usage = `node dist/tools/othello-fit.js --data DIR[,DIR...] --out FILE [options]

Fits the pattern evaluation per stage and prints the held-out mean absolute error per stage.

  --data DIRS          chunk directories of tools/othello-data.js, comma-separated
  --out FILE           weights data file to write (JSON, read by src/games/othello/pattern-weights.ts)
  --stage-width N      empty squares per stage (default 4)
  --overlap N          extra empties fitted on each side of a stage (default 1)
  --lambda X           ridge shrinkage of the pattern weights (default 5)
  --iterations N       conjugate-gradient iterations per stage (default 150)
  --search-mix X       weight of the playing search's score in the target, 0..1 (default 0: outcome only)
  --prior FILE         start from these weights (of any stage width: a stage of another width
                       starts from the prior's stage holding its fewest empties): each
                       stage is fitted as a correction of them, the ridge pulling toward them
  --stages A-B         fit only stages A..B (numbered from 0 by empties), copy the others from --prior
  --exact-only         fit on the records with an exact value only
  --note TEXT          recorded in the file's "about" with this command
  -h, --help           this text
`;

const spec = {
  name: 'othello-fit',
  usage,
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    'stage-width': { type: 'string' },
    overlap: { type: 'string' },
    lambda: { type: 'string' },
    iterations: { type: 'string' },
    'search-mix': { type: 'string' },
    prior: { type: 'string' },
    stages: { type: 'string' },
    'exact-only': { type: 'boolean' },
    note: { type: 'string' },
  },
} as const;

function main({ values }: ParsedArgs<typeof spec.options>): void {
  if (values.data === undefined) throw new UsageError('--data is required');
  if (values.out === undefined) throw new UsageError('--out is required');
  const options: FitOptions = {
    stageWidth: intOption(values, 'stage-width', 4, 1, 30),
    overlap: intOption(values, 'overlap', 1, 0, 10),
    lambda: numberOption(values, 'lambda', 5, 0, 1e6),
    iterations: intOption(values, 'iterations', 150, 1, 10000),
    searchMix: numberOption(values, 'search-mix', 0, 0, 1),
    minEmpties: 0,
    exactOnly: values['exact-only'] === true,
  };
  const stageWidth = options.stageWidth;
  let fitOptions: FitOptions = options;
  if (values.prior !== undefined) {
    let file: PatternWeightsFile;
    let prior: ReturnType<typeof decodePatternWeights>;
    try {
      file = JSON.parse(readFileSync(values.prior, 'utf8')) as PatternWeightsFile;
      prior = decodePatternWeights(file, values.prior);
    } catch (error) {
      throw new UsageError(`--prior ${values.prior}: ${(error as Error).message.split('\n')[0]}`);
    }
    if (prior.weights.length !== stageCount(file.stageWidth) * BLOCK) {
      throw new UsageError(`--prior ${values.prior}: its stages are not ${stageCount(file.stageWidth)} of width ${file.stageWidth}`);
    }
    fitOptions = { ...fitOptions, prior: resampleStages(prior.weights, file.stageWidth, stageWidth) };
  }
  const range = rangeOption(values, 'stages', stageCount(stageWidth));
  if (range !== undefined) {
    if (fitOptions.prior === undefined) throw new UsageError('--stages needs --prior');
    fitOptions = { ...fitOptions, stages: range };
  }
  const parts = values.data.split(',').map((dir) => loadRecords(dir));
  const data = new Int32Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  console.log(`${data.length / RECORD_INTS} positions`);
  const weights = fitAll(data, fitOptions, console.log);
  const command = `node dist/tools/othello-fit.js ${process.argv.slice(2).join(' ')}`;
  const file: PatternWeightsFile = encodePatternWeights(weights, options.stageWidth, `${values.note ?? ''} ${command}`.trim());
  writeFileSync(values.out, `${JSON.stringify(file)}\n`);
  console.log(`wrote ${values.out}`);

  const fitted = PatternEvaluator.fromWeights(weights, stageTable(options.stageWidth, stageCount(options.stageWidth)));
  const outcome = (r: number): number => data[r + R_OUTCOME];
  const exact = (r: number): number | null => (data[r + R_EXACT] === 1 ? data[r + R_OUTCOME] : null);
  const rows: [string, Evaluator][] = [
    ['fitted', fitted],
    ['pattern (shipped)', evaluatorFor('pattern')],
    ['classic', new FeatureEvaluator()],
  ];
  for (const [label, target] of [
    ['game outcome', outcome],
    ['exact value', exact],
  ] as const) {
    console.log(`held-out mean absolute error (discs) against the ${label}, by stage (empties):`);
    const table = rows.map(([name, ev]) => [name, heldOutError(data, ev, options.stageWidth, target)] as const);
    const stages = stageCount(options.stageWidth);
    for (let s = 0; s < stages; s++) {
      const count = table[0][1][s].count;
      if (count === 0) continue;
      const lo = s * options.stageWidth;
      const hi = s === stages - 1 ? 60 : lo + options.stageWidth - 1;
      const errors = table.map(([name, e]) => `${name} ${e[s].mae.toFixed(2)}`).join('  ');
      console.log(`  ${String(lo).padStart(2)}..${String(hi).padEnd(2)} n=${String(count).padEnd(7)} ${errors}`);
    }
  }
}

runCliIfMain(import.meta.url, spec, main);
