/**
 * npm run bench [-- --quick] [-- --only mnk,othello,tablut,hadron,time,multipv,smp,http]
 *
 * Prints the project's figures: per game perft times, fixed-depth search node counts (a deterministic
 * signature, like a chess engine's `bench`) and nodes/s, solver timings; `time`: the share of a 1000 ms
 * budget the old and the new time manager use, and the depth they reach; `multipv`: the cost of
 * multi-PV (time to a fixed depth with 1, 3 and 8 lines per game); then HTTP latency and throughput of
 * best-move against a locally started server. Single-threaded engine figures run in
 * this process; the HTTP part starts `dist/src/server.js` on a free loopback port.
 */
import { availableParallelism, cpus } from 'node:os';
import { type ParsedArgs, UsageError, runCliIfMain } from '../src/core/cli.js';
import { runHttpBench } from './http.js';

type Section = (print: (line: string) => void, opts: { quick: boolean }) => Promise<void>;

const SECTIONS: Record<string, () => Promise<Section>> = {
  mnk: async () => (await import('./games/mnk.js')).run,
  othello: async () => (await import('./games/othello.js')).run,
  tablut: async () => (await import('./games/tablut.js')).run,
  hadron: async () => (await import('./games/hadron.js')).run,
  time: async () => (await import('./time.js')).run,
  multipv: async () => (await import('./multipv.js')).run,
  smp: async () => (await import('./smp.js')).run,
  http: async () => runHttpBench,
};

const spec = {
  name: 'bench',
  usage: `npm run bench [-- --quick] [-- --only SECTION[,SECTION...]]

Prints the project's figures: perft times, fixed-depth node signatures and nodes/s per game, solver
timings, then HTTP latency and throughput against a locally started server.

  --quick         shorter runs (smaller perft depths, fewer positions)
  --only LIST     sections to run, comma-separated: ${Object.keys(SECTIONS).join(', ')}
  --help          this text`,
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
} as const;

async function main({ values }: ParsedArgs<typeof spec.options>): Promise<void> {
  const quick = values.quick === true;
  const only = values.only === undefined ? Object.keys(SECTIONS) : String(values.only).split(',').map((s) => s.trim());
  const unknown = only.find((name) => SECTIONS[name] === undefined);
  if (unknown !== undefined) throw new UsageError(`unknown section '${unknown}'; known: ${Object.keys(SECTIONS).join(', ')}`);
  console.log(`kibitz bench${quick ? ' (quick)' : ''}: node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
  for (const name of only) {
    const load = SECTIONS[name]!;
    console.log(`\n== ${name} ==`);
    const started = Date.now();
    await (await load())((line) => console.log(line), { quick });
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

runCliIfMain(import.meta.url, spec, main);
