/** Schema version 2: embeddings. Never edit after release: add a migration instead. */
export const SCHEMA_V2 = `
-- One vector per fact version, for the model that made it. The vector index is derived from this table.
CREATE TABLE fact_vectors (
  fact_seq INTEGER PRIMARY KEY,
  model_id TEXT NOT NULL,
  dim INTEGER NOT NULL CHECK (dim > 0),
  vector BLOB NOT NULL CHECK (length(vector) = dim * 4),
  created_at INTEGER NOT NULL
);
CREATE INDEX fact_vectors_model ON fact_vectors (model_id);
-- A purged fact takes its vector with it.
CREATE TRIGGER fact_vectors_purge AFTER DELETE ON facts BEGIN
  DELETE FROM fact_vectors WHERE fact_seq = old.seq;
END;
`;
