/**
 * The data dir and its files are the owner's alone (issue 20): memory, its vectors and its logs hold what
 * the user told their agent. A data dir this creates is 0700; the database is created 0600 before SQLite
 * opens it, because SQLite gives the `-wal` and `-shm` files the database file's permissions; an existing
 * database, WAL or shared-memory file readable by others is tightened to 0600 on open. (An existing dir is
 * left as it is: it may be a folder the user chose that holds other things.)
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** chmod 0600 when group or others have any access. */
export function tightenFile(path: string): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE_MODE);
  } catch {
    // Gone meanwhile, or a file system without modes: nothing to tighten.
  }
}

/** Make ready a database path: its dir (0700 when created here), the file itself 0600, its WAL and shm too. */
export function preparePrivateDatabase(path: string): void {
  const dir = dirname(path);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) tightenFile(f);
}
