/**
 * USE-lite's forward pass on the WASM core's SIMD kernels, in place of TF.js's graph executor.
 *
 * The model (read from its TF.js graph): token embeddings, counted twice, plus a sinusoidal position
 * signal (256 wide); two pre-norm transformer layers with 4 heads (the first projects its input onto the
 * 512-wide residual stream), a ReLU feed-forward of 1536; the mean over the tokens; a 512 tanh layer;
 * L2 normalisation. Texts are cut to 128 tokens, as the graph does.
 *
 * What differs from TF.js is only how the work is done: a batch is one matrix of all its tokens with no
 * padding (the graph pads every text to the longest), the weights are packed once for the matrix
 * product, and there is no per-operation dispatch. The vectors equal TF.js's to float rounding
 * (cosine > 0.99999 over the labelled sets; `test/use-lite-native.test.ts`), so stored vectors stay valid.
 */
import { align16, WasmArena } from '../../../../wasm/arena.js';
import { compileCore } from '../../../../wasm/loader.js';
import type { UseLiteTokenizer } from './tokenizer.js';
import type { LayerParts, LayerWeights, Tensor, UseLiteWeights } from './weights.js';

export const USE_LITE_DIM = 512;
/** The graph keeps the first 128 tokens of a text. */
export const MAX_TOKENS = 128;
/** Tokens per forward pass: bounds the scratch memory (~20 KB per token) while keeping matrices tall. */
const CHUNK_TOKENS = 1024;
const EPS = 1e-6;
const HEADS = 4;
const GEMM_ACCUMULATE = 1;
const GEMM_RELU = 2;

/** A layer in WASM memory: byte offsets of its packed matrices and its vectors. */
interface PackedLayer extends LayerParts<number, number> {
  readonly width: number;
}

/** Byte offsets of the activations, sized for CHUNK_TOKENS tokens. */
interface Scratch {
  readonly input: number;
  readonly norm: number;
  readonly qkv: number;
  readonly attn: number;
  readonly stream: number;
  readonly ffn: number;
  readonly scores: number;
  readonly pooled: number;
  readonly hidden: number;
}

export class UseLiteEncoder {
  readonly #arena: WasmArena;
  readonly #tokenizer: UseLiteTokenizer;
  readonly #embeddings: Float32Array;
  readonly #timing: Float32Array;
  readonly #residual: number;
  readonly #residualBias: number;
  readonly #layers: readonly [PackedLayer, PackedLayer];
  readonly #hidden: number;
  readonly #hiddenBias: number;
  readonly #scratch: Scratch;
  #top: number;

  constructor(weights: UseLiteWeights, tokenizer: UseLiteTokenizer) {
    this.#arena = new WasmArena(compileCore());
    this.#tokenizer = tokenizer;
    // A copy: the view would keep every shard's bytes (28 MB) alive for this 8 MB table.
    this.#embeddings = weights.embeddings.data.slice();
    this.#timing = timingSignal(weights.timescales);
    this.#top = this.#arena.base;
    this.#residual = this.#matrix(weights.residual, 256, 512);
    this.#residualBias = this.#vector(weights.residualBias);
    this.#layers = [this.#layer(weights.layers[0], 256), this.#layer(weights.layers[1], 512)];
    this.#hidden = this.#matrix(weights.hidden, 512, 512);
    this.#hiddenBias = this.#vector(weights.hiddenBias);
    const t = CHUNK_TOKENS;
    this.#scratch = {
      input: this.#alloc(t * 256),
      norm: this.#alloc(t * 512),
      qkv: this.#alloc(t * 1536),
      attn: this.#alloc(t * 512),
      stream: this.#alloc(t * 512),
      ffn: this.#alloc(t * 1536),
      scores: this.#alloc(MAX_TOKENS),
      pooled: this.#alloc(t * 512),
      hidden: this.#alloc(t * 512),
    };
  }

  /** Token ids of a text, cut to the 128 the model reads. */
  tokens(text: string): number[] {
    return this.#tokenizer.encode(text).slice(0, MAX_TOKENS);
  }

  /** One L2-normalised 512-d row per text, in order. */
  embed(texts: readonly string[]): Float32Array {
    const out = new Float32Array(texts.length * USE_LITE_DIM);
    const ids = texts.map((t) => this.tokens(t));
    let first = 0;
    while (first < ids.length) {
      let end = first;
      let tokens = 0;
      while (end < ids.length && end - first < CHUNK_TOKENS && (end === first || tokens + (ids[end] as number[]).length <= CHUNK_TOKENS)) {
        tokens += (ids[end] as number[]).length;
        end++;
      }
      this.#forward(ids.slice(first, end), out, first);
      first = end;
    }
    return out;
  }

  #alloc(floats: number): number {
    const at = align16(this.#top);
    this.#top = at + floats * 4;
    this.#arena.ensure(this.#top);
    return at;
  }

  #vector(v: Float32Array): number {
    const at = this.#alloc(v.length);
    this.#arena.f32.set(v, at >>> 2);
    return at;
  }

  /** Copies a k x n matrix in and packs it into the product's panels (the unpacked copy is scratch). */
  #matrix(t: Tensor, k: number, n: number): number {
    const packed = this.#alloc(k * n);
    const mark = this.#top;
    const raw = this.#vector(t.data);
    this.#arena.fn.packB(raw, packed, k, n);
    this.#top = mark;
    return packed;
  }

  #layer(w: LayerWeights, width: number): PackedLayer {
    return {
      width,
      attnNorm: [this.#vector(w.attnNorm[0]), this.#vector(w.attnNorm[1])],
      qkv: this.#matrix(w.qkv, width, 3 * width),
      qkvBias: this.#vector(w.qkvBias),
      out: this.#matrix(w.out, width, 512),
      outBias: this.#vector(w.outBias),
      ffnNorm: [this.#vector(w.ffnNorm[0]), this.#vector(w.ffnNorm[1])],
      ffn1: this.#matrix(w.ffn1, 512, 1536),
      ffn1Bias: this.#vector(w.ffn1Bias),
      ffn2: this.#matrix(w.ffn2, 1536, 512),
      ffn2Bias: this.#vector(w.ffn2Bias),
      scale: w.scale,
    };
  }

  #forward(batch: readonly number[][], out: Float32Array, firstRow: number): void {
    const fn = this.#arena.fn;
    const s = this.#scratch;
    const total = batch.reduce((n, ids) => n + ids.length, 0);
    const mem = this.#arena.f32;
    let row = 0;
    for (const ids of batch) {
      for (let pos = 0; pos < ids.length; pos++, row++) {
        const e = (ids[pos] as number) * 256;
        const t = pos * 256;
        const dst = (s.input >>> 2) + row * 256;
        for (let d = 0; d < 256; d++) mem[dst + d] = 2 * (this.#embeddings[e + d] as number) + (this.#timing[t + d] as number);
      }
    }
    const [l0, l1] = this.#layers;
    // Layer 0: its residual is the input projected to 512.
    fn.layerNorm(s.input, s.norm, total, 256, l0.attnNorm[0], l0.attnNorm[1], EPS);
    this.#attention(l0, s.norm, batch, total);
    fn.gemm(s.attn, 256, l0.out, l0.outBias, s.stream, 512, total, 256, 512, 0);
    fn.gemm(s.input, 256, this.#residual, this.#residualBias, s.stream, 512, total, 256, 512, GEMM_ACCUMULATE);
    this.#feedForward(l0, total);
    fn.layerNorm(s.stream, s.norm, total, 512, l1.attnNorm[0], l1.attnNorm[1], EPS);
    this.#attention(l1, s.norm, batch, total);
    fn.gemm(s.attn, 512, l1.out, l1.outBias, s.stream, 512, total, 512, 512, GEMM_ACCUMULATE);
    this.#feedForward(l1, total);
    // Mean over each text's tokens, then the tanh layer and L2 normalisation.
    const f32 = this.#arena.f32;
    const stream = s.stream >>> 2;
    const pooled = s.pooled >>> 2;
    row = 0;
    for (let b = 0; b < batch.length; b++) {
      const n = (batch[b] as number[]).length;
      const dst = pooled + b * 512;
      f32.fill(0, dst, dst + 512);
      for (let r = 0; r < n; r++, row++) {
        const src = stream + row * 512;
        for (let d = 0; d < 512; d++) f32[dst + d] = (f32[dst + d] as number) + (f32[src + d] as number);
      }
      const inv = 1 / Math.max(n, 1);
      for (let d = 0; d < 512; d++) f32[dst + d] = (f32[dst + d] as number) * inv;
    }
    fn.gemm(s.pooled, 512, this.#hidden, this.#hiddenBias, s.hidden, 512, batch.length, 512, 512, 0);
    const hidden = s.hidden >>> 2;
    for (let b = 0; b < batch.length; b++) {
      const src = hidden + b * 512;
      const dst = (firstRow + b) * 512;
      let sum = 0;
      for (let d = 0; d < 512; d++) {
        const v = Math.tanh(f32[src + d] as number);
        out[dst + d] = v;
        sum += v * v;
      }
      const scale = 1 / Math.sqrt(Math.max(sum, 1e-12));
      for (let d = 0; d < 512; d++) out[dst + d] = (out[dst + d] as number) * scale;
    }
  }

  /** qkv of every token, then each text's own self-attention into `attn`. */
  #attention(l: PackedLayer, input: number, batch: readonly number[][], total: number): void {
    const fn = this.#arena.fn;
    const s = this.#scratch;
    const w = l.width;
    fn.gemm(input, w, l.qkv, l.qkvBias, s.qkv, 3 * w, total, w, 3 * w, 0);
    let row = 0;
    for (const ids of batch) {
      if (ids.length > 0) fn.attention(s.qkv + row * 3 * w * 4, s.attn + row * w * 4, ids.length, w, HEADS, l.scale, s.scores);
      row += ids.length;
    }
  }

  #feedForward(l: PackedLayer, total: number): void {
    const fn = this.#arena.fn;
    const s = this.#scratch;
    fn.layerNorm(s.stream, s.norm, total, 512, l.ffnNorm[0], l.ffnNorm[1], EPS);
    fn.gemm(s.norm, 512, l.ffn1, l.ffn1Bias, s.ffn, 1536, total, 512, 1536, GEMM_RELU);
    fn.gemm(s.ffn, 1536, l.ffn2, l.ffn2Bias, s.stream, 512, total, 1536, 512, GEMM_ACCUMULATE);
  }
}

/** sin(pos * timescale) then cos(pos * timescale), for every position the model reads. */
function timingSignal(timescales: Float32Array): Float32Array {
  const half = timescales.length;
  const out = new Float32Array(MAX_TOKENS * half * 2);
  for (let pos = 0; pos < MAX_TOKENS; pos++) {
    for (let d = 0; d < half; d++) {
      const angle = Math.fround(pos * (timescales[d] as number));
      out[pos * half * 2 + d] = Math.sin(angle);
      out[pos * half * 2 + half + d] = Math.cos(angle);
    }
  }
  return out;
}
