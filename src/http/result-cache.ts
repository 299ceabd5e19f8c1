/**
 * Per-replica LRU of best-move answers, keyed by game, canonical position and search limits.
 *
 * Canonical position: every game here has rules invariant under the board's symmetries (the 8 of a
 * square board, the 4 of a rectangle), so the state is mapped to the smallest of its images and the
 * answer is stored in that frame; a hit maps the moves back. Requests carrying a history are not
 * cached (repetition rules make the answer depend on it).
 *
 * An entry is served only when it is at least as good as the request would get: a proven result
 * always; a fixed-depth answer for the same maxDepth and seed; a timed answer when it was searched
 * with at least the requested budget (a larger budget reaches at least the same depth).
 */
import { LRUCache } from 'lru-cache';
import type { GameDefinition, MoveJson, SearchPosition } from '../games/types.js';
import type { ClientEvaluation } from './game-service.js';
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

interface Entry extends CachedAnswer {
  /** The move and PV in the canonical frame, as board cells (null: a move without cells, e.g. pass). */
  readonly line: ReadonlyArray<ReadonlyArray<Cell> | string>;
  readonly budgetMs: number;
}

export interface CacheLimits {
  readonly budgetMs: number;
  readonly maxDepth: number | undefined;
  readonly seed: number | undefined;
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

export class ResultCache {
  private readonly lru: LRUCache<string, Entry> | undefined;

  constructor(entries: number) {
    this.lru = entries > 0 ? new LRUCache<string, Entry>({ max: entries }) : undefined;
  }

  get enabled(): boolean {
    return this.lru !== undefined;
  }

  /** Canonical key and the symmetry that maps the request's frame onto it; undefined: not cacheable. */
  private canonical(def: GameDefinition<SearchPosition>, state: unknown, history: unknown[] | undefined, limits: CacheLimits) {
    if (this.lru === undefined || (history !== undefined && history.length > 0)) return undefined;
    const board = readBoard(state);
    if (board === undefined) return undefined;
    const symmetries = board.rows === board.cols ? 8 : 4;
    let bestKey = '';
    let bestSym = 0;
    for (let sym = 0; sym < symmetries; sym++) {
      const key = JSON.stringify(transformState(state as Record<string, unknown>, board, sym));
      if (sym === 0 || key < bestKey) {
        bestKey = key;
        bestSym = sym;
      }
    }
    const limitKey = limits.maxDepth === undefined ? 'timed' : `depth=${limits.maxDepth};seed=${limits.seed ?? ''}`;
    return { key: `${def.id}|${limitKey}|${bestKey}`, provenKey: `${def.id}|proven|${bestKey}`, sym: bestSym, board };
  }

  lookup(def: GameDefinition<SearchPosition>, pos: SearchPosition, state: unknown, history: unknown[] | undefined, limits: CacheLimits) {
    const c = this.canonical(def, state, history, limits);
    if (c === undefined) return undefined;
    const entry = this.lru!.get(c.provenKey) ?? this.usable(this.lru!.get(c.key), limits);
    if (entry === undefined) return undefined;
    const moves = this.replay(def, pos, entry, INVERSE[c.sym], c.board);
    if (moves.length === 0) return undefined;
    return { answer: entry as CachedAnswer, move: moves[0], pv: moves };
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
    const line = pv.map((move) => {
      const cells = moveCells(move);
      return typeof cells === 'string' ? cells : cells.map(([r, col]) => mapCell(c.sym, r, col, c.board.rows, c.board.cols));
    });
    const entry: Entry = { ...answer, line, budgetMs: limits.budgetMs };
    this.lru!.set(answer.evaluation.outcome !== undefined ? c.provenKey : c.key, entry);
  }

  private usable(entry: Entry | undefined, limits: CacheLimits): Entry | undefined {
    if (entry === undefined) return undefined;
    if (limits.maxDepth !== undefined) return entry;
    return entry.budgetMs >= limits.budgetMs ? entry : undefined;
  }

  /** Maps the cached line back to the request's frame and re-encodes it move by move. */
  private replay(def: GameDefinition<SearchPosition>, pos: SearchPosition, entry: Entry, inverse: number, board: Board): MoveJson[] {
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
