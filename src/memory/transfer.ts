/**
 * Import and export in ONE documented JSON format (docs/cli.md, "Export format"): facts with their scope
 * and vault pointer, links, and vault entries as pointers only. Secrets never leave the vault.
 *
 * Import is all-or-nothing per file. Every record is validated on its own: an invalid record, a duplicate,
 * or a link naming an unknown fact is skipped and reported (kind, index, reason). Everything accepted is
 * written in ONE transaction, so a failure part-way (disk full, a crash) leaves the database exactly as it
 * was: never a half-written fact, never a link without its facts. Fact ids are kept, which makes importing
 * the same file twice a no-op (every record is reported as a duplicate).
 */
import type { z } from 'zod';
import { MemoryError } from '../core/errors.js';
import { newFactId, newLinkId, type FactId } from '../core/ids.js';
import { strength } from '../core/strength.js';
import type { Fact, Link, Progress } from '../core/types.js';
import type { NewFact } from '../store/facts.js';
import { scopeKey } from '../store/vault.js';
import type { Ctx } from './context.js';
import { parse } from './inputs.js';
import { EXPORT_FORMAT, EXPORT_VERSION, documentSchema, factRecord, iso, linkRecord, vaultRecord, type ExportedVaultEntry, type FactRecord } from './transfer-format.js';
import { insertFact, supersede } from './versions.js';

export * from './transfer-format.js';
export * from './transfer-export.js';

export type SkipCause = 'invalid' | 'duplicate' | 'unknown_endpoint' | 'expired' | 'stale';

export interface SkippedRecord {
  readonly kind: 'fact' | 'link' | 'vault';
  readonly index: number;
  readonly cause: SkipCause;
  readonly reason: string;
}

export interface ImportReport {
  readonly dryRun: boolean;
  readonly imported: { readonly facts: number; readonly links: number };
  readonly skipped: readonly SkippedRecord[];
  /** Vault entries named by the file whose secret this vault lacks: re-enter them with `vault put`. */
  readonly vaultMissing: readonly ExportedVaultEntry[];
}

export interface ImportOptions {
  /** Validate and report, write nothing. */
  readonly dryRun?: boolean;
  /** Write nothing (MEM_ERR_IMPORT_FORMAT) when any record is invalid or a link names an unknown fact. */
  readonly strict?: boolean;
  /** Called as records are read (facts, then links). */
  readonly onProgress?: (p: Progress) => void;
}

interface State {
  readonly ctx: Ctx;
  readonly now: number;
  /** Fact id in the file -> fact id in this database. */
  readonly ids: Map<string, FactId>;
  readonly skipped: SkippedRecord[];
  readonly vaultMissing: ExportedVaultEntry[];
  facts: number;
  links: number;
}

class DryRun extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run: rolled back');
  }
}

/** Import a parsed export document (operator: facts keep the scopes they were exported with). */
export function importData(ctx: Ctx, doc: unknown, options: ImportOptions = {}): ImportReport {
  const d = parseDocument(doc);
  const dryRun = options.dryRun ?? false;
  const run = (): ImportReport => {
    const st: State = { ctx, now: ctx.now(), ids: new Map(), skipped: [], vaultMissing: [], facts: 0, links: 0 };
    const total = d.facts.length + d.links.length;
    const step = (done: number): void => options.onProgress?.({ done, total });
    d.facts.forEach((raw, index) => {
      importFact(st, raw, index);
      step(index + 1);
    });
    d.links.forEach((raw, index) => {
      importLink(st, raw, index);
      step(d.facts.length + index + 1);
    });
    if (total === 0) step(0);
    checkVault(st, d.vault);
    const report: ImportReport = { dryRun, imported: { facts: st.facts, links: st.links }, skipped: st.skipped, vaultMissing: st.vaultMissing };
    if (options.strict) assertStrict(report);
    if (dryRun) throw new DryRun(report);
    return report;
  };
  try {
    return ctx.tx('import', run);
  } catch (err) {
    // A dry run does every write and rolls it back, so its report is exactly what a real run would do.
    const dry = err instanceof DryRun ? err : err instanceof MemoryError && err.cause instanceof DryRun ? err.cause : null;
    if (dry) return dry.report;
    throw err;
  }
}

function parseDocument(doc: unknown): z.output<typeof documentSchema> {
  try {
    return parse(documentSchema, doc, 'import');
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    throw new MemoryError('MEM_ERR_IMPORT_FORMAT', `not a ${EXPORT_FORMAT} v${EXPORT_VERSION} document: ${err.message}`, { details: err.details, cause: err });
  }
}

function assertStrict(report: ImportReport): void {
  const bad = report.skipped.find((r) => r.cause === 'invalid' || r.cause === 'unknown_endpoint');
  if (!bad) return;
  throw new MemoryError('MEM_ERR_IMPORT_FORMAT', `strict import refused: ${bad.kind} #${bad.index}: ${bad.reason}`, { details: { skipped: report.skipped } });
}

function validate<S extends z.ZodType>(st: State, schema: S, raw: unknown, kind: SkippedRecord['kind'], index: number): z.output<S> | null {
  try {
    return parse(schema, raw, `${kind === 'fact' ? 'facts' : kind === 'link' ? 'links' : 'vault'}.${index}`);
  } catch (err) {
    if (!(err instanceof MemoryError)) throw err;
    st.skipped.push({ kind, index, cause: 'invalid', reason: err.message });
    return null;
  }
}

function importFact(st: State, raw: unknown, index: number): void {
  const r = validate(st, factRecord, raw, 'fact', index);
  if (!r) return;
  const skip = (cause: SkipCause, reason: string, mapTo?: FactId): void => {
    if (r.id && mapTo) st.ids.set(r.id, mapTo);
    st.skipped.push({ kind: 'fact', index, cause, reason });
  };
  const existing = r.id ? st.ctx.facts.get(r.id) : null;
  if (existing) return skip('duplicate', `fact ${existing.id} already exists${existing.deletedAt !== null ? ' (deleted here)' : ''}`, existing.id);
  const id = r.id ?? newFactId(st.now);
  if (r.validUntil !== null) return insertHistorical(st, r, id);
  if (r.expiresAt !== null && r.expiresAt <= st.now) return skip('expired', `fact expired at ${iso(r.expiresAt)}`);
  const dup = r.vaultService ? st.ctx.facts.vaultPointer(r.vaultService, r.scope) : st.ctx.facts.findDuplicate(r);
  if (dup) return skip('duplicate', `same as current fact ${dup.id}`, dup.id);
  const lineageId = r.lineageId ?? id;
  const current = st.ctx.facts.history(lineageId).findLast((f) => f.validUntil === null) ?? null;
  if (current && current.validFrom > (r.validFrom ?? st.now)) return skip('stale', `this database has a newer version ${current.id}`, current.id);
  const base = newFact(st, r, id, lineageId);
  // An older version of this fact is current here: the imported one replaces it, as an edit would.
  insertFact(st.ctx, current ? { ...base, version: current.version + 1, supersedes: current.id, validFrom: st.now } : base, st.now);
  if (current) supersede(st.ctx, current, id, st.now);
  if (r.id) st.ids.set(r.id, id);
  st.facts++;
}

function newFact(st: State, r: FactRecord, id: FactId, lineageId: FactId): NewFact {
  const createdAt = r.createdAt ?? st.now;
  // No recall history travels with a fact, so decay resumes from its last activity (update or recall).
  const updatedAt = Math.max(r.updatedAt ?? createdAt, r.lastRecalledAt ?? 0);
  return { ...r, id, lineageId, createdAt, updatedAt, validFrom: r.validFrom ?? createdAt, episodeId: null, source: 'import', strength: 0 };
}

/** A superseded version (from an --all-versions export): history only, so no live event. */
function insertHistorical(st: State, r: FactRecord, id: FactId): void {
  const f = newFact(st, r, id, r.lineageId ?? id);
  st.ctx.facts.insert({ ...f, strength: strength({ ...f, recallCount: 0, lastRecalledAt: null }, st.now) });
  st.ctx.facts.end(id, 'superseded', r.validUntil ?? st.now, r.supersededBy);
  if (r.id) st.ids.set(r.id, id);
  st.facts++;
}

function importLink(st: State, raw: unknown, index: number): void {
  const r = validate(st, linkRecord, raw, 'link', index);
  if (!r) return;
  const skip = (cause: SkipCause, reason: string): void => void st.skipped.push({ kind: 'link', index, cause, reason });
  const source = endpoint(st, r.sourceId);
  const target = endpoint(st, r.targetId);
  if (!source || !target) {
    const [field, id] = source ? ['targetId', r.targetId] : ['sourceId', r.sourceId];
    return skip('unknown_endpoint', `links.${index}.${field}: unknown fact ${id} (neither in the file nor in this database)`);
  }
  if (source.id === target.id) return skip('invalid', `links.${index}: both ends are fact ${source.id} here`);
  const existing = st.ctx.links.find(source.id, target.id, r.linkType);
  if (existing) return skip('duplicate', `${r.linkType} link ${existing.id} already exists`);
  const id = r.id && !st.ctx.links.get(r.id) ? r.id : newLinkId(st.now);
  const link: Link = { id, sourceId: source.id, targetId: target.id, linkType: r.linkType, strength: r.strength, createdAt: r.createdAt ?? st.now, updatedAt: st.now, lastStrengthenedAt: null, reinforcements: 0 };
  st.ctx.links.insert(link);
  if (source.validUntil === null && target.validUntil === null) st.ctx.emit({ kind: 'link.created', link, scopes: [source.scope, target.scope] });
  st.links++;
}

/** The fact a link end names, after id mapping; deleted facts take no new links. */
function endpoint(st: State, fileId: FactId): Fact | null {
  const f = st.ctx.facts.get(st.ids.get(fileId) ?? fileId);
  return f && f.deletedAt === null ? f : null;
}

/**
 * Vault records name entries, never secrets. One whose secret this vault lacks is reported, and kept as a
 * pending entry (type, note), so the `vault put` that brings the secret keeps the entry's type.
 */
function checkVault(st: State, records: readonly unknown[]): void {
  const present = new Set(st.ctx.vault.list({ all: true, agentIds: 'any', sessionIds: 'any' }).map((e) => `${e.service}\0${scopeKey(e.scope)}`));
  records.forEach((raw, index) => {
    const r = validate(st, vaultRecord, raw, 'vault', index);
    if (!r || present.has(`${r.service}\0${scopeKey(r.scope)}`)) return;
    st.vaultMissing.push(r);
    st.ctx.vault.expect(r, st.now);
  });
}

