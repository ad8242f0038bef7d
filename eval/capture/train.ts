/**
 * `npm run eval:capture:train [-- --write]`: fit the auto-capture sentence classifier
 * (src/core/capture-model.ts) on the dev split of eval/capture/sets and measure it honestly first:
 * leave-one-round-out (each blind round is scored by a model trained on the other rounds), against the
 * rules alone, at a grid of thresholds and regularisations. `--write` fits the chosen setting on all of dev
 * and writes src/core/capture-weights.ts. Labels: a user sentence is worth keeping when it holds every
 * match term of one of its conversation's keep items.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadUseLite } from '../../src/actors/embed/providers/use-lite.js';
import { captureCandidates, type Candidate } from '../../src/core/capture.js';
import { ruledFacts } from '../../src/core/capture-keep.js';
import { CUE_NAMES, sentenceCues } from '../../src/core/capture-cues.js';
import { candidateText, modelFacts, sentenceWords, type CaptureModel } from '../../src/core/capture-model.js';
import { CAPTURE_MODEL } from '../../src/core/capture-weights.js';
import { emptyScore, f3, loadConversations, matches, precision, recall, scoreConversation, type Conversation, type Score } from './score.js';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
    // Fit only on rounds up to this one (the later rounds stay unseen, to score the fit on them with `npm run eval:capture -- --files ...`).
    upto: { type: 'string' },
    // Skip the leave-one-round-out search (an hour and more on 50 rounds): fit with the first setting and the shipped thresholds.
    'no-search': { type: 'boolean', default: false },
  },
});

/** Blind rounds by file (eval/capture/sets/README.md); the four first files are round 1. */
const round = (file: string): number => {
  const m = /^blind-(\d+)\.json$/.exec(file);
  return m ? Math.ceil(Number(m[1]) / 2) + 1 : 1;
};

interface Row {
  readonly conv: number;
  readonly cand: Candidate;
  readonly x: Float64Array;
  readonly y: number;
}

const upto = values.upto === undefined ? Infinity : Number(values.upto);
const conversations = loadConversations(['dev']).filter((c) => round(c.file) <= upto);
const perConv = conversations.map((c) => captureCandidates(c.turns, 5000));
const texts = perConv.flatMap((cs) => cs.map(candidateText));
console.log(`${conversations.length} dev conversations, ${texts.length} user sentences; embedding them with use-lite ...`);
const embedder = await loadUseLite();
const dim = embedder.info.dim;
const vectors: Float32Array[] = [];
for (let i = 0; i < texts.length; i += 64) {
  const flat = await embedder.embed(texts.slice(i, i + 64));
  for (let j = 0; j * dim < flat.length; j++) vectors.push(flat.subarray(j * dim, (j + 1) * dim));
}
await embedder.dispose?.();

/** Embedding components are ~1/sqrt(dim); scaled to ~1 so one regularisation fits both parts. */
const SCALE = Math.sqrt(dim);
/** The vocabulary: words in at least this many training sentences (rarer ones would only learn their sentence). */
const MIN_SENTENCES = 3;
const seen = new Map<string, number>();
for (const t of texts) for (const w of sentenceWords(t)) seen.set(w, (seen.get(w) ?? 0) + 1);
const vocab = [...seen].filter(([, n]) => n >= MIN_SENTENCES).map(([w]) => w).sort();
const vocabIndex = new Map(vocab.map((w, i) => [w, CUE_NAMES.length + dim + i]));
const FEATURES = CUE_NAMES.length + dim + vocab.length;
const rows: Row[] = [];
let k = 0;
perConv.forEach((cands, conv) => {
  const c = conversations[conv] as Conversation;
  for (const cand of cands) {
    const v = vectors[k++] as Float32Array;
    const x = new Float64Array(FEATURES);
    x.set(sentenceCues(cand));
    for (let i = 0; i < dim; i++) x[CUE_NAMES.length + i] = (v[i] as number) * SCALE;
    for (const w of sentenceWords(candidateText(cand))) {
      const at = vocabIndex.get(w);
      if (at !== undefined) x[at] = 1;
    }
    rows.push({ conv, cand, x, y: Number(c.keep.some((item) => matches(cand.sentence.text, item))) });
  }
});

/** L2-regularised logistic regression (Adam, full batch); positives weigh `posWeight`. */
function fit(train: readonly Row[], lambda: number, posWeight: number): { w: Float64Array; b: number } {
  const n = FEATURES;
  const w = new Float64Array(n);
  let b = 0;
  const m = new Float64Array(n + 1);
  const s = new Float64Array(n + 1);
  const total = train.reduce((a, r) => a + (r.y ? posWeight : 1), 0);
  for (let step = 1; step <= 400; step++) {
    const g = new Float64Array(n + 1);
    for (const r of train) {
      let z = b;
      for (let i = 0; i < n; i++) z += (w[i] as number) * (r.x[i] as number);
      const err = ((1 / (1 + Math.exp(-z)) - r.y) * (r.y ? posWeight : 1)) / total;
      for (let i = 0; i < n; i++) g[i] = (g[i] as number) + err * (r.x[i] as number);
      g[n] = (g[n] as number) + err;
    }
    for (let i = 0; i <= n; i++) {
      const gi = (g[i] as number) + (i < n ? lambda * (w[i] as number) : 0);
      m[i] = 0.9 * (m[i] as number) + 0.1 * gi;
      s[i] = 0.999 * (s[i] as number) + 0.001 * gi * gi;
      const delta = (0.05 * ((m[i] as number) / (1 - 0.9 ** step))) / (Math.sqrt((s[i] as number) / (1 - 0.999 ** step)) + 1e-8);
      if (i < n) w[i] = (w[i] as number) - delta;
      else b -= delta;
    }
  }
  return { w, b };
}

function toModel(f: { w: Float64Array; b: number }, t: Thresholds): CaptureModel {
  const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
  return {
    modelId: embedder.info.modelId,
    cueNames: [...CUE_NAMES],
    cues: Array.from(f.w.subarray(0, CUE_NAMES.length), r4),
    embedding: Array.from(f.w.subarray(CUE_NAMES.length, CUE_NAMES.length + dim), (x) => r4(x * SCALE)),
    words: Object.fromEntries(vocab.map((w, i) => [w, r4(f.w[CUE_NAMES.length + dim + i] as number)]).filter(([, x]) => x !== 0)),
    bias: r4(f.b),
    threshold: t.ruled,
    namedThreshold: t.named,
    plainThreshold: t.plain,
  };
}

const rounds = [...new Set(conversations.map((c) => round(c.file)))].sort((a, b) => a - b);
/** Probability at which a sentence is kept: one a rule fired on, one only the named-fact rule fired on, and one none did. */
interface Thresholds {
  readonly ruled: number;
  readonly named: number;
  readonly plain: number;
}
const THRESHOLDS: Thresholds[] = [0.2, 0.3, 0.4].flatMap((ruled) =>
  [0.2, 0.3, 0.4, 0.5, 0.6].filter((named) => named >= ruled).flatMap((named) => [0.6, 0.7, 0.8, 0.9].map((plain) => ({ ruled, named, plain }))),
);
const shown = (t: Thresholds): string => `${t.ruled} / ${t.named} / ${t.plain}`;
const SETTINGS = [
  { lambda: 0.03, posWeight: 2 },
  { lambda: 0.1, posWeight: 2 },
];

/** Each round scored by a model fit on the other rounds, at each threshold. */
function leaveOneRoundOut(setting: { lambda: number; posWeight: number }, thresholds: readonly Thresholds[]): Score[] {
  const scores = thresholds.map(() => emptyScore());
  for (const held of rounds) {
    const fitted = fit(rows.filter((r) => round((conversations[r.conv] as Conversation).file) !== held), setting.lambda, setting.posWeight);
    thresholds.forEach((t, ti) => {
      const model = toModel(fitted, t);
      let at = 0;
      perConv.forEach((cands, conv) => {
        const c = conversations[conv] as Conversation;
        const vs = vectors.slice(at, at + cands.length);
        at += cands.length;
        if (round(c.file) === held) scoreConversation(scores[ti] as Score, c, modelFacts(model, cands, vs));
      });
    });
  }
  return scores;
}

const rulesScore = emptyScore();
for (const [i, c] of conversations.entries()) scoreConversation(rulesScore, c, ruledFacts(perConv[i] as Candidate[]));
console.log(`\nrules alone on dev: precision ${f3(precision(rulesScore))}, recall ${f3(recall(rulesScore))}\n`);
console.log('leave-one-round-out (each round scored by a model fit on the others):\n');
console.log('| lambda | pos. weight | threshold (ruled / named-fact / plain) | precision | recall | F1 | secrets |\n|---|---|---|---|---|---|---|');
/**
 * Issue 19's goal is recall >= 0.7 on conversations nobody tuned on. A new writer's blind round has come out
 * both below and above leave-one-round-out recall (round 9: 0.711 against 0.784; rounds 12-15: 0.82-0.85
 * against 0.75-0.76; round 16: 0.679 against 0.750; rounds 20-22: 0.62-0.65 against about 0.75), while its
 * precision came out above it (rounds 20-22: 0.85-0.92 against 0.84). So the floor keeps a margin of 0.1
 * over the goal.
 */
const RECALL_FLOOR = 0.8;
let best = { f1: -1, p: 0, lambda: 0, posWeight: 0, threshold: { ruled: 0.5, named: 0.5, plain: 0.5 } as Thresholds };
if (values['no-search']) best = { ...best, ...(SETTINGS[0] as { lambda: number; posWeight: number }), threshold: { ruled: CAPTURE_MODEL.threshold, named: CAPTURE_MODEL.namedThreshold, plain: CAPTURE_MODEL.plainThreshold } };
for (const setting of values['no-search'] ? [] : SETTINGS) {
  const scores = leaveOneRoundOut(setting, THRESHOLDS);
  THRESHOLDS.forEach((t, ti) => {
    const s = scores[ti] as Score;
    const p = precision(s);
    const r = recall(s);
    const f1 = (2 * p * r) / (p + r);
    // The goal is precision at a recall floor: the most precise setting whose held-out recall keeps
    // RECALL_FLOOR (a fact kept wrongly costs more than one missed); ties go to F1.
    if (r >= RECALL_FLOOR && (p > best.p + 0.002 || (p > best.p - 0.002 && f1 > best.f1))) best = { f1, p, ...setting, threshold: t };
    console.log(`| ${setting.lambda} | ${setting.posWeight} | ${shown(t)} | ${f3(p)} | ${f3(r)} | ${f3(f1)} | ${s.secretsStored} |`);
  });
}
if (!values['no-search']) console.log(`\nmost precise at recall >= ${RECALL_FLOOR}: lambda ${best.lambda}, positive weight ${best.posWeight}, threshold ${shown(best.threshold)} (precision ${f3(best.p)}, F1 ${f3(best.f1)})`);

if (values.misses) console.log(`\n${(leaveOneRoundOut(best, [best.threshold])[0] as Score).misses.join('\n')}`);

if (values.write) {
  const model = toModel(fit(rows, best.lambda, best.posWeight), best.threshold);
  const out = new URL('../../src/core/capture-weights.ts', import.meta.url).pathname;
  writeFileSync(
    out,
    `/** Generated by \`npm run eval:capture:train -- --write${values['no-search'] ? ' --no-search' : ''}${values.upto ? ` --upto ${values.upto}` : ''}\` from the dev split of eval/capture/sets (${rows.length} sentences, ${conversations.length} conversations${values.upto ? `, rounds 1-${values.upto}` : ''}). Do not edit. */\nimport type { CaptureModel } from './capture-model.js';\n\nexport const CAPTURE_MODEL: CaptureModel = ${JSON.stringify(model)};\n`,
  );
  console.log(`wrote ${out}`);
}
