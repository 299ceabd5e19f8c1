/**
 * npm run winprob-fit -- [--games mnk,othello,tablut,hadron] [--count 60] [--nodes 3000] [--seed 1] [--write]
 *
 * Fits each game's win-probability curve p = 1 / (1 + exp(-z)), z = sign(s) * (|s| / scale) ^ exponent
 * (src/analysis/winprob.ts) to engine games, and reports its calibration on held-out games.
 *
 * Every game is engine self-play from a random opening (2 to 7 random plies, seeded), each move a
 * node-limited search (deterministic). Every position after the opening gives one sample: the
 * search's heuristic score for the side to move and the game's result for that side (1 / 0.5 / 0).
 * Positions the search proved are left out (they map to 1 / 0.5 / 0 exactly), and so are games that
 * reach the ply cap. The first two thirds of the games fit the curve: for each exponent of a grid
 * (0.1 to 2 by 0.05), a logistic regression without intercept on sign(s) * |s| ^ exponent (Newton's
 * method: the log loss is convex in the coefficient), keeping the exponent with the least log loss;
 * the last third is held out
 * for the reliability table (10 bins of predicted probability) and the Brier score, printed beside
 * the Brier score of always predicting the held-out games' mean result. --write stores the scales in
 * src/analysis/winprob.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { Random } from '../src/core/random.js';
import { GAMES } from '../src/games/registry.js';
import { GAME_IDS, type GameDefinition, type GameId, type SearchPosition } from '../src/games/types.js';
import { legalMoveCodes, statusOf } from '../src/http/game-service.js';
import { type WinProbCurve, logistic } from '../src/analysis/winprob.js';
import { isProven } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';

const USAGE = `npm run winprob-fit -- [options]

Fits each game's win-probability curve to engine self-play games and reports calibration on held-out games.

Options:
  --games LIST   comma-separated games (default mnk,othello,tablut,hadron)
  --count N      games per game (default 60; the last third is held out)
  --nodes N      node limit per move (default 3000)
  --seed N       seed of the random openings (default 1)
  --write        store the fitted scales in src/analysis/winprob.json
  --help         this text
`;

/** Board parameters of the fitting games (the catalogue's usual sizes). */
const PARAMS: Record<GameId, Record<string, unknown>> = {
  mnk: { m: 15, n: 15, k: 5 },
  othello: {},
  tablut: {},
  hadron: { rows: 9, cols: 9 },
};
/** Games longer than this are dropped (undecided). */
const MAX_PLIES = 300;

export interface Sample {
  /** Internal heuristic score for the side to move. */
  readonly score: number;
  /** The game's result for that side: 1, 0.5 or 0. */
  readonly result: number;
}

function startPosition(def: GameDefinition<SearchPosition>, params: Record<string, unknown>): SearchPosition {
  const initial = def.initialState(params);
  if (!initial.ok) throw new Error(initial.error.message);
  const decoded = def.decodeState(initial.value, undefined);
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.value;
}

/** One self-play game: its samples, or null when it reached the ply cap. */
export function playSamples(def: GameDefinition<SearchPosition>, params: Record<string, unknown>, nodes: number, rng: Random): Sample[] | null {
  const pos = startPosition(def, params);
  const searcher = new Searcher(new TranspositionTable(8));
  const openingPlies = 2 + rng.below(6);
  const seen: Array<{ score: number; side: number }> = [];
  for (let ply = 0; ply < MAX_PLIES; ply++) {
    const status = statusOf(def, pos);
    if (status.status !== 'ongoing') {
      const winner = status.status === 'win' ? def.sideNames.indexOf(status.winner) : -1;
      return seen.map(({ score, side }) => ({ score, result: winner < 0 ? 0.5 : winner === side ? 1 : 0 }));
    }
    let move: number;
    if (ply < openingPlies) {
      const legal = legalMoveCodes(pos);
      move = legal[rng.below(legal.length)];
    } else {
      searcher.tt.clear();
      const result = searcher.search(pos, { nodeLimit: nodes, seed: rng.nextU32() });
      move = result.move;
      if (!isProven(result.score) && !result.exact) seen.push({ score: result.score, side: pos.side });
    }
    pos.makeMove(move);
  }
  return null;
}

/** The coefficient w > 0 minimising the log loss of p = 1 / (1 + exp(-w x)) (Newton's method), and that loss. */
function fitCoefficient(xs: Float64Array, ys: Float64Array): { w: number; loss: number } {
  let scaleOfX = 0;
  for (const x of xs) scaleOfX = Math.max(scaleOfX, Math.abs(x));
  let w = scaleOfX > 0 ? 1 / scaleOfX : 1;
  for (let iteration = 0; iteration < 200; iteration++) {
    let g = 0;
    let h = 0;
    for (let i = 0; i < xs.length; i++) {
      const p = 1 / (1 + Math.exp(-w * xs[i]));
      g += (p - ys[i]) * xs[i];
      h += p * (1 - p) * xs[i] * xs[i];
    }
    if (h <= 0) break;
    let next = w - g / h;
    if (!(next > 0)) next = w / 4;
    const converged = Math.abs(next - w) <= 1e-10 * w;
    w = next;
    if (converged) break;
  }
  let loss = 0;
  for (let i = 0; i < xs.length; i++) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, 1 / (1 + Math.exp(-w * xs[i]))));
    loss -= ys[i] * Math.log(p) + (1 - ys[i]) * Math.log(1 - p);
  }
  return { w, loss: loss / Math.max(1, xs.length) };
}

/** The curve with the least log loss over the samples (exponent from the grid, then its scale). */
export function fitCurve(samples: readonly Sample[]): WinProbCurve {
  const ys = Float64Array.from(samples, (s) => s.result);
  let best: WinProbCurve = { scale: 1, exponent: 1 };
  let bestLoss = Infinity;
  for (let k = 2; k <= 40; k++) {
    const exponent = k / 20;
    const xs = Float64Array.from(samples, (s) => Math.sign(s.score) * Math.abs(s.score) ** exponent);
    const { w, loss } = fitCoefficient(xs, ys);
    if (loss < bestLoss) {
      bestLoss = loss;
      // w * |s|^e = (|s| / scale)^e  =>  scale = w^(-1/e).
      best = { scale: w ** (-1 / exponent), exponent };
    }
  }
  return best;
}

export interface Calibration {
  readonly brier: number;
  /** Brier score of always predicting the mean result. */
  readonly baseline: number;
  readonly bins: ReadonlyArray<{ from: number; to: number; count: number; predicted: number; observed: number }>;
}

export function calibration(samples: readonly Sample[], curve: WinProbCurve, binCount = 10): Calibration {
  const mean = samples.reduce((sum, s) => sum + s.result, 0) / Math.max(1, samples.length);
  let brier = 0;
  let baseline = 0;
  const bins = Array.from({ length: binCount }, (_, i) => ({ from: i / binCount, to: (i + 1) / binCount, count: 0, predicted: 0, observed: 0 }));
  for (const { score, result } of samples) {
    const p = logistic(score, curve);
    brier += (p - result) ** 2;
    baseline += (mean - result) ** 2;
    const bin = bins[Math.min(binCount - 1, Math.floor(p * binCount))];
    bin.count++;
    bin.predicted += p;
    bin.observed += result;
  }
  for (const bin of bins) {
    if (bin.count > 0) {
      bin.predicted /= bin.count;
      bin.observed /= bin.count;
    }
  }
  const n = Math.max(1, samples.length);
  return { brier: brier / n, baseline: baseline / n, bins };
}

async function main(args: { values: Record<string, unknown> }): Promise<void> {
  const values = args.values;
  const games = (typeof values.games === 'string' ? values.games : GAME_IDS.join(',')).split(',').map((s) => s.trim());
  for (const game of games) if (!(GAME_IDS as readonly string[]).includes(game)) throw new UsageError(`--games: unknown game '${game}'`);
  const count = intOption(values, 'count', 60, 3, 100_000);
  const nodes = intOption(values, 'nodes', 3000, 100, 100_000_000);
  const seed = intOption(values, 'seed', 1, 0, 4294967295);
  const command = `npm run winprob-fit -- --games GAME --count ${count} --nodes ${nodes} --seed ${seed} --write`;
  const fitted: Record<string, { scale: number; exponent: number; trainGames: number; trainPositions: number; command: string }> = {};
  for (const id of games as GameId[]) {
    const def = GAMES[id];
    const rng = new Random(seed);
    const started = Date.now();
    const played: Sample[][] = [];
    let capped = 0;
    for (let g = 0; g < count; g++) {
      const samples = playSamples(def, PARAMS[id], nodes, rng);
      if (samples === null) capped++;
      else played.push(samples);
    }
    const cut = Math.ceil((played.length * 2) / 3);
    const train = played.slice(0, cut).flat();
    const test = played.slice(cut).flat();
    const raw = fitCurve(train);
    const curve = { scale: Number(raw.scale.toPrecision(5)), exponent: raw.exponent };
    const cal = calibration(test, curve);
    fitted[id] = { ...curve, trainGames: cut, trainPositions: train.length, command: command.replace('GAME', id) };
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(`\n${id}: scale ${curve.scale}, exponent ${curve.exponent} from ${cut} games, ${train.length} positions; ${seconds} s`);
    console.log(`  held out: ${played.length - cut} games, ${test.length} positions; ${capped} games dropped at ${MAX_PLIES} plies`);
    console.log(`  Brier ${cal.brier.toFixed(4)} (always the mean result: ${cal.baseline.toFixed(4)})`);
    console.log('  | predicted | positions | mean predicted | observed |');
    console.log('  |---|---|---|---|');
    for (const bin of cal.bins) {
      if (bin.count === 0) continue;
      console.log(`  | ${bin.from.toFixed(1)}-${bin.to.toFixed(1)} | ${bin.count} | ${bin.predicted.toFixed(3)} | ${bin.observed.toFixed(3)} |`);
    }
  }
  if (values.write === true) {
    const target = fileURLToPath(new URL('../../src/analysis/winprob.json', import.meta.url));
    // Games not refitted keep their entries.
    const previous = JSON.parse(readFileSync(target, 'utf8')) as { games: Record<string, unknown> };
    const file = {
      comment:
        'Win-probability curves: p = 1 / (1 + exp(-z)), z = sign(score) * (|score| / scale) ^ exponent, score in internal units for the ' +
        'side to move; each entry names the command that fitted it (tools/winprob-fit.ts).',
      games: { ...previous.games, ...fitted },
    };
    writeFileSync(target, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`\nwrote ${target}`);
  }
}

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run winprob-fit',
    usage: USAGE,
    options: {
      games: { type: 'string' },
      count: { type: 'string' },
      nodes: { type: 'string' },
      seed: { type: 'string' },
      write: { type: 'boolean' },
    },
  },
  main,
);
