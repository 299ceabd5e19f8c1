/**
 * Move choice for a Challenge game: the Kibitz Tablut engine in-process (analyse + Searcher +
 * TranspositionTable), with the game's earlier states as history so repetition draws are seen.
 */
import { definition, engine } from '../games/tablut/index.js';
import type { TablutPosition } from '../games/tablut/position.js';
import { LazySmp } from '../pool/lazy-smp.js';
import { WIN_PROB_CURVES } from '../analysis/winprob.js';
import { type LevelSetting, levelSetting } from '../levels/levels.js';
import { playLevel } from '../levels/play.js';

/** The action JSON the server expects. */
export interface ChallengeAction {
  readonly from: string;
  readonly to: string;
  readonly turn: string;
}

export interface MoveChoice {
  readonly action: ChallengeAction;
  readonly notation: string;
  readonly depth: number;
  readonly score: number;
  readonly nodes: number;
  readonly elapsedMs: number;
}

/** Part of the margin for our own lateness: see safetyMarginMs. */
export const FIXED_MARGIN_MS = 200;

/**
 * Time kept back from the server's limit of `budgetMs` per move (-t seconds x 1000).
 *
 * How the Challenge server (Server.java of the Tablut Competition) times a move: it writes the state to
 * both players, starts a thread that reads the mover's answer, then loops `Thread.sleep(1000)` while
 * the thread is alive, at most `t` times; a move not read after the t-th sleep loses. The clock counts
 * whole seconds and sleeps only run late, so the move has t x 1000 ms from the server's write, and no
 * earlier check exists: the margin needs to cover only what happens between that write and the read.
 *  - The round trip: our clock starts when the state arrives (one way late) and the move must travel
 *    back (the other way). `roundTripMs` is measured on the TCP handshake when the client connects
 *    (loopback: well under 1 ms; the official server over the Internet: tens of ms; a name lookup
 *    counts too, which only widens the margin); counted twice for jitter.
 *  - Our own lateness after the search deadline: the search looks at the clock every 16 nodes (a few
 *    ms even for slow Tablut nodes), then encodes and writes the move; a GC pause or a busy machine can
 *    add tens of ms: FIXED_MARGIN_MS, plus 3% of the budget for slower machines and long budgets.
 * So -t 3 thinks about 2.7 s (the search uses nearly all of it: src/search/timeman.ts), and -t 60
 * about 58 s. Budgets too short for that keep half.
 */
export function safetyMarginMs(budgetMs: number, roundTripMs = 0): number {
  return Math.min(budgetMs / 2, FIXED_MARGIN_MS + 2 * roundTripMs + budgetMs * 0.03);
}

export class ChallengePlayer {
  private readonly smp: LazySmp;
  private readonly level: LevelSetting | undefined;

  /**
   * `level`: playing level (src/levels/; absent: the top, full strength); `seed`: of a level's choices
   * (absent: random); `threads`: the search's threads (Lazy SMP, src/pool/lazy-smp.ts; levels below the
   * top search on one, their node limits being the point).
   */
  constructor(ttMb = 64, level?: number, private readonly seed?: number, threads = 1) {
    this.level = levelSetting('tablut', level);
    this.smp = new LazySmp(this.level === undefined ? threads : 1, ttMb);
  }

  get threads(): number {
    return this.smp.threads;
  }

  /** Resolves once the helper threads are loaded (call before the game starts). */
  whenReady(): Promise<void> {
    return this.smp.whenReady();
  }

  /** Stops the helper threads. */
  close(): Promise<void> {
    return this.smp.close();
  }

  /**
   * Decodes the state with the earlier states as history; a history the rules cannot chain (a
   * state missed) falls back to the state alone, so a move is always produced.
   */
  static position(state: unknown, earlier: readonly unknown[]): TablutPosition | string {
    const withHistory = definition.decodeState(state, earlier.length > 0 ? earlier : undefined);
    if (withHistory.ok) return withHistory.value;
    const alone = definition.decodeState(state, undefined);
    return alone.ok ? alone.value : `${alone.error.field}: ${alone.error.message}`;
  }

  /**
   * Best move by the deadline (Date.now() scale), or null when the side to move has none. `budgetStart`:
   * when the move's time started (the state's arrival), for the time manager.
   */
  choose(pos: TablutPosition, deadline: number, budgetStart?: number): MoveChoice | null {
    const started = Date.now();
    const legal = new Int32Array(pos.maxMoves);
    const count = pos.generateMoves(legal, 0);
    if (count === 0) return null;
    const result =
      this.level !== undefined
        ? playLevel(engine, pos, this.smp.searcher, this.level, WIN_PROB_CURVES.tablut, this.seed ?? Math.floor(Math.random() * 4294967296), { deadline })
        : this.smp.analyse(engine, pos, { deadline, budgetStart: budgetStart ?? started });
    let move = result.move;
    let legalMove = false;
    for (let i = 0; i < count; i++) if (legal[i] === move) legalMove = true;
    // Never send an illegal move: the search always answers a legal one, but stay safe.
    if (!legalMove) move = legal[0];
    const json = definition.encodeMove(pos, move);
    return {
      action: { from: String(json.from), to: String(json.to), turn: String(json.turn) },
      notation: json.notation,
      depth: result.depth,
      score: result.score,
      nodes: result.nodes,
      elapsedMs: Date.now() - started,
    };
  }
}
