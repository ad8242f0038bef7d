/**
 * Just enough of a shell reader to find the commands an agent ran: command lines in free text (a tool
 * call's arguments, a `$ ` line in captured output, a backticked command in a prompt), split into simple
 * commands (on `&&`, `||`, `;`, `|`), each as words with quotes removed, wrappers (`sudo`, `env`,
 * `timeout 10`, `sshpass -p x`, ...) and leading `NAME=value` assignments taken off. Bounded: lines,
 * words and nesting are capped, so a huge paste costs a fixed amount. Pure.
 */

/** One simple command: its program (basename, lower case), its words after the program, its env assignments. */
export interface SimpleCommand {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Position of the command's line in the text it was read from. */
  readonly index: number;
}

const MAX_LINE = 2_000;
const MAX_WORDS = 64;
const MAX_COMMANDS = 64;
const MAX_DEPTH = 2;

/** Split a line into words the way a POSIX shell would for simple cases: quotes grouped, `\x` escapes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  const text = line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
  for (let i = 0; i < text.length && words.length < MAX_WORDS; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '$' && text[i + 1] === '(') {
      // A command substitution stays inside its word: PGPASSWORD=$(cat ~/.pg_ro) psql ...
      const close = text.indexOf(')', i + 2);
      const end = close < 0 ? text.length - 1 : close;
      cur += text.slice(i, end + 1);
      inWord = true;
      i = end;
    } else if (ch === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else if (ch === ';' || ch === '|' || ch === '&') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      // Keep the operator as its own word: it ends a simple command.
      const two = text.slice(i, i + 2);
      if (two === '&&' || two === '||') i++;
      words.push(ch === '&' && two !== '&&' ? '&' : ';');
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord && words.length < MAX_WORDS) words.push(cur);
  return words;
}

/** Words that run the command after them (with their own options skipped). */
const WRAPPERS: Readonly<Record<string, readonly string[]>> = {
  sudo: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t'],
  doas: ['-u', '-C'],
  env: ['-u', '-C', '-S'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  nice: ['-n'],
  nohup: [],
  time: ['-f', '-o'],
  exec: [],
  command: [],
  stdbuf: ['-i', '-o', '-e'],
  sshpass: ['-p', '-f', '-d', '-P'],
  npx: [],
  unbuffer: [],
  xargs: ['-I', '-n', '-P', '-d', '-L', '-s', '-E'],
  watch: ['-n', '-d'],
  proxychains: ['-f'],
  proxychains4: ['-f'],
  torsocks: [],
};

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]{0,63})=(.*)$/s;

function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return (slash >= 0 ? word.slice(slash + 1) : word).toLowerCase();
}

/** The simple commands of one line of words, wrappers and assignments taken off. */
function commandsOfWords(words: readonly string[], index: number, out: SimpleCommand[], depth: number): void {
  let start = 0;
  for (let i = 0; i <= words.length; i++) {
    if (i < words.length && words[i] !== ';' && words[i] !== '&') continue;
    if (i > start) simple(words.slice(start, i), index, out, depth);
    start = i + 1;
  }
}

function simple(words: readonly string[], index: number, out: SimpleCommand[], depth: number): void {
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] as string;
    const a = ASSIGNMENT.exec(w);
    if (a) {
      env[a[1] as string] = a[2] as string;
      continue;
    }
    const wrapper = WRAPPERS[basename(w)];
    if (!wrapper) break;
    // Skip the wrapper's own options (and the value of those that take one), and timeout's duration.
    for (i++; i < words.length; i++) {
      const o = words[i] as string;
      if (wrapper.includes(o)) i++;
      else if (!(o.startsWith('-') || (basename(w) === 'timeout' && /^\d+(?:\.\d+)?[smhd]?$/.test(o)))) break;
    }
    i--;
  }
  const prog = words[i];
  if (prog === undefined || out.length >= MAX_COMMANDS) return;
  const program = basename(prog);
  const args = words.slice(i + 1);
  out.push({ program, args, env, index });
  // A command run through a shell or another host: its quoted script is a command too
  // (`bash -c "psql -h db"`, `ssh bastion 'psql -h db'`, `kubectl exec pod -- psql -h db`).
  if (depth >= MAX_DEPTH) return;
  for (const a of args) {
    if (a.includes(' ') && /[a-z]/i.test(a)) commandsOfWords(shellWords(a), index, out, depth + 1);
  }
  const dashdash = args.indexOf('--');
  if (dashdash >= 0 && dashdash < args.length - 1) simple(args.slice(dashdash + 1), index, out, depth + 1);
  else {
    const inner = containerCommand(program, args);
    if (inner) simple(inner, index, out, depth + 1);
  }
}

const CONTAINER_CLIS = new Set(['docker', 'podman', 'nerdctl']);
/** Options of `docker exec`/`run` that take no value. */
const CONTAINER_FLAGS = new Set(['-i', '-t', '-T', '-it', '-ti', '-d', '--rm', '--interactive', '--tty', '--detach', '--privileged', '--init', '--read-only']);

/** The command run inside a container: `docker exec -i db psql -h x` -> `psql -h x` (same for `run IMAGE cmd`). */
function containerCommand(program: string, all: readonly string[]): string[] | null {
  // `docker compose exec SERVICE cmd` and `docker-compose exec SERVICE cmd` read like `docker exec`.
  const args = program === 'docker-compose' || all[0] === 'compose' ? all.slice(program === 'docker-compose' ? 0 : 1) : all;
  if ((!CONTAINER_CLIS.has(program) && program !== 'docker-compose') || (args[0] !== 'exec' && args[0] !== 'run')) return null;
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith('-')) break;
    if (!CONTAINER_FLAGS.has(a) && !a.includes('=')) i++;
  }
  const rest = args.slice(i + 1);
  return rest.length > 0 ? rest : null;
}

/** Prompt markers a captured command line starts with: `$ `, `# `, `> `, `PS C:\> `, `user@host:~$ `. */
const PROMPT_PREFIX = /^\s{0,8}(?:[\w.-]{1,32}@[\w.-]{1,64}:[^\s$#]{0,120}[$#]\s|\(\w[\w.-]{0,30}\)\s)?(?:[$#%>❯]\s+|PS [^>\n]{0,80}>\s+)/;

/** The simple commands of a command string (a tool call's `command`, a script): every line. */
export function commandsOfScript(script: string, index = 0): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let at = 0;
  for (const raw of script.split('\n', 200)) {
    const line = raw.replace(PROMPT_PREFIX, '');
    if (line.trim() !== '') commandsOfWords(shellWords(line.replace(/\\$/, '')), index + at, out, 0);
    at += raw.length + 1;
    if (out.length >= MAX_COMMANDS) break;
  }
  return out;
}

/**
 * Command lines inside free text: lines that start with a prompt marker (`$ psql -h db`), inline code
 * spans and fenced code blocks of a prompt (`` `ssh admin@web1` ``). Lines of captured output are not
 * commands unless marked so; `known(program)` decides whether an unmarked code span is a command.
 */
export function commandsInText(text: string, known: (program: string) => boolean): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let at = 0;
  let fenced = false;
  for (const line of text.split('\n', 5_000)) {
    if (/^\s{0,3}(?:```|~~~)/.test(line)) fenced = !fenced;
    else if (PROMPT_PREFIX.test(line)) out.push(...commandsOfScript(line, at));
    else if (fenced) out.push(...commandsOfScript(line, at).filter((c) => known(c.program)));
    else if (line.includes('`')) {
      for (const m of line.matchAll(/`([^`\n]{2,400})`/g)) {
        out.push(...commandsOfScript(m[1] ?? '', at + (m.index ?? 0)).filter((c) => known(c.program)));
      }
    }
    at += line.length + 1;
    if (out.length >= MAX_COMMANDS) break;
  }
  return out;
}
