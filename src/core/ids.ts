/**
 * Branded identifiers, minted only here. Ids are time-sortable (48-bit millisecond time + 80 random bits,
 * Crockford base32, like ULID) with a short kind prefix, so `fact_01J...` can never be passed as a link id.
 */
export type Brand<T, B extends string> = T & { readonly __brand: B };

export type FactId = Brand<string, 'FactId'>;
export type LinkId = Brand<string, 'LinkId'>;
export type EpisodeId = Brand<string, 'EpisodeId'>;
export type ConflictId = Brand<string, 'ConflictId'>;
export type RecallEventId = Brand<string, 'RecallEventId'>;
export type OrgId = Brand<string, 'OrgId'>;
export type SpaceId = Brand<string, 'SpaceId'>;
export type SuggestionId = Brand<string, 'SuggestionId'>;
export type CommentId = Brand<string, 'CommentId'>;
export type ActivityId = Brand<string, 'ActivityId'>;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PREFIX = {
  fact: 'fact_',
  link: 'link_',
  episode: 'ep_',
  conflict: 'cf_',
  recall: 'rc_',
  org: 'org_',
  space: 'space_',
  suggestion: 'sug_',
  comment: 'cmt_',
  activity: 'act_',
} as const;
const ID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;

// getRandomValues costs ~10 us a call: draw 4 KiB at a time and hand out 16-byte slices.
let pool = new Uint8Array(0);
let offset = 0;
function randomBytes16(): Uint8Array {
  if (offset + 16 > pool.length) {
    pool = new Uint8Array(4096);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + 16);
  offset += 16;
  return out;
}

function ulid(now: number): string {
  let time = '';
  let t = Math.floor(now);
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes16();
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[(bytes[i] ?? 0) % 32];
  return time + rand;
}

export const newFactId = (now = Date.now()): FactId => (PREFIX.fact + ulid(now)) as FactId;
export const newLinkId = (now = Date.now()): LinkId => (PREFIX.link + ulid(now)) as LinkId;
export const newEpisodeId = (now = Date.now()): EpisodeId => (PREFIX.episode + ulid(now)) as EpisodeId;
export const newConflictId = (now = Date.now()): ConflictId => (PREFIX.conflict + ulid(now)) as ConflictId;
export const newRecallEventId = (now = Date.now()): RecallEventId => (PREFIX.recall + ulid(now)) as RecallEventId;
export const newOrgId = (now = Date.now()): OrgId => (PREFIX.org + ulid(now)) as OrgId;
export const newSpaceId = (now = Date.now()): SpaceId => (PREFIX.space + ulid(now)) as SpaceId;
export const newSuggestionId = (now = Date.now()): SuggestionId => (PREFIX.suggestion + ulid(now)) as SuggestionId;
export const newCommentId = (now = Date.now()): CommentId => (PREFIX.comment + ulid(now)) as CommentId;
export const newActivityId = (now = Date.now()): ActivityId => (PREFIX.activity + ulid(now)) as ActivityId;

function isId(prefix: string, value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}

export const isFactId = (v: unknown): v is FactId => isId(PREFIX.fact, v);
export const isLinkId = (v: unknown): v is LinkId => isId(PREFIX.link, v);
export const isEpisodeId = (v: unknown): v is EpisodeId => isId(PREFIX.episode, v);
export const isConflictId = (v: unknown): v is ConflictId => isId(PREFIX.conflict, v);
export const isOrgId = (v: unknown): v is OrgId => isId(PREFIX.org, v);
export const isSpaceId = (v: unknown): v is SpaceId => isId(PREFIX.space, v);
export const isSuggestionId = (v: unknown): v is SuggestionId => isId(PREFIX.suggestion, v);
export const isCommentId = (v: unknown): v is CommentId => isId(PREFIX.comment, v);
