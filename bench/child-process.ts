/**
 * A child process (a server, a redis-server) that must not outlive the process that started it: a bench
 * stopped with Ctrl-C, or a test file that tap times out and ends with a signal, would otherwise leave it
 * running and holding a port. signal-exit runs the hook on a normal exit and on the fatal signals alike.
 */
import type { ChildProcess } from 'node:child_process';
import { onExit } from 'signal-exit';

export function killWithParent<C extends ChildProcess>(child: C): C {
  const remove = onExit(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.once('exit', () => remove());
  return child;
}
