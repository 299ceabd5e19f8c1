/**
 * Offline fitting of the Othello pattern evaluation (not part of the service or the bench).
 *
 *   node dist/tools/othello-train.js generate --games 4000 --out data/games.bin [--profile classic] [--depth 4] [--seed 1]
 *   node dist/tools/othello-train.js relabel --in data/games.bin --out data/relabelled.bin [--depth 4]
 *   node dist/tools/othello-train.js fit --in data/games.bin[,more.bin] --out src/games/othello/pattern-weights.ts
 *
 * generate: self-play games (random opening of 2..10 plies, then a fixed-depth search with a few
 *   random moves, exact solver from SOLVE_EMPTIES empties on). Every position is recorded with the
 *   final disc differential of its game from the side to move's point of view; positions from the
 *   exact solve on carry exact values (the solver's line is optimal).
 * relabel: replaces the label of every position with more than SOLVE_EMPTIES empties by a
 *   fixed-depth search value with the current default evaluation (bootstrapping from fitted phases).
 * fit: least squares per phase (SGD on the squared error in discs with L2 shrinkage), weights of
 *   mirror-image configurations tied; writes the generated weights module.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Random } from '../src/core/random.js';
import { NOT_TERMINAL } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { definition } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import { evaluatorFor } from '../src/games/othello/profiles.js';
import { solveExactly } from '../src/games/othello/solver.js';
import { encodeWeights } from '../src/games/othello/weight-codec.js';
import {
  INSTANCE_COUNT,
  INSTANCE_PATTERN,
  PATTERN_BLOCK,
  PATTERN_LENGTHS,
  PATTERN_OFFSETS,
  partnerTable,
  patternIndices,
} from '../src/games/othello/patterns.js';
import { EMPTIES_PER_PHASE, LINEAR_COUNT, PHASE_BLOCK, PHASE_COUNT, globalFeatures } from '../src/games/othello/pattern-eval.js';
import { EVAL_UNITS_PER_DISC } from '../src/games/othello/eval-scale.js';

/** Record: pl, ph, ol, oh, empties, label (centi-discs), exact flag, game id. */
const RECORD = 8;
const SOLVE_EMPTIES = 16;

function startPosition(profile: string): OthelloPosition {
  const s = definition.initialState({});
  if (!s.ok) throw new Error('no initial state');
  const r = definition.decodeState(s.value, undefined);
  if (!r.ok) throw new Error('bad initial state');
  r.value.evaluator = evaluatorFor(profile);
  return r.value;
}

function relative(pos: OthelloPosition): [number, number, number, number] {
  const s = pos.side << 1;
  return [pos.bits[s], pos.bits[s + 1], pos.bits[2 - s], pos.bits[3 - s]];
}

function generate(games: number, profile: string, depth: number, seed: number, out: string): void {
  const rng = new Random(seed);
  const searcher = new Searcher(new TranspositionTable(16));
  const buffer = new Int32Array(64);
  const records: number[] = [];
  const started = Date.now();
  for (let game = 0; game < games; game++) {
    const pos = startPosition(profile);
    const openingPlies = 2 + rng.below(9);
    const trail: { rel: [number, number, number, number]; empties: number; side: number }[] = [];
    let exactFrom = -1;
    let exactScore = 0;
    let exactSide = 0;
    while (pos.terminal() === NOT_TERMINAL) {
      trail.push({ rel: relative(pos), empties: pos.empties, side: pos.side });
      let move: number;
      if (pos.empties <= SOLVE_EMPTIES) {
        const r = solveExactly(pos, null);
        if (r === null) throw new Error('solver failed');
        if (exactFrom < 0) {
          exactFrom = trail.length - 1;
          exactScore = r.exactScore!;
          exactSide = pos.side;
        }
        move = r.move;
      } else if (pos.ply < openingPlies || rng.below(100) < 4) {
        const n = pos.generateMoves(buffer, 0);
        move = buffer[rng.below(n)];
      } else {
        searcher.tt.clear();
        move = searcher.search(pos, { maxDepth: depth, seed: rng.nextU32() }).move;
      }
      pos.makeMove(move);
    }
    if (exactFrom < 0) {
      exactScore = pos.finalScore();
      exactSide = pos.side;
      exactFrom = trail.length;
    }
    trail.forEach((p, i) => {
      const label = (p.side === exactSide ? exactScore : -exactScore) * EVAL_UNITS_PER_DISC;
      records.push(...p.rel, p.empties, label, i >= exactFrom ? 1 : 0, game);
    });
    if ((game + 1) % 100 === 0) {
      console.log(`${game + 1} games, ${records.length / RECORD} positions, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  writeFileSync(out, Buffer.from(new Int32Array(records).buffer));
  console.log(`wrote ${records.length / RECORD} positions to ${out}`);
}

function load(paths: string): Int32Array {
  const parts = paths.split(',').map((p) => {
    const b = readFileSync(p);
    return new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  });
  const total = parts.reduce((a, p) => a + p.length, 0);
  const all = new Int32Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

function relabel(input: string, out: string, depth: number, minEmpties: number): void {
  const data = load(input);
  const searcher = new Searcher(new TranspositionTable(16));
  const pos = startPosition('default');
  const started = Date.now();
  const n = data.length / RECORD;
  let done = 0;
  for (let i = 0; i < n; i++) {
    const r = i * RECORD;
    if (data[r + 6] === 1 || data[r + 4] <= SOLVE_EMPTIES || data[r + 4] < minEmpties) continue;
    pos.setup(data[r], data[r + 1], data[r + 2], data[r + 3], 0);
    if (pos.terminal() !== NOT_TERMINAL) continue;
    searcher.tt.clear();
    const result = searcher.search(pos, { maxDepth: depth });
    data[r + 5] = result.score;
    done++;
    if (done % 5000 === 0) console.log(`${done} relabelled (${i + 1}/${n}), ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  writeFileSync(out, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  console.log(`relabelled ${done} positions into ${out}`);
}

interface Sample {
  slots: Int32Array; // INSTANCE_COUNT canonical weight slots per sample
  features: Float32Array; // LINEAR_COUNT per sample
  labels: Float32Array; // discs
  weights: Float32Array; // sample weight (exact labels count more)
  count: number;
}

function samplesFor(data: Int32Array, lo: number, hi: number, canonical: Int32Array[], exactWeight: number): Sample {
  const n = data.length / RECORD;
  const picked: number[] = [];
  for (let i = 0; i < n; i++) {
    const e = data[i * RECORD + 4];
    if (e >= lo && e <= hi) picked.push(i);
  }
  const count = picked.length;
  const slots = new Int32Array(count * INSTANCE_COUNT);
  const features = new Float32Array(count * LINEAR_COUNT);
  const labels = new Float32Array(count);
  const weights = new Float32Array(count);
  const idx = new Int32Array(INSTANCE_COUNT);
  const f = new Float32Array(LINEAR_COUNT);
  picked.forEach((i, k) => {
    const r = i * RECORD;
    patternIndices(data[r], data[r + 1], data[r + 2], data[r + 3], idx);
    for (let s = 0; s < INSTANCE_COUNT; s++) {
      const p = INSTANCE_PATTERN[s];
      slots[k * INSTANCE_COUNT + s] = PATTERN_OFFSETS[p] + canonical[p][idx[s]];
    }
    globalFeatures(data[r], data[r + 1], data[r + 2], data[r + 3], f);
    features.set(f, k * LINEAR_COUNT);
    labels[k] = data[r + 5] / EVAL_UNITS_PER_DISC;
    weights[k] = data[r + 6] === 1 ? exactWeight : 1;
  });
  return { slots, features, labels, weights, count };
}

/**
 * Fits one phase by normalised least-mean-squares: each step moves the prediction a fixed share of
 * the way to the label whatever the number of active weights (instances of one pattern often share
 * a configuration, e.g. empty lines early on). Returns PHASE_BLOCK weights in discs.
 */
function fitPhase(sample: Sample, epochs: number, rng: Random): Float32Array {
  const w = new Float32Array(PHASE_BLOCK);
  // Feature scales so that each global feature moves at a rate comparable to a pattern weight.
  const scale = new Float32Array(LINEAR_COUNT);
  for (let k = 0; k < sample.count; k++) {
    for (let j = 0; j < LINEAR_COUNT; j++) scale[j] += sample.features[k * LINEAR_COUNT + j] ** 2;
  }
  for (let j = 0; j < LINEAR_COUNT; j++) scale[j] = 1 / Math.max(1, scale[j] / Math.max(1, sample.count));
  // Squared norm of each sample's input (a weight used m times counts m^2).
  const norm = new Float32Array(sample.count);
  for (let k = 0; k < sample.count; k++) {
    const base = k * INSTANCE_COUNT;
    let n = 0;
    for (let s = 0; s < INSTANCE_COUNT; s++) {
      for (let t = 0; t < INSTANCE_COUNT; t++) if (sample.slots[base + s] === sample.slots[base + t]) n++;
    }
    for (let j = 0; j < LINEAR_COUNT; j++) n += sample.features[k * LINEAR_COUNT + j] ** 2 * scale[j];
    norm[k] = n;
  }
  const order = Int32Array.from({ length: sample.count }, (_, i) => i);
  const shrink = 1e-4;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = sample.count - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    const rate = 0.2 * (1 - epoch / epochs) + 0.01;
    let sq = 0;
    let total = 0;
    for (const k of order) {
      const slotBase = k * INSTANCE_COUNT;
      const featBase = k * LINEAR_COUNT;
      let value = 0;
      for (let s = 0; s < INSTANCE_COUNT; s++) value += w[sample.slots[slotBase + s]];
      for (let j = 0; j < LINEAR_COUNT; j++) value += w[PATTERN_BLOCK + j] * sample.features[featBase + j];
      const error = value - sample.labels[k];
      sq += error * error * sample.weights[k];
      total += sample.weights[k];
      const step = (error * rate * Math.min(1, sample.weights[k])) / norm[k];
      for (let s = 0; s < INSTANCE_COUNT; s++) {
        const slot = sample.slots[slotBase + s];
        w[slot] -= step + shrink * w[slot];
      }
      for (let j = 0; j < LINEAR_COUNT; j++) w[PATTERN_BLOCK + j] -= step * sample.features[featBase + j] * scale[j];
    }
    if (epoch === epochs - 1 || epoch % 5 === 0) {
      console.log(`  epoch ${epoch}: rms ${Math.sqrt(sq / Math.max(1, total)).toFixed(2)} discs`);
    }
  }
  return w;
}

function fit(input: string, out: string, epochs: number, seed: number): void {
  const data = load(input);
  const canonical: Int32Array[] = [];
  const partners: Int32Array[] = [];
  for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
    const partner = partnerTable(p);
    partners.push(partner);
    canonical.push(partner.map((q, i) => Math.min(q, i)));
  }
  const all = new Float32Array(PHASE_COUNT * PHASE_BLOCK);
  const rng = new Random(seed);
  for (let phase = 0; phase < PHASE_COUNT; phase++) {
    const lo = Math.max(0, phase * EMPTIES_PER_PHASE - 1);
    const hi = phase === PHASE_COUNT - 1 ? 60 : phase * EMPTIES_PER_PHASE + EMPTIES_PER_PHASE;
    const sample = samplesFor(data, lo, hi, canonical, 2);
    console.log(`phase ${phase} (empties ${lo}..${hi}): ${sample.count} positions`);
    const w = fitPhase(sample, epochs, rng);
    // Copy canonical entries to their partners, convert discs to evaluation units.
    for (let p = 0; p < PATTERN_LENGTHS.length; p++) {
      const offset = PATTERN_OFFSETS[p];
      const size = 3 ** PATTERN_LENGTHS[p];
      for (let i = 0; i < size; i++) w[offset + i] = w[offset + canonical[p][i]];
    }
    for (let k = 0; k < PHASE_BLOCK; k++) all[phase * PHASE_BLOCK + k] = w[k] * EVAL_UNITS_PER_DISC;
  }
  writeFileSync(out, Buffer.from(all.buffer));
  console.log(`wrote ${all.length} weights to ${out}`);
}

/** Writes the generated weights module from a fitted binary (Float32, evaluation units). */
function exportModule(input: string, out: string, unit: number, note: string): void {
  const b = readFileSync(input);
  const weights = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  const encoded = encodeWeights(weights, unit);
  const text = `/**
 * Fitted weights of the pattern evaluation, generated by tools/othello-train.ts (${note}).
 * Do not edit by hand: re-run the fitting instead.
 */
import { decodeWeights, type EncodedWeights } from './weight-codec.js';

const ENCODED: EncodedWeights = {
  unit: ${unit},
  linear: ${JSON.stringify(encoded.linear)},
  patterns:
    '${encoded.patterns}',
};

let decoded: Float32Array | null = null;

export function patternWeights(): Float32Array | null {
  if (decoded === null) decoded = decodeWeights(ENCODED);
  return decoded;
}
`;
  writeFileSync(out, text);
  console.log(`wrote ${out}: ${(text.length / 1024).toFixed(0)} KiB`);
}

async function main(): Promise<void> {
  const [command] = process.argv.slice(2);
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      games: { type: 'string', default: '1000' },
      out: { type: 'string' },
      in: { type: 'string' },
      profile: { type: 'string', default: 'classic' },
      depth: { type: 'string', default: '4' },
      seed: { type: 'string', default: '1' },
      epochs: { type: 'string', default: '30' },
      'min-empties': { type: 'string', default: '0' },
      unit: { type: 'string', default: '10' },
      note: { type: 'string', default: '' },
    },
  });
  const out = values.out;
  if (out === undefined) throw new Error('--out is required');
  if (command === 'generate') generate(Number(values.games), values.profile!, Number(values.depth), Number(values.seed), out);
  else if (command === 'relabel') relabel(values.in!, out, Number(values.depth), Number(values['min-empties']));
  else if (command === 'fit') fit(values.in!, out, Number(values.epochs), Number(values.seed));
  else if (command === 'export') exportModule(values.in!, out, Number(values.unit), values.note!);
  else throw new Error('command: generate | relabel | fit | export');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
