/**
 * npm run tablut-client -- <WHITE|BLACK> <seconds-per-move> <server-host> [--name Kibitz]
 *
 * Plays one Tablut Challenge game with the Kibitz engine and exits 0 with the result printed
 * (1 on a connection or protocol error, 2 on a bad command line).
 */
import { availableParallelism } from 'node:os';
import { UsageError, describeError, intOption, parseCli, runIfMain } from '../core/cli.js';
import { MIN_LEVEL, TOP_LEVEL } from '../levels/levels.js';
import { type Colour, playChallengeGame } from './game.js';

/** More threads than this is a typo, not a machine. */
const MAX_THREADS = 256;

const spec = {
  name: 'tablut-client',
  usage: `npm run tablut-client -- <WHITE|BLACK> <seconds-per-move> <server-host> [--name Kibitz] [--quiet] [--level N] [--seed N]
                             [--threads N]

Plays one Tablut Challenge game (Ashton rules) on the Challenge server with the Kibitz engine, and
exits 0 with the result printed (1 on a connection or protocol error, 2 on a bad command line).

  --name NAME   the player name sent to the server (default Kibitz)
  --quiet       print only the result
  --port N      connect to this port instead of the colour's (5800 white, 5801 black)
  --level N     playing level from ${MIN_LEVEL} (weakest) to ${TOP_LEVEL} (full strength, the default); below the top a
                node-limited search and a weighted choice among its best lines (docs/levels.md)
  --seed N      seed of a level's choices (default random)
  --threads N   search threads (Lazy SMP: helpers share the transposition table), from 1 to ${MAX_THREADS}; default
                the cores available (${availableParallelism()} here). Levels below the top search on one thread
  --help        this text`,
  positionals: true,
  options: {
    name: { type: 'string', default: 'Kibitz' },
    port: { type: 'string' },
    level: { type: 'string' },
    seed: { type: 'string' },
    threads: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
} as const;

export async function runCli(
  argv: readonly string[],
  print: (line: string) => void = console.log,
  printError: (line: string) => void = console.error,
): Promise<number> {
  let parsed;
  try {
    parsed = parseCli(spec, argv);
    if (parsed === null) return 0;
    const [colourArg, secondsArg, host] = parsed.positionals;
    const colour = colourArg?.toUpperCase();
    if (colour !== 'WHITE' && colour !== 'BLACK') throw new UsageError(`colour must be WHITE or BLACK, got '${colourArg ?? ''}'`);
    if (!(Number(secondsArg) > 0)) throw new UsageError(`seconds-per-move must be a positive number, got '${secondsArg ?? ''}'`);
    if (host === undefined) throw new UsageError('missing server-host');
    if (parsed.positionals.length > 3) throw new UsageError(`unexpected argument '${parsed.positionals[3]}'`);
    const port = parsed.values.port === undefined ? undefined : Number(parsed.values.port);
    if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new UsageError('--port must be a TCP port');
    intOption(parsed.values, 'level', TOP_LEVEL, MIN_LEVEL, TOP_LEVEL);
    intOption(parsed.values, 'seed', 0, 0, 4294967295);
    intOption(parsed.values, 'threads', 1, 1, MAX_THREADS);
  } catch (error) {
    const { code, line } = describeError(spec.name, error);
    printError(line);
    return code;
  }
  const [colourArg, secondsArg, host] = parsed.positionals as [string, string, string];
  const colour = colourArg.toUpperCase() as Colour;
  const seconds = Number(secondsArg);
  const port = parsed.values.port === undefined ? undefined : Number(parsed.values.port);
  const name = parsed.values.name!;
  const level = intOption(parsed.values, 'level', TOP_LEVEL, MIN_LEVEL, TOP_LEVEL);
  const threads = intOption(parsed.values, 'threads', availableParallelism(), 1, MAX_THREADS);
  const seed = parsed.values.seed === undefined ? undefined : intOption(parsed.values, 'seed', 0, 0, 4294967295);
  try {
    const outcome = await playChallengeGame({
      colour,
      secondsPerMove: seconds,
      host,
      port,
      name,
      level,
      threads,
      ...(seed === undefined ? {} : { seed }),
      log: parsed.values.quiet ? undefined : print,
    });
    if (outcome.result === 'DISCONNECTED') {
      print(`result: DISCONNECTED (the server closed the connection before the end, ${outcome.movesSent} moves sent)`);
      return 1;
    }
    const verdict = outcome.won === null ? 'draw' : outcome.won ? 'won' : 'lost';
    print(`result: ${outcome.result} (${name} as ${colour} ${verdict}, ${outcome.movesSent} moves sent)`);
    return 0;
  } catch (error) {
    print(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

runIfMain(import.meta.url, async () => {
  process.exitCode = await runCli(process.argv.slice(2));
});
