/**
 * One convention for every command-line entry (bench, tools, clients, adapters):
 *  - `--help` (or `-h`) prints the usage text and exits 0;
 *  - a bad option or argument prints one line, `<name>: <problem> (try --help)`, and exits 2, never a stack;
 *  - an error while running prints its message and exits 1.
 * `runIfMain` runs the entry only when its module is the script node was started with, so tests import
 * the same modules without running them.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A problem with the command line: reported in one line with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

export interface CliSpec<O extends CliOptions> {
  /** Command name used in messages (e.g. `npm run arena`). */
  readonly name: string;
  /** The whole usage text printed by --help. */
  readonly usage: string;
  readonly options: O;
  /** Accept positional arguments (default false: any positional is a usage error). */
  readonly positionals?: boolean;
}

export interface ParsedArgs<O extends CliOptions> {
  readonly values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>['values'];
  readonly positionals: string[];
}

/**
 * Parses argv against the spec. Returns null when --help was asked for (the usage is printed);
 * throws UsageError for an unknown option, a missing value or a stray positional.
 */
export function parseCli<O extends CliOptions>(spec: CliSpec<O>, argv: readonly string[]): ParsedArgs<O> | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(spec.usage.endsWith('\n') ? spec.usage : `${spec.usage}\n`);
    return null;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: spec.options, allowPositionals: true, strict: true });
  } catch (error) {
    // node's message goes on about positionals after '--'; one clause is enough.
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0].replace(/\. To specify a positional.*$/, '') : String(error));
  }
  if (spec.positionals !== true && parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument '${parsed.positionals[0]}'`);
  }
  return parsed as unknown as ParsedArgs<O>;
}

/** Reads an integer option; a non-integer or out-of-range value is a UsageError naming the option. */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min = -Infinity, max = Infinity): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    const range = min === -Infinity && max === Infinity ? 'an integer' : `an integer from ${min} to ${max === Infinity ? 'up' : max}`;
    throw new UsageError(`--${name} must be ${range}, got '${String(raw)}'`);
  }
  return value;
}

/** Reads a number option from min to max; anything else is a UsageError naming the option. */
export function numberOption(values: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, got '${String(raw)}'`);
  }
  return value;
}

/** Reads a K/M share option: this process takes items K-1, K-1+M, ... (returned zero-based); absent: all. */
export function partOption(values: Record<string, unknown>, name: string): { part: number; parts: number } {
  const raw = values[name];
  if (raw === undefined) return { part: 0, parts: 1 };
  const m = typeof raw === 'string' ? /^(\d+)\/(\d+)$/.exec(raw) : null;
  if (m === null || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--${name} must be K/M with 1 <= K <= M, got '${String(raw)}'`);
  return { part: Number(m[1]) - 1, parts: Number(m[2]) };
}

/** Reads an A-B range option (A <= B, B below `below`); absent: undefined. */
export function rangeOption(values: Record<string, unknown>, name: string, below = Infinity): [number, number] | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const m = typeof raw === 'string' ? /^(\d+)-(\d+)$/.exec(raw) : null;
  if (m === null || Number(m[1]) > Number(m[2]) || Number(m[2]) >= below) {
    throw new UsageError(`--${name} must be A-B with A <= B${below === Infinity ? '' : ` < ${below}`}, got '${String(raw)}'`);
  }
  return [Number(m[1]), Number(m[2])];
}

/** Exit code for an error thrown by an entry: 2 for usage problems, 1 otherwise; prints one line. */
export function reportError(name: string, error: unknown): number {
  const { code, line } = describeError(name, error);
  process.stderr.write(`${line}\n`);
  return code;
}

/** The one line and the exit code reportError would print and return, for entries that print elsewhere. */
export function describeError(name: string, error: unknown): { code: number; line: string } {
  if (error instanceof UsageError) return { code: 2, line: `${name}: ${error.message} (try --help)` };
  return { code: 1, line: `${name}: ${error instanceof Error ? error.message : String(error)}` };
}

/** True when the module at moduleUrl is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Runs a command-line entry when its module is the main script: parses argv with the spec (--help,
 * usage errors exit 2), then runs main with the parsed arguments; an error exits 1 with its message.
 * main may return an exit code.
 */
export function runCliIfMain<O extends CliOptions>(
  moduleUrl: string,
  spec: CliSpec<O>,
  main: (args: ParsedArgs<O>) => void | number | Promise<void | number>,
): void {
  if (!isMain(moduleUrl)) return;
  Promise.resolve()
    .then(() => {
      const args = parseCli(spec, process.argv.slice(2));
      return args === null ? 0 : main(args);
    })
    .then(
      (code) => {
        if (typeof code === 'number' && code !== 0) process.exitCode = code;
      },
      (error: unknown) => process.exit(reportError(spec.name, error)),
    );
}

/** Older entries: runs main when the module is the main script; an error prints its message and exits 1. */
export function runIfMain(moduleUrl: string, main: () => void | Promise<void>): void {
  if (!isMain(moduleUrl)) return;
  Promise.resolve()
    .then(main)
    .catch((error: unknown) => process.exit(reportError(fileURLToPath(moduleUrl).split('/').pop() ?? 'kibitz', error)));
}
