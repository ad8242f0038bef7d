/** What bench/dashboard.bench.ts and its client process (bench/dashboard-client.ts) send each other. */
import { quantile, type LatencyStats } from './stats.js';

export interface LoadCommand {
  readonly kind: 'load';
  readonly port: number;
  readonly body: string;
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Text every checked response body must contain. */
  readonly expect: string;
}

export interface LoadResult {
  readonly completed: number;
  readonly seconds: number;
  readonly rps: number;
  readonly latency: LatencyStats;
  readonly responseBytes: number;
  /** Raw latencies (ms) of the measured window, so rounds can be pooled. */
  readonly samples: number[];
  /** Requests completed over the whole case, warm-up included (for the server's CPU time per request). */
  readonly allCompleted: number;
}

export interface SseCommand {
  readonly kind: 'sse';
  readonly port: number;
  readonly subscribers: number;
  readonly warmupMutations: number;
  readonly mutations: number;
  readonly spacingMs: number;
}

export interface SseResult {
  readonly subscribers: number;
  readonly mutations: number;
  /** Send -> subscriber received, every (subscriber, mutation) pair (ms). */
  readonly delivery: LatencyStats;
  /** Per mutation: send -> the last of the subscribers received (ms). */
  readonly lastSubscriber: LatencyStats;
  /** Per mutation: send -> its own response fully read (ms). */
  readonly roundTrip: LatencyStats;
  /** Deliveries that came before the mutation's own response. */
  readonly beforeResponse: number;
  readonly missing: number;
  readonly openMs: number;
}

export type Command = LoadCommand | SseCommand | { readonly kind: 'exit' };
export type Reply = { readonly ok: true; readonly result: LoadResult | SseResult | null } | { readonly ok: false; readonly error: string };

export function latencyStats(ms: readonly number[]): LatencyStats {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), max: s[s.length - 1] ?? NaN };
}
