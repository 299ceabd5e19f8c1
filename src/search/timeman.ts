/**
 * Time management for iterative deepening: after each completed iteration, decide whether to start
 * another one. The hard deadline (checked by the search every few hundred nodes) still stops an
 * iteration in progress; this module only decides about starting the next one.
 *
 * A Kibitz budget is like a chess engine's fixed time per move, not a game clock: time left over is not
 * banked for later moves. So the search keeps deepening while the next iteration can finish, and
 * stops early only when the best move and score are stable AND the next iteration cannot finish:
 *  - the next iteration's time is predicted from the iteration history: its node count from the
 *    effective branching factor (the growth of the node count over the last two iterations, applied to
 *    the iteration of the same parity, since alpha-beta trees grow unevenly between odd and even
 *    depths), times the time per node measured so far;
 *  - an iteration that cannot finish is still worth starting when the interrupted iteration keeps its
 *    information (single-line search: a root move proven better than the previous best with the full
 *    window is played) and there is time to search at least the previous best move to the new depth
 *    (its share of an iteration is about FIRST_MOVE_SHARE);
 *  - when the best move changed in the last iterations or the score fell, the search goes on to the
 *    hard deadline whatever the prediction: that is where the extra depth is worth most;
 *  - a multi-line search discards an unfinished iteration, so it starts only iterations that fit.
 * Forced and trivial moves (one legal move, a proven result) are answered by the search before any of
 * this is asked.
 *
 * 'legacy' is the rule Kibitz used before (stop once the time since the search started plus the last
 * iteration's time exceeds 55% of the time the search had), kept to measure the new one against.
 *
 * Everything is in milliseconds relative to the budget's start (a request's arrival, queue wait
 * included), so decisions can be tested on synthetic histories without a clock.
 */

export type TimePolicy = 'adaptive' | 'legacy';
export const TIME_POLICIES: readonly TimePolicy[] = ['adaptive', 'legacy'];

/** One completed iteration. */
export interface IterationRecord {
  readonly depth: number;
  /** Wall-clock time of this iteration alone. */
  readonly ms: number;
  /** Nodes of this iteration alone. */
  readonly nodes: number;
  readonly bestMove: number;
  /** Internal score for the side to move at the root. */
  readonly score: number;
}

export interface TimeState {
  /** From the budget's start (arrival) to the hard deadline. */
  readonly budgetMs: number;
  /** Spent since the budget's start: queue wait, solver and the iterations so far. */
  readonly spentMs: number;
  /** Spent before the search itself started (queue wait, a solver): the legacy rule ignores it. */
  readonly beforeSearchMs?: number;
  /** Completed iterations, shallowest first; at least one. */
  readonly iterations: readonly IterationRecord[];
  /** True when an interrupted iteration can still change the move (single-line search). */
  readonly partialUseful: boolean;
  readonly policy?: TimePolicy;
}

export type TimeReason = 'fits' | 'unstable' | 'partial' | 'cannotFinish' | 'noTime' | 'legacyContinue' | 'legacyStop';

export interface TimeDecision {
  /** Start another iteration. */
  readonly next: boolean;
  readonly reason: TimeReason;
  /** Predicted time of the next iteration (ms). */
  readonly predictedMs: number;
  /** Time left before the hard deadline (ms). */
  readonly remainingMs: number;
  /** Instability of the last iterations: 0 = stable; see instability(). */
  readonly instability: number;
}

/** Node-count growth per iteration assumed before two iterations are known. */
export const DEFAULT_BRANCHING = 3;
/** Bounds on the predicted growth of one iteration over the one before (noisy shallow iterations). */
export const MIN_GROWTH = 1.2;
export const MAX_GROWTH = 40;
/** About this share of an iteration goes to the first (previous best) root move. */
export const FIRST_MOVE_SHARE = 0.45;
/** A score this much lower (internal units, about half a pawn or disc) than the iteration before is a drop. */
export const SCORE_DROP = 60;
/** The old rule's share. */
export const LEGACY_SOFT_SHARE = 0.55;

/**
 * Growth of the node count from the last iteration to the next one. With three or more iterations:
 * nodes(d+1) / nodes(d) = nodes(d-1) * (nodes(d) / nodes(d-2)) / nodes(d), i.e. the two-ply growth
 * applied to the same-parity iteration; with two, the last ratio; with one, DEFAULT_BRANCHING.
 */
export function predictedGrowth(iterations: readonly IterationRecord[]): number {
  const n = iterations.length;
  let growth = DEFAULT_BRANCHING;
  const nodes = (i: number): number => Math.max(1, iterations[i].nodes);
  if (n >= 3) growth = (nodes(n - 2) * (nodes(n - 1) / nodes(n - 3))) / nodes(n - 1);
  else if (n === 2) growth = nodes(1) / nodes(0);
  return Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, growth));
}

/** Effective branching factor over the iterations so far: the geometric mean growth per ply. */
export function effectiveBranching(iterations: readonly IterationRecord[]): number {
  const n = iterations.length;
  if (n < 2) return DEFAULT_BRANCHING;
  return Math.pow(Math.max(1, iterations[n - 1].nodes) / Math.max(1, iterations[0].nodes), 1 / (n - 1));
}

/**
 * Predicted milliseconds of the next iteration: predicted nodes times the time per node measured over
 * the iterations so far (the totals: single shallow iterations are too short to time).
 */
export function predictNextMs(iterations: readonly IterationRecord[]): number {
  const last = iterations[iterations.length - 1];
  let ms = 0;
  let nodes = 0;
  for (const it of iterations) {
    ms += it.ms;
    nodes += it.nodes;
  }
  const msPerNode = nodes > 0 ? ms / nodes : 0;
  const predictedNodes = Math.max(1, last.nodes) * predictedGrowth(iterations);
  // At least the last iteration's own time scaled by the growth (a slow last iteration, deep nodes).
  return Math.max(predictedNodes * msPerNode, last.ms * predictedGrowth(iterations));
}

/**
 * 0 when the best move held and the score did not fall; otherwise larger the more recent and the larger
 * the change: a best-move change in the last iteration counts 1, in the one before 0.5; a score drop of
 * SCORE_DROP or more in the last iteration counts 1 (0.5 for the one before).
 */
export function instability(iterations: readonly IterationRecord[], scoreDrop = SCORE_DROP): number {
  let value = 0;
  const n = iterations.length;
  const weights = [1, 0.5];
  for (let k = 0; k < weights.length; k++) {
    const cur = n - 1 - k;
    if (cur < 1) break;
    // Depth 1 against nothing, and depth 2 against depth 1, are too shallow to mean much: half weight.
    const shallow = iterations[cur].depth <= 2 ? 0.5 : 1;
    if (iterations[cur].bestMove !== iterations[cur - 1].bestMove) value += weights[k] * shallow;
    if (iterations[cur - 1].score - iterations[cur].score >= scoreDrop) value += weights[k] * shallow;
  }
  return value;
}

/** Whether to start another iteration (see the module comment). */
export function decideNextIteration(state: TimeState): TimeDecision {
  const remainingMs = state.budgetMs - state.spentMs;
  const iterations = state.iterations;
  const last = iterations[iterations.length - 1];
  const unstable = instability(iterations);
  const predictedMs = policyPrediction(state);
  const decide = (next: boolean, reason: TimeReason): TimeDecision => ({ next, reason, predictedMs, remainingMs, instability: unstable });
  if (state.policy === 'legacy') {
    const searchMs = state.spentMs - (state.beforeSearchMs ?? 0);
    const searchBudget = state.budgetMs - (state.beforeSearchMs ?? 0);
    const go = searchMs + last.ms <= LEGACY_SOFT_SHARE * searchBudget;
    return decide(go, go ? 'legacyContinue' : 'legacyStop');
  }
  if (remainingMs <= 0) return decide(false, 'noTime');
  if (predictedMs <= remainingMs) return decide(true, 'fits');
  if (!state.partialUseful) return decide(false, 'cannotFinish');
  if (unstable > 0) return decide(true, 'unstable');
  if (predictedMs * FIRST_MOVE_SHARE <= remainingMs) return decide(true, 'partial');
  return decide(false, 'cannotFinish');
}

function policyPrediction(state: TimeState): number {
  return state.policy === 'legacy' ? state.iterations[state.iterations.length - 1].ms : predictNextMs(state.iterations);
}

/**
 * The per-search state the search keeps: its iteration history and where the budget started. One
 * object per search (iterations are few; nothing here runs per node).
 */
export class IterationClock {
  private readonly iterations: IterationRecord[] = [];
  private lastNodes = 0;
  private lastAt: number;

  /**
   * @param budgetStart when the budget started (arrival; Date.now() scale)
   * @param searchStart when the search started
   * @param deadline the hard deadline
   */
  constructor(
    private readonly budgetStart: number,
    private readonly searchStart: number,
    private readonly deadline: number,
    private readonly policy: TimePolicy,
    private readonly partialUseful: boolean,
  ) {
    this.lastAt = searchStart;
  }

  /** Records a completed iteration (`totalNodes`: the search's node count so far) and decides. */
  completed(depth: number, totalNodes: number, bestMove: number, score: number, now: number): TimeDecision {
    this.iterations.push({ depth, ms: now - this.lastAt, nodes: totalNodes - this.lastNodes, bestMove, score });
    this.lastAt = now;
    this.lastNodes = totalNodes;
    return decideNextIteration({
      budgetMs: this.deadline - this.budgetStart,
      spentMs: now - this.budgetStart,
      beforeSearchMs: this.searchStart - this.budgetStart,
      iterations: this.iterations,
      partialUseful: this.partialUseful,
      policy: this.policy,
    });
  }
}
