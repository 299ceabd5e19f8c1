/**
 * Texel tuning of the Tablut default evaluation's static weights.
 *
 *   npm run tablut-tune -- generate --out games.csv [--games 1400] [--depth 4] [--seed 401]
 *                                   [--matchups default-seed,seed-default] [--weights '{...}']
 *   npm run tablut-tune -- fit --data games.csv[,more.csv] [--epochs 4000] [--weights '{...}']
 *
 * `generate` plays games at a fixed depth from random 4-8 ply openings (deterministic for a seed)
 * between evaluation profiles and writes one line per position: result for White (1, 0.5, 0), side
 * to move, the 81 cell codes. `fit` keeps the quiet positions (the threat quiescence does not change
 * the static value, no won line), reads each weight's feature off the evaluation itself (its value
 * with that weight alone, minus its value with none: the evaluation is linear in its weights at a
 * fixed phase), and minimises the squared error between the result and a logistic of the
 * evaluation (Texel's method) with full-batch Adam. Every fifth block of 500 positions is held out
 * and its error printed, so over-fitting shows. It prints the fitted weights scaled so that a white
 * pawn keeps its current value (a weight whose feature is zero in every position keeps its value);
 * paste them into DEFAULT_WEIGHTS and check them with `npm run tablut-screen` and `npm run arena`.
 * `--weights` overrides DEFAULT_WEIGHTS: the default profile's weights when generating, the
 * starting point and the quiet-position filter when fitting, so an earlier round can be replayed.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { Random } from '../src/core/random.js';
import { SIDE_WHITE, SQUARES } from '../src/games/tablut/board.js';
import { DEFAULT_WEIGHTS, DefaultEvaluator, type EvalWeights } from '../src/games/tablut/evaluation.js';
import { definition } from '../src/games/tablut/index.js';
import { STATUS_ONGOING, TablutPosition } from '../src/games/tablut/position.js';
import { WON_SOON } from '../src/games/tablut/threats.js';
import type { GameDefinition, SearchPosition } from '../src/games/types.js';
import { legalMoveCodes, statusOf } from '../src/http/game-service.js';
import { analyse } from '../src/search/analyse.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { startPosition } from './arena.js';
import { weightsFromJson } from './tablut-screen.js';
import { type ParsedArgs, UsageError, runCliIfMain } from '../src/core/cli.js';

/** The weights the fit adjusts: every term of the static evaluation except the phase. */
export const TUNED_WEIGHTS = [
  'whitePawn',
  'blackPawn',
  'openLineThreat',
  'reachSingle',
  'reachDouble',
  'doubleThreatAvailable',
  'kingMobility',
  'kingPressure',
  'kingCaptureThreat',
  'segmentGuard',
  'lineBlocker',
  'blackSquare',
  'hangingWhite',
  'hangingBlack',
  'kingGuard',
  'kingNearCamp',
  'semiOpenLine',
  'kingCrowd',
  'kingExposed',
  'whiteLoose',
  'blackLoose',
  'kingOnThrone',
  'blackInCamp',
] as const satisfies readonly (keyof EvalWeights)[];
type TunedWeight = (typeof TUNED_WEIGHTS)[number];
/** Weights whose sign the fit may choose; the others enter the evaluation with a fixed sign. */
const SIGNED: ReadonlySet<TunedWeight> = new Set(['kingOnThrone']);

export interface GenerateOptions {
  games: number;
  depth: number;
  seed: number;
  /** [White's profile, Black's profile] pairs, used in turn. */
  matchups: [string, string][];
  /** The 'default' profile's weights (DEFAULT_WEIGHTS when absent). */
  weights?: EvalWeights;
}

/** Plays the games and returns one CSV line per searched position. */
export function generate(options: GenerateOptions): string[] {
  const def = definition as unknown as GameDefinition<SearchPosition>;
  const rng = new Random(options.seed);
  const searcher = new Searcher(new TranspositionTable(16));
  const evaluator = options.weights === undefined ? undefined : new DefaultEvaluator(options.weights);
  const lines: string[] = [];
  for (let game = 0; game < options.games; game++) {
    const [white, black] = options.matchups[game % options.matchups.length];
    const pos = startPosition(def, {});
    const openingPlies = 4 + rng.below(5);
    const rows: string[] = [];
    let result = 0.5;
    for (let ply = 0; ply < 300; ply++) {
      const status = statusOf(def, pos);
      if (status.status === 'draw') break;
      if (status.status === 'win') {
        result = status.winner === 'WHITE' ? 1 : 0;
        break;
      }
      let move: number;
      if (ply < openingPlies) {
        const legal = legalMoveCodes(pos);
        move = legal[rng.below(legal.length)];
      } else {
        const snapshot = def.engine.snapshot(pos);
        rows.push(`${pos.side},${Array.from(snapshot.subarray(3, 3 + SQUARES)).join('')}`);
        const profile = pos.side === SIDE_WHITE ? white : black;
        const own = def.engine.restore(snapshot, { profile, seed: rng.nextU32() });
        if (profile === 'default' && evaluator !== undefined) (own as unknown as TablutPosition).evaluator = evaluator;
        searcher.tt.clear();
        move = analyse(def.engine, own, searcher, { maxDepth: options.depth }).move;
      }
      pos.makeMove(move);
    }
    for (const row of rows) lines.push(`${result},${row}`);
  }
  return lines;
}

export interface Dataset {
  /** Row-major: TUNED_WEIGHTS.length features, then 1 for White to move. */
  features: Float64Array;
  results: Float64Array;
  count: number;
  skipped: number;
}

const FEATURES = TUNED_WEIGHTS.length + 1;
/** Each feature is read with its weight at this value, so integer shifts in the evaluation stay exact enough. */
const PROBE = 4096;

/** Quiet (for `weights`), undecided positions of the CSV lines and their features. */
export function load(lines: string[], weights: EvalWeights = DEFAULT_WEIGHTS): Dataset {
  const zero = { ...weights };
  for (const name of TUNED_WEIGHTS) zero[name] = 0;
  // The squeeze is hand-set and switches on at a lead (not linear in the weights): no part of a feature.
  zero.squeezeMobility = 0;
  const none = new DefaultEvaluator(zero);
  const probes = TUNED_WEIGHTS.map((name) => new DefaultEvaluator({ ...zero, [name]: PROBE }));
  const current = new DefaultEvaluator(weights);
  const pos = new TablutPosition(8);
  const cells = new Uint8Array(SQUARES);
  const features = new Float64Array(lines.length * FEATURES);
  const results = new Float64Array(lines.length);
  let count = 0;
  let skipped = 0;
  for (const line of lines) {
    const [result, side, board] = line.split(',');
    if (board === undefined || board.length !== SQUARES) throw new Error(`bad data line: ${line.slice(0, 40)}`);
    for (let s = 0; s < SQUARES; s++) cells[s] = board.charCodeAt(s) - 48;
    pos.load(cells, Number(side), STATUS_ONGOING);
    pos.rootSide = SIDE_WHITE;
    const base = none.whiteScore(pos);
    const staticValue = current.whiteScore(pos);
    const searched = current.evaluate(pos) * (pos.side === SIDE_WHITE ? 1 : -1);
    if (Math.abs(base) >= WON_SOON - 1000 || searched !== staticValue) {
      skipped++;
      continue;
    }
    const row = count * FEATURES;
    for (let i = 0; i < TUNED_WEIGHTS.length; i++) features[row + i] = (probes[i].whiteScore(pos) - base) / PROBE;
    features[row + TUNED_WEIGHTS.length] = pos.side === SIDE_WHITE ? 1 : 0;
    results[count++] = Number(result);
  }
  return { features, results, count, skipped };
}

export interface FitResult {
  weights: Record<TunedWeight, number>;
  trainError: number;
  testError: number;
  initialTrainError: number;
  initialTestError: number;
}

/** Positions of one game are alike, so whole blocks of them are held out: every fifth block. */
const held = (i: number, block: number): boolean => Math.floor(i / block) % 5 === 0;

/** Mean squared error of sigmoid(scale * eval / 400) against the results, on the training or held-out part. */
function meanError(data: Dataset, w: Float64Array, scale: number, test: boolean, block: number): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < data.count; i++) {
    if (held(i, block) !== test) continue;
    let e = w[FEATURES];
    for (let j = 0; j < FEATURES; j++) e += w[j] * data.features[i * FEATURES + j];
    const p = 1 / (1 + Math.exp((-scale * e) / 400));
    sum += (data.results[i] - p) ** 2;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/** Texel fit from `start`; `log` gets progress lines; `block` sizes the held-out blocks. */
export function fit(
  data: Dataset,
  epochs: number,
  log: (line: string) => void = () => {},
  block = 500,
  start: EvalWeights = DEFAULT_WEIGHTS,
): FitResult {
  // Weights, the side-to-move bias and a constant (the last two only help the fit).
  const w = new Float64Array(FEATURES + 1);
  TUNED_WEIGHTS.forEach((name, i) => (w[i] = start[name]));
  let scale = 1;
  let best = Infinity;
  for (let k = 0.05; k <= 3; k += 0.05) {
    const error = meanError(data, w, k, false, block);
    if (error < best) {
      best = error;
      scale = k;
    }
  }
  const initialTestError = meanError(data, w, scale, true, block);
  log(`positions ${data.count} (skipped ${data.skipped}), scale ${scale.toFixed(2)}: train ${best.toFixed(5)}, held out ${initialTestError.toFixed(5)}`);
  const m = new Float64Array(FEATURES + 1);
  const v = new Float64Array(FEATURES + 1);
  const gradient = new Float64Array(FEATURES + 1);
  const rate = 2;
  for (let t = 1; t <= epochs; t++) {
    gradient.fill(0);
    let n = 0;
    for (let i = 0; i < data.count; i++) {
      if (held(i, block)) continue;
      const row = i * FEATURES;
      let e = w[FEATURES];
      for (let j = 0; j < FEATURES; j++) e += w[j] * data.features[row + j];
      const p = 1 / (1 + Math.exp((-scale * e) / 400));
      const d = (-2 * (data.results[i] - p) * p * (1 - p) * scale) / 400;
      for (let j = 0; j < FEATURES; j++) gradient[j] += d * data.features[row + j];
      gradient[FEATURES] += d;
      n++;
    }
    for (let j = 0; j <= FEATURES; j++) {
      const g = gradient[j] / Math.max(1, n);
      m[j] = 0.9 * m[j] + 0.1 * g;
      v[j] = 0.999 * v[j] + 0.001 * g * g;
      w[j] -= (rate * (m[j] / (1 - 0.9 ** t))) / (Math.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-12);
      if (j < TUNED_WEIGHTS.length && w[j] < 0 && !SIGNED.has(TUNED_WEIGHTS[j])) w[j] = 0;
    }
    if (t % 1000 === 0)
      log(
        `epoch ${t}: train ${meanError(data, w, scale, false, block).toFixed(5)}, ` +
          `held out ${meanError(data, w, scale, true, block).toFixed(5)}`,
      );
  }
  // The logistic's scale and the weights' scale are one degree of freedom: keep a white pawn's value.
  const ratio = start.whitePawn / Math.max(1, w[0]);
  const seen = new Uint8Array(FEATURES);
  for (let i = 0; i < data.count * FEATURES; i++) if (data.features[i] !== 0) seen[i % FEATURES] = 1;
  const weights = {} as Record<TunedWeight, number>;
  TUNED_WEIGHTS.forEach((name, i) => (weights[name] = seen[i] === 1 ? Math.round(w[i] * ratio) : start[name]));
  return {
    weights,
    trainError: meanError(data, w, scale, false, block),
    testError: meanError(data, w, scale, true, block),
    initialTrainError: best,
    initialTestError,
  };
}

const spec = {
  name: 'tablut-tune',
  usage: `Texel tuning of the Tablut default evaluation's static weights.

  npm run tablut-tune -- generate --out games.csv [--games 1400] [--depth 4] [--seed 401]
                                  [--matchups default-seed,seed-default] [--weights '{...}']
  npm run tablut-tune -- fit --data games.csv[,more.csv] [--epochs 4000] [--weights '{...}']

\`generate\` plays games at a fixed depth from random 4-8 ply openings (deterministic for a seed)
between evaluation profiles and writes one line per position: result for White (1, 0.5, 0), side
to move, the 81 cell codes. \`fit\` keeps the quiet positions (the threat quiescence does not change
the static value, no won line), reads each weight's feature off the evaluation itself (its value
with that weight alone, minus its value with none: the evaluation is linear in its weights at a
fixed phase), and minimises the squared error between the result and a logistic of the
evaluation (Texel's method) with full-batch Adam. Every fifth block of 500 positions is held out
and its error printed, so over-fitting shows. It prints the fitted weights scaled so that a white
pawn keeps its current value (a weight whose feature is zero in every position keeps its value);
paste them into DEFAULT_WEIGHTS and check them with \`npm run tablut-screen\` and \`npm run arena\`.
\`--weights\` overrides DEFAULT_WEIGHTS: the default profile's weights when generating, the
starting point and the quiet-position filter when fitting, so an earlier round can be replayed.

  --help  this text`,
  positionals: true,
  options: {
    out: { type: 'string' },
    games: { type: 'string', default: '1400' },
    depth: { type: 'string', default: '4' },
    seed: { type: 'string', default: '401' },
    matchups: { type: 'string', default: 'default-seed,seed-default' },
    data: { type: 'string' },
    epochs: { type: 'string', default: '4000' },
    weights: { type: 'string', default: '{}' },
  },
} as const;

function main({ values, positionals }: ParsedArgs<typeof spec.options>): void {
  const weights = weightsFromJson(values.weights!);
  const command = positionals[0];
  if (command === 'generate') {
    if (values.out === undefined) throw new UsageError('generate needs --out <file>');
    const matchups = values.matchups!.split(',').map((pair) => {
      const [white, black] = pair.split('-');
      if (black === undefined) throw new Error(`bad matchup ${pair}: use white-black, e.g. default-seed`);
      return [white, black] as [string, string];
    });
    const started = Date.now();
    const lines = generate({ games: Number(values.games), depth: Number(values.depth), seed: Number(values.seed), matchups, weights });
    const fd = openSync(values.out, 'w');
    writeSync(fd, lines.join('\n') + '\n');
    closeSync(fd);
    console.log(`${values.games} games, ${lines.length} positions written to ${values.out} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } else if (command === 'fit') {
    if (values.data === undefined) throw new UsageError('fit needs --data <file[,file]>');
    const lines = values.data.split(',').flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== ''));
    const result = fit(load(lines, weights), Number(values.epochs), console.log, 500, weights);
    console.log(`held-out error ${result.initialTestError.toFixed(5)} -> ${result.testError.toFixed(5)}`);
    console.log(JSON.stringify(result.weights));
  } else {
    throw new UsageError('usage: tablut-tune generate --out <file> ... | fit --data <file[,file]> ...');
  }
}

runCliIfMain(import.meta.url, spec, main);
