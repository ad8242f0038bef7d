/** What every service operation works with: the repos over one writer connection, the bus and the clock. */
import type { Database } from 'better-sqlite3';
import type { EventPayload, FactBrief } from '../core/events.js';
import { strength } from '../core/strength.js';
import type { Fact } from '../core/types.js';
import { ConflictRepo } from '../store/conflicts.js';
import { writeTx } from '../store/db.js';
import { EpisodeRepo } from '../store/episodes.js';
import { EventLog } from '../store/events.js';
import { FactRepo } from '../store/facts.js';
import { LinkRepo } from '../store/links.js';
import { RecallRepo } from '../store/recalls.js';
import { FtsSearch } from '../store/search.js';
import { VaultRepo } from '../store/vault.js';
import type { VaultKey } from '../store/vault-key.js';
import { EventBus } from './bus.js';
import { DeferredWrites } from './deferred.js';

export interface Ctx {
  readonly db: Database;
  readonly facts: FactRepo;
  readonly links: LinkRepo;
  readonly conflicts: ConflictRepo;
  readonly episodes: EpisodeRepo;
  readonly recalls: RecallRepo;
  readonly events: EventLog;
  readonly fts: FtsSearch;
  readonly vault: VaultRepo;
  readonly bus: EventBus;
  readonly now: () => number;
  /** Run `fn` in one write transaction; events it appends are delivered after commit. */
  readonly tx: <T>(context: string, fn: () => T) => T;
  /** Writes kept out of the answer's path (memory_recall's record), committed together soon after. */
  readonly deferred: DeferredWrites;
  readonly emit: (payload: EventPayload) => void;
}

export function createCtx(db: Database, options: { now?: () => number; vaultKey: () => VaultKey; pollMs?: number; onError?: (err: unknown) => void }): Ctx {
  const now = options.now ?? Date.now;
  const events = new EventLog(db);
  const bus = new EventBus(events, { pollMs: options.pollMs ?? 200, onError: options.onError });
  const deferred = new DeferredWrites(db, () => bus.poke(), options.onError);
  const ctx: Ctx = {
    db,
    facts: new FactRepo(db),
    links: new LinkRepo(db),
    conflicts: new ConflictRepo(db),
    episodes: new EpisodeRepo(db),
    recalls: new RecallRepo(db),
    events,
    fts: new FtsSearch(db),
    vault: new VaultRepo(db, options.vaultKey),
    bus,
    now,
    deferred,
    tx: (context, fn) => {
      // Nested calls join the outer transaction (a savepoint); only the outermost commit delivers events,
      // so no subscriber ever sees an event of a change that is later rolled back.
      const outermost = !db.inTransaction;
      // Queued writes land first, in their own transaction: this one may roll back, they must not.
      if (outermost) deferred.flush();
      const result = writeTx(db, context, fn);
      if (outermost) bus.poke();
      return result;
    },
    emit: (payload) => {
      events.append(payload, now());
    },
  };
  return ctx;
}

export function brief(f: Pick<Fact, 'id' | 'text' | 'category' | 'entity' | 'importance' | 'confidence' | 'pinned' | 'decayClass' | 'recallCount' | 'updatedAt' | 'lastRecalledAt'>, now: number): FactBrief {
  return {
    id: f.id,
    text: f.text,
    category: f.category,
    entity: f.entity,
    importance: f.importance,
    confidence: f.confidence,
    pinned: f.pinned,
    strength: strength(f, now),
  };
}
