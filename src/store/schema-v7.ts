/**
 * Schema version 7: a recall keeps the excerpt of the turn that triggered it (auth-failure hints: the
 * failing lines, secrets redacted), for the graph app's "why was this recalled?" panel.
 * Never edit after release: add a migration instead.
 */
export const SCHEMA_V7 = `
ALTER TABLE recall_events ADD COLUMN excerpt TEXT;
`;
