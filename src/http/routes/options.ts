/**
 * The options of the game routes, shared by games.ts (which registers analysis.ts and review.ts)
 * and the modules it registers: here rather than in games.ts, so they need not import it back.
 * Not in ../types.ts: metrics.ts imports that one, and this one imports metrics.ts.
 */
import type { Config } from '../../config.js';
import type { ServiceMetrics } from '../metrics.js';
import type { ResponseReserve } from '../response-reserve.js';
import type { ResultCache } from '../result-cache.js';
import type { Readiness } from '../readiness.js';
import type { SearchRunner } from '../types.js';

export interface GameRouteOptions {
  readonly config: Config;
  readonly pool: SearchRunner;
  readonly readiness: Readiness;
  readonly metrics: ServiceMetrics;
  readonly cache: ResultCache;
  /** Time kept back from each budget to ship the answer, following measured delivery times. */
  readonly reserve: ResponseReserve;
  /** Analysis streams open now (bounded by MAX_STREAMS). */
  readonly streams: { open: number };
}
