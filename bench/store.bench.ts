/**
 * Store throughput: facts/s through MemoryService.memoryStore, one transaction per fact (single) and 100
 * facts per transaction (batched), with synchronous=NORMAL and FULL, against a raw better-sqlite3 INSERT
 * of the same rows in the same run (the baseline: what SQLite alone costs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { resolveConfig } from '../src/config/resolve.js';
import { MemoryService } from '../src/memory/service.js';
import type { StoreInput } from '../src/memory/inputs.js';

const WORDS = 'server database password token deploy cluster user admin staging prod cache queue kafka redis nginx backup rotate key host port'.split(' ');

function sentence(i: number): StoreInput {
  const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  // One fact in ten names an entity (as agents' facts do); texts differ, as real facts do.
  return { text: `Fact ${i}: the ${w(1)} ${w(2)} for ${w(3)} uses ${w(4)} ${i % 97}`, category: 'technical', entity: i % 10 === 0 ? `svc-${i}` : null, tags: [w(5) ?? 'x'] };
}

function open(durability: 'normal' | 'full'): { svc: MemoryService; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hybrid-mem-bench-'));
  const config = resolveConfig({ store: { durability } }, { env: { HYBRID_MEM_HOME: dir } });
  return { svc: MemoryService.open({ config, env: { HYBRID_MEM_HOME: dir } }), dir };
}

export async function main(): Promise<void> {
  const normal = open('normal');
  const full = open('full');
  const raw = open('normal');
  const insert = raw.svc.db.prepare(`INSERT INTO facts (id, text, category, entity, tags, tags_text, importance, confidence, decay_class, scope_kind,
    lineage_id, version, created_at, updated_at, valid_from, source, dedupe_key) VALUES (?, ?, 'technical', ?, '[]', '', 0.5, 0.8, 'stable', 'global', ?, 1, ?, ?, ?, 'cli', ?)`);
  let n = 0;
  const bench = new Bench({ time: 2000, warmupTime: 200, throws: true });
  bench
    .add('raw INSERT + FTS (baseline, 1/txn)', () => {
      const i = n++;
      const f = sentence(i);
      raw.svc.db.transaction(() => insert.run(`fact_raw${i}`, f.text, f.entity, `fact_raw${i}`, i, i, i, `k${i}`))();
    })
    .add('memoryStore single (NORMAL)', () => {
      normal.svc.memoryStore(sentence(n++));
    })
    .add('memoryStore single (FULL)', () => {
      full.svc.memoryStore(sentence(n++));
    })
    .add('memoryStoreMany x100 (NORMAL)', () => {
      const batch = Array.from({ length: 100 }, () => sentence(n++));
      normal.svc.memoryStoreMany(batch);
    });
  await bench.run();
  const rate = (name: string, perCall = 1): number => {
    const t = bench.getTask(name)?.result;
    return t && 'throughput' in t ? t.throughput.mean * perCall : 0;
  };
  const baseline = rate('raw INSERT + FTS (baseline, 1/txn)');
  const rows = [
    ['raw INSERT + FTS (baseline, 1/txn)', baseline],
    ['memoryStore single (NORMAL)', rate('memoryStore single (NORMAL)')],
    ['memoryStore single (FULL)', rate('memoryStore single (FULL)')],
    ['memoryStoreMany x100 (NORMAL)', rate('memoryStoreMany x100 (NORMAL)', 100)],
  ] as const;
  console.log('\nstore throughput (facts/s)');
  console.table(rows.map(([name, r]) => ({ case: name, 'facts/s': Math.round(r), 'vs baseline': (r / baseline).toFixed(2) })));
  for (const h of [normal, full, raw]) {
    h.svc.close();
    rmSync(h.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
