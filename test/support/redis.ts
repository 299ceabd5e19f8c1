/**
 * A throwaway redis-server for tests: a free loopback port, nothing written to disk (`--save ''`,
 * `--appendonly no`), killed at the end. The binary is KIBITZ_REDIS_SERVER, or `redis-server` on the PATH;
 * without one the test fails with a message saying how to get it (Redis tests are never skipped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { killWithParent } from '../../bench/child-process.js';
import { tmpdir } from 'node:os';
import { PREREQUISITES, binaryFor } from '../../scripts/test-prereqs.js';
import { pong } from '../../bench/replicas.js';
import { freePort } from './server-process.js';

/** The same choice as npm test's prerequisites step (scripts/test-prereqs.ts), which installs it when missing. */
export const REDIS_SERVER = binaryFor(PREREQUISITES[1]).binary;

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILL, as a crash would (in-flight commands are lost), and waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that accepts connections and answers nothing. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function launch(port: number): Promise<ChildProcess> {
  const child = killWithParent(
    spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `redis-server not found ("${REDIS_SERVER}"): the Redis tests need a real one. Install it (Debian: apt-get install ` +
                'redis-server) or set KIBITZ_REDIS_SERVER to its path.'
            : `could not start ${REDIS_SERVER}: ${error.message}`,
        ),
      );
    });
    const until = Date.now() + 10_000;
    const poll = async (): Promise<void> => {
      if (child.exitCode !== null) return reject(new Error(`${REDIS_SERVER} exited with ${child.exitCode}: ${stderr.trim()}`));
      if (await pong(port)) return resolve(child);
      if (Date.now() > until) {
        child.kill('SIGKILL');
        return reject(new Error(`${REDIS_SERVER} did not answer PING on port ${port} within 10 s`));
      }
      setTimeout(() => void poll(), 20);
    };
    child.once('spawn', () => void poll());
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => exited(child, 'SIGKILL'),
    restart: async () => {
      await exited(child, 'SIGKILL');
      child = await launch(port);
    },
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    stop: async () => {
      child.kill('SIGCONT');
      await exited(child, 'SIGKILL');
    },
  };
}
