/**
 * How much of a request's budget is kept back to ship the answer. A search stops at
 * `arrival + budget - reserve`; what follows (the result crossing to the event loop, waiting there
 * behind other work, serialising, writing) must fit in the reserve. On an idle server that takes a
 * few milliseconds; under load the event loop's queue makes it longer, and a fixed reserve turns into
 * late answers. So the reserve follows what delivery actually took: a high percentile of the recent
 * searches' lateness past their deadline, within bounds, forgetting samples after a while.
 */
import type { FastifyReply } from 'fastify';
import type { JobOutcome } from '../pool/pool.js';

/** Recent deliveries remembered. */
const WINDOW = 64;
/** The (WINDOW - RANK)th of WINDOW sorted lateness samples is used: about the 95th percentile. */
const RANK = 3;
/** Samples older than this are forgotten, so the reserve relaxes once load is gone. */
const SAMPLE_TTL_MS = 10_000;
/** The adaptive part never takes more than this share of a budget. */
const MAX_SHARE = 0.25;

/** The reserve with no measurements: message passing and serialisation on an idle server. */
export function baseReserveMs(budgetMs: number): number {
  return Math.min(100, 3 + Math.ceil(budgetMs * 0.03));
}

export class ResponseReserve {
  private readonly lateness = new Float64Array(WINDOW);
  private readonly at = new Float64Array(WINDOW);
  private readonly sorted = new Float64Array(WINDOW);
  private next = 0;
  private count = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Records an answer to a search that ran until its deadline, delivered at `deliveredAt`. */
  observe(deadline: number, deliveredAt: number): void {
    this.lateness[this.next] = Math.max(0, deliveredAt - deadline);
    this.at[this.next] = deliveredAt;
    this.next = (this.next + 1) % WINDOW;
    this.count = Math.min(this.count + 1, WINDOW);
  }

  /** Deliveries remembered and not yet forgotten. */
  liveSamples(): number {
    return this.gatherLive();
  }

  /** Recent delivery lateness (ms): about the 95th percentile of the live samples, 0 with none. */
  recentLatenessMs(): number {
    const live = this.gatherLive();
    if (live === 0) return 0;
    const samples = this.sorted.subarray(0, live).sort();
    return samples[Math.max(0, live - 1 - Math.floor((RANK * live) / WINDOW))];
  }

  /** Copies the samples younger than SAMPLE_TTL_MS to the front of `sorted`; returns how many. */
  private gatherLive(): number {
    const oldest = this.now() - SAMPLE_TTL_MS;
    let live = 0;
    for (let i = 0; i < this.count; i++) if (this.at[i] >= oldest) this.sorted[live++] = this.lateness[i];
    return live;
  }

  /** Time kept back from a budget of `budgetMs`. */
  forBudget(budgetMs: number): number {
    const base = baseReserveMs(budgetMs);
    const adaptive = Math.min(Math.ceil(this.recentLatenessMs()) + 2, Math.floor(budgetMs * MAX_SHARE));
    return Math.max(base, adaptive);
  }
}

/**
 * Feeds `reserve` with this answer's delivery once its last byte is written, when the search ran
 * until its deadline (a worker stopped by the clock, or a fallback answered at the deadline).
 */
export function observeDelivery(reserve: ResponseReserve, reply: FastifyReply, deadline: number, outcome: JobOutcome): void {
  if (outcome.source !== 'fallback' && outcome.result.stopReason !== 'time') return;
  reply.raw.once('finish', () => reserve.observe(deadline, Date.now()));
}
