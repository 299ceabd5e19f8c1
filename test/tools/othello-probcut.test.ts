/**
 * The ProbCut fitting tool: a split of the sampled positions over threads measures the same positions
 * to the same values as one thread, so `--threads` never changes the committed table.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildProbCutTable } from '../../src/games/othello/probcut.js';
import { collect, fitSigmaModel, fitTable, readSamples, writeSamples, type FitOptions } from '../../tools/othello-probcut.js';
import { parseOpenings } from '../../tools/othello-match.js';
import { ROOT, urlFromRoot } from '../support/paths.js';
import { untracked } from '../support/untracked.js';

const root = ROOT;
const openings = parseOpenings(readFileSync(urlFromRoot('tools/othello-openings.txt'), 'utf8'));
const options: FitOptions = { positions: 6, maxDepth: 4, seed: 3, every: 5, randomPercent: 20, stageWidth: 10, stages: 7, openings };

t.test('collect: the parts of a split are the whole, position by position', async (t) => {
  const whole = collect(options, () => {});
  const parts = [collect(options, () => {}, 0, 3), collect(options, () => {}, 1, 3), collect(options, () => {}, 2, 3)];
  t.same(
    parts.map((p) => p.map((s) => s.index)),
    [
      [0, 3],
      [1, 4],
      [2, 5],
    ],
    'each part takes every third position',
  );
  const merged = parts.flat().sort((a, b) => a.index - b.index);
  t.same(
    merged.map((s) => [s.empties, [...s.values]]),
    whole.map((s) => [s.empties, [...s.values]]),
    'same empties and values',
  );
});

// Outside tap's tracker (test/support/untracked.ts): the compiled runs would merge their coverage over the sources',
// and under the tracker each run cost several times its own CPU.

function fit(out: string, threads: number): Promise<string> {
  const args = ['dist/tools/othello-probcut.js', '--positions', '10', '--max-depth', '4', '--seed', '3', '--out', out, '--threads', String(threads)];
  return new Promise((resolve, reject) => {
    execFile(...untracked(process.execPath, args), { cwd: root, encoding: 'utf8', timeout: 60_000 }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
}

t.test('the compiled tool writes the same table on one thread and on two', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-probcut-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const one = join(dir, 'one.json');
  const two = join(dir, 'two.json');
  await fit(one, 1);
  const log = await fit(two, 2);
  t.match(log, /wrote .*two\.json \(10 positions/);
  t.equal(readFileSync(two, 'utf8'), readFileSync(one, 'utf8'), 'identical files');
  const table = JSON.parse(readFileSync(two, 'utf8')) as { about: string };
  t.match(table.about, /^npm run othello-probcut -- --positions 10 --max-depth 4 --seed 3 \(/, 'about: the command without --out and --threads');
});

t.test('samples round-trip through a file; a fit keeps the base pairs and covers deeper depths with the sigma model', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kibitz-probcut-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Synthetic values: each ply d adds a step of +-(60 - 4 * d) hundredths (a fixed pseudo-random sign), so a deeper
  // shallow search predicts a deep one better and a wider gap worse, as in the measured tables.
  let seed = 12345;
  const sign = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) & 0x10000 ? 1 : -1);
  const samples = Array.from({ length: 120 }, (_, index) => {
    const values = new Float64Array(9);
    values[0] = 100 * sign();
    for (let d = 1; d <= 8; d++) values[d] = values[d - 1] + (60 - 4 * d) * sign();
    return { index, empties: 20 + (index % 30), values };
  });
  const file = join(dir, 'samples.jsonl');
  writeSamples(file, samples);
  const back = readSamples([file]);
  t.same(back.map((s) => [s.empties, [...s.values]]), samples.map((s) => [s.empties, [...s.values]]), 'the same samples');
  const fitOptions = { ...options, maxDepth: 8 };
  const model = fitSigmaModel(back, fitOptions, 12);
  t.equal(model.maxDepth, 12);
  t.ok(model.sigma[2] > 0, `a deeper deep depth: a wider sigma (${model.sigma[2]})`);
  t.ok(model.sigma[3] < 0, `a deeper shallow depth: a narrower sigma (${model.sigma[3]})`);
  const base = fitTable(back, { ...options, maxDepth: 6 }, 'base');
  const table = fitTable(back, fitOptions, 'deeper', base, 12);
  t.same(table.pairs.slice(0, 4), base.pairs, 'depths 3-6 kept from the base');
  t.same(table.pairs.map((p) => p.depth), [3, 4, 5, 6, 7, 8], 'depths 7 and 8 fitted');
  t.ok(table.model !== undefined && buildProbCutTable(table).maxDepth === 12, 'the model covers depths 9-12');
});
