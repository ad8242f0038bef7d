/** store and recall: the agent tools memory_store and memory_recall from the command line. */
import { CATEGORIES, DECAY_CLASSES } from '../../core/types.js';
import { LIMITS, recallSchema, storeSchema } from '../../memory/inputs.js';
import { flag, int, oneOf, str } from '../args.js';
import { oneLine } from '../format.js';
import type { CommandSpec } from '../spec.js';
import { cliLog, embedBeforeSearch, embedStored } from './semantic.js';
import { SCOPE_OPTIONS, checked, factFieldOptions, scopeInput, textArg } from './common.js';

export const storeCommand: CommandSpec = {
  name: 'store',
  summary: 'store a fact; prints its id (and any conflicts it raised)',
  args: ['<text>'],
  details: ['Use "-" as <text> to read the text from stdin. An identical current fact is not stored twice: its id is printed instead.'],
  options: {
    category: { type: 'string', value: 'C', help: CATEGORIES.join(' | ') + ' (default: fact)' },
    entity: { type: 'string', value: 'E', help: 'what the fact is about (conflicts are detected per entity)' },
    tag: { type: 'string', multiple: true, value: 'T', help: 'a tag; repeat for more' },
    importance: { type: 'string', value: 'N', help: '0..1 (default 0.5)' },
    confidence: { type: 'string', value: 'N', help: '0..1 (default 0.8)' },
    decay: { type: 'string', value: 'CLASS', help: DECAY_CLASSES.join(' | ') + ' (default: stable)' },
    expires: { type: 'string', value: 'ISO|ms', help: 'scheduled expiry: an ISO-8601 date(-time) or epoch milliseconds' },
    pinned: { type: 'boolean', help: 'pin it (stays central, decay frozen)' },
    ...SCOPE_OPTIONS,
    supersedes: { type: 'string', value: 'FACT_ID', help: 'store as the next version of this current fact' },
  },
  async run({ args, opts, cli }) {
    const text = await textArg(args[0] as string, cli.readStdin);
    const input = {
      text,
      ...factFieldOptions(opts),
      pinned: flag(opts, 'pinned'),
      ...scopeInput(opts, 'store'),
      supersedes: str(opts, 'supersedes'),
    };
    const valid = checked(storeSchema, input, 'memory_store');
    const svc = await cli.serviceWithPlugins();
    const r = await svc.storeWithHooks(valid, undefined, 'cli');
    const embedded = r.created ? await embedStored(svc, cli, r.fact.id) : null;
    const human = [
      r.fact.id,
      ...(r.created ? [] : ['note: an identical current fact already exists; nothing new was stored']),
      ...r.conflicts.map((c) => `conflict ${c.id} with ${c.oldFactId}: ${c.reason} (settle it: hybrid-mem resolve ${c.id} keep_new|keep_old|both_fine)`),
    ];
    return { human, json: { fact: r.fact, created: r.created, conflicts: r.conflicts, embedded } };
  },
};

export const recallCommand: CommandSpec = {
  name: 'recall',
  summary: 'search memory; prints numbered matches with score, id, category and text',
  args: ['<query>'],
  options: {
    limit: { type: 'string', value: 'N', help: `how many results, 1..${LIMITS.recallMax} (default 10)` },
    category: { type: 'string', value: 'C', help: 'only facts of this category' },
    'include-superseded': { type: 'boolean', help: 'also search superseded versions' },
    semantic: { type: 'boolean', help: 'hybrid search: also load the local embedding model (~1-2 s) and search the vector index' },
  },
  async run({ args, opts, cli }) {
    const input = {
      query: args[0] as string,
      limit: int(opts, 'limit', 1, LIMITS.recallMax),
      category: oneOf(opts, 'category', CATEGORIES),
      includeSuperseded: flag(opts, 'include-superseded'),
    };
    const valid = checked(recallSchema, input, 'memory_recall');
    const svc = await cli.serviceWithPlugins();
    if (flag(opts, 'semantic')) {
      const { startSemantic } = await import('../../main.js');
      await embedBeforeSearch(await startSemantic(svc, cli.config(), cliLog(cli), { maintain: false }), cli);
    }
    const r = await svc.memoryRecall(valid);
    const human = r.results.length
      ? r.results.map((h, i) => `${i + 1}. ${h.score.toFixed(4)}  ${h.fact.id}  [${h.fact.category}]  ${oneLine(h.fact.text)}`)
      : ['no matches'];
    if (r.degraded) human.push(`(degraded: ${r.reason})`);
    return { human, json: { mode: r.mode, degraded: r.degraded, reason: r.reason, results: r.results.map((h) => ({ score: h.score, why: h.why, fact: h.fact })), recallId: r.recallId } };
  },
};
