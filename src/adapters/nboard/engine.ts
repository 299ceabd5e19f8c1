/**
 * An NBoard engine (Chris Welty's NBoard protocol, version 2) over the Kibitz Othello engine.
 *
 * The GUI sends one command per line; the engine answers with `set myname`, `pong`, `status`,
 * `nodestats`, `search` (hint lines) and `=== move/eval/time` (go). Searches run on a worker thread
 * (the service's SearchPool with one thread), so the line reader stays free while the engine thinks:
 * a `ping` (or `quit`) read during a search stops it, and `pong` is written only after the search has
 * ended, as the protocol requires. Other commands read during a search wait their turn.
 *
 * Where the protocol document is silent, this follows Edax: `set depth N` answers
 * `set myname Kibitz<N>`; thinking is bracketed by `status Kibitz is thinking` / `... is waiting`;
 * `nodestats` after each completed iteration; problems go to stderr as `Error: ...` and are
 * otherwise ignored; a bare move ("F5") is taken as `move F5` (NBoard 1.1).
 * `learn` is acknowledged with `learned` (the document's requirement; there is no book to learn
 * into). `set contempt` is accepted and has no effect (the search has no contempt). Evals are in
 * discs for the side to move; a solved position reports its exact final disc difference.
 */
import { type GameDefinition } from '../../games/types.js';
import { definition as othello, type OthelloPosition } from '../../games/othello/index.js';
import { PASS_MOVE } from '../../games/othello/board.js';
import { CancelledError, type SearchPool } from '../../pool/pool.js';
import { newControlBlock, type SearchTaskResult } from '../../pool/task.js';
import { TOP_LEVEL } from '../../levels/levels.js';
import { MAX_MULTI_PV, type SearchLine } from '../../search/search.js';
import { NOT_TERMINAL, isProven } from '../../search/score.js';

export const ENGINE_NAME = 'Kibitz';

export interface NBoardOptions {
  /** Midgame depth until `set depth` (the GUI must send one before go / hint). */
  readonly defaultDepth: number;
  /** Wall-clock cap of one go / hint (NBoard gives no clock; a deep `set depth` must still end). */
  readonly maxSeconds: number;
  /** Playing level of `go` (src/levels/; default the top, full strength); hints always show the full engine's lines. */
  readonly level?: number;
  /** Seed of a level's choices (absent: random). */
  readonly seed?: number;
}

export const DEFAULT_NBOARD_OPTIONS: NBoardOptions = { defaultDepth: 12, maxSeconds: 10 };

const BOARD_TAG = /BO\[\s*8\s+([-*Oo.xX]{64})\s+([*Oo.xX])\s*\]/;
/** A B[..] or W[..] move property (not PB[..] / PW[..], the player names). */
const MOVE_TAG = /(?<![A-Za-z])([BW])\[([^\]]*)\]/g;
const SQUARE = /^([a-hA-H][1-8]|PA|pa|pass|PASS)$/;

interface Job {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

export class NBoardEngine {
  private readonly def: GameDefinition<OthelloPosition> = othello;
  private pos: OthelloPosition;
  private depth: number;
  private contempt = 0;
  private version = 0;
  private readonly queue: string[] = [];
  private job: Job | null = null;
  private pumping = false;
  private ended = false;
  private readonly moveBuffer = new Int32Array(64);

  constructor(
    private readonly pool: SearchPool,
    private readonly write: (line: string) => void,
    private readonly warn: (line: string) => void,
    private readonly options: NBoardOptions = DEFAULT_NBOARD_OPTIONS,
  ) {
    this.depth = options.defaultDepth;
    this.pos = this.startPosition();
  }

  /** True once `quit` was read (the caller closes the pool and exits). */
  get done(): boolean {
    return this.ended;
  }

  /** Resolves when every line read so far has been handled. */
  async idle(): Promise<void> {
    while (this.job !== null || this.queue.length > 0 || this.pumping) {
      if (this.job !== null) await this.job.done;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** End of input: the commands already read are still answered, then the engine is done. */
  finish(): void {
    if (this.ended) return;
    this.queue.push('quit');
    void this.pump();
  }

  /** A line from the GUI. A ping or quit read during a search stops it at once. */
  receive(raw: string): void {
    const line = raw.replace(/[\r\n]+$/, '').trim();
    if (line === '') return;
    const command = line.split(/\s+/, 1)[0];
    if (command === 'ping' || command === 'quit') {
      // Stop thinking: the running search, and searches still queued before this line (their
      // answers would relate to a position the GUI is leaving).
      this.job?.controller.abort();
      for (let i = this.queue.length - 1; i >= 0; i--) {
        if (/^(go|hint)\b/.test(this.queue[i])) this.queue.splice(i, 1);
      }
    }
    this.queue.push(line);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.ended) {
        const line = this.queue.shift()!;
        const job = this.handle(line);
        if (job !== null) {
          this.job = job;
          await job.done;
          this.job = null;
        }
      }
      // After quit nothing more is answered.
      if (this.ended) this.queue.length = 0;
    } finally {
      this.pumping = false;
    }
  }

  /** Handles one command; returns the search it started, if any. */
  private handle(line: string): Job | null {
    const [command, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    switch (command) {
      case 'nboard':
        this.version = Number(args);
        if (this.version !== 2) this.warn(`Error: ${ENGINE_NAME} speaks NBoard protocol version 2, got "nboard ${args}"`);
        return null;
      case 'set':
        this.set(rest[0] ?? '', rest.slice(1).join(' '));
        return null;
      case 'move':
        this.playMove(args);
        return null;
      case 'hint':
        return this.search(Math.max(1, Math.min(MAX_MULTI_PV, Number.parseInt(args, 10) || 1)), 'hint');
      case 'go':
        return this.search(1, 'go');
      case 'ping':
        this.write(`pong ${args}`);
        return null;
      case 'learn':
        this.write('learned');
        return null;
      case 'quit':
        this.ended = true;
        return null;
      default:
        if (SQUARE.test(command) && rest.length === 0) {
          this.playMove(command);
          return null;
        }
        // The protocol: "If you get a command you don't understand you should ignore the entire line."
        this.warn(`Error: unknown command "${clip(line)}" (ignored)`);
        return null;
    }
  }

  private set(what: string, value: string): void {
    switch (what) {
      case 'depth': {
        const depth = Number.parseInt(value, 10);
        if (!(depth >= 1 && depth <= 60)) {
          this.warn(`Error: set depth needs an integer from 1 to 60, got "${clip(value)}"`);
          return;
        }
        this.depth = depth;
        this.write(`set myname ${ENGINE_NAME}${depth}`);
        return;
      }
      case 'game': {
        const game = parseGgf(value, this.def);
        if (typeof game === 'string') this.warn(`Error: cannot use game: ${game}`);
        else this.pos = game;
        return;
      }
      case 'contempt': {
        const contempt = Number(value);
        if (Number.isFinite(contempt)) this.contempt = contempt;
        else this.warn(`Error: set contempt needs a number, got "${clip(value)}"`);
        return;
      }
      default:
        this.warn(`Error: unknown setting "set ${clip(what)}" (ignored)`);
    }
  }

  /** The contempt last set (accepted, not used by the search). */
  get contemptSetting(): number {
    return this.contempt;
  }

  private playMove(text: string): void {
    const error = applyMove(this.pos, text.split('/')[0], this.def, this.moveBuffer);
    if (error !== null) this.warn(`Error: cannot play "${clip(text)}": ${error}`);
  }

  private startPosition(): OthelloPosition {
    const start = this.def.initialState({});
    if (!start.ok) throw new Error('no Othello start position');
    const decoded = this.def.decodeState(start.value, undefined);
    if (!decoded.ok) throw new Error('no Othello start position');
    return decoded.value;
  }

  /** go (lines = 1) or hint n: one search on the worker thread. */
  private search(lines: number, kind: 'go' | 'hint'): Job | null {
    if (this.pos.terminal() !== NOT_TERMINAL) {
      this.warn(`Error: ${kind}: the game is over`);
      return null;
    }
    const controller = new AbortController();
    const started = Date.now();
    const snapshot = this.def.engine.snapshot(this.pos);
    const control = newControlBlock();
    let printed = '';
    const showLines = (found: readonly SearchLine[], depth: number): void => {
      const text = found.map((line) => `search ${this.pvText(line.pv)} ${formatEval(this.evalOf(line))} 0 ${depth}`).join('\n');
      if (text === printed || text === '') return;
      printed = text;
      for (const row of text.split('\n')) this.write(row);
    };
    this.write(`status ${ENGINE_NAME} is thinking`);
    const done = this.pool
      .submit(
        {
          task: {
            gameId: 'othello',
            snapshot,
            deadline: started + this.options.maxSeconds * 1000,
            maxDepth: this.depth,
            seed: this.options.seed,
            profile: undefined,
            control,
            ...(kind === 'go' && this.options.level !== undefined && this.options.level < TOP_LEVEL ? { level: this.options.level } : {}),
            ...(lines > 1 ? { multiPv: lines } : {}),
          },
          fallback: () => fallbackResult(this.pos, this.moveBuffer),
          onProgress: (info) => {
            this.write(`nodestats ${info.nodes} ${(info.elapsedMs / 1000).toFixed(2)}`);
            if (kind === 'hint') showLines(info.lines, info.depth);
          },
        },
        controller.signal,
      )
      .then(
        (outcome) => {
          const result = outcome.result;
          if (kind === 'hint') showLines(result.lines, result.depth);
          else if (result.move >= 0) {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            this.write(`=== ${moveText(result.move)}/${formatEval(this.evalOf(result))}/${seconds}`);
          }
        },
        (error: unknown) => {
          // A search stopped by ping / quit answers nothing more: the position is about to change.
          if (!(error instanceof CancelledError)) this.warn(`Error: search failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => this.write(`status ${ENGINE_NAME} is waiting`));
    return { controller, done };
  }

  private evalOf(line: { score: number; exact: boolean; exactScore?: number | undefined }): number {
    const engine = this.def.engine;
    if (line.exact || isProven(line.score)) {
      if (line.exactScore !== undefined) return line.exactScore;
      return line.score > 0 ? engine.provenWinScore : line.score < 0 ? -engine.provenWinScore : 0;
    }
    return engine.clientScore(line.score);
  }

  private pvText(pv: readonly number[]): string {
    return pv.map(moveText).join('-');
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

function formatEval(value: number): string {
  return value.toFixed(2);
}

/** NBoard move text: "F5" (upper case, as NBoard writes them) or "PA" for a pass. */
export function moveText(move: number): string {
  if (move === PASS_MOVE) return 'PA';
  return `${String.fromCharCode(65 + (move & 7))}${(move >> 3) + 1}`;
}

/**
 * Plays a move text ("F5", "f5", "PA") for the side to move. When that side has no legal move and
 * the text is a move of the other side, the pass is played first (GGF records may leave passes out).
 * Returns null, or what is wrong.
 */
export function applyMove(pos: OthelloPosition, text: string, def: GameDefinition<OthelloPosition>, buffer: Int32Array): string | null {
  const token = text.trim();
  if (!SQUARE.test(token)) return `"${token}" is not a square A1..H8 or PA`;
  const move = /^pa(ss)?$/i.test(token) ? PASS_MOVE : (() => {
    const decoded = def.decodeMove(pos, token.toLowerCase(), 'move');
    return decoded.ok ? decoded.value : -1;
  })();
  if (pos.terminal() !== NOT_TERMINAL) return 'the game is over';
  const count = pos.generateMoves(buffer, 0);
  const legal = buffer.subarray(0, count);
  if (legal.includes(move)) {
    pos.makeMove(move);
    return null;
  }
  if (count === 1 && legal[0] === PASS_MOVE && move !== PASS_MOVE) {
    pos.makeMove(PASS_MOVE);
    const again = pos.generateMoves(buffer, 0);
    if (buffer.subarray(0, again).includes(move)) {
      pos.makeMove(move);
      return null;
    }
    pos.unmakeMove(PASS_MOVE);
  }
  return `${token.toUpperCase()} is not legal here`;
}

/** The position at the end of a GGF game record (board BO[8 ...] then its B[..] / W[..] moves). */
export function parseGgf(text: string, def: GameDefinition<OthelloPosition>): OthelloPosition | string {
  const board = BOARD_TAG.exec(text);
  if (board === null) return 'no 8x8 board (BO[8 ...]) in the record';
  const cells = board[1];
  const rows: string[] = [];
  for (let r = 0; r < 8; r++) {
    rows.push([...cells.slice(r * 8, r * 8 + 8)].map((c) => (c === '*' || c === 'x' || c === 'X' ? 'B' : c === 'O' || c === 'o' ? 'W' : '.')).join(''));
  }
  const turn = board[2] === '*' || board[2] === 'x' || board[2] === 'X' ? 'B' : 'W';
  const decoded = def.decodeState({ board: rows, turn }, undefined);
  if (!decoded.ok) return `bad board: ${decoded.error.message}`;
  const pos = decoded.value;
  const buffer = new Int32Array(64);
  const after = text.slice(board.index + board[0].length);
  MOVE_TAG.lastIndex = 0;
  let number = 0;
  for (let m = MOVE_TAG.exec(after); m !== null; m = MOVE_TAG.exec(after)) {
    number++;
    const colour = m[1] === 'B' ? 0 : 1;
    const token = m[2].split('/')[0].trim();
    // A move of the side not to move: the side to move must have passed (a pass left out).
    if (colour !== pos.side && !/^pa(ss)?$/i.test(token)) {
      const count = pos.generateMoves(buffer, 0);
      if (count === 1 && buffer[0] === PASS_MOVE) pos.makeMove(PASS_MOVE);
      else return `move ${number} (${m[1]}[${m[2]}]) is not ${m[1] === 'B' ? 'Black' : 'White'}'s turn`;
    }
    const error = applyMove(pos, token, def, buffer);
    if (error !== null) return `move ${number} (${m[1]}[${m[2]}]): ${error}`;
  }
  return pos;
}

/** A legal move without search, for a job the pool could not start in time. */
function fallbackResult(pos: OthelloPosition, buffer: Int32Array): SearchTaskResult {
  const count = pos.generateMoves(buffer, 0);
  const move = count > 0 ? buffer[0] : -1;
  const now = Date.now();
  return {
    move,
    score: 0,
    exactScore: undefined,
    exact: false,
    pv: move >= 0 ? [move] : [],
    depth: 0,
    nodes: 0,
    stopReason: 'time',
    lines: move >= 0 ? [{ move, score: 0, pv: [move], exact: false }] : [],
    startedAt: now,
    finishedAt: now,
  };
}
