/**
 * A Gomocup / Piskvork brain (the "new" pipe protocol of Petr Lastovicka's manager) over the MNK
 * engine: one line in, zero or more lines out, searched in-process (the manager suspends the brain
 * between its turns, so a single thread is what the protocol expects).
 *
 * Coordinates are the protocol's: `X,Y` with X the column (0 .. width-1) and Y the row, both from
 * zero; RECTSTART gives width (X) then height (Y). Internally the board is an MNK position with
 * rows = Y and columns = X, our stones as side 0 (X) and the opponent's as side 1, our side to move.
 *
 * Rules (INFO rule, a bitmask): 0 freestyle (five or more wins), 1 exactly five (the MNK game's
 * exactK). Continuous game (2), renju (4) and caro (8) are not supported: as the protocol asks for
 * INFO problems, the brain says so with ERROR at the next BEGIN / TURN / BOARD (and START answers
 * OK, so a manager can still send another rule).
 *
 * Time: each move gets min(timeout_turn, time_left / TIME_LEFT_SHARE) less a safety margin, from
 * the moment its command line was read; timeout_turn 0 means "play as fast as possible" (a 2-ply
 * search). The margin covers what runs after the search's deadline (the last node batch, the
 * reply); docs/adapters.md gives the measured overshoot it is based on.
 */
import { engine } from '../../games/mnk/index.js';
import { MnkPosition } from '../../games/mnk/position.js';
import { DEFAULT_PROFILE } from '../../games/mnk/profile.js';
import { analyse } from '../../search/analyse.js';
import { type IterationInfo, Searcher } from '../../search/search.js';
import { isProven, provenPlies } from '../../search/score.js';
import { TranspositionTable } from '../../search/tt.js';
import { WIN_PROB_CURVES } from '../../analysis/winprob.js';
import { levelSetting } from '../../levels/levels.js';
import { playLevel } from '../../levels/play.js';

export const BRAIN_NAME = 'pbrain-kibitz';
export const BRAIN_VERSION = '0.1.0';
/** Gomoku: five in a row. */
const K = 5;
export const MIN_SIZE = 5;
export const MAX_SIZE = 100;
/** Protocol: "Remaining time is equal to 2147483647 if the time for a whole match is unlimited". */
const UNLIMITED = 2147483647;
/** A move may use this fraction of the match time left (the rest is kept for later moves). */
export const TIME_LEFT_SHARE = 15;
/** timeout_turn 0: "play as fast as possible". */
const FAST_DEPTH = 2;
const FAST_MS = 20;
/** Smallest budget ever searched (a search needs a few milliseconds to return a move at all). */
const MIN_BUDGET_MS = 5;
const RULE_EXACT_FIVE = 1;
const RULE_CONTINUOUS = 2;
const RULE_RENJU = 4;
const RULE_CARO = 8;
const MB = 1024 * 1024;

export interface BrainOptions {
  /** timeout_turn used until the manager sends one (ms). */
  readonly defaultTurnMs: number;
  /** Milliseconds kept back from every budget for what runs after the search's deadline... */
  readonly marginMs: number;
  /** ...plus this percentage of the limit (scheduling delays grow with the machine's load, not with the limit, but GC and the last node batch do). */
  readonly marginPct: number;
  /** Transposition table size (MiB) when the manager sets no memory limit. */
  readonly ttMb: number;
  /** Wall clock (tests may replace it). */
  readonly now?: () => number;
  /**
   * When the process started (Date.now() scale), if known. A referee may start the first turn's clock
   * at the brain's launch (Gomocup's does): the first move, when it comes within one turn of the start,
   * counts its budget from the start instead of from its command.
   */
  readonly processStart?: number;
  /** Playing level (src/levels/; default the top, full strength). */
  readonly level?: number;
  /** Seed of a level's choices (absent: random); with it the same game gets the same moves. */
  readonly seed?: number;
}

export const DEFAULT_BRAIN_OPTIONS: BrainOptions = { defaultTurnMs: 5000, marginMs: 50, marginPct: 2, ttMb: 64 };

/** What the brain knows from INFO lines. */
export interface BrainInfo {
  timeoutTurn: number;
  timeoutMatch: number;
  timeLeft: number;
  maxMemory: number;
  rule: number;
  gameType: number;
  folder: string;
}

/** Figures of the last move searched (for tests and the time measurement). */
export interface MoveReport {
  readonly budgetMs: number;
  /** From reading the command line to writing the move. */
  readonly elapsedMs: number;
  readonly depth: number;
  readonly nodes: number;
}

const NUMBER = /^\s*(-?\d{1,9})\s*$/;
const PAIR = /^\s*(\d{1,4})\s*,\s*(\d{1,4})\s*$/;
const TRIPLE = /^\s*(\d{1,4})\s*,\s*(\d{1,4})\s*,\s*(\d{1,2})\s*$/;

export class GomocupBrain {
  readonly info: BrainInfo;
  lastMove: MoveReport | undefined;
  private width = 0;
  private height = 0;
  /** Y * width + X: 0 empty, 1 ours, 2 the opponent's. */
  private cells = new Uint8Array(0);
  private readonly options: BrainOptions;
  private readonly now: () => number;
  private searcher: Searcher | undefined;
  private searcherMb = 0;
  /** Inside BOARD (or SWAP2BOARD) ... DONE: the lines read so far and the first error among them. */
  private block: { kind: 'BOARD' | 'SWAP2BOARD'; stones: [number, number, number][]; error: string | null; started: number } | null = null;
  private ended = false;

  constructor(private readonly write: (line: string) => void, options: Partial<BrainOptions> = {}) {
    this.options = { ...DEFAULT_BRAIN_OPTIONS, ...options };
    this.now = this.options.now ?? Date.now;
    this.info = { timeoutTurn: this.options.defaultTurnMs, timeoutMatch: 0, timeLeft: UNLIMITED, maxMemory: 0, rule: 0, gameType: 1, folder: '' };
  }

  /** True once END was read: the caller stops reading and exits. */
  get done(): boolean {
    return this.ended;
  }

  /** Handles one line from the manager (line ending already stripped or not). */
  handle(raw: string): void {
    const received = this.now();
    const line = raw.replace(/[\r\n]+$/, '').trim();
    if (this.ended || line === '') return;
    if (this.block !== null) {
      this.blockLine(line);
      return;
    }
    const space = line.indexOf(' ');
    const command = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const args = space < 0 ? '' : line.slice(space + 1).trim();
    switch (command) {
      case 'START':
        return this.start(args);
      case 'RECTSTART':
        return this.rectStart(args);
      case 'RESTART':
        return this.restart(args);
      case 'BEGIN':
        return this.begin(args, received);
      case 'TURN':
        return this.turn(args, received);
      case 'BOARD':
      case 'SWAP2BOARD':
        this.block = { kind: command, stones: [], error: args === '' ? null : `${command} takes no arguments`, started: received };
        return;
      case 'TAKEBACK':
        return this.takeBack(args);
      case 'PLAY':
        return this.play(args);
      case 'INFO':
        return this.setInfo(args);
      case 'END':
        this.ended = true;
        return;
      case 'ABOUT':
        this.write(`name="${BRAIN_NAME}", version="${BRAIN_VERSION}", author="Kibitz"`);
        return;
      default:
        this.write(`UNKNOWN command '${clip(command)}' (this brain knows START RECTSTART RESTART BEGIN TURN BOARD TAKEBACK PLAY INFO END ABOUT)`);
    }
  }

  private start(args: string): void {
    const m = NUMBER.exec(args);
    if (m === null) return this.write(`ERROR START needs a board size, got '${clip(args)}'`);
    this.newBoard(Number(m[1]), Number(m[1]));
  }

  private rectStart(args: string): void {
    const m = PAIR.exec(args);
    if (m === null) return this.write(`ERROR RECTSTART needs width,height, got '${clip(args)}'`);
    this.newBoard(Number(m[1]), Number(m[2]));
  }

  private newBoard(width: number, height: number): void {
    if (width < MIN_SIZE || width > MAX_SIZE || height < MIN_SIZE || height > MAX_SIZE) {
      return this.write(`ERROR unsupported board size ${width}x${height}: sides from ${MIN_SIZE} to ${MAX_SIZE}`);
    }
    this.width = width;
    this.height = height;
    this.cells = new Uint8Array(width * height);
    // The table is allocated here: initialisation does not count against a move's time, the first move does.
    this.ensureSearcher();
    this.write('OK');
  }

  private restart(args: string): void {
    if (args !== '') return this.write('ERROR RESTART takes no arguments');
    if (!this.started()) return this.write('ERROR RESTART before START');
    this.cells.fill(0);
    this.write('OK');
  }

  private begin(args: string, received: number): void {
    if (args !== '') return this.write('ERROR BEGIN takes no arguments');
    if (!this.started()) return this.write('ERROR BEGIN before START');
    this.think(received);
  }

  private turn(args: string, received: number): void {
    if (!this.started()) return this.write('ERROR TURN before START');
    const cell = this.parseCell(args, 'TURN');
    if (typeof cell === 'string') return this.write(`ERROR ${cell}`);
    if (this.cells[cell] !== 0) return this.write(`ERROR TURN ${args}: that square is already taken`);
    this.cells[cell] = 2;
    this.think(received);
  }

  private takeBack(args: string): void {
    if (!this.started()) return this.write('ERROR TAKEBACK before START');
    const cell = this.parseCell(args, 'TAKEBACK');
    if (typeof cell === 'string') return this.write(`ERROR ${cell}`);
    if (this.cells[cell] === 0) return this.write(`ERROR TAKEBACK ${args}: that square is empty`);
    this.cells[cell] = 0;
    this.write('OK');
  }

  /** The manager's answer to SUGGEST (never sent by this brain, handled all the same): play there. */
  private play(args: string): void {
    if (!this.started()) return this.write('ERROR PLAY before START');
    const cell = this.parseCell(args, 'PLAY');
    if (typeof cell === 'string') return this.write(`ERROR ${cell}`);
    if (this.cells[cell] !== 0) return this.write(`ERROR PLAY ${args}: that square is already taken`);
    this.cells[cell] = 1;
    this.write(`${cell % this.width},${Math.floor(cell / this.width)}`);
  }

  private setInfo(args: string): void {
    const space = args.indexOf(' ');
    const key = (space < 0 ? args : args.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : args.slice(space + 1).trim();
    const numeric = NUMBER.exec(value);
    const n = numeric === null ? NaN : Number(numeric[1]);
    // INFO has no answer (the manager does not read one): bad values are ignored, like unknown keys.
    switch (key) {
      case 'timeout_turn':
        if (n >= 0) this.info.timeoutTurn = n;
        break;
      case 'timeout_match':
        if (n >= 0) this.info.timeoutMatch = n;
        break;
      case 'time_left':
        if (!Number.isNaN(n)) this.info.timeLeft = n;
        break;
      case 'max_memory':
        if (n >= 0) this.info.maxMemory = n;
        break;
      case 'rule':
        if (n >= 0) this.info.rule = n;
        break;
      case 'game_type':
        if (n >= 0) this.info.gameType = n;
        break;
      case 'folder':
        this.info.folder = value;
        break;
      default:
        break;
    }
  }

  private blockLine(line: string): void {
    const block = this.block!;
    if (line.toUpperCase() === 'DONE') {
      this.block = null;
      if (block.kind === 'SWAP2BOARD') return this.write('ERROR SWAP2BOARD (swap2 openings) is not supported by this brain');
      return this.boardDone(block.stones, block.error, block.started);
    }
    if (block.error !== null) return;
    if (block.kind === 'SWAP2BOARD') return;
    const m = TRIPLE.exec(line);
    if (m === null) {
      block.error = `BOARD line '${clip(line)}' is not X,Y,field`;
      return;
    }
    const [x, y, field] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (field === 3) block.error = `BOARD line '${line}': field 3 belongs to the continuous game, which this brain does not support`;
    else if (field !== 1 && field !== 2) block.error = `BOARD line '${line}': field must be 1 (own stone) or 2 (opponent's)`;
    else block.stones.push([x, y, field]);
  }

  private boardDone(stones: readonly [number, number, number][], error: string | null, received: number): void {
    if (error !== null) return this.write(`ERROR ${error}`);
    if (!this.started()) return this.write('ERROR BOARD before START');
    const cells = new Uint8Array(this.width * this.height);
    for (const [x, y, field] of stones) {
      if (x >= this.width || y >= this.height) return this.write(`ERROR BOARD stone ${x},${y} is off the ${this.width}x${this.height} board`);
      const cell = y * this.width + x;
      if (cells[cell] !== 0) return this.write(`ERROR BOARD square ${x},${y} is listed twice`);
      cells[cell] = field;
    }
    this.cells = cells;
    this.think(received);
  }

  private started(): boolean {
    return this.width > 0;
  }

  /** X,Y to a cell index, or the error text. */
  private parseCell(args: string, command: string): number | string {
    const m = PAIR.exec(args);
    if (m === null) return `${command} needs X,Y, got '${clip(args)}'`;
    const x = Number(m[1]);
    const y = Number(m[2]);
    if (x >= this.width || y >= this.height) return `${command} ${x},${y} is off the ${this.width}x${this.height} board`;
    return y * this.width + x;
  }

  /** The rule problem to report at the next move command, or null when the rule is supported. */
  private ruleProblem(): string | null {
    const rule = this.info.rule;
    if ((rule & RULE_RENJU) !== 0) return `rule ${rule}: renju is not supported (only freestyle, rule 0, and exactly five, rule 1)`;
    if ((rule & RULE_CARO) !== 0) return `rule ${rule}: caro is not supported (only freestyle, rule 0, and exactly five, rule 1)`;
    if ((rule & RULE_CONTINUOUS) !== 0) return `rule ${rule}: the continuous game is not supported (only rules 0 and 1)`;
    if (rule > RULE_CARO * 2 - 1) return `rule ${rule}: unknown rule bits (only rules 0 and 1 are supported)`;
    return null;
  }

  /** Milliseconds this move may search, counted from `received`. */
  budgetMs(): number {
    const { timeoutTurn, timeLeft } = this.info;
    if (timeoutTurn === 0) return FAST_MS;
    const keep = (limit: number) => limit - this.options.marginMs - (limit * this.options.marginPct) / 100;
    let budget = keep(timeoutTurn);
    if (timeLeft < UNLIMITED) budget = Math.min(budget, keep(timeLeft / TIME_LEFT_SHARE));
    return Math.max(MIN_BUDGET_MS, Math.floor(budget));
  }

  private ttMb(): number {
    const max = this.info.maxMemory;
    // The table gets a quarter of a memory limit (node itself needs most of the rest).
    return max > 0 ? Math.max(1, Math.min(this.options.ttMb, Math.floor(max / MB / 4))) : this.options.ttMb;
  }

  /** The searcher, with a table of the size the memory settings ask for. */
  private ensureSearcher(): Searcher {
    const mb = this.ttMb();
    if (this.searcher === undefined || this.searcherMb !== mb) {
      this.searcher = new Searcher(new TranspositionTable(mb));
      this.searcherMb = mb;
    }
    return this.searcher;
  }

  private firstThink = true;

  private think(commandAt: number): void {
    let received = commandAt;
    const start = this.options.processStart;
    if (this.firstThink && start !== undefined && start < commandAt && commandAt - start < this.info.timeoutTurn) received = start;
    this.firstThink = false;
    const problem = this.ruleProblem();
    if (problem !== null) return this.write(`ERROR ${problem}`);
    const free = this.cells.indexOf(0);
    if (free < 0) return this.write('ERROR the board is full: there is no move to make');
    const searcher = this.ensureSearcher();
    const exactK = (this.info.rule & RULE_EXACT_FIVE) !== 0;
    const pos = new MnkPosition(this.height, this.width, K, Uint8Array.from(this.cells), 0, DEFAULT_PROFILE, exactK);
    const budget = this.budgetMs();
    const fast = this.info.timeoutTurn === 0;
    const deadline = received + budget;
    const setting = levelSetting('mnk', this.options.level);
    const seed = this.options.seed ?? Math.floor(Math.random() * 4294967296);
    const result = setting !== undefined ? playLevel(engine, pos, searcher, setting, WIN_PROB_CURVES.mnk, seed, { deadline }) : analyse(engine, pos, searcher, {
      deadline,
      ...(fast ? { maxDepth: FAST_DEPTH } : {}),
      onIteration: (it: IterationInfo) => this.write(`DEBUG depth ${it.depth} ${this.describe(it.lines[0]?.score ?? 0, it.lines[0]?.pv ?? [])}`),
    });
    // A finished game (the opponent already has five) still gets a move: the first empty square.
    const move = result.move >= 0 && this.cells[result.move] === 0 ? result.move : free;
    this.cells[move] = 1;
    const elapsed = this.now() - received;
    this.lastMove = { budgetMs: budget, elapsedMs: elapsed, depth: result.depth, nodes: result.nodes };
    this.write(`MESSAGE depth ${result.depth} ${this.describe(result.score, result.pv)} nodes ${result.nodes} time ${elapsed}/${budget} ms`);
    this.write(`${move % this.width},${Math.floor(move / this.width)}`);
  }

  private describe(score: number, pv: readonly number[]): string {
    const value = isProven(score)
      ? `${score > 0 ? 'win' : score < 0 ? 'loss' : 'draw'} in ${provenPlies(score)} plies`
      : `score ${engine.clientScore(score)}`;
    const line = pv.slice(0, 8).map((cell) => `${cell % this.width},${Math.floor(cell / this.width)}`).join(' ');
    return `${value} pv ${line}`;
  }
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
