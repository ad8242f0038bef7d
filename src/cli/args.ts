/**
 * Argument parsing with node:util parseArgs (strict): finding the command, parsing its options, and
 * turning option strings into checked values. Every failure is a MemoryError with a one-line message.
 */
import { parseArgs } from 'node:util';
import { MemoryError, invalidInput } from '../core/errors.js';
import type { CommandSpec, OptionSpec, OptionValues } from './spec.js';

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  db: { type: 'string', value: 'PATH', help: 'database file; its folder is the data dir (default: $HYBRID_MEM_HOME/memory.db, else ~/.hybrid-mem/memory.db)' },
  config: { type: 'string', value: 'PATH', help: 'gateway-shaped JSON config file (default: <data dir>/config.json when it exists)' },
  json: { type: 'boolean', help: 'machine-readable JSON on stdout; errors as one JSON line on stderr' },
  help: { type: 'boolean', short: 'h', help: 'show help for the command' },
  version: { type: 'boolean', help: 'print the version' },
};

/** A usage error: unknown command or option, missing or extra argument. Always points at --help. */
export function usageError(message: string, command?: string): MemoryError {
  const hint = command ? `hybrid-mem ${command} --help` : 'hybrid-mem --help';
  return new MemoryError('MEM_ERR_USAGE', `${message} (see: ${hint})`);
}

/**
 * Split argv into the command words (one, or two for a group such as "vault put") and the rest.
 * Global options may come before the command; command options come after it.
 */
export function splitCommand(argv: readonly string[], groups: ReadonlySet<string>): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    const wanted = words.length === 0 || (words.length === 1 && groups.has(words[0] as string));
    if (wanted && !a.startsWith('-')) {
      words.push(a);
      continue;
    }
    rest.push(a);
    const takesValue = (a === '--db' || a === '--config') && wanted;
    if (takesValue && i + 1 < argv.length) rest.push(argv[++i] as string);
  }
  return { words, rest: [...rest, ...argv.slice(i)] };
}

export interface Parsed {
  readonly args: string[];
  readonly opts: OptionValues;
}

/** Parse the arguments after the command words against the command's options (plus the global ones). */
export function parseCommandArgs(spec: Pick<CommandSpec, 'name' | 'options' | 'args' | 'refuseExtra'>, rest: readonly string[]): Parsed {
  const all = { ...GLOBAL_OPTIONS, ...spec.options };
  const options = Object.fromEntries(
    Object.entries(all).map(([k, o]) => [k, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]),
  );
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options, strict: true, allowPositionals: true }) as { values: OptionValues; positionals: string[] };
  } catch (err) {
    throw usageError(describeParseError(err), spec.name);
  }
  const { values, positionals } = parsed;
  if (values.help || values.version) return { args: positionals, opts: values };
  const required = spec.args.filter((a) => a.startsWith('<')).length;
  if (positionals.length < required) {
    throw usageError(`missing argument ${spec.args[positionals.length] ?? ''} for "${spec.name}"`, spec.name);
  }
  // A last argument written "[name...]" takes the rest (a plugin command's own arguments).
  const variadic = spec.args.at(-1)?.endsWith('...]') === true;
  if (!variadic && positionals.length > spec.args.length) {
    if (spec.refuseExtra) throw usageError(spec.refuseExtra, spec.name);
    throw usageError(`unexpected argument ${JSON.stringify(positionals[spec.args.length])} for "${spec.name}"`, spec.name);
  }
  return { args: positionals, opts: values };
}

function describeParseError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: string } | null)?.code;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (!option) return firstSentence(message);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (/argument missing/.test(message)) return `option ${option} needs a value`;
  if (/ambiguous/.test(message)) return `option ${option} needs a value (write ${option}=VALUE for a value starting with "-")`;
  if (/does not take an argument/.test(message)) return `option ${option} takes no value`;
  return firstSentence(message);
}

const firstSentence = (s: string): string => (s.split(/\.\s|\n/)[0] ?? s).trim();

// Typed access to option values. Options are declared per command, so a wrong type is a programming error.

export const str = (o: OptionValues, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
export const flag = (o: OptionValues, k: string): boolean => o[k] === true;
export const list = (o: OptionValues, k: string): string[] | undefined => (Array.isArray(o[k]) ? [...(o[k] as readonly string[])] : undefined);

/** A finite number, or MEM_ERR_INVALID_INPUT naming the option. Range checks are the service's. */
export function num(o: OptionValues, k: string): number | undefined {
  const raw = str(o, k);
  if (raw === undefined) return undefined;
  const n = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n)) throw invalidInput(`--${k}`, 'a number', raw);
  return n;
}

/** An integer within [min, max]. */
export function int(o: OptionValues, k: string, min: number, max: number): number | undefined {
  const n = num(o, k);
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < min || n > max) throw invalidInput(`--${k}`, `an integer from ${min} to ${max}`, str(o, k));
  return n;
}

/** Epoch milliseconds (digits) or an ISO-8601 date or date-time, as epoch milliseconds. */
export function time(o: OptionValues, k: string): number | undefined {
  const raw = str(o, k);
  if (raw === undefined) return undefined;
  const ms = /^\d+$/.test(raw.trim()) ? Number(raw) : /^\d{4}-\d\d-\d\d/.test(raw.trim()) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw invalidInput(`--${k}`, 'epoch milliseconds or an ISO-8601 date-time', raw);
  return ms;
}

/** One of a fixed set. */
export function oneOf<T extends string>(o: OptionValues, k: string, set: readonly T[]): T | undefined {
  const raw = str(o, k);
  if (raw === undefined) return undefined;
  if (!(set as readonly string[]).includes(raw)) throw invalidInput(`--${k}`, `one of ${set.join(', ')}`, raw);
  return raw as T;
}
