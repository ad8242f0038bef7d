/**
 * The index file on disk and its manifest (`<indexPath>.manifest.json`).
 *
 * usearch has no checksum in its format, and a damaged file can abort the whole process on load
 * (design/stack.md). So usearch never sees a file we have not verified: the manifest records the file's
 * size and sha256, the model and dimension, and a digest of the keys the index holds; `verifyIndexFile`
 * checks all of them against a private hard link of the file (a concurrent rename of a newer index over
 * `indexPath` cannot swap the bytes between the check and the load), and only then hands that link over.
 *
 * Writing (`writeIndexFile`) is atomic and crash-safe; see the comment there for the argument.
 */
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../store/private-files.js';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, copyFileSync, createReadStream, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { z } from 'zod';
import { MemoryError } from '../../core/errors.js';

export const INDEX_FORMAT = 'hybrid-mem/usearch-f32-cos/1';

const ManifestSchema = z.object({
  format: z.string(),
  modelId: z.string(),
  dim: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  vectorsHash: z.string(),
  writtenAt: z.number(),
});

/** What the manifest says about the index file beside it. */
export type IndexManifest = Readonly<z.infer<typeof ManifestSchema>>;

/** What the caller expects the saved index to be. */
export interface IndexExpectation {
  readonly modelId: string;
  readonly dim: number;
  /** KeyDigest of the keys SQLite says the index should hold now. */
  readonly vectorsHash: string;
}

export type Verdict =
  | { readonly ok: true; readonly manifest: IndexManifest; /** a private link to load, then `discard`. */ readonly file: string }
  | { readonly ok: false; readonly reason: string };

export const manifestPath = (indexPath: string): string => `${indexPath}.manifest.json`;
const suffix = (): string => `${process.pid}-${threadId}`;

/** Decide whether the saved index may be loaded. Never throws: every problem is a reason to rebuild. */
export async function verifyIndexFile(indexPath: string, expected: IndexExpectation): Promise<Verdict> {
  const m = readManifest(indexPath);
  if (typeof m === 'string') return { ok: false, reason: m };
  if (m.format !== INDEX_FORMAT) return { ok: false, reason: `index format ${m.format}, this build writes ${INDEX_FORMAT}` };
  if (m.modelId !== expected.modelId) return { ok: false, reason: `index was built for model ${m.modelId}, not ${expected.modelId}` };
  if (m.dim !== expected.dim) return { ok: false, reason: `index has dimension ${m.dim}, not ${expected.dim}` };
  if (m.vectorsHash !== expected.vectorsHash) {
    return { ok: false, reason: `stale: the index holds ${m.count} vectors (${m.vectorsHash}), SQLite has ${expected.vectorsHash}` };
  }
  const file = `${indexPath}.load-${suffix()}`;
  try {
    discard(file);
    try {
      linkSync(indexPath, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'index file missing' };
      copyFileSync(indexPath, file); // a file system without hard links
    }
    const bytes = statSync(file).size;
    if (bytes !== m.bytes) {
      discard(file);
      return { ok: false, reason: `index file is ${bytes} bytes, the manifest says ${m.bytes} (truncated or replaced)` };
    }
    if ((await sha256File(file)) !== m.sha256) {
      discard(file);
      return { ok: false, reason: 'index file checksum mismatch (damaged or replaced)' };
    }
    return { ok: true, manifest: m, file };
  } catch (err) {
    discard(file);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'index file missing' };
    return { ok: false, reason: `index file unreadable: ${(err as Error).message}` };
  }
}

/** What `hybrid-mem doctor` says of the saved index (read only; the file is never handed to usearch here). */
export async function inspectIndexFile(indexPath: string): Promise<{ readonly severity: 'ok' | 'warn'; readonly message: string }[]> {
  const out: { severity: 'ok' | 'warn'; message: string }[] = [];
  const m = readManifest(indexPath);
  if (typeof m === 'string') out.push({ severity: m === 'no manifest' ? 'ok' : 'warn', message: m === 'no manifest' ? 'no saved vector index (it is built from SQLite when semantic recall starts)' : `vector index: ${m}; it is rebuilt from SQLite at the next start` });
  else {
    let problem: string | null = null;
    try {
      const bytes = statSync(indexPath).size;
      if (bytes !== m.bytes) problem = `is ${bytes} bytes, its manifest says ${m.bytes}`;
      else if ((await sha256File(indexPath)) !== m.sha256) problem = 'does not match its manifest checksum';
    } catch (err) {
      problem = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `is unreadable: ${(err as Error).message}`;
    }
    out.push(problem ? { severity: 'warn', message: `the vector index file ${problem}: it is rebuilt from SQLite at the next start` } : { severity: 'ok', message: `vector index: ${m.count} vectors of ${m.modelId} (${m.dim}-d), matching its manifest` });
  }
  try {
    statSync(`${indexPath}.damaged`);
    out.push({ severity: 'warn', message: `a damaged vector index was set aside at ${indexPath}.damaged (kept for a bug report; safe to delete)` });
  } catch {
    // none set aside
  }
  return out;
}

function readManifest(indexPath: string): IndexManifest | string {
  let text: string;
  try {
    text = readFileSync(manifestPath(indexPath), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no manifest' : `manifest unreadable: ${(err as Error).message}`;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'manifest is not JSON (damaged)';
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) return `manifest invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  return parsed.data;
}

/** Remove a file if it exists. */
export function discard(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // absent already
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 8 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function fsyncPath(path: string, flags: 'r' | 'r+' = 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Write the index atomically: `save(tmp)` writes the usearch file, then the manifest describes it.
 *
 * Order and why a crash at any point is safe:
 *   1. save to `<index>.tmp-<pid>-<thread>`, fsync it; hash it (size + sha256 of the bytes on disk).
 *   2. write the manifest to `<manifest>.tmp-...`, fsync it.
 *   3. rename index tmp -> index.   4. rename manifest tmp -> manifest.   5. fsync the directory.
 * A crash before 3 leaves the old pair (index, manifest) untouched (and temp files, swept at the next
 * start). A crash between 3 and 4 leaves the NEW index with the OLD manifest, whose size/sha256 describe
 * the old bytes: verification fails and the index is rebuilt, never loaded. After 4 the pair is
 * consistent. If power is lost before 5, either rename may be missing from the directory, in any
 * combination; every mixed pair again fails the sha256 check. The manifest is renamed last so that it is
 * the commit point, but safety never rests on the order alone: a loaded file always matches the sha256
 * of the manifest beside it, and the sha256 in a manifest was computed from fsynced bytes.
 */
export async function writeIndexFile(indexPath: string, save: (tmp: string) => void, meta: Pick<IndexManifest, 'modelId' | 'dim' | 'count' | 'vectorsHash'>): Promise<IndexManifest> {
  const dir = dirname(indexPath);
  const tmp = `${indexPath}.tmp-${suffix()}`;
  const mtmp = `${manifestPath(indexPath)}.tmp-${suffix()}`;
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    save(tmp);
    // usearch creates the file with the process umask: vectors are derived from what the user said.
    chmodSync(tmp, PRIVATE_FILE_MODE);
    fsyncPath(tmp);
    const bytes = statSync(tmp).size;
    const manifest: IndexManifest = { format: INDEX_FORMAT, ...meta, bytes, sha256: await sha256File(tmp), writtenAt: Date.now() };
    const fd = openSync(mtmp, 'w', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, `${JSON.stringify(manifest, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, indexPath);
    renameSync(mtmp, manifestPath(indexPath));
    fsyncPath(dir, 'r');
    return manifest;
  } catch (cause) {
    discard(tmp);
    discard(mtmp);
    throw new MemoryError('MEM_ERR_VECTOR_INDEX', `cannot write the vector index ${indexPath}: ${(cause as Error).message}`, { cause });
  }
}

/** A temp file of this very process older than this belongs to a worker that was killed mid-write. */
const OWN_TEMP_MAX_AGE_MS = 10 * 60_000;

/**
 * Sweep temp files and load links left by writers that died: those of dead processes, and this process's
 * own temps when older than any live write could be (a replaced worker's; a live persist takes seconds).
 */
export function sweepTemps(indexPath: string): number {
  const base = basename(indexPath);
  const pattern = new RegExp(`^${escape(base)}(?:\\.manifest\\.json)?\\.(tmp|load)-(\\d+)-\\d+$`);
  let swept = 0;
  let names: string[];
  try {
    names = readdirSync(dirname(indexPath));
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    const file = join(dirname(indexPath), name);
    // A load link shares the index's inode and mtime, so its age says nothing: only temps qualify.
    const mine = pid === process.pid;
    if (mine ? m[1] !== 'tmp' || !olderThan(file, OWN_TEMP_MAX_AGE_MS) : alive(pid)) continue;
    discard(file);
    swept++;
  }
  return swept;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

/** A process with this pid exists (EPERM: it does, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
