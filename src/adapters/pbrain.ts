#!/usr/bin/env node
/**
 * pbrain-kibitz: a Gomocup / Piskvork brain (the pipe protocol) playing gomoku with the Kibitz
 * MNK engine. The manager starts it and talks on stdin/stdout; see docs/adapters.md.
 */
import { createInterface } from 'node:readline';
import { type CliSpec, intOption, runCliIfMain } from '../core/cli.js';
import { MIN_LEVEL, TOP_LEVEL } from '../levels/levels.js';
import { DEFAULT_BRAIN_OPTIONS, GomocupBrain, MAX_SIZE, MIN_SIZE, TIME_LEFT_SHARE } from './gomocup/brain.js';

const USAGE = `usage: pbrain-kibitz [--turn-ms N] [--margin-ms N] [--margin-pct N] [--tt-mb N] [--level N] [--seed N]
       (npm run --silent pbrain -- ...)

A Gomocup / Piskvork brain: speaks the Gomoku AI protocol on stdin/stdout (START, RECTSTART,
RESTART, BEGIN, TURN, BOARD ... DONE, TAKEBACK, PLAY, INFO, END, ABOUT; answers OK, X,Y, ERROR,
UNKNOWN, and MESSAGE / DEBUG lines with depth, score and principal variation). X is the column,
Y the row, both from 0. Boards from ${MIN_SIZE}x${MIN_SIZE} to ${MAX_SIZE}x${MAX_SIZE} (RECTSTART for rectangles).

Rules (INFO rule): 0 freestyle (five or more wins), 1 exactly five (an overline does not win).
Renju (4), caro (8) and the continuous game (2) are answered with ERROR at the next move command.

Time: each move searches until min(timeout_turn, time_left / ${TIME_LEFT_SHARE}) less a margin
(${DEFAULT_BRAIN_OPTIONS.marginMs} ms + ${DEFAULT_BRAIN_OPTIONS.marginPct}% of that limit by default), counted from the moment its command
is read (the first move, when it comes within one turn of the process's start, from the start: a referee may time the
start-up too); timeout_turn 0 plays at once (a 2-ply search).

Options:
  --turn-ms N    timeout_turn until the manager sends one (default ${DEFAULT_BRAIN_OPTIONS.defaultTurnMs})
  --margin-ms N  milliseconds kept back from every move's budget (default ${DEFAULT_BRAIN_OPTIONS.marginMs})...
  --margin-pct N ...plus N% of the limit (default ${DEFAULT_BRAIN_OPTIONS.marginPct})
  --tt-mb N      transposition table MiB without INFO max_memory (default ${DEFAULT_BRAIN_OPTIONS.ttMb};
                 with it: a quarter of the limit, at most this)
  --level N      playing level from ${MIN_LEVEL} (weakest) to ${TOP_LEVEL} (full strength, the default); below the top
                 a node-limited search and a weighted choice among its best lines (docs/levels.md)
  --seed N       seed of a level's choices (default random): the same game then gets the same moves
  -h, --help     this text`;

export const PBRAIN_CLI: CliSpec<{
  'turn-ms': { type: 'string' };
  'margin-ms': { type: 'string' };
  'margin-pct': { type: 'string' };
  'tt-mb': { type: 'string' };
  level: { type: 'string' };
  seed: { type: 'string' };
}> = {
  name: 'pbrain-kibitz',
  usage: USAGE,
  options: {
    'turn-ms': { type: 'string' },
    'margin-ms': { type: 'string' },
    'margin-pct': { type: 'string' },
    'tt-mb': { type: 'string' },
    level: { type: 'string' },
    seed: { type: 'string' },
  },
};

runCliIfMain(import.meta.url, PBRAIN_CLI, ({ values }) => {
  const brain = new GomocupBrain((line) => process.stdout.write(`${line}\n`), {
    defaultTurnMs: intOption(values, 'turn-ms', DEFAULT_BRAIN_OPTIONS.defaultTurnMs, 0),
    marginMs: intOption(values, 'margin-ms', DEFAULT_BRAIN_OPTIONS.marginMs, 0),
    marginPct: intOption(values, 'margin-pct', DEFAULT_BRAIN_OPTIONS.marginPct, 0, 90),
    ttMb: intOption(values, 'tt-mb', DEFAULT_BRAIN_OPTIONS.ttMb, 1, 4096),
    level: intOption(values, 'level', TOP_LEVEL, MIN_LEVEL, TOP_LEVEL),
    ...(values.seed === undefined ? {} : { seed: intOption(values, 'seed', 0, 0, 4294967295) }),
    // The first turn's budget counts from the process's own start (Node's start-up included).
    processStart: Math.round(performance.timeOrigin),
  });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  return new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      brain.handle(line);
      if (brain.done) {
        lines.close();
        // END: nothing more is read, so stdin must not keep the process alive.
        process.stdin.destroy();
      }
    });
    lines.on('close', () => resolve());
  });
});
