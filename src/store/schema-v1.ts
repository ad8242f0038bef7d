/** Schema version 1. Never edit after release: add a migration instead. */
const CATEGORY = `'preference','decision','entity','fact','other','technical'`;
const DECAY = `'permanent','stable','episodic','volatile'`;
const LINK = `'RELATED_TO','CAUSED_BY','PART_OF','DEPENDS_ON','SUPERSEDES','INSTANCE_OF','CONTRADICTS'`;
const SCOPE = `'global','agent','session'`;

export const SCHEMA_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE facts (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL CHECK (length(text) > 0),
  category TEXT NOT NULL CHECK (category IN (${CATEGORY})),
  entity TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  tags_text TEXT NOT NULL DEFAULT '',
  importance REAL NOT NULL CHECK (importance BETWEEN 0 AND 1),
  confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
  decay_class TEXT NOT NULL CHECK (decay_class IN (${DECAY})),
  expires_at INTEGER,
  pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  scope_kind TEXT NOT NULL CHECK (scope_kind IN (${SCOPE})),
  scope_agent TEXT,
  scope_session TEXT,
  lineage_id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  supersedes TEXT,
  superseded_by TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_recalled_at INTEGER,
  recall_count INTEGER NOT NULL DEFAULT 0,
  valid_from INTEGER NOT NULL,
  valid_until INTEGER,
  deleted_at INTEGER,
  ended_reason TEXT CHECK (ended_reason IN ('superseded','deleted','expired','decayed')),
  episode_id TEXT,
  vault_service TEXT,
  source TEXT NOT NULL,
  strength REAL NOT NULL DEFAULT 0,
  -- hash of (text, category, entity, scope) for duplicate detection without scanning text
  dedupe_key TEXT NOT NULL,
  CHECK ((scope_kind = 'global') OR (scope_kind = 'agent' AND scope_agent IS NOT NULL) OR (scope_kind = 'session' AND scope_session IS NOT NULL))
);
CREATE INDEX facts_current ON facts (valid_until, seq);
CREATE INDEX facts_lineage ON facts (lineage_id, version);
CREATE INDEX facts_entity ON facts (entity COLLATE NOCASE, category) WHERE valid_until IS NULL;
CREATE INDEX facts_expiry ON facts (expires_at) WHERE expires_at IS NOT NULL AND valid_until IS NULL;
CREATE INDEX facts_vault ON facts (vault_service) WHERE vault_service IS NOT NULL;
CREATE INDEX facts_deleted ON facts (deleted_at) WHERE deleted_at IS NOT NULL;
CREATE INDEX facts_dedupe ON facts (dedupe_key) WHERE valid_until IS NULL;
CREATE INDEX facts_episode ON facts (episode_id) WHERE episode_id IS NOT NULL;

-- FTS5 over text, entity and tags of every fact not deleted (current and superseded versions).
-- External content through a view so 'rebuild' and 'integrity-check' see exactly the indexed rows.
CREATE VIEW facts_fts_content AS
  SELECT seq, text, coalesce(entity, '') AS entity, tags_text AS tags FROM facts WHERE deleted_at IS NULL;
CREATE VIRTUAL TABLE facts_fts USING fts5(
  text, entity, tags,
  content = 'facts_fts_content', content_rowid = 'seq',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE facts_fts_vocab USING fts5vocab(facts_fts, 'row');
CREATE TRIGGER facts_fts_insert AFTER INSERT ON facts WHEN new.deleted_at IS NULL BEGIN
  INSERT INTO facts_fts (rowid, text, entity, tags) VALUES (new.seq, new.text, coalesce(new.entity, ''), new.tags_text);
END;
CREATE TRIGGER facts_fts_delete_mark AFTER UPDATE OF deleted_at ON facts
  WHEN old.deleted_at IS NULL AND new.deleted_at IS NOT NULL BEGIN
  INSERT INTO facts_fts (facts_fts, rowid, text, entity, tags) VALUES ('delete', old.seq, old.text, coalesce(old.entity, ''), old.tags_text);
END;
CREATE TRIGGER facts_fts_delete AFTER DELETE ON facts WHEN old.deleted_at IS NULL BEGIN
  INSERT INTO facts_fts (facts_fts, rowid, text, entity, tags) VALUES ('delete', old.seq, old.text, coalesce(old.entity, ''), old.tags_text);
END;
CREATE TRIGGER facts_fts_update AFTER UPDATE OF text, entity, tags_text ON facts WHEN old.deleted_at IS NULL AND new.deleted_at IS NULL BEGIN
  INSERT INTO facts_fts (facts_fts, rowid, text, entity, tags) VALUES ('delete', old.seq, old.text, coalesce(old.entity, ''), old.tags_text);
  INSERT INTO facts_fts (rowid, text, entity, tags) VALUES (new.seq, new.text, coalesce(new.entity, ''), new.tags_text);
END;

CREATE TABLE links (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  source_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  link_type TEXT NOT NULL CHECK (link_type IN (${LINK})),
  strength REAL NOT NULL CHECK (strength BETWEEN 0 AND 1),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  last_strengthened_at INTEGER,
  reinforcements INTEGER NOT NULL DEFAULT 0,
  CHECK (source_id <> target_id),
  UNIQUE (source_id, target_id, link_type)
);
CREATE INDEX links_target ON links (target_id);

CREATE TABLE conflicts (
  id TEXT PRIMARY KEY,
  new_fact_id TEXT NOT NULL,
  old_fact_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('unresolved','resolved','reviewed')),
  resolution TEXT CHECK (resolution IN ('keep_new','keep_old','both_fine')),
  reason TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  resolved_at INTEGER
);
CREATE INDEX conflicts_open ON conflicts (status, created_at);
CREATE INDEX conflicts_new ON conflicts (new_fact_id) WHERE status = 'unresolved';
CREATE INDEX conflicts_old ON conflicts (old_fact_id) WHERE status = 'unresolved';
CREATE UNIQUE INDEX conflicts_pair ON conflicts (min(new_fact_id, old_fact_id), max(new_fact_id, old_fact_id)) WHERE status = 'unresolved';

CREATE TABLE episodes (
  id TEXT PRIMARY KEY,
  agent_id TEXT,
  session_id TEXT,
  title TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL,
  fact_count INTEGER NOT NULL DEFAULT 0,
  recall_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX episodes_session ON episodes (session_id, last_activity_at);

CREATE TABLE recall_events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('memory_recall','auth_failure')),
  query TEXT NOT NULL,
  target TEXT,
  owner_role TEXT NOT NULL,
  owner_agent TEXT,
  owner_session TEXT,
  scores TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX recall_events_owner ON recall_events (owner_agent, created_at);
CREATE INDEX recall_events_time ON recall_events (created_at);

-- The event log: every change appends here in its own transaction; buses in every process tail it.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  at INTEGER NOT NULL,
  scope_kind TEXT NOT NULL,
  scope_agent TEXT,
  scope_session TEXT,
  payload TEXT NOT NULL
);
CREATE INDEX events_at ON events (at);

CREATE TABLE vault (
  service TEXT NOT NULL,
  scope_key TEXT NOT NULL,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN (${SCOPE})),
  scope_agent TEXT,
  scope_session TEXT,
  type TEXT NOT NULL,
  note TEXT,
  iv BLOB NOT NULL,
  tag BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  key_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (service, scope_key)
);
`;
