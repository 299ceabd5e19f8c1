/**
 * prom-client, as one module: `npm run build` replaces the compiled output with an esbuild bundle of the
 * package and its dependencies (about 90 modules, most of them @opentelemetry/api), for the reason given
 * in typebox.ts.
 */
export { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
