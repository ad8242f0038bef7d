/**
 * The vault key: 32 bytes from HYBRID_MEM_VAULT_KEY (64 hex characters or base64), else from a key file
 * that is created on first use with mode 0600. A key file readable by group or others is refused, as ssh
 * refuses such a private key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryError } from '../core/errors.js';

export interface VaultKey {
  readonly key: Buffer;
  /** A fingerprint stored beside each entry, so a wrong key is named as such, not as tampering. */
  readonly id: string;
}

export function parseKey(text: string, from: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : null;
  if (!key || key.length !== 32) {
    throw new MemoryError('MEM_ERR_VAULT_KEY', `${from}: expected 32 bytes as 64 hex characters or base64, received ${t.length} characters`);
  }
  return key;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update('hybrid-mem vault key id\0').update(key).digest('hex').slice(0, 16);
}

/** Load the key (creating the key file when `create` and neither source exists). */
export function loadVaultKey(keyFile: string, env: Readonly<Record<string, string | undefined>> = process.env, create = true): VaultKey {
  const fromEnv = env.HYBRID_MEM_VAULT_KEY;
  if (fromEnv) {
    const key = parseKey(fromEnv, 'HYBRID_MEM_VAULT_KEY');
    return { key, id: keyId(key) };
  }
  let text: string;
  try {
    const st = statSync(keyFile);
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      throw new MemoryError('MEM_ERR_VAULT_KEY', `vault key file ${keyFile} is readable by others (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${keyFile}`);
    }
    text = readFileSync(keyFile, 'utf8');
  } catch (cause) {
    if (cause instanceof MemoryError) throw cause;
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT' || !create) {
      throw new MemoryError('MEM_ERR_VAULT_KEY', `cannot read vault key file ${keyFile}: ${(cause as Error).message}`, { cause });
    }
    text = createKeyFile(keyFile);
  }
  const key = parseKey(text, keyFile);
  return { key, id: keyId(key) };
}

function createKeyFile(keyFile: string): string {
  const text = randomBytes(32).toString('hex') + '\n';
  try {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    // 'wx': never overwrite a key another process created a moment ago.
    writeFileSync(keyFile, text, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(keyFile, 'utf8');
    throw new MemoryError('MEM_ERR_VAULT_KEY', `cannot create vault key file ${keyFile}: ${(cause as Error).message}`, { cause });
  }
}
