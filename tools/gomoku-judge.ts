/**
 * npm run gomoku-judge -- --records LIST --judge CMD --out FILE [--judge-ms T] [--player NAME] [--part K/M]
 *
 * Where a K = 5 player's lost games turned, by a judge: a pbrain brain (Rapfi, or Kibitz itself) evaluates every
 * position of each game the player lost, from the end of the opening, for the side to move (a turn of --judge-ms each);
 * a game stops being judged once the judge finds the player to move lost (a mate in its report). The game's turn is the
 * player's last move from a position judged above -HOLD (for the player) to one judged at -LOST or below (or lost): the
 * move that gave the game away in the judge's eyes. A game with no such move either started at -HOLD or below (the
 * opening already lost, by the judge) or declined over several moves. The judge's values are its own (heuristic
 * until it finds a mate), so the figures are estimates; gomoku-turns.ts gives the proven turns of the pattern VCT.
 * --out is resumable (JSON lines, one game each) and --part K/M judges every M-th lost game, so two runs share two
 * cores and their files concatenate.
 */
import { appendFileSync } from 'node:fs';
import { type ParsedArgs, UsageError, intOption, partOption, runCliIfMain } from '../src/core/cli.js';
import { ENGINE_MATE, type GameRecord, engineEvalAfter } from './gomoku-fit.js';
import { readJsonLines } from './othello-match.js';
import { LineProcess } from './line-process.js';
import { type BrainSide, pairKey, startBrain } from './pbrain-match.js';
import { lostBy } from './gomoku-turns.js';

export interface JudgedGame {
  readonly seed: number;
  readonly game: number;
  /** The player's side: 0 black (first), 1 white. */
  readonly side: number;
  /** Index in the game's moves of the first judged position (the opening's length). */
  readonly from: number;
  /** The judge's value of the position before moves[from + i], for the side to move; null: no value reported. */
  readonly values: (number | null)[];
}

export interface JudgedTurn {
  /** 'move': a move gave the game away; 'opening': judged lost from the player's first position; 'decline': neither. */
  readonly kind: 'move' | 'opening' | 'decline';
  /** The player's move number after the opening (1 for its first own choice), for kind 'move'. */
  readonly moveNumber?: number;
  /** The judge's values (player's view) before and after that move. */
  readonly before?: number;
  readonly after?: number;
}

/** The judged values from the player's view, by position (null where the judge gave none). */
export function playerValues(judged: JudgedGame): (number | null)[] {
  return judged.values.map((v, i) => (v === null ? null : (judged.from + i) % 2 === judged.side ? v : -v));
}

/** The game's turn by the judge: the player's last move from above -hold to -lost or below. */
export function judgedTurn(judged: JudgedGame, hold: number, lost: number): JudgedTurn {
  const values = playerValues(judged);
  let turn: JudgedTurn | null = null;
  let moveNumber = 0;
  let first: number | null | undefined;
  for (let i = 0; i < values.length; i++) {
    if ((judged.from + i) % 2 !== judged.side) continue;
    moveNumber++;
    if (first === undefined) first = values[i];
    const before = values[i];
    const after = i + 1 < values.length ? values[i + 1] : null;
    if (before !== null && after !== null && before > -hold && after <= -lost) turn = { kind: 'move', moveNumber, before, after };
  }
  if (turn !== null) return turn;
  return first !== undefined && first !== null && first <= -hold ? { kind: 'opening' } : { kind: 'decline' };
}

/** The opening pairs (`seed/pair`) in which `player` lost both games. */
export function pairsLostTwice(games: readonly GameRecord[], player: string): Set<string> {
  const lostIn = new Map<string, number>();
  for (const g of games) {
    if (lostBy(g, player) < 0) continue;
    const key = pairKey(g.seed ?? 0, g.game ?? 1);
    lostIn.set(key, (lostIn.get(key) ?? 0) + 1);
  }
  return new Set([...lostIn].filter(([, n]) => n === 2).map(([key]) => key));
}

/**
 * The summary lines: each game's turn, the turns by the player's move number, and the lost games by the judged value of
 * the opening (the first judged position, from the player's view: within ±level, above, below), each with how many of
 * them lie in a pair the player lost twice (`twice`; the other game of the pair was lost with the other colour).
 */
export function reportJudged(judged: readonly JudgedGame[], hold: number, lost: number, level = 150, twice = new Set<string>()): string[] {
  const lines: string[] = [];
  const byMove = new Map<string, number>();
  let opening = 0;
  let decline = 0;
  const show = (v: number | undefined): string => (v === undefined ? '?' : Math.abs(v) >= ENGINE_MATE ? (v > 0 ? 'won' : 'lost') : `${v}`);
  for (const g of judged) {
    const turn = judgedTurn(g, hold, lost);
    let text: string;
    if (turn.kind === 'move') {
      const m = turn.moveNumber!;
      const bucket = m <= 2 ? `${m}` : m <= 5 ? '3-5' : m <= 10 ? '6-10' : '11+';
      byMove.set(bucket, (byMove.get(bucket) ?? 0) + 1);
      text = `the player's move ${m}: ${show(turn.before)} -> ${show(turn.after)}`;
    } else if (turn.kind === 'opening') {
      opening++;
      text = 'lost from the opening';
    } else {
      decline++;
      text = 'no single move';
    }
    lines.push(`seed ${g.seed} game ${g.game} (${g.side === 0 ? 'black' : 'white'}): ${text}`);
  }
  const buckets = ['1', '2', '3-5', '6-10', '11+'].map((b) => `${b}:${byMove.get(b) ?? 0}`).join(' ');
  lines.push(
    '',
    `${judged.length} lost games judged; the turn at the player's move ${buckets}; judged lost from the opening ${opening}; ` +
      `no single move ${decline} (hold above -${hold}, lost at -${lost} or below, the judge's units)`,
  );
  const openings = { level: [0, 0], for: [0, 0], against: [0, 0] };
  for (const g of judged) {
    const first = playerValues(g)[0];
    if (first === null || first === undefined) continue;
    const row = first > level ? openings.for : first < -level ? openings.against : openings.level;
    row[0]++;
    if (twice.has(pairKey(g.seed, g.game))) row[1]++;
  }
  lines.push(
    `the opening as judged (its first position, the player's view): level (within ±${level}) ${openings.level[0]} ` +
      `(in pairs lost twice ${openings.level[1]}), for the player ${openings.for[0]} (${openings.for[1]}), ` +
      `against the player ${openings.against[0]} (${openings.against[1]})`,
  );
  return lines;
}

export interface JudgeOptions {
  readonly command: string;
  readonly turnMs: number;
  readonly player: string;
  readonly out: string;
  readonly part: number;
  readonly parts: number;
}

/** Judges the lost games not yet in `out` (this part of them), appending each to it; returns every judged game. */
export async function judgeLostGames(games: readonly GameRecord[], options: JudgeOptions, print: (line: string) => void): Promise<JudgedGame[]> {
  const judged = readJsonLines<JudgedGame>(options.out);
  const done = new Set(judged.map((g) => `${g.seed}:${g.game}`));
  const lostGames = games.filter((g) => lostBy(g, options.player) >= 0);
  const todo = lostGames.filter((g, i) => i % options.parts === options.part && !done.has(`${g.seed}:${g.game}`));
  if (todo.length === 0) return judged;
  const brain = new LineProcess('sh', ['-c', options.command]);
  const side: BrainSide = { name: options.command, process: brain, timeLeft: 0, moveMs: [] };
  let size = -1;
  let rule = -1;
  try {
    for (const game of todo) {
      if (game.size !== size || game.rule !== rule) {
        await startBrain(side, { size: game.size, turnMs: options.turnMs, matchMs: 0, rule: game.rule });
        size = game.size;
        rule = game.rule;
      }
      const player = lostBy(game, options.player);
      const from = game.opening?.length ?? 0;
      const values: (number | null)[] = [];
      for (let ply = from; ply < game.moves.length; ply++) {
        brain.send('RESTART');
        await brain.next((l) => /^OK\b/.test(l), 60_000);
        const value = await engineEvalAfter(brain, game.moves.slice(0, ply));
        values.push(value);
        if (value !== null && ply % 2 === player && value <= -ENGINE_MATE) break;
      }
      const line: JudgedGame = { seed: game.seed ?? 0, game: game.game ?? 0, side: player, from, values };
      appendFileSync(options.out, `${JSON.stringify(line)}\n`);
      judged.push(line);
      print(`judged seed ${line.seed} game ${line.game}: ${values.length} positions`);
    }
  } finally {
    brain.send('END');
    await brain.close();
  }
  return judged;
}

const usage = `npm run gomoku-judge -- --records LIST --judge CMD --out FILE [options]

A pbrain brain (the judge) evaluates every position of the games a player lost (pbrain-match records), and the
summary says at which of the player's moves each game turned: its last move from a position judged above -HOLD
to one at -LOST or below (the judge's units; a mate it reports counts as lost). --out is resumable: a rerun judges
only the games not in it, then prints the summary of all of them.

Options:
  --records LIST   comma-separated JSONL records of pbrain-match (required)
  --judge CMD      the judge: a pbrain brain's command line, run by the shell (required)
  --out FILE       judged games (JSON lines; created or continued; required)
  --judge-ms T     the judge's turn a position (default 2000)
  --player NAME    the player examined: the side whose name contains NAME (default pbrain.js, Kibitz's brain)
  --hold N         a position above -N for the player still holds (default 400)
  --lost N         a position at -N or below is lost (default 800)
  --level N        an opening judged within ±N for the player is level (default 150)
  --part K/M       judge only lost games i with i % M = K - 1 (two runs on two cores, files concatenated)
  --help           this text
`;

const spec = {
  name: 'npm run gomoku-judge',
  usage,
  options: {
    records: { type: 'string' },
    judge: { type: 'string' },
    out: { type: 'string' },
    'judge-ms': { type: 'string' },
    player: { type: 'string' },
    hold: { type: 'string' },
    lost: { type: 'string' },
    level: { type: 'string' },
    part: { type: 'string' },
  },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  for (const name of ['records', 'judge', 'out'] as const) if (values[name] === undefined) throw new UsageError(`--${name} is required`);
  const { part, parts } = partOption(values, 'part');
  const games = values.records!.split(',').flatMap((file) => readJsonLines<GameRecord>(file));
  const hold = intOption(values, 'hold', 400, 0);
  const lost = intOption(values, 'lost', 800, 1);
  const level = intOption(values, 'level', 150, 0);
  const player = values.player ?? 'pbrain.js';
  const judged = await judgeLostGames(
    games,
    { command: values.judge!, turnMs: intOption(values, 'judge-ms', 2000, 1), player, out: values.out!, part, parts },
    console.log,
  );
  for (const line of reportJudged(judged, hold, lost, level, pairsLostTwice(games, player))) console.log(line);
}

runCliIfMain(import.meta.url, spec, main);
