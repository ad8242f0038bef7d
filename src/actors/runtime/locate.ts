/**
 * Finding a worker's entry file. Compiled builds run `worker.js` directly. When running from the
 * TypeScript sources (tests, `tsx`), Node 20 cannot load a `.ts` worker, so a tiny JS bootstrap registers
 * tsx inside the worker and imports the `.ts` file.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerLocation {
  /** The file the worker thread starts. */
  readonly filename: string;
  /** The module the bootstrap imports (empty when `filename` is the worker itself). */
  readonly target: string;
}

/** `url` names the worker as `.js` (relative to the client module, as the compiled build lays it out). */
export function locateWorker(url: URL): WorkerLocation {
  const js = fileURLToPath(url);
  if (existsSync(js)) return { filename: js, target: '' };
  const ts = js.replace(/\.js$/, '.ts');
  if (!existsSync(ts)) throw new Error(`worker entry not found: ${js} (nor ${ts})`);
  return { filename: fileURLToPath(new URL('./tsx-bootstrap.mjs', import.meta.url)), target: new URL(`file://${ts}`).href };
}
