/**
 * The semantic layer in one-shot commands: `reindex` (embed every fact that lacks a vector, with a
 * progress bar), and what `store` and `recall --semantic` do so that a fact is findable by meaning as soon
 * as `store` returns, and a recall never calls a vector leg healthy while facts are missing from it.
 */
import { toWire } from '../../core/errors.js';
import { startSemantic } from '../../main.js';
import type { Progress, Semantic } from '../../memory/semantic.js';
import type { MemoryService } from '../../memory/service.js';
import type { CliSession, CommandSpec, Output } from '../spec.js';

/** A one-shot recall embeds up to this many facts still missing a vector before it searches (~35 s on 2 cores); more: degraded, with the command to run. */
export const ONE_SHOT_EMBED_MAX = 2000;
/** Past this many facts to embed, a terminal shows a progress bar. */
const PROGRESS_FROM = 200;

export const cliLog =
  (cli: CliSession) =>
  (line: string): void =>
    void cli.io.stderr.write(`hybrid-mem: ${line}\n`);

/**
 * After the CLI's store: when the semantic layer is on, embed the new fact before the command returns.
 * A model that cannot load leaves the fact stored (full-text searchable) and says so on stderr.
 * Returns the model id, or null when nothing was embedded.
 */
export async function embedStored(svc: MemoryService, cli: CliSession, factId: string): Promise<string | null> {
  const config = cli.config();
  if (!config.embedding.enabled) return null;
  try {
    const semantic = await startSemantic(svc, config, cliLog(cli), { maintain: false });
    await semantic.embedFacts([factId]);
    return semantic.info.modelId;
  } catch (err) {
    const w = toWire(err);
    cliLog(cli)(`stored, but not embedded (${w.code}: ${w.message}); it is found by full text, and by meaning after "hybrid-mem reindex"`);
    return null;
  }
}

/**
 * Before a one-shot semantic recall: embed the facts still missing a vector (a progress bar on a terminal
 * past a few hundred), unless there are more than ONE_SHOT_EMBED_MAX; then the recall answers degraded,
 * naming the count and the command that embeds them.
 */
export async function embedBeforeSearch(semantic: Semantic, cli: CliSession): Promise<void> {
  const missing = semantic.lagging();
  if (missing === 0 || missing > ONE_SHOT_EMBED_MAX) return;
  const showProgress = missing > PROGRESS_FROM && cli.io.stderr.isTTY === true && !cli.json;
  try {
    await semantic.embedMissing(showProgress ? progressReporter(cli.io.stderr) : undefined);
  } catch (err) {
    const w = toWire(err);
    cliLog(cli)(`could not embed the facts missing a vector (${w.code}: ${w.message})`);
  }
}

/**
 * A one-line progress bar on a terminal: count, rate and time left, redrawn in place at most ~10 times a
 * second. Off a terminal (logs, CI, pipes) it prints nothing: the command's result line says what was done.
 */
export function progressReporter(out: Output, now: () => number = Date.now): (p: Progress) => void {
  const started = now();
  let drawn = -Infinity;
  return ({ done, total }) => {
    if (!out.isTTY) return;
    const t = now();
    if (done < total && t - drawn < 100) return;
    drawn = t;
    const ratio = total === 0 ? 1 : done / total;
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = (t - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 && done < total ? `, ${Math.ceil((total - done) / rate)} s left` : '';
    out.write(`\rembedding [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} (${rate.toFixed(0)}/s${left})\x1b[K${done === total ? '\n' : ''}`);
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
    const result = await semantic.reindex(cli.json ? undefined : progressReporter(cli.io.stderr));
    const json = { modelId: semantic.info.modelId, dim: semantic.info.dim, embedded: result.done, tookMs: Date.now() - started };
    return { human: `embedded ${result.done} facts with ${semantic.info.modelId} in ${json.tookMs} ms`, json };
  },
};
