/**
 * Search threads run at a lower scheduling priority than the event loop. On a machine with as many
 * busy search threads as cores, the event loop (health checks, validation, delivering answers, 503s)
 * otherwise waits for a time slice behind them, and every answer arrives late by that wait. A niced
 * thread still gets every cycle nobody else wants, so an idle server searches at full speed.
 *
 * Linux gives each thread its own nice value: setpriority(PRIO_PROCESS, tid) changes that thread
 * only, and lowering one's own priority needs no privilege. Elsewhere this does nothing. (Piscina's
 * own `niceIncrement` does the same through the optional native package @napi-rs/nice; Node's
 * os.setPriority with the thread's id needs no native code in the image.)
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The calling thread's kernel thread id (Linux), or undefined. */
export function kernelThreadId(): number | undefined {
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>" for the thread that reads it.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Sets the calling thread's nice value (0-19); true when it took effect. */
export function niceThisThread(nice: number): boolean {
  if (nice === 0) return false;
  const tid = kernelThreadId();
  if (tid === undefined) return false;
  try {
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
