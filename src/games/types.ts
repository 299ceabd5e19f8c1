/**
 * The contract between a game and the rest of Kibitz.
 *
 * A game has two faces:
 *  - an engine face (`SearchPosition`, `GameEngine`) used by the search in worker threads: integer
 *    moves, make/unmake, incremental Zobrist hash, no allocation per node;
 *  - a client face (`GameDefinition`) used by the HTTP layer: TypeBox schemas, JSON codec with
 *    precise errors, catalogue text.
 *
 * JSON is parsed and validated once, at the edge, into a SearchPosition; the position crosses to a
 * worker as a compact Int32Array snapshot.
 */
import type { TranspositionTable } from '../search/tt.js';
import type { TSchema } from 'typebox';
import type { Result } from '../core/result.js';

export const GAME_IDS = ['mnk', 'othello', 'tablut', 'hadron'] as const;
export type GameId = (typeof GAME_IDS)[number];

/** moveOrderScore at or above this marks a forcing move. */
export const TACTICAL_HINT = 500_000;

/** Margins of a game's selective search, in its evaluation's units and in plies. */
export interface SelectiveSearch {
  /** A non-PV node at depth <= futilityDepth returns its static evaluation when that exceeds beta by futilityMargin a ply. */
  readonly futilityMargin: number;
  readonly futilityDepth: number;
  /** Quiet root moves from this index on are searched first a ply shallower (two plies from rootDoubleReductionFrom). */
  readonly rootReductionFrom: number;
  readonly rootDoubleReductionFrom: number;
  /**
   * Optional: every move after a node's first is reduced by about ln(depth) x ln(move number) plies (Rapfi's base
   * reduction, tactical moves included), this many plies less for a tactical move or at a PV node, and one more where
   * the evaluation is not improving (or was not taken); the child keeps at least one ply. Without it: one or two plies, quiet moves only.
   */
  readonly logReductionRelief?: number;
  /**
   * Optional: from depth 5 on, each iteration searches the root inside this many points either side of the last
   * iteration's score, and again with that side widened (twice the step each time) when the result falls outside.
   */
  readonly aspirationDelta?: number;
}

/** A mutable position the search walks with make/unmake. Implementations must not allocate per node. */
export interface SearchPosition {
  /** Zobrist hash (two 32-bit halves), side to move included; updated incrementally. */
  hashLo: number;
  hashHi: number;
  /** Side to move: 0 for the first player, 1 for the second. */
  side: number;
  /**
   * Identifies the game and board shape (see keySalt in search/tt.ts): the search mixes it into its
   * transposition keys, so a table kept between requests never matches another game's or shape's
   * position. Positions without it share the key space of salt 0.
   */
  readonly keySalt?: number;
  /** Exclusive upper bound of move codes (sizes history tables). */
  readonly moveSpace: number;
  /** Upper bound on the number of moves generateMoves can return in any position. */
  readonly maxMoves: number;
  /**
   * NOT_TERMINAL, or the result for the side to move (RESULT_WIN / RESULT_DRAW / RESULT_LOSS) when
   * the game is over. "No legal move" need not be detected here: generateMoves returning 0 means the
   * side to move has lost (games where a player passes instead generate an explicit pass move).
   */
  terminal(): number;
  /** Writes the legal moves into buf from offset on; returns how many. Only called when not terminal. */
  generateMoves(buf: Int32Array, offset: number): number;
  makeMove(move: number): void;
  /** Undoes the last makeMove (which was `move`). */
  unmakeMove(move: number): void;
  /**
   * Heuristic value for the side to move, in internal units, |value| < EVAL_LIMIT. The search's
   * window (alpha, beta) lets an evaluation that searches (a quiescence) stop early: a value at or
   * above beta may be a lower bound, one at or below alpha an upper bound. Others ignore it.
   */
  evaluate(alpha: number, beta: number): number;
  /**
   * Optional static ordering hint for a legal move (larger is tried first), |hint| < 1e6. Hints at
   * or above TACTICAL_HINT mark forcing moves (wins, blocks, captures) that the search does not reduce (reduces less with SelectiveSearch.logReductionRelief).
   */
  moveOrderScore?(move: number): number;
  /**
   * Optional selective search (search.ts): reverse futility and move-count pruning at nodes where
   * quietForPruning() holds, reductions of late quiet root moves, and a single reply searched without
   * using up a ply. Null or absent: a full-width search (with late-move reductions) only.
   */
  readonly selectiveSearch?: SelectiveSearch | null;
  /** With selectiveSearch: true when the static evaluation may bound this node (no forcing threat of the opponent pending). */
  quietForPruning?(): boolean;
  /**
   * Optional narrower move list for the search (candidate moves, forced replies). When present the
   * search uses it instead of generateMoves; it must return at least one move whenever generateMoves
   * would, and 0 only when the side to move has lost.
   */
  generateSearchMoves?(buf: Int32Array, offset: number): number;
  /**
   * Optional: true when the last generateSearchMoves left out legal moves by judgement rather than
   * by rule (a selective cut); the search then does not report "every move loses" there as proven.
   */
  readonly movesTruncated?: boolean;
  /**
   * Optional (Multi-)ProbCut: before a non-PV node of `depth` plies, the search may probe a shallow
   * search whose value v predicts the deep one as slope * v + intercept, within margin (confidence
   * times the fitted standard deviation), all in internal units. Returns the shallow depth and writes
   * [slope, intercept, margin] into out, or -1 for no probe here (off, too near the end, no data).
   */
  probCut?(depth: number, out: Float64Array): number;
  /**
   * Optional compiled subtree search (Othello's WebAssembly kernel) for the position as it stands now, or
   * null. It runs the search's own negamax, node for node, so a search may hand it whole subtrees.
   */
  subtreeSearch?(): SubtreeSearch | null;
}

/** What a subtree search needs from the search that calls it (src/search/search.ts). */
export interface SubtreeHost {
  /** Table probe: writes [move, score at `ply`, depth, bound, exact-subtree flag] into hit and returns true on a hit. */
  probeTable(hashLo: number, hashHi: number, ply: number, hit: Int32Array): boolean;
  storeTable(hashLo: number, hashHi: number, depth: number, bound: number, score: number, ply: number, move: number, exactSubtree: boolean): void;
  /** The search's stop check, at this node count: true stops it. */
  pollStop(nodes: number): boolean;
}

/**
 * A compiled negamax (search.ts's, the same nodes in the same order). Its killer, history and PV tables are the
 * calling search's: the search uses these arrays instead of its own while it searches such a position.
 */
export interface SubtreeSearch {
  /**
   * The table to search with in place of `owner`: a table of the same size in the kernel's memory, which it
   * reads directly (emptied whenever `owner` was cleared or another owner bound it), or `owner` itself (a
   * table shared between threads), then read through SubtreeHost. Call first: the arrays below may change.
   */
  bindTable(owner: TranspositionTable): TranspositionTable;
  readonly killers: Int32Array;
  readonly history: Int32Array;
  readonly pvTable: Int32Array;
  readonly pvLength: Int32Array;
  /** The static evaluation per ply (search.ts's, NO_EVAL where none), when the subtree search reads the plies above it. */
  readonly evalAtPly?: Int32Array;
  /** Whether it searches a node of this depth at this ply (it may leave some positions to the TypeScript negamax); absent: every one. */
  covers?(depth: number, ply: number): boolean;
  /**
   * negamax(depth, alpha, beta, ply) of the position; keyLo/keyHi are the search's key salt, nodes its count so
   * far, checkMask its stop-check interval, age the bound table's. After the call: nodes, heuristicLeaves and
   * probCuts (the last two counted from 0 by this call).
   */
  negamax(
    host: SubtreeHost,
    depth: number,
    alpha: number,
    beta: number,
    ply: number,
    keyLo: number,
    keyHi: number,
    nodes: number,
    checkMask: number,
    age: number,
  ): number;
  readonly nodes: number;
  readonly heuristicLeaves: number;
  readonly probCuts: number;
}

/** Knobs the engine face accepts; the arena uses `profile` to pit configurations against each other. */
export interface EngineOptions {
  /** Named evaluation profile; 'default' when absent. Unknown names fall back to the default. */
  readonly profile?: string;
  /** Seed for any randomness (noise profiles); deterministic for a given seed. */
  readonly seed?: number;
  /** Multi-ProbCut confidence (standard deviations) for games that support it; 0 turns it off. */
  readonly probCut?: number;
}

/** What a game-specific solver may answer before (or instead of) the generic alpha-beta. */
export interface SolveResult {
  readonly move: number;
  /** Internal score (proven results use the WIN_SCORE distance-to-end encoding). */
  readonly score: number;
  /** The exact final value on the game's client scale, when it has one (Othello's disc differential). */
  readonly exactScore?: number;
  readonly pv: readonly number[];
  readonly nodes: number;
  readonly depth: number;
  /**
   * Only the outcome is proven (Othello's win/loss/draw proof), not the margin: in a lost position the
   * proof's move is any losing move, so the analysis searches for the one that loses least.
   */
  readonly outcomeOnly?: boolean;
}

export interface SolveContext {
  /** Wall-clock deadline (Date.now() scale). */
  readonly deadline: number;
  /** True once the client went away or the deadline passed; cheap enough to poll every few thousand nodes. */
  shouldStop(): boolean;
}

export interface GameEngine<P extends SearchPosition = SearchPosition> {
  readonly id: GameId;
  /** Rebuilds a position from a snapshot produced by `snapshot`. Trusted input. */
  restore(snapshot: Int32Array, options?: EngineOptions): P;
  snapshot(position: P): Int32Array;
  /** Optional: builds the engine's lazily loaded tables now (a worker's warm-up), so no search pays for it. */
  prepare?(): void;
  /**
   * Optional exact or tactical solver tried before the generic search (endgame solver, threat-space
   * search...). Returns a proven answer, or null to let the generic search run. Must honour ctx.
   */
  solve?(position: P, ctx: SolveContext): SolveResult | null;
  /** Share of the remaining time the solver may use before the generic search takes over (default 0.5). */
  readonly solveTimeShare?: number;
  /**
   * Optional: the exact endgame of a position with at most `empties` empty squares, whatever the time
   * (a playing level's endgame, src/levels/: bounded by the position, not the clock, so reproducible).
   * Null beyond the bound, when the game is over, or when ctx stops it.
   */
  solveWithin?(position: P, empties: number, ctx: SolveContext): SolveResult | null;
  /** Converts a heuristic internal score to the game's client scale (documented in `scoreScale`). */
  clientScore(internal: number): number;
  /** Present for games whose midgame search uses Multi-ProbCut: its default confidence (EngineOptions.probCut). */
  readonly defaultProbCut?: number;
  /** Client score reported with a proven win (its negation for a loss) when there is no exact score. */
  readonly provenWinScore: number;
  /**
   * Optional: the exact final value of a finished game on the client scale, for the side to move
   * (Othello's disc differential), for games whose solver reports `exactScore`.
   */
  finalScore?(position: P): number;
}

/** A client-input problem in game terms: which field, and what is wrong with it. */
export interface FieldError {
  /** 'position': the state breaks the rules; 'move': the move is malformed or illegal; 'params': bad query. */
  readonly kind: 'position' | 'move' | 'notation' | 'params' | 'history';
  /** Path of the offending field, in Ajv's style: "body/state/board/3", "body/move", "querystring/k". */
  readonly field: string;
  readonly message: string;
}

/** JSON move as returned to clients: always carries a notation string. */
export interface MoveJson {
  readonly notation: string;
  readonly [key: string]: unknown;
}

export interface GameDefinition<P extends SearchPosition = SearchPosition> {
  readonly id: GameId;
  readonly name: string;
  /** One paragraph of rules for the catalogue. */
  readonly rules: string;
  /** How `evaluation.score` is to be read for this game. */
  readonly scoreScale: string;
  /** Schema of the JSON state (rejects unknown properties). */
  readonly stateSchema: TSchema;
  /** Schema of a move object in requests and responses (notation-only objects allowed where valid). */
  readonly moveSchema: TSchema;
  /** Schema of one `history` element (earlier states or moves), for games that use history. */
  readonly historyItemSchema?: TSchema;
  /** Schema of the initial-state query string (parameterised games); absent: no parameters. */
  readonly initialStateQuerySchema?: TSchema;
  /** Names of the two sides, indexed by SearchPosition.side, as they appear in states. */
  readonly sideNames: readonly [string, string];
  readonly exampleState: unknown;
  readonly exampleMove: MoveJson;
  readonly engine: GameEngine<P>;
  /** The initial JSON state (query already schema-validated). */
  initialState(query: Record<string, unknown>): Result<unknown, FieldError>;
  /** A schema-validated JSON state (+ history) to a position, or the rule it breaks. */
  decodeState(state: unknown, history: readonly unknown[] | undefined): Result<P, FieldError>;
  encodeState(position: P): unknown;
  /** A move object or notation string to a move code of this position (legality checked by the caller). */
  decodeMove(position: P, move: unknown, field: string): Result<number, FieldError>;
  encodeMove(position: P, move: number): MoveJson;
}
