/**
 * Every command-line entry follows src/core/cli.ts (the tools, the client generator and the example); see test/support/cli-entries.ts.
 */
import t from 'tap';
import { checkEntries } from '../support/cli-entries.js';

checkEntries(t, [
  'dist/tools/arena.js',
  'dist/tools/levels-calibrate.js',
  'dist/tools/review.js',
  'dist/tools/tablut-screen.js',
  'dist/tools/tablut-tune.js',
  'dist/tools/othello-data.js',
  'dist/tools/othello-fit.js',
  'dist/tools/othello-match.js',
  'dist/tools/othello-openings.js',
  'dist/tools/othello-probcut.js',
  'dist/tools/othello-endgame.js',
  'dist/tools/othello-judge.js',
  'dist/tools/winprob-fit.js',
  'dist/tools/gomoku-fit.js',
  'dist/tools/gomoku-policy.js',
  'dist/tools/gomoku-turns.js',
  'dist/tools/gomoku-judge.js',
  'dist/tools/pbrain-match.js',
  'dist/tools/tablut-challenge-match.js',
  'dist/scripts/client.js',
  'dist/examples/best-move.js',
]);
