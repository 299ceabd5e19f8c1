/**
 * npm run tablut-screen -- --weights '{"doubleThreatAvailable":0}' [--colour WHITE] [--depth 4 | --ms 100]
 *                          [--baseline-depth 5 | --baseline-ms 100] [--games 60] [--seeds 11,12,13]
 *
 * Screens Tablut evaluation weights: the default profile with these weights overriding
 * DEFAULT_WEIGHTS plays one colour against the 'seed' profile. Every game has its own random 4-ply
 * opening, so one colour gets `games` openings per seed. It prints the points per opening seed and
 * the total, then each side's mean search depth and nodes. At fixed depth the games are
 * deterministic, so two weight sets can be compared on the same openings; --baseline-depth and
 * --baseline-ms give the 'seed' baseline a depth or a time per move of its own (what one side's
 * extra depth or time is worth).
 */
import { Random } from '../src/core/random.js';
import { DEFAULT_WEIGHTS, DefaultEvaluator, type EvalWeights } from '../src/games/tablut/evaluation.js';
import { definition } from '../src/games/tablut/index.js';
import type { TablutPosition } from '../src/games/tablut/position.js';
import type { GameDefinition, SearchPosition } from '../src/games/types.js';
import { addStats, describeStats, emptyStats, makePlayer, opening, playGame, type SearchStats } from './arena.js';
import { type ParsedArgs, runCliIfMain } from '../src/core/cli.js';

export interface ScreenOptions {
  weights: Partial<EvalWeights>;
  colour: 'WHITE' | 'BLACK';
  depth: number | undefined;
  /** The baseline's own fixed depth (defaults to `depth`), to see what one side's extra ply is worth. */
  baselineDepth?: number;
  /** The baseline's own time per move (defaults to `ms`; ignored under a fixed baseline depth). */
  baselineMs?: number;
  ms: number | undefined;
  games: number;
  seeds: number[];
}

export interface ScreenResult {
  /** Points of the weighted default profile per opening seed. */
  points: number[];
  /** Its searches and the baseline's, over all seeds. */
  screened: SearchStats;
  baseline: SearchStats;
}

export function screen(options: ScreenOptions): ScreenResult {
  const def = definition as unknown as GameDefinition<SearchPosition>;
  const weights: EvalWeights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const screenedStats = emptyStats();
  const baselineStats = emptyStats();
  const points = options.seeds.map((seed) => {
    const rng = new Random(seed);
    const screened = makePlayer('default', options.depth, options.ms, 1, (pos) => {
      (pos as unknown as TablutPosition).evaluator = new DefaultEvaluator(weights);
    });
    const limits = baselineLimits(options);
    const baseline = makePlayer('seed', limits.depth, limits.ms, 2);
    let points = 0;
    for (let game = 0; game < options.games; game++) {
      const moves = opening(def, {}, 4, rng);
      points +=
        options.colour === 'WHITE'
          ? playGame(def, {}, moves, screened, baseline, 400)
          : 1 - playGame(def, {}, moves, baseline, screened, 400);
    }
    addStats(screenedStats, screened.stats);
    addStats(baselineStats, baseline.stats);
    return points;
  });
  return { points, screened: screenedStats, baseline: baselineStats };
}

/** The baseline's depth and time per move: its own when given, else the screened profile's. */
export function baselineLimits(options: ScreenOptions): { depth: number | undefined; ms: number | undefined } {
  if (options.baselineDepth !== undefined) return { depth: options.baselineDepth, ms: undefined };
  if (options.baselineMs !== undefined) return { depth: undefined, ms: options.baselineMs };
  return { depth: options.depth, ms: options.ms };
}

/** DEFAULT_WEIGHTS with the overrides of a JSON object (command-line `--weights`); unknown names throw. */
export function weightsFromJson(json: string): EvalWeights {
  const overrides = JSON.parse(json) as Record<string, unknown>;
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in DEFAULT_WEIGHTS)) throw new Error(`unknown weight ${key}`);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`weight ${key} must be a number`);
  }
  return { ...DEFAULT_WEIGHTS, ...(overrides as Partial<EvalWeights>) };
}

const spec = {
  name: 'tablut-screen',
  usage: `npm run tablut-screen -- --weights '{"doubleThreatAvailable":0}' [--colour WHITE] [--depth 4 | --ms 100]
                         [--baseline-depth 5 | --baseline-ms 100] [--games 60] [--seeds 11,12,13]

Screens Tablut evaluation weights: the default profile with these weights overriding
DEFAULT_WEIGHTS plays one colour against the 'seed' profile. Every game has its own random 4-ply
opening, so one colour gets \`games\` openings per seed. It prints the points per opening seed and
the total, then each side's mean search depth and nodes. At fixed depth the games are
deterministic, so two weight sets can be compared on the same openings; --baseline-depth and
--baseline-ms give the 'seed' baseline a depth or a time per move of its own (what one side's
extra depth or time is worth).

  --help  this text`,
  options: {
    weights: { type: 'string', default: '{}' },
    colour: { type: 'string', default: 'WHITE' },
    depth: { type: 'string' },
    'baseline-depth': { type: 'string' },
    'baseline-ms': { type: 'string' },
    ms: { type: 'string' },
    games: { type: 'string', default: '60' },
    seeds: { type: 'string', default: '11,12,13' },
  },
} as const;

function main({ values }: ParsedArgs<typeof spec.options>): void {
  const weights = weightsFromJson(values.weights!);
  const colour = values.colour === 'BLACK' ? 'BLACK' : 'WHITE';
  const ms = values.ms === undefined ? undefined : Number(values.ms);
  const depth = values.depth === undefined ? (ms === undefined ? 4 : undefined) : Number(values.depth);
  const baselineDepth = values['baseline-depth'] === undefined ? undefined : Number(values['baseline-depth']);
  const baselineMs = values['baseline-ms'] === undefined ? undefined : Number(values['baseline-ms']);
  const options: ScreenOptions = {
    weights,
    colour,
    depth,
    baselineDepth,
    baselineMs,
    ms,
    games: Number(values.games),
    seeds: values.seeds!.split(',').map(Number),
  };
  const started = Date.now();
  const { points, screened, baseline } = screen(options);
  const total = points.reduce((a, b) => a + b, 0);
  const games = options.games * options.seeds.length;
  const own = baselineLimits(options);
  const seedLimit = own.depth !== undefined ? `seed depth ${own.depth}` : `seed ${own.ms} ms/move`;
  const limit = `${depth !== undefined ? `depth ${depth}` : `${ms} ms/move`} (${seedLimit})`;
  console.log(
    `tablut screen ${values.weights} as ${colour}, ${limit}: ${total}/${games} (${((100 * total) / games).toFixed(1)}%) ` +
      `[${points.join(' ')}] in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(`default: ${describeStats(screened)}; seed: ${describeStats(baseline)}`);
}

runCliIfMain(import.meta.url, spec, main);
