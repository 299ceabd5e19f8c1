/**
 * npm run pbrain-match -- [--black CMD] [--white CMD] [--size 15] [--turn-ms 1000] [--match-ms 0] [--rule 0] [--games 2]
 *                         [--openings N --seed S] [--max-memory MB] [--tolerance-ms 1000] [--settle-ms 50] [--record FILE]
 *
 * A small Gomocup referee: plays games between two brains that speak the Gomoku AI protocol (by
 * default pbrain-kibitz against itself), alternating colours, the way the Gomocup manager does:
 * START, INFO timeout_turn / timeout_match / max_memory / rule, the opening as BOARD then the
 * moves as TURN, each turn timed from the command written to the answer read (the brain's own start,
 * spawn to START's OK, is reported with its first turn), the brain not to move suspended
 * (SIGSTOP) until its turn, its resident memory read after every move. A turn over timeout_turn
 * plus the tolerance, memory over max_memory, an illegal move or a crash loses. With --openings, N
 * random openings (a few stones near the centre, neither side with a four or an open three; with
 * --balanced-depth, also scored near level by Kibitz's own search to that depth), or with
 * --openings-from those of a record, are each played twice, colours swapped; the score of the
 * first brain comes with its 95% error bar over the opening pairs. It also reports each brain's
 * wall time per move (how the brain's time margin is measured, docs/adapters.md).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Random } from '../src/core/random.js';
import { F_FIVE, F_THREE, F_WIN4 } from '../src/games/mnk/pattern-tables.js';
import { type CliSpec, UsageError, intOption, runCliIfMain } from '../src/core/cli.js';
import { MnkPosition } from '../src/games/mnk/position.js';
import { NOT_TERMINAL, RESULT_DRAW } from '../src/search/score.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { LineProcess } from './line-process.js';

const UNLIMITED = 2147483647;
export const KIBITZ_BRAIN = fileURLToPath(new URL('../src/adapters/pbrain.js', import.meta.url));

export interface BrainSide {
  readonly name: string;
  readonly process: LineProcess;
  timeLeft: number;
  /** Wall milliseconds of each of its moves. */
  readonly moveMs: number[];
  /** Milliseconds from spawn to START's OK, charged to its first move of the game (referee mode). */
  startMs?: number;
  /** Largest resident memory seen (bytes), when measured. */
  peakRss?: number;
  /** Milliseconds of each game's first turn plus the brain's start. */
  firstTurns?: number[];
  /** Its own timeout_turn, when it differs from the match's (handicap matches). */
  turnMs?: number;
  /** When its last answer was read (process.hrtime.bigint()), for the settle gap. */
  answeredAt?: bigint;
}

export interface GameOptions {
  readonly size: number;
  readonly turnMs: number;
  /** 0: no match limit. */
  readonly matchMs: number;
  readonly rule: number;
  /** Opening stones (x, y) played alternately before the brains take over (sent with BOARD). */
  readonly opening?: readonly (readonly [number, number])[];
  /** Referee mode: a turn longer than turnMs + toleranceMs loses (undefined: no time forfeit). */
  readonly toleranceMs?: number;
  /** Referee mode: INFO max_memory (bytes) and a move leaving more resident memory loses (0 / undefined: none). */
  readonly maxMemory?: number;
  /** Referee mode: the brain not to move is stopped with SIGSTOP until its turn. */
  readonly suspend?: boolean;
  /**
   * Milliseconds a brain is left alone after its answer before it is stopped or sent its next command, on
   * nobody's clock (default 0). Rapfi drops a TURN that arrives while its search threads are still winding
   * down after the answer (its 'thinking' flag still set), then reads the coordinates as a command and
   * answers 'ERROR Unknown command': against an opponent that answers a forced move at once, or with
   * SIGSTOP right after the answer, that ended about one game in ten.
   */
  readonly settleMs?: number;
}

export interface GameResult {
  /** 0: black (first) won, 1: white, -1: draw; 'error' answers end the game too. */
  readonly winner: number;
  readonly reason: string;
  readonly moves: [number, number][];
}

/** A brain answer: "x,y" parsed, or the error line. */
async function answer(side: BrainSide, size: number, timeoutMs = 600_000): Promise<[number, number] | string> {
  const line = await side.process.next((l) => !/^(MESSAGE|DEBUG|SUGGEST)\b/i.test(l), timeoutMs);
  const m = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(line);
  if (m === null) return line;
  const x = Number(m[1]);
  const y = Number(m[2]);
  return x < size && y < size ? [x, y] : line;
}

const START_TIMEOUT_MS = 180_000;

export async function startBrain(side: BrainSide, options: GameOptions): Promise<void> {
  side.process.send(`START ${options.size}`);
  // A niced brain on a loaded machine can take tens of seconds to load (Node and its modules).
  const ok = await side.process.next((l) => !/^(MESSAGE|DEBUG)\b/i.test(l), START_TIMEOUT_MS);
  if (!ok.startsWith('OK')) throw new Error(`${side.name} answered START with '${ok}'`);
  side.process.send(`INFO timeout_turn ${side.turnMs ?? options.turnMs}`);
  side.process.send(`INFO timeout_match ${options.matchMs}`);
  // Told 90% of the enforced limit: a brain sizing its tables to max_memory may go a few MiB over it.
  if (options.maxMemory !== undefined && options.maxMemory > 0) side.process.send(`INFO max_memory ${Math.floor(options.maxMemory * 0.9)}`);
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
  const suspend = options.suspend === true;
  const settleMs = options.settleMs ?? 0;
  if (suspend) for (const side of sides) signal(side, 'SIGSTOP');
  const firstMove = [true, true];
  for (let turn = opening.length; ; turn++) {
    const side = sides[turn % 2];
    const other = sides[1 - (turn % 2)];
    await settle(side, settleMs);
    if (suspend) signal(side, 'SIGCONT');
    // time_left only with a match clock (Rapfi answers a bare INFO time_left between moves with an ERROR line now and then).
    if (options.matchMs > 0) side.process.send(`INFO time_left ${side.timeLeft}`);
    const started = process.hrtime.bigint();
    if (turn === 0) side.process.send('BEGIN');
    else if (turn === opening.length || turn === opening.length + 1) {
      // First move of this brain after an opening: the whole board (1 own, 2 the opponent's).
      side.process.send('BOARD');
      moves.forEach(([x, y], i) => side.process.send(`${x},${y},${i % 2 === turn % 2 ? 1 : 2}`));
      side.process.send('DONE');
    } else side.process.send(`TURN ${moves[moves.length - 1][0]},${moves[moves.length - 1][1]}`);
    let reply: [number, number] | string;
    try {
      reply = await answer(side, size, options.toleranceMs === undefined ? 600_000 : (side.turnMs ?? options.turnMs) + options.toleranceMs + 5000);
    } catch (error) {
      reply = `no answer (${(error as Error).message})`;
    }
    side.answeredAt = process.hrtime.bigint();
    const ms = Number(side.answeredAt - started) / 1e6;
    // The brain's own start (spawn to START's OK) is reported with its first turn, not forfeited on:
    // a machine's process start is outside the brain's control.
    if (firstMove[turn % 2] && side.startMs !== undefined) side.firstTurns = [...(side.firstTurns ?? []), ms + side.startMs];
    firstMove[turn % 2] = false;
    side.moveMs.push(ms);
    if (suspend) {
      await settle(side, settleMs);
      signal(side, 'SIGSTOP');
    }
    if (side.timeLeft < UNLIMITED) side.timeLeft -= Math.round(ms);
    if (typeof reply === 'string') return { winner: turn % 2 === 0 ? 1 : 0, reason: `${side.name} answered '${reply}'`, moves };
    const turnLimit = side.turnMs ?? options.turnMs;
    if (options.toleranceMs !== undefined && turnLimit > 0 && ms > turnLimit + options.toleranceMs) {
      return { winner: 1 - (turn % 2), reason: timeForfeitReason(side.name, ms), moves };
    }
    const rss = residentBytes(side);
    if (rss > (side.peakRss ?? 0)) side.peakRss = rss;
    if (options.maxMemory !== undefined && options.maxMemory > 0 && rss > options.maxMemory) {
      return { winner: 1 - (turn % 2), reason: `${side.name} used ${Math.round(rss / 2 ** 20)} MiB`, moves };
    }
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

/** Waits until the brain's last answer is settleMs old (no wait before its first answer). */
async function settle(side: BrainSide, settleMs: number): Promise<void> {
  if (settleMs <= 0 || side.answeredAt === undefined) return;
  const left = settleMs - Number(process.hrtime.bigint() - side.answeredAt) / 1e6;
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

function signal(side: BrainSide, name: 'SIGSTOP' | 'SIGCONT'): void {
  try {
    side.process.child.kill(name);
  } catch {
    // Already gone: the next read reports it.
  }
}

/** Resident memory of the brain's process (Linux /proc; 0 where unavailable). */
function residentBytes(side: BrainSide): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${side.process.child.pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Kibitz's own judgement of an opening's balance: a search of the position to a fixed depth (a fresh table, so the
 * same score every time), whose score for the side to move must lie in [low, high] (the search's units).
 */
export interface OpeningBalance {
  readonly depth: number;
  readonly low: number;
  readonly high: number;
}

/** The balance test's default window at depth 10 (docs/gomoku-strength.md, thirty-sixth round). */
export const BALANCE_WINDOW: readonly [number, number] = [-900, 2100];

/** The side to move's score of the position after `moves` at a fixed depth (a fresh table). */
export function openingScore(size: number, rule: number, moves: readonly (readonly [number, number])[], depth: number, tt: TranspositionTable): number {
  const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, (rule & 1) !== 0);
  for (const [x, y] of moves) pos.makeMove(y * size + x);
  tt.clear();
  return new Searcher(tt).search(pos, { maxDepth: depth }).score;
}

let balanceTable: TranspositionTable | undefined;
/** Random openings tried for one balanced one before giving up (a window nothing reaches). */
const BALANCE_TRIES = 2000;

/**
 * A random opening: `stones` stones (black first) within `radius` of the centre, kept only
 * when neither side has a five point, a winning four point or an open three afterwards, and, with a
 * `balance`, when Kibitz's fixed-depth score for the side to move lies in its window.
 */
export function randomOpening(size: number, stones: number, radius: number, rng: Random, rule: number, balance?: OpeningBalance): [number, number][] {
  for (let tries = 1; ; tries++) {
    if (balance !== undefined && tries > BALANCE_TRIES) {
      throw new UsageError(`no opening within ${BALANCE_TRIES} tries scored inside the window ${balance.low},${balance.high} at depth ${balance.depth}`);
    }
    const pos = new MnkPosition(size, size, 5, new Uint8Array(size * size), 0, undefined, (rule & 1) !== 0);
    const centre = size >> 1;
    const moves: [number, number][] = [];
    while (moves.length < stones) {
      const x = centre - radius + rng.below(2 * radius + 1);
      const y = centre - radius + rng.below(2 * radius + 1);
      if (pos.cells[y * size + x] !== 0) continue;
      pos.makeMove(y * size + x);
      moves.push([x, y]);
    }
    const p = pos.patterns!;
    let quiet = true;
    for (const s of [0, 1]) if (p.count(s, F_FIVE) + p.count(s, F_WIN4) + p.count(s, F_THREE) > 0) quiet = false;
    if (!quiet) continue;
    if (balance === undefined) return moves;
    balanceTable ??= new TranspositionTable(16);
    const score = openingScore(size, rule, moves, balance.depth, balanceTable);
    if (score >= balance.low && score <= balance.high) return moves;
  }
}

/** The openings of a pbrain-match record, each once, in order, with the seed and pair index the record gave them. */
export function recordOpenings(games: readonly RecordedGame[]): { seed: number; pair: number; opening: [number, number][] }[] {
  const seen = new Set<string>();
  const openings: { seed: number; pair: number; opening: [number, number][] }[] = [];
  for (const g of games) {
    const pair = Math.floor((g.game - 1) / 2);
    const key = pairKey(g.seed, g.game);
    if (seen.has(key)) continue;
    seen.add(key);
    openings.push({ seed: g.seed, pair, opening: (g.opening ?? []).map(([x, y]) => [x, y] as [number, number]) });
  }
  return openings;
}

/** Mean and 95% half-width (1.96 standard errors) of a list of scores. */
export function meanWithErrorBar(scores: readonly number[]): { mean: number; error: number } {
  const n = scores.length;
  const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, n);
  if (n < 2) return { mean, error: NaN };
  const variance = scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { mean, error: 1.96 * Math.sqrt(variance / n) };
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

/** The reason of a game lost on time, and its test (records are compared with and without such games). */
function timeForfeitReason(name: string, ms: number): string {
  return `${name} took ${Math.round(ms)} ms`;
}
const TIME_FORFEIT = / took \d+ ms$/;

/** One game of a --record file, as far as a summary reads it. */
export interface RecordedGame {
  readonly game: number;
  readonly seed: number;
  readonly black: string;
  readonly winner: number;
  readonly reason: string;
  readonly opening?: readonly (readonly [number, number])[];
}

/** A mean over opening pairs with its 95% half-width. */
export interface PairsMean {
  readonly pairs: number;
  readonly mean: number;
  readonly error: number;
}

export interface RecordsCompared {
  /** Brain A's score in each file over its complete opening pairs. */
  readonly first: PairsMean;
  readonly second: PairsMean;
  /** Second minus first over the opening pairs both files hold complete; then without pairs a time forfeit decided. */
  readonly paired: PairsMean;
  readonly pairedNoForfeit: PairsMean;
}

/** The key of a game's opening pair in a record: its seed and pair index (games 1-2 are pair 0). */
export function pairKey(seed: number, game: number): string {
  return `${seed}/${Math.floor((game - 1) / 2)}`;
}

/** Brain A's score in each opening pair (seed, opening), and which pairs hold a game lost on time. */
function pairScores(games: readonly RecordedGame[]): { scores: Map<string, number[]>; forfeits: Set<string> } {
  const scores = new Map<string, number[]>();
  const forfeits = new Set<string>();
  for (const g of games) {
    const key = pairKey(g.seed, g.game);
    const aColour = g.black.startsWith('A ') ? 0 : 1;
    const score = g.winner < 0 ? 0.5 : g.winner === aColour ? 1 : 0;
    scores.set(key, [...(scores.get(key) ?? []), score]);
    if (TIME_FORFEIT.test(g.reason)) forfeits.add(key);
  }
  return { scores, forfeits };
}

/**
 * Two records of brain A (a build and its control) against the same opponent on the same openings: each one's score
 * and their difference opening pair by opening pair (the openings' spread removed), as the strength docs report it.
 */
export function compareRecords(first: readonly RecordedGame[], second: readonly RecordedGame[]): RecordsCompared {
  const a = pairScores(first);
  const b = pairScores(second);
  const complete = (m: Map<string, number[]>) => [...m].filter(([, v]) => v.length === 2);
  const own = (m: Map<string, number[]>): PairsMean => {
    const pairs = complete(m).map(([, v]) => (v[0] + v[1]) / 2);
    return { pairs: pairs.length, ...meanWithErrorBar(pairs) };
  };
  const differences = (dropForfeits: boolean): PairsMean => {
    const d: number[] = [];
    for (const [key, v] of complete(b.scores)) {
      const u = a.scores.get(key);
      if (u === undefined || u.length !== 2) continue;
      if (dropForfeits && (a.forfeits.has(key) || b.forfeits.has(key))) continue;
      d.push((v[0] + v[1] - u[0] - u[1]) / 2);
    }
    return { pairs: d.length, ...meanWithErrorBar(d) };
  };
  return { first: own(a.scores), second: own(b.scores), paired: differences(false), pairedNoForfeit: differences(true) };
}

function readRecord(file: string): RecordedGame[] {
  if (!existsSync(file)) throw new UsageError(`--paired: no record file '${file}'`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const games: RecordedGame[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      games.push(JSON.parse(line) as RecordedGame);
    } catch {
      throw new Error(`${file}, line ${i + 1}: not a JSON game record`);
    }
  });
  return games;
}

function printCompared(text: string): void {
  const files = text.split(',');
  if (files.length !== 2 || files.some((f) => f.trim() === '')) throw new UsageError('--paired must be two record files A,B');
  for (const line of comparedReport(files[0], files[1], compareRecords(readRecord(files[0]), readRecord(files[1])))) console.log(line);
}

/** `--paired`'s lines: each record's score, then their difference; no error bar below two pairs, no difference without a common pair. */
export function comparedReport(nameA: string, nameB: string, c: RecordsCompared): string[] {
  const pct = (x: number) => (100 * x).toFixed(1);
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${pct(x)}`;
  const bar = (m: PairsMean) => (m.pairs < 2 ? ' (no error bar below two pairs)' : ` ± ${pct(m.error)}`);
  const own = (name: string, m: PairsMean) => `${name}: A scored ${pct(m.mean)}%${bar(m)} over ${m.pairs} opening pairs`;
  const lines = [own(nameA, c.first), own(nameB, c.second)];
  if (c.paired.pairs === 0) return [...lines, 'paired: no opening pair in both records (their seeds or openings differ)'];
  const n = c.pairedNoForfeit;
  lines.push(`paired (second - first) over ${c.paired.pairs} opening pairs: ${signed(c.paired.mean)}${bar(c.paired)} points (95%)`);
  lines.push(`without the pairs a time forfeit decided (${n.pairs} pairs): ${n.pairs === 0 ? 'none left' : `${signed(n.mean)}${bar(n)} points`}`);
  return lines;
}

const USAGE = `usage: npm run pbrain-match -- [options]

Plays Gomocup-protocol brains against each other, as a Gomocup referee, and reports the score and
each move's wall time.
  --black CMD         first brain's command line (default: node <pbrain-kibitz>); run with sh -c, prefixed
                      with exec when it is a single command, so that SIGSTOP reaches the brain itself
  --white CMD         second brain's command line (default: the same)
  --size N            board size (default 15)
  --turn-ms N         INFO timeout_turn (default 1000)
  --white-turn-ms N   the second brain's own timeout_turn (a time handicap; default: --turn-ms)
  --match-ms N        INFO timeout_match, 0 = none (default 0); with a match clock, time_left is sent before every move
  --rule N            INFO rule: 0 freestyle, 1 exactly five (default 0)
  --games N           games, colours alternating (default 2; with --openings: 2 per opening)
  --openings N        N random openings without threats, each played with both colours
  --opening-stones N  stones per opening (default 3), within 3 cells of the centre
  --seed S            seed of the openings (default 1)
  --balanced-depth D  keep only openings Kibitz's own search to depth D scores inside the window for the side to
                      move (default 0: no such test; 10 is what docs/gomoku-strength.md measured)
  --balanced-window LO,HI  that window, in the search's units (default ${BALANCE_WINDOW.join(',')})
  --openings-from FILE  play the openings of a record file (each once, both colours, with its seeds and pair
                      numbers, so the new record pairs with it); with --openings N, its first N
  --max-memory MB     INFO max_memory, and a brain over it loses (default 0: none)
  --tolerance-ms N    a turn over timeout_turn + N loses (default 1000, the Gomocup referee's; -1: no forfeit)
  --no-suspend        do not SIGSTOP the brain whose turn it is not
  --settle-ms N       leave a brain N ms after its answer before stopping it or sending its next command, on
                      nobody's clock (default 50: Rapfi drops a TURN sent while its search is winding down)
  --record FILE       append one JSON line per game (opening, moves, result, reason)
  --paired A,B        play nothing: brain A's score in record files A and B (over their opening pairs) and the
                      difference B - A over the opening pairs both hold, with and without pairs lost on time
  -h, --help          this text`;

const SPEC: CliSpec<{
  black: { type: 'string' };
  white: { type: 'string' };
  size: { type: 'string' };
  'turn-ms': { type: 'string' };
  'white-turn-ms': { type: 'string' };
  'match-ms': { type: 'string' };
  rule: { type: 'string' };
  games: { type: 'string' };
  openings: { type: 'string' };
  'opening-stones': { type: 'string' };
  seed: { type: 'string' };
  'balanced-depth': { type: 'string' };
  'balanced-window': { type: 'string' };
  'openings-from': { type: 'string' };
  'max-memory': { type: 'string' };
  'tolerance-ms': { type: 'string' };
  'no-suspend': { type: 'boolean' };
  'settle-ms': { type: 'string' };
  record: { type: 'string' };
  paired: { type: 'string' };
}> = {
  name: 'pbrain-match',
  usage: USAGE,
  options: {
    black: { type: 'string' },
    white: { type: 'string' },
    size: { type: 'string' },
    'turn-ms': { type: 'string' },
    'white-turn-ms': { type: 'string' },
    'match-ms': { type: 'string' },
    rule: { type: 'string' },
    games: { type: 'string' },
    openings: { type: 'string' },
    'opening-stones': { type: 'string' },
    seed: { type: 'string' },
    'balanced-depth': { type: 'string' },
    'balanced-window': { type: 'string' },
    'openings-from': { type: 'string' },
    'max-memory': { type: 'string' },
    'tolerance-ms': { type: 'string' },
    'no-suspend': { type: 'boolean' },
    'settle-ms': { type: 'string' },
    record: { type: 'string' },
    paired: { type: 'string' },
  },
};

/** Spawns a brain and times its start: spawn to START's OK is charged to its first move. */
async function launch(name: string, command: string, options: GameOptions, turnMs?: number): Promise<BrainSide> {
  const simple = !/[;&|]/.test(command) && !/^\s*exec\s/.test(command);
  const started = process.hrtime.bigint();
  const side: BrainSide = { name, process: new LineProcess('sh', ['-c', simple ? `exec ${command}` : command]), timeLeft: UNLIMITED, moveMs: [], turnMs };
  await startBrain(side, options);
  side.startMs = Number(process.hrtime.bigint() - started) / 1e6;
  return side;
}

/** --openings-from: the record's openings (its first --openings N). */
function replayedOpenings(file: string, values: Record<string, unknown>): ReturnType<typeof recordOpenings> {
  if (!existsSync(file)) throw new UsageError(`--openings-from: no record file '${file}'`);
  if (values['balanced-depth'] !== undefined) throw new UsageError("--openings-from replays a record's openings: it takes no --balanced-depth");
  const games = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as RecordedGame;
      } catch {
        throw new UsageError(`--openings-from: line ${i + 1} of '${file}' is not JSON`);
      }
    });
  const all = recordOpenings(games);
  if (all.length === 0) throw new UsageError(`--openings-from: '${file}' holds no game`);
  return all.slice(0, intOption(values, 'openings', all.length, 1, all.length));
}

/** --balanced-depth and --balanced-window, or undefined (no balance test). */
function balanceOption(values: Record<string, unknown>): OpeningBalance | undefined {
  const depth = intOption(values, 'balanced-depth', 0, 0, 30);
  const raw = values['balanced-window'];
  if (depth === 0) {
    if (raw !== undefined) throw new UsageError('--balanced-window needs --balanced-depth');
    return undefined;
  }
  if (raw === undefined) return { depth, low: BALANCE_WINDOW[0], high: BALANCE_WINDOW[1] };
  const m = typeof raw === 'string' ? /^(-?\d+),(-?\d+)$/.exec(raw) : null;
  if (m === null || Number(m[1]) > Number(m[2])) throw new UsageError(`--balanced-window must be LO,HI with LO <= HI, got '${String(raw)}'`);
  return { depth, low: Number(m[1]), high: Number(m[2]) };
}

runCliIfMain(import.meta.url, SPEC, async ({ values }) => {
  if (values.paired !== undefined) {
    printCompared(values.paired);
    return;
  }
  const size = intOption(values, 'size', 15, 5, 100);
  const turnMs = intOption(values, 'turn-ms', 1000, 0);
  const whiteTurnMs = values['white-turn-ms'] === undefined ? undefined : intOption(values, 'white-turn-ms', turnMs, 0);
  const matchMs = intOption(values, 'match-ms', 0, 0);
  const rule = intOption(values, 'rule', 0, 0, 1);
  const replayed = values['openings-from'] === undefined ? undefined : replayedOpenings(values['openings-from'], values);
  const openings = replayed !== undefined ? replayed.length : intOption(values, 'openings', 0, 0, 1000);
  const games = openings > 0 ? 2 * openings : intOption(values, 'games', 2, 1, 1000);
  const balance = balanceOption(values);
  const stones = intOption(values, 'opening-stones', 3, 0, 20);
  const seed = intOption(values, 'seed', 1, 0);
  const maxMemory = intOption(values, 'max-memory', 0, 0) * 2 ** 20;
  const tolerance = intOption(values, 'tolerance-ms', 1000, -1);
  const settleMs = intOption(values, 'settle-ms', 50, 0, 10_000);
  const record = values.record;
  const commands = [values.black ?? `node ${KIBITZ_BRAIN}`, values.white ?? `node ${KIBITZ_BRAIN}`];
  if (commands.some((c) => c.trim() === '')) throw new UsageError('--black and --white need a command line');
  const label = (i: number, command: string) => `${i === 0 ? 'A' : 'B'} (${command.length > 40 ? `...${command.slice(-37)}` : command})`;
  const rng = new Random(seed);
  const toleranceMs = tolerance < 0 ? undefined : tolerance;
  const base: GameOptions = { size, turnMs, matchMs, rule, maxMemory, toleranceMs, suspend: values['no-suspend'] !== true, settleMs };
  const totals = { a: 0, games: 0, moves: 0, wins: 0, draws: 0, losses: 0 };
  const pairScores: number[] = [];
  const allSides: BrainSide[] = [];
  let opening: [number, number][] = [];
  let pairScore = 0;
  for (let game = 0; game < games; game++) {
    if (openings > 0 && game % 2 === 0) opening = replayed?.[game / 2].opening ?? randomOpening(size, stones, 3, rng, rule, balance);
    const options: GameOptions = { ...base, opening };
    // A fresh pair of processes per game: each brain's start is timed into its first move, as in a tournament.
    const sides = await Promise.all(commands.map((command, i) => launch(label(i, command), command, options, i === 1 ? whiteTurnMs : undefined)));
    allSides.push(...sides);
    const order: [BrainSide, BrainSide] = game % 2 === 0 ? [sides[0], sides[1]] : [sides[1], sides[0]];
    let result: GameResult;
    try {
      result = await playGame(order, options);
    } finally {
      for (const side of sides) {
        side.process.child.kill('SIGCONT');
        side.process.send('END');
        await side.process.exit();
      }
    }
    const aIndex = order.indexOf(sides[0]);
    const aScore = result.winner < 0 ? 0.5 : result.winner === aIndex ? 1 : 0;
    totals.a += aScore;
    totals.games++;
    totals.moves += result.moves.length - opening.length;
    if (aScore === 1) totals.wins++;
    else if (aScore === 0) totals.losses++;
    else totals.draws++;
    pairScore += aScore;
    if (openings === 0 || game % 2 === 1) {
      pairScores.push(openings === 0 ? aScore : pairScore / 2);
      pairScore = 0;
    }
    const winner = result.winner < 0 ? 'draw' : `${order[result.winner].name} won`;
    console.log(`game ${game + 1}: ${winner} after ${result.moves.length} moves (${result.reason}); A played ${aIndex === 0 ? 'black' : 'white'}`);
    if (record !== undefined) {
      const from = replayed?.[Math.floor(game / 2)];
      const line = {
        game: from === undefined ? game + 1 : 2 * from.pair + 1 + (game % 2), size, rule, turnMs, seed: from?.seed ?? seed,
        black: order[0].name, white: order[1].name,
        opening, moves: result.moves, winner: result.winner, reason: result.reason,
      };
      appendFileSync(record, `${JSON.stringify(line)}\n`);
    }
  }
  const { mean, error } = meanWithErrorBar(pairScores);
  console.log(
    `A scored ${totals.a}/${totals.games} = ${(100 * mean).toFixed(1)}% ± ${(100 * error).toFixed(1)} ` +
      `(95%, over ${pairScores.length} ${openings > 0 ? 'opening pairs' : 'games'}); ` +
      `+${totals.wins} =${totals.draws} -${totals.losses}; ${(totals.moves / Math.max(1, totals.games)).toFixed(1)} moves a game after the opening`,
  );
  for (const index of [0, 1]) {
    const merged: BrainSide = { name: label(index, commands[index]), process: allSides[index].process, timeLeft: 0, moveMs: [] };
    let peak = 0;
    const first: number[] = [];
    for (let i = index; i < allSides.length; i += 2) {
      merged.moveMs.push(...allSides[i].moveMs);
      peak = Math.max(peak, allSides[i].peakRss ?? 0);
      first.push(...(allSides[i].firstTurns ?? []));
    }
    const firstMax = first.length > 0 ? Math.max(...first).toFixed(0) : '-';
    const limit = index === 1 ? (whiteTurnMs ?? turnMs) : turnMs;
    console.log(`${timingSummary(merged, limit)}; first turn with the start max ${firstMax} ms; peak resident memory ${Math.round(peak / 2 ** 20)} MiB`);
  }
});
