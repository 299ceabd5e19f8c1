/**
 * What the search routes (best-move, analyse, review) share around the pool: refusing a search the
 * service will not start, and turning a pool failure into its catalogue error, counted in the metrics.
 */
import type { GameDefinition, SearchPosition } from '../games/types.js';
import { CancelledError, PoolClosedError, QueueFullError, SearchFailedError } from '../pool/pool.js';
import type { Readiness } from './types.js';
import { ApiError } from './errors.js';
import { statusOf } from './game-service.js';
import type { ServiceMetrics } from './metrics.js';

/** 422 GAME_OVER when the position is finished; `purpose` says what the request wanted (play, suggest, analyse). */
export function refuseIfGameOver(def: GameDefinition<SearchPosition>, pos: SearchPosition, purpose: string): void {
  if (statusOf(def, pos).status !== 'ongoing') {
    throw new ApiError('GAME_OVER', `body/state: the game is over; there is no move to ${purpose}`, { field: 'body/state' });
  }
}

/** 503 SHUTTING_DOWN once the service stopped taking searches (counted). */
export function refuseIfShuttingDown(readiness: Readiness, metrics: ServiceMetrics): void {
  if (!readiness.ready) {
    metrics.countRejected('shutting_down');
    throw new ApiError('SHUTTING_DOWN', 'the service is shutting down; retry on another replica', { retryAfter: 1 });
  }
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
  if (error instanceof SearchFailedError) return new ApiError('SEARCH_FAILED', 'the search worker failed; retry the request');
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
