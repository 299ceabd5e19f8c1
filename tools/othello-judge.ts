/**
 * Post-mortem of an Othello match record (docs/othello-strength.md): an NBoard engine at a fixed depth
 * (the judge) scores every position after the opening, and the summary says where the games were won
 * and lost:
 *
 *   npm run othello-judge -- --games r8x-1000-n22.jsonl --engine "$E" --depth 18 --out judged.jsonl
 *
 * - the judged score by stage: the judge's value at the first position with at most E empties, as a
 *   score (win 1, draw 1/2), next to what the games ended with from there;
 * - the moves that worsened the mover's outcome by the judge's sign (a win to a draw or a loss, a draw to a
 *   loss), from each stage's empties down to the next's: sure where the judge searches to the end (NTest at
 *   depth 18: from 28 empties), a guess above, where the judged score also drifts toward 50% with the judge's
 *   error; a move next to a position without a value (below) is not counted, so a win turned into an exact
 *   draw shows only in the "ended with" column;
 * - the discs each side gave away per move by stage: the judge's value before the move less its value
 *   after it, from the mover's side (after the last move, the final result).
 *
 * The judge's values are its own (heuristic until it solves), so the figures are estimates; a judge
 * that searches deeper than both players makes them sharper. A position the judge answers without a
 * value is skipped (NTest gives none in its win/loss/draw phase, about 20-26 empties at depth 18, nor
 * for an exact draw): the stage rows at 26 empties and fewer then count fewer games, drawn ones mostly
 * left out, and the moves around such positions are not in the discs table. --out is resumable (JSON lines, one game
 * each) and --part K/M judges every M-th game, so two runs share two cores and their files concatenate.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { type ParsedArgs, UsageError, intOption, partOption, runCliIfMain } from '../src/core/cli.js';
import { NBoardEngine } from './nboard-client.js';
import { type MatchGame, gameKey, readJsonLines, readOpenings, readRecord } from './othello-match.js';

export interface JudgedGame {
  readonly opening: number;
  readonly kibitz: 'B' | 'W';
  /** Index in the game's moves of the first judged position (the opening's length). */
  readonly from: number;
  /** The judge's value of the position before moves[from + i], for the side to move; null for a pass or no value. */
  readonly values: (number | null)[];
}

/** Empties thresholds of the judged-score table. */
export const STAGES = [50, 46, 42, 38, 34, 30, 28, 26, 24, 22, 20] as const;

export interface StageScore {
  readonly empties: number;
  readonly games: number;
  /** The judged score of Kibitz at the first position with at most `empties` empty squares. */
  readonly judged: number;
  readonly ahead: { readonly games: number; readonly points: number };
  readonly behind: { readonly games: number; readonly points: number };
  readonly level: { readonly games: number; readonly points: number };
  /** Moves with `empties` down to the next stage's empties + 1 (to the end, the last stage) that worsened the mover's judged outcome. */
  readonly kibitzWorsened: number;
  readonly engineWorsened: number;
}

export interface PhaseLoss {
  /** Empties before the move: from `low` to `low + 9`. */
  readonly low: number;
  readonly kibitzMoves: number;
  readonly engineMoves: number;
  /** Discs given away per game in this phase. */
  readonly kibitzPerGame: number;
  readonly enginePerGame: number;
}

export interface JudgeSummary {
  readonly games: number;
  readonly score: number;
  readonly stages: StageScore[];
  readonly phases: PhaseLoss[];
}

interface Judged {
  /** Empties before each move from `from` on (passes included, with the empties of their position). */
  readonly empties: number[];
  /** Kibitz to move before each move. */
  readonly kibitzToMove: boolean[];
}

function walk(game: MatchGame, from: number): Judged {
  const empties: number[] = [];
  const kibitzToMove: boolean[] = [];
  let filled = 0;
  for (let i = 0; i < game.moves.length; i++) {
    if (i >= from) {
      empties.push(60 - filled);
      kibitzToMove.push((i % 2 === 0 ? 'B' : 'W') === game.kibitz);
    }
    if (game.moves[i] !== 'pass') filled++;
  }
  return { empties, kibitzToMove };
}

/** The judge's value after move i from the mover's side (the next position's, past a pass; the result after the last move). */
function valueAfter(g: MatchGame, j: JudgedGame, w: Judged, i: number): number | null {
  const last = g.moves.length - 1 - j.from;
  const final = (w.kibitzToMove[i] ? 1 : -1) * g.discs;
  if (i === last) return final;
  if (g.moves[j.from + i + 1] !== 'pass') {
    const next = j.values[i + 1];
    return next === null || next === undefined ? null : -next;
  }
  return i + 2 <= last ? (j.values[i + 2] ?? null) : final;
}

/** The summary of judged games against their match record (games missing from either are left out). */
export function summariseJudged(record: readonly MatchGame[], judged: readonly JudgedGame[]): JudgeSummary {
  const games = new Map(record.map((g) => [gameKey(g), g]));
  const pairs = judged.flatMap((j) => {
    const g = games.get(gameKey(j));
    return g === undefined ? [] : [{ g, j, walk: walk(g, j.from) }];
  });
  // One walk over the moves: the discs given away by phase, and the worsened outcomes by stage row.
  const phases: PhaseLoss[] = [];
  for (let low = 50; low >= 0; low -= 10) phases.push({ low, kibitzMoves: 0, engineMoves: 0, kibitzPerGame: 0, enginePerGame: 0 });
  const total = phases.map(() => ({ kibitz: 0, engine: 0 }));
  const worsened = STAGES.map(() => ({ kibitz: 0, engine: 0 }));
  for (const { g, j, walk: w } of pairs) {
    const last = g.moves.length - 1 - j.from;
    for (let i = 0; i <= last; i++) {
      const before = j.values[i];
      if (g.moves[j.from + i] === 'pass' || before === null || before === undefined) continue;
      const after = valueAfter(g, j, w, i);
      if (after === null) continue;
      const phase = Math.min(5, Math.floor(w.empties[i] / 10));
      const at = 5 - phase;
      const loss = Math.max(0, before - after);
      // The stage row holding this move: its empties at most the row's and more than the next row's.
      const row = STAGES.findIndex((threshold, k) => w.empties[i] <= threshold && (k + 1 === STAGES.length || w.empties[i] > STAGES[k + 1]));
      const worse = row >= 0 && Math.sign(after) < Math.sign(before) ? 1 : 0;
      if (w.kibitzToMove[i]) {
        total[at].kibitz += loss;
        phases[at] = { ...phases[at], kibitzMoves: phases[at].kibitzMoves + 1 };
        if (worse) worsened[row].kibitz++;
      } else {
        total[at].engine += loss;
        phases[at] = { ...phases[at], engineMoves: phases[at].engineMoves + 1 };
        if (worse) worsened[row].engine++;
      }
    }
  }
  const stages: StageScore[] = [];
  for (const [index, threshold] of STAGES.entries()) {
    const groups = { ahead: { games: 0, points: 0 }, behind: { games: 0, points: 0 }, level: { games: 0, points: 0 } };
    let judgedPoints = 0;
    let counted = 0;
    for (const { g, j, walk: w } of pairs) {
      const at = w.empties.findIndex((e, i) => e <= threshold && j.values[i] !== null && j.values[i] !== undefined);
      if (at < 0) continue;
      const value = (w.kibitzToMove[at] ? 1 : -1) * j.values[at]!;
      const group = value > 0 ? groups.ahead : value < 0 ? groups.behind : groups.level;
      group.games++;
      group.points += g.points;
      judgedPoints += value > 0 ? 1 : value < 0 ? 0 : 0.5;
      counted++;
    }
    if (counted === 0) continue;
    const { kibitz: kibitzWorsened, engine: engineWorsened } = worsened[index];
    stages.push({ empties: threshold, games: counted, judged: judgedPoints / counted, ...groups, kibitzWorsened, engineWorsened });
  }
  const n = Math.max(1, pairs.length);
  return {
    games: pairs.length,
    score: pairs.reduce((s, { g }) => s + g.points, 0) / n,
    stages,
    phases: phases.map((p, i) => ({ ...p, kibitzPerGame: total[i].kibitz / n, enginePerGame: total[i].engine / n })),
  };
}

export function formatJudgeSummary(s: JudgeSummary): string[] {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const points = (p: { games: number; points: number }): string => `${p.games} (${p.points} points)`;
  const lines = [
    `${s.games} games, Kibitz scored ${pct(s.score)}`,
    'empties <= | games | judged score | ahead (ended with) | level | behind | outcome worsened to the next row: Kibitz | engine',
  ];
  for (const st of s.stages) {
    const groups = `${points(st.ahead)} | ${points(st.level)} | ${points(st.behind)}`;
    lines.push(`${st.empties} | ${st.games} | ${pct(st.judged)} | ${groups} | ${st.kibitzWorsened} | ${st.engineWorsened}`);
  }
  lines.push('empties before the move | discs given away per game: Kibitz (moves) | engine (moves)');
  for (const p of s.phases) {
    lines.push(`${p.low}-${p.low + 9} | ${p.kibitzPerGame.toFixed(2)} (${p.kibitzMoves}) | ${p.enginePerGame.toFixed(2)} (${p.engineMoves})`);
  }
  return lines;
}

export interface JudgeOptions {
  readonly engine: string;
  readonly depth: number;
  readonly record: readonly MatchGame[];
  readonly openings: readonly (readonly string[])[];
  readonly out: string;
  readonly part?: { readonly part: number; readonly parts: number };
}

/** Judges the record's games not yet in `out` (this part's share), appending one line per game; returns all of `out`. */
export async function judgeGames(options: JudgeOptions, print: (line: string) => void = console.log): Promise<JudgedGame[]> {
  const judged = readJsonLines<JudgedGame>(options.out);
  const done = new Set(judged.map(gameKey));
  const { part, parts } = options.part ?? { part: 0, parts: 1 };
  const todo = options.record.filter((g, i) => i % parts === part && !done.has(gameKey(g)));
  if (todo.length === 0) return judged;
  const unknown = todo.find((g) => options.openings[g.opening] === undefined);
  if (unknown !== undefined) throw new UsageError(`game of opening ${unknown.opening}: no such opening in the openings file`);
  const engine = new NBoardEngine(options.engine);
  try {
    await engine.setDepth(options.depth);
    for (const game of todo) {
      const from = options.openings[game.opening].length;
      const values: (number | null)[] = [];
      for (let i = from; i < game.moves.length; i++) {
        if (game.moves[i] === 'pass') values.push(null);
        else values.push((await engine.bestMove(game.moves.slice(0, i))).eval ?? null);
      }
      const line: JudgedGame = { opening: game.opening, kibitz: game.kibitz, from, values };
      appendFileSync(options.out, `${JSON.stringify(line)}\n`);
      judged.push(line);
      print(`judged opening ${game.opening} (Kibitz ${game.kibitz}): ${values.length} positions`);
    }
  } finally {
    await engine.close();
  }
  return judged;
}

const usage = `npm run othello-judge -- --games RECORD --engine CMD --depth N --out FILE [--part K/M] [--openings FILE]

An NBoard engine at a fixed depth scores every position of the games of an othello-match record (after
the opening); prints Kibitz's judged score by stage and the discs each side gave away per move by stage.
--out is resumable: a rerun judges only the games not in it, then prints the summary of all of them.
Positions the judge answers without a value (NTest: its win/loss/draw phase, exact draws) are skipped.

  --games RECORD   othello-match record (JSON lines)
  --engine CMD     the judge: an NBoard engine's command line (run by the shell)
  --depth N        the judge's search depth
  --out FILE       judged games (JSON lines; created or continued)
  --part K/M       judge only games i with i % M = K - 1 (two runs on two cores, files concatenated)
  --openings FILE  the match's openings (default tools/othello-openings.txt)
  -h, --help       this text
`;

const spec = {
  name: 'othello-judge',
  usage,
  options: {
    games: { type: 'string' },
    engine: { type: 'string' },
    depth: { type: 'string' },
    out: { type: 'string' },
    part: { type: 'string' },
    openings: { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  for (const name of ['games', 'engine', 'depth', 'out'] as const) if (values[name] === undefined) throw new UsageError(`--${name} is required`);
  if (!existsSync(values.games!)) throw new UsageError(`--games: no record file '${values.games}'`);
  const record = readRecord(values.games!);
  const judged = await judgeGames({
    engine: values.engine!,
    depth: intOption(values, 'depth', 0, 1, 60),
    record,
    openings: readOpenings(values.openings),
    out: values.out!,
    ...(values.part === undefined ? {} : { part: partOption(values, 'part') }),
  });
  for (const line of formatJudgeSummary(summariseJudged(record, judged))) console.log(line);
}

runCliIfMain(import.meta.url, spec, main);
