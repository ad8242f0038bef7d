/** Export: everything the caller may see, in the one documented format. Secrets never leave the vault. */
import type { FactId } from '../core/ids.js';
import { visibility, type Visibility } from '../core/scope.js';
import type { Caller, Fact, Progress } from '../core/types.js';
import { MAX_PAGE } from '../store/facts.js';
import { toLink, type LinkRow } from '../store/rows.js';
import type { Ctx } from './context.js';
import { EXPORT_FORMAT, EXPORT_VERSION, iso, isoOrNull, type ExportDocument, type ExportedFact } from './transfer-format.js';

export interface ExportOptions {
  /** Also export superseded versions (whole version chains); default: current facts only. */
  readonly allVersions?: boolean;
  /** Called as facts are read, a page at a time. */
  readonly onProgress?: (p: Progress) => void;
}

/** Everything the caller may see, oldest first, read in one snapshot. */
export function exportData(ctx: Ctx, options: ExportOptions, caller: Caller): ExportDocument {
  const v = visibility(caller);
  return ctx.db.transaction(() => {
    const facts = exportedFacts(ctx, v, options);
    const ids = new Set<string>(facts.map((f) => f.id));
    const links = (ctx.db.prepare('SELECT * FROM links ORDER BY seq').all() as LinkRow[])
      .map(toLink)
      .filter((l) => ids.has(l.sourceId) && ids.has(l.targetId))
      .map((l) => ({ id: l.id, sourceId: l.sourceId, targetId: l.targetId, linkType: l.linkType, strength: l.strength, createdAt: iso(l.createdAt) }));
    // Entries an import named whose secret never arrived travel on too, so a second hop keeps their type.
    const vault = [...ctx.vault.list(v), ...ctx.vault.pending(v)].map((e) => ({ service: e.service, type: e.type, scope: e.scope, note: e.note }));
    return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: iso(ctx.now()), facts: facts.map(exportFact), links, vault } as const;
  })();
}

function exportedFacts(ctx: Ctx, v: Visibility, { allVersions = false, onProgress }: ExportOptions): Fact[] {
  const out: Fact[] = [];
  const counts = onProgress ? ctx.facts.counts(v) : null;
  const expected = counts ? counts.current + (allVersions ? counts.superseded : 0) : 0;
  for (let before: FactId | undefined; ; ) {
    const page = ctx.facts.list(v, { includeSuperseded: allVersions, limit: MAX_PAGE, before });
    out.push(...page.filter((f) => f.validUntil === null || f.endedReason === 'superseded'));
    const last = page.length < MAX_PAGE;
    onProgress?.({ done: out.length, total: last ? out.length : Math.max(expected, out.length + 1) });
    if (last) break;
    before = page[page.length - 1]?.id;
  }
  return out.reverse();
}

function exportFact(f: Fact): ExportedFact {
  const { id, text, category, entity, tags, importance, confidence, decayClass, pinned, scope, vaultService, lineageId, version, supersedes, supersededBy } = f;
  const times = { createdAt: iso(f.createdAt), updatedAt: iso(f.updatedAt), validFrom: iso(f.validFrom) };
  const optional = { expiresAt: isoOrNull(f.expiresAt), validUntil: isoOrNull(f.validUntil), lastRecalledAt: isoOrNull(f.lastRecalledAt) };
  return { id, text, category, entity, tags, importance, confidence, decayClass, pinned, scope, vaultService, lineageId, version, supersedes, supersededBy, ...times, ...optional };
}

/** Why a record was not imported. Only `invalid` and `unknown_endpoint` fail an import run with `strict`. */
