/**
 * The maintenance pass: scheduled expiry, decay (strength refreshed; weak episodic/volatile facts end as
 * "decayed"), purge of long-deleted facts, and trimming of the event log and recall history. Work is done
 * in small transactions so writers never wait long behind it.
 *
 * It starts with the full PRAGMA integrity_check and writes nothing into a damaged file: MEM_ERR_DB_CORRUPT
 * with the recovery steps (`serve` logs it at start and on every pass; `hybrid-mem maintenance` exits 1).
 */
import { isForgotten, strength } from '../core/strength.js';
import type { FactId } from '../core/ids.js';
import { assertIntegrity } from '../store/integrity.js';
import type { Ctx } from './context.js';
import { endFact } from './versions.js';

export interface MaintenanceOptions {
  readonly eventRetentionDays: number;
  readonly deletedRetentionDays: number;
  readonly recallRetentionDays: number;
}

export interface MaintenanceReport {
  readonly expired: number;
  readonly decayed: number;
  readonly strengthUpdated: number;
  readonly purged: number;
  readonly eventsTrimmed: number;
  readonly recallsTrimmed: number;
  /** How long the integrity check took (part of tookMs). */
  readonly integrityCheckMs: number;
  readonly tookMs: number;
}

const DAY = 86_400_000;
const BATCH = 500;

export function runMaintenance(ctx: Ctx, options: MaintenanceOptions): MaintenanceReport {
  const started = Date.now();
  assertIntegrity(ctx.db, 'maintenance');
  const integrityCheckMs = Date.now() - started;
  const now = ctx.now();
  let expired = 0;
  for (let due = ctx.facts.dueForExpiry(now, BATCH); due.length > 0; due = ctx.facts.dueForExpiry(now, BATCH)) {
    expired += endAll(ctx, due, 'expired', now);
  }
  let decayed = 0;
  let strengthUpdated = 0;
  for (let after = 0; ; ) {
    const page = ctx.facts.currentPage(after, BATCH);
    if (page.length === 0) break;
    after = page[page.length - 1]?.seq ?? after;
    const forgotten: FactId[] = [];
    ctx.tx('maintenance.decay', () => {
      for (const f of page) {
        if (isForgotten(f, now)) forgotten.push(f.id);
        else {
          ctx.facts.setStrength(f.id, strength(f, now));
          strengthUpdated++;
        }
      }
    });
    decayed += endAll(ctx, forgotten, 'decayed', now);
  }
  const purged = options.deletedRetentionDays > 0 ? ctx.tx('maintenance.purge', () => ctx.facts.purgeDeleted(now - options.deletedRetentionDays * DAY)) : 0;
  const eventsTrimmed = ctx.tx('maintenance.trim', () => ctx.events.trim(now - options.eventRetentionDays * DAY));
  const recallsTrimmed = ctx.tx('maintenance.trim', () => ctx.recalls.trim(now - options.recallRetentionDays * DAY));
  return { expired, decayed, strengthUpdated, purged, eventsTrimmed, recallsTrimmed, integrityCheckMs, tookMs: Date.now() - started };
}

/** End facts (expired or decayed): they stop being current, keep their history, and lose their links. */
function endAll(ctx: Ctx, ids: readonly FactId[], reason: 'expired' | 'decayed', now: number): number {
  if (ids.length === 0) return 0;
  return ctx.tx(`maintenance.${reason}`, () => {
    let n = 0;
    for (const id of ids) {
      const f = ctx.facts.get(id);
      if (!f || f.validUntil !== null) continue;
      endFact(ctx, f, reason, now);
      n++;
    }
    return n;
  });
}
