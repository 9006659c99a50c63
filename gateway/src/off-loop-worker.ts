/**
 * A thread of the off-loop pool (lib/off-loop/pool.ts): the tasks it runs, by name, from each area's
 * off-loop-tasks.ts (the area's renderer or signer without its routes and storage). Built by build.mjs
 * into dist/off-loop-worker.mjs beside the gateway's bundle; from the sources (development, tests)
 * through off-loop-worker-tsx.mjs.
 */
import { buildBatchHere, buildTask } from './campaigns/off-loop-tasks';
import { dkimHeadersHere, dkimSignTask, type DkimKey } from './domains/off-loop-tasks';
import { compileInThread, compileTask, renderHere, renderTask } from './templates/off-loop-tasks';

type Handler = (input: never) => unknown;

/** What a thread answers, by the task's name (pool.ts `run` sends that task's input). */
const handlers = new Map<string, Handler>([
  [renderTask.name, renderHere],
  [compileTask.name, compileInThread],
  [buildTask.name, buildBatchHere],
  [
    dkimSignTask.name,
    ({ raw, keys, signTime }: { raw: Uint8Array; keys: DkimKey[]; signTime?: Date }) =>
      dkimHeadersHere(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), keys, signTime),
  ],
]);

export default function run(task: { name: string; input: never }): unknown {
  const handler = handlers.get(task.name);
  if (!handler) throw new Error(`the off-loop pool has no task named ${task.name}`);
  return handler(task.input);
}
