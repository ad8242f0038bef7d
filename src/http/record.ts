/** <dataDir>/dashboard.json: where the running dashboard listens, for `hybrid-mem dashboard` (CLI and OpenClaw). */
import { readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DashboardRecord {
  readonly url: string;
  readonly pid: number;
  readonly adapter: string;
  readonly startedAt: number;
}

const file = (dataDir: string): string => join(dataDir, 'dashboard.json');

export function writeDashboardRecord(dataDir: string, r: DashboardRecord): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tmp = `${file(dataDir)}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(r), { mode: 0o600 });
  renameSync(tmp, file(dataDir));
}

export function readDashboardRecord(dataDir: string): DashboardRecord | null {
  try {
    const r = JSON.parse(readFileSync(file(dataDir), 'utf8')) as Partial<DashboardRecord>;
    if (typeof r.url !== 'string' || typeof r.pid !== 'number') return null;
    return { url: r.url, pid: r.pid, adapter: String(r.adapter ?? ''), startedAt: Number(r.startedAt ?? 0) };
  } catch {
    return null;
  }
}

/** Remove the record if it is still ours (another server may have started since). */
export function removeDashboardRecord(dataDir: string, pid: number): void {
  if (readDashboardRecord(dataDir)?.pid === pid) rmSync(file(dataDir), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
    return r.ok && ((await r.json()) as { service?: string }).service === 'hybrid-mem';
  } catch {
    return false;
  }
}

/** The dashboard serving `dataDir`, when its process lives and its health check answers as hybrid-mem. */
export async function findRunningDashboard(dataDir: string): Promise<DashboardRecord | null> {
  const record = readDashboardRecord(dataDir);
  return record && isAlive(record.pid) && (await answers(record.url)) ? record : null;
}
