/** import and export in the one documented format (docs/cli.md, "Export format"). */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { MemoryError } from '../../core/errors.js';
import type { ExportedVaultEntry, ImportReport } from '../../memory/transfer.js';
import { flag } from '../args.js';
import { plural } from '../format.js';
import { progressFor } from '../progress.js';
import type { CliSession, CommandSpec } from '../spec.js';

export const exportCommand: CommandSpec = {
  name: 'export',
  summary: 'export facts, links and vault pointers (never secrets) as JSON, to a file or stdout',
  args: ['[file]'],
  details: ['Without a file (or with "-") the document goes to stdout. The file is written whole or not at all, with mode 0600.'],
  options: {
    'all-versions': { type: 'boolean', help: 'include superseded versions (whole version chains); default: current facts only' },
  },
  run({ args, opts, cli }) {
    const doc = cli.service().exportData({ allVersions: flag(opts, 'all-versions'), onProgress: progressFor(cli, 'exporting') });
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const file = args[0];
    if (file === undefined || file === '-') return { human: text, exact: true, raw: true, json: doc, pretty: true };
    const path = cli.path(file);
    writeWhole(path, text);
    const counts = { facts: doc.facts.length, links: doc.links.length, vault: doc.vault.length };
    return {
      human: `exported ${plural(counts.facts, 'fact')}, ${plural(counts.links, 'link')}, ${plural(counts.vault, 'vault pointer')} to ${path}`,
      json: { file: path, ...counts },
    };
  },
};

/** Write to a temporary sibling and rename: a reader never sees half a file, a failure leaves none. */
function writeWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'w' });
    renameSync(tmp, path);
  } catch (cause) {
    rmSync(tmp, { force: true });
    throw new MemoryError('MEM_ERR_INVALID_INPUT', `export file: cannot write ${path}: ${(cause as Error).message}`, { details: { path: 'file', received: path }, cause });
  }
}

export const importCommand: CommandSpec = {
  name: 'import',
  summary: 'import an export file; reports every skipped record and why',
  args: ['<file>'],
  details: [
    'All or nothing per file: accepted records are written in one transaction. Invalid records, duplicates and links',
    'to unknown facts are skipped and reported. Fact ids are kept, so importing the same file twice adds nothing.',
    'Use "-" to read the file from stdin.',
  ],
  options: {
    'dry-run': { type: 'boolean', help: 'validate and report; write nothing' },
    strict: { type: 'boolean', help: 'write nothing (exit 1) when any record is invalid or a link names an unknown fact' },
  },
  async run({ args, opts, cli }) {
    const file = args[0] as string;
    const doc = parseJson(await readImportFile(cli, file), file);
    const report = cli.service().importData(doc, { dryRun: flag(opts, 'dry-run'), strict: flag(opts, 'strict'), onProgress: progressFor(cli, 'importing') });
    return { human: describeReport(report), json: report };
  },
};

async function readImportFile(cli: CliSession, file: string): Promise<string> {
  if (file === '-') return cli.readStdin();
  const path = cli.path(file);
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new MemoryError('MEM_ERR_INVALID_INPUT', `import file: cannot read ${path}: ${(cause as Error).message}`, {
      details: { path: 'file', expected: 'a readable file', received: path },
      cause,
    });
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new MemoryError('MEM_ERR_IMPORT_FORMAT', `${file === '-' ? 'stdin' : file} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
}

function describeReport(r: ImportReport): string[] {
  const lines = [`imported ${plural(r.imported.facts, 'fact')}, ${plural(r.imported.links, 'link')}${r.dryRun ? ' (dry run: nothing was written)' : ''}`];
  if (r.skipped.length) lines.push(`skipped ${r.skipped.length}:`, ...r.skipped.map((s) => `  ${s.kind} #${s.index}: ${s.cause}: ${s.reason}`));
  if (r.vaultMissing.length) {
    lines.push(`${plural(r.vaultMissing.length, 'vault secret')} not in this vault (exports never carry secrets); re-enter with:`);
    lines.push(...r.vaultMissing.map((e) => `  hybrid-mem vault put ${e.service} --type ${e.type}${scopeFlags(e)} < secret-file`));
  }
  return lines;
}

function scopeFlags(e: ExportedVaultEntry): string {
  if (e.scope.kind === 'agent') return ` --scope agent --agent ${e.scope.agentId ?? ''}`;
  if (e.scope.kind === 'session') return ` --scope session --session ${e.scope.sessionId ?? ''}${e.scope.agentId ? ` --agent ${e.scope.agentId}` : ''}`;
  return '';
}
