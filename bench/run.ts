/**
 * npm run bench [-- --quick] [-- --only mnk,othello,tablut,hadron,time,http]
 *
 * Prints the project's figures: per game perft times, fixed-depth search node counts (a deterministic
 * signature, like a chess engine's `bench`) and nodes/s, solver timings; then HTTP latency and
 * throughput of best-move against a locally started server. `time`: the share of a 1000 ms budget
 * the old and the new time manager use, and the depth they reach (bench/time.ts). Single-threaded engine figures run in
 * this process; the HTTP part starts `dist/src/server.js` on a free loopback port.
 */
import { parseArgs } from 'node:util';
import { availableParallelism, cpus } from 'node:os';
import { runHttpBench } from './http.js';

type Section = (print: (line: string) => void, opts: { quick: boolean }) => Promise<void>;

const SECTIONS: Record<string, () => Promise<Section>> = {
  mnk: async () => (await import('./games/mnk.js')).run,
  othello: async () => (await import('./games/othello.js')).run,
  tablut: async () => (await import('./games/tablut.js')).run,
  hadron: async () => (await import('./games/hadron.js')).run,
  time: async () => (await import('./time.js')).run,
  http: async () => runHttpBench,
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
  });
  const quick = values.quick!;
  const only = values.only === undefined ? Object.keys(SECTIONS) : values.only.split(',').map((s) => s.trim());
  console.log(`kibitz bench${quick ? ' (quick)' : ''}: node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
  for (const name of only) {
    const load = SECTIONS[name];
    if (load === undefined) throw new Error(`unknown section ${name}; known: ${Object.keys(SECTIONS).join(', ')}`);
    console.log(`\n== ${name} ==`);
    const started = Date.now();
    await (await load())((line) => console.log(line), { quick });
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
