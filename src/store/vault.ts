/**
 * The encrypted vault: AES-256-GCM with a fresh 96-bit IV per write; the service, scope and type are bound
 * as additional authenticated data, so a row copied to another service or scope fails to decrypt.
 * Listing never touches a secret. An entry an import named without its secret waits in vault_pending
 * (type and note only) until a put settles it.
 */
import { prep } from './prepared.js';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { MemoryError } from '../core/errors.js';
import type { Visibility } from '../core/scope.js';
import { VAULT_TYPES, type Scope, type VaultEntry, type VaultType } from '../core/types.js';
import { scopeOf } from './rows.js';
import { scopeSql } from './scope-sql.js';
import type { VaultKey } from './vault-key.js';

interface VaultRow {
  service: string;
  scope_key: string;
  scope_kind: string;
  scope_agent: string | null;
  scope_session: string | null;
  type: string;
  note: string | null;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
  key_id: string;
  created_at: number;
  updated_at: number;
}

export function scopeKey(s: Scope): string {
  return s.kind === 'global' ? 'global' : s.kind === 'agent' ? `agent:${s.agentId}` : `session:${s.sessionId}`;
}

function aad(service: string, key: string, type: string): Buffer {
  return Buffer.from(`hybrid-mem vault\0${service}\0${key}\0${type}`, 'utf8');
}

/** A vault entry without its secret: what an import names, and what stays of it until `vault put`. */
export type PendingEntry = Pick<VaultEntry, 'service' | 'type' | 'scope' | 'note'>;

type PendingRow = Pick<VaultRow, 'service' | 'scope_key' | 'scope_kind' | 'scope_agent' | 'scope_session' | 'type' | 'note' | 'created_at' | 'updated_at'>;

const vaultType = (t: string): VaultType => ((VAULT_TYPES as readonly string[]).includes(t) ? (t as VaultType) : 'other');

function toEntry(r: VaultRow): VaultEntry {
  return { service: r.service, type: vaultType(r.type), scope: scopeOf(r.scope_kind, r.scope_agent, r.scope_session), note: r.note, createdAt: r.created_at, updatedAt: r.updated_at };
}

function toPending(r: PendingRow): PendingEntry {
  return { service: r.service, type: vaultType(r.type), scope: scopeOf(r.scope_kind, r.scope_agent, r.scope_session), note: r.note };
}

export class VaultRepo {
  constructor(
    private readonly db: Database,
    private readonly key: () => VaultKey,
  ) {}

  /** Insert or replace the secret for (service, scope); an import's pending entry there is settled. Returns whether it replaced one. */
  put(service: string, type: VaultType, secret: string, scope: Scope, note: string | null, at: number): boolean {
    const k = this.key();
    const sk = scopeKey(scope);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', k.key, iv);
    cipher.setAAD(aad(service, sk, type));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    const existed = prep(this.db, 'SELECT created_at FROM vault WHERE service = ? AND scope_key = ?').get(service, sk) as { created_at: number } | undefined;
    prep(this.db, `INSERT OR REPLACE INTO vault (service, scope_key, scope_kind, scope_agent, scope_session, type, note, iv, tag, ciphertext, key_id, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(service, sk, scope.kind, scope.agentId, scope.sessionId, type, note, iv, tag, ciphertext, k.id, existed?.created_at ?? at, at);
    prep(this.db, 'DELETE FROM vault_pending WHERE service = ? AND scope_key = ?').run(service, sk);
    return existed !== undefined;
  }

  /** The entry for (service) in exactly this scope, or null. */
  at(service: string, scope: Scope): VaultEntry | null {
    const row = prep(this.db, 'SELECT * FROM vault WHERE service = ? AND scope_key = ?').get(service, scopeKey(scope)) as VaultRow | undefined;
    return row ? toEntry(row) : null;
  }

  /**
   * Remember an entry an import named whose secret this vault lacks (schema v4), so `vault put` keeps its
   * type and note. A later import naming it again updates it.
   */
  expect(e: PendingEntry, at: number): void {
    prep(this.db, `INSERT INTO vault_pending (service, scope_key, scope_kind, scope_agent, scope_session, type, note, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (service, scope_key) DO UPDATE SET type = excluded.type, note = excluded.note, updated_at = excluded.updated_at
        WHERE type IS NOT excluded.type OR note IS NOT excluded.note`)
      .run(e.service, scopeKey(e.scope), e.scope.kind, e.scope.agentId, e.scope.sessionId, e.type, e.note, at, at);
  }

  /** The pending entry for (service) in exactly this scope, or null. */
  pendingAt(service: string, scope: Scope): PendingEntry | null {
    const row = prep(this.db, 'SELECT * FROM vault_pending WHERE service = ? AND scope_key = ?').get(service, scopeKey(scope)) as PendingRow | undefined;
    return row ? toPending(row) : null;
  }

  /** Pending entries the caller may see (never a secret: they have none). */
  pending(v: Visibility): PendingEntry[] {
    const s = scopeSql(v, 'vault_pending');
    return (prep(this.db, `SELECT * FROM vault_pending WHERE ${s.sql} ORDER BY service, scope_key`).all(...s.params) as PendingRow[]).map(toPending);
  }

  /** The entries the caller may see for a service, most specific scope first (session, agent, global). */
  private rows(service: string, v: Visibility): VaultRow[] {
    const s = scopeSql(v, 'vault');
    return prep(this.db, `SELECT * FROM vault WHERE service = ? AND ${s.sql}
        ORDER BY CASE scope_kind WHEN 'session' THEN 0 WHEN 'agent' THEN 1 ELSE 2 END LIMIT 1`)
      .all(service, ...s.params) as VaultRow[];
  }

  entry(service: string, v: Visibility): VaultEntry | null {
    const row = this.rows(service, v)[0];
    return row ? toEntry(row) : null;
  }

  /** Decrypt the most specific visible secret for `service`. */
  get(service: string, v: Visibility): { entry: VaultEntry; secret: string } {
    const row = this.rows(service, v)[0];
    if (!row) throw new MemoryError('MEM_ERR_CREDENTIAL_NOT_FOUND', `no vault credential for service "${service}"`);
    const k = this.key();
    if (row.key_id !== k.id) {
      throw new MemoryError('MEM_ERR_VAULT_DECRYPT', `vault entry "${service}" was written with a different key (key id ${row.key_id}, current ${k.id})`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', k.key, row.iv);
      decipher.setAAD(aad(row.service, row.scope_key, row.type));
      decipher.setAuthTag(row.tag);
      const secret = Buffer.concat([decipher.update(row.ciphertext), decipher.final()]).toString('utf8');
      return { entry: toEntry(row), secret };
    } catch (cause) {
      throw new MemoryError('MEM_ERR_VAULT_DECRYPT', `vault entry "${service}" failed authentication (tampered or corrupted)`, { cause });
    }
  }

  list(v: Visibility): VaultEntry[] {
    const s = scopeSql(v, 'vault');
    return (prep(this.db, `SELECT * FROM vault WHERE ${s.sql} ORDER BY service, scope_key`).all(...s.params) as VaultRow[]).map(toEntry);
  }

  /** Remove the secret (and any pending entry) for (service, scope). Returns whether a secret was removed. */
  remove(service: string, scope: Scope): boolean {
    prep(this.db, 'DELETE FROM vault_pending WHERE service = ? AND scope_key = ?').run(service, scopeKey(scope));
    return prep(this.db, 'DELETE FROM vault WHERE service = ? AND scope_key = ?').run(service, scopeKey(scope)).changes > 0;
  }
}
