/**
 * npm run gomoku-fit -- [--records LIST] [--skip N] [--holdout N] [--write]
 *
 * Texel-style fit of the K = 5 pattern evaluation's values (src/games/mnk/pattern-values.json) to
 * finished gomoku games (tools/records/gomoku-*.jsonl and gomoku-curve/, pbrain-match records).
 *
 * Samples: every position of every game decided by a five on the board (duplicates dropped), from ply
 * --skip on, where the evaluation's heuristic branch applies (the side to move has no five cell and no
 * winning four, the opponent fewer than two five cells), labelled 1 / 0 by the game's result for the
 * side to move. The evaluation is linear in the values: per side, the count of (empty cell, direction)
 * pairs of each line class and of each bonus combination (pattern-tables.ts), eval = tempo * (values ·
 * mover's counts) - values · opponent's counts. Every --holdout-th game is held out.
 *
 * The fit: first the scale K of p = 1 / (1 + exp(-eval / K)) with the hand-set values (golden section on
 * log K), then, with K fixed, the values by Newton's method on the log loss (convex in them; a small
 * ridge keeps the Hessian invertible) for each tempo of 4/4 .. 8/4 (the engine takes quarters), keeping
 * the tempo with the least training loss. Printed: training and held-out log loss of hand-set and fitted
 * values, and the fitted values rounded to integers; --write stores them in pattern-values.json.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import {
  C_BLOCK4,
  C_FLEX3,
  CLASS_COUNT,
  F_FIVE,
  F_WIN4,
  PATTERN_VALUES,
  type PatternValues,
} from '../src/games/mnk/pattern-tables.js';
import { PatternBoard } from '../src/games/mnk/patterns.js';

const USAGE = `npm run gomoku-fit -- [options]

Fits the K = 5 pattern evaluation's cell values to finished gomoku games (Texel tuning) and reports the
held-out log loss of the hand-set and the fitted values.

Options:
  --records LIST  comma-separated JSONL game records (default: tools/records/gomoku-*.jsonl and gomoku-curve/*.jsonl)
  --skip N        first ply used (default 6)
  --holdout N     every N-th game is held out (default 10)
  --write         store the fitted values in src/games/mnk/pattern-values.json
  --help          this text
`;

/** Parameters: class values ONE..FIVE (NONE stays 0), then doubleFour, fourThree, doubleThree. */
export const PARAMS = CLASS_COUNT - 1 + 3;
/** Per sample: the mover's counts, the opponent's, the result. */
export const ROW = 2 * PARAMS + 1;

export interface GameRecord {
  readonly size: number;
  readonly rule: number;
  readonly moves: readonly (readonly [number, number])[];
  readonly winner: number | null;
  readonly reason?: string;
}

/** Parameter vector of a values table (without the tempo). */
export function paramsOf(values: PatternValues): Float64Array {
  return Float64Array.of(...values.classValues.slice(1), values.doubleFour, values.fourThree, values.doubleThree);
}

/** Adds side s's counts (class per empty cell and direction, bonus combinations) to out[at ..]. */
function addCounts(board: PatternBoard, cells: Uint8Array, s: number, out: Float64Array, at: number): void {
  for (let cell = 0; cell < cells.length; cell++) {
    if (cells[cell] !== 0) continue;
    let fours = 0;
    let threes = 0;
    for (let d = 0, rest = board.keys[cell * 2 + s]; d < 4; d++, rest = (rest / CLASS_COUNT) | 0) {
      const c = rest % CLASS_COUNT;
      if (c > 0) out[at + c - 1]++;
      if (c === C_BLOCK4) fours++;
      else if (c === C_FLEX3) threes++;
    }
    const bonus = fours >= 2 ? 0 : fours === 1 && threes > 0 ? 1 : threes >= 2 ? 2 : -1;
    if (bonus >= 0) out[at + CLASS_COUNT - 1 + bonus]++;
  }
}

/** The samples of one game (rows of ROW numbers), none when it was not decided by a five. */
export function gameSamples(game: GameRecord, skip: number): Float64Array[] {
  const moves = game.moves;
  // The side that made the last move made the five.
  if (game.winner !== (moves.length - 1) % 2) return [];
  const n = game.size;
  const cells = new Uint8Array(n * n);
  const board = new PatternBoard(n, n, game.rule === 1, cells);
  const rows: Float64Array[] = [];
  for (let ply = 0; ply < moves.length; ply++) {
    const s = ply % 2;
    const o = 1 - s;
    if (ply >= skip && board.count(s, F_FIVE) === 0 && board.count(s, F_WIN4) === 0 && board.count(o, F_FIVE) < 2) {
      const row = new Float64Array(ROW);
      addCounts(board, cells, s, row, 0);
      addCounts(board, cells, o, row, PARAMS);
      row[ROW - 1] = game.winner === s ? 1 : 0;
      rows.push(row);
    }
    const [x, y] = moves[ply];
    const cell = y * n + x;
    cells[cell] = s + 1;
    board.place(cell, s);
  }
  return rows;
}

/** Evaluation of a sample under the parameters and the tempo. */
export function evalOf(row: Float64Array, w: Float64Array, tempo: number): number {
  let own = 0;
  let enemy = 0;
  for (let i = 0; i < PARAMS; i++) {
    own += w[i] * row[i];
    enemy += w[i] * row[PARAMS + i];
  }
  return tempo * own - enemy;
}

/** Mean log loss of p = sigmoid(eval / k) against the results. */
export function logLoss(rows: readonly Float64Array[], w: Float64Array, tempo: number, k: number): number {
  let sum = 0;
  for (const row of rows) {
    const z = evalOf(row, w, tempo) / k;
    const y = row[ROW - 1];
    // log(1 + e^-z) for y = 1, log(1 + e^z) for y = 0, computed without overflow.
    const m = y === 1 ? -z : z;
    sum += m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m));
  }
  return sum / rows.length;
}

/** Gradient of the mean log loss in the parameters (tempo and k fixed). */
export function lossGradient(rows: readonly Float64Array[], w: Float64Array, tempo: number, k: number): Float64Array {
  const g = new Float64Array(PARAMS);
  for (const row of rows) {
    const p = 1 / (1 + Math.exp(-evalOf(row, w, tempo) / k));
    const r = (p - row[ROW - 1]) / k;
    for (let i = 0; i < PARAMS; i++) g[i] += r * (tempo * row[i] - row[PARAMS + i]);
  }
  for (let i = 0; i < PARAMS; i++) g[i] /= rows.length;
  return g;
}

/** The scale k minimising the log loss of fixed values (golden section on log k over [lo, hi]). */
export function fitScale(rows: readonly Float64Array[], w: Float64Array, tempo: number, lo = 1, hi = 1e5): number {
  let a = Math.log(lo);
  let b = Math.log(hi);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 80; i++) {
    const c = b - phi * (b - a);
    const d = a + phi * (b - a);
    if (logLoss(rows, w, tempo, Math.exp(c)) < logLoss(rows, w, tempo, Math.exp(d))) b = d;
    else a = c;
  }
  return Math.exp((a + b) / 2);
}

/** Newton's method on the log loss in the parameters (tempo and k fixed), from w0. */
export function fitValues(rows: readonly Float64Array[], w0: Float64Array, tempo: number, k: number, iterations = 30): Float64Array {
  const w = Float64Array.from(w0);
  const x = new Float64Array(PARAMS);
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(PARAMS);
    const h = new Float64Array(PARAMS * PARAMS);
    for (const row of rows) {
      for (let i = 0; i < PARAMS; i++) x[i] = (tempo * row[i] - row[PARAMS + i]) / k;
      let z = 0;
      for (let i = 0; i < PARAMS; i++) z += w[i] * x[i];
      const p = 1 / (1 + Math.exp(-z));
      const r = p - row[ROW - 1];
      const v = p * (1 - p);
      for (let i = 0; i < PARAMS; i++) {
        g[i] += r * x[i];
        for (let j = 0; j <= i; j++) h[i * PARAMS + j] += v * x[i] * x[j];
      }
    }
    for (let i = 0; i < PARAMS; i++) {
      for (let j = 0; j < i; j++) h[j * PARAMS + i] = h[i * PARAMS + j];
      // A small ridge: classes that never occur keep their values.
      h[i * PARAMS + i] += 1e-6 * rows.length;
    }
    const step = solve(h, g);
    let largest = 0;
    for (let i = 0; i < PARAMS; i++) {
      w[i] -= step[i];
      largest = Math.max(largest, Math.abs(step[i]));
    }
    if (largest < 1e-3) break;
  }
  return w;
}

/** Solves a x = b (Gaussian elimination with partial pivoting). */
function solve(a: Float64Array, b: Float64Array): Float64Array {
  const n = b.length;
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[pivot * n + c])) pivot = r;
    if (pivot !== c) {
      for (let j = 0; j < n; j++) [m[c * n + j], m[pivot * n + j]] = [m[pivot * n + j], m[c * n + j]];
      [x[c], x[pivot]] = [x[pivot], x[c]];
    }
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c] / m[c * n + c];
      for (let j = c; j < n; j++) m[r * n + j] -= f * m[c * n + j];
      x[r] -= f * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let j = r + 1; j < n; j++) x[r] -= m[r * n + j] * x[j];
    x[r] /= m[r * n + r];
  }
  return x;
}

function defaultRecords(root: string): string[] {
  const files = readdirSync(`${root}/tools/records`).filter((f) => f.startsWith('gomoku-') && f.endsWith('.jsonl'));
  const curve = readdirSync(`${root}/tools/records/gomoku-curve`).filter((f) => f.endsWith('.jsonl'));
  return [...files.map((f) => `${root}/tools/records/${f}`), ...curve.map((f) => `${root}/tools/records/gomoku-curve/${f}`)];
}

function main({ values }: { values: Record<string, unknown> }): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const skip = intOption(values, 'skip', 6, 0, 200);
  const holdout = intOption(values, 'holdout', 10, 2, 1000);
  const records = typeof values.records === 'string' ? values.records.split(',') : defaultRecords(root);
  const seen = new Set<string>();
  const train: Float64Array[] = [];
  const test: Float64Array[] = [];
  let games = 0;
  for (const file of records) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`--records: cannot read ${file}`);
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const game = JSON.parse(line) as GameRecord;
      const id = `${game.size}/${game.rule}/${JSON.stringify(game.moves)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const rows = gameSamples(game, skip);
      if (rows.length === 0) continue;
      (games % holdout === holdout - 1 ? test : train).push(...rows);
      games++;
    }
  }
  console.log(`${games} games decided by a five, ${train.length} training and ${test.length} held-out positions`);
  const hand = paramsOf(PATTERN_VALUES);
  const handTempo = PATTERN_VALUES.tempoQuarters / 4;
  const k = fitScale(train, hand, handTempo);
  const handLoss = `train ${logLoss(train, hand, handTempo, k).toFixed(4)}, held out ${logLoss(test, hand, handTempo, k).toFixed(4)}`;
  console.log(`scale K = ${k.toFixed(1)}; hand-set: ${handLoss}`);
  let best: { w: Float64Array; quarters: number; loss: number } | undefined;
  for (let quarters = 4; quarters <= 8; quarters++) {
    const w = fitValues(train, hand, quarters / 4, k);
    const loss = logLoss(train, w, quarters / 4, k);
    console.log(`tempo ${quarters}/4: train ${loss.toFixed(4)}, held out ${logLoss(test, w, quarters / 4, k).toFixed(4)}`);
    if (best === undefined || loss < best.loss) best = { w, quarters, loss };
  }
  const w = best!.w.map((v) => Math.max(0, Math.round(v)));
  const fitted: PatternValues = {
    classValues: [0, ...w.slice(0, CLASS_COUNT - 1)],
    doubleFour: w[CLASS_COUNT - 1],
    fourThree: w[CLASS_COUNT],
    doubleThree: w[CLASS_COUNT + 1],
    tempoQuarters: best!.quarters,
  };
  const tempo = fitted.tempoQuarters / 4;
  console.log(`fitted (rounded): train ${logLoss(train, w, tempo, k).toFixed(4)}, held out ${logLoss(test, w, tempo, k).toFixed(4)}`);
  console.log(JSON.stringify(fitted));
  if (values.write === true) {
    const target = `${root}/src/games/mnk/pattern-values.json`;
    const previous = JSON.parse(readFileSync(target, 'utf8')) as { comment: string };
    writeFileSync(target, `${JSON.stringify({ comment: previous.comment, ...fitted }, null, 2)}\n`);
    console.log(`wrote ${target}`);
  }
}

runCliIfMain(
  import.meta.url,
  {
    name: 'npm run gomoku-fit',
    usage: USAGE,
    options: {
      records: { type: 'string' },
      skip: { type: 'string' },
      holdout: { type: 'string' },
      write: { type: 'boolean' },
    },
  },
  main,
);
