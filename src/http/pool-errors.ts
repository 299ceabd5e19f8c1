/** The catalogue error for a failure of the search pool (shared by the search and analysis routes). */
import { CancelledError, PoolClosedError, QueueFullError, SearchFailedError } from '../pool/pool.js';
import { ApiError } from './errors.js';

export function poolError(error: unknown): ApiError {
  if (error instanceof QueueFullError) {
    return new ApiError('QUEUE_FULL', 'every search worker is busy and the queue is full; retry later', { retryAfter: error.retryAfterSeconds });
  }
  if (error instanceof PoolClosedError) return new ApiError('SHUTTING_DOWN', 'the service is shutting down; retry on another replica', { retryAfter: 1 });
  if (error instanceof CancelledError) return new ApiError('CANCELLED', 'the client closed the connection');
  if (error instanceof SearchFailedError) return new ApiError('SEARCH_FAILED', 'the search worker failed; retry the request');
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
