/** vault put | list | get | remove. Secrets enter on stdin only and are printed only by `vault get`. */
import { MemoryError } from '../../core/errors.js';
import { VAULT_TYPES, type Caller, type Scope } from '../../core/types.js';
import { LIMITS, vaultPutSchema } from '../../memory/inputs.js';
import { MAX_PAGE } from '../../store/facts.js';
import { oneOf, str, usageError } from '../args.js';
import { scopeText, vaultLine } from '../format.js';
import { readSecret } from '../secret-input.js';
import type { CommandSpec } from '../spec.js';
import { SCOPE_OPTIONS, checked, scopeInput, type ScopeInput } from './common.js';

const ARGV_LEAKS = 'a secret on the command line leaks into shell history and `ps` output';

export const vaultPutCommand: CommandSpec = {
  name: 'vault put',
  summary: 'store a secret (read from stdin) in the encrypted vault',
  args: ['<service>'],
  refuseExtra: `vault put reads the secret from stdin, never from arguments: ${ARGV_LEAKS}; if you typed one, it may now be in your shell history`,
  details: [
    'The secret is read from stdin (one trailing newline is dropped), e.g.:  printf %s "$TOKEN" | hybrid-mem vault put github --type token',
    'On a terminal it is prompted for with echo off. A pointer fact ("Credential for <service> ... stored in secure vault") is kept in memory;',
    'one with other text (imported or edited: it may name the host) is kept as it is.',
  ],
  options: {
    type: { type: 'string', value: 'T', help: `${VAULT_TYPES.join(' | ')} (default: the entry's type in that scope, also one an import named; else password)` },
    note: { type: 'string', value: 'N', help: 'a note shown by vault list (never put the secret here; default: the entry\'s note; "" clears it)' },
    ...SCOPE_OPTIONS,
    secret: { type: 'string', value: 'S', help: `refused: ${ARGV_LEAKS}; pipe it on stdin` },
  },
  async run({ args, opts, cli }) {
    if (opts.secret !== undefined) throw usageError(`--secret is refused: ${ARGV_LEAKS}; pipe the secret on stdin instead`, 'vault put');
    const service = args[0] as string;
    const input = { service, type: oneOf(opts, 'type', VAULT_TYPES), note: str(opts, 'note'), ...scopeInput(opts, 'vault put') };
    checked(vaultPutSchema, { ...input, secret: 'placeholder' }, 'vault.put'); // before anyone types a secret
    const secret = await readSecret(cli.io, cli.readStdin, service);
    // Checked here so that no message ever quotes the secret (validation messages show what arrived).
    if (secret.length === 0 || secret.length > LIMITS.secretMax) {
      throw new MemoryError('MEM_ERR_INVALID_INPUT', `vault.put.secret: expected 1 to ${LIMITS.secretMax} characters on stdin, received ${secret.length}`, {
        details: { path: 'vault.put.secret', expected: `1 to ${LIMITS.secretMax} characters`, received: `${secret.length} characters` },
      });
    }
    const { entry, replaced } = cli.service().vaultPut({ ...input, secret });
    return { human: `${replaced ? 'replaced' : 'stored'} ${entry.service} (${entry.type}, ${scopeText(entry.scope)})`, json: { entry, replaced } };
  },
};

export const vaultListCommand: CommandSpec = {
  name: 'vault list',
  summary: 'list vault entries: service, type, scope and note (never the secrets)',
  args: [],
  options: {},
  run({ cli }) {
    const entries = cli.service().vaultList();
    return { human: entries.length ? entries.map(vaultLine) : ['the vault is empty'], json: { entries } };
  },
};

export const vaultGetCommand: CommandSpec = {
  name: 'vault get',
  summary: 'print a secret (the most specific one visible; see --agent/--session)',
  args: ['<service>'],
  details: ['Prints exactly the secret when stdout is not a terminal (for pipes); on a terminal a newline follows and a warning goes to stderr.'],
  options: {
    agent: { type: 'string', value: 'ID', help: 'look it up as this agent would see it' },
    session: { type: 'string', value: 'ID', help: 'look it up as this session would see it' },
  },
  run({ args, opts, cli }) {
    const agentId = str(opts, 'agent') ?? null;
    const sessionId = str(opts, 'session') ?? null;
    const caller: Caller | undefined = agentId || sessionId ? { role: 'specialist', agentId, sessionId } : undefined;
    const r = cli.service().credentialGet({ service: args[0] as string }, caller);
    const tty = cli.io.stdout.isTTY === true;
    if (tty && !cli.json) cli.io.stderr.write('hybrid-mem: warning: printing a secret to the terminal (it stays in the scrollback)\n');
    return { human: tty ? [r.secret] : r.secret, exact: !tty, raw: !tty, json: r };
  },
};

export const vaultRemoveCommand: CommandSpec = {
  name: 'vault remove',
  summary: 'remove a vault entry (and its pointer fact) in one scope',
  args: ['<service>'],
  options: { ...SCOPE_OPTIONS },
  run({ args, opts, cli }) {
    const service = args[0] as string;
    const scope = scopeInput(opts, 'vault remove');
    const svc = cli.service();
    // Check first, so that "not found" changes nothing. A pointer without its secret (from an import) may be removed.
    const hasEntry = svc.vaultList().some((e) => e.service === service && sameScope(e.scope, scope));
    const hasPointer = svc.listFacts({ entity: 'Credentials', limit: MAX_PAGE }).some((f) => f.vaultService === service && sameScope(f.scope, scope));
    if (!hasEntry && !hasPointer) {
      throw new MemoryError('MEM_ERR_CREDENTIAL_NOT_FOUND', `no vault entry for service "${service}" in ${scope.scope} scope`);
    }
    const removed = svc.vaultRemove({ service, ...scope });
    return { human: removed ? `removed ${service}` : `removed the pointer fact for ${service} (the vault held no secret for it)`, json: { service, removed } };
  },
};

function sameScope(s: Scope, want: ScopeInput): boolean {
  if (s.kind !== want.scope) return false;
  if (s.kind === 'agent') return s.agentId === (want.scopeAgentId ?? null);
  if (s.kind === 'session') return s.sessionId === (want.scopeSessionId ?? null);
  return true;
}
