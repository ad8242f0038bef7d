// Development-only worker bootstrap: lets a worker thread run a TypeScript entry (see locate.ts).
// The target comes from piscina's workerData (pool workers) or node's workerData (long-lived actors).
import { workerData as nodeData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
let target = nodeData?.__target;
if (!target) {
  const piscina = await import('piscina');
  target = piscina.workerData?.__target;
}
const mod = await import(target);
export default mod.default;
