/**
 * The access log: one line per answered request (fastify's own logging writes two, on arrival and on
 * completion), except refusals under load (503, 429), which are summed and logged once a second.
 *
 * Why: at ten times the pool's capacity, clients that retry at once make thousands of refusals a
 * second; two synchronous JSON lines each were the largest share of the event loop's time after the
 * socket writes themselves, and `/health` waited behind them (docs/operations.md, "Overload").
 */
import type { FastifyInstance } from 'fastify';

/** How often the summed refusals are logged. */
export const REFUSAL_LOG_INTERVAL_MS = 1_000;

export function registerAccessLog(app: FastifyInstance): void {
  const refused = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    if (refused.size === 0) return;
    const byStatus = Object.fromEntries(refused);
    refused.clear();
    app.log.info({ refused: byStatus }, 'requests refused under load');
  };
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    if (status === 503 || status === 429) {
      refused.set(status, (refused.get(status) ?? 0) + 1);
      if (timer === undefined) {
        timer = setTimeout(flush, REFUSAL_LOG_INTERVAL_MS);
        timer.unref();
      }
      return;
    }
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearTimeout(timer);
    flush();
  });
}
