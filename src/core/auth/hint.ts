/**
 * The auth-failure hint (spec "Auth-failure recall output") and the search query (spec "Target
 * extraction and query rules", rule 2).
 */
import { redactSecrets } from './redact.js';
import type { Target } from './target.js';

export { redactSecrets } from './redact.js';

/** One line of a hint: a credential fact's text, or a pointer to a vault entry (never its secret). */
export type HintItem =
  | { readonly kind: 'fact'; readonly text: string }
  | { readonly kind: 'vault'; readonly service: string; readonly type: string };

/** Longest fact line in a hint, in characters (the line is cut at a word and ends with "…"). */
export const MAX_HINT_LINE = 200;

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(line: string): string {
  if (line.length <= MAX_HINT_LINE) return line;
  const cut = line.slice(0, MAX_HINT_LINE - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_HINT_LINE / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function itemLine(item: HintItem): string {
  if (item.kind === 'vault') {
    const service = oneLine(item.service).replace(/`/g, "'");
    const type = oneLine(item.type).replace(/`/g, "'");
    return `Credential for \`${service}\` (\`${type}\`), stored in secure vault, use \`credential_get(service=${service})\` to retrieve.`;
  }
  // Redact before clipping, so a clipped secret cannot survive as a prefix.
  return clip(oneLine(redactSecrets(item.text)));
}

/**
 * The hint text: "💡 Memory has credentials for `<target>`:" and one numbered line per item, joined by
 * "\n" with no trailing newline. No items means no hint: the empty string.
 */
export function formatHint(target: string, items: readonly HintItem[]): string {
  if (items.length === 0) return '';
  const header = `💡 Memory has credentials for \`${oneLine(target).replace(/`/g, "'")}\`:`;
  return [header, ...items.map((item, i) => `${i + 1}. ${itemLine(item)}`)].join('\n');
}

/** The recall query: the target, its aliases, then "credential password token key auth". */
export function searchQuery(target: Target): string {
  return [target.target, ...target.aliases, 'credential', 'password', 'token', 'key', 'auth'].join(' ');
}
