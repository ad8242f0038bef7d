/** conflicts and resolve: contradictions between facts and how they are settled. */
import { CONFLICT_RESOLUTIONS, CONFLICT_STATUSES } from '../../core/types.js';
import { resolveSchema } from '../../memory/inputs.js';
import { oneOf } from '../args.js';
import { conflictLine } from '../format.js';
import type { CommandSpec } from '../spec.js';
import { checked } from './common.js';

export const conflictsCommand: CommandSpec = {
  name: 'conflicts',
  summary: 'list conflicts (default: the unresolved ones)',
  args: [],
  options: {
    status: { type: 'string', value: 'S', help: `${CONFLICT_STATUSES.join(' | ')} (default: unresolved)` },
  },
  run({ opts, cli }) {
    const conflicts = cli.service().listConflicts(undefined, oneOf(opts, 'status', CONFLICT_STATUSES));
    return { human: conflicts.length ? conflicts.map(conflictLine) : ['no conflicts'], json: { conflicts } };
  },
};

export const resolveCommand: CommandSpec = {
  name: 'resolve',
  summary: 'settle a conflict',
  args: ['<conflictId>', '<resolution>'],
  details: [
    `resolution: ${CONFLICT_RESOLUTIONS.join(' | ')}`,
    'keep_new supersedes the old fact by the new one, keep_old the new by the old; both_fine keeps both (marked reviewed).',
  ],
  options: {},
  run({ args, cli }) {
    const valid = checked(resolveSchema, { id: args[0] as string, resolution: args[1] as string }, 'resolveConflict');
    const conflict = cli.service().resolveConflict(valid);
    return { human: conflictLine(conflict), json: { conflict } };
  },
};
