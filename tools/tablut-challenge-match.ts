/**
 * npm run tablut-challenge-match -- --server "java -cp CLASSPATH it.unibo.ai.didattica.competition.tablut.server.Server"
 *     --rival "PROGRAM {colour} 6 {host}" [--rival-name tablut.cpp] [--games 20] [--seconds 3] [--threads 2]
 *     [--record FILE] [--logs DIR] [--pause-file FILE] [--max-load X] [--game-timeout-min 60]
 *
 * Plays Kibitz's Tablut Challenge client against another Challenge client on the official server
 * (AGalassi/TablutCompetition, built outside the repository), as the Challenge does: one server per
 * game (`-t seconds`, Ashton rules), the two clients as separate processes on its ports, colours
 * alternating (Kibitz is White in games 1, 3, ...). Results come from the server's own output (its
 * RESULT line, or a timeout or too many errors); the moves from its "Suggested move" lines. Think times
 * are the clients' own reports (the server times moves only in whole seconds): Kibitz prints each move's
 * time, and the rival's is read from its output with --rival-time (tablut.cpp's "Time taken to find best
 * move: N ms" by default). Both sides get the same cores: Kibitz --threads N, and OMP_NUM_THREADS=N in the
 * rival's environment (OpenMP programs such as tablut.cpp). One JSON line per game goes to --record, and a
 * run resumes after the games a record already holds for the same rival, time and threads. A game lost
 * on a client's first move (over the server's time on move one: tablut.cpp clears its table
 * outside its own clock, which under load can overrun -t 3) is recorded but not counted, and another game
 * of that colour is played in its place; --max-load waits between games while the machine is busy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, intOption, numberOption, runCliIfMain } from '../src/core/cli.js';

const KIBITZ_CLIENT = fileURLToPath(new URL('../src/tablut-client/cli.js', import.meta.url));
const CHALLENGE_PORTS = [5800, 5801] as const;
const DEFAULT_RIVAL_TIME = 'Time taken to find best move: (\\d+) ms';

export type Colour = 'WHITE' | 'BLACK';
export type Result = 'WHITEWIN' | 'BLACKWIN' | 'DRAW' | 'ERROR';

/** What the server's standard output says about one game. */
export interface ServerReport {
  /** Moves in order, "e4-f4". */
  readonly moves: string[];
  readonly result: Result;
  /** How the game ended: the rules, a timeout, too many illegal moves, or an error (no result line). */
  readonly reason: 'rules' | 'timeout' | 'errors' | 'error';
}

/** Reads the server's output (Server.java of the Tablut Competition). */
export function parseServerOutput(text: string): ServerReport {
  const moves: string[] = [];
  let result: Result = 'ERROR';
  let reason: ServerReport['reason'] = 'error';
  let timedOut = false;
  for (const line of text.split('\n')) {
    const move = /^Suggested move: Turn: \w+ Pawn from (\w\d) to (\w\d)/.exec(line);
    if (move !== null) moves.push(`${move[1]}-${move[2]}`);
    if (/^Timeout!!!!/.test(line)) timedOut = true;
    // The server names the side by its turn's short form (W / B).
    const loser = /^Player (W|B)\w* has lost!/.exec(line);
    if (timedOut && loser !== null) {
      result = loser[1] === 'W' ? 'BLACKWIN' : 'WHITEWIN';
      reason = 'timeout';
    }
    const errors = /^TOO MANY ERRORS FOR (WHITE|BLACK) PLAYER/.exec(line);
    if (errors !== null) {
      result = errors[1] === 'WHITE' ? 'BLACKWIN' : 'WHITEWIN';
      reason = 'errors';
    }
    const end = /^RESULT: (?:PLAYER (WHITE|BLACK) WIN|(DRAW))/.exec(line);
    if (end !== null && reason !== 'errors') {
      result = end[2] === 'DRAW' ? 'DRAW' : end[1] === 'WHITE' ? 'WHITEWIN' : 'BLACKWIN';
      reason = 'rules';
    }
  }
  return { moves, result, reason };
}

/** Kibitz's move lines ("WHITE move 3: e4-f4 (depth 7, score 31, 12345 nodes, 2690 ms)"): scores and times. */
export function parseKibitzOutput(text: string): { scores: number[]; depths: number[]; thinkMs: number[] } {
  const scores: number[] = [];
  const depths: number[] = [];
  const thinkMs: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^(?:WHITE|BLACK) move \d+: \S+ \(depth (\d+), score (-?\d+), \d+ nodes, (\d+) ms\)/.exec(line);
    if (m === null) continue;
    depths.push(Number(m[1]));
    scores.push(Number(m[2]));
    thinkMs.push(Number(m[3]));
  }
  return { scores, depths, thinkMs };
}

/** The rival's think times: the first group of `pattern` on each line that matches. */
export function parseRivalTimes(text: string, pattern: string): number[] {
  const re = new RegExp(pattern);
  const times: number[] = [];
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (m !== null && m[1] !== undefined) times.push(Number(m[1]));
  }
  return times;
}

export interface GameRecord {
  readonly game: number;
  readonly rival: string;
  readonly kibitz: Colour;
  readonly seconds: number;
  readonly threads: number;
  readonly result: Result;
  readonly reason: ServerReport['reason'];
  /** 1 win, 0.5 draw, 0 loss (an ERROR game counts as nothing: see summarise). */
  readonly kibitzPoints: number | null;
  /** Plies: the moves of both sides. */
  readonly plies: number;
  readonly moves: string[];
  /** Kibitz's evaluation after each of its moves (client scale, its own point of view). */
  readonly kibitzScores: number[];
  readonly kibitzDepths: number[];
  readonly kibitzThinkMs: number[];
  readonly rivalThinkMs: number[];
  readonly startedAt: string;
  readonly wallSeconds: number;
  /** One-minute load average at the game's start (other work on the machine). */
  readonly load: number;
}

export function kibitzPoints(result: Result, kibitz: Colour): number | null {
  if (result === 'ERROR') return null;
  if (result === 'DRAW') return 0.5;
  return result === `${kibitz}WIN` ? 1 : 0;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * A game played on the board: not lost on time or errors before both sides had moved (a forfeit of a
 * client's first move, tablut.cpp's table set-up outside its clock, is recorded but not counted).
 */
export const playedOnBoard = (r: Pick<GameRecord, 'plies' | 'reason'>): boolean => r.plies >= 2 || r.reason === 'rules';

/**
 * Kibitz's colour in the next game, or null when `games` games (White ceil(games / 2), Black the rest) were
 * played on the board or `maxAttempts` games were recorded. The colour short of games plays; on a tie the
 * colours alternate (White first), so without forfeits Kibitz is White in the odd games.
 */
export function nextColour(records: readonly Pick<GameRecord, 'kibitz' | 'plies' | 'reason'>[], games: number, maxAttempts = 2 * games): Colour | null {
  if (records.length >= maxAttempts) return null;
  const played = (colour: Colour): number => records.filter((r) => r.kibitz === colour && playedOnBoard(r)).length;
  const white = Math.ceil(games / 2) - played('WHITE');
  const black = Math.floor(games / 2) - played('BLACK');
  if (white <= 0 && black <= 0) return null;
  if (white <= 0) return 'BLACK';
  if (black <= 0) return 'WHITE';
  if (white !== black) return white > black ? 'WHITE' : 'BLACK';
  return records.length > 0 && records[records.length - 1].kibitz === 'WHITE' ? 'BLACK' : 'WHITE';
}

/** Lines of the summary: per Kibitz colour, W/D/L, plies per game (all, Kibitz's wins), mean think times. */
export function summarise(records: readonly GameRecord[]): string[] {
  const lines: string[] = [];
  const forfeits = records.filter((r) => !playedOnBoard(r)).length;
  if (forfeits > 0) lines.push(`${forfeits} games forfeited on a client's first move (not counted below)`);
  for (const colour of ['WHITE', 'BLACK'] as const) {
    const games = records.filter((r) => r.kibitz === colour && playedOnBoard(r));
    if (games.length === 0) continue;
    const wins = games.filter((r) => r.kibitzPoints === 1);
    const draws = games.filter((r) => r.kibitzPoints === 0.5).length;
    const losses = games.filter((r) => r.kibitzPoints === 0).length;
    const errors = games.filter((r) => r.kibitzPoints === null).length;
    const points = wins.length + draws / 2;
    const decided = games.length - errors;
    const winPlies = wins.map((r) => r.plies);
    lines.push(
      `Kibitz as ${colour}: +${wins.length} =${draws} -${losses}${errors > 0 ? ` (${errors} errors)` : ''}, ` +
        `${((100 * points) / Math.max(1, decided)).toFixed(0)}% of ${decided}; plies per game ${mean(games.map((r) => r.plies)).toFixed(1)}` +
        `${wins.length > 0 ? `, per win ${mean(winPlies).toFixed(1)} (longest ${Math.max(...winPlies)})` : ''}; ` +
        `think Kibitz ${Math.round(mean(games.flatMap((r) => r.kibitzThinkMs)))} ms, rival ${Math.round(mean(games.flatMap((r) => r.rivalThinkMs)))} ms ` +
        `a move; timeouts ${games.filter((r) => r.reason === 'timeout').length}`,
    );
  }
  return lines;
}

/** Splits a command line on spaces (quotes are not needed by the commands this tool runs). */
export function splitCommand(command: string): string[] {
  return command.split(/\s+/).filter((word) => word.length > 0);
}

/** True when a TCP port of this machine can be bound (no server holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

interface Running {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<number | null>;
}

function run(command: string[], cwd: string, env: NodeJS.ProcessEnv): Running {
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const running: Running = {
    child,
    output: '',
    exited: new Promise((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    }),
  };
  child.stdout!.on('data', (chunk: Buffer) => (running.output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (running.output += chunk.toString('utf8')));
  return running;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface MatchOptions {
  readonly server: string[];
  readonly rival: string;
  readonly rivalName: string;
  readonly rivalTime: string;
  readonly games: number;
  readonly seconds: number;
  readonly threads: number;
  readonly record: string | undefined;
  readonly pauseFile: string | undefined;
  /** Before each game, wait while the one-minute load average is above this. */
  readonly maxLoad?: number;
  readonly gameTimeoutMs: number;
  /** Directory to keep each game's server and client output in (game-N-server.txt, ...). */
  readonly logs?: string;
}

/** One game on a fresh server; Kibitz plays `kibitz`. */
export async function playGame(options: MatchOptions, game: number, kibitz: Colour): Promise<GameRecord> {
  for (const port of CHALLENGE_PORTS) {
    if (!(await portFree(port))) throw new Error(`port ${port} is in use: another Challenge server is running`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'tablut-match-'));
  const startedAt = new Date();
  const load = loadavg()[0];
  const server = run([...options.server, '-t', String(options.seconds), '-r', '4'], dir, process.env);
  const clients: Running[] = [];
  try {
    // The server prints before it binds its ports: wait until the white port is taken.
    const bindBy = Date.now() + 60_000;
    while ((await portFree(CHALLENGE_PORTS[0])) && Date.now() < bindBy) {
      if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output.slice(-500)}`);
      await sleep(100);
    }
    const rivalColour: Colour = kibitz === 'WHITE' ? 'BLACK' : 'WHITE';
    const kibitzCommand = [process.execPath, KIBITZ_CLIENT, kibitz, String(options.seconds), '127.0.0.1', '--threads', String(options.threads)];
    const rivalCommand = splitCommand(options.rival.replaceAll('{colour}', rivalColour).replaceAll('{host}', '127.0.0.1'));
    const rivalEnv = { ...process.env, OMP_NUM_THREADS: String(options.threads) };
    // White connects first (the server accepts White, reads its name, then Black).
    for (const colour of ['WHITE', 'BLACK'] as const) {
      clients.push(colour === kibitz ? run(kibitzCommand, dir, process.env) : run(rivalCommand, dir, rivalEnv));
      await sleep(300);
    }
    const timer = setTimeout(() => server.child.kill('SIGKILL'), options.gameTimeoutMs);
    await server.exited;
    clearTimeout(timer);
    // Clients exit once they read the final state; give them a moment to print it.
    await Promise.race([Promise.all(clients.map((c) => c.exited)), sleep(5_000)]);
  } finally {
    for (const c of [server, ...clients]) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  if (options.logs !== undefined) {
    mkdirSync(options.logs, { recursive: true });
    const names = kibitz === 'WHITE' ? ['kibitz-white', 'rival-black'] : ['rival-white', 'kibitz-black'];
    writeFileSync(join(options.logs, `game-${game}-server.txt`), server.output);
    clients.forEach((c, i) => writeFileSync(join(options.logs!, `game-${game}-${names[i]}.txt`), c.output));
  }
  const report = parseServerOutput(server.output);
  const kibitzOut = parseKibitzOutput(clients[kibitz === 'WHITE' ? 0 : 1]?.output ?? '');
  const rivalOut = clients[kibitz === 'WHITE' ? 1 : 0]?.output ?? '';
  return {
    game,
    rival: options.rivalName,
    kibitz,
    seconds: options.seconds,
    threads: options.threads,
    result: report.result,
    reason: report.reason,
    kibitzPoints: kibitzPoints(report.result, kibitz),
    plies: report.moves.length,
    moves: report.moves,
    kibitzScores: kibitzOut.scores,
    kibitzDepths: kibitzOut.depths,
    kibitzThinkMs: kibitzOut.thinkMs,
    rivalThinkMs: parseRivalTimes(rivalOut, options.rivalTime),
    startedAt: startedAt.toISOString(),
    wallSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    load: Math.round(load * 100) / 100,
  };
}

/** Games a record already holds for this rival, time and threads (a run resumes after them). */
export function recordedGames(file: string | undefined, options: Pick<MatchOptions, 'rivalName' | 'seconds' | 'threads'>): GameRecord[] {
  if (file === undefined || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as GameRecord)
    .filter((r) => r.rival === options.rivalName && r.seconds === options.seconds && r.threads === options.threads);
}

export async function runMatch(options: MatchOptions, print: (line: string) => void = console.log): Promise<GameRecord[]> {
  const records = recordedGames(options.record, options);
  if (records.length > 0) print(`resuming after ${records.length} recorded games`);
  for (let kibitz = nextColour(records, options.games); kibitz !== null; kibitz = nextColour(records, options.games)) {
    const game = records.length + 1;
    if (options.pauseFile !== undefined && existsSync(options.pauseFile)) {
      print(`waiting while ${options.pauseFile} exists`);
      while (existsSync(options.pauseFile)) await sleep(20_000);
    }
    if (options.maxLoad !== undefined && loadavg()[0] > options.maxLoad) {
      print(`waiting while the load average is above ${options.maxLoad} (${loadavg()[0].toFixed(2)})`);
      while (loadavg()[0] > options.maxLoad) await sleep(20_000);
    }
    const record = await playGame(options, game, kibitz);
    records.push(record);
    if (options.record !== undefined) appendFileSync(options.record, `${JSON.stringify(record)}\n`);
    const last = record.kibitzScores.length > 0 ? record.kibitzScores[record.kibitzScores.length - 1] : NaN;
    print(
      `game ${game}: Kibitz ${kibitz} ${record.result} (${record.reason}) in ${record.plies} plies, ${record.wallSeconds} s; ` +
        `think Kibitz ${Math.round(mean(record.kibitzThinkMs))} ms, ${options.rivalName} ${Math.round(mean(record.rivalThinkMs))} ms; ` +
        `Kibitz's last score ${last}; load ${record.load}`,
    );
  }
  return records;
}

const spec = {
  name: 'tablut-challenge-match',
  usage: `npm run tablut-challenge-match -- --server "java -cp CLASSPATH it.unibo.ai.didattica.competition.tablut.server.Server"
    --rival "PROGRAM {colour} 6 {host}" [--rival-name tablut.cpp] [--games 20] [--seconds 3] [--threads 2]
    [--record FILE] [--logs DIR] [--pause-file FILE] [--max-load X] [--game-timeout-min 60]

Plays Kibitz's Tablut Challenge client (npm run tablut-client) against another Challenge client on the
official server, one server per game with -t SECONDS -r 4 (Ashton), colours alternating (Kibitz White in
odd games), and prints each game and a summary per colour: W/D/L, plies per game and per win, mean think
times (each client's own report). Ports 5800 and 5801 must be free.

  --server CMD        the Challenge server's command, without -t / -r (run in a fresh temporary directory)
  --rival CMD         the rival client's command; {colour} and {host} are replaced
  --rival-name NAME   its name in records (default rival)
  --rival-time RE     a pattern whose first group is the rival's think time in ms on one output line
                      (default tablut.cpp's '${DEFAULT_RIVAL_TIME}')
  --games N           games played on the board, half a colour, colours alternating (default 20); a game
                      forfeited on a client's first move (time or errors before both sides moved) is
                      recorded, not counted, and replaced (at most 2N games in all)
  --seconds S         the server's time per move, whole seconds (default 3)
  --threads N         Kibitz's --threads, and OMP_NUM_THREADS for the rival (default 2)
  --record FILE       append one JSON line per game; a run resumes after the games it holds
  --logs DIR          keep each game's server and client output there
  --pause-file FILE   before each game, wait while this file exists
  --max-load X        before each game, wait while the one-minute load average is above X
  --game-timeout-min M  kill a game's server after M minutes (default 60)
  --help              this text`,
  options: {
    server: { type: 'string' },
    rival: { type: 'string' },
    'rival-name': { type: 'string', default: 'rival' },
    'rival-time': { type: 'string', default: DEFAULT_RIVAL_TIME },
    games: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '2' },
    record: { type: 'string' },
    'pause-file': { type: 'string' },
    'max-load': { type: 'string' },
    logs: { type: 'string' },
    'game-timeout-min': { type: 'string', default: '60' },
  },
} as const;

runCliIfMain(import.meta.url, spec, async ({ values }) => {
  if (values.server === undefined) throw new UsageError('--server is required');
  if (values.rival === undefined) throw new UsageError('--rival is required');
  try {
    new RegExp(values['rival-time']!);
  } catch {
    throw new UsageError(`--rival-time is not a regular expression: ${values['rival-time']}`);
  }
  const options: MatchOptions = {
    server: splitCommand(values.server),
    rival: values.rival,
    rivalName: values['rival-name']!,
    rivalTime: values['rival-time']!,
    games: intOption(values, 'games', 20, 1, 10_000),
    seconds: intOption(values, 'seconds', 3, 1, 600),
    threads: intOption(values, 'threads', 2, 1, 256),
    record: values.record,
    pauseFile: values['pause-file'],
    ...(values['max-load'] === undefined ? {} : { maxLoad: numberOption(values, 'max-load', 0, 0, 1000) }),
    ...(values.logs === undefined ? {} : { logs: values.logs }),
    gameTimeoutMs: numberOption(values, 'game-timeout-min', 60, 1, 24 * 60) * 60_000,
  };
  console.log(`tablut-challenge-match: Kibitz vs ${options.rivalName}, ${options.games} games, -t ${options.seconds}, ${options.threads} threads each`);
  const records = await runMatch(options);
  for (const line of summarise(records)) console.log(line);
});
