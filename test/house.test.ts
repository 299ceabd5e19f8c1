/**
 * The house rules that a reviewer would otherwise check by hand: the service has no import circles
 * (floors read server > http > pool > games > search > core), a worker thread loads no schema code, no
 * source line is over 160 characters, and no test is skipped. The circle check reads the TypeScript
 * sources and counts `import type`: the compiled JS erases those, so a check over dist/src missed eleven
 * type-only circles.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import t from 'tap';
import { ROOT } from './support/paths.js';

const root = ROOT;
const tracked = (pattern: string): string[] =>
  execFileSync('git', ['ls-files', pattern], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) => f !== '');

t.test('no circular imports in the service, type imports included (dpdm over src)', async (t) => {
  // transform: false reads the TypeScript as written: a type-only circle still ties the modules' designs together.
  const tree = await parseDependencyTree('src/**/*.ts', { cwd: root, context: root, tsconfig: `${root}tsconfig.json`, transform: false, exclude: /(^|\/)(node_modules|assembly)\// });
  t.ok(Object.keys(tree).length > 100, `the graph (${Object.keys(tree).length} modules)`);
  t.same(parseCircular(tree), []);
});

t.test('a worker thread loads no schema code: nothing it imports at run time imports typebox', async (t) => {
  // games/<game>/engine.ts holds what a search needs, index.ts the schemas; typebox cost each thread 200 ms.
  // The compiled graph is the run-time graph: tsc erases `import type` (games/types.ts names TSchema that way), and
  // dpdm reads JavaScript without transpiling each module first (transform: true cost 2.5-9 s here).
  const tree = await parseDependencyTree('dist/src/pool/worker.js', { cwd: root, context: root, transform: false });
  const modules = Object.keys(tree).filter((file) => file.startsWith('dist/src/'));
  t.ok(modules.includes('dist/src/games/othello/engine.js') && modules.includes('dist/src/search/search.js'), `the worker's graph (${modules.length} modules)`);
  const schemaUsers = modules.filter((file) => (tree[file] ?? []).some((dependency) => /^typebox$|vendor\/typebox(\.js)?$/.test(dependency.request)));
  t.same(schemaUsers, []);
});

t.test('no source line over 160 characters', async (t) => {
  const long: string[] = [];
  for (const file of tracked('src/**.ts')) {
    readFileSync(`${root}${file}`, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.length > 160) long.push(`${file}:${i + 1} (${line.length})`);
      });
  }
  t.same(long, []);
});

t.test('no skipped or todo tests', async (t) => {
  const skipped = tracked('test/**.ts').filter((file) => /\b(t|tap)\.(skip|todo)\(|\{ ?(skip|todo): ?true/.test(readFileSync(`${root}${file}`, 'utf8')));
  t.same(skipped, []);
});

t.test('every test module runs: a file under test/ that is not a *.test.ts entry is imported by one', async (t) => {
  // Groups of test files share one process (test/games/othello.test.ts imports ./othello/*.ts): a member nobody imports would never run.
  const files = tracked('test/**.ts').filter((file) => !/^test\/(support|fixtures)\//.test(file));
  const imported = new Set<string>();
  for (const file of files) {
    for (const [, spec] of readFileSync(`${root}${file}`, 'utf8').matchAll(/^import (?:[^;]*? from )?'(\.[^']+)\.js';/gm)) {
      imported.add(join(dirname(file), spec) + '.ts');
    }
  }
  const orphans = files.filter((file) => !file.endsWith('.test.ts') && !imported.has(file));
  t.same(orphans, []);
  t.ok(imported.has('test/games/othello/perft.ts'), 'a grouped member is seen as imported');
});
