/**
 * The semantic layer in one-shot commands: `reindex` (embed every fact that lacks a vector, with a
 * progress bar), and what `store` and `recall --semantic` do so that a fact is findable by meaning as soon
 * as `store` returns, and a recall never calls a vector leg healthy while facts are missing from it.
 */
import { escapeTerminal } from '../../core/terminal.js';
import { toWire } from '../../core/errors.js';
import type { Semantic } from '../../memory/semantic.js';
import type { MemoryService } from '../../memory/service.js';
import { progressFor, progressReporter } from '../progress.js';
import type { CliSession, CommandSpec } from '../spec.js';

/** A one-shot recall embeds up to this many facts still missing a vector before it searches (~35 s on 2 cores); more: degraded, with the command to run. */
export const ONE_SHOT_EMBED_MAX = 2000;
/** Past this many facts to embed, a terminal shows a progress bar. */
const PROGRESS_FROM = 200;

export const cliLog =
  (cli: CliSession) =>
  (line: string): void =>
    void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`);

/**
 * After the CLI's store: when the semantic layer is on, embed the new fact before the command returns.
 * A model that cannot load leaves the fact stored (full-text searchable) and says so on stderr.
 * Returns the model id, or null when nothing was embedded.
 */
export async function embedStored(svc: MemoryService, cli: CliSession, factId: string): Promise<string | null> {
  const config = cli.config();
  if (!config.embedding.enabled) return null;
  try {
    const { startSemantic } = await import('../../main.js');
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
    await semantic.embedMissing(showProgress ? progressReporter(cli.io.stderr, 'embedding') : undefined);
  } catch (err) {
    const w = toWire(err);
    cliLog(cli)(`could not embed the facts missing a vector (${w.code}: ${w.message})`);
  }
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
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`);
    const { startSemantic } = await import('../../main.js');
    const semantic = await startSemantic(svc, config, log);
    const started = Date.now();
    const result = await semantic.reindex(progressFor(cli, 'embedding'));
    const json = { modelId: semantic.info.modelId, dim: semantic.info.dim, embedded: result.done, tookMs: Date.now() - started };
    return { human: `embedded ${result.done} facts with ${semantic.info.modelId} in ${json.tookMs} ms`, json };
  },
};
