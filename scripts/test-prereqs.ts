/**
 * node dist/scripts/test-prereqs.js [--check]   (run by `npm test` before tap, after the build)
 *
 * The test suite drives real programs, not mocks: Debian's Chromium (the playground's browser tests)
 * and a real redis-server (the shared cache and rate limits). On a fresh machine neither is
 * installed, so the README's test command installs the missing ones with apt-get when it runs as root
 * on Debian (as CI does), and otherwise stops before the suite with one line per missing program
 * saying how to install it. Why apt-get rather than an npm package that ships a browser: docs/testing.md.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type ParsedArgs, runCliIfMain } from '../src/core/cli.js';

export interface Prerequisite {
  /** What the tests use it for. */
  readonly purpose: string;
  /** The environment variable that points the tests at another binary. */
  readonly envVar: string;
  /** The binary: an absolute path, or a name looked up on PATH. */
  readonly binary: string;
  /** The Debian package that installs `binary`. */
  readonly aptPackage: string;
}

export const PREREQUISITES = [
  { purpose: 'the playground browser tests', envVar: 'KIBITZ_CHROMIUM', binary: '/usr/bin/chromium', aptPackage: 'chromium' },
  { purpose: 'the shared-Redis tests', envVar: 'KIBITZ_REDIS_SERVER', binary: 'redis-server', aptPackage: 'redis-server' },
] as const satisfies readonly Prerequisite[];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** An absolute path as it is; a bare name resolved on PATH (undefined when not found). */
export function findExecutable(binary: string, path = process.env.PATH ?? ''): string | undefined {
  if (binary.includes('/')) return executable(binary) ? binary : undefined;
  for (const dir of path.split(delimiter)) {
    if (dir !== '' && executable(join(dir, binary))) return join(dir, binary);
  }
  return undefined;
}

/** The binary the tests run for a prerequisite: the environment's override, else the default. */
export function binaryFor(p: Prerequisite, env: NodeJS.ProcessEnv = process.env): { binary: string; overridden: boolean } {
  const override = env[p.envVar];
  return override !== undefined && override !== '' ? { binary: override, overridden: true } : { binary: p.binary, overridden: false };
}

/** The path of a prerequisite's binary, or an error naming what is missing and how to get it. */
export function requireBinary(p: Prerequisite, env: NodeJS.ProcessEnv = process.env): string {
  const { binary, overridden } = binaryFor(p, env);
  const found = findExecutable(binary, env.PATH ?? '');
  if (found !== undefined) return found;
  throw new Error(overridden ? `${p.envVar}=${binary}: no such executable (${p.purpose})` : missingLine(p));
}

function missingLine(p: Prerequisite): string {
  return `${p.binary} is missing (${p.purpose}): install Debian's ${p.aptPackage} (apt-get install -y ${p.aptPackage}), or set ${p.envVar}`;
}

export interface Plan {
  /** Packages to install with apt-get. */
  readonly install: string[];
  /** Problems that no install fixes here: one line each. */
  readonly problems: string[];
}

/**
 * What to do about the missing prerequisites: install the Debian packages when allowed (root, apt-get
 * present, the default binary asked for), else report. An override that points nowhere is always a problem.
 */
export function plan(env: NodeJS.ProcessEnv, canInstall: boolean, prerequisites: readonly Prerequisite[] = PREREQUISITES): Plan {
  const install: string[] = [];
  const problems: string[] = [];
  for (const p of prerequisites) {
    const { binary, overridden } = binaryFor(p, env);
    if (findExecutable(binary, env.PATH ?? '') !== undefined) continue;
    if (overridden) problems.push(`${p.envVar}=${binary}: no such executable (${p.purpose})`);
    else if (canInstall) install.push(p.aptPackage);
    else problems.push(missingLine(p));
  }
  return { install, problems };
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

const spec = {
  name: 'test-prereqs',
  usage: `node dist/scripts/test-prereqs.js [--check]   (npm test runs it before the suite)

Makes sure the programs the test suite drives are installed: Debian's chromium (browser tests) and
redis-server (shared-Redis tests). Missing ones are installed with apt-get when running as root on
Debian; otherwise it prints one line per missing program and exits 1. KIBITZ_CHROMIUM and
KIBITZ_REDIS_SERVER point the tests at other binaries.

  --check   only report: exit 1 if anything is missing, install nothing
  --help    this text`,
  options: { check: { type: 'boolean' } },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const canInstall = values.check !== true && isRoot && findExecutable('apt-get') !== undefined;
  const { install, problems } = plan(process.env, canInstall);
  if (install.length > 0) {
    const started = Date.now();
    console.log(`test-prereqs: installing ${install.join(', ')} with apt-get (the suite drives the real programs)`);
    const ok = run('apt-get', ['update', '-qq']) && run('apt-get', ['install', '-y', '-qq', ...install]);
    if (!ok) problems.push(`apt-get could not install ${install.join(', ')}`);
    else console.log(`test-prereqs: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    for (const p of PREREQUISITES) {
      if (ok && (install as string[]).includes(p.aptPackage) && findExecutable(p.binary) === undefined) problems.push(missingLine(p));
    }
  }
  if (problems.length > 0) {
    for (const line of problems) console.error(`test-prereqs: ${line}`);
    process.exitCode = 1;
  }
}

runCliIfMain(import.meta.url, spec, main);
