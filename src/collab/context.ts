/** What every collaboration operation works with: the repos over the memory service's connection, the clock, the trail. */
import type { Database } from 'better-sqlite3';
import type { Activity } from '../core/collab.js';
import { newActivityId } from '../core/ids.js';
import type { Caller } from '../core/types.js';
import type { MemoryService } from '../memory/service.js';
import { ActivityRepo } from '../store/collab-activities.js';
import { OrgRepo } from '../store/collab-orgs.js';
import { SpaceFactRepo } from '../store/collab-space-facts.js';
import { SpaceRepo } from '../store/collab-spaces.js';
import { CommentRepo, SuggestionRepo } from '../store/collab-threads.js';
import { writeTx } from '../store/db.js';

export interface CollabCtx {
  readonly db: Database;
  readonly memory: MemoryService;
  /** The memory-scope caller collaboration acts as on facts (reads, and edits from accepted suggestions). */
  readonly memoryCaller: Caller;
  readonly orgs: OrgRepo;
  readonly spaces: SpaceRepo;
  readonly spaceFacts: SpaceFactRepo;
  readonly suggestions: SuggestionRepo;
  readonly comments: CommentRepo;
  readonly activities: ActivityRepo;
  readonly now: () => number;
  /** Run `fn` in one write transaction, all or nothing (a memory-service write inside joins it). */
  readonly tx: <T>(context: string, fn: () => T) => T;
  /** Append an activity record; call inside the transaction of the change it records. */
  readonly record: (a: Omit<Activity, 'id' | 'at'>, at: number) => Activity;
}

export function createCollabCtx(memory: MemoryService, memoryCaller: Caller): CollabCtx {
  const db = memory.db;
  const activities = new ActivityRepo(db);
  return {
    db,
    memory,
    memoryCaller,
    orgs: new OrgRepo(db),
    spaces: new SpaceRepo(db),
    spaceFacts: new SpaceFactRepo(db),
    suggestions: new SuggestionRepo(db),
    comments: new CommentRepo(db),
    activities,
    now: () => memory.now(),
    tx: (context, fn) => writeTx(db, `collab.${context}`, fn),
    record: (a, at) => {
      const activity: Activity = { ...a, id: newActivityId(at), at };
      activities.append(activity);
      return activity;
    },
  };
}
