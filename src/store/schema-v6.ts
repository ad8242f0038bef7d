/**
 * Schema version 6: recall_events takes the kind `relevant` (the memories injected into an agent's turn).
 * SQLite cannot change a CHECK constraint in place: the table is rebuilt with its rows and indexes.
 * Never edit after release: add a migration instead.
 */
export const SCHEMA_V6 = `
CREATE TABLE recall_events_v6 (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('memory_recall','auth_failure','relevant')),
  query TEXT NOT NULL,
  target TEXT,
  owner_role TEXT NOT NULL,
  owner_agent TEXT,
  owner_session TEXT,
  scores TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
INSERT INTO recall_events_v6 (id, kind, query, target, owner_role, owner_agent, owner_session, scores, created_at)
  SELECT id, kind, query, target, owner_role, owner_agent, owner_session, scores, created_at FROM recall_events;
DROP TABLE recall_events;
ALTER TABLE recall_events_v6 RENAME TO recall_events;
CREATE INDEX recall_events_owner ON recall_events (owner_agent, created_at);
CREATE INDEX recall_events_time ON recall_events (created_at);
CREATE INDEX recall_events_session_target ON recall_events (owner_session, target, kind);
`;
