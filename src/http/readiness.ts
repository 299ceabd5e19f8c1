/**
 * The replica's life cycle as the HTTP layer sees it: starting (the port is open, the search threads
 * are still warming up), ready, then stopping (shutdown began). A search that arrives while starting
 * waits for the warm-up inside its own budget rather than being refused: a client that polls
 * `/health` and sends its first search the moment it answers must get an answer, not a shutdown notice.
 */

export const PHASES = ['starting', 'ready', 'stopping'] as const;
export type Phase = (typeof PHASES)[number];

export class Readiness {
  #phase: Phase;
  /** Waiters for the end of the start: resolved true once ready, false once stopping. */
  #waiters = new Set<(ready: boolean) => void>();
  /** When the start began (for a refusal's Retry-After). */
  readonly since = Date.now();

  constructor(phase: Phase = 'starting') {
    this.#phase = phase;
  }

  get phase(): Phase {
    return this.#phase;
  }

  /** True only when searches run at once (what `/ready` reports). */
  get ready(): boolean {
    return this.#phase === 'ready';
  }

  /** The warm-up finished: searches run, waiters go on. A stopping replica stays stopping. */
  markReady(): void {
    if (this.#phase !== 'starting') return;
    this.#phase = 'ready';
    this.#settle(true);
  }

  /** Shutdown began: no search is admitted any more, and waiters are refused. */
  markStopping(): void {
    this.#phase = 'stopping';
    this.#settle(false);
  }

  /**
   * Resolves true as soon as the replica is ready (at once if it is), false if it starts stopping or
   * `timeoutMs` passes first.
   */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.#phase !== 'starting') return Promise.resolve(this.#phase === 'ready');
    return new Promise((resolve) => {
      const done = (ready: boolean): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(ready);
      };
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      this.#waiters.add(done);
    });
  }

  #settle(ready: boolean): void {
    for (const done of [...this.#waiters]) done(ready);
  }
}
