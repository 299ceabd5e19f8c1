/**
 * npm run tablut-client -- <WHITE|BLACK> <seconds-per-move> <server-host> [--name Kibitz]
 *
 * Plays one Tablut Challenge game with the Kibitz engine and exits 0 with the result printed
 * (1 on a usage, connection or protocol error). Hidden option for tests: --port <n> replaces the
 * Challenge port of the colour (5800 white, 5801 black).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Colour, playChallengeGame } from './game.js';

const USAGE = 'usage: npm run tablut-client -- <WHITE|BLACK> <seconds-per-move> <server-host> [--name Kibitz]';

export async function runCli(argv: readonly string[], print: (line: string) => void = console.log): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        name: { type: 'string', default: 'Kibitz' },
        port: { type: 'string' },
        quiet: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    print(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 1;
  }
  const [colourArg, secondsArg, host] = parsed.positionals;
  const colour = colourArg?.toUpperCase();
  const seconds = Number(secondsArg);
  const port = parsed.values.port === undefined ? undefined : Number(parsed.values.port);
  if ((colour !== 'WHITE' && colour !== 'BLACK') || !(seconds > 0) || host === undefined || parsed.positionals.length > 3) {
    print(USAGE);
    return 1;
  }
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    print(`--port must be a TCP port\n${USAGE}`);
    return 1;
  }
  const name = parsed.values.name!;
  try {
    const outcome = await playChallengeGame({
      colour: colour as Colour,
      secondsPerMove: seconds,
      host,
      port,
      name,
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

function invokedDirectly(): boolean {
  if (process.argv[1] === undefined) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
