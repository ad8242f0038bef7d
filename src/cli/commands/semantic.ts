/** reindex: embed every fact that lacks a vector for the configured model, with a progress bar. */
import { startSemantic } from '../../main.js';
import type { Progress } from '../../memory/semantic.js';
import type { CommandSpec, Output } from '../spec.js';

/** A one-line progress bar on a terminal; a line every 10% otherwise (logs, CI). */
export function progressReporter(out: Output): (p: Progress) => void {
  let lastDecile = -1;
  return ({ done, total }) => {
    const ratio = total === 0 ? 1 : done / total;
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round(ratio * width);
      out.write(`\rembedding [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(ratio * 10);
    if (decile !== lastDecile) {
      lastDecile = decile;
      out.write(`embedding ${done}/${total} (${Math.round(ratio * 100)}%)\n`);
    }
  };
}

export const reindexCommand: CommandSpec = {
  name: 'reindex',
  summary: 'embed every fact missing a vector for the configured model (after a provider change), with progress',
  args: [],
  options: {},
  details: ['Runs the embedding model locally (no network); facts stay searchable by full text meanwhile.'],
  async run({ cli }) {
    const svc = cli.service();
    const config = cli.config();
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem: ${line}\n`);
    const semantic = await startSemantic(svc, config, log);
    const started = Date.now();
    const result = await semantic.reindex(progressReporter(cli.io.stderr));
    const json = { modelId: semantic.info.modelId, dim: semantic.info.dim, embedded: result.done, tookMs: Date.now() - started };
    return { human: `embedded ${result.done} facts with ${semantic.info.modelId} in ${json.tookMs} ms`, json };
  },
};
