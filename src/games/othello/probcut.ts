/**
 * Multi-ProbCut for the Othello midgame: the regression table (probcut.json, written by
 * tools/othello-probcut.ts from Kibitz's own searches) and the per-position hook the generic search
 * calls (SearchPosition.probCut). Never used by the exact solver (solver.ts has its own search).
 *
 * File layout (JSON):
 *   about        how the file was made (the command that reproduces it)
 *   stageWidth   empty squares per stage; stage = min(stages - 1, floor(empties / stageWidth))
 *   stages       number of stages
 *   pairs        one per deep depth: { depth, shallow, fits }, fits[stage] = [slope, intercept, sigma, n]
 *                (deep value ~ slope * shallow value + intercept, sigma the residual standard deviation,
 *                internal units = hundredths of a disc; n the number of positions, 0 = no data: no cut)
 */
import data from './probcut.json' with { type: 'json' };

export interface ProbCutPair {
  readonly depth: number;
  readonly shallow: number;
  readonly fits: readonly (readonly number[])[];
}

export interface ProbCutFile {
  readonly about: string;
  readonly stageWidth: number;
  readonly stages: number;
  readonly pairs: readonly ProbCutPair[];
}

/**
 * The default confidence, in standard deviations (0 = off; EngineOptions.probCut overrides it). Measured
 * against NTest at 300 ms a move (docs/othello-strength.md): 1.5 scored +18.0 ± 8.5 points over 200 paired
 * games against off; 1.0 was no better than 1.5 (+0.5 ± 8.3), and 1.5 cuts less often.
 */
export const DEFAULT_PROBCUT = 1.5;
/** No probe when the deep search would reach this close to the end of the game (its values turn exact). */
export const PROBCUT_END_MARGIN = 4;
/** Fewest positions behind a fit for it to be used. */
export const MIN_FIT_POSITIONS = 20;
/** Deepest depth a table may describe. */
export const MAX_PROBCUT_DEPTH = 40;

/** A checked, flattened table: per depth and stage, the shallow depth and [slope, intercept, sigma]. */
export interface ProbCutTable {
  readonly maxDepth: number;
  /** shallowOf[depth]: -1 when no pair for that depth. */
  readonly shallowOf: Int32Array;
  /** Stage of each number of empties 0..64. */
  readonly stageOf: Int32Array;
  readonly stages: number;
  /** params[(depth * stages + stage) * 3 + k]: slope, intercept, sigma; sigma 0 = no cut. */
  readonly params: Float64Array;
}

function fail(message: string): never {
  throw new Error(`probcut table: ${message}`);
}

/** Checks a table file and flattens it; throws with the faulty field named. */
export function buildProbCutTable(file: ProbCutFile): ProbCutTable {
  if (typeof file !== 'object' || file === null) fail('not an object');
  const { stageWidth, stages, pairs } = file;
  if (!Number.isInteger(stageWidth) || stageWidth < 1 || stageWidth > 64) fail('stageWidth must be an integer 1..64');
  if (!Number.isInteger(stages) || stages < 1 || stages > 64) fail('stages must be an integer 1..64');
  if (!Array.isArray(pairs) || pairs.length === 0) fail('pairs must be a non-empty array');
  let maxDepth = 0;
  for (const pair of pairs) {
    if (!Number.isInteger(pair.depth) || pair.depth < 2 || pair.depth > MAX_PROBCUT_DEPTH) fail(`pair depth ${pair.depth} must be 2..${MAX_PROBCUT_DEPTH}`);
    maxDepth = Math.max(maxDepth, pair.depth);
  }
  const shallowOf = new Int32Array(maxDepth + 1).fill(-1);
  const params = new Float64Array((maxDepth + 1) * stages * 3);
  for (const pair of pairs) {
    const d = pair.depth;
    if (shallowOf[d] !== -1) fail(`depth ${d} appears twice`);
    if (!Number.isInteger(pair.shallow) || pair.shallow < 0 || pair.shallow >= d) fail(`depth ${d}: shallow must be 0..${d - 1}`);
    if (!Array.isArray(pair.fits) || pair.fits.length !== stages) fail(`depth ${d}: fits must have ${stages} stages`);
    shallowOf[d] = pair.shallow;
    pair.fits.forEach((fit: readonly number[], stage: number) => {
      if (!Array.isArray(fit) || fit.length !== 4 || !fit.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        fail(`depth ${d} stage ${stage}: a fit is [slope, intercept, sigma, n], finite numbers`);
      }
      const [slope, intercept, sigma, n] = fit;
      if (!Number.isInteger(n) || n < 0) fail(`depth ${d} stage ${stage}: n must be a count`);
      if (n < MIN_FIT_POSITIONS) return; // too little data: no cut in this stage
      if (!(slope > 0.2 && slope < 5)) fail(`depth ${d} stage ${stage}: slope ${slope} out of 0.2..5`);
      if (!(sigma > 0 && sigma < 10000)) fail(`depth ${d} stage ${stage}: sigma ${sigma} out of 0..10000`);
      if (Math.abs(intercept) > 10000) fail(`depth ${d} stage ${stage}: intercept ${intercept} out of +-10000`);
      const at = (d * stages + stage) * 3;
      params[at] = slope;
      params[at + 1] = intercept;
      params[at + 2] = sigma;
    });
  }
  const stageOf = new Int32Array(65);
  for (let e = 0; e <= 64; e++) stageOf[e] = Math.min(stages - 1, Math.floor(e / stageWidth));
  return { maxDepth, shallowOf, stageOf, stages, params };
}

let shipped: ProbCutTable | null = null;

/** The committed table (probcut.json), checked once per thread. */
export function probCutTable(): ProbCutTable {
  if (shipped === null) shipped = buildProbCutTable(data as ProbCutFile);
  return shipped;
}

/**
 * The hook behind OthelloPosition.probCut: for a `depth`-ply search with `empties` empty squares,
 * the shallow depth and [slope, intercept, confidence * sigma] in out, or -1 for no probe.
 */
export function probCutProbe(table: ProbCutTable, confidence: number, depth: number, empties: number, out: Float64Array): number {
  if (confidence <= 0 || depth > table.maxDepth || empties < depth + PROBCUT_END_MARGIN) return -1;
  const shallow = table.shallowOf[depth];
  if (shallow < 0) return -1;
  const at = (depth * table.stages + table.stageOf[empties]) * 3;
  const sigma = table.params[at + 2];
  if (sigma === 0) return -1;
  out[0] = table.params[at];
  out[1] = table.params[at + 1];
  out[2] = confidence * sigma;
  return shallow;
}
