/**
 * The access log (src/http/access-log.ts): one line per answered request; refusals under load (503,
 * 429) summed into one line a second instead of a line each.
 */
import t from 'tap';
import { Writable } from 'node:stream';
import { loadConfig } from '../../../src/config.js';
import { buildApp } from '../../../src/http/app.js';
import { EMPTY_3X3 } from '../../support/app.js';

t.test('one line per answered request; refusals summed', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({ WORKERS: '1', LOG_LEVEL: 'info', CACHE_ENTRIES: '0' });
  // A pool whose queue is always full: every search is refused with 503 QUEUE_FULL before it is read.
  const full = { submit: () => Promise.reject(new Error('not reached')), stats: () => ({}) as never, saturated: () => true };
  const app = await buildApp({ config, pool: full, logger: { level: 'info', stream } });

  const health = await app.inject({ url: '/health', headers: { 'x-request-id': 'probe-1' } });
  t.equal(health.statusCode, 200);
  const completed = lines.filter((line) => line.msg === 'request completed');
  t.equal(completed.length, 1, 'one line for the answered request');
  t.match(completed[0], { reqId: 'probe-1', req: { method: 'GET', url: '/health' }, res: { statusCode: 200 } });
  t.type(completed[0].responseTime, 'number');
  t.equal(lines.filter((line) => line.msg === 'incoming request').length, 0, "fastify's arrival line is not written");

  for (let i = 0; i < 5; i++) {
    const refused = await app.inject({ method: 'POST', url: '/v1/games/mnk/best-move', payload: { state: EMPTY_3X3 } });
    t.equal(refused.statusCode, 503);
  }
  t.equal(lines.filter((line) => line.msg === 'request completed').length, 1, 'no line per refusal');
  await app.close(); // flushes the sum at once instead of within the second
  // One sum a second: on a loaded machine the five requests can straddle a flush, so the sums are added up.
  const summed = lines.filter((line) => line.msg === 'requests refused under load');
  t.ok(summed.length >= 1 && summed.length < 5, `summed in ${summed.length} line(s), fewer than the refusals`);
  t.equal(summed.reduce((n, line) => n + (line.refused as Record<string, number>)['503'], 0), 5, 'five 503 refusals summed');
  t.ok(summed.every((line) => Object.keys(line.refused as object).join() === '503'), 'only 503s');
});
