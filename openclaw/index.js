// The OpenClaw plugin entry of hybrid-mem: a shim with no dependencies. OpenClaw's loader copies a plugin's
// declared dependencies, and every module the plugin's own files load, into each plugin generation it
// creates; for this package that is hundreds of megabytes per `openclaw` command, and the copies lack the
// worker-thread files the actors start by path. So the plugin itself, dist/openclaw/entry.js of the package
// this folder ships in, is required through a require anchored at that package: Node loads it once per
// process, from where it is installed (require of an ES module: Node >= 22.12; OpenClaw needs Node 24).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export default {
  id: 'hybrid-mem',
  name: 'hybrid-mem',
  description: 'Durable local memory: hybrid recall, credential hints on auth failures, a memory-graph dashboard.',
  register(api) {
    if (typeof api.rootDir !== 'string') throw new Error('hybrid-mem: this OpenClaw passes no api.rootDir (the plugin needs openclaw 2026.9 or newer)');
    const root = dirname(api.rootDir);
    const entry = join(root, 'dist', 'openclaw', 'entry.js');
    if (!existsSync(entry)) throw new Error(`hybrid-mem: ${entry} is missing; run "npm install" (or "npm run build") in ${root}`);
    // Resolved from the package itself, not from this file.
    return createRequire(join(root, 'package.json'))(entry).default.register(api);
  },
};
