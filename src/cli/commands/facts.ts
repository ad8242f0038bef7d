/** show, list, edit, delete, pin and unpin: reading and curating facts. */
import { CATEGORIES, DECAY_CLASSES } from '../../core/types.js';
import { MAX_PAGE } from '../../store/facts.js';
import { editSchema, idSchemas } from '../../memory/inputs.js';
import { int, oneOf, str, time, usageError } from '../args.js';
import { factDetails, factLine, linkLine } from '../format.js';
import type { CommandSpec } from '../spec.js';
import { checked, factFieldOptions, textArg } from './common.js';

export const showCommand: CommandSpec = {
  name: 'show',
  summary: 'show a fact with its version history and links',
  args: ['<factId>'],
  options: {},
  run({ args, cli }) {
    const id = checked(idSchemas.fact, args[0] as string, 'getFact.id');
    const svc = cli.service();
    const fact = svc.getFact(id);
    const history = svc.history(fact.id);
    const links = svc.listLinks(undefined, { factId: fact.id });
    const human = [
      ...factDetails(fact),
      `history (${history.length}):`,
      ...history.map((f) => `  v${f.version} ${factLine(f)}`),
      `links (${links.length}):`,
      ...links.map((l) => `  ${linkLine(l)}`),
    ];
    return { human, json: { fact, history, links } };
  },
};

export const listCommand: CommandSpec = {
  name: 'list',
  summary: 'list current facts, newest first (or the facts current at --as-of)',
  args: [],
  options: {
    category: { type: 'string', value: 'C', help: 'only this category' },
    entity: { type: 'string', value: 'E', help: 'only this entity' },
    tag: { type: 'string', value: 'T', help: 'only facts with this tag (not with --as-of)' },
    limit: { type: 'string', value: 'N', help: `at most N facts, 1..${MAX_PAGE} (default 100)` },
    'as-of': { type: 'string', value: 'ISO|ms', help: 'the facts that were current at that time' },
  },
  run({ opts, cli }) {
    const filter = { category: oneOf(opts, 'category', CATEGORIES), entity: str(opts, 'entity'), limit: int(opts, 'limit', 1, MAX_PAGE) };
    const asOf = time(opts, 'as-of');
    if (asOf !== undefined && str(opts, 'tag') !== undefined) throw usageError('--tag cannot be combined with --as-of', 'list');
    const svc = cli.service();
    const facts = asOf === undefined ? svc.listFacts({ ...filter, tag: str(opts, 'tag')?.toLowerCase() }) : svc.factsAsOf(asOf, undefined, filter);
    return { human: facts.length ? facts.map(factLine) : ['no facts'], json: { facts } };
  },
};

export const editCommand: CommandSpec = {
  name: 'edit',
  summary: 'edit a fact: stores a new version, the old one is superseded',
  args: ['<factId>'],
  details: ['Give at least one change. --text - reads the new text from stdin. --tag replaces all tags.'],
  options: {
    text: { type: 'string', value: 'TEXT', help: 'new text' },
    category: { type: 'string', value: 'C', help: 'new category' },
    entity: { type: 'string', value: 'E', help: 'new entity' },
    tag: { type: 'string', multiple: true, value: 'T', help: 'new tags (repeat; replaces the old ones)' },
    importance: { type: 'string', value: 'N', help: '0..1' },
    confidence: { type: 'string', value: 'N', help: '0..1' },
    decay: { type: 'string', value: 'CLASS', help: DECAY_CLASSES.join(' | ') },
    expires: { type: 'string', value: 'ISO|ms', help: 'new scheduled expiry' },
  },
  async run({ args, opts, cli }) {
    const text = str(opts, 'text');
    const changes = defined({
      text: text === undefined ? undefined : await textArg(text, cli.readStdin),
      ...factFieldOptions(opts),
    });
    if (Object.keys(changes).length === 0) throw usageError('edit needs at least one change (--text, --category, --entity, --tag, --importance, --confidence, --decay, --expires)', 'edit');
    const valid = checked(editSchema, { id: args[0] as string, ...changes }, 'editFact');
    const fact = await (await cli.serviceWithPlugins()).editWithHooks(valid);
    return { human: [fact.id, `new version ${fact.version} of ${fact.lineageId}; ${fact.supersedes ?? ''} is superseded`], json: { fact } };
  },
};

function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function curation(name: 'delete' | 'pin' | 'unpin', summary: string): CommandSpec {
  return {
    name,
    summary,
    args: ['<factId>'],
    options: {},
    async run({ args, cli }) {
      const id = checked(idSchemas.fact, args[0] as string, name === 'delete' ? 'deleteFact.id' : `${name}.id`);
      const fact = name === 'delete' ? await (await cli.serviceWithPlugins()).deleteWithHooks(id) : name === 'pin' ? cli.service().pin(id) : cli.service().unpin(id);
      const done = name === 'delete' ? 'deleted' : name === 'pin' ? 'pinned' : 'unpinned';
      return { human: `${done} ${fact.id}`, json: { fact } };
    },
  };
}

export const deleteCommand = curation('delete', 'delete a fact (it stays readable with list --as-of an earlier time)');
export const pinCommand = curation('pin', 'pin a fact: it stays central and its decay is frozen');
export const unpinCommand = curation('unpin', 'unpin a fact: decay applies again');
