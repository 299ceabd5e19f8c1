/**
 * What the search routes (best-move, analyse, review) share around the pool: refusing a search the
 * service will not start, and turning a pool failure into its catalogue error, counted in the metrics.
 */
import type { GameDefinition, SearchPosition } from '../games/types.js';
import { CancelledError, PoolClosedError, QueueFullError, SearchFailedError } from '../pool/pool.js';
import type { Readiness } from './readiness.js';
import { ApiError } from './errors.js';
import { statusOf } from './game-service.js';
import type { ServiceMetrics } from './metrics.js';

/** 422 GAME_OVER when the position is finished; `purpose` says what the request wanted (play, suggest, analyse). */
export function refuseIfGameOver(def: GameDefinition<SearchPosition>, pos: SearchPosition, purpose: string): void {
  if (statusOf(def, pos).status !== 'ongoing') {
    throw new ApiError('GAME_OVER', `body/state: the game is over; there is no move to ${purpose}`, { field: 'body/state' });
  }
}

/** A search needs at least this long once admitted (the pool's own floor is 15 ms). */
const MIN_SEARCH_AFTER_START_MS = 20;

/**
 * Admits a search whose answer is due by `deadline`: at once when the replica is ready; while it is
 * starting, as soon as the warm-up ends if that leaves the search some time, else 503 STARTING (counted);
 * 503 SHUTTING_DOWN once shutdown began (counted).
 */
export async function admitSearch(readiness: Readiness, metrics: ServiceMetrics, deadline: number): Promise<void> {
  if (readiness.phase === 'ready') return;
  if (readiness.phase === 'starting') {
    if (await readiness.waitReady(deadline - MIN_SEARCH_AFTER_START_MS - Date.now())) return;
    if (readiness.phase === 'starting') {
      metrics.countRejected('starting');
      throw new ApiError('STARTING', 'the service is starting and its search threads were not ready within the time budget; retry shortly', {
        retryAfter: 1,
      });
    }
  }
  metrics.countRejected('shutting_down');
  throw new ApiError('SHUTTING_DOWN', 'the service is shutting down; retry on another replica', { retryAfter: 1 });
}

/**
 * Waits before a 503 QUEUE_FULL refusal is sent: `holdMs`, but never past half the request's budget
 * counted from its arrival. A client that ignores Retry-After and asks again the moment it is refused
 * turns each refusal into its next request; at ten times the capacity the event loop then did little
 * but refuse, and `/health` waited behind the refusals (docs/operations.md, "Overload"). Held, each
 * such client makes a few requests a second instead of hundreds.
 */
export function holdRefusal(holdMs: number, arrivedAt: number, budgetMs: number): Promise<void> {
  const wait = refusalWaitMs(holdMs, arrivedAt, budgetMs, Date.now());
  return wait === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
}

/** How long holdRefusal waits at `now`. */
export function refusalWaitMs(holdMs: number, arrivedAt: number, budgetMs: number, now: number): number {
  return Math.max(0, Math.min(holdMs, arrivedAt + budgetMs / 2 - now));
}

/** The catalogue error for a pool failure, with refusals and cancellations counted. */
export function countedPoolError(metrics: ServiceMetrics, game: string, error: unknown): ApiError {
  const apiError = poolError(error);
  if (apiError.code === 'QUEUE_FULL') metrics.countRejected('queue_full');
  if (apiError.code === 'SHUTTING_DOWN') metrics.countRejected('shutting_down');
  if (apiError.code === 'CANCELLED') metrics.countCancelled(game);
  return apiError;
}

export function poolError(error: unknown): ApiError {
  if (error instanceof QueueFullError) {
    return new ApiError('QUEUE_FULL', 'every search worker is busy and the queue is full; retry later', { retryAfter: error.retryAfterSeconds });
  }
  if (error instanceof PoolClosedError) return new ApiError('SHUTTING_DOWN', 'the service is shutting down; retry on another replica', { retryAfter: 1 });
  if (error instanceof CancelledError) return new ApiError('CANCELLED', 'the client closed the connection');
  // The worker's own error goes to the log as the cause (a SEARCH_FAILED in a soak run named nothing more).
  if (error instanceof SearchFailedError) return new ApiError('SEARCH_FAILED', 'the search worker failed; retry the request', { cause: error });
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
