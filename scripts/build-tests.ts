/**
 * node dist/scripts/build-tests.js   (run by `npm test` after the build)
 *
 * Compiles the test suite (test/**\/*.ts) to dist/test/ with esbuild, each file on its own (no
 * bundling, linked source maps), and copies the rest of test/ (fixtures, plain JavaScript workers)
 * beside it. tap then runs plain JavaScript: no TypeScript loader in each of its test processes,
 * which cost about a second of CPU per test file (ts-node, which loads the TypeScript compiler in two
 * threads, then transpiles every module the test imports). The sources under src/ are compiled by
 * tsc as before, and coverage maps back to them through the source maps. Type checking of the
 * sources stays with the build.
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { runCliIfMain } from '../src/core/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

export function buildTests(sourceDir = join(root, 'test'), outDir = join(root, 'dist/test')): { compiled: number; copied: number } {
  rmSync(outDir, { recursive: true, force: true });
  const files = filesUnder(sourceDir);
  const sources = files.filter((file) => file.endsWith('.ts'));
  buildSync({
    entryPoints: sources,
    outdir: outDir,
    outbase: sourceDir,
    format: 'esm',
    platform: 'node',
    // Nothing lowered: Node 20 runs ES2022, and the JSON imports' attributes must survive.
    target: 'esnext',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  const others = files.filter((file) => !file.endsWith('.ts'));
  for (const file of others) cpSync(file, join(outDir, relative(sourceDir, file)));
  return { compiled: sources.length, copied: others.length };
}

const spec = {
  name: 'build-tests',
  usage: `node dist/scripts/build-tests.js   (npm test runs it after the build)

Compiles test/**/*.ts to dist/test/ (esbuild, one file each, linked source maps) and copies the
other files of test/ beside them; tap runs dist/test/**/*.test.js.

  --help  this text`,
  options: {},
} as const;

runCliIfMain(import.meta.url, spec, () => {
  const started = Date.now();
  const { compiled, copied } = buildTests();
  console.log(`build-tests: ${compiled} files compiled and ${copied} copied to dist/test in ${Date.now() - started} ms`);
});
