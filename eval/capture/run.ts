/**
 * `npm run eval:capture [-- --split dev|test|all] [--rules] [--misses]`: auto-capture on the labeled
 * conversations (eval/capture/sets) as the service runs it (src/memory/capture.ts findFacts): the sentence
 * classifier over the shipped embedding model (USE-lite, loaded here in-process), or with `--rules` the
 * rules alone; precision, recall and secrets stored, overall, per rule and per kind, scored as
 * eval/capture/sets/README.md says. A conversation's `repeats` (restating a fact memory already has) count
 * as false positives here, since this sees no memory (the service strengthens them instead). Tune on dev;
 * report test.
 */
import { parseArgs } from 'node:util';
import { loadUseLite } from '../../src/actors/embed/providers/use-lite.js';
import { findFacts, type SentenceEmbedder } from '../../src/memory/capture.js';
import { emptyScore, f3, loadConversations, precision, recall, scoreConversation } from './score.js';

const { values } = parseArgs({ options: { split: { type: 'string', default: 'dev' }, rules: { type: 'boolean', default: false }, misses: { type: 'boolean', default: false } } });
const splits = values.split === 'all' ? ['dev', 'test'] : [values.split ?? 'dev'];
const conversations = loadConversations(splits);

let embedder: SentenceEmbedder | null = null;
const model = values.rules ? null : await loadUseLite();
if (model) {
  const dim = model.info.dim;
  embedder = {
    info: model.info,
    async embedTexts(texts) {
      const flat = await model.embed(texts);
      return texts.map((_, i) => flat.subarray(i * dim, (i + 1) * dim));
    },
  };
}

const s = emptyScore();
const by = new Set<string>();
for (const c of conversations) {
  const r = await findFacts(embedder, c.turns, { maxChars: 5000, classifier: !values.rules });
  by.add(r.by);
  scoreConversation(s, c, r.found);
}
await model?.dispose?.();

console.log(`split: ${splits.join('+')}; ${conversations.length} conversations, ${s.keep} facts to keep; decided by: ${[...by].join(', ')}\n`);
console.log(`| | captured | precision | keep items | recall | secrets stored |\n|---|---|---|---|---|---|`);
console.log(`| all | ${s.captured} | ${f3(precision(s))} | ${s.keep} | ${f3(recall(s))} | ${s.secretsStored} |`);
for (const [rule, r] of s.byRule) console.log(`| found by ${rule} | ${r.captured} | ${f3(r.matched / r.captured)} | | | |`);
for (const [kind, k] of s.byKind) console.log(`| kind ${kind} | | | ${k.keep} | ${f3(k.found / k.keep)} | |`);
if (values.misses) console.log(`\n${s.misses.join('\n')}`);
