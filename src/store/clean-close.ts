/**
 * Skipping the open-time quick_check for a file exactly as a checked process left it (quick_check costs
 * ~60 ms at 10k facts and ~390 ms at 100k, on every one-shot CLI or gateway turn).
 *
 * A process whose connection closed cleanly with nothing left in the WAL (it was the last connection, or
 * the others had nothing pending; any later write of theirs changes the file or the WAL) records the main
 * file's identity (inode, size, modification time) in `<db>.clean`. The next read-write
 * open that finds the same identity and no WAL knows nothing has touched the file since a process that had
 * checked it (or skipped on this same ground) closed it: the check is skipped. Every read-write open
 * removes the record first, so a session that crashes leaves none; maintenance still runs the full
 * integrity_check.
 *
 * File times tick coarsely (a few ms), so a write right after the close could keep the recorded time: the
 * record therefore sets the file's modification time two seconds back first, and any later write moves it
 * to now, away from the recorded value.
 */
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';

interface Identity {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

const recordOf = (path: string): string => `${path}.clean`;

function identity(path: string): Identity | null {
  try {
    const s = statSync(path);
    return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}

/** No WAL file, or an empty one: nothing is waiting to be folded into the main file. */
function noWal(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size === 0;
  } catch {
    return true;
  }
}

/** Whether the file is as a clean, last close left it (and its record says so). */
export function unchangedSinceCleanClose(path: string): boolean {
  let recorded: Identity;
  try {
    recorded = JSON.parse(readFileSync(recordOf(path), 'utf8')) as Identity;
  } catch {
    return false;
  }
  const now = identity(path);
  return now !== null && noWal(path) && now.ino === recorded.ino && now.size === recorded.size && now.mtimeMs === recorded.mtimeMs;
}

/** A read-write session starts: the record no longer holds. */
export function forgetCleanClose(path: string): void {
  rmSync(recordOf(path), { force: true });
}

/** After the connection closed: record the file when nothing is left in the WAL. */
export function recordCleanClose(path: string): void {
  if (!noWal(path)) return;
  try {
    const back = new Date(Date.now() - 2000);
    utimesSync(path, back, back);
    const id = identity(path);
    if (id) writeFileSync(recordOf(path), JSON.stringify(id), { mode: 0o600 });
  } catch {
    // A record that cannot be written only means the next open checks.
  }
}
