// Secret guard: a fail-closed hybrid-mem plugin that keeps secrets out of memory. Its beforeFactStore
// checks every new fact and every edit (text, entity and tags) for secret-looking values: private key
// blocks, AWS access key ids, GitHub and Slack tokens, API secret keys, JSON Web Tokens, bearer tokens,
// passwords in URLs and `password=...` style assignments.
//   mode "veto" (default): the store is refused (MEM_ERR_PLUGIN_VETO) with what was found (never the
//     value) and how to put the secret in the vault instead;
//   mode "redact": the values are replaced with "[redacted]", the fact is tagged "redacted-secret" and
//     stored.
// Being fail-closed, a guard that cannot run (it throws, hangs, fails to load) refuses the store too.
import { findSecrets, redact } from './rules.js';

const counts = { checked: 0, vetoed: 0, redacted: 0 };
let ctx;

function describe(findings) {
  return [...new Set(findings.map((f) => f.kind))].join(', ');
}

function vaultAdvice(findings) {
  const type = findings[0]?.type ?? 'password';
  return `keep secrets in the vault: printf '%s' "$SECRET" | hybrid-mem vault put <service> --type ${type}, then store a fact that names the service without the value (recall will point to the vault)`;
}

/** @type {import('hybrid-mem').HybridMemPlugin} */
export default {
  id: 'secret-guard',
  name: 'Secret guard',
  version: '1.0.0',
  description: 'refuses or redacts facts that contain secrets, and points to the vault',
  author: 'hybrid-mem',
  capabilities: { canModifyFacts: true },

  init(context) {
    ctx = context;
    const mode = context.config.mode ?? 'veto';
    if (mode !== 'veto' && mode !== 'redact') throw new Error(`config.mode must be "veto" or "redact", not ${JSON.stringify(mode)}`);
    context.registerCommand('check', (args) => {
      const findings = findSecrets(args.join(' '));
      return findings.length === 0
        ? { output: 'no secrets found', json: { secrets: [] } }
        : { output: `found ${describe(findings)}; ${vaultAdvice(findings)}`, exitCode: 1, json: { secrets: [...new Set(findings.map((f) => f.kind))] } };
    });
    context.registerEndpoint('/status', () => ({ json: { mode, ...counts } }));
  },

  async beforeFactStore(fact) {
    counts.checked++;
    const fields = [fact.text, fact.entity ?? '', ...fact.tags];
    const findings = fields.flatMap((f) => findSecrets(f));
    if (findings.length === 0) return fact;
    const kinds = describe(findings);
    if ((ctx.config.mode ?? 'veto') === 'veto') {
      counts.vetoed++;
      await ctx.emit('secret-refused', { kinds: [...new Set(findings.map((f) => f.kind))] });
      return { veto: true, reason: `the fact contains what looks like ${kinds}; ${vaultAdvice(findings)}` };
    }
    counts.redacted++;
    const clean = (s) => redact(s, findSecrets(s));
    ctx.logger.warn(`redacted ${kinds} from a fact; ${vaultAdvice(findings)}`);
    await ctx.emit('secret-redacted', { kinds: [...new Set(findings.map((f) => f.kind))] });
    return {
      ...fact,
      text: clean(fact.text),
      entity: fact.entity === null ? null : clean(fact.entity),
      tags: [...new Set([...fact.tags.map(clean), 'redacted-secret'])],
    };
  },
};
