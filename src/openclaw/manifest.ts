/**
 * openclaw/openclaw.plugin.json, the manifest OpenClaw's loader reads before it loads any code: our id, the JSON
 * Schema of plugins.entries.hybrid-mem.config (the published config schema: OpenClaw refuses a config
 * that does not match it), and contracts.tools, which must name every tool the entry registers.
 * Written by `npm run schema`; test/openclaw-manifest.test.ts checks the committed file matches.
 */
import { PLUGIN_ID } from '../config/defaults.js';
import { configJsonSchema } from '../config/json-schema.js';
import { AGENT_TOOL_NAMES } from '../memory/agent-tools.js';

export function openclawManifest(): Record<string, unknown> {
  const { $schema: _draft, $id: _id, title: _title, ...configSchema } = configJsonSchema();
  return {
    id: PLUGIN_ID,
    name: 'hybrid-mem',
    description: 'Durable local memory for agents: hybrid recall, credential hints on auth failures, a memory-graph dashboard on 127.0.0.1.',
    configSchema,
    contracts: { tools: [...AGENT_TOOL_NAMES] },
  };
}
