// What a secret looks like: each rule names what it found (for the message; never the value) and the
// vault type to suggest. Kept in step with hybrid-mem's own hint redaction (src/core/auth/redact.ts),
// but standalone: a plugin is its own package. Over-matching a long random identifier is the safe failure.

/** A value that only stands for a secret: a placeholder, an environment variable, already redacted. */
const PLACEHOLDER = /^(?:\[redacted\]|<.*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\*+|x+|\.{3}|changeme|redacted|none|null|empty|example)$/i;

/** @type {readonly { kind: string; type: string; re: RegExp; value?: number }[]} */
export const RULES = [
  { kind: 'a private key block', type: 'ssh_key', re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\s\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[A-Za-z0-9+/=\s]{0,20000})/g },
  { kind: 'an AWS access key id', type: 'api_key', re: /\b(?:AKIA|ASIA|AROA|AIDA)[A-Z0-9]{16}\b/g },
  { kind: 'a GitHub token', type: 'token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,255}\b|\bgithub_pat_[A-Za-z0-9_]{20,255}/g },
  { kind: 'a Slack token', type: 'token', re: /\bxox[abposr]-[A-Za-z0-9-]{8,255}/g },
  { kind: 'a Slack webhook URL', type: 'token', re: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{16,255}/g },
  { kind: 'an API secret key', type: 'api_key', re: /\b(?:sk|rk)[-_](?:live_|test_|proj-|ant-)?[A-Za-z0-9_-]{16,255}/g },
  { kind: 'a Google API key', type: 'api_key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'a JSON Web Token', type: 'token', re: /\beyJ[A-Za-z0-9_-]{4,4096}\.[A-Za-z0-9_-]{4,4096}\.[A-Za-z0-9_-]{4,4096}/g },
  { kind: 'a bearer token', type: 'token', re: /\bBearer\s+([A-Za-z0-9._~+/=-]{12,4096})/g, value: 1 },
  { kind: 'a password in a URL', type: 'password', re: /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/@:'"<>]{1,256}:([^\s/@'"<>]{1,256})@/gi, value: 1 },
  {
    kind: 'a password or secret assignment',
    type: 'password',
    re: /(?<![A-Za-z0-9])(?:pass(?:word|wd|phrase)?|pwd|secret|client_secret|(?:access_|refresh_|auth_|api_)?token|api[ _-]?key|apikey)\s{0,3}[:=]\s{0,3}(?:"([^"\n]{1,4096})"|'([^'\n]{1,4096})'|([^\s"',;]{1,4096}))/gi,
    value: [1, 2, 3],
  },
];

/** The secret-looking values in `text`: [{ kind, type, start, end }] (the span of the value), in text order. */
export function findSecrets(text) {
  const found = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m !== null; m = rule.re.exec(text)) {
      let start = m.index;
      let end = m.index + m[0].length;
      if (rule.value !== undefined) {
        const groups = Array.isArray(rule.value) ? rule.value : [rule.value];
        const g = groups.find((k) => m[k] !== undefined);
        const value = g === undefined ? undefined : m[g];
        if (value === undefined || PLACEHOLDER.test(value)) continue;
        start = m.index + m[0].lastIndexOf(value);
        end = start + value.length;
      }
      if (end > start) found.push({ kind: rule.kind, type: rule.type, start, end });
      if (m[0].length === 0) rule.re.lastIndex++;
    }
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** `text` with every finding (overlapping ones merged) replaced by "[redacted]". */
export function redact(text, findings) {
  let out = '';
  let at = 0;
  for (const f of findings) {
    if (f.end <= at) continue;
    out += text.slice(at, Math.max(at, f.start)) + (f.start >= at ? '[redacted]' : '');
    at = f.end;
  }
  return out + text.slice(at);
}
