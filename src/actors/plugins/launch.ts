/**
 * Starting a plugin's process under Node's permission model. Node 20 spells the switch
 * `--experimental-permission`, Node 22 and later `--permission` (Node 24 no longer knows the old name):
 * we ask this Node which one it accepts. With it, everything not granted is refused: file reads outside
 * `--allow-fs-read` (the host's code and the plugin's folder), every file write (no `--allow-fs-write`
 * unless the `fs` capability grants one), child processes, worker threads, WASI, the inspector and
 * process.binding; `--no-addons` refuses native addons on every version. The network is not part of
 * Node's model: guard.ts locks it inside the process (`--hybrid-mem-network` skips that).
 *
 * The process gets no environment (the service's may hold tokens or a vault passphrase), no execArgv of
 * ours (no loaders), a 512 MB heap, and its stdout and stderr both go to our stderr: a plugin's output
 * never mixes with a command's (MCP speaks on stdout).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { SandboxSpec } from './contract.js';
import type { HostCode } from './host-code.js';

/** The permission switch this Node accepts. */
export function permissionFlag(): '--permission' | '--experimental-permission' {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

/** The node arguments for a plugin process: flags, the host script, then our own marker arguments. */
export function sandboxArgs(sandbox: SandboxSpec, host: HostCode): string[] {
  const flags = [permissionFlag(), '--no-addons', '--disable-warning=ExperimentalWarning', '--max-old-space-size=512'];
  for (const p of [...host.read, ...sandbox.read]) flags.push(`--allow-fs-read=${p}`);
  for (const p of sandbox.write) flags.push(`--allow-fs-write=${p}`);
  return [...flags, host.entry, ...(sandbox.network ? ['--hybrid-mem-network'] : [])];
}

/** Start the process (cwd: the plugin's folder). */
export function launch(sandbox: SandboxSpec, host: HostCode, cwd: string): ChildProcess {
  const env: Record<string, string> = {};
  if (process.env.TZ) env.TZ = process.env.TZ;
  return spawn(process.execPath, sandboxArgs(sandbox, host), { cwd, env, stdio: ['ignore', 2, 2, 'ipc'], serialization: 'advanced', windowsHide: true });
}
