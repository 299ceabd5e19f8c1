/**
 * Game logic the routes share, free of HTTP: status of a position, legal moves, the pool job for a
 * best-move request and the client view of a search result.
 */
import type { GameDefinition, MoveJson, SearchPosition } from '../games/types.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_WIN, isProven, provenPlies } from '../search/score.js';
import { Searcher } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';
import { newControlBlock, type SearchTask, type SearchTaskResult } from '../pool/task.js';
import type { SearchJob } from '../pool/pool.js';
import { type RootOptions, fallbackSearch } from '../pool/fallback.js';
import { heuristicWinProbability, provenWinProbability } from '../analysis/winprob.js';
import { TOP_LEVEL } from '../levels/levels.js';

export type GameStatus = { status: 'ongoing' } | { status: 'win'; winner: string } | { status: 'draw' };

const scratch = { buffer: new Int32Array(1024) };

function moveBuffer(size: number): Int32Array {
  if (scratch.buffer.length < size) scratch.buffer = new Int32Array(size);
  return scratch.buffer;
}

/** Legal move codes of a position that is not finished. */
export function legalMoveCodes(pos: SearchPosition): number[] {
  const buffer = moveBuffer(pos.maxMoves);
  const count = pos.generateMoves(buffer, 0);
  return Array.from(buffer.subarray(0, count));
}

export function statusOf(def: GameDefinition<SearchPosition>, pos: SearchPosition): GameStatus {
  let result = pos.terminal();
  if (result === NOT_TERMINAL) {
    if (pos.generateMoves(moveBuffer(pos.maxMoves), 0) > 0) return { status: 'ongoing' };
    result = -1;
  }
  if (result === RESULT_DRAW) return { status: 'draw' };
  const winnerSide = result === RESULT_WIN ? pos.side : 1 - pos.side;
  return { status: 'win', winner: def.sideNames[winnerSide] };
}

export function encodeMoves(def: GameDefinition<SearchPosition>, pos: SearchPosition, moves: readonly number[]): MoveJson[] {
  return moves.map((m) => def.encodeMove(pos, m));
}

/** The PV as move objects: each move is encoded in the position it is played from. */
export function encodePv(def: GameDefinition<SearchPosition>, pos: SearchPosition, pv: readonly number[]): MoveJson[] {
  const out: MoveJson[] = [];
  const played: number[] = [];
  for (const move of pv) {
    if (pos.terminal() !== NOT_TERMINAL || !legalMoveCodes(pos).includes(move)) break;
    out.push(def.encodeMove(pos, move));
    pos.makeMove(move);
    played.push(move);
  }
  for (let i = played.length - 1; i >= 0; i--) pos.unmakeMove(played[i]);
  return out;
}

export interface ClientEvaluation {
  score: number;
  outcome?: 'win' | 'loss' | 'draw';
  plies?: number;
  /** For the side to move: 1 / 0.5 / 0 when proven, else the game's fitted logistic curve. */
  winProbability: number;
}

/** What a client evaluation is made from: a search result or one of its lines. */
export interface ScoredLine {
  readonly score: number;
  readonly exact: boolean;
  readonly exactScore?: number | undefined;
}

export function toClientEvaluation(def: GameDefinition<SearchPosition>, result: ScoredLine): ClientEvaluation {
  const engine = def.engine;
  if (result.exact || isProven(result.score)) {
    if (result.score === 0 || (!isProven(result.score) && result.exact)) {
      return { score: result.exactScore ?? 0, outcome: 'draw', winProbability: provenWinProbability('draw') };
    }
    const win = result.score > 0;
    const score = result.exactScore ?? (win ? engine.provenWinScore : -engine.provenWinScore);
    const outcome = win ? 'win' : 'loss';
    return { score, outcome, plies: provenPlies(result.score), winProbability: provenWinProbability(outcome) };
  }
  return { score: engine.clientScore(result.score), winProbability: heuristicWinProbability(def.id, result.score) };
}

/** Shallow main-thread search for requests that never reached a worker in time (see pool/fallback.ts). */
const fallbackSearcher = new Searcher(new TranspositionTable(1));

export type { RootOptions };

export function fallbackResult(pos: SearchPosition, root: RootOptions = {}): SearchTaskResult {
  return fallbackSearch(fallbackSearcher, pos, root);
}

/** The search limits a best-move or analyse body sets (schema-validated), as searchJob takes them. */
export function bodyLimits(body: { maxDepth?: number; seed?: number; maxNodes?: number; probCut?: number }) {
  return { maxDepth: body.maxDepth, seed: body.seed, maxNodes: body.maxNodes, probCut: body.probCut };
}

/** A request's level when it is below the top (the top level is the plain search: no level in the task). */
export function weakerLevel(level: number | undefined): number | undefined {
  return level !== undefined && level < TOP_LEVEL ? level : undefined;
}

export function searchJob(
  def: GameDefinition<SearchPosition>,
  pos: SearchPosition,
  options: {
    deadline: number;
    maxDepth: number | undefined;
    seed: number | undefined;
    maxNodes?: number | undefined;
    threads?: number;
    probCut?: number | undefined;
    level?: number | undefined;
  } & RootOptions,
): SearchJob {
  const task: SearchTask = {
    gameId: def.id,
    snapshot: def.engine.snapshot(pos),
    deadline: options.deadline,
    maxDepth: options.maxDepth,
    seed: options.seed,
    profile: undefined,
    control: newControlBlock(),
    ...(options.maxNodes === undefined ? {} : { maxNodes: options.maxNodes }),
    ...(options.probCut === undefined ? {} : { probCut: options.probCut }),
    ...(weakerLevel(options.level) === undefined ? {} : { level: options.level }),
    ...(options.multiPv === undefined ? {} : { multiPv: options.multiPv }),
    ...(options.rootMoves === undefined ? {} : { rootMoves: options.rootMoves }),
  };
  const threads = options.maxNodes === undefined && weakerLevel(options.level) === undefined ? (options.threads ?? 1) : 1;
  return { task, fallback: () => fallbackResult(pos, options), ...(threads > 1 ? { threads } : {}) };
}

/** A request's `threads` within the service's MAX_SEARCH_THREADS (the pool further caps it by free workers). */
export function searchThreads(requested: number | undefined, maxSearchThreads: number): number {
  return Math.max(1, Math.min(requested ?? 1, maxSearchThreads));
}
