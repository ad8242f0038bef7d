/**
 * The embedding actor's contract (types only). Vectors travel as one flat, L2-normalised Float32Array of
 * n x dim values, transferred, never copied.
 */

export const EMBEDDING_PROVIDERS = ['use-lite', 'onnx'] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];

/** What the worker needs to load a model (plain data, from the resolved config). */
export interface EmbedderSpec {
  readonly provider: EmbeddingProvider;
  /** onnx: the folder holding `<model>/` (config.json, tokenizer.json, onnx/model*.onnx). */
  readonly modelDir: string | null;
  /** onnx: the model name inside modelDir, e.g. "Xenova/all-MiniLM-L6-v2". */
  readonly model: string | null;
  /** onnx: allow @xenova/transformers to download from the hub (default false: never). */
  readonly allowRemote: boolean;
}

export interface EmbedderInfo {
  readonly provider: EmbeddingProvider;
  /** Stable id recorded in the database with every vector, e.g. "use-lite@0.2.0" or "onnx:Xenova/all-MiniLM-L6-v2". */
  readonly modelId: string;
  readonly dim: number;
}

/** Worker methods (pool actor: each call may land on any worker, all load the same spec). */
export interface EmbedWorkerApi {
  info(spec: EmbedderSpec): Promise<EmbedderInfo>;
  /** Embeds `texts`; returns n x dim floats, each row L2-normalised. */
  embed(spec: EmbedderSpec, texts: readonly string[]): Promise<Float32Array>;
}
