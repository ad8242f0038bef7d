/**
 * Reads the USE-lite weights from the model package's TF.js files (model.json's weights manifest and its
 * shard files) into named Float32Arrays, checking every tensor the encoder needs by name and shape.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A tensor as the manifest names it. */
export interface Tensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

interface ManifestEntry {
  readonly name: string;
  readonly shape: readonly number[];
  readonly dtype: string;
  readonly quantization?: unknown;
}
interface ModelJson {
  readonly weightsManifest: readonly { readonly paths: readonly string[]; readonly weights: readonly ManifestEntry[] }[];
}

const ENC = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const STACK = `${ENC}TransformerStack/`;

/** The parts of one transformer layer: matrices `M`, vectors `V` (tensors here, WASM offsets in the encoder). */
export interface LayerParts<M, V> {
  readonly attnNorm: readonly [V, V];
  readonly qkv: M;
  readonly qkvBias: V;
  readonly out: M;
  readonly outBias: V;
  readonly ffnNorm: readonly [V, V];
  readonly ffn1: M;
  readonly ffn1Bias: V;
  readonly ffn2: M;
  readonly ffn2Bias: V;
  /** Query scale (depth^-0.5). */
  readonly scale: number;
}

/** The tensors of one transformer layer. */
export type LayerWeights = LayerParts<Tensor, Float32Array>;

export interface UseLiteWeights {
  /** 8002 x 256 token embeddings. */
  readonly embeddings: Tensor;
  /** 128 inverse timescales of the sinusoidal position signal. */
  readonly timescales: Float32Array;
  /** Layer 0's projection of its 256-wide input onto the 512-wide residual stream. */
  readonly residual: Tensor;
  readonly residualBias: Float32Array;
  readonly layers: readonly [LayerWeights, LayerWeights];
  /** The 512 x 512 tanh layer after mean pooling. */
  readonly hidden: Tensor;
  readonly hiddenBias: Float32Array;
}

/** Reads every float32 tensor of the manifest. Throws (plain Error) on a missing shard or size mismatch. */
export function readTensors(modelJsonPath: string, dir: string): Map<string, Tensor> {
  const model = JSON.parse(readFileSync(modelJsonPath, 'utf8')) as ModelJson;
  const tensors = new Map<string, Tensor>();
  for (const group of model.weightsManifest) {
    const bytes = Buffer.concat(group.paths.map((p) => readFileSync(join(dir, p))));
    // A fresh, aligned copy: shard boundaries need not fall on 4-byte offsets of one allocation.
    const all = new Uint8Array(bytes.byteLength);
    all.set(bytes);
    let offset = 0;
    for (const w of group.weights) {
      if (w.quantization !== undefined) throw new Error(`${w.name} is quantized; this encoder reads float32 weights`);
      const size = w.shape.reduce((a, b) => a * b, 1) * 4;
      if (offset + size > all.byteLength) throw new Error(`the shards end before ${w.name}`);
      if (w.dtype === 'float32') tensors.set(w.name, { shape: w.shape, data: new Float32Array(all.buffer, offset, size / 4) });
      offset += size;
    }
    if (offset !== all.byteLength) throw new Error(`the shards hold ${all.byteLength} bytes, the manifest ${offset}`);
  }
  return tensors;
}

function pick(tensors: ReadonlyMap<string, Tensor>, name: string, shape: readonly number[]): Tensor {
  const t = tensors.get(name);
  if (!t) throw new Error(`missing tensor ${name}`);
  const want = shape.reduce((a, b) => a * b, 1);
  if (t.data.length !== want) throw new Error(`tensor ${name} has shape [${t.shape.join(', ')}], expected [${shape.join(', ')}]`);
  return t;
}

function layer(tensors: ReadonlyMap<string, Tensor>, l: 0 | 1, width: number): LayerWeights {
  const own = `${ENC}Layer_${l}/TransformerLayer/`;
  const stack = `${STACK}Layer_${l}/TransformerLayer/`;
  const kernel = `module/Encoder_en/KonaTransformer/Encode/Layer_${l}/TransformerLayer/MultiheadAttention/`;
  const vec = (name: string, n: number): Float32Array => pick(tensors, `${own}${name}/ConcatPartitions/concat`, [n]).data;
  return {
    attnNorm: [vec('layer_prepostprocess/layer_norm/layer_norm_scale', width), vec('layer_prepostprocess/layer_norm/layer_norm_bias', width)],
    qkv: pick(tensors, `${kernel}qkv_transform_single/kernel/part_0`, [1, 1, width, 3 * width]),
    qkvBias: vec('MultiheadAttention/qkv_transform_single/bias', 3 * width),
    out: pick(tensors, `${kernel}output_transform_single/kernel/part_0`, [1, 1, width, 512]),
    outBias: vec('MultiheadAttention/output_transform_single/bias', 512),
    ffnNorm: [vec('FFN/layer_prepostprocess/layer_norm/layer_norm_scale', 512), vec('FFN/layer_prepostprocess/layer_norm/layer_norm_bias', 512)],
    ffn1: pick(tensors, `${stack}FFN/conv1/Tensordot/Reshape_1`, [512, 1536]),
    ffn1Bias: vec('FFN/conv1/bias', 1536),
    ffn2: pick(tensors, `${stack}FFN/conv2/Tensordot/Reshape_1`, [1536, 512]),
    ffn2Bias: vec('FFN/conv2/bias', 512),
    scale: pick(tensors, `${stack}MultiheadAttention/mul/y`, []).data[0] as number,
  };
}

/** The encoder's tensors, by role. Throws naming the first tensor that is missing or misshapen. */
export function useLiteWeights(tensors: ReadonlyMap<string, Tensor>): UseLiteWeights {
  return {
    embeddings: pick(tensors, 'module/Embeddings_en', [8002, 256]),
    timescales: pick(tensors, `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, 128]).data,
    residual: pick(tensors, `${ENC}Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`, [256, 512]),
    residualBias: pick(tensors, `${ENC}Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`, [512]).data,
    layers: [layer(tensors, 0, 256), layer(tensors, 1, 512)],
    hidden: pick(tensors, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights', [512, 512]),
    hiddenBias: pick(tensors, 'module/Encoder_en/hidden_layers/tanh_layer_0/bias', [512]).data,
  };
}
