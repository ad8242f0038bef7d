/**
 * Schema version 3: collaboration (organizations, members, spaces, grants, facts in spaces, suggestions,
 * comments, the activity trail). Never edit after release: add a migration instead.
 *
 * Deleting an organization cascades to its members and spaces, and a space to its grants, fact
 * placements, suggestions and comments. The activity trail has no foreign keys: it outlives what it
 * records. Facts are referenced by id without a foreign key (a space holds a fact's lineage, which
 * survives edits; maintenance may purge long-deleted versions). Lists come back in insertion order
 * (rowid), which ids minted in the same millisecond do not keep.
 */
const ROLE = `'owner','admin','editor','viewer'`;
const PERMISSION = `'read','write','delete','manage'`;

export const SCHEMA_V3 = `
CREATE TABLE collab_orgs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) > 0),
  plan TEXT NOT NULL CHECK (length(plan) > 0),
  created_at INTEGER NOT NULL
);

CREATE TABLE collab_members (
  org_id TEXT NOT NULL REFERENCES collab_orgs (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL CHECK (length(user_id) > 0),
  role TEXT NOT NULL CHECK (role IN (${ROLE})),
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX collab_members_user ON collab_members (user_id);

CREATE TABLE collab_spaces (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES collab_orgs (id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) > 0),
  visibility TEXT NOT NULL CHECK (visibility IN ('private','org','public')),
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
-- Space names are unique within an organization, ignoring case.
CREATE UNIQUE INDEX collab_spaces_name ON collab_spaces (org_id, name COLLATE NOCASE);

CREATE TABLE collab_space_permissions (
  space_id TEXT NOT NULL REFERENCES collab_spaces (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  permission TEXT NOT NULL CHECK (permission IN (${PERMISSION})),
  granted_by TEXT NOT NULL,
  granted_at INTEGER NOT NULL,
  PRIMARY KEY (space_id, user_id, permission)
) WITHOUT ROWID;
CREATE INDEX collab_space_permissions_user ON collab_space_permissions (user_id);

CREATE TABLE collab_space_facts (
  space_id TEXT NOT NULL REFERENCES collab_spaces (id) ON DELETE CASCADE,
  lineage_id TEXT NOT NULL,
  added_by TEXT NOT NULL,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (space_id, lineage_id)
);
CREATE INDEX collab_space_facts_lineage ON collab_space_facts (lineage_id);

CREATE TABLE collab_suggestions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space_id TEXT NOT NULL REFERENCES collab_spaces (id) ON DELETE CASCADE,
  suggested_by TEXT NOT NULL,
  suggestion_type TEXT NOT NULL CHECK (suggestion_type IN ('edit_text','remove_from_space')),
  fact_id TEXT NOT NULL,
  lineage_id TEXT NOT NULL,
  new_text TEXT,
  reason TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending','accepted','rejected','withdrawn')),
  created_at INTEGER NOT NULL,
  decided_by TEXT,
  decided_at INTEGER,
  applied_fact_id TEXT,
  CHECK ((status = 'pending') = (decided_by IS NULL AND decided_at IS NULL)),
  CHECK ((suggestion_type = 'edit_text') = (new_text IS NOT NULL))
);
CREATE INDEX collab_suggestions_space ON collab_suggestions (space_id, status, seq);

CREATE TABLE collab_comments (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space_id TEXT NOT NULL REFERENCES collab_spaces (id) ON DELETE CASCADE,
  fact_id TEXT NOT NULL,
  lineage_id TEXT NOT NULL,
  author_id TEXT NOT NULL,
  text TEXT NOT NULL CHECK (length(text) > 0),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1)),
  resolved_by TEXT,
  resolved_at INTEGER,
  CHECK ((resolved = 1) = (resolved_by IS NOT NULL AND resolved_at IS NOT NULL))
);
CREATE INDEX collab_comments_fact ON collab_comments (space_id, lineage_id, seq);

CREATE TABLE collab_activities (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL,
  space_id TEXT,
  actor_id TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}',
  at INTEGER NOT NULL
);
CREATE INDEX collab_activities_org ON collab_activities (org_id, at, seq);
`;
