/**
 * Target extraction for auth-failure recall (spec "Target extraction and query rules", rule 1):
 * an IP address > the host of a user@host form (user dropped) > the host of a URL (scheme, port and
 * path dropped) > a service name from 'for <Name> service' (lower-cased). src/core/auth/README.md
 * documents the choices below.
 */
import type { Detection } from './patterns.js';
import { MAX_SCAN_CHARS } from './patterns.js';
import { findIps, findUrlHosts, findUserHosts, normaliseHost, type Candidate } from './target-candidates.js';

/** What failed: `target` names the hint header, the per-session counter and the search. */
export interface Target {
  readonly target: string;
  readonly kind: 'ip' | 'host' | 'url' | 'service';
  /** Other names of the same target (a hostname and the IP it resolved to); they widen the search only. */
  readonly aliases: readonly string[];
}

/** Candidates are looked for this far either side of the detection first (the failing command's output). */
const NEAR_CHARS = 2_000;

function nearest(cands: readonly Candidate[], at: number): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of cands) {
    if (best === undefined || rank(c, at) < rank(best, at)) best = c;
  }
  return best;
}

function rank(c: Candidate, at: number): number {
  // Documentation links are a last resort among URLs; otherwise the closest to the failure wins.
  return Math.abs(c.index - at) + (c.weak ? 1e9 : 0);
}

const SERVICE_RE = /\bfor\s+(?:the\s+)?([A-Za-z0-9][\w.-]{0,40}(?:\s[A-Za-z0-9][\w.-]{0,40}){0,2}?)\s+service\b/gi;

function findServices(text: string, offset: number): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(SERVICE_RE)) {
    const name = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
    if (name !== '') out.push({ value: name, index: (m.index ?? 0) + offset, weak: false, aliases: [] });
  }
  return out;
}

/**
 * The one target of a failure, or null when the text names none. With a detection, candidates within
 * NEAR_CHARS of it are preferred (kind priority first, then distance); only when that region names no
 * target is the whole scan window (the last MAX_SCAN_CHARS) used.
 */
export function extractTarget(text: string, detection: Detection | null): Target | null {
  const offset = Math.max(0, text.length - MAX_SCAN_CHARS);
  const window = text.slice(offset);
  const at = detection ? detection.index : text.length;
  if (detection) {
    const from = Math.max(offset, at - NEAR_CHARS);
    const to = Math.min(text.length, at + detection.match.length + NEAR_CHARS);
    const near = pick(text.slice(from, to), from, at);
    if (near) return near;
  }
  return pick(window, offset, at);
}

function pick(text: string, offset: number, at: number): Target | null {
  const ips = findIps(text, offset);
  const ip = nearest(ips, at);
  if (ip) return { target: ip.value, kind: 'ip', aliases: uniqueAliases(ip.value, ip.aliases) };
  const userHost = nearest(findUserHosts(text, offset), at);
  if (userHost) return { target: userHost.value, kind: 'host', aliases: uniqueAliases(userHost.value, userHost.aliases) };
  const urls = findUrlHosts(text, offset);
  const url = nearest(urls.filter((c) => !c.weak), at);
  if (url) return { target: url.value, kind: 'url', aliases: uniqueAliases(url.value, url.aliases) };
  // A documentation link ranks below a named service: "Invalid API key for the OpenAI service. See
  // https://platform.openai.com/..." is about openai, not about the docs site.
  const service = nearest(findServices(text, offset), at);
  if (service) return { target: service.value, kind: 'service', aliases: [] };
  const docLink = nearest(urls, at);
  if (docLink) return { target: docLink.value, kind: 'url', aliases: [] };
  return null;
}

function uniqueAliases(target: string, aliases: readonly string[]): readonly string[] {
  const out: string[] = [];
  for (const a of aliases) {
    const h = normaliseHost(a);
    if (h !== '' && h !== target && !out.includes(h)) out.push(h);
  }
  return Object.freeze(out);
}
