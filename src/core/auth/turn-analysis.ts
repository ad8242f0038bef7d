/**
 * One agent turn read as a whole (issue 15): which text shows the newest authentication failure, and
 * which host the agent addressed when it failed. A turn is a list of segments, oldest first: earlier
 * messages, the tool calls (their arguments as text) and the tool results they produced, and the prompt.
 *
 * - Failures are looked for in prompts, user messages and tool results (never in the agent's own prose or
 *   its tool calls), newest first.
 * - The target comes from the command that produced the failing text (its tool call, or a `$ ` line in the
 *   text), then from the failing text, then from the service a cloud CLI implies (`az` -> azure); when
 *   none names one, from the newest earlier segment that does (a command in the prompt, an earlier
 *   failure), then from later ones; a documentation link of the failing text is the last resort.
 * - Context decides a bare `Permission denied`: right after an ssh/scp/sftp/rsync command it is an SSH
 *   authentication failure; after `cat` or `open()` it is a file error and nothing is detected.
 */
import { clientFamily, defaultService, isClientProgram } from './client-families.js';
import { addressedHosts, hostOfWord } from './client-hosts.js';
import { detect, type AuthPattern, type Detection } from './patterns.js';
import { commandsInText, commandsOfScript, type SimpleCommand } from './shell-words.js';
import { extractTarget, targetFromCommands, type Target } from './target.js';

export const SEGMENT_ROLES = ['prompt', 'user', 'assistant', 'call', 'result', 'other'] as const;
export type SegmentRole = (typeof SEGMENT_ROLES)[number];

/** One piece of a turn. A tool result carries the text of the call that produced it in `call`. */
export interface Segment {
  readonly role: SegmentRole;
  readonly text: string;
  readonly call: string | null;
}

export interface TurnAnalysis {
  readonly detection: Detection | null;
  readonly target: Target | null;
  /** Index of the failing segment, or -1. */
  readonly segment: number;
}

const BARE_DENIED = /^(?:[^\s:/]{1,100}: ?)?Permission denied\.?[ \t]*$/m;
/** A status code alone on its line, as `curl -w '%{http_code}'` prints it. */
const BARE_STATUS = /^(?:HTTP )?40[137][ \t]*$/m;

/** True for the segments a failure can be printed in. */
export function scanned(role: SegmentRole): boolean {
  return role !== 'assistant' && role !== 'call';
}

/** The commands behind a segment: its tool call, else command lines written in it (before `end`). */
function commandsOf(seg: Segment, end = seg.text.length): SimpleCommand[] {
  const fromCall = seg.call ? commandsOfScript(seg.call) : [];
  if (seg.role === 'call') return commandsOfScript(seg.text);
  return [...fromCall, ...commandsInText(seg.text.slice(0, end), isClientProgram)];
}

/** The newest commands of the turn at or before segment i (its own, else the closest earlier ones). */
function commandsBefore(segments: readonly Segment[], i: number): SimpleCommand[] {
  for (let j = i; j >= 0; j--) {
    const seg = segments[j] as Segment;
    const cmds = commandsOf(seg).filter((c) => addressedHosts(c).length > 0);
    if (cmds.length > 0) return cmds;
  }
  return [];
}

/**
 * Words that mean a failure only after a certain client (context rules of the built-in set): a bare
 * `Permission denied` after ssh/scp/sftp/rsync, a bare 401/403/407 line after an HTTP client
 * (`curl -s -o /dev/null -w '%{http_code}' ...`).
 */
const CONTEXT_RULES: ReadonlyArray<{ readonly id: string; readonly family: 'ssh' | 'http'; readonly re: RegExp }> = [
  { id: 'ssh-permission-denied-bare', family: 'ssh', re: BARE_DENIED },
  { id: 'http-bare-status', family: 'http', re: BARE_STATUS },
];

function inContext(segments: readonly Segment[], i: number): Detection | null {
  const text = (segments[i] as Segment).text;
  for (const rule of CONTEXT_RULES) {
    const m = rule.re.exec(text);
    if (m && commandsBefore(segments, i).some((c) => clientFamily(c.program) === rule.family)) {
      return { patternId: rule.id, family: rule.family, match: m[0].trim(), index: m.index };
    }
  }
  return null;
}

/**
 * True when a later tool result of the turn ran the same client against the same host (or, when the
 * command names no host, the same client) and did not fail: the agent already got in (a retry with the
 * right key, a refreshed token), so the older failure needs no hint.
 */
function resolvedLater(segments: readonly Segment[], i: number, target: Target, patterns: readonly AuthPattern[]): boolean {
  const names = new Set([target.target, ...target.aliases]);
  const failing = segments[i] as Segment;
  const clients = new Set(commandsOf(failing).map((c) => c.program).filter(isClientProgram));
  for (let j = i + 1; j < segments.length; j++) {
    const seg = segments[j] as Segment;
    if (seg.role !== 'result') continue;
    const cmds = commandsOf(seg);
    const hosts = cmds.flatMap(addressedHosts).map((h) => h.host);
    const same = hosts.some((h) => names.has(h)) || (hosts.length === 0 && cmds.some((c) => clients.has(c.program)));
    if (same && detect(seg.text, patterns) === null) return true;
  }
  return false;
}

/**
 * Log viewers: the HTTP statuses they print are a service's traffic (`journalctl`, `kubectl logs`, `tail
 * access.log`), not the agent's own failure; a service's own failed login in its log (a broker refusing
 * it) and the outer client's refusal (`ssh host 'journalctl ...'`) still count.
 */
const LOG_FILE = /\.log\b|\/var\/log\/|access_log|error_log/;
function isLogViewer(c: SimpleCommand): boolean {
  return c.program === 'journalctl' || ((c.args[0] === 'logs' || (c.args[0] === 'compose' && c.args[1] === 'logs')) && ['kubectl', 'oc', 'docker', 'podman'].includes(c.program)) ||
    (['tail', 'head', 'less', 'cat', 'zcat', 'grep', 'zgrep', 'rg', 'awk'].includes(c.program) && c.args.some((a) => LOG_FILE.test(a)));
}

function inLogs(seg: Segment, detection: Detection): boolean {
  if (seg.role !== 'result' || !seg.call || detection.family !== 'http') return false;
  return commandsOfScript(seg.call).some(isLogViewer);
}

/** A question in the user's words ("should the API answer 401 or 403 for an expired token?") reports nothing. */
function inQuestion(seg: Segment, detection: Detection): boolean {
  if (seg.role !== 'prompt' && seg.role !== 'user') return false;
  const end = seg.text.slice(detection.index).search(/[.!?\n]/);
  return end >= 0 && seg.text[detection.index + end] === '?';
}

/** The host of the newest setting of the turn that `re` captures (its first group), in calls or texts. */
function newestSetting(segments: readonly Segment[], re: RegExp): Target | null {
  for (let j = segments.length - 1; j >= 0; j--) {
    const seg = segments[j] as Segment;
    const m = re.exec(`${seg.call ?? ''}\n${seg.text}`);
    const host = m ? hostOfWord(m[1] ?? '') : null;
    if (host) return { target: host, kind: 'host', aliases: [] };
  }
  return null;
}

/** A proxy the turn shows (`https_proxy=http://proxy:3128` in an environment listing or a command). */
const PROXY_SETTING = /\b(?:https?|all)_proxy=["']?([a-z][\w+.-]{1,15}:\/\/[^\s"']{1,300}|[\w.-]{1,253}:\d{1,5})/i;

/**
 * The endpoint an SDK was pointed at, when the turn shows it (`OPENAI_BASE_URL=https://llm-proxy/v1` for an
 * `openai` error): the host the agent's code actually called, rather than the vendor's name.
 */
function sdkEndpoint(segments: readonly Segment[], service: string): Target | null {
  const name = service.replace(/[^a-z0-9]/gi, '');
  return newestSetting(segments, new RegExp(`\\b${name}_(?:BASE_URL|API_BASE|API_URL|ENDPOINT|HOST)["']?\\s{0,2}[=:]\\s{0,2}["']?([a-z][\\w+.-]{1,15}:\\/\\/[^\\s"']{1,300})`, 'i'));
}

/** The failing segment's own target: its command's host, else the names its text gives (no doc links). */
function targetOf(seg: Segment, detection: Detection): Target | null {
  return targetFromCommands(commandsOf(seg, detection.index), seg.text, detection) ?? extractTarget(seg.text, detection, { docs: false });
}

/** A host named by another segment: its commands first, then the names its text gives (no doc links). */
function targetElsewhere(seg: Segment, failing: Segment, detection: Detection): Target | null {
  const fromCommands = targetFromCommands(commandsOf(seg), failing.text, detection);
  if (fromCommands || seg.role === 'call') return fromCommands;
  return extractTarget(seg.text, null, { docs: false });
}

/** The service a cloud or SaaS CLI talks to when its command names no host (`az` -> azure). */
function serviceOfCommand(seg: Segment): Target | null {
  for (const c of commandsOf(seg)) {
    const service = defaultService(c.program);
    if (service) return { target: service, kind: 'service', aliases: [] };
  }
  return null;
}

/**
 * The newest failure of a turn and its target. `builtin` says whether `patterns` is the built-in set
 * (context rules such as the bare SSH `Permission denied` apply only to it).
 */
export function analyzeTurn(segments: readonly Segment[], patterns: readonly AuthPattern[], builtin: boolean): TurnAnalysis {
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i] as Segment;
    if (!scanned(seg.role)) continue;
    const detection = detect(seg.text, patterns) ?? (builtin ? inContext(segments, i) : null);
    if (!detection || (builtin && (inLogs(seg, detection) || inQuestion(seg, detection)))) continue;
    // A proxy's 407 with no proxy on the command line is about the proxy the environment names.
    const proxied = /\b407\b|Proxy Auth/i.test(detection.match) && !commandsOf(seg).flatMap(addressedHosts).some((h) => h.proxy) ? newestSetting(segments, PROXY_SETTING) : null;
    const found = proxied ?? targetOf(seg, detection) ?? serviceOfCommand(seg);
    const own = found?.kind === 'service' ? (sdkEndpoint(segments, found.target) ?? found) : found;
    if (own && resolvedLater(segments, i, own, patterns)) return { detection: null, target: null, segment: -1 };
    if (own) return { detection, target: own, segment: i };
    const order = [...Array.from({ length: i }, (_, k) => i - 1 - k), ...Array.from({ length: segments.length - i - 1 }, (_, k) => i + 1 + k)];
    for (const j of order) {
      const t = targetElsewhere(segments[j] as Segment, seg, detection);
      if (t) return { detection, target: t, segment: i };
    }
    // Last resort: a documentation or account link of the failing text itself.
    return { detection, target: extractTarget(seg.text, detection), segment: i };
  }
  return { detection: null, target: null, segment: -1 };
}
