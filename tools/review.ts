/**
 * npm run review -- --record games.jsonl [--game tablut] [--params "m=9&n=9&k=5"] [--player default]
 *                   [--profile default] [--ms 1000 | --depth 8] [--lost]
 *
 * Re-searches the recorded games of `npm run arena -- --record games.jsonl` with a longer budget, to
 * find the moves that lost them. For every move `player` made after the opening it prints the move
 * played, the move the longer search prefers (when it differs), the longer search's score of its own
 * choice and of the move played (from the mover's point of view; the played move is scored by
 * searching the position after it), and the drop between them. --lost keeps the games `player` did
 * not win.
 */
import { readFileSync } from 'node:fs';
import { findGame } from '../src/games/registry.js';
import type { GameDefinition, SearchPosition } from '../src/games/types.js';
import { legalMoveCodes, statusOf } from '../src/http/game-service.js';
import { analyse } from '../src/search/analyse.js';
import { DRAW_SCORE, WIN_SCORE } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import type { GameRecord } from './arena.js';
import { firstMoverSide, parseParams, startPosition } from './arena.js';
import { type ParsedArgs, UsageError, runCliIfMain } from '../src/core/cli.js';

export interface ReviewedMove {
  /** Ply number from the start position (the opening included). */
  ply: number;
  played: string;
  preferred: string;
  /**
   * The longer search's score of its preferred move and of the move played, for the mover. A forced
   * move (the only one the search considers) gets the played move's score: nothing was lost there.
   */
  bestScore: number;
  playedScore: number;
  depth: number;
  forced: boolean;
}

export interface Analyst {
  /** Best move (code), its score for the side to move, the depth reached, and whether it was the only move searched. */
  search(pos: SearchPosition): { move: number; score: number; depth: number; forced: boolean };
}

export function makeAnalyst(def: GameDefinition<SearchPosition>, profile: string, limits: { ms?: number; depth?: number }): Analyst {
  const searcher = new Searcher(new TranspositionTable(64));
  return {
    search(pos) {
      const own = def.engine.restore(def.engine.snapshot(pos), { profile, seed: 1 });
      searcher.tt.clear();
      const bound = limits.depth !== undefined ? { maxDepth: limits.depth } : { deadline: Date.now() + (limits.ms ?? 1000) };
      const result = analyse(def.engine, own, searcher, bound);
      return { move: result.move, score: result.score, depth: result.depth, forced: result.stopReason === 'onlyMove' };
    },
  };
}

/** The moves of `player` in one recorded game (after the opening), each searched twice by `analyst`. */
export function reviewGame(
  def: GameDefinition<SearchPosition>,
  params: Record<string, unknown>,
  record: GameRecord,
  player: string,
  analyst: Analyst,
): ReviewedMove[] {
  const pos = startPosition(def, params);
  const all = [...record.opening, ...record.moves];
  const firstMover = firstMoverSide(pos, record.opening.length);
  const reviewed: ReviewedMove[] = [];
  for (let ply = 0; ply < all.length; ply++) {
    const decoded = def.decodeMove(pos, all[ply], `ply ${ply}`);
    if (!decoded.ok) throw new Error(`game ${record.pair}: ply ${ply} ${all[ply]}: ${decoded.error.message}`);
    if (!legalMoveCodes(pos).includes(decoded.value)) throw new Error(`game ${record.pair}: ply ${ply} ${all[ply]} is not legal there`);
    const mover = pos.side === firstMover ? record.first : record.second;
    if (ply >= record.opening.length && mover === player) {
      const best = analyst.search(pos);
      pos.makeMove(decoded.value);
      const status = statusOf(def, pos);
      // A move that ends the game is scored by its result, as the search scores a win one ply away.
      const playedScore =
        status.status === 'ongoing'
          ? -analyst.search(pos).score
          : status.status === 'draw'
            ? DRAW_SCORE
            : status.winner === def.sideNames[1 - pos.side]
              ? WIN_SCORE - 1
              : -(WIN_SCORE - 1);
      pos.unmakeMove(decoded.value);
      reviewed.push({
        ply,
        played: all[ply],
        preferred: def.encodeMove(pos, best.move).notation,
        bestScore: best.forced ? playedScore : best.score,
        playedScore,
        depth: best.depth,
        forced: best.forced,
      });
    }
    pos.makeMove(decoded.value);
  }
  return reviewed;
}

const spec = {
  name: 'review',
  usage: `npm run review -- --record games.jsonl [--game tablut] [--params "m=9&n=9&k=5"] [--player default]
                  [--profile default] [--ms 1000 | --depth 8] [--lost]

Re-searches the recorded games of \`npm run arena -- --record games.jsonl\` with a longer budget, to
find the moves that lost them. For every move \`player\` made after the opening it prints the move
played, the move the longer search prefers (when it differs), the longer search's score of its own
choice and of the move played (from the mover's point of view; the played move is scored by
searching the position after it), and the drop between them. --lost keeps the games \`player\` did
not win.

  --help  this text`,
  options: {
    record: { type: 'string' },
    game: { type: 'string', default: 'tablut' },
    params: { type: 'string' },
    player: { type: 'string', default: 'default' },
    profile: { type: 'string', default: 'default' },
    ms: { type: 'string' },
    depth: { type: 'string' },
    lost: { type: 'boolean', default: false },
  },
} as const;

function main({ values }: ParsedArgs<typeof spec.options>): void {
  if (values.record === undefined) throw new UsageError('review needs --record <games.jsonl> (written by npm run arena -- --record)');
  const def = findGame(values.game!);
  if (def === undefined) throw new UsageError(`unknown game ${values.game}`);
  const params = parseParams(values.params);
  const limits = values.depth !== undefined ? { depth: Number(values.depth) } : { ms: Number(values.ms ?? 1000) };
  const analyst = makeAnalyst(def, values.profile!, limits);
  const records = readFileSync(values.record, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as GameRecord);
  for (const record of records) {
    const points = record.first === values.player ? record.result : record.second === values.player ? 1 - record.result : undefined;
    if (points === undefined || (values.lost && points === 1)) continue;
    console.log(`pair ${record.pair}: ${record.first} - ${record.second}, ${values.player} scored ${points}; opening ${record.opening.join(' ')}`);
    for (const m of reviewGame(def, params, record, values.player!, analyst)) {
      const preferred = m.forced ? ' (forced)' : m.preferred === m.played ? '' : ` (prefers ${m.preferred})`;
      console.log(`  ply ${m.ply} ${m.played}${preferred}: ${m.bestScore} / ${m.playedScore}, drop ${m.bestScore - m.playedScore}, depth ${m.depth}`);
    }
  }
}

runCliIfMain(import.meta.url, spec, main);
