/**
 * Builds the browser playground: web/src/main.ts bundled and minified by esbuild into dist/web/app.js,
 * web/style.css minified, web/index.html and favicon.svg copied. Prints each file's size and gzipped size.
 * Run by `npm run build` (after tsc, which type-checks web/ with its own tsconfig).
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { runCliIfMain } from '../src/core/cli.js';

const USAGE = `usage: node dist/scripts/build-web.js [--quiet]   (npm run build runs it)
  Bundles the playground (web/) into dist/web and prints each file's size and gzipped size.
  --quiet  do not print the sizes
  --help   this text`;

runCliIfMain(import.meta.url, { name: 'build-web', usage: USAGE, options: { quiet: { type: 'boolean' } } }, async ({ values }) => {
  const quiet = values.quiet === true;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = join(root, 'dist', 'web');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(root, 'web', 'src', 'main.ts'), join(root, 'web', 'style.css')],
    outdir: out,
    entryNames: '[name]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  // The page loads app.js; esbuild names the bundle after its entry.
  copyFileSync(join(out, 'main.js'), join(out, 'app.js'));
  rmSync(join(out, 'main.js'));
  for (const file of ['index.html', 'favicon.svg']) copyFileSync(join(root, 'web', file), join(out, file));
  if (!quiet) {
    let total = 0;
    let gzTotal = 0;
    for (const name of readdirSync(out).sort()) {
      const bytes = readFileSync(join(out, name));
      const gz = gzipSync(bytes, { level: 9 }).length;
      total += bytes.length;
      gzTotal += gz;
      console.log(`dist/web/${name}: ${bytes.length} bytes, ${gz} gzipped`);
    }
    console.log(`dist/web total: ${total} bytes, ${gzTotal} gzipped`);
  }
});
