/**
 * The test prerequisites (scripts/test-prereqs.ts): what is found, what would be installed, and what
 * is reported instead. The install itself (apt-get as root) is checked on a machine without the
 * programs, as docs/testing.md describes; here the decisions, on made-up PATHs and overrides.
 */
import t from 'tap';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREREQUISITES, findExecutable, plan, requireBinary } from '../../../scripts/test-prereqs.js';

const dir = mkdtempSync(join(tmpdir(), 'kibitz-prereqs-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const fakeRedis = join(dir, 'redis-server');
writeFileSync(fakeRedis, '#!/bin/sh\n');
chmodSync(fakeRedis, 0o755);
const notExecutable = join(dir, 'chromium');
writeFileSync(notExecutable, '');
const [chromium, redis] = PREREQUISITES;

t.test('findExecutable: absolute paths as they are, bare names on PATH, only executables', async (t) => {
  t.equal(findExecutable(fakeRedis), fakeRedis);
  t.equal(findExecutable('redis-server', `/nonexistent:${dir}`), fakeRedis, 'found in the second PATH entry');
  t.equal(findExecutable('redis-server', '/nonexistent'), undefined);
  t.equal(findExecutable(notExecutable), undefined, 'a file without the execute bit is not a program');
});

t.test('plan: missing defaults are installed when allowed, else reported with the package to install', async (t) => {
  const nothing = { PATH: '/nonexistent', KIBITZ_CHROMIUM: notExecutable };
  t.same(plan({ PATH: dir, KIBITZ_CHROMIUM: fakeRedis }, true), { install: [], problems: [] }, 'both present: nothing to do');
  // A browser at a path no machine has, so that the default is missing here too.
  const elsewhere = [{ ...chromium, binary: join(dir, 'no-chromium') }, redis];
  t.same(plan({ PATH: '/nonexistent' }, true, elsewhere), { install: ['chromium', 'redis-server'], problems: [] }, 'as root: both installed');
  t.same(plan({ PATH: '/nonexistent' }, false, elsewhere).problems.length, 2, 'not allowed to install: both reported');
  const notRoot = plan({ PATH: '/nonexistent', KIBITZ_CHROMIUM: fakeRedis }, false);
  t.same(notRoot.install, []);
  t.same(notRoot.problems, [
    'redis-server is missing (the shared-Redis tests): install Debian\'s redis-server (apt-get install -y redis-server), or set KIBITZ_REDIS_SERVER',
  ]);
  const pointedAway = plan(nothing, true);
  t.same(pointedAway.problems[0], `KIBITZ_CHROMIUM=${notExecutable}: no such executable (the playground browser tests)`, 'an override that points nowhere is never installed over');
  t.same(pointedAway.install, ['redis-server']);
});

t.test('requireBinary: the path the tests run, or an error that says what to do', async (t) => {
  t.equal(requireBinary(redis, { PATH: dir }), fakeRedis);
  t.equal(requireBinary(redis, { PATH: '/nonexistent', KIBITZ_REDIS_SERVER: fakeRedis }), fakeRedis, 'the override wins');
  t.throws(() => requireBinary(redis, { PATH: '/nonexistent' }), /redis-server is missing .*apt-get install -y redis-server/);
  t.throws(() => requireBinary(chromium, { PATH: '', KIBITZ_CHROMIUM: '/nonexistent/chromium' }), /KIBITZ_CHROMIUM=\/nonexistent\/chromium: no such executable/);
});
