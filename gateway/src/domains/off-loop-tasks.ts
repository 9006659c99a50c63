// What the off-loop pool's threads use of the domains area (src/off-loop-worker.ts and the campaign
// sender's build task): DKIM signing without the area's routes and storage.
export { dkimHeadersHere, dkimSignTask, type DkimKey } from './dkim-sign';
