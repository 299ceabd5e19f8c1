/**
 * typebox and its fastify type provider, as one module: `npm run build` replaces this file's compiled
 * output (dist/src/vendor/typebox.js) with an esbuild bundle of the packages themselves. typebox ships
 * about 700 ES modules; Node resolves, reads and links each one, which cost every process that loads a
 * game's schemas 0.35 s of CPU (1.1 s under the test runner's loader hook). Bundled, the same code loads
 * as one file, the way Vite pre-bundles dependencies with many modules. Everything imports typebox from
 * here, so one copy of it is loaded.
 */
export * from 'typebox';
export { Compile } from 'typebox/compile';
export { Value } from 'typebox/value';
export { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
export type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
