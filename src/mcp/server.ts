/**
 * The Model Context Protocol server: the agent tools (src/memory/agent-tools.ts) served with the official
 * TypeScript SDK. Tools are listed with their JSON Schemas; a call runs as the configured caller; a
 * failure (bad input, a refused scope, a missing credential) is an MCP tool error (`isError: true`) whose
 * text starts with the `MEM_ERR_*` code and whose structured content is `{error: {code, message, details}}`.
 * An unknown tool name is a protocol error (invalid params), as the MCP spec asks.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../core/types.js';
import { AGENT_TOOLS, callAgentTool, isAgentToolName } from '../memory/agent-tools.js';
import type { MemoryService } from '../memory/service.js';

export interface McpServerOptions {
  readonly svc: MemoryService;
  /** Who calls the tools (from the config's `agent` section). */
  readonly caller: Caller;
  /** The package version, reported in the initialize answer. */
  readonly version: string;
}

const INSTRUCTIONS = [
  'hybrid-mem is a durable local memory. Use memory_recall before answering questions that earlier work may have settled',
  '(preferences, decisions, hosts, project facts); use memory_store for what is worth remembering, one fact per call;',
  'use memory_link to relate facts. Secrets never go into memory_store: a hint names the vault service, and',
  'credential_get(service) returns the credential when the task needs it.',
].join(' ');

export function createMcpServer(options: McpServerOptions): McpServer {
  const { svc, caller } = options;
  const mcp = new McpServer({ name: 'hybrid-mem', title: 'hybrid-mem memory', version: options.version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  // The low-level handlers: our tools carry JSON Schemas generated from the zod schemas that validate them,
  // and validation errors must come back with our codes, not the SDK's.
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object'; properties: Record<string, object> },
      annotations: { title: t.title, readOnlyHint: !t.writes, destructiveHint: false, idempotentHint: t.name !== 'memory_link', openWorldHint: false },
    })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (!isAgentToolName(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name} (the tools are ${AGENT_TOOLS.map((t) => t.name).join(', ')})`);
    const r = await callAgentTool(svc, caller, name, args ?? {});
    if (r.ok) return { content: [{ type: 'text', text: r.text }], structuredContent: { ...r.data } };
    return { isError: true, content: [{ type: 'text', text: r.text }], structuredContent: { error: { ...r.error } } };
  });
  return mcp;
}

/** Serve on `transport` until it closes; resolves then. */
export async function serveMcp(options: McpServerOptions, transport: Transport): Promise<void> {
  const mcp = createMcpServer(options);
  const closed = new Promise<void>((resolve) => {
    mcp.server.onclose = () => resolve();
  });
  await mcp.connect(transport);
  await closed;
}
