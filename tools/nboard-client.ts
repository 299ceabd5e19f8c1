/**
 * Drives an external Othello engine that speaks the NBoard protocol (version 2) over stdin/stdout,
 * for the Othello matches of tools/othello-match.ts and the opening selection of
 * tools/othello-openings.ts. The engine is any command line (run by the shell), e.g.
 * `cd /opt/ntest && ./ntest x`.
 *
 * Each question sends the whole game as GGF (`set game`), synchronises with `ping`/`pong` (so no
 * stale answer is taken for a new one) and then asks `go`; the answer is `=== MOVE[/eval[/time]]`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The NBoard board string of the standard start position: a1..h8, '*' black, 'O' white, then the side to move. */
const START_BOARD = '---------------------------O*------*O--------------------------- *';

export interface EngineAnswer {
  /** Lower-case square ('d3') or 'pass'. */
  readonly move: string;
  /** The engine's evaluation for the side to move, in discs, when it gave one. */
  readonly eval?: number;
  /** The engine's own reported time (s), when it gave one. */
  readonly engineSeconds?: number;
  /** Wall time from `go` to the answer (s), pipe included. */
  readonly wallSeconds: number;
}

/**
 * A game from the standard start in GGF, moves in playing order starting with Black ('pass' for a
 * pass), as NBoard sends it.
 */
export function ggfGame(moves: readonly string[]): string {
  const played = moves.map((m, i) => `${i % 2 === 0 ? 'B' : 'W'}[${m === 'pass' ? 'PA' : m.toUpperCase()}]`).join('');
  return `(;GM[Othello]PC[kibitz]PB[black]PW[white]RE[?]TY[8]BO[8 ${START_BOARD}]${played};)`;
}

/** Parses `=== F5/0.91/0.01` (eval and time optional) into a move and numbers; null if not an answer. */
export function parseAnswer(line: string): { move: string; eval?: number; engineSeconds?: number } | null {
  const m = /^===\s+([A-Za-z][1-8]|PA|pa|pass)(?:\/([-+]?[\d.]+)?)?(?:\/([\d.]+))?\s*$/.exec(line.trim());
  if (m === null) return null;
  const move = m[1].toLowerCase() === 'pa' ? 'pass' : m[1].toLowerCase();
  const out: { move: string; eval?: number; engineSeconds?: number } = { move };
  if (m[2] !== undefined && m[2] !== '') out.eval = Number(m[2]);
  if (m[3] !== undefined) out.engineSeconds = Number(m[3]);
  return out;
}

export class NBoardEngine {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  private pingCounter = 0;
  private exited = false;
  private exitReason = '';
  private readonly stderrTail: string[] = [];
  /** Every line the engine printed last (for error messages). */
  private lastLines: string[] = [];

  constructor(command: string) {
    this.child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines = createInterface({ input: this.child.stdout });
    lines.on('line', (line) => this.onLine(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > 5) this.stderrTail.shift();
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      this.exitReason = `engine exited (${signal ?? code})${this.stderrTail.length > 0 ? `: ${this.stderrTail.join(' | ')}` : ''}`;
      for (const w of this.waiting.splice(0)) w.resolve('');
    });
    this.child.on('error', (error) => {
      this.exited = true;
      this.exitReason = `engine failed to start: ${error.message}`;
      for (const w of this.waiting.splice(0)) w.resolve('');
    });
    this.send('nboard 2');
  }

  private onLine(line: string): void {
    this.lastLines.push(line);
    if (this.lastLines.length > 5) this.lastLines.shift();
    const at = this.waiting.findIndex((w) => w.test(line));
    if (at >= 0) this.waiting.splice(at, 1)[0].resolve(line);
  }

  private send(line: string): void {
    if (this.exited) throw new Error(this.exitReason);
    this.child.stdin.write(`${line}\n`);
  }

  private async expect(test: (line: string) => boolean, what: string): Promise<string> {
    const line = await new Promise<string>((resolve) => {
      if (this.exited) resolve('');
      else this.waiting.push({ test, resolve });
    });
    if (this.exited && !test(line)) throw new Error(`${this.exitReason} while waiting for ${what}`);
    return line;
  }

  /** Sets the engine's midgame depth (NBoard `set depth`). */
  async setDepth(depth: number): Promise<void> {
    this.send(`set depth ${depth}`);
    await this.sync();
  }

  private async sync(): Promise<void> {
    const n = ++this.pingCounter;
    this.send(`ping ${n}`);
    await this.expect((line) => line.trim() === `pong ${n}`, `pong ${n}`);
  }

  /** The engine's move in the position after `moves` (from the standard start). */
  async bestMove(moves: readonly string[]): Promise<EngineAnswer> {
    this.send(`set game ${ggfGame(moves)}`);
    await this.sync();
    const started = process.hrtime.bigint();
    this.send('go');
    const line = await this.expect((l) => parseAnswer(l) !== null, "the engine's move (=== ...)");
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const parsed = parseAnswer(line);
    if (parsed === null) throw new Error(`unreadable answer '${line}' (last lines: ${this.lastLines.join(' | ')})`);
    return { ...parsed, wallSeconds };
  }

  /** Ends the session: closing stdin makes an NBoard engine quit; a stubborn one is killed. */
  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await gone;
    clearTimeout(timer);
  }
}
