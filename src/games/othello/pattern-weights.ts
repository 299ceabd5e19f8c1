/**
 * The pattern evaluation's fitted weights as a data file (pattern-weights.json, written by
 * tools/othello-fit.ts), decoded and checked once per thread when first asked for.
 *
 * File layout (JSON):
 *   about        how the file was made (the fitting command)
 *   stageWidth   empty squares per stage; stage = min(stages - 1, floor(empties / stageWidth))
 *   stages       number of stages
 *   patterns     the square count of each pattern, in patterns.ts order (checked against the code)
 *   linear       per stage, the LINEAR_COUNT global-feature weights (evaluation units)
 *   tables       base64 of raw-deflated little-endian int16 pattern weights (evaluation units), stage
 *                by stage, pattern by pattern, one entry per tied pair of configurations (the one
 *                whose index is not larger than its mirror image's, see partnerTable), in index order
 */
import { readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { LINEAR_COUNT, PHASE_BLOCK, type PatternTables } from './pattern-eval.js';
import { PATTERN_BLOCK, PATTERN_LENGTHS, PATTERN_OFFSETS, partnerTable } from './patterns.js';
// Type only: the 1.2 MB file is read when first used (shippedFile), not parsed by every process that loads the games.
// tsc still copies it beside the compiled module.
import type shippedJson from './pattern-weights.json';

export interface PatternWeightsFile {
  readonly about: string;
  readonly stageWidth: number;
  readonly stages: number;
  readonly patterns: readonly number[];
  readonly linear: readonly (readonly number[])[];
  readonly tables: string;
}

export interface PatternWeights {
  /** weights[stage * PHASE_BLOCK + slot], evaluation units, every configuration (tied pairs expanded). */
  readonly weights: Float32Array;
  /** Stage of each number of empty squares (0..64). */
  readonly stageOf: Int32Array;
}

let partnerTables: readonly Int32Array[] | undefined;

/** Each pattern's partnerTable, built on first use (see patternWeights). */
function partners(): readonly Int32Array[] {
  partnerTables ??= PATTERN_LENGTHS.map((_, p) => partnerTable(p));
  return partnerTables;
}
const INT16_LIMIT = 32767;

/** Stage of each number of empties 0..64 for a width and count. */
export function stageTable(width: number, stages: number): Int32Array {
  return Int32Array.from({ length: 65 }, (_, e) => Math.min(stages - 1, Math.floor(e / width)));
}

export function encodePatternWeights(weights: Float32Array, stageWidth: number, about: string, stages = weights.length / PHASE_BLOCK): PatternWeightsFile {
  if (weights.length !== stages * PHASE_BLOCK) throw new Error('pattern weights: size is not stages x block');
  const values: number[] = [];
  const linear: number[][] = [];
  const partnerLists = partners();
  for (let stage = 0; stage < stages; stage++) {
    const base = stage * PHASE_BLOCK;
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const partner = partnerLists[p];
      for (let i = 0; i < partner.length; i++) {
        if (partner[i] < i) continue;
        values.push(Math.max(-INT16_LIMIT, Math.min(INT16_LIMIT, Math.round(weights[base + PATTERN_OFFSETS[p] + i]))));
      }
    }
    const row: number[] = [];
    for (let k = 0; k < LINEAR_COUNT; k++) row.push(Math.round(weights[base + PATTERN_BLOCK + k] * 100) / 100);
    linear.push(row);
  }
  const raw = Buffer.from(Int16Array.from(values).buffer);
  return { about, stageWidth, stages, patterns: [...PATTERN_LENGTHS], linear, tables: deflateRawSync(raw, { level: 9 }).toString('base64') };
}

/**
 * Decodes and checks a weights file straight into the evaluator's int16 tables; throws naming the first
 * problem. Every search thread does this at its start (no float32 copy in between: it halved the time).
 */
export function decodePatternTables(file: PatternWeightsFile, name = 'pattern weights'): PatternTables {
  const fail = (problem: string): never => {
    throw new Error(`${name}: ${problem}`);
  };
  if (!Number.isInteger(file.stages) || file.stages < 1 || file.stages > 61) fail(`stages must be an integer from 1 to 61, got ${file.stages}`);
  if (!Number.isInteger(file.stageWidth) || file.stageWidth < 1 || file.stageWidth > 61) fail(`stageWidth must be an integer from 1 to 61`);
  if (file.patterns.length !== PATTERN_LENGTHS.length || file.patterns.some((n, i) => n !== PATTERN_LENGTHS[i])) {
    fail(`patterns [${file.patterns.join(',')}] do not match the evaluation's [${PATTERN_LENGTHS.join(',')}]`);
  }
  if (file.linear.length !== file.stages || file.linear.some((row) => row.length !== LINEAR_COUNT || row.some((x) => !Number.isFinite(x)))) {
    fail(`linear must hold ${file.stages} rows of ${LINEAR_COUNT} numbers`);
  }
  const partnerLists = partners();
  const bytes = inflateRawSync(Buffer.from(file.tables, 'base64'));
  const perStage = partnerLists.reduce((a, partner) => a + partner.reduce((n, q, i) => n + (q >= i ? 1 : 0), 0), 0);
  if (bytes.byteLength !== perStage * file.stages * 2) fail(`tables hold ${bytes.byteLength / 2} weights, expected ${perStage * file.stages}`);
  const values = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const tables = new Int16Array(file.stages * PATTERN_BLOCK);
  const linear = new Float64Array(file.stages * LINEAR_COUNT);
  let at = 0;
  for (let stage = 0; stage < file.stages; stage++) {
    const base = stage * PATTERN_BLOCK;
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const partner = partnerLists[p];
      const offset = base + PATTERN_OFFSETS[p];
      for (let i = 0; i < partner.length; i++) {
        tables[offset + i] = partner[i] < i ? tables[offset + partner[i]] : values[at++];
      }
    }
    for (let k = 0; k < LINEAR_COUNT; k++) linear[stage * LINEAR_COUNT + k] = file.linear[stage][k];
  }
  return { tables, linear, stageOf: stageTable(file.stageWidth, file.stages) };
}

/** The same file as float weights[stage * PHASE_BLOCK + slot] (the fitting tool's form). */
export function decodePatternWeights(file: PatternWeightsFile, name = 'pattern weights'): PatternWeights {
  const { tables, linear, stageOf } = decodePatternTables(file, name);
  const weights = new Float32Array(file.stages * PHASE_BLOCK);
  for (let stage = 0; stage < file.stages; stage++) {
    weights.set(tables.subarray(stage * PATTERN_BLOCK, (stage + 1) * PATTERN_BLOCK), stage * PHASE_BLOCK);
    weights.set(linear.subarray(stage * LINEAR_COUNT, (stage + 1) * LINEAR_COUNT), stage * PHASE_BLOCK + PATTERN_BLOCK);
  }
  return { weights, stageOf };
}

let shipped: PatternTables | undefined;
const SHIPPED_NAME = 'src/games/othello/pattern-weights.json';

/**
 * The shipped weights (pattern-weights.json) as the evaluator's tables, decoded on first use: processes that
 * never evaluate Othello do not pay for it. Servers and worker warm-ups ask for them at start-up
 * (prepareEngines), so a damaged file stops the service there, never mid-search.
 */
export function shippedPatternTables(): PatternTables {
  shipped ??= decodePatternTables(shippedFile(), SHIPPED_NAME);
  return shipped;
}

/** The shipped weights in the fitting tool's float form (a new copy each call). */
export function patternWeights(): PatternWeights {
  return decodePatternWeights(shippedFile(), SHIPPED_NAME);
}

function shippedFile(): PatternWeightsFile {
  return JSON.parse(readFileSync(new URL('./pattern-weights.json', import.meta.url), 'utf8')) as typeof shippedJson;
}
