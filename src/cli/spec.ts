/** The shapes every CLI command shares: its declaration, what it receives and what it returns. */
import type { ResolvedConfig } from '../config/resolve.js';
import type { MemoryService } from '../memory/service.js';

/** Where output goes; process.stdout/stderr fit, and so does a test's string collector. */
export interface Output {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

/** A readable byte/string stream (process.stdin, or a test's Readable). */
export type Input = AsyncIterable<string | Buffer> & { readonly isTTY?: boolean };

/** Everything the CLI touches of its process, so tests can run it in-process. */
export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Defaults to process.stdin. */
  readonly stdin?: Input;
  /** Aborting it stops a long-running command (serve) as SIGINT/SIGTERM do. */
  readonly signal?: AbortSignal;
}

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  /** Placeholder shown in help, e.g. "N" in "--limit N". */
  readonly value?: string;
  readonly help: string;
}

export type OptionValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/** What a command receives: its positionals (count already checked), options and the CLI session. */
export interface CommandInput {
  readonly args: readonly string[];
  readonly opts: OptionValues;
  readonly cli: CliSession;
}

/** Output of a command: text for people, a value for --json (printed as one line on stdout). */
export interface CommandResult {
  readonly human: string | readonly string[];
  readonly json: unknown;
  /** Default 0. */
  readonly exitCode?: number;
  /** Where the human text goes (default stdout). */
  readonly humanTo?: 'stdout' | 'stderr';
  /** Write the human text exactly as given, with no newline added (a secret for a pipe). */
  readonly exact?: boolean;
  /**
   * Bytes that must reach a pipe unchanged (a secret, a JSON document): the human text is not passed
   * through escapeTerminal. Everything else a person reads is (src/core/terminal.ts).
   */
  readonly raw?: boolean;
  /** Print the JSON pretty (documents such as an export); default one line. */
  readonly pretty?: boolean;
  /** The command streamed its own output (JSON Lines): print nothing more. */
  readonly silent?: boolean;
}

export interface CommandSpec {
  /** "store", or "vault put" for a command in a group. */
  readonly name: string;
  readonly summary: string;
  /** Positional arguments for help and for counting: "<text>" is required, "[file]" optional, a last "[args...]" takes the rest. */
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** The message for arguments beyond `args`, when echoing them would be wrong (a secret). */
  readonly refuseExtra?: string;
  /** More help text, shown under the usage line. */
  readonly details?: readonly string[];
  run(input: CommandInput): Promise<CommandResult> | CommandResult;
}

/** The per-invocation session: config and service are opened lazily, and closed by `run`. */
export interface CliSession {
  readonly io: Io;
  readonly json: boolean;
  config(): ResolvedConfig;
  service(): MemoryService;
  /**
   * The service with the enabled plugins loaded and attached (their hooks run in store, edit, delete,
   * recall and maintenance). Costs one existsSync when no plugin is installed.
   */
  serviceWithPlugins(logLevel?: 'warn' | 'info'): Promise<MemoryService>;
  /** The whole of stdin as UTF-8. */
  readStdin(): Promise<string>;
  /** Resolve a user-given path against the invocation's working directory. */
  path(p: string): string;
}
