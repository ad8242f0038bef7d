/** doctor: check the database and the data dir; --recover copies what can be read of a damaged file. */
import { join } from 'node:path';
import { shellQuote } from '../../core/errors.js';
import type { DoctorReport, RecoverResult } from '../../store/doctor.js';
import { str, usageError } from '../args.js';
import { plural } from '../format.js';
import type { CommandResult, CommandSpec } from '../spec.js';

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

export const doctorCommand: CommandSpec = {
  name: 'doctor',
  summary: 'check the database (integrity, full-text index, embeddings, file permissions); --recover saves what a damaged one still holds',
  args: [],
  options: {
    recover: { type: 'boolean', help: 'copy every readable row into a new database file (the damaged one is never changed)' },
    out: { type: 'string', value: 'FILE', help: 'with --recover: the new file (default: <db>.recovered-<time>.db next to it; never overwritten)' },
  },
  details: [
    'Without --recover: runs PRAGMA integrity_check and the full-text index check on a snapshot of the file, and exits 1 when any check fails.',
    'Run it with no other hybrid-mem process writing the database. Nothing in the data dir is changed.',
  ],
  async run({ opts, cli }) {
    const { dbPath, dataDir } = cli.config();
    const doctor = await import('../../store/doctor.js');
    if (opts.recover === true) {
      const outOpt = str(opts, 'out');
      const out = outOpt === undefined ? doctor.defaultRecoverPath(dbPath) : cli.path(outOpt);
      return recovered(await doctor.recoverDatabase(dbPath, out));
    }
    if (str(opts, 'out') !== undefined) throw usageError('--out applies only with --recover', 'doctor');
    const report = await doctor.diagnose(dbPath, dataDir);
    const { inspectIndexFile } = await import('../../actors/vector/index-file.js');
    const index = (await inspectIndexFile(join(dataDir, 'vectors.usearch'))).map((f) => ({ check: 'vectors' as const, ...f }));
    return diagnosed({ ...report, findings: [...report.findings, ...index] });
  },
};

function diagnosed(r: DoctorReport): CommandResult {
  const human = [`database: ${r.dbPath}`, ...r.findings.map((f) => `${MARK[f.severity]}  ${f.check}: ${f.message}`)];
  if (!r.ok) human.push(`problems found. To save what can still be read: hybrid-mem doctor --recover --db ${shellQuote(r.dbPath)} (writes a new file; the damaged one is left as it is)`);
  return { human, json: r, exitCode: r.ok ? 0 : 1 };
}

function recovered(r: RecoverResult): CommandResult {
  const shown = r.tables.filter((t) => t.copied > 0 || t.refused > 0 || t.skipped.length > 0 || t.error !== undefined);
  const lines = shown.map((t) => {
    const extra = [t.refused ? `${t.refused} refused by the schema` : '', t.skipped.length ? `unreadable stretches skipped: ${t.skipped.join(', ')}` : '', t.error ? `unreadable: ${t.error}` : '']
      .filter(Boolean)
      .join('; ');
    return `  ${t.table}: ${plural(t.copied, 'row')}${extra ? ` (${extra})` : ''}`;
  });
  const empty = r.tables.length - shown.length;
  const sound = r.problems.length === 0;
  const from = shellQuote(r.from);
  const human = [
    `recovered ${plural(r.facts, 'fact')} from ${r.from} into ${r.out}`,
    ...lines,
    ...(empty > 0 ? [`  (${plural(empty, 'other table')} empty)`] : []),
    sound ? 'the new file passes integrity_check and the full-text index check' : `the new file still has problems: ${r.problems.join('; ')}`,
    'To switch to it: stop every hybrid-mem process, then',
    `  mv ${from} ${shellQuote(`${r.from}.damaged`)}   (and its -wal and -shm files, if any)`,
    `  mv ${shellQuote(r.out)} ${from}`,
    `or run with --db ${shellQuote(r.out)}. Keep vault.key: the vault entries were copied still encrypted with it.`,
    'The vector index is derived data: `hybrid-mem reindex` rebuilds it if semantic recall misses facts.',
  ];
  return { human, json: r, exitCode: sound ? 0 : 1 };
}
