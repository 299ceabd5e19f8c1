/**
 * npm run pbrain-match -- [--black CMD] [--white CMD] [--size 15] [--turn-ms 1000] [--match-ms 0] [--rule 0] [--games 2]
 *
 * A small Gomocup manager: plays games between two brains that speak the Gomoku AI protocol (by
 * default pbrain-kibitz against itself), alternating colours, and reports, per brain, the wall time
 * of every move from the manager's side (TURN / BEGIN sent to the answer read, pipes included)
 * against timeout_turn and the match clock (time_left, sent before every move). This is how the
 * brain's time margin is measured (docs/adapters.md).
 */
import { fileURLToPath } from 'node:url';
import { type CliSpec, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { MnkPosition } from '../src/games/mnk/position.js';
import { NOT_TERMINAL, RESULT_DRAW } from '../src/search/score.js';
import { LineProcess } from './line-process.js';

const UNLIMITED = 2147483647;
export const KIBITZ_BRAIN = fileURLToPath(new URL('../src/adapters/pbrain.js', import.meta.url));

export interface BrainSide {
  readonly name: string;
  readonly process: LineProcess;
  timeLeft: number;
  /** Wall milliseconds of each of its moves. */
  readonly moveMs: number[];
}

export interface GameOptions {
  readonly size: number;
  readonly turnMs: number;
  /** 0: no match limit. */
  readonly matchMs: number;
  readonly rule: number;
  /** Opening stones (x, y) played alternately before the brains take over (sent with BOARD). */
  readonly opening?: readonly (readonly [number, number])[];
}

export interface GameResult {
  /** 0: black (first) won, 1: white, -1: draw; 'error' answers end the game too. */
  readonly winner: number;
  readonly reason: string;
  readonly moves: [number, number][];
}

/** A brain answer: "x,y" parsed, or the error line. */
async function answer(side: BrainSide, size: number): Promise<[number, number] | string> {
  const line = await side.process.next((l) => !/^(MESSAGE|DEBUG|SUGGEST)\b/i.test(l), 600_000);
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(line);
  if (m === null) return line;
  const x = Number(m[1]);
  const y = Number(m[2]);
  return x < size && y < size ? [x, y] : line;
}

export async function startBrain(side: BrainSide, options: GameOptions): Promise<void> {
  side.process.send(`START ${options.size}`);
  const ok = await side.process.next((l) => !/^(MESSAGE|DEBUG)\b/i.test(l));
  if (!ok.startsWith('OK')) throw new Error(`${side.name} answered START with '${ok}'`);
  side.process.send(`INFO timeout_turn ${options.turnMs}`);
  side.process.send(`INFO timeout_match ${options.matchMs}`);
  side.process.send(`INFO rule ${options.rule}`);
  side.process.send('INFO game_type 1');
  side.timeLeft = options.matchMs > 0 ? options.matchMs : UNLIMITED;
}

/** One game; sides[0] plays first. Both brains must have been started (START answered OK). */
export async function playGame(sides: [BrainSide, BrainSide], options: GameOptions): Promise<GameResult> {
  const { size } = options;
  const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, (options.rule & 1) !== 0);
  const moves: [number, number][] = [];
  const opening = options.opening ?? [];
  for (const [x, y] of opening) {
    pos.makeMove(y * size + x);
    moves.push([x, y]);
  }
  for (let turn = opening.length; ; turn++) {
    const side = sides[turn % 2];
    const other = sides[1 - (turn % 2)];
    side.process.send(`INFO time_left ${side.timeLeft}`);
    const started = process.hrtime.bigint();
    if (turn === 0) side.process.send('BEGIN');
    else if (turn === opening.length || turn === opening.length + 1) {
      // First move of this brain after an opening: the whole board (1 own, 2 the opponent's).
      side.process.send('BOARD');
      moves.forEach(([x, y], i) => side.process.send(`${x},${y},${i % 2 === turn % 2 ? 1 : 2}`));
      side.process.send('DONE');
    } else side.process.send(`TURN ${moves[moves.length - 1][0]},${moves[moves.length - 1][1]}`);
    const reply = await answer(side, size);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    side.moveMs.push(ms);
    if (side.timeLeft < UNLIMITED) side.timeLeft -= Math.round(ms);
    if (typeof reply === 'string') return { winner: turn % 2 === 0 ? 1 : 0, reason: `${side.name} answered '${reply}'`, moves };
    const [x, y] = reply;
    const cell = y * size + x;
    if (pos.cells[cell] !== 0) return { winner: 1 - (turn % 2), reason: `${side.name} played the taken square ${x},${y}`, moves };
    pos.makeMove(cell);
    moves.push([x, y]);
    const status = pos.terminal();
    if (status === RESULT_DRAW) return { winner: -1, reason: 'board full', moves };
    if (status !== NOT_TERMINAL) return { winner: turn % 2, reason: `${side.name} made five`, moves };
    if (options.matchMs > 0 && side.timeLeft < 0) return { winner: 1 - (turn % 2), reason: `${side.name} ran out of match time`, moves };
    void other;
  }
}

export function timingSummary(side: BrainSide, turnMs: number): string {
  const ms = [...side.moveMs].sort((a, b) => a - b);
  if (ms.length === 0) return `${side.name}: no moves`;
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const p95 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))];
  const over = ms.filter((v) => v > turnMs).length;
  const fmt = (v: number) => v.toFixed(1);
  // pbrain-kibitz reports "time T/B ms" (used / budget) in its MESSAGE lines: its own overshoot.
  const own = side.process.lines.map((l) => /^MESSAGE .* time (\d+)\/(\d+) ms$/.exec(l)).filter((m) => m !== null);
  const overshoot = own.length > 0 ? `, brain-side time past its budget max ${Math.max(...own.map((m) => Number(m[1]) - Number(m[2])))} ms` : '';
  return `${side.name}: ${ms.length} moves, wall ms per move mean ${fmt(mean)}, p95 ${fmt(p95)}, max ${fmt(ms[ms.length - 1])} ` +
    `(timeout_turn ${turnMs}: headroom at max ${fmt(turnMs - ms[ms.length - 1])}), over the limit ${over}${overshoot}`;
}

const USAGE = `usage: npm run pbrain-match -- [options]

Plays Gomocup-protocol brains against each other and reports each move's wall time.
  --black CMD     first brain's command line (default: node <pbrain-kibitz>)
  --white CMD     second brain's command line (default: the same)
  --size N        board size (default 15)
  --turn-ms N     INFO timeout_turn (default 1000)
  --match-ms N    INFO timeout_match, 0 = none (default 0); time_left is sent before every move
  --rule N        INFO rule: 0 freestyle, 1 exactly five (default 0)
  --games N       games, colours alternating (default 2)
  -h, --help      this text`;

const SPEC: CliSpec<{
  black: { type: 'string' };
  white: { type: 'string' };
  size: { type: 'string' };
  'turn-ms': { type: 'string' };
  'match-ms': { type: 'string' };
  rule: { type: 'string' };
  games: { type: 'string' };
}> = {
  name: 'pbrain-match',
  usage: USAGE,
  options: {
    black: { type: 'string' },
    white: { type: 'string' },
    size: { type: 'string' },
    'turn-ms': { type: 'string' },
    'match-ms': { type: 'string' },
    rule: { type: 'string' },
    games: { type: 'string' },
  },
};

runCliIfMain(import.meta.url, SPEC, async ({ values }) => {
  const size = intOption(values, 'size', 15, 5, 100);
  const turnMs = intOption(values, 'turn-ms', 1000, 0);
  const matchMs = intOption(values, 'match-ms', 0, 0);
  const rule = intOption(values, 'rule', 0, 0, 1);
  const games = intOption(values, 'games', 2, 1, 1000);
  const commands = [values.black ?? `node ${KIBITZ_BRAIN}`, values.white ?? `node ${KIBITZ_BRAIN}`];
  if (commands.some((c) => c.trim() === '')) throw new UsageError('--black and --white need a command line');
  const sides: BrainSide[] = commands.map((command, i) => ({
    name: `${i === 0 ? 'A' : 'B'} (${command.length > 40 ? `...${command.slice(-37)}` : command})`,
    process: new LineProcess('sh', ['-c', command]),
    timeLeft: UNLIMITED,
    moveMs: [],
  }));
  const options: GameOptions = { size, turnMs, matchMs, rule };
  try {
    for (let game = 0; game < games; game++) {
      const order: [BrainSide, BrainSide] = game % 2 === 0 ? [sides[0], sides[1]] : [sides[1], sides[0]];
      for (const side of order) {
        if (game > 0) {
          side.process.send('RESTART');
          await side.process.next((l) => l.startsWith('OK') || l.startsWith('ERROR') || l.startsWith('UNKNOWN'));
        }
        await startBrain(side, options);
      }
      const result = await playGame(order, options);
      const winner = result.winner < 0 ? 'draw' : `${order[result.winner].name} won`;
      console.log(`game ${game + 1}: ${winner} after ${result.moves.length} moves (${result.reason})`);
    }
    for (const side of sides) console.log(timingSummary(side, turnMs));
  } finally {
    for (const side of sides) {
      side.process.send('END');
      await side.process.exit();
    }
  }
});
