/**
 * ts-node's transpiler for the test suite (test/tsconfig.json names it; .taprc points ts-node there):
 * esbuild instead of TypeScript's transpileModule, which took about a second of CPU a test file to
 * transpile the sources each test process imports. ts-node still loads the output with its source map,
 * so coverage maps to the sources as before. Type checking stays with the build (`npm test` runs `tsc`
 * first). Nothing is lowered (target esnext): Node 20 runs the ES2022 sources as they are, and the import
 * attributes of the JSON tables (`with { type: 'json' }`) must survive, which a lower target drops.
 */
'use strict';
const { transformSync } = require('esbuild');

exports.create = function create({ service, nodeModuleEmitKind }) {
  const { verbatimModuleSyntax, useDefineForClassFields } = service.config.options;
  const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax, useDefineForClassFields } };
  return {
    transpile(input, { fileName }) {
      const { code, map } = transformSync(input, {
        loader: fileName.endsWith('.tsx') ? 'tsx' : 'ts',
        format: nodeModuleEmitKind === 'nodecjs' ? 'cjs' : 'esm',
        target: 'esnext',
        sourcemap: 'external',
        sourcefile: fileName,
        tsconfigRaw,
      });
      return { outputText: code, sourceMapText: map };
    },
  };
};
