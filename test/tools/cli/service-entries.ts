/**
 * Every command-line entry follows src/core/cli.ts (the service, adapters, benches and scripts); see test/support/cli-entries.ts.
 */
import t from 'tap';
import { checkEntries } from '../../support/cli-entries.js';

checkEntries(t, [
  'dist/src/server.js',
  'dist/src/tablut-client/cli.js',
  'dist/src/adapters/pbrain.js',
  'dist/src/adapters/nboard.js',
  'dist/bench/run.js',
  'dist/bench/load.js',
  'dist/bench/othello-profile.js',
  'dist/bench/mnk-depth.js',
  'dist/bench/replicas.js',
  'dist/scripts/fuzz.js',
  'dist/scripts/openapi.js',
  'dist/scripts/build-web.js',
  'dist/scripts/test-prereqs.js',
  'dist/scripts/build-tests.js',
]);
