/**
 * `npm run eval:turn-context [-- --split dev|test]`: how much of the previous (and next) turn to blend into
 * a dialogue turn's vector (src/core/embed-text.ts). Scores the vector leg alone, exact cosine over every
 * memory of each labeled set, for a grid of blend weights: R@5 and MRR per kind of set. Memories that do not
 * read as dialogue turns (by their own text) are embedded as they are, as the service does. Tune on dev only.
 */
import { parseArgs } from 'node:util';
import { loadUseLite } from '../../src/actors/embed/providers/use-lite.js';
import { blendVectors, embedText, isDialogueTurn } from '../../src/core/embed-text.js';
import { loadSets, storeInput, type LabeledSet } from './harness.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' } } });
const embedder = await loadUseLite();
const dim = embedder.info.dim;

async function embedAll(texts: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 64) {
    const flat = await embedder.embed(texts.slice(i, i + 64));
    for (let j = 0; j * dim < flat.length; j++) out.push(flat.slice(j * dim, (j + 1) * dim));
  }
  return out;
}

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
const GRID: [number, number][] = [0, 0.2, 0.3, 0.4, 0.5].flatMap((before): [number, number][] => [0, 0.15, 0.3].map((after): [number, number] => [before, after]));
const rows = new Map<string, { r5: number; mrr: number; n: number }>();

for (const set of loadSets()) {
  const stored = set.memories.map((m) => ({ entity: null, ...storeInput(set, m) }));
  const texts = stored.map(embedText);
  // As the service decides: by the fact's own text, not its entity prefix.
  const turn = stored.map((f) => isDialogueTurn(f.text));
  const base = await embedAll(texts);
  const sameSession = (i: number, j: number): boolean => j >= 0 && j < texts.length && set.memories[i]?.session === set.memories[j]?.session && turn[i] === true && turn[j] === true;
  const queries = set.queries.filter((q) => q.split === values.split);
  const qv = await embedAll(queries.map((q) => q.query));
  for (const [before, after] of GRID) {
    const vectors = base.map((v, i) => {
      let out = v;
      if (before > 0 && sameSession(i, i - 1)) out = blendVectors(out, base[i - 1] as Float32Array, before);
      if (after > 0 && sameSession(i, i + 1)) out = blendVectors(out, base[i + 1] as Float32Array, after);
      return out;
    });
    const key = `${set.kind} | ${before} | ${after}`;
    const row = rows.get(key) ?? { r5: 0, mrr: 0, n: 0 };
    queries.forEach((q, qi) => {
      const order = vectors
        .map((v, i) => [dot(qv[qi] as Float32Array, v), i] as const)
        .sort((a, b) => b[0] - a[0])
        .map(([, i]) => (set.memories[i] as LabeledSet['memories'][number]).id);
      const gold = Object.entries(q.evidence).filter(([, g]) => g === 2).map(([id]) => id);
      row.r5 += gold.filter((id) => order.slice(0, 5).includes(id)).length / gold.length;
      const first = order.findIndex((id) => gold.includes(id));
      row.mrr += first < 0 ? 0 : 1 / (first + 1);
      row.n++;
    });
    rows.set(key, row);
  }
}
await embedder.dispose?.();
console.log(`split: ${values.split}; vector leg alone\n\n| kind | previous turn | next turn | R@5 | MRR |\n|---|---|---|---|---|`);
for (const [key, r] of rows) console.log(`| ${key} | ${(r.r5 / r.n).toFixed(3)} | ${(r.mrr / r.n).toFixed(3)} |`);
