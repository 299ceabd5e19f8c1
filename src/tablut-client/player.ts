/**
 * Move choice for a Challenge game: the Kibitz Tablut engine in-process (analyse + Searcher +
 * TranspositionTable), with the game's earlier states as history so repetition draws are seen.
 */
import { definition, engine } from '../games/tablut/index.js';
import type { TablutPosition } from '../games/tablut/position.js';
import { analyse } from '../search/analyse.js';
import { Searcher } from '../search/search.js';
import { TranspositionTable } from '../search/tt.js';

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

/** Time kept back from the server's limit: half of very short budgets, 2 s + 5% of long ones. */
export function safetyMarginMs(budgetMs: number): number {
  return Math.min(budgetMs / 2, 2000 + budgetMs * 0.05);
}

export class ChallengePlayer {
  private readonly searcher: Searcher;

  constructor(ttMb = 64) {
    this.searcher = new Searcher(new TranspositionTable(ttMb));
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

  /** Best move by the deadline (Date.now() scale), or null when the side to move has none. */
  choose(pos: TablutPosition, deadline: number): MoveChoice | null {
    const started = Date.now();
    const legal = new Int32Array(pos.maxMoves);
    const count = pos.generateMoves(legal, 0);
    if (count === 0) return null;
    const result = analyse(engine, pos, this.searcher, { deadline });
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
