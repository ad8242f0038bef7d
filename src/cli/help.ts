/** Help text: the command list, and each command's usage and options. */
import { GLOBAL_OPTIONS } from './args.js';
import type { CommandSpec, OptionSpec } from './spec.js';

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, o]) => {
    const flagText = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.multiple ? ' ...' : ''}`;
    return [flagText, o.help] as const;
  });
  const width = Math.max(0, ...rows.map(([f]) => f.length)) + 2;
  return rows.map(([f, h]) => `  ${f.padEnd(width)}${h}`);
}

export function commandHelp(spec: CommandSpec): string {
  const usage = [`hybrid-mem ${spec.name}`, ...spec.args, ...(Object.keys(spec.options).length ? ['[options]'] : [])].join(' ');
  const lines = [`Usage: ${usage}`, '', `${spec.summary[0]?.toUpperCase() ?? ''}${spec.summary.slice(1)}.`];
  if (spec.details?.length) lines.push('', ...spec.details);
  if (Object.keys(spec.options).length) lines.push('', 'Options:', ...optionLines(spec.options));
  lines.push('', 'Global options:', ...optionLines(GLOBAL_OPTIONS));
  return lines.join('\n');
}

/** Help for a group ("vault"): its subcommands. */
export function groupHelp(group: string, commands: readonly CommandSpec[]): string {
  const subs = commands.filter((c) => c.name.startsWith(`${group} `));
  return [`Usage: hybrid-mem ${group} <command> [options]`, '', 'Commands:', ...commandRows(subs), '', `Run "hybrid-mem ${group} <command> --help" for details.`].join('\n');
}

function commandRows(commands: readonly CommandSpec[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
}

export function mainHelp(commands: readonly CommandSpec[]): string {
  return [
    'Usage: hybrid-mem <command> [arguments] [options]',
    '',
    'A durable local memory for AI agents: facts, typed links, recall, and an encrypted credential vault.',
    '',
    'Commands:',
    ...commandRows(commands),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'Data lives in --db, else $HYBRID_MEM_HOME/memory.db, else ~/.hybrid-mem/memory.db.',
    'Exit codes: 0 ok, 1 user error (bad input; nothing was changed), 2 internal error.',
    'Run "hybrid-mem <command> --help" for a command\'s options. Reference: docs/cli.md.',
  ].join('\n');
}
