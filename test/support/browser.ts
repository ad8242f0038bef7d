/**
 * The browser the end-to-end tests drive, with no set-up step: a system Chromium or Chrome when there is
 * one (CHROME_PATH, else `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable` on PATH),
 * else the headless Chromium shipped inside the npm package @sparticuz/chromium (a devDependency: its
 * `executablePath()` unpacks the browser once, here into one folder under the temp folder,
 * BUNDLED_BROWSER_DIR; nothing is downloaded).
 * HYBRID_MEM_BROWSER=bundled skips the system browsers.
 */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A system browser, or null. */
export function systemBrowser(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  if (env.HYBRID_MEM_BROWSER === 'bundled') return null;
  if (env.CHROME_PATH && executable(env.CHROME_PATH)) return env.CHROME_PATH;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const path = join(dir, name);
      if (existsSync(path) && executable(path)) return path;
    }
  }
  return null;
}

export interface BrowserChoice {
  readonly executablePath: string;
  readonly source: 'system' | 'bundled';
}

/** The folder under the temp folder the bundled browser unpacks into (and is reused from). */
export const BUNDLED_BROWSER_DIR = 'hybrid-mem-chromium-153';

let bundled: Promise<string> | null = null;

/**
 * Unpack the bundled browser into its own folder: @sparticuz/chromium writes the browser and its graphics
 * libraries loose into os.tmpdir(), so it is pointed at the folder for the one call (a test process does
 * nothing else while its browser starts).
 */
async function unpackBundled(): Promise<string> {
  const { default: chromium } = await import('@sparticuz/chromium');
  const dir = join(tmpdir(), BUNDLED_BROWSER_DIR);
  mkdirSync(dir, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return await chromium.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** The browser to launch: a system one, else the bundled one (unpacked once per process). */
export async function chooseBrowser(env: Readonly<Record<string, string | undefined>> = process.env): Promise<BrowserChoice> {
  const system = systemBrowser(env);
  if (system) return { executablePath: system, source: 'system' };
  bundled ??= unpackBundled();
  return { executablePath: await bundled, source: 'bundled' };
}
