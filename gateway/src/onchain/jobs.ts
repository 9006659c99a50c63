/**
 * The watcher on the job runner (docs/onchain.md): one job per configured chain at a time (queue
 * policy `stately`, keyed by the chain), which watches for ONCHAIN_SLICE_SECONDS and then sends the
 * next one. The runner's heartbeat is the lease: a job whose process died is run again elsewhere (or at
 * the next start), and the contracts' generation fence refuses whatever a stale run still writes.
 */
import type { JobRunner } from '../jobs/index';
import { chainRpc } from './rpc';
import type { ChainSetting } from '../lib/chain-settings';
import { ChainWatcher, type WatcherDeps } from './watcher';

export const WATCH_QUEUE = 'onchain.watch';
const KICK_QUEUE = 'onchain.kick';

interface WatchJob {
  chainId: number;
}

export function sendWatch(jobs: JobRunner, chainId: number): Promise<string | null> {
  return jobs.send<WatchJob>(WATCH_QUEUE, { chainId }, { singletonKey: `chain:${chainId}` });
}

/** Declares the watch queue; `watchers` holds this process's watcher of each chain (woken by the routes). */
export function registerOnchainJobs(jobs: JobRunner, deps: WatcherDeps, watchers: Map<number, ChainWatcher>): void {
  const { config } = deps;
  const watcherOf = (chain: ChainSetting) => {
    let watcher = watchers.get(chain.id);
    if (!watcher) {
      watcher = new ChainWatcher(deps, chain, chainRpc(chain, config.rpcTimeoutMs));
      watchers.set(chain.id, watcher);
    }
    return watcher;
  };
  jobs.work<WatchJob>(
    WATCH_QUEUE,
    async (job) => {
      const chain = config.chains.find((c) => c.id === job.data.chainId);
      if (!chain) return;
      await watcherOf(chain).run(job.signal, performance.now() + config.sliceSeconds * 1000);
      // The next slice (it waits until this one has completed: one active job per chain).
      if (!jobs.stopSignal.aborted) await sendWatch(jobs, chain.id);
    },
    {
      policy: 'stately',
      retryLimit: 1_000_000,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 30,
      expireInSeconds: config.sliceSeconds + 120,
      concurrency: Math.max(1, config.chains.length),
      batchSize: 1,
    },
  );
  // A watch job lost with its retries (or never sent) is sent again each minute.
  jobs.work(
    KICK_QUEUE,
    async () => {
      for (const chain of config.chains) await sendWatch(jobs, chain.id);
    },
    { retryLimit: 0 },
  );
  jobs.schedule(KICK_QUEUE, '* * * * *');
  jobs.onStart(async () => {
    if (!jobs.workers) return;
    for (const chain of config.chains) await sendWatch(jobs, chain.id);
  });
}
