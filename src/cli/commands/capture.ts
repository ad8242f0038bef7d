/**
 * capture: read a conversation (JSON Lines of {"role", "content"} on stdin, or one JSON array) and keep what
 * the user said that is worth remembering, by the auto-capture rules (docs/auto-memory.md): the facts it
 * stores, strengthens or corrects, one line each; `--dry-run` only prints what it would do.
 */
import { MemoryError, toWire } from '../../core/errors.js';
import { oneLine } from '../../core/text.js';
import type { CaptureTurn } from '../../core/capture.js';
import { replacedBy, type CaptureBy, type CaptureDecision } from '../../memory/capture.js';
import { CAPTURE_LIMITS, captureSchema, parse } from '../../memory/inputs.js';
import { recordProblem, transcriptTurns } from '../../recall/transcript.js';
import { flag } from '../args.js';
import type { CommandSpec } from '../spec.js';
import { cliLog } from './semantic.js';

/** The records on stdin: one JSON value per line, or one JSON array. */
function readRecords(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const all = JSON.parse(trimmed) as unknown;
      if (Array.isArray(all)) return all;
    } catch (err) {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: stdin is not a JSON array of {role, content}: ${(err as Error).message}`);
    }
  }
  return trimmed.split('\n').flatMap((line, n) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: line ${n + 1} of stdin is not JSON (expected {"role", "content"} or a line of a client's session file)`);
    }
  });
}

/**
 * The conversation on stdin as turns (transcriptTurns), in pieces of at most CAPTURE_LIMITS.messages that start at a
 * user message where they can, so a long session file goes through whole. A plain {role, content} record
 * of the wrong shape is refused, naming it; a file with no message in it is refused.
 */
function readTranscript(text: string): CaptureTurn[][] {
  const records = readRecords(text);
  records.forEach((r, n) => {
    const problem = recordProblem(r);
    if (problem) throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: record ${n + 1} on stdin is not a message (${problem}): expected {"role": "user" | "assistant" | "tool", "content": "..."}, got ${JSON.stringify(r).slice(0, 120)}`);
  });
  const turns = transcriptTurns(records).map((t) => (t.content.length > CAPTURE_LIMITS.contentChars ? { ...t, content: t.content.slice(0, CAPTURE_LIMITS.contentChars) } : t));
  if (turns.length === 0) throw new MemoryError('MEM_ERR_INVALID_INPUT', `capture: no messages on stdin (${records.length} records): expected {"role", "content"} lines, or a session file of OpenClaw, pi, Claude Code or Codex`);
  const pieces: CaptureTurn[][] = [];
  let piece: CaptureTurn[] = [];
  for (const t of turns) {
    if (piece.length >= CAPTURE_LIMITS.messages || (piece.length >= CAPTURE_LIMITS.messages - 20 && t.role === 'user')) {
      pieces.push(piece);
      piece = [];
    }
    piece.push(t);
  }
  return [...pieces, piece];
}

export const captureCommand: CommandSpec = {
  name: 'capture',
  summary: 'keep what the user said that is worth remembering, from a conversation on stdin (JSON Lines of {role, content}, or a client\'s session file)',
  args: [],
  options: {
    'dry-run': { type: 'boolean', help: 'print what would be kept; write nothing' },
  },
  details: [
    'in:  one {"role": "user" | "assistant" | "tool", "content": "..."} per line, oldest first (or one JSON array),',
    '     or a session file as OpenClaw, pi, Claude Code or Codex save it (content parts read as text)',
    'only user messages are read; tool output and injected <relevant-memories> blocks never are',
  ],
  async run({ opts, cli }) {
    const dryRun = flag(opts, 'dry-run');
    const inputs = readTranscript(await cli.readStdin()).map((transcript) => parse(captureSchema, { transcript, dryRun }, 'capture'));
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
    const decisions: CaptureDecision[] = [];
    let by: CaptureBy = 'rules';
    let reason: string | null = null;
    for (const input of inputs) {
      const r = await svc.capture(input.transcript, undefined, { dryRun });
      decisions.push(...r.decisions);
      ({ by, reason } = r);
    }
    const human = decisions.length
      ? decisions.map((d) => `${d.action}${dryRun && d.action !== 'skipped' ? ' (dry run)' : ''}  [${d.found.rule}, ${d.found.category}] ${oneLine(d.found.text, 160, '…')}${d.fact ? `  ${d.fact.id}` : ''}${d.replaces ? `  replaces ${replacedBy(d).map((f) => f.id).join(', ')}` : ''}${d.reason ? `  (${d.reason})` : ''}`)
      : ['nothing worth keeping was found'];
    human.push(by === 'classifier' ? '(decided by the sentence classifier)' : `(decided by the rules alone: ${reason ?? 'no classifier'})`);
    const json = {
      dryRun,
      by,
      reason,
      decisions: decisions.map((d) => ({ action: d.action, rule: d.found.rule, text: d.found.text, category: d.found.category, entity: d.found.entity, factId: d.fact?.id ?? null, replaces: d.replaces?.id ?? null, alsoReplaces: replacedBy(d).slice(1).map((f) => f.id), reason: d.reason })),
    };
    return { human, json };
  },
};
