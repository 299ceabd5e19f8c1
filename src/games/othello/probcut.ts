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
 *   model        optional: the deep depths beyond the pairs, up to model.maxDepth, as Buro's and Edax's Multi-ProbCut
 *                do: shallow depth shallowDepth(D), slope and intercept of the deepest pair of D's parity, and
 *                sigma = exp(c0 + c1 * empties + c2 * D + c3 * shallow) with model.sigma = [c0, c1, c2, c3],
 *                fitted on the measured (shallow, deep, stage) cells; empties = the middle of the stage
 */
import data from './probcut.json' with { type: 'json' };

export interface ProbCutPair {
  readonly depth: number;
  readonly shallow: number;
  readonly fits: readonly (readonly number[])[];
}

export interface ProbCutModel {
  readonly maxDepth: number;
  /** ln(sigma) = c0 + c1 * empties + c2 * deep depth + c3 * shallow depth (sigma in hundredths of a disc). */
  readonly sigma: readonly number[];
}

export interface ProbCutFile {
  readonly about: string;
  readonly stageWidth: number;
  readonly stages: number;
  readonly pairs: readonly ProbCutPair[];
  readonly model?: ProbCutModel;
}

/** The shallow depth that predicts a `depth`-ply search (same parity; 0 = the static evaluation). */
export function shallowDepth(depth: number): number {
  return 2 * Math.floor(depth / 4) + (depth & 1);
}

/** The model's sigma for a stage: at the middle of the stage's empties (the last stage: its first). */
export function modelSigma(model: ProbCutModel, empties: number, depth: number, shallow: number): number {
  const [c0, c1, c2, c3] = model.sigma;
  return Math.exp(c0 + c1 * empties + c2 * depth + c3 * shallow);
}

/** The empties at which the model is read for `stage`. */
export function stageEmpties(stage: number, stageWidth: number, stages: number): number {
  return stage === stages - 1 ? Math.min(60, stage * stageWidth) : Math.min(60, stage * stageWidth + (stageWidth - 1) / 2);
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
  let pairsDepth = 0;
  for (const pair of pairs) {
    if (!Number.isInteger(pair.depth) || pair.depth < 2 || pair.depth > MAX_PROBCUT_DEPTH) fail(`pair depth ${pair.depth} must be 2..${MAX_PROBCUT_DEPTH}`);
    pairsDepth = Math.max(pairsDepth, pair.depth);
  }
  const model = file.model;
  if (model !== undefined) {
    if (typeof model !== 'object' || model === null) fail('model must be an object');
    if (!Number.isInteger(model.maxDepth) || model.maxDepth <= pairsDepth || model.maxDepth > MAX_PROBCUT_DEPTH) {
      fail(`model.maxDepth must be an integer ${pairsDepth + 1}..${MAX_PROBCUT_DEPTH}`);
    }
    if (!Array.isArray(model.sigma) || model.sigma.length !== 4 || !model.sigma.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      fail('model.sigma must be 4 finite numbers');
    }
  }
  const maxDepth = model === undefined ? pairsDepth : model.maxDepth;
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
  if (model !== undefined) {
    for (let d = pairsDepth + 1; d <= maxDepth; d++) {
      // The deepest pair of the same parity gives the slope and intercept; the model gives sigma.
      let from = pairsDepth - ((pairsDepth - d) & 1);
      while (from >= 2 && shallowOf[from] === -1) from -= 2;
      if (from < 2) fail(`model: no pair of depth ${d}'s parity`);
      const shallow = shallowDepth(d);
      shallowOf[d] = shallow;
      for (let stage = 0; stage < stages; stage++) {
        const ref = (from * stages + stage) * 3;
        if (params[ref + 2] === 0) continue; // no data in this stage: no cut
        const sigma = modelSigma(model, stageEmpties(stage, stageWidth, stages), d, shallow);
        if (!(sigma > 0 && sigma < 10000)) fail(`model: sigma ${sigma} at depth ${d} stage ${stage} out of 0..10000`);
        const at = (d * stages + stage) * 3;
        params[at] = params[ref];
        params[at + 1] = params[ref + 1];
        params[at + 2] = sigma;
      }
    }
  }
  const stageOf = new Int32Array(65);
  for (let e = 0; e <= 64; e++) stageOf[e] = Math.min(stages - 1, Math.floor(e / stageWidth));
  return { maxDepth, shallowOf, stageOf, stages, params };
}

let shipped: ProbCutTable | null = null;
let replaced: ProbCutTable | null = null;

/** The table in use: the committed one (probcut.json, checked once per thread) unless a tool replaced it. */
export function probCutTable(): ProbCutTable {
  if (replaced !== null) return replaced;
  if (shipped === null) shipped = buildProbCutTable(data as ProbCutFile);
  return shipped;
}

/** Replaces the table of this thread (tools comparing tables; null = the committed one again). */
export function setProbCutTable(table: ProbCutTable | null): void {
  replaced = table;
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
