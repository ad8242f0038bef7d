/**
 * Schema version 5: the per-session auth-hint count is read from recall_events by (session, target), so
 * every process sharing the database agrees on `maxRecallsPerTarget` (a gateway that runs one process
 * per turn included). Never edit after release: add a migration instead.
 */
export const SCHEMA_V5 = `
CREATE INDEX recall_events_session_target ON recall_events (owner_session, target, kind);
`;
