/** The recall worker: full detection and target extraction off the calling thread (a piscina pool). */
import { poolWorker } from '../runtime/worker.js';
import { analyze } from './analyze.js';
import type { AnalyzeRequest } from './contract.js';

export default poolWorker({
  analyze: (req: AnalyzeRequest) => analyze(req),
});
