/**
 * The probes of bench/load.ts, on a thread of their own: sequential requests to a cheap endpoint while the
 * load runs, each timed from its send to its last byte. In the load generator's thread they also timed that
 * thread's own delays (autocannon's forty connections share its event loop), which a prober of the service
 * (a kubelet, a load balancer) never sees.
 */
import { parentPort, workerData } from 'node:worker_threads';

export interface ProbeJob {
  readonly url: string;
  readonly init: RequestInit | undefined;
  /** Epoch ms at which probing stops. */
  readonly until: number;
  /** Pause between two probes. */
  readonly everyMs: number;
}

/** Times sequential probes until `until`; sorted ascending (ms). */
export async function probeTimes(job: ProbeJob): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < job.until) {
    const started = performance.now();
    try {
      await (await fetch(job.url, job.init)).arrayBuffer();
    } catch {
      // counted by its time anyway
    }
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, job.everyMs));
  }
  return times.sort((a, b) => a - b);
}

if (parentPort !== null && workerData !== null && typeof workerData === 'object' && 'url' in workerData) {
  parentPort.postMessage(await probeTimes(workerData as ProbeJob));
}
