/**
 * The plugin manifest: the package's package.json, with a `hybridMem` section. It is read (and checked)
 * at install time and every time the plugin loads, before any of its code runs:
 *
 *   { "name": "hybrid-mem-secret-guard", "version": "1.0.0", "description": "...", "author": "...",
 *     "type": "module", "main": "index.js",
 *     "hybridMem": { "id": "secret-guard", "policy": "fail-closed",
 *                    "capabilities": { "canModifyFacts": true },
 *                    "timeouts": { "hookMs": 2000 }, "config": { "mode": "veto" } } }
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { describeIssues, issuesMessage } from '../config/issues.js';
import { MemoryError } from '../core/errors.js';
import { PLUGIN_ID_PATTERN } from '../core/plugin-names.js';
import { PLUGIN_POLICIES, type Capability, type PluginPolicy, type SandboxCapability } from './types.js';

const ms = (min: number, max: number, def: number) => z.int().min(min).max(max).default(def);

export const TIMEOUT_DEFAULTS = Object.freeze({ hookMs: 2000, initMs: 10_000, endpointMs: 10_000, commandMs: 60_000 });

const hybridMemSchema = z.strictObject({
  id: z.string().regex(PLUGIN_ID_PATTERN, 'a plugin id: 1-64 of a-z, 0-9 and -, starting with a letter or digit'),
  name: z.string().trim().min(1).max(100).optional(),
  /** The module to load, relative to the package (default: package.json `main`, else index.js). */
  entry: z.string().min(1).max(300).optional(),
  policy: z.enum(PLUGIN_POLICIES).default('fail-open'),
  capabilities: z
    .strictObject({
      canModifyFacts: z.boolean().default(false),
      canInterceptSearch: z.boolean().default(false),
      /** The sandbox: read/write of the plugin's folder (true), plus these paths (a list). */
      fs: z.union([z.boolean(), z.array(z.string().min(1).max(1000)).min(1).max(32)]).default(false),
      /** The sandbox: network connections, servers and DNS. */
      network: z.boolean().default(false),
    })
    .prefault({}),
  timeouts: z
    .strictObject({
      hookMs: ms(10, 60_000, TIMEOUT_DEFAULTS.hookMs),
      initMs: ms(100, 120_000, TIMEOUT_DEFAULTS.initMs),
      endpointMs: ms(10, 120_000, TIMEOUT_DEFAULTS.endpointMs),
      commandMs: ms(10, 3_600_000, TIMEOUT_DEFAULTS.commandMs),
    })
    .prefault({}),
  /** Default config; `hybrid-mem plugin config <id> <json>` overlays it. */
  config: z.record(z.string(), z.unknown()).default({}),
});

const packageSchema = z.looseObject({
  name: z.string().min(1).max(214),
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/, 'a semantic version such as 1.0.0'),
  description: z.string().max(2000).default(''),
  author: z.union([z.string(), z.looseObject({ name: z.string() })]).optional(),
  main: z.string().min(1).max(300).optional(),
  type: z.string().optional(),
  hybridMem: hybridMemSchema,
});

export interface PluginManifest {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly author: string;
  readonly packageName: string;
  readonly policy: PluginPolicy;
  /** What the operator grants: the hook capabilities, and the sandbox's `fs` (any grant) and `network`. */
  readonly capabilities: Readonly<Record<Capability | SandboxCapability, boolean>>;
  /** The `fs` capability's paths besides the plugin's folder: absolute (relative ones resolved against `dir`). */
  readonly fsPaths: readonly string[];
  readonly timeouts: Readonly<Record<keyof typeof TIMEOUT_DEFAULTS, number>>;
  readonly config: Readonly<Record<string, unknown>>;
  /** The package folder. */
  readonly dir: string;
  /** The entry module, absolute, inside `dir`. */
  readonly entry: string;
}

function manifestError(dir: string, message: string, details?: Record<string, unknown>): MemoryError {
  return new MemoryError('MEM_ERR_PLUGIN_MANIFEST', `${join(dir, 'package.json')}: ${message}`, details ? { details } : undefined);
}

/** Read and check the manifest of the plugin package in `dir`. */
export function readManifest(dir: string): PluginManifest {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) throw manifestError(dir, 'no package.json (a plugin is a package whose package.json has a "hybridMem" section)');
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw manifestError(dir, `not valid JSON (${(cause as Error).message})`);
  }
  const r = packageSchema.safeParse(doc);
  if (!r.success) {
    const issues = describeIssues(r.error, doc, 'package.json', 'field');
    throw manifestError(dir, issuesMessage(issues), { issues });
  }
  const p = r.data;
  const h = p.hybridMem;
  const entryRel = h.entry ?? p.main ?? 'index.js';
  const entry = resolve(dir, entryRel);
  const inside = (path: string): boolean => {
    const rel = relative(realpathSync(dir), path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  if (!existsSync(entry) || !statSync(entry).isFile()) throw manifestError(dir, `the entry module ${entryRel} does not exist`, { path: 'hybridMem.entry', expected: 'a file in the package', received: entryRel });
  if (!inside(realpathSync(entry))) throw manifestError(dir, `the entry module ${entryRel} is outside the package`, { path: 'hybridMem.entry', expected: 'a file in the package', received: entryRel });
  if (!/\.m?js$/.test(entry)) throw manifestError(dir, `the entry module ${entryRel} is not a .js or .mjs file (plugins are ES modules)`);
  if (/\.js$/.test(entry) && p.type !== 'module') throw manifestError(dir, 'a .js entry needs "type": "module" (plugins are ES modules)', { path: 'type', expected: '"module"', received: String(p.type ?? 'nothing') });
  return Object.freeze({
    id: h.id,
    name: h.name ?? p.name,
    version: p.version,
    description: p.description,
    author: typeof p.author === 'string' ? p.author : (p.author?.name ?? ''),
    packageName: p.name,
    policy: h.policy,
    capabilities: Object.freeze({ ...h.capabilities, fs: h.capabilities.fs !== false }),
    fsPaths: Object.freeze(Array.isArray(h.capabilities.fs) ? h.capabilities.fs.map((p) => resolve(dir, p)) : []),
    timeouts: Object.freeze({ ...h.timeouts }),
    config: Object.freeze({ ...h.config }),
    dir,
    entry,
  });
}
