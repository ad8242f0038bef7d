/**
 * The embedding worker: loads a model on first use (once per spec per thread) and embeds batches.
 *
 * Results leave as `{ok, value: Float32Array}` envelopes. piscina transfers only what the task function
 * returns at top level through `Piscina.move` (it looks for its transferable symbols on the returned
 * object, not inside it), so the default export wraps the envelope in piscina's Transferable shape:
 * the envelope is the value and the vector buffer its transfer list. The main thread receives the same
 * envelope, with the buffer moved instead of copied.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { Call, Envelope } from '../runtime/envelope.js';
import { poolWorker } from '../runtime/worker.js';
import { invalidInput } from '../../core/errors.js';
import type { EmbedderInfo, EmbedderSpec } from './contract.js';
import { loadEmbedder, specKey, type Embedder } from './providers/index.js';

/** Loaded (or loading) models of this thread. A failed load is forgotten, so a fixed model loads on retry. */
const embedders = new Map<string, Promise<Embedder>>();
/**
 * Loads run one after another: transformers.js reads its settings from one module-level `env` while it
 * loads, so two specs loading at once in one thread could see each other's paths.
 */
let loading: Promise<unknown> = Promise.resolve();

function embedderFor(spec: EmbedderSpec): Promise<Embedder> {
  const key = specKey(spec);
  let p = embedders.get(key);
  if (!p) {
    p = loading.then(() => loadEmbedder(spec));
    loading = p.catch(() => undefined);
    embedders.set(key, p);
    p.catch(() => embedders.delete(key));
  }
  return p;
}

async function info(spec: EmbedderSpec): Promise<EmbedderInfo> {
  return (await embedderFor(spec)).info;
}

async function embed(spec: EmbedderSpec, texts: readonly string[]): Promise<Float32Array> {
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) throw invalidInput('texts', 'an array of strings', texts);
  return (await embedderFor(spec)).embed(texts);
}

const run = poolWorker({ info, embed });

export default async function embedTask(call: Call): Promise<Envelope<unknown> | object> {
  const result = await run(call);
  if (!result.ok || !(result.value instanceof Float32Array) || result.value.byteLength === 0) return result;
  return move({ [transferableSymbol]: [result.value.buffer], [valueSymbol]: result });
}
