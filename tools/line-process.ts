/**
 * A child process spoken to line by line (the Gomocup manager side of tools/pbrain-match.ts, and
 * the scripted managers / GUIs of the adapter tests): send a line, wait for the next line that
 * passes a test, with a timeout; every line read is kept.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export class LineProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line, in order. */
  readonly lines: string[] = [];
  readonly stderr: string[] = [];
  private read = 0;
  private waiter: (() => void) | null = null;
  private exitCode: number | null | undefined;
  private readonly exited: Promise<number | null>;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.waiter?.();
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => this.stderr.push(line));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        this.exitCode = code;
        this.waiter?.();
        resolve(code);
      });
    });
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\r\n`);
  }

  /**
   * The next unread line passing `test` (lines before it are skipped: MESSAGE / DEBUG / status);
   * rejects after timeoutMs or when the process exits first.
   */
  async next(test: (line: string) => boolean = () => true, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.read < this.lines.length) {
        const line = this.lines[this.read++];
        if (test(line)) return line;
      }
      if (this.exitCode !== undefined) throw new Error(`process exited (${this.exitCode}) ${this.stderr.slice(-3).join(' | ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching line within ${timeoutMs} ms (last: ${this.lines.slice(-3).join(' | ')})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }

  /** Lines not read yet (consumes them). */
  drain(): string[] {
    const rest = this.lines.slice(this.read);
    this.read = this.lines.length;
    return rest;
  }

  /** Closes stdin and waits for the exit code; kills the process after timeoutMs. */
  async close(timeoutMs = 5000): Promise<number | null> {
    if (this.exitCode === undefined) this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  /** Waits for the process to exit by itself (after END / quit). */
  async exit(timeoutMs = 5000): Promise<number | null> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
