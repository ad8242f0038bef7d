/**
 * Wiring in one place: the memory service plus, when asked, its semantic layer (embedding actor, vector
 * actor). Everything else (CLI, gateway hook, dashboard) starts from here.
 */
import { join } from 'node:path';
import { EmbedClient, type EmbedClientOptions } from './actors/embed/client.js';
import type { EmbedderSpec } from './actors/embed/contract.js';
import { VectorClient } from './actors/vector/client.js';
import type { ResolvedConfig } from './config/resolve.js';
import { MemoryError, toWire } from './core/errors.js';
import type { Semantic } from './memory/semantic.js';
import { MemoryService } from './memory/service.js';

export interface OpenMemoryOptions {
  readonly config: ResolvedConfig;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Start the embedding and vector actors (facts get embedded; recall is hybrid). */
  readonly semantic?: boolean;
  /** One line per notable event (model change, index rebuilt, worker restarted, failures). */
  readonly log?: (line: string) => void;
}

export function embedderSpec(config: ResolvedConfig): EmbedderSpec {
  const e = config.embedding;
  return { provider: e.provider, modelDir: e.modelDir, model: e.model, allowRemote: e.allowRemote };
}

/** The vector index file, beside the database. */
export function indexPath(config: ResolvedConfig): string {
  return join(config.dataDir, 'vectors.usearch');
}

/** Open the service; with `semantic`, also start its semantic layer (failing soft: full text only). */
export async function openMemory(options: OpenMemoryOptions): Promise<MemoryService> {
  const svc = MemoryService.open({ config: options.config, env: options.env });
  if (options.semantic && options.config.embedding.enabled) {
    try {
      await startSemantic(svc, options.config, options.log ?? (() => undefined));
    } catch (err) {
      const w = toWire(err);
      options.log?.(`semantic search unavailable (${w.code}: ${w.message}); recall answers from full text`);
    }
  }
  return svc;
}

/** Start the embedding and vector actors and attach them to `svc`. */
export async function startSemantic(
  svc: MemoryService,
  config: ResolvedConfig,
  log: (line: string) => void,
  options: { maintain?: boolean; signal?: AbortSignal; embed?: EmbedClientOptions } = {},
): Promise<Semantic> {
  const embedder = new EmbedClient(embedderSpec(config), options.embed);
  let index: VectorClient | null = null;
  // Stopping while the model loads: end the workers now (the pending calls reject) instead of waiting.
  const onAbort = (): void => void Promise.allSettled([embedder.close(0), index?.close()]);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    stoppedEarly(options.signal);
    const info = await embedder.info();
    index = new VectorClient({
      init: { dbPath: config.dbPath, indexPath: indexPath(config), modelId: info.modelId, dim: info.dim },
      onRestart: (reason) => log(`vector worker restarted: ${reason}`),
      onError: (err) => log(`vector index: ${err.code}: ${err.message}`),
    });
    const indexState = await index.ready();
    stoppedEarly(options.signal);
    if (indexState.source === 'rebuilt') log(`vector index rebuilt from SQLite (${indexState.reason ?? 'no reason given'}): ${indexState.count} vectors`);
    return svc.attachSemantic({ embedder, index, info, indexState, log }, options);
  } catch (err) {
    await Promise.allSettled([embedder.close(), index?.close()]);
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function stoppedEarly(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MemoryError('MEM_ERR_ACTOR_CLOSED', 'stopped before the semantic layer started');
}

/**
 * Start the semantic layer without waiting for it: recall answers from full text until it is up. The
 * promise settles (never rejects) when it is attached or has failed, each said in one log line.
 */
export function startSemanticInBackground(svc: MemoryService, config: ResolvedConfig, log: (line: string) => void, signal?: AbortSignal): Promise<void> {
  if (!config.embedding.enabled) return Promise.resolve();
  return startSemantic(svc, config, log, { signal }).then(
    (s) => log(`semantic search on (${s.info.modelId}, ${s.indexState.count} vectors)`),
    (err: unknown) => {
      if (!signal?.aborted) log(`semantic search unavailable, full text only: ${toWire(err).message}`);
    },
  );
}
