/**
 * A command line that runs a child process outside tap's process tracker. tap's tracker adds itself to the
 * NODE_OPTIONS of every process a test spawns, and costs each Node child about a second of CPU (it loads
 * a module loader and records the child's coverage). Children that only check a command line's behaviour,
 * or serve as a fixture, and run the compiled dist/ code, need neither: `env -u` drops NODE_OPTIONS before
 * Node starts (tap sets no NODE_V8_COVERAGE; it is dropped too, for a suite run under c8 or the like).
 */
const UNSET = ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE'];

export function untracked(command: string, args: readonly string[]): [string, string[]] {
  return ['/usr/bin/env', [...UNSET, command, ...args]];
}

/**
 * The same for a shell command line (an NBoard engine the match tools start): `node` without tap's tracker or
 * coverage. The adapter's own tests cover it; here it is only the opponent of the tool under test.
 */
export const UNTRACKED_NODE = ['/usr/bin/env', ...UNSET, 'node'].join(' ');
