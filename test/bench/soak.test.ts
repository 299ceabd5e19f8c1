/**
 * The soak's 5-second version (npm run soak runs 30 minutes; this one holds both cores, so it is kept
 * short for CI): mixed traffic over every route and game against the real server process. Counts only, never timings: no 5xx other than 503
 * QUEUE_FULL shedding, no hung request, every answer one its scenario allows, a clean exit.
 */
import t from 'tap';
import { SCENARIOS, runSoak, soakOptions } from '../../bench/soak.js';

t.test('5 s of mixed traffic: no 5xx, no hung request, only expected answers', async (t) => {
  const lines: string[] = [];
  const report = await runSoak((line) => lines.push(line), { ...soakOptions({ seconds: '5', report: '2', burst: '3', clients: '4' }), hangMs: 30_000 });
  t.comment(lines.join('\n'));
  t.equal(report.serverErrors, 0, 'no 5xx other than load shedding (503 QUEUE_FULL, TOO_MANY_STREAMS)');
  t.equal(report.hung, 0, 'no hung request');
  t.same(report.unexpected, [], 'every answer is one its scenario allows');
  t.equal(report.exitCode, 0, 'the server exits 0 on SIGTERM');
  for (const scenario of [...SCENARIOS.map((s) => s.name), 'burst']) t.ok(report.byScenario[scenario] !== undefined, `scenario ran: ${scenario}`);
  t.ok((report.statuses['200'] ?? 0) > 0, 'requests were answered');
  t.ok(report.rssMb.length >= 2, 'memory was reported every 2 s');
  t.ok(report.passed);
});

t.test('the command line answers --help and refuses bad options', async (t) => {
  t.throws(() => soakOptions({ minutes: 'x' }), /--minutes must be an integer/);
  t.throws(() => soakOptions({ seconds: '10', report: '60' }), /--report/);
  t.equal(soakOptions({}).seconds, 30 * 60, 'default 30 minutes');
  t.equal(soakOptions({ minutes: '2' }).seconds, 120);
});
