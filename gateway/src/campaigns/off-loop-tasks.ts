// What the off-loop pool's threads use of the campaigns area (src/off-loop-worker.ts): the sender's
// build task, without the area's routes and storage.
export { buildBatchHere, buildTask } from './sender/build';
