/**
 * Types the app and its plugins share. A leaf module: the app wires the plugins, so a plugin that
 * imported these from app.ts would close an import circle (the house test counts type imports).
 */
import type { JobOutcome, PoolStats, SearchJob } from '../pool/pool.js';

/** What the HTTP layer needs from the search pool (the real one, or a stub for docs generation). */
export interface SearchRunner {
  submit(job: SearchJob, signal?: AbortSignal): Promise<JobOutcome>;
  stats(): PoolStats;
  /** Whether a search submitted now would be refused with QueueFullError (cheap; asked per request). */
  saturated(): boolean;
}
