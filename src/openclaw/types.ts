/**
 * The part of OpenClaw's plugin API this plugin uses (openclaw 2026.9.x, `OpenClawPluginApi` in its
 * plugin SDK), written out structurally: the package does not depend on openclaw, and a gateway that
 * passes more than this is fine. Verified against openclaw 2026.9.6 by test/openclaw.test.ts.
 */

export interface OpenClawLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** `before_prompt_build`'s event: the user's prompt and the session's earlier messages. */
export interface PromptBuildEvent {
  readonly prompt?: string;
  readonly messages?: unknown[];
}

/** `agent_end`'s event: the run's messages (history, this turn's prompt, the agent's replies and tools). */
export interface AgentEndEvent {
  readonly messages?: unknown[];
  readonly success?: boolean;
}

/** What hooks and tool factories learn about the run (all optional: a CLI run leaves some out). */
export interface RunContext {
  readonly agentId?: string;
  readonly sessionKey?: string;
  /** Regenerated on /new and /reset: one conversation. */
  readonly sessionId?: string;
}

export interface PromptBuildResult {
  readonly prependContext?: string;
}

export interface ToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly details: Readonly<Record<string, unknown>>;
}

/** An agent tool: `parameters` is a JSON Schema object; a failure is a thrown Error (OpenClaw reports it to the model). */
export interface OpenClawTool {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  execute(toolCallId: string, params: unknown): Promise<ToolResult>;
}

/** commander's Command, as much of it as a plugin CLI needs. */
export interface CliCommand {
  command(name: string): CliCommand;
  description(text: string): CliCommand;
  action(fn: () => Promise<void> | void): CliCommand;
}

export interface OpenClawService {
  readonly id: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface OpenClawPluginApi {
  readonly id?: string;
  /** 'full' in the process that runs agents (gateway, `agent --local`); metadata passes otherwise. */
  readonly registrationMode?: string;
  /** plugins.entries.<id>.config, as written. */
  readonly pluginConfig?: unknown;
  readonly logger: OpenClawLogger;
  on(hook: 'before_prompt_build', handler: (event: PromptBuildEvent, ctx: RunContext) => Promise<PromptBuildResult | undefined>): void;
  on(hook: 'agent_end', handler: (event: AgentEndEvent, ctx: RunContext) => Promise<void>): void;
  registerTool(factory: (ctx: RunContext) => OpenClawTool, options: { readonly name: string }): void;
  registerCli(register: (ctx: { readonly program: CliCommand }) => void, options: { readonly descriptors: readonly { name: string; description: string; hasSubcommands: boolean }[] }): void;
  registerService(service: OpenClawService): void;
}
