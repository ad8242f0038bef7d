/**
 * Schema version 4: vault entries an import named but whose secret this vault lacks (exports never carry
 * secrets). The row keeps what the entry was (its type and note) until `vault put` brings the secret, so
 * the entry keeps its type instead of falling back to the default, and a later export still names it.
 * Never edit after release: add a migration instead.
 */
export const SCHEMA_V4 = `
CREATE TABLE vault_pending (
  service TEXT NOT NULL,
  scope_key TEXT NOT NULL,
  scope_kind TEXT NOT NULL CHECK (scope_kind IN ('global','agent','session')),
  scope_agent TEXT,
  scope_session TEXT,
  type TEXT NOT NULL,
  note TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (service, scope_key)
);
`;
