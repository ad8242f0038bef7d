/**
 * The docs hold together: every relative link in README.md and docs/*.md names a file that exists, every
 * `#anchor` into a markdown file names one of its headings (GitHub's slug rules), the README links every
 * page under docs/, and the README stays a short read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const pages = ['README.md', ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The file's text outside fenced code blocks and HTML comments, as paragraphs. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) out.push(current.join('\n'));
    current = [];
  };
  for (const line of text.replace(/<!--[\s\S]*?-->/g, '').split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (marker !== undefined) {
      flush();
      fence = marker;
      continue;
    }
    if (line.trim() === '') flush();
    else current.push(line);
  }
  flush();
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a markdown file's headings give, with GitHub's -1, -2 suffixes for repeats. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const para of paragraphs(readFileSync(file, 'utf8'))) {
    for (const line of para.split('\n')) {
      const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
      if (!m) continue;
      const base = slug(m[1] as string);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  return anchors;
}

interface Link {
  readonly page: string;
  readonly target: string;
}

/** Every inline link and image of a page, code spans left out. */
function linksOf(page: string): Link[] {
  const links: Link[] = [];
  for (const para of paragraphs(readFileSync(join(ROOT, page), 'utf8'))) {
    const text = para.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, 'code');
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ page, target: m[1] as string });
  }
  return links;
}

const links = pages.flatMap(linksOf);
const relativeLinks = links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));

describe('docs links', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/errors.md');
    expect(relativeLinks.length).toBeGreaterThan(20);
  });

  it.each(pages)('%s: every relative link names a file that exists, every anchor a heading', (page) => {
    const broken: string[] = [];
    for (const { target } of relativeLinks.filter((l) => l.page === page)) {
      const [rawPath = '', anchor] = target.split('#', 2);
      const path = decodeURIComponent(rawPath);
      // Images under docs/images are added separately; a missing one is not a broken page.
      const fromRoot = relative(ROOT, resolve(ROOT, dirname(page), path)).split('\\').join('/');
      if (path !== '' && fromRoot.startsWith('docs/images/')) continue;
      const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), path);
      if (!existsSync(file)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(file).has(anchor)) {
        broken.push(`${target}: no heading with anchor #${anchor} in ${relative(ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README links every page under docs/', () => {
    const linked = new Set(
      relativeLinks.filter((l) => l.page === 'README.md').map((l) => relative(ROOT, resolve(ROOT, l.target.split('#')[0] as string)).split('\\').join('/')),
    );
    const missing = pages.filter((p) => p.startsWith('docs/') && !linked.has(p));
    expect(missing).toEqual([]);
  });

  it('the README stays under 10,000 bytes', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(10_000);
  });

  it('slugs follow GitHub', () => {
    expect(slug('Output, errors and exit codes')).toBe('output-errors-and-exit-codes');
    expect(slug('The gateway hook: authentication-failure auto-recall')).toBe('the-gateway-hook-authentication-failure-auto-recall');
    expect(slug('`hybrid-mem` command line')).toBe('hybrid-mem-command-line');
    expect(slug('Export format (version 1)')).toBe('export-format-version-1');
    expect(slug('Who is asking, and the token')).toBe('who-is-asking-and-the-token');
  });
});
