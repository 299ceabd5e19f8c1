/**
 * Fits the Othello Multi-ProbCut table (src/games/othello/probcut.json) from Kibitz's own searches:
 * positions come from games played from the balanced openings (a shallow search with random moves
 * mixed in), each position is searched by iterative deepening to --max-depth with ProbCut off, and for
 * every deep depth D and its shallow depth s(D) the deep value is regressed on the shallow one, per
 * stage (empty squares / stage width): slope, intercept and the residual standard deviation sigma.
 * Positions whose searches reach a proven result are left out (the table is for the midgame).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { type ParsedArgs, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { definition, engine } from '../src/games/othello/index.js';
import type { OthelloPosition } from '../src/games/othello/position.js';
import {
  PROBCUT_END_MARGIN,
  type ProbCutFile,
  type ProbCutModel,
  type ProbCutPair,
  type ProbCutTable,
  buildProbCutTable,
  probCutTable,
  setProbCutTable,
  shallowDepth,
} from '../src/games/othello/probcut.js';
import { NOT_TERMINAL, isProven } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { readOpenings } from './othello-match.js';

export const DEFAULT_OUT = fileURLToPath(new URL('../../src/games/othello/probcut.json', import.meta.url));


/** Least squares y = slope * x + intercept, with the residual standard deviation. */
export function fitLine(xs: readonly number[], ys: readonly number[]): [number, number, number] {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i] - mx) ** 2;
    sxy += (xs[i] - mx) * (ys[i] - my);
  }
  const slope = sxx > 0 ? sxy / sxx : 1;
  const intercept = my - slope * mx;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (ys[i] - slope * xs[i] - intercept) ** 2;
  const sigma = Math.sqrt(ss / Math.max(1, n - 2));
  return [slope, intercept, sigma];
}

interface Sample {
  /** Index of the position in the sampling order (the same for any number of threads). */
  readonly index: number;
  readonly empties: number;
  /** values[d] = the depth-d value (d = 0: static evaluation); NaN when missing or proven. */
  readonly values: Float64Array;
}

function startPosition(): OthelloPosition {
  const s = definition.initialState({});
  if (!s.ok) throw new Error('no initial state');
  const r = definition.decodeState(s.value, undefined);
  if (!r.ok) throw new Error('bad initial state');
  r.value.probCutConfidence = 0;
  return r.value;
}

/** Searches one position to maxDepth by iterative deepening; the value of every depth. */
function measure(pos: OthelloPosition, searcher: Searcher, maxDepth: number, index: number): Sample {
  const values = new Float64Array(maxDepth + 1).fill(Number.NaN);
  values[0] = pos.evaluate();
  searcher.tt.clear();
  searcher.search(pos, {
    maxDepth,
    onIteration: (info) => {
      const line = info.lines[0];
      if (line !== undefined && !isProven(line.score) && !line.exact) values[info.depth] = line.score;
    },
  });
  return { index, empties: pos.empties, values };
}

export interface FitOptions {
  readonly positions: number;
  readonly maxDepth: number;
  readonly seed: number;
  readonly stageWidth: number;
  readonly stages: number;
  readonly every: number;
  readonly randomPercent: number;
  readonly openings: readonly string[][];
}

/**
 * Plays games and measures the sampled positions until there are `positions` of them; with `parts` > 1
 * only those whose index is `part` modulo `parts` (every thread replays the same games).
 */
export function collect(options: FitOptions, print: (line: string) => void, part = 0, parts = 1): Sample[] {
  const searcher = new Searcher(new TranspositionTable(16));
  const samples: Sample[] = [];
  const started = Date.now();
  let index = 0;
  positions(options, (pos) => {
    if (index % parts === part) {
      samples.push(measure(pos, searcher, Math.min(options.maxDepth, pos.empties - PROBCUT_END_MARGIN), index));
      if (samples.length % 25 === 0) print(`${samples.length} positions (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    index++;
  });
  return samples;
}

/** collect() on `threads` worker threads, the samples back in their one-thread order. */
export async function collectInThreads(options: FitOptions, threads: number, print: (line: string) => void): Promise<Sample[]> {
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, part) => {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { probCutPart: { options, part, parts: threads } } });
      return new Promise<Sample[]>((resolve, reject) => {
        // Progress lines arrive as strings, the samples as the last message.
        worker.on('message', (message: unknown) => {
          if (typeof message === 'string') print(`thread ${part + 1}/${threads}: ${message}`);
          else resolve(message as Sample[]);
        });
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`probcut thread ${part + 1} exited with code ${code}`)));
      });
    }),
  );
  return parts.flat().sort((a, b) => a.index - b.index);
}

/** Calls `visit` on `options.positions` positions sampled from games played from the openings. */
export function positions(options: FitOptions, visit: (pos: OthelloPosition) => void): void {
  const rng = new Random(options.seed);
  const mover = new Searcher(new TranspositionTable(4));
  const buffer = new Int32Array(64);
  let found = 0;
  for (let game = 0; found < options.positions; game++) {
    const pos = startPosition();
    const opening = options.openings[rng.below(options.openings.length)];
    for (const square of opening) {
      const code = definition.decodeMove(pos, square, 'move');
      if (!code.ok) throw new Error(`bad opening move ${square}`);
      pos.makeMove(code.value);
    }
    let ply = opening.length;
    // Each game starts sampling at a random offset so every number of empties gets positions.
    const offset = rng.below(options.every);
    while (pos.terminal() === NOT_TERMINAL && found < options.positions) {
      if ((ply + offset) % options.every === 0 && pos.empties >= 3 + PROBCUT_END_MARGIN && pos.empties <= 58) {
        visit(pos);
        found++;
      }
      const count = pos.generateMoves(buffer, 0);
      let move: number;
      if (count === 1 || rng.below(100) < options.randomPercent) move = buffer[rng.below(count)];
      else move = mover.search(pos, { maxDepth: 2, seed: rng.nextU32() }).move;
      pos.makeMove(move);
      ply++;
    }
  }
}

/**
 * Fixed-depth comparison on sampled midgame positions (no solver): mean nodes with ProbCut off and on,
 * how often the best move agrees and the mean absolute score change (discs).
 */
export function compareNodes(
  options: FitOptions,
  depths: readonly number[],
  confidence: number,
  print: (line: string) => void,
  table: ProbCutTable | null = null,
  against: ProbCutTable | null = null,
): void {
  const searcher = new Searcher(new TranspositionTable(16));
  const rows = depths.map(() => ({ off: 0, on: 0, same: 0, diff: 0, n: 0 }));
  positions(options, (pos) => {
    if (pos.empties < 20) return;
    depths.forEach((depth, i) => {
      setProbCutTable(against);
      const off = engine.restore(engine.snapshot(pos), { probCut: against === null ? 0 : confidence });
      searcher.tt.clear();
      const a = searcher.search(off, { maxDepth: depth });
      setProbCutTable(table);
      const on = engine.restore(engine.snapshot(pos), { probCut: confidence });
      searcher.tt.clear();
      const b = searcher.search(on, { maxDepth: depth });
      const row = rows[i];
      row.off += a.nodes;
      row.on += b.nodes;
      row.same += a.move === b.move ? 1 : 0;
      row.diff += Math.abs(a.score - b.score) / 100;
      row.n++;
    });
  });
  depths.forEach((depth, i) => {
    const r = rows[i];
    const n = Math.max(1, r.n);
    print(
      `depth ${depth}: ${r.n} positions (>= 20 empties), mean nodes off ${(r.off / n).toFixed(0)}, on ${(r.on / n).toFixed(0)} ` +
        `(${((100 * r.on) / Math.max(1, r.off)).toFixed(0)}%), same best move ${((100 * r.same) / n).toFixed(0)}%, ` +
        `mean |score change| ${(r.diff / n).toFixed(2)} discs`,
    );
  });
}

/** Measured values as JSON lines: [empties, v0, v1, ...] (null = missing), in hundredths of a disc. */
export function writeSamples(file: string, samples: readonly Sample[]): void {
  const lines = samples.map((s) => JSON.stringify([s.empties, ...Array.from(s.values, (v) => (Number.isNaN(v) ? null : v))]));
  writeFileSync(file, lines.join('\n') + '\n');
}

/** The samples of writeSamples files, in file order. */
export function readSamples(files: readonly string[]): Sample[] {
  const samples: Sample[] = [];
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as (number | null)[];
      const values = Float64Array.from(row.slice(1), (v) => (v === null ? Number.NaN : v));
      samples.push({ index: samples.length, empties: row[0]!, values });
    }
  }
  return samples;
}

/** Fewest positions in a (shallow, deep, stage) cell for the sigma model. */
const MODEL_MIN_CELL = 30;

/** Solves the normal equations a x = b (n x n, Gaussian elimination with partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    [b[c], b[p]] = [b[p], b[c]];
    for (let r = c + 1; r < n; r++) {
      const f = a[r][c] / a[c][c];
      for (let k = c; k < n; k++) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let v = b[r];
    for (let k = r + 1; k < n; k++) v -= a[r][k] * x[k];
    x[r] = v / a[r][r];
  }
  return x;
}

/** The (shallow value, deep value) pairs of one cell: the samples of `stage` searched to `depth`, not too near the end. */
function cellPairs(samples: readonly Sample[], options: FitOptions, depth: number, shallow: number, stage: number) {
  const xs: number[] = [];
  const ys: number[] = [];
  let empties = 0;
  for (const s of samples) {
    const st = Math.min(options.stages - 1, Math.floor(s.empties / options.stageWidth));
    if (st !== stage || s.values.length <= depth || s.empties < depth + PROBCUT_END_MARGIN) continue;
    const x = s.values[shallow];
    const y = s.values[depth];
    if (Number.isNaN(x) || Number.isNaN(y)) continue;
    xs.push(x);
    ys.push(y);
    empties += s.empties;
  }
  return { xs, ys, empties };
}

/**
 * The sigma model of Multi-ProbCut over depth pairs (Buro; Edax fits one too): every measured cell (shallow
 * s >= 1 of the deep depth's parity, deep depth D, stage) with MODEL_MIN_CELL positions gives its residual sigma
 * and mean empties; ln(sigma) = c0 + c1 * empties + c2 * D + c3 * s is fitted by least squares weighted by the
 * cell's positions.
 */
export function fitSigmaModel(samples: readonly Sample[], options: FitOptions, modelDepth: number): ProbCutModel {
  const a = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  const b = [0, 0, 0, 0];
  for (let depth = 3; depth <= options.maxDepth; depth++) {
    for (let shallow = 1 + ((depth + 1) & 1); shallow <= depth - 2; shallow += 2) {
      for (let stage = 0; stage < options.stages; stage++) {
        const { xs, ys, empties } = cellPairs(samples, options, depth, shallow, stage);
        if (xs.length < MODEL_MIN_CELL) continue;
        const sigma = fitLine(xs, ys)[2];
        if (!(sigma > 0)) continue;
        const row = [1, empties / xs.length, depth, shallow];
        const w = xs.length;
        for (let i = 0; i < 4; i++) {
          for (let j = 0; j < 4; j++) a[i][j] += w * row[i] * row[j];
          b[i] += w * row[i] * Math.log(sigma);
        }
      }
    }
  }
  if (a[0][0] === 0) throw new Error('sigma model: no cell with enough positions');
  const sigma = solve(a, b);
  if (!sigma.every(Number.isFinite)) throw new Error('sigma model: the cells do not vary in empties, deep and shallow depth (singular fit)');
  return { maxDepth: modelDepth, sigma: sigma.map((c) => round(c, 6)) };
}

/**
 * The table file from measured positions; with `base`, its pairs are kept and only deeper depths are fitted;
 * with modelDepth > maxDepth, the sigma model (fitSigmaModel) covers the depths beyond the pairs.
 */
export function fitTable(
  samples: readonly Sample[],
  options: FitOptions,
  about: string,
  base?: ProbCutFile,
  modelDepth = 0,
  pairsDepth = options.maxDepth,
): ProbCutFile {
  const pairs: ProbCutPair[] = base === undefined ? [] : [...base.pairs];
  const kept = new Set(pairs.map((p) => p.depth));
  for (let depth = 3; depth <= pairsDepth; depth++) {
    if (kept.has(depth)) continue;
    const shallow = shallowDepth(depth);
    const fits: number[][] = [];
    for (let stage = 0; stage < options.stages; stage++) {
      const { xs, ys } = cellPairs(samples, options, depth, shallow, stage);
      if (xs.length < 3) {
        fits.push([1, 0, 0, 0]);
        continue;
      }
      const [slope, intercept, sigma] = fitLine(xs, ys);
      fits.push([round(slope, 4), round(intercept, 1), round(sigma, 1), xs.length]);
    }
    pairs.push({ depth, shallow, fits });
  }
  const model = modelDepth > pairsDepth ? fitSigmaModel(samples, options, modelDepth) : undefined;
  const file: ProbCutFile = { about, stageWidth: options.stageWidth, stages: options.stages, pairs, ...(model === undefined ? {} : { model }) };
  buildProbCutTable(file); // throws if the fit is unusable
  return file;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const usage = `npm run othello-probcut -- [options]

Fits the Othello Multi-ProbCut regression table from Kibitz's own searches (ProbCut off): positions from
games played from the balanced openings, each searched by iterative deepening; per deep depth D, its
shallow depth s(D) = 2*floor(D/4) + D%2, and stage (empties / stage width): slope, intercept, sigma.

  --positions N     positions to measure (default 300)
  --max-depth D     deepest depth fitted (default 10)
  --seed S          random seed of the games (default 1)
  --every K         sample every K-th ply of a game (default 5)
  --random P        percent of random moves in the games (default 20)
  --stage-width W   empty squares per stage (default 10; 6 stages)
  --threads N       measure on N worker threads (default 1; the same table for any N)
  --openings FILE   openings (default tools/othello-openings.txt)
  --out FILE        where to write the table (default src/games/othello/probcut.json)
  --samples FILE    also write the measured values (one position a line: empties, the value of each depth)
  --from FILE       fit from a --samples file instead of searching (several files: comma-separated)
  --base FILE       keep the pairs of this table; fit only the deeper depths
  --pairs-depth P   fit the pairs only to depth P (default --max-depth; the model uses every depth measured)
  --model-depth D   also fit the sigma model over depth pairs and cover the depths up to D with it
  --table FILE      --compare: the table for ProbCut on (default the committed one)
  --against FILE    --compare: ProbCut with this table instead of off as the baseline
  --compare DEPTHS  instead of fitting: fixed-depth nodes with ProbCut off and on (the committed table)
                    at these depths (e.g. 6,8,10) on the sampled positions with 20+ empties
  --confidence T    ProbCut confidence for --compare (default 1.5)
  -h, --help        this text
`;

const spec = {
  name: 'othello-probcut',
  usage,
  options: {
    positions: { type: 'string' },
    'max-depth': { type: 'string' },
    seed: { type: 'string' },
    every: { type: 'string' },
    random: { type: 'string' },
    'stage-width': { type: 'string' },
    openings: { type: 'string' },
    out: { type: 'string' },
    compare: { type: 'string' },
    confidence: { type: 'string' },
    threads: { type: 'string' },
    samples: { type: 'string' },
    from: { type: 'string' },
    base: { type: 'string' },
    'model-depth': { type: 'string' },
    'pairs-depth': { type: 'string' },
    table: { type: 'string' },
    against: { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  const stageWidth = intOption(values, 'stage-width', 10, 1, 64);
  const options: FitOptions = {
    positions: intOption(values, 'positions', 300, 10),
    maxDepth: intOption(values, 'max-depth', 10, 3, 30),
    seed: intOption(values, 'seed', 1, 0),
    every: intOption(values, 'every', 5, 1, 60),
    randomPercent: intOption(values, 'random', 20, 0, 100),
    stageWidth,
    stages: Math.floor(60 / stageWidth) + 1,
    openings: readOpenings(values.openings),
  };
  if (values.compare !== undefined) {
    const depths = values.compare.split(',').map(Number);
    if (!depths.every((d) => Number.isInteger(d) && d >= 1 && d <= 30)) throw new UsageError('--compare must list depths 1..30, e.g. 6,8');
    const confidence = Number(values.confidence ?? '1.5');
    if (!Number.isFinite(confidence) || confidence < 0 || confidence > 10) throw new UsageError('--confidence must be a number 0..10');
    const load = (file: string | undefined): ProbCutTable | null =>
      file === undefined ? null : buildProbCutTable(JSON.parse(readFileSync(file, 'utf8')) as ProbCutFile);
    const table = load(values.table);
    const against = load(values.against);
    if (against !== null) console.log(`baseline: ProbCut ${confidence} with ${values.against}; on: ${values.table ?? 'the committed table'}`);
    compareNodes(options, depths, confidence, console.log, table ?? probCutTable(), against);
    return;
  }
  const out = values.out ?? DEFAULT_OUT;
  const threads = intOption(values, 'threads', 1, 1, 64);
  const args = process.argv.slice(2).filter((a, i, all) => !/^--(out|threads|samples)/.test(a) && !/^--(out|threads|samples)$/.test(all[i - 1] ?? ''));
  const about = `npm run othello-probcut -- ${args.join(' ')}`.trim() + ' (fitted by tools/othello-probcut.ts)';
  const started = Date.now();
  const samples =
    values.from !== undefined
      ? readSamples(values.from.split(','))
      : threads > 1
        ? await collectInThreads(options, threads, console.log)
        : collect(options, console.log);
  if (values.samples !== undefined) writeSamples(values.samples, samples);
  const base = values.base === undefined ? undefined : (JSON.parse(readFileSync(values.base, 'utf8')) as ProbCutFile);
  const pairsDepth = intOption(values, 'pairs-depth', options.maxDepth, 3, options.maxDepth);
  const file = fitTable(samples, options, about, base, intOption(values, 'model-depth', 0, 0, 40), pairsDepth);
  if (file.model !== undefined) {
    const table = buildProbCutTable(file);
    console.log(`model: ln(sigma) = ${file.model.sigma.join(', ')} (1, empties, D, s); to depth ${file.model.maxDepth}`);
    for (let d = 3; d <= table.maxDepth; d++) {
      const sig = Array.from({ length: table.stages }, (_, st) => (table.params[(d * table.stages + st) * 3 + 2] / 100).toFixed(2));
      console.log(`  D=${d} s=${table.shallowOf[d]} sigma (discs) by stage: ${sig.join(' ')}`);
    }
  }
  // One fit per line: [slope, intercept, sigma, n].
  const json = JSON.stringify(file, null, 1).replace(/\[\s+([-\d.,\s]+?)\s+\]/g, (_m, inner: string) => `[${inner.replace(/\s+/g, '')}]`);
  writeFileSync(out, `${json}\n`);
  for (const pair of file.pairs) {
    console.log(`D=${pair.depth} s=${pair.shallow}: ` + pair.fits.map((f) => `[${f.join(' ')}]`).join(' '));
  }
  console.log(`wrote ${out} (${samples.length} positions, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

const threadTask = isMainThread ? undefined : (workerData as { probCutPart?: { options: FitOptions; part: number; parts: number } }).probCutPart;
if (threadTask !== undefined) {
  const { options, part, parts } = threadTask;
  parentPort!.postMessage(collect(options, (line) => parentPort!.postMessage(line), part, parts));
} else {
  runCliIfMain(import.meta.url, spec, main);
}
