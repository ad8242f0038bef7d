/**
 * capture: read a conversation (JSON Lines of {"role", "content"} on stdin, or one JSON array) and keep what
 * the user said that is worth remembering, by the auto-capture rules (docs/auto-memory.md): the facts it
 * stores, strengthens or corrects, one line each; `--dry-run` only prints what it would do.
 */
import { MemoryError, toWire } from '../../core/errors.js';
import { oneLine } from '../../core/text.js';
import { captureSchema, parse } from '../../memory/inputs.js';
import { flag } from '../args.js';
import type { CommandSpec } from '../spec.js';
import { cliLog } from './semantic.js';

function readTranscript(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown[];
    } catch (err) {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: stdin is not a JSON array of {role, content}: ${(err as Error).message}`);
    }
  }
  return trimmed.split('\n').flatMap((line, n) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: line ${n + 1} of stdin is not JSON (expected {"role", "content"})`);
    }
  });
}

export const captureCommand: CommandSpec = {
  name: 'capture',
  summary: 'keep what the user said that is worth remembering, from a conversation on stdin (JSON Lines of {role, content})',
  args: [],
  options: {
    'dry-run': { type: 'boolean', help: 'print what would be kept; write nothing' },
  },
  details: ['in:  one {"role": "user" | "assistant" | "tool", "content": "..."} per line, oldest first (or one JSON array)', 'only user messages are read; tool output and injected <relevant-memories> blocks never are'],
  async run({ opts, cli }) {
    const dryRun = flag(opts, 'dry-run');
    const input = parse(captureSchema, { transcript: readTranscript(await cli.readStdin()), dryRun }, 'capture');
    const svc = cli.service();
    const config = cli.config();
    // The sentence classifier needs the embedding model; without it (off, or not loading) the rules decide.
    if (config.autoCapture.classifier && config.embedding.enabled) {
      try {
        const { startSemantic } = await import('../../main.js');
        await startSemantic(svc, config, cliLog(cli), { maintain: false });
      } catch (err) {
        const w = toWire(err);
        cliLog(cli)(`the embedding model did not load (${w.code}: ${w.message}); the rules alone decide`);
      }
    }
    const { decisions, by, reason } = await svc.capture(input.transcript, undefined, { dryRun });
    const human = decisions.length
      ? decisions.map((d) => `${d.action}${dryRun && d.action !== 'skipped' ? ' (dry run)' : ''}  [${d.found.rule}, ${d.found.category}] ${oneLine(d.found.text, 160, '…')}${d.fact ? `  ${d.fact.id}` : ''}${d.replaces ? `  replaces ${d.replaces.id}` : ''}${d.reason ? `  (${d.reason})` : ''}`)
      : ['nothing worth keeping was found'];
    human.push(by === 'classifier' ? '(decided by the sentence classifier)' : `(decided by the rules alone: ${reason ?? 'no classifier'})`);
    const json = {
      dryRun,
      by,
      reason,
      decisions: decisions.map((d) => ({ action: d.action, rule: d.found.rule, text: d.found.text, category: d.found.category, entity: d.found.entity, factId: d.fact?.id ?? null, replaces: d.replaces?.id ?? null, reason: d.reason })),
    };
    return { human, json };
  },
};
