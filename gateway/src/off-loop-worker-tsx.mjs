// The off-loop pool's thread (lib/off-loop/pool.ts) when the gateway runs from its TypeScript sources (development, tests):
// tsx's loader registered in this thread, then the worker's module (pool.ts chooses this file).
import { register } from 'tsx/esm/api';

register();
const worker = await import('./off-loop-worker.ts');
export default worker.default;
