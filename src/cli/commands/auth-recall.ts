/**
 * auth-recall check: run turns (JSON Lines on stdin) through the same hook the gateway uses, against the
 * configured database, and print one JSON line per turn, in order:
 *   in:  {"id", "prompt", "messages": [...], "agentId", "sessionId", "role"}   (role: default specialist)
 *   out: {"id", "detected", "target", "factIds", "hint"}
 * A line that is not a valid turn prints {"id", "error": {code, message}} and the command exits 1.
 */
import { escapeTerminal } from '../../core/terminal.js';
import { toWire } from '../../core/errors.js';
import { flag } from '../args.js';
import type { CommandSpec } from '../spec.js';

export const authRecallCheckCommand: CommandSpec = {
  name: 'auth-recall check',
  summary: 'run turns (JSON Lines on stdin) through the auth-failure hook; one JSON result line per turn',
  args: [],
  options: {
    semantic: { type: 'boolean', help: 'also load the local embedding model and use the vector leg, as a running gateway does' },
  },
  details: ['in:  {"id", "prompt", "messages": [...], "agentId", "sessionId", "role"}', 'out: {"id", "detected", "target", "factIds", "hint"}'],
  async run({ opts, cli }) {
    const svc = cli.service();
    const config = cli.config();
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`);
    const [{ startSemantic }, { AuthRecallHook }] = await Promise.all([import('../../main.js'), import('../../recall/hook.js')]);
    if (flag(opts, 'semantic')) await startSemantic(svc, config, log, { maintain: false });
    const hook = new AuthRecallHook(svc, config, { log, detectTimeoutMs: 2000, vectorDeadlineMs: 2000 });
    const out: string[] = [];
    let failed = 0;
    try {
      const lines = (await cli.readStdin()).split('\n');
      for (const [n, line] of lines.entries()) {
        if (line.trim() === '') continue;
        let id: unknown = null;
        try {
          const turn = JSON.parse(line) as Record<string, unknown>;
          id = turn.id ?? null;
          const r = await hook.evaluate({ ...turn, id: undefined } as never);
          out.push(JSON.stringify({ id, detected: r.detected, target: r.target, factIds: r.factIds, hint: r.hint }));
        } catch (err) {
          failed++;
          const w = toWire(err);
          out.push(JSON.stringify({ id, line: n + 1, error: { code: w.code === 'MEM_ERR_INTERNAL' && err instanceof SyntaxError ? 'MEM_ERR_INVALID_INPUT' : w.code, message: w.message } }));
        }
        cli.io.stdout.write(`${out[out.length - 1]}\n`);
      }
    } finally {
      await hook.close();
    }
    return { human: [], json: undefined, exitCode: failed > 0 ? 1 : 0, silent: true };
  },
};
