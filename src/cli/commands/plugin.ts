/**
 * hybrid-mem plugin list | install | remove | enable | disable | info | config | run: managing plugins
 * (src/plugins/install.ts) and running the commands they register. None of them loads a plugin's code
 * except `run` and `info --load`. The plugin layer is imported only when one of these runs, so other
 * commands pay nothing for it.
 */
import { escapeTerminal } from '../../core/terminal.js';
import { existsSync, statSync } from 'node:fs';
import { MemoryError, invalidInput } from '../../core/errors.js';
import type { ListedPlugin } from '../../plugins/install.js';
import type { PluginManifest } from '../../plugins/manifest.js';
import { flag, str, usageError } from '../args.js';
import type { CommandSpec } from '../spec.js';

const ops = () => import('../../plugins/install.js');
const registry = () => import('../../plugins/registry.js');

const caps = (m: PluginManifest): string => Object.entries(m.capabilities).filter(([, v]) => v).map(([k]) => k).join(', ') || 'no capabilities';

function summary(p: ListedPlugin): string {
  const state = p.entry.enabled ? 'enabled ' : 'disabled';
  if (!p.manifest) return `${p.entry.id}  ${state}  BROKEN: ${p.error ?? 'unreadable'}`;
  const m = p.manifest;
  return `${m.id}  ${state}  ${m.version}  ${m.policy}  ${caps(m)}  ${m.name}${m.description ? ` - ${m.description}` : ''}`;
}

function asJson(p: ListedPlugin) {
  const m = p.manifest;
  return {
    id: p.entry.id,
    enabled: p.entry.enabled,
    source: p.entry.source,
    installedAt: p.entry.installedAt,
    config: p.entry.config,
    error: p.error,
    ...(m ? { name: m.name, version: m.version, description: m.description, author: m.author, package: m.packageName, policy: m.policy, capabilities: m.capabilities, timeouts: m.timeouts, defaultConfig: m.config, dir: m.dir } : {}),
  };
}

function jsonObject(raw: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw invalidInput(what, 'a JSON object', raw);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidInput(what, 'a JSON object', raw);
  return v as Record<string, unknown>;
}

export const pluginListCommand: CommandSpec = {
  name: 'plugin list',
  summary: 'list installed plugins: id, enabled, version, policy, capabilities',
  args: [],
  options: {},
  async run({ cli }) {
    const all = (await ops()).listPlugins(cli.config().dataDir);
    return { human: all.length ? all.map(summary) : ['no plugins installed (hybrid-mem plugin install <name_or_path> --npm|--local)'], json: { plugins: all.map(asJson) } };
  },
};

export const pluginInstallCommand: CommandSpec = {
  name: 'plugin install',
  summary: 'install a plugin from the npm registry (or a packed .tgz) or from a local folder',
  args: ['<name_or_path>'],
  details: [
    '--npm runs `npm install` into a temp folder (a registry name, name@version, or a .tgz made by `npm pack`); --local copies a folder.',
    'Without either: --local when the argument is an existing folder, else --npm. The package is checked (its package.json',
    '"hybridMem" manifest) before anything is kept: a failed install leaves nothing behind. Installed plugins are enabled',
    'unless --disabled; processes already running (serve) pick changes up when restarted.',
  ],
  options: {
    npm: { type: 'boolean', help: 'install with npm (registry name or packed tarball)' },
    local: { type: 'boolean', help: 'copy a local plugin folder' },
    disabled: { type: 'boolean', help: 'install without enabling it' },
    'plugin-config': { type: 'string', value: 'JSON', help: "the plugin's config (a JSON object over its manifest defaults; --config names hybrid-mem's own config file)" },
  },
  async run({ args, opts, cli }) {
    const spec = args[0] as string;
    if (flag(opts, 'npm') && flag(opts, 'local')) throw usageError('give --npm or --local, not both', 'plugin install');
    const from = flag(opts, 'npm') ? 'npm' : flag(opts, 'local') ? 'local' : isFolder(cli.path(spec)) ? 'local' : 'npm';
    const rawConfig = str(opts, 'plugin-config');
    const config = rawConfig === undefined ? {} : jsonObject(rawConfig, '--plugin-config');
    const { entry, manifest } = await (await ops()).installPlugin(cli.config().dataDir, spec, { from, cwd: cli.io.cwd, disabled: flag(opts, 'disabled'), config, env: cli.io.env });
    const p: ListedPlugin = { entry, manifest, error: null };
    return {
      human: [`installed ${manifest.id} ${manifest.version} (${manifest.policy}; ${caps(manifest)}) from ${entry.source.kind} ${entry.source.spec}; ${entry.enabled ? 'enabled' : 'disabled'}`],
      json: { installed: asJson(p) },
    };
  },
};

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

export const pluginRemoveCommand: CommandSpec = {
  name: 'plugin remove',
  summary: 'uninstall a plugin (its folder is deleted)',
  args: ['<id>'],
  options: {},
  async run({ args, cli }) {
    const e = (await ops()).removePlugin(cli.config().dataDir, args[0] as string);
    return { human: `removed ${e.id}`, json: { removed: e.id } };
  },
};

function toggle(enabled: boolean): CommandSpec {
  const word = enabled ? 'enable' : 'disable';
  return {
    name: `plugin ${word}`,
    summary: enabled ? 'enable an installed plugin (its hooks run from the next command or serve start)' : 'disable a plugin without removing it',
    args: ['<id>'],
    options: {},
    async run({ args, cli }) {
      const { pluginInfo, setEnabled } = await ops();
      const dataDir = cli.config().dataDir;
      const id = args[0] as string;
      // Enabling a plugin whose package no longer reads would make every write fail: check first.
      if (enabled) {
        const p = pluginInfo(dataDir, id);
        if (!p.manifest) throw new MemoryError('MEM_ERR_PLUGIN_MANIFEST', p.error ?? `plugin ${id} cannot be read`);
      }
      const e = setEnabled(dataDir, id, enabled);
      return { human: `${word}d ${e.id}`, json: { id: e.id, enabled: e.enabled } };
    },
  };
}

export const pluginEnableCommand = toggle(true);
export const pluginDisableCommand = toggle(false);

export const pluginInfoCommand: CommandSpec = {
  name: 'plugin info',
  summary: "show a plugin's manifest, state and config (--load: also its hooks, endpoints and commands)",
  args: ['<id>'],
  options: { load: { type: 'boolean', help: 'load the plugin (runs its init) and list what it registers' } },
  async run({ args, opts, cli }) {
    const dataDir = cli.config().dataDir;
    const p = (await ops()).pluginInfo(dataDir, args[0] as string);
    const m = p.manifest;
    const human = [summary(p)];
    if (m) {
      human.push(
        `name: ${m.name}`,
        `version: ${m.version}`,
        `description: ${m.description}`,
        `author: ${m.author}`,
        `package: ${m.packageName} in ${m.dir}`,
        `source: ${p.entry.source.kind} ${p.entry.source.spec}`,
        `policy: ${m.policy}`,
        `capabilities: ${caps(m)}`,
        `timeouts: hook ${m.timeouts.hookMs} ms, init ${m.timeouts.initMs} ms, endpoint ${m.timeouts.endpointMs} ms, command ${m.timeouts.commandMs} ms`,
        `config: ${JSON.stringify({ ...m.config, ...p.entry.config })}`,
      );
    }
    let loaded: unknown = null;
    if (flag(opts, 'load') && m) {
      const { PluginHost } = await import('../../plugins/host.js');
      const host = await PluginHost.start({ svc: cli.service(), plugins: [{ manifest: m, config: { ...m.config, ...p.entry.config } }], log: (line) => void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`) });
      try {
        const s = host.status()[0];
        loaded = s ?? null;
        if (s) {
          human.push(
            s.state === 'loaded' ? 'loaded: yes' : `loaded: no (${s.error ?? 'unknown'})`,
            `hooks: ${s.hooks.join(', ') || 'none'}`,
            `endpoints: ${s.endpoints.map((e) => `/api/plugins/${m.id}${e}`).join(', ') || 'none'}`,
            `commands: ${s.commands.map((c) => `hybrid-mem plugin run ${m.id} ${c}`).join(', ') || 'none'}`,
          );
        }
      } finally {
        await host.close();
      }
    }
    return { human, json: { plugin: asJson(p), loaded } };
  },
};

export const pluginConfigCommand: CommandSpec = {
  name: 'plugin config',
  summary: "show a plugin's config, or replace it with a JSON object",
  args: ['<id>', '[json]'],
  details: ['The manifest\'s defaults stay underneath: `hybrid-mem plugin config secret-guard \'{"mode":"redact"}\'`.'],
  options: {},
  async run({ args, cli }) {
    const { pluginInfo, setPluginConfig } = await ops();
    const { findEntry, readRegistry } = await registry();
    const dataDir = cli.config().dataDir;
    const id = args[0] as string;
    const raw = args[1];
    const entry = raw === undefined ? findEntry(readRegistry(dataDir), id) : setPluginConfig(dataDir, id, jsonObject(raw, 'plugin config'));
    const defaults = pluginInfo(dataDir, id).manifest?.config ?? {};
    const effective = { ...defaults, ...entry.config };
    return { human: JSON.stringify(effective, null, 2), json: { id, config: entry.config, effective } };
  },
};

export const pluginRunCommand: CommandSpec = {
  name: 'plugin run',
  summary: 'run a command a plugin registered (registerCommand); its arguments follow, after -- if they start with -',
  args: ['<id>', '<command>', '[args...]'],
  details: ['Loads only that plugin. Its output is printed as it returned it; the exit code is the one it chose (0 by default).'],
  options: {},
  async run({ args, cli }) {
    const [id, name, ...rest] = args as [string, string, ...string[]];
    const { findEntry, packageDirOf, readRegistry } = await registry();
    const { attachEnabledPlugins } = await import('../../plugins/load.js');
    const dataDir = cli.config().dataDir;
    const entry = findEntry(readRegistry(dataDir), id);
    if (!entry.enabled) throw new MemoryError('MEM_ERR_PLUGIN_DISABLED', `plugin ${id} is disabled (hybrid-mem plugin enable ${id})`);
    const svc = cli.service();
    const host = await attachEnabledPlugins(svc, { only: id, log: (line) => void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`), logLevel: cli.io.env.HYBRID_MEM_DEBUG === '1' ? 'debug' : 'warn' });
    if (!host) throw new MemoryError('MEM_ERR_PLUGIN_NOT_FOUND', `plugin ${id} is not installed in ${packageDirOf(dataDir, entry)}`);
    const out = await host.command(id, name, rest);
    const text = out.output === '' || out.output.endsWith('\n') ? out.output : `${out.output}\n`;
    return { human: text, exact: true, exitCode: out.exitCode, json: { plugin: id, command: name, exitCode: out.exitCode, output: out.output, result: out.json } };
  },
};

export const PLUGIN_COMMANDS: readonly CommandSpec[] = [
  pluginListCommand,
  pluginInstallCommand,
  pluginRemoveCommand,
  pluginEnableCommand,
  pluginDisableCommand,
  pluginInfoCommand,
  pluginConfigCommand,
  pluginRunCommand,
];
