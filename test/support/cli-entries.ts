/**
 * The command-line convention of src/core/cli.ts, checked on compiled entries as a user runs them:
 * `--help` prints a usage text and exits 0; a bad option prints one line naming it and exits 2, with
 * no stack trace. Shared by test/tools/cli/service-entries.ts and cli-tools.test.ts (the entries are split over two files so that
 * each stays well inside the suite's per-file time limit on a loaded machine).
 */
import { execFile } from 'node:child_process';
import type { Test } from 'tap';
import { untracked } from './untracked.js';
import { ROOT } from './paths.js';

const root = ROOT;


// Untracked (test/support/untracked.ts): these processes only load the modules and parse options, and
// their (compiled) coverage would be merged over the in-process coverage of the same sources.

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(entry: string, arg: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      ...untracked(process.execPath, [entry, arg]),
      { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...process.env, PORT: '0' } },
      (_e, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

// Four processes at a time (each is mostly module loading): a few seconds in all on an idle machine.
const PARALLEL = 4;

export function checkEntries(t: Test, entries: readonly string[]): void {
  const jobs = entries.flatMap((entry) => [[entry, '--help'], [entry, '--no-such-option']] as const);
  const results = new Map<string, Promise<Outcome>>();
  const lanes: Promise<unknown>[] = Array.from({ length: PARALLEL }, () => Promise.resolve());
  jobs.forEach(([entry, arg], i) => {
    const lane = i % PARALLEL;
    const outcome = lanes[lane].then(() => run(entry, arg));
    lanes[lane] = outcome;
    results.set(`${entry} ${arg}`, outcome);
  });
  const outcomes = new Map(entries.map((entry) => [entry, Promise.all([results.get(`${entry} --help`)!, results.get(`${entry} --no-such-option`)!])]));

  for (const entry of entries) {
    t.test(entry, async (t) => {
      const [help, bad] = await outcomes.get(entry)!;
      t.equal(help.status, 0, '--help exits 0');
      t.match(help.stdout, /npm (run|start)|node dist|pbrain-kibitz|kibitz-nboard/, 'usage names the command');
      t.match(help.stdout, /--help/, 'usage lists --help');
      t.equal(bad.status, 2, 'a bad option exits 2');
      const lines = bad.stderr.trim().split('\n');
      t.equal(lines.length, 1, 'in one line');
      t.match(lines[0], /Unknown option '--no-such-option'.*\(try --help\)$/);
      t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace');
    });
  }
}
