/**
 * Names a fact gives for the same machine as a host it mentions: "db-prod.internal resolves to 10.20.0.5",
 * "db-staging.internal (10.20.0.21)", "10.20.0.5 (db-prod primary)", "the staging registry (10.20.9.50)".
 * Only a name written right beside the host counts (a second address later in the sentence is another
 * machine). Used to find credential facts filed under another name of the failing target. Pure.
 */
import { isHostLike, normaliseHost } from './target-candidates.js';

const IP = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\]?)`;
const NAME = String.raw`[a-z0-9][a-z0-9-]{0,62}(?:\.[a-z0-9-]{1,63}){0,10}`;
/** Punctuation linking two names of one machine: "name (ip)", "name=ip", "name/ip". */
const LINK = String.raw`\s{0,3}(?:\(\[?|\[|=|->|=>|:|,|/)\s{0,3}`;
/** Words linking them: only between host-like names ("db-prod.internal resolves to 10.20.0.5", not "the VIP is ..."). */
const WORD_LINK = String.raw`\s(?:resolves to|resolved to|is at|lives at|at|is|aka|a\.k\.a\.|alias|points to)\s`;
/** A descriptive name of two or three words before a parenthesised address: "the staging registry (10.20.9.50)". */
const PHRASE_BEFORE = /(?:^|[\s,;:])(?:the|our|a|an)\s+([a-z][a-z0-9-]{1,30}(?:\s[a-z][a-z0-9-]{1,30}){1,2})\s?\(\s?$/i;
const NOT_NAMES = new Set(['the', 'a', 'an', 'is', 'at', 'on', 'and', 'or', 'to', 'of', 'for', 'in', 'port', 'primary', 'replica', 'host', 'server', 'via']);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function clean(name: string): string | null {
  const h = normaliseHost(name.replace(/:\d{1,5}$/, ''));
  return isHostLike(h) && !NOT_NAMES.has(h) ? h : null;
}

const AFTER = new RegExp(`^(?:${LINK}(${IP}|${NAME})|${WORD_LINK}(${IP}|${NAME}))`, 'i');
const BEFORE = new RegExp(`(?:^|[\\s'"(])(?:(${IP}|${NAME})${LINK}|(${IP}|${NAME})${WORD_LINK})$`, 'i');
const hostLike = (n: string | undefined): string | undefined => (n && /[.\d-]/.test(n) ? n : undefined);

/**
 * A finder of the other names texts give for `host`, right beside it (before or after); at most 4 per
 * text. Build it once per host and run it over many facts.
 */
export function pairFinder(host: string): (text: string) => string[] {
  const at = new RegExp(`(?<![\\w.-])${escape(host)}(?::\\d{1,5})?(?![\\w-]|\\.[a-z0-9])`, 'gi');
  return (text) => {
    const out = new Set<string>();
    for (const m of text.slice(0, 4096).matchAll(at)) {
      const i = m.index ?? 0;
      const a = AFTER.exec(text.slice(i + m[0].length, i + m[0].length + 60));
      const head = text.slice(Math.max(0, i - 60), i);
      const b = BEFORE.exec(head);
      for (const n of [a?.[1], hostLike(a?.[2]), b?.[1], hostLike(b?.[2])]) {
        const c = n ? clean(n) : null;
        if (c && c !== host) out.add(c);
      }
      const phrase = PHRASE_BEFORE.exec(head)?.[1];
      if (phrase) out.add(phrase.toLowerCase());
      if (out.size >= 4) break;
    }
    return [...out].slice(0, 4);
  };
}
