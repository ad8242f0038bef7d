/**
 * A small OpenAI-compatible model on 127.0.0.1 for gateway tests: POST /v1/chat/completions (streamed or
 * not) and GET /v1/models. It records every request. Its reply: when the conversation's last message is
 * a tool result, a final text quoting it; when the user's latest text holds `CALLTOOL:<name> <json args>`
 * (and the request offers that tool), one call of it; `CALLEXEC:<command>`, one call of the gateway's own
 * `exec` tool with that shell command; otherwise a fixed text.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
}

export interface ChatRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly { readonly function?: { readonly name?: string } }[];
}

/** OpenClaw adds a user message with its internal context after the real one: not the user's text. */
const INTERNAL = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>';

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p: unknown) => (typeof p === 'string' ? p : String((p as { text?: unknown }).text ?? ''))).join('');
  return '';
}

/** The user messages of the request's last turn (after the last assistant message), without OpenClaw's internal one. */
export function lastUserTexts(req: ChatRequest): string[] {
  const out: string[] = [];
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i] as ChatMessage;
    if (m.role === 'assistant') break;
    if (m.role === 'user' && !messageText(m.content).startsWith(INTERNAL)) out.unshift(messageText(m.content));
  }
  return out;
}

type Decision = { readonly text: string } | { readonly tool: { readonly name: string; readonly args: string } };

function decide(req: ChatRequest): Decision {
  const real = req.messages.filter((m) => !(m.role === 'user' && messageText(m.content).startsWith(INTERNAL)));
  const last = real[real.length - 1];
  if (last?.role === 'tool') return { text: `MOCK-FINAL after tool: ${messageText(last.content).slice(0, 2000)}` };
  const user = lastUserTexts(req).join('\n');
  const call = /CALLTOOL:([a-z_]+) (\{.*\})/.exec(user);
  const offered = (req.tools ?? []).map((t) => t.function?.name);
  const exec = /CALLEXEC:(.+)/.exec(user);
  if (exec && offered.includes('exec')) return { tool: { name: 'exec', args: JSON.stringify({ title: 'run a command', command: (exec[1] as string).trim() }) } };
  if (call && offered.includes(call[1])) return { tool: { name: call[1] as string, args: call[2] as string } };
  return { text: 'MOCK-ASSISTANT: noted.' };
}

export interface MockModel {
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startMockModel(): Promise<MockModel> {
  const requests: ChatRequest[] = [];
  let seq = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      if (req.method === 'GET' && url.startsWith('/v1/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-1', object: 'model', owned_by: 'mock' }] }));
        return;
      }
      if (req.method !== 'POST' || !url.startsWith('/v1/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ChatRequest;
      requests.push(body);
      const d = decide(body);
      const id = `chatcmpl-mock-${++seq}`;
      const created = Math.floor(Date.now() / 1000);
      const model = body.model ?? 'mock-1';
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      const toolCall = 'tool' in d ? { id: `call_${seq}`, type: 'function', function: { name: d.tool.name, arguments: d.tool.args } } : null;
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (o: unknown): void => void res.write(`data: ${JSON.stringify(o)}\n\n`);
        const chunk = (delta: unknown, finish: string | null = null) => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
        send(chunk({ role: 'assistant', content: '' }));
        if (toolCall) {
          send(chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] }));
          send(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }));
          send(chunk({}, 'tool_calls'));
        } else {
          send(chunk({ content: (d as { text: string }).text }));
          send(chunk({}, 'stop'));
        }
        send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
        res.end('data: [DONE]\n\n');
        return;
      }
      const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: (d as { text: string }).text };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }], usage }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** OpenClaw configuration for agents answered by this mock: the provider, the default model, the workspace. */
export function openclawModelConfig(baseUrl: string, workspace: string): Record<string, unknown> {
  return {
    models: {
      mode: 'merge',
      providers: {
        mock: {
          baseUrl,
          apiKey: 'mock-key',
          api: 'openai-completions',
          models: [{ id: 'mock-1', name: 'Mock 1', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    },
    tools: { toolSearch: false },
    agents: { defaults: { model: { primary: 'mock/mock-1' }, workspace } },
  };
}
