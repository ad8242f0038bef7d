/**
 * The `hybrid-mem` command line. `run` is the whole CLI as a function of argv and an Io (tests call it
 * in-process); `main` is the process entry bin/hybrid-mem.js calls.
 *
 * Exit codes: 0 ok, 2 a malformed command line (MEM_ERR_USAGE: nothing ran), 1 any other error (bad input,
 * unknown id, start-up failures such as MEM_ERR_NATIVE_UNAVAILABLE, database errors, bugs); the code on
 * stderr says which.
 */
import { parseCommandArgs, splitCommand, usageError } from './args.js';
import { COMMANDS, GROUPS, findCommand } from './commands/index.js';
import { commandHelp, groupHelp, mainHelp } from './help.js';
import { printResult, reportError } from './report.js';
import { createSession, type OpenSession } from './session.js';
import type { CommandSpec, Io } from './spec.js';
import { packageVersion } from '../config/package.js';
import { stopperUsed } from './stopper.js';

export type { Io } from './spec.js';

/** Run one CLI invocation; resolves with the exit code. Never throws. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const end = argv.indexOf('--');
  const json = (end === -1 ? argv : argv.slice(0, end)).includes('--json');
  let session: OpenSession | null = null;
  try {
    const { words, rest } = splitCommand(argv, GROUPS);
    const spec = pickCommand(words, rest, io);
    if (typeof spec === 'number') return spec;
    const { args, opts } = parseCommandArgs(spec, rest);
    if (opts.version) return say(io, version());
    if (opts.help) return say(io, commandHelp(spec));
    session = createSession(io, opts);
    const result = await spec.run({ args, opts, cli: session });
    printResult(result, io, json);
    return result.exitCode ?? 0;
  } catch (err) {
    return reportError(err, io, json);
  } finally {
    await session?.close();
  }
}

/** The command the words name, or an exit code when help or the version was printed instead. */
function pickCommand(words: readonly string[], rest: readonly string[], io: Io): CommandSpec | number {
  const [first, second] = words;
  if (first === undefined) {
    const { opts } = parseCommandArgs({ name: '', args: [], options: {} }, rest);
    if (opts.version) return say(io, version());
    if (opts.help) return say(io, mainHelp(COMMANDS));
    throw usageError('missing command');
  }
  if (GROUPS.has(first)) {
    if (second === undefined) {
      const { opts } = parseCommandArgs({ name: first, args: [], options: {} }, rest);
      if (opts.help) return say(io, groupHelp(first, COMMANDS));
      throw usageError(`missing ${first} command (${subcommands(first)})`, first);
    }
    const spec = findCommand(`${first} ${second}`);
    if (!spec) throw usageError(`unknown command "${first} ${second}" (${first} commands: ${subcommands(first)})`, first);
    return spec;
  }
  const spec = findCommand(first);
  if (!spec) throw usageError(`unknown command ${JSON.stringify(first)}`);
  return spec;
}

const subcommands = (group: string): string =>
  COMMANDS.filter((c) => c.name.startsWith(`${group} `))
    .map((c) => c.name.slice(group.length + 1))
    .join(', ');

function say(io: Io, text: string): number {
  io.stdout.write(`${text}\n`);
  return 0;
}

function version(): string {
  return `hybrid-mem ${packageVersion()}`;
}

/** The process entry: runs the CLI on process.argv and sets process.exitCode. */
export async function main(): Promise<void> {
  // A reader that goes away (`hybrid-mem export | head`) is not an error of ours.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
  // A long-running command (serve, mcp) has closed the store and stopped its workers by now: a handle a
  // library left open (a stdin pipe, a socket) must not keep the process, so it exits at the latest after
  // EXIT_GRACE_MS. One-shot commands end on their own (their output to a pipe is still being flushed).
  if (stopperUsed()) setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}

/** How long a stopped long-running command may take to exit after its cleanup finished. */
const EXIT_GRACE_MS = 500;
