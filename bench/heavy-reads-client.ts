/**
 * The attacker of bench/heavy-reads.bench.ts, in a child process (it never shares the server's event loop):
 * `concurrency` loops send one request each, again and again, until `seconds` pass, reading every answer
 * to the end; then it reports how many answers came back, by status. 127.0.0.1 only, bounded in time.
 */
export interface AttackCommand {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body: string | null;
  readonly concurrency: number;
  readonly seconds: number;
}

export interface AttackResult {
  readonly answers: number;
  readonly byStatus: Record<string, number>;
  readonly bytes: number;
}

async function attack(c: AttackCommand): Promise<AttackResult> {
  const stopAt = performance.now() + c.seconds * 1000;
  const byStatus: Record<string, number> = {};
  let answers = 0;
  let bytes = 0;
  const headers: Record<string, string> = { accept: 'application/json', 'x-hybrid-mem-request': '1', ...(c.body ? { 'content-type': 'application/json' } : {}) };
  const loop = async (): Promise<void> => {
    while (performance.now() < stopAt) {
      const res = await fetch(`${c.url}${c.path}`, { method: c.method, headers, body: c.body ?? undefined, signal: AbortSignal.timeout(60_000) });
      bytes += (await res.arrayBuffer()).byteLength;
      byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
      answers++;
    }
  };
  await Promise.all(Array.from({ length: c.concurrency }, loop));
  return { answers, byStatus, bytes };
}

process.on('message', (c: AttackCommand) => {
  void attack(c).then(
    (r) => process.send?.(r),
    (err: unknown) => process.send?.({ error: String(err) }),
  );
});
