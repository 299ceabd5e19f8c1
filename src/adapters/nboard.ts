#!/usr/bin/env node
/**
 * kibitz-nboard: an Othello engine for the NBoard GUI (NBoard protocol version 2) playing with the
 * Kibitz Othello engine. NBoard starts it and talks on stdin/stdout; see docs/adapters.md.
 */
import { createInterface } from 'node:readline';
import { type CliSpec, intOption, runCliIfMain } from '../core/cli.js';
import { SearchPool } from '../pool/pool.js';
import { MIN_LEVEL, TOP_LEVEL } from '../levels/levels.js';
import { DEFAULT_NBOARD_OPTIONS, NBoardEngine } from './nboard/engine.js';

const USAGE = `usage: kibitz-nboard [--depth N] [--max-seconds N] [--tt-mb N] [--level N] [--seed N]   (npm run --silent nboard -- ...)

An Othello engine for NBoard (protocol version 2) on stdin/stdout: nboard, set depth, set game
(GGF, passes included or left out), set contempt (accepted, no effect), move, hint N (the N best
moves, each as a "search" line, updated after every iteration), go (answers "=== MOVE/eval/time"),
ping (stops a search, then "pong"), learn ("learned"), quit. Writes "set myname Kibitz<depth>",
"status" and "nodestats" lines like Edax. Evals are discs for the side to move.

Options:
  --depth N        midgame depth until the GUI sends "set depth" (default ${DEFAULT_NBOARD_OPTIONS.defaultDepth})
  --max-seconds N  wall-clock cap of one go / hint (default ${DEFAULT_NBOARD_OPTIONS.maxSeconds})
  --tt-mb N        transposition table MiB of the search thread (default 64)
  --level N        playing level of go from ${MIN_LEVEL} (weakest) to ${TOP_LEVEL} (full strength, the default); below the
                   top a node-limited search and a weighted choice among its best lines, whatever the depth (docs/levels.md)
  --seed N         seed of a level's choices (default random): the same game then gets the same moves
  -h, --help       this text`;

export const NBOARD_CLI: CliSpec<{
  depth: { type: 'string' };
  'max-seconds': { type: 'string' };
  'tt-mb': { type: 'string' };
  level: { type: 'string' };
  seed: { type: 'string' };
}> = {
  name: 'kibitz-nboard',
  usage: USAGE,
  options: { depth: { type: 'string' }, 'max-seconds': { type: 'string' }, 'tt-mb': { type: 'string' }, level: { type: 'string' }, seed: { type: 'string' } },
};

runCliIfMain(import.meta.url, NBOARD_CLI, async ({ values }) => {
  const options = {
    defaultDepth: intOption(values, 'depth', DEFAULT_NBOARD_OPTIONS.defaultDepth, 1, 60),
    maxSeconds: intOption(values, 'max-seconds', DEFAULT_NBOARD_OPTIONS.maxSeconds, 1, 86_400),
    level: intOption(values, 'level', TOP_LEVEL, MIN_LEVEL, TOP_LEVEL),
    ...(values.seed === undefined ? {} : { seed: intOption(values, 'seed', 0, 0, 4294967295) }),
  };
  const ttSizeMb = intOption(values, 'tt-mb', 64, 1, 4096);
  // One search at a time and an idle main thread: a search that overruns is answered by the fallback on the main thread,
  // so no fallback thread is started (it cost every adapter start about half a second of CPU).
  const pool = new SearchPool({ threads: 1, maxQueue: 4, ttSizeMb, overrunGraceMs: 1000, overrunKillMs: 5000, fallbackThread: false });
  // Start the search thread now, so the first go is not slowed by it (a search asked for meanwhile waits for it).
  const warming = pool.warmUp().catch(() => undefined);
  const engine = new NBoardEngine(pool, (line) => process.stdout.write(`${line}\n`), (line) => process.stderr.write(`${line}\n`), options);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  await new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      engine.receive(line);
      if (engine.done) lines.close();
    });
    lines.on('close', () => resolve());
  });
  // End of input: answer what was read, then close the worker thread (after quit: nothing is left).
  engine.finish();
  await engine.idle();
  process.stdin.destroy();
  await warming;
  await pool.close();
});
