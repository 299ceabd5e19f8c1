/**
 * Process entry point: configuration, the search pool, the HTTP app, and a graceful shutdown on
 * SIGTERM/SIGINT (readiness off, in-flight searches finish or hit their budget, pool closed, exit 0).
 */
import { runCliIfMain } from './core/cli.js';

/** How often a shutting-down server closes connections that became idle since (see shutdown). */
const IDLE_SWEEP_MS = 100;

const spec = {
  name: 'kibitz',
  usage: `npm start   (or: node dist/src/server.js)

Starts the Kibitz HTTP service. It takes no options: it is configured by environment variables
(all optional), e.g. PORT=8080 WORKERS=2 MAX_QUEUE=32 REFUSAL_HOLD_MS=100 TT_SIZE_MB=64 DEFAULT_TIME_BUDGET_MS=1000
MAX_TIME_BUDGET_MS=60000 MAX_DEPTH=64 BODY_LIMIT_BYTES=1048576 LOG_LEVEL=info CORS_ORIGINS=
RATE_LIMIT_PER_MINUTE=0 CACHE_ENTRIES=1000 SHUTDOWN_TIMEOUT_MS=30000 EXPOSE_DOCS=true EXPOSE_PLAYGROUND=true
HOST=0.0.0.0 TRUST_PROXY=false.
Replicas that share a Redis for finished results and rate limits: REDIS_URL=redis://host:6379 (unset: none;
each replica keeps its own), REDIS_TTL_S=86400 (lifetime of a stored result), REDIS_TIMEOUT_MS=50 (longest
wait for Redis before a replica answers from its own cache and limits).
See the configuration table in README.md and docs/operations.md.

  --help  this text`,
  options: {},
} as const;

async function main(): Promise<void> {
  // Loaded here, after the command line is parsed: --help and a bad option answer without loading
  // the engines, fastify and the pool (a second and a half of CPU).
  const [{ loadConfig }, { prepareEngines }, { buildApp }, { Readiness }, { SearchPool }] = await Promise.all([
    import('./config.js'),
    import('./games/engines.js'),
    import('./http/app.js'),
    import('./http/readiness.js'),
    import('./pool/pool.js'),
  ]);
  const config = loadConfig();
  prepareEngines();
  const readiness = new Readiness('starting');
  const pool = new SearchPool({
    threads: config.workers,
    maxQueue: config.maxQueue,
    ttSizeMb: config.ttSizeMb,
    searchNice: config.searchNice,
  });
  // The threads warm up while the app is built and the port opens; searches that arrive meanwhile
  // wait for them inside their own budgets (readiness.ts).
  const warmedUp = pool.warmUp();
  const app = await buildApp({
    config,
    pool,
    readiness,
    logger: { level: config.logLevel, redact: ['req.headers.authorization'] },
  });

  let shuttingDown = false;
  const shutdown = (signal: string): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    readiness.markStopping();
    app.log.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => {
      app.log.error({ pool: pool.stats() }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    hardStop.unref();
    // app.close() stops accepting connections and waits for in-flight requests; then the pool drains.
    // It closes the connections idle at that moment only, and by Node's idea of idle; a connection
    // whose last response ended later can hold the close until its client hangs up. So connections
    // with no response in flight are closed every IDLE_SWEEP_MS until the server has closed.
    const closeIdle = setInterval(() => app.connections.closeQuiet(), IDLE_SWEEP_MS);
    closeIdle.unref();
    app
      .close()
      .finally(() => clearInterval(closeIdle))
      .then(() => pool.close())
      .then(() => {
        app.log.info('shutdown complete');
        process.exit(0);
      })
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  await warmedUp;
  readiness.markReady();
  app.log.info({ workers: config.workers, maxQueue: config.maxQueue, ttSizeMb: config.ttSizeMb }, 'kibitz ready');
}

runCliIfMain(import.meta.url, spec, main);
