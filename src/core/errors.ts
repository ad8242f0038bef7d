/**
 * The one registry of typed error codes. Every code is documented in docs/errors.md;
 * test/errors.test.ts checks the two lists against each other.
 *
 * `user` errors are caused by the caller's input; `internal` errors are ours or the environment's. The CLI
 * exits with 2 for MEM_ERR_USAGE (a malformed command line: nothing ran) and 1 for every other error.
 */
export const ERROR_CODES = {
  MEM_ERR_INVALID_INPUT: { kind: 'user', summary: 'An argument or field failed validation; the message names the field, what was expected and what arrived.' },
  MEM_ERR_USAGE: { kind: 'user', summary: 'A CLI command or option is unknown or malformed.' },
  MEM_ERR_FACT_NOT_FOUND: { kind: 'user', summary: 'No fact with that id exists (or it is not visible to the caller).' },
  MEM_ERR_LINK_NOT_FOUND: { kind: 'user', summary: 'No link with that id exists (or one of its endpoints is not visible to the caller).' },
  MEM_ERR_CONFLICT_NOT_FOUND: { kind: 'user', summary: 'No conflict with that id exists.' },
  MEM_ERR_CONFLICT_CLOSED: { kind: 'user', summary: 'The conflict was already resolved or reviewed.' },
  MEM_ERR_FACT_SUPERSEDED: { kind: 'user', summary: 'The fact is an old version; curate its current version instead (the message names it).' },
  MEM_ERR_FACT_ENDED: { kind: 'user', summary: 'The fact is no longer current: deleted, expired or decayed (the message says which).' },
  MEM_ERR_LINK_EXISTS: { kind: 'user', summary: 'A link of that type between those two facts already exists (the message names it).' },
  MEM_ERR_LINK_SELF: { kind: 'user', summary: 'A link needs two different facts.' },
  MEM_ERR_QUERY_EMPTY: { kind: 'user', summary: 'A search query has no searchable words.' },
  MEM_ERR_CONFIG_INVALID: { kind: 'user', summary: 'The configuration failed validation; the message names the key path, what was expected and what arrived.' },
  MEM_ERR_CONFIG_UNREADABLE: { kind: 'user', summary: 'The configuration file cannot be read or is not JSON.' },
  MEM_ERR_IMPORT_FORMAT: { kind: 'user', summary: 'An import file is not in the hybrid-mem export format.' },
  MEM_ERR_VAULT_KEY: { kind: 'user', summary: 'The vault key is missing, unreadable, or not 32 bytes (hex or base64).' },
  MEM_ERR_VAULT_DECRYPT: { kind: 'user', summary: 'A vault entry cannot be decrypted with this key (wrong key or tampered data).' },
  MEM_ERR_CREDENTIAL_NOT_FOUND: { kind: 'user', summary: 'No vault credential for that service is visible to the caller.' },
  MEM_ERR_SEMANTIC_UNAVAILABLE: { kind: 'user', summary: 'The operation needs embeddings (the semantic layer is off or not started).' },
  MEM_ERR_TOKEN_REQUIRED: { kind: 'user', summary: 'The dashboard has a token and the mutation came without `Authorization: Bearer <token>` (HTTP 401).' },
  MEM_ERR_TOKEN_INVALID: { kind: 'user', summary: 'The dashboard token sent does not match (HTTP 401); every wrong token is refused alike.' },
  MEM_ERR_HOST_REFUSED: { kind: 'user', summary: 'The Host header is not 127.0.0.1, localhost or [::1] with the server port (HTTP 403; DNS-rebinding guard).' },
  MEM_ERR_ORIGIN_REFUSED: { kind: 'user', summary: 'The Origin header is present and is not the dashboard itself (HTTP 403; cross-site guard).' },
  MEM_ERR_CONTENT_TYPE: { kind: 'user', summary: 'POST /graphql needs `Content-Type: application/json` (HTTP 415; CSRF guard).' },
  MEM_ERR_METHOD_NOT_ALLOWED: { kind: 'user', summary: 'The method is not allowed on that path, e.g. a mutation over GET (HTTP 405).' },
  MEM_ERR_BAD_REQUEST: { kind: 'user', summary: 'The request is malformed: unparsable JSON, a missing query, a bad caller header (HTTP 400).' },
  MEM_ERR_GRAPHQL_INVALID: { kind: 'user', summary: 'The GraphQL document does not parse or does not validate against the schema.' },
  MEM_ERR_QUERY_TOO_COMPLEX: { kind: 'user', summary: 'The document is past a limit: depth, aliases, tokens or batch size (the message names it).' },
  MEM_ERR_BODY_TOO_LARGE: { kind: 'user', summary: 'The request body is larger than the dashboard accepts (HTTP 413).' },
  MEM_ERR_NOT_FOUND: { kind: 'user', summary: 'No such path on the dashboard server (HTTP 404); paths that escape the app folder get this too.' },
  MEM_ERR_SUBSCRIBER_BEHIND: { kind: 'user', summary: 'A subscriber fell too far behind the event stream and was ended; resubscribe from the last seq it received.' },
  MEM_ERR_PERMISSION_DENIED: { kind: 'user', summary: 'Collaboration: the acting user lacks the permission or role the operation needs (the message names user, permission and target); nothing was changed.' },
  MEM_ERR_ORG_NOT_FOUND: { kind: 'user', summary: 'Collaboration: no organization with that id exists.' },
  MEM_ERR_SPACE_NOT_FOUND: { kind: 'user', summary: 'Collaboration: no memory space with that id exists.' },
  MEM_ERR_MEMBER_NOT_FOUND: { kind: 'user', summary: 'Collaboration: that user is not a member of the organization.' },
  MEM_ERR_MEMBER_EXISTS: { kind: 'user', summary: 'Collaboration: that user is already a member of the organization (change the role instead).' },
  MEM_ERR_LAST_OWNER: { kind: 'user', summary: 'Collaboration: the last owner of an organization cannot be removed or demoted (make another owner first).' },
  MEM_ERR_SPACE_EXISTS: { kind: 'user', summary: 'Collaboration: the organization already has a space with that name (names are compared ignoring case).' },
  MEM_ERR_FACT_NOT_IN_SPACE: { kind: 'user', summary: 'Collaboration: the fact is not in that space.' },
  MEM_ERR_FACT_IN_SPACE: { kind: 'user', summary: 'Collaboration: the fact (some version of it) is already in that space.' },
  MEM_ERR_SUGGESTION_NOT_FOUND: { kind: 'user', summary: 'Collaboration: no suggestion with that id exists.' },
  MEM_ERR_SUGGESTION_CHANGED: { kind: 'user', summary: 'Collaboration: the suggestion was edited while it was being accepted; accept it again.' },
  MEM_ERR_SUGGESTION_CLOSED: { kind: 'user', summary: 'Collaboration: the suggestion was already accepted, rejected or withdrawn.' },
  MEM_ERR_COMMENT_NOT_FOUND: { kind: 'user', summary: 'Collaboration: no comment with that id exists.' },
  MEM_ERR_PLUGIN_NOT_FOUND: { kind: 'user', summary: 'No installed plugin has that id (`hybrid-mem plugin list` shows them), or it registered no such endpoint or command.' },
  MEM_ERR_PLUGIN_DISABLED: { kind: 'user', summary: 'The plugin is installed but disabled (`hybrid-mem plugin enable <id>`).' },
  MEM_ERR_PLUGIN_MANIFEST: { kind: 'user', summary: 'A plugin package has no valid manifest (package.json with a `hybridMem` section), or its code does not match it; the message names the field, what was expected and what arrived.' },
  MEM_ERR_PLUGIN_EXISTS: { kind: 'user', summary: 'A plugin with that id is already installed (remove it first); nothing was installed.' },
  MEM_ERR_PLUGIN_INSTALL: { kind: 'user', summary: 'A plugin could not be installed (no such folder or package, or npm failed; the message says which); nothing was installed.' },
  MEM_ERR_PLUGIN_VETO: { kind: 'user', summary: "A plugin's before-hook refused the operation (the message names the plugin and its reason); nothing was changed." },
  MEM_ERR_PLUGIN_CAPABILITY: { kind: 'user', summary: 'A plugin tried what its capabilities do not allow: changing facts without canModifyFacts, or a query or results without canInterceptSearch.' },
  MEM_ERR_DB_READONLY: { kind: 'internal', summary: 'The database file or its folder is read-only; nothing was written.' },
  MEM_ERR_DB_BUSY: { kind: 'internal', summary: 'The database stayed locked by another process past the busy timeout; nothing was written.' },
  MEM_ERR_DB_FULL: { kind: 'internal', summary: 'The disk is full; the transaction was rolled back and nothing was written.' },
  MEM_ERR_DB_CORRUPT: { kind: 'internal', summary: 'The database file is damaged or not a hybrid-mem database (found on open by PRAGMA quick_check, or by any read); the message gives the recovery steps (`hybrid-mem doctor --recover`).' },
  MEM_ERR_DB_TOO_NEW: { kind: 'internal', summary: 'The database was written by a newer hybrid-mem (schema version above this build).' },
  MEM_ERR_ACTOR_CRASHED: { kind: 'internal', summary: 'A worker thread died during the call; it was replaced, and the call can be retried.' },
  MEM_ERR_ACTOR_TIMEOUT: { kind: 'internal', summary: 'A worker call ran past its deadline; the worker was replaced.' },
  MEM_ERR_ACTOR_CLOSED: { kind: 'internal', summary: 'The call was made or still pending while the service was shutting down.' },
  MEM_ERR_PLUGIN_FAILED: { kind: 'internal', summary: "A plugin failed: it did not load, or a hook threw, ran past its time budget or answered in the wrong shape (the message names the plugin and hook). A fail-closed plugin's operation is refused with this code; nothing was changed." },
  MEM_ERR_EMBEDDING_MODEL: { kind: 'internal', summary: 'The embedding model cannot be loaded or run (the message names the provider and the file).' },
  MEM_ERR_VECTOR_INDEX: { kind: 'internal', summary: 'The vector index failed; it is rebuilt from SQLite and search answers from full text meanwhile.' },
  MEM_ERR_NATIVE_UNAVAILABLE: { kind: 'internal', summary: 'The SQLite driver (better-sqlite3) does not load on this Node version or platform; the message names the fix.' },
  MEM_ERR_INTERNAL: { kind: 'internal', summary: 'An unexpected internal failure; the message and its cause say more.' },
} as const satisfies Record<string, { kind: 'user' | 'internal'; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as readonly ErrorCode[];

/** Structured details that say where input went wrong. */
export interface ErrorDetails {
  readonly path?: string;
  readonly expected?: string;
  readonly received?: string;
  readonly [key: string]: unknown;
}

/** The one error class of hybrid-mem. Crosses threads as {code, message, details} (see toWire/fromWire). */
/**
 * Marks a MemoryError for `instanceof` across copies of this module: a host that loads the package more
 * than once (OpenClaw evaluates each plugin generation afresh) must still recognise an error thrown by
 * another copy, or its code would be lost.
 */
const BRAND = Symbol.for('hybrid-mem.MemoryError');

export class MemoryError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  override readonly name = 'MemoryError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options?: { details?: ErrorDetails; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options?.details;
  }

  /** True when the caller's input caused it, false for internal and environment failures. */
  get isUserError(): boolean {
    return ERROR_CODES[this.code].kind === 'user';
  }
}

/** The CLI's exit code for an error: 2 for a malformed command line (nothing ran), 1 for any other failure. */
export function exitCodeOf(code: ErrorCode): 1 | 2 {
  return code === 'MEM_ERR_USAGE' ? 2 : 1;
}

/** The plain shape an error takes when it crosses a thread or a process. */
export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: ErrorDetails;
}

export function toWire(err: unknown): WireError {
  const e = asMemoryError(err);
  return e.details ? { code: e.code, message: e.message, details: e.details } : { code: e.code, message: e.message };
}

/**
 * `err` as a MemoryError: itself, MEM_ERR_DB_CORRUPT for any SQLite report of a damaged file (with the
 * recovery steps), else MEM_ERR_INTERNAL. The original is kept as `cause`.
 */
export function asMemoryError(err: unknown): MemoryError {
  if (err instanceof MemoryError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (isCorruption(err)) return new MemoryError('MEM_ERR_DB_CORRUPT', corruptionMessage('reading the database', message), { cause: err });
  return new MemoryError('MEM_ERR_INTERNAL', message, { cause: err });
}

export function fromWire(wire: WireError): MemoryError {
  const code: ErrorCode = isErrorCode(wire.code) ? wire.code : 'MEM_ERR_INTERNAL';
  return new MemoryError(code, wire.message, wire.details ? { details: wire.details } : undefined);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** Shorthand for the most common error: bad input at a named field. */
export function invalidInput(path: string, expected: string, received: unknown): MemoryError {
  const shown = describeValue(received);
  return new MemoryError('MEM_ERR_INVALID_INPUT', `${path}: expected ${expected}, received ${shown}`, {
    details: { path, expected, received: shown },
  });
}

/** A short, safe rendering of a value for error messages (never the whole of a long string). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  // JSON quoting shows control characters as \u escapes, also in the shortened form.
  if (typeof value === 'string') return value.length > 60 ? `${JSON.stringify(value.slice(0, 57)).slice(0, -1)}..." (${value.length} chars)` : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value;
}

/** "an object", "a string": for messages that say what was expected. */
export function article(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/*
 * Recognising a damaged database (issue 20, part 4). SQLite reports damage in several shapes: the codes
 * SQLITE_CORRUPT* and SQLITE_NOTADB, but also plain SQLITE_ERROR messages when the damage sits in a virtual
 * table's shadow tables or the schema ("vtable constructor failed: facts_fts", FTS5's "fts5: corruption
 * found reading blob ..."). All of them become MEM_ERR_DB_CORRUPT with the recovery steps, never
 * MEM_ERR_INTERNAL (asMemoryError here, sqliteError in src/store/db.ts). Kept in this file: it imports
 * nothing, so a second copy of it (test/errors-copies.test.ts) still loads alone.
 */
const CORRUPT_CODE = /^SQLITE_(CORRUPT|NOTADB)/;
const CORRUPT_MESSAGE = /database disk image is malformed|file is not a database|vtable constructor failed|fts5: corruption|malformed database schema|database corruption/i;

/** True when `err` (a SqliteError or anything carrying its code and message) says the file is damaged. */
export function isCorruption(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CORRUPT_CODE.test(code)) return true;
  return typeof message === 'string' && CORRUPT_MESSAGE.test(message);
}

/**
 * What to do about a damaged database, in one line (the CLI prints errors on one line). `db` is the
 * `--db PATH` to repeat, when known.
 */
export function recoverySteps(dbPath?: string): string {
  const db = dbPath ? ` --db ${shellQuote(dbPath)}` : '';
  return (
    `To recover: stop every hybrid-mem process using it; run \`hybrid-mem doctor${db}\` to see what is damaged; ` +
    `run \`hybrid-mem doctor --recover${db}\`, which copies every row that can still be read into a new file and never changes the damaged one; ` +
    'then move the damaged file (with its -wal and -shm files) aside and put the new file in its place, or use --db with the new file.'
  );
}

/** The message of MEM_ERR_DB_CORRUPT: what failed, what SQLite said, and the recovery steps. */
export function corruptionMessage(what: string, detail: string, dbPath?: string): string {
  return `${what}: the database file is damaged (${detail}). ${recoverySteps(dbPath)}`;
}

/** `path` as one shell word: bare when it is plain, else in single quotes. */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
