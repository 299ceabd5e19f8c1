/** The real server process (dist/src/server.js, built by `npm test`'s pretest) on a free loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { killWithParent } from '../../bench/child-process.js';
import { connect, createServer } from 'node:net';
import { fromRoot } from './paths.js';
import { untracked } from './untracked.js';

const entry = fromRoot('dist/src/server.js');

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on the loopback port. */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts the server and returns once `/ready` answers 200, or with `untilPortOpens`, the moment the
 * port accepts a connection (polled every few milliseconds): what a client that races the start sees.
 * `untracked` runs it outside tap's process tracker and coverage (test/support/untracked.ts): for tests
 * that use the server as a fixture, where the tracker's loader and coverage only cost CPU and skew timings.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: { untilPortOpens?: boolean; untracked?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = killWithParent(
    spawn(...(options.untracked === true ? untracked(process.execPath, [entry]) : [process.execPath, [entry]] as const), {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    const up = options.untilPortOpens
      ? await portOpen(port)
      : await fetch(`${url}/ready`).then((r) => r.status === 200, () => false);
    if (up) break;
    if (Date.now() > until || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('the server did not become ready');
    }
    await new Promise((r) => setTimeout(r, options.untilPortOpens ? 2 : 100));
  }
  return {
    url,
    port,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
