/**
 * The SQLite stress the Node 24 abort needed (test/sqlite-driver.test.ts runs it on Node 20, 22 and 24):
 * open a database through hybrid-mem's one database module, prepare 50k one-off statements without keeping
 * them while forcing garbage collection, do the same in a worker thread that exits without closing its
 * connection (teardown finalizes its statements), close, exit. better-sqlite3 <= 12 on Node 24 aborts here
 * (`RemoveEnvironmentCleanupHook` assertion). Run with --expose-gc; prints one line of JSON.
 */
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../src/store/db.js';
import { driverPackage } from '../../src/store/native.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function churn(path: string, count: number): { db: ReturnType<typeof openDatabase>; sum: number } {
  const db = openDatabase(path);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    sum += (db.prepare(`SELECT ? + ${i % 997} AS v`).get(i) as { v: number }).v;
    if (i % 5000 === 4999) gc?.();
  }
  db.prepare("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH 'stress'").get();
  return { db, sum };
}

if (isMainThread) {
  const dir = process.argv[2] as string;
  const path = join(dir, 'stress.db');
  // Node 20 cannot start a .ts worker: the development bootstrap registers tsx in it first.
  const worker = new Worker(new URL('../../src/actors/runtime/tsx-bootstrap.mjs', import.meta.url), { workerData: { __target: import.meta.url, path } });
  const workerSum = await new Promise<number>((done, fail) => {
    worker.once('message', (v: number) => done(v));
    worker.once('error', fail);
  });
  await new Promise((done) => worker.once('exit', done));
  const { db, sum } = churn(path, 50_000);
  gc();
  db.close();
  gc();
  process.stdout.write(`${JSON.stringify({ node: process.version, driver: driverPackage(), sum, workerSum })}\n`);
} else {
  // Left open on purpose: the worker's teardown finalizes the connection and its statements.
  parentPort?.postMessage(churn((workerData as { path: string }).path, 10_000).sum);
}
