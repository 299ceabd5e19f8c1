/**
 * Best-move answers already searched, keyed by game, canonical position and what decides the answer;
 * in two tiers: this replica's LRU, and optionally Redis shared by every replica (shared-results.ts).
 *
 * Canonical position: every game here has rules invariant under the board's symmetries (the 8 of a
 * square board, the 4 of a rectangle), so the state is mapped to the smallest of its images and the
 * answer is stored in that frame; a hit maps the moves back. With a history, in a game whose rules read
 * it (Tablut's repetitions), the key is the state and the history as sent, without symmetries.
 *
 * One entry per position holds its deepest answer (a proven one beats any other); a deeper result
 * replaces a shallower one. It answers a request it is at least as deep as: a proven result always; a
 * `maxDepth` request when it is at least that deep; a timed request when a search with at least the
 * requested budget reached no deeper (`reachMs`: budgets of time-stopped searches it is as deep as).
 * Deterministic requests (`maxDepth` with `seed`) have entries of their own, stored only when the search
 * completed its depth, so a hit is exactly the answer a search would give.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { GameDefinition, MoveJson, SearchPosition } from '../games/types.js';
import type { ClientEvaluation } from './game-service.js';
import type { CacheTier } from './metrics.js';
import { legalMoveCodes } from './game-service.js';
import { NOT_TERMINAL } from '../search/score.js';
import type { StopReason } from '../search/search.js';

type Cell = readonly [number, number];

export interface CachedAnswer {
  readonly evaluation: ClientEvaluation;
  readonly depth: number;
  readonly nodes: number;
  readonly nps: number;
  readonly stopReason: StopReason;
}

/** A stored answer: the same in both tiers (Redis keeps it as JSON). */
export interface StoredResult extends CachedAnswer {
  /** The move and PV in the canonical frame, as board cells (a string: a move without cells, e.g. pass). */
  readonly line: ReadonlyArray<ReadonlyArray<Cell> | string>;
  /** Largest budget of a search stopped by time that reached no deeper than this answer; 0: none known. */
  readonly reachMs: number;
}

/** The shared tier. It never throws: an unavailable store is a miss, and a store that fails is skipped. */
export interface SharedResults {
  get(key: string): Promise<StoredResult | undefined>;
  /** Keeps the entry of higher rank (rankOf), and the larger reachMs of the two; settles when done or given up. */
  put(key: string, entry: StoredResult, rank: number): Promise<void>;
}

/** Proven results outrank every heuristic one. */
const PROVEN_RANK = 1_000_000;

export function rankOf(entry: CachedAnswer): number {
  return (entry.evaluation.outcome !== undefined ? PROVEN_RANK : 0) + entry.depth;
}

/** What the shared tier's script does too: the deeper entry, with what both know about budgets. */
export function mergeResults(old: StoredResult | undefined, next: StoredResult): StoredResult {
  if (old === undefined) return next;
  const reachMs = Math.max(old.reachMs, next.reachMs);
  return rankOf(old) >= rankOf(next) ? { ...old, reachMs } : { ...next, reachMs };
}

export interface CacheHit {
  readonly answer: CachedAnswer;
  readonly move: MoveJson;
  readonly pv: MoveJson[];
  readonly tier: CacheTier;
}

export interface CacheLimits {
  readonly budgetMs: number;
  readonly maxDepth: number | undefined;
  readonly seed: number | undefined;
}

/** With maxDepth and seed the answer is reproducible: such a request is served its exact answer only. */
function deterministic(limits: CacheLimits): boolean {
  return limits.maxDepth !== undefined && limits.seed !== undefined;
}

function answers(entry: StoredResult, limits: CacheLimits): boolean {
  if (deterministic(limits)) return true;
  if (rankOf(entry) >= PROVEN_RANK) return true;
  return (limits.maxDepth !== undefined && entry.depth >= limits.maxDepth) || entry.reachMs >= limits.budgetMs;
}

interface Board {
  readonly rows: number;
  readonly cols: number;
  /** Reads the board of a JSON state (array of strings or array of arrays). */
  readonly cells: ReadonlyArray<ReadonlyArray<string>>;
  readonly asStrings: boolean;
}

function readBoard(state: unknown): Board | undefined {
  const board = (state as { board?: unknown }).board;
  if (!Array.isArray(board) || board.length === 0) return undefined;
  const asStrings = typeof board[0] === 'string';
  const cells = board.map((row: unknown) => (asStrings ? [...(row as string)] : (row as string[])));
  return { rows: cells.length, cols: cells[0].length, cells, asStrings };
}

/** Where symmetry `sym` sends cell (r, c) of an R x C board. */
function mapCell(sym: number, r: number, c: number, rows: number, cols: number): Cell {
  switch (sym) {
    case 1: return [r, cols - 1 - c];
    case 2: return [rows - 1 - r, c];
    case 3: return [rows - 1 - r, cols - 1 - c];
    case 4: return [c, r];
    case 5: return [c, rows - 1 - r];
    case 6: return [cols - 1 - c, r];
    case 7: return [cols - 1 - c, rows - 1 - r];
    default: return [r, c];
  }
}

/** Inverse symmetry: rotations by 90 and 270 degrees swap; the others are their own inverse. */
const INVERSE = [0, 1, 2, 3, 4, 6, 5, 7];

function transformState(state: Record<string, unknown>, board: Board, sym: number): Record<string, unknown> {
  const swapped = sym >= 4;
  const rows = swapped ? board.cols : board.rows;
  const cols = swapped ? board.rows : board.cols;
  const out: string[][] = Array.from({ length: rows }, () => new Array<string>(cols));
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const [r2, c2] = mapCell(sym, r, c, board.rows, board.cols);
      out[r2][c2] = board.cells[r][c];
    }
  }
  const image: Record<string, unknown> = { ...state, board: board.asStrings ? out.map((row) => row.join('')) : out };
  if (swapped && typeof state.m === 'number' && typeof state.n === 'number') {
    image.m = state.n;
    image.n = state.m;
  }
  return image;
}

/** Board cells a move touches (row/col, or Tablut's from/to squares); a string for cell-less moves. */
function moveCells(move: MoveJson): ReadonlyArray<Cell> | string {
  const m = move as { row?: unknown; col?: unknown; from?: unknown; to?: unknown };
  if (typeof m.row === 'number' && typeof m.col === 'number') return [[m.row, m.col]];
  if (typeof m.from === 'string' && typeof m.to === 'string') return [square(m.from), square(m.to)];
  return move.notation;
}

function square(name: string): Cell {
  return [Number(name.slice(1)) - 1, name.charCodeAt(0) - 97];
}

function sameLine(a: ReadonlyArray<Cell> | string, b: ReadonlyArray<Cell> | string): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((cell, i) => cell[0] === b[i][0] && cell[1] === b[i][1]);
}

interface CanonicalKey {
  readonly key: string;
  /** The symmetry that maps the request's frame onto the stored one. */
  readonly sym: number;
  readonly board: Board;
}

export class ResultCache {
  private readonly lru: LRUCache<string, StoredResult> | undefined;
  private readonly shared: SharedResults | undefined;

  constructor(entries: number, shared?: SharedResults) {
    this.lru = entries > 0 ? new LRUCache<string, StoredResult>({ max: entries }) : undefined;
    this.shared = shared;
  }

  get enabled(): boolean {
    return this.lru !== undefined || this.shared !== undefined;
  }

  /** The key of everything that decides the answer (hashed: boards go up to 100 x 100); undefined: not cacheable. */
  private canonical(def: GameDefinition<SearchPosition>, state: unknown, history: unknown[] | undefined, limits: CacheLimits) {
    if (!this.enabled) return undefined;
    const board = readBoard(state);
    if (board === undefined) return undefined;
    let image = '';
    let sym = 0;
    // Only games with a history schema read the history (Tablut's repetition rule); the others ignore it.
    if (def.historyItemSchema !== undefined && history !== undefined && history.length > 0) {
      image = `${JSON.stringify(state)}\n${JSON.stringify(history)}`;
    } else {
      const symmetries = board.rows === board.cols ? 8 : 4;
      for (let s = 0; s < symmetries; s++) {
        const candidate = JSON.stringify(transformState(state as Record<string, unknown>, board, s));
        if (s === 0 || candidate < image) {
          image = candidate;
          sym = s;
        }
      }
    }
    const scope = deterministic(limits) ? `depth=${limits.maxDepth};seed=${limits.seed}` : 'deepest';
    const digest = createHash('sha256').update(`${scope}\n${image}`).digest('base64url');
    return { key: `${def.id}:${digest}`, sym, board } satisfies CanonicalKey;
  }

  async lookup(
    def: GameDefinition<SearchPosition>,
    pos: SearchPosition,
    state: unknown,
    history: unknown[] | undefined,
    limits: CacheLimits,
  ): Promise<CacheHit | undefined> {
    const c = this.canonical(def, state, history, limits);
    if (c === undefined) return undefined;
    const local = this.lru?.get(c.key);
    if (local !== undefined && answers(local, limits)) return this.hit(def, pos, local, c, 'local');
    if (this.shared === undefined) return undefined;
    const remote = await this.shared.get(c.key);
    if (remote === undefined) return undefined;
    this.lru?.set(c.key, mergeResults(local, remote));
    return answers(remote, limits) ? this.hit(def, pos, remote, c, 'redis') : undefined;
  }

  store(
    def: GameDefinition<SearchPosition>,
    state: unknown,
    history: unknown[] | undefined,
    limits: CacheLimits,
    answer: CachedAnswer,
    pv: readonly MoveJson[],
  ): void {
    const c = this.canonical(def, state, history, limits);
    if (c === undefined || answer.stopReason === 'cancelled' || pv.length === 0) return;
    // A deterministic answer cut short by the clock is not the one its depth gives.
    if (deterministic(limits) && answer.stopReason === 'time') return;
    const line = pv.map((move) => {
      const cells = moveCells(move);
      return typeof cells === 'string' ? cells : cells.map(([r, col]) => mapCell(c.sym, r, col, c.board.rows, c.board.cols));
    });
    const timed = limits.maxDepth === undefined || answer.stopReason === 'time';
    const { evaluation, depth, nodes, nps, stopReason } = answer;
    const entry: StoredResult = { evaluation, depth, nodes, nps, stopReason, line, reachMs: timed ? limits.budgetMs : 0 };
    this.lru?.set(c.key, mergeResults(this.lru.get(c.key), entry));
    // Not awaited: the answer does not wait for Redis.
    void this.shared?.put(c.key, entry, rankOf(entry));
  }

  private hit(def: GameDefinition<SearchPosition>, pos: SearchPosition, entry: StoredResult, c: CanonicalKey, tier: CacheTier) {
    const moves = this.replay(def, pos, entry, INVERSE[c.sym], c.board);
    if (moves.length === 0) return undefined;
    const { evaluation, depth, nodes, nps, stopReason } = entry;
    return { answer: { evaluation, depth, nodes, nps, stopReason }, move: moves[0], pv: moves, tier };
  }

  /** Maps the cached line back to the request's frame and re-encodes it move by move. */
  private replay(def: GameDefinition<SearchPosition>, pos: SearchPosition, entry: StoredResult, inverse: number, board: Board): MoveJson[] {
    const swapped = inverse >= 4;
    const rows = swapped ? board.cols : board.rows;
    const cols = swapped ? board.rows : board.cols;
    const out: MoveJson[] = [];
    const played: number[] = [];
    for (const step of entry.line) {
      if (pos.terminal() !== NOT_TERMINAL) break;
      const want = typeof step === 'string' ? step : step.map(([r, c]) => mapCell(inverse, r, c, rows, cols));
      const code = legalMoveCodes(pos).find((m) => sameLine(moveCells(def.encodeMove(pos, m)), want));
      if (code === undefined) break;
      out.push(def.encodeMove(pos, code));
      pos.makeMove(code);
      played.push(code);
    }
    for (let i = played.length - 1; i >= 0; i--) pos.unmakeMove(played[i]);
    return out;
  }
}
