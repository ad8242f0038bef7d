/** link, unlink and link-type: typed links between facts. */
import { LINK_TYPES } from '../../core/types.js';
import { idSchemas, linkSchema, linkTypeSchema } from '../../memory/inputs.js';
import { num, oneOf } from '../args.js';
import { linkLine } from '../format.js';
import type { CommandSpec } from '../spec.js';
import { checked } from './common.js';

export const linkCommand: CommandSpec = {
  name: 'link',
  summary: 'link two current facts (linking them again strengthens the link)',
  args: ['<sourceId>', '<targetId>'],
  options: {
    type: { type: 'string', value: 'LINK_TYPE', help: `${LINK_TYPES.join(' | ')} (default: RELATED_TO)` },
    strength: { type: 'string', value: 'N', help: '0..1 (default 0.5)' },
  },
  run({ args, opts, cli }) {
    const input = { sourceId: args[0] as string, targetId: args[1] as string, linkType: oneOf(opts, 'type', LINK_TYPES), strength: num(opts, 'strength') };
    const valid = checked(linkSchema, input, 'memory_link');
    const r = cli.service().memoryLink(valid);
    return { human: [linkLine(r.link), r.created ? 'created' : 'already linked: strengthened'], json: { link: r.link, created: r.created } };
  },
};

export const unlinkCommand: CommandSpec = {
  name: 'unlink',
  summary: 'cut a link',
  args: ['<linkId>'],
  options: {},
  run({ args, cli }) {
    const valid = checked(idSchemas.link, args[0] as string, 'cutLink.id');
    const link = cli.service().cutLink(valid);
    return { human: `cut ${link.id}`, json: { link } };
  },
};

export const linkTypeCommand: CommandSpec = {
  name: 'link-type',
  summary: 'change the type of a link',
  args: ['<linkId>', '<TYPE>'],
  details: [`TYPE: ${LINK_TYPES.join(' | ')}`],
  options: {},
  run({ args, cli }) {
    const valid = checked(linkTypeSchema, { id: args[0] as string, linkType: args[1] as string }, 'changeLinkType');
    const link = cli.service().changeLinkType(valid);
    return { human: linkLine(link), json: { link } };
  },
};
