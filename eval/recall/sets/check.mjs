#!/usr/bin/env node
// Validates the recall benchmark sets in this folder and prints a summary.
// Usage: node eval/recall/sets/check.mjs [--verbose]   (plain JS, no dependencies)
// --verbose also prints, per query, paraphrase word overlap and temporal distractor counts.
/* global process, console */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERBOSE = process.argv.includes('--verbose');
const dir = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['chat-1', 'chat-2', 'chat-3', 'chat-4', 'chat-5', 'chat-6', 'chat-7', 'agent-1', 'agent-2', 'tech-1', 'tech-2'];
const KINDS = ['chat', 'agent', 'tech'];
const TYPES = ['paraphrase', 'temporal', 'multi-hop', 'keyword', 'single-hop'];
const SPLITS = ['dev', 'test'];
const CATEGORIES = ['preference', 'decision', 'person', 'project', 'event', 'other'];
const MEMORY_RANGE = { chat: [250, 320], agent: [180, 220], tech: [180, 220] };
const QUERY_RANGE = [50, 60];
// per-file overrides for the long benchmark-style chat set
const FILE_RANGES = {
  'chat-3': { memories: [450, 600], queries: [90, 130], sessions: [18, 22] },
  // held out: written after the ranking was tuned, every query is test
  'chat-4': { memories: [400, 500], queries: [100, 130], sessions: [16, 20], heldOut: true },
  'chat-5': { memories: [400, 500], queries: [100, 130], sessions: [16, 20], heldOut: true },
  'chat-6': { memories: [400, 500], queries: [100, 130], sessions: [16, 20], heldOut: true },
  'chat-7': { memories: [400, 500], queries: [100, 130], sessions: [16, 20], heldOut: true },
};
const DATE_RANGE = [Date.parse('2025-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z')];
const STOP = new Set(('a an the and or but if of to in on at for from by with about as is are was were be been being do does did ' +
  'what which who whom whose when where why how that this these those it its i me my we our you your he him his she her they them their ' +
  'there here any some all not no yes so than then too very can could should would will shall may might must has have had ' +
  'get got last most recent before after ago into over under up down out off again s t just now ever still').split(/\s+/));

let errors = 0, warnings = 0;
const err = (f, m) => { errors++; console.log(`ERROR ${f}: ${m}`); };
const warn = (f, m) => { warnings++; console.log(`warn  ${f}: ${m}`); };
const words = (s) => (s.toLowerCase().match(/[a-z0-9][a-z0-9._:-]*[a-z0-9]|[a-z0-9]/g) ?? []).filter((w) => !STOP.has(w));
const stem = (w) => w.replace(/(ing|ed|es|s)$/, '');
const isIso = (s) => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z$/.test(s) && !isNaN(Date.parse(s));

const rows = [];
let totalQueries = 0, totalMemories = 0;
for (const name of FILES) {
  const file = path.join(dir, `${name}.json`);
  if (!fs.existsSync(file)) { warn(name, 'file missing'); continue; }
  let doc;
  try { doc = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { err(name, `invalid JSON: ${e.message}`); continue; }
  const f = name;
  if (doc.name !== name) err(f, `name is ${JSON.stringify(doc.name)}, expected ${name}`);
  if (!KINDS.includes(doc.kind)) err(f, `bad kind ${doc.kind}`);
  if (!name.startsWith(doc.kind + '-')) err(f, `kind ${doc.kind} does not match file name`);
  if (typeof doc.description !== 'string' || !doc.description.trim()) err(f, 'missing description');
  if (!Array.isArray(doc.memories) || !Array.isArray(doc.queries)) { err(f, 'memories/queries must be arrays'); continue; }

  // memories
  const byId = new Map();
  const sessionStart = new Map();
  let prevAt = -Infinity, prevSession = null;
  for (const [i, m] of doc.memories.entries()) {
    const where = `memory #${i} (${m?.id})`;
    if (typeof m.id !== 'string' || !m.id) { err(f, `${where}: missing id`); continue; }
    if (byId.has(m.id)) err(f, `${where}: duplicate id`);
    byId.set(m.id, m);
    if (typeof m.text !== 'string' || m.text.trim().length < 2) err(f, `${where}: empty text`);
    if (!isIso(m.at)) { err(f, `${where}: bad at ${m.at}`); continue; }
    const t = Date.parse(m.at);
    if (t < DATE_RANGE[0] || t >= DATE_RANGE[1]) err(f, `${where}: date ${m.at} outside 2025-2026`);
    if (doc.kind === 'chat') {
      if (typeof m.speaker !== 'string' || !m.speaker) err(f, `${where}: missing speaker`);
      if (typeof m.session !== 'string' || !m.session) { err(f, `${where}: missing session`); continue; }
      if (m.session !== prevSession) {
        if (sessionStart.has(m.session)) err(f, `${where}: session ${m.session} is not contiguous`);
        sessionStart.set(m.session, t);
        prevSession = m.session;
      }
      for (const k of ['entity', 'tags', 'category']) if (k in m) warn(f, `${where}: chat memory has ${k}`);
    } else {
      if ('speaker' in m || 'session' in m) err(f, `${where}: speaker/session only belong to chat`);
      if ('entity' in m && (typeof m.entity !== 'string' || !m.entity)) err(f, `${where}: bad entity`);
      if ('tags' in m && (!Array.isArray(m.tags) || m.tags.some((x) => typeof x !== 'string' || x !== x.toLowerCase() || !x.trim())))
        err(f, `${where}: tags must be non-empty lowercase strings`);
      if ('category' in m && !CATEGORIES.includes(m.category)) err(f, `${where}: bad category ${m.category}`);
      if (doc.kind === 'agent' && !('category' in m)) warn(f, `${where}: agent memory without category`);
    }
    if (t < prevAt) err(f, `${where}: at ${m.at} earlier than the previous memory`);
    prevAt = t;
  }
  const ranges = FILE_RANGES[name] ?? {};
  const [lo, hi] = ranges.memories ?? MEMORY_RANGE[doc.kind] ?? [0, Infinity];
  if (doc.memories.length < lo || doc.memories.length > hi) warn(f, `${doc.memories.length} memories, expected ${lo}-${hi}`);
  const [slo, shi] = ranges.sessions ?? [8, 12];
  if (doc.kind === 'chat' && (sessionStart.size < slo || sessionStart.size > shi)) warn(f, `${sessionStart.size} sessions, expected ${slo}-${shi}`);

  // document frequency of (stemmed) words, for the temporal distractor heuristic
  const df = new Map();
  for (const m of doc.memories) for (const w of new Set(words(m.text ?? '').map(stem))) df.set(w, (df.get(w) ?? 0) + 1);

  // queries
  const qids = new Set(), qtexts = new Set();
  const counts = Object.fromEntries(TYPES.map((t) => [t, { dev: 0, test: 0 }]));
  for (const [i, q] of doc.queries.entries()) {
    const where = `query #${i} (${q?.id})`;
    if (typeof q.id !== 'string' || !q.id) err(f, `${where}: missing id`);
    else if (qids.has(q.id)) err(f, `${where}: duplicate id`);
    qids.add(q.id);
    if (typeof q.query !== 'string' || !q.query.trim()) err(f, `${where}: empty query`);
    else if (qtexts.has(q.query.trim().toLowerCase())) err(f, `${where}: duplicate query text`);
    qtexts.add(q.query?.trim().toLowerCase());
    if (!TYPES.includes(q.type)) { err(f, `${where}: bad type ${q.type}`); continue; }
    if (!SPLITS.includes(q.split)) { err(f, `${where}: bad split ${q.split}`); continue; }
    counts[q.type][q.split]++;
    if ('note' in q && typeof q.note !== 'string') err(f, `${where}: note must be a string`);
    const ev = q.evidence;
    if (!ev || typeof ev !== 'object' || Array.isArray(ev) || !Object.keys(ev).length) { err(f, `${where}: empty evidence`); continue; }
    let twos = 0;
    for (const [id, g] of Object.entries(ev)) {
      if (!byId.has(id)) err(f, `${where}: evidence id ${id} does not exist`);
      if (g !== 1 && g !== 2) err(f, `${where}: grade for ${id} must be 1 or 2`);
      if (g === 2) twos++;
    }
    if (!twos) err(f, `${where}: no grade-2 evidence`);
    if (q.type === 'multi-hop' && twos < 2) err(f, `${where}: multi-hop needs 2+ grade-2 memories`);
    // a query should not be a copy of its evidence
    for (const id of Object.keys(ev)) {
      const m = byId.get(id);
      if (m && m.text.toLowerCase().includes(q.query.toLowerCase().replace(/[?.!]+$/, '')) && q.type !== 'keyword')
        warn(f, `${where}: query text is contained in memory ${id}`);
    }
    // paraphrase: few shared content words with the grade-2 evidence
    if (q.type === 'paraphrase') {
      const qw = new Set(words(q.query).map(stem));
      const ew = new Set(Object.entries(ev).filter(([, g]) => g === 2).flatMap(([id]) => words(byId.get(id)?.text ?? '').map(stem)));
      const shared = [...qw].filter((w) => ew.has(w));
      if (VERBOSE) console.log(`info  ${f}: ${q.id} paraphrase overlap ${shared.length}/${qw.size} [${shared.join(' ')}] ${q.query}`);
      if (qw.size && shared.length / qw.size > 0.5) warn(f, `${where}: paraphrase shares ${shared.length}/${qw.size} content words with its evidence (${shared.join(' ')})`);
    }
    // keyword: the exact identifier should occur in a grade-2 memory
    if (q.type === 'keyword') {
      const toks = q.query.toLowerCase().split(/\s+/).filter((w) => w.length >= 3 && !STOP.has(w));
      const texts = Object.entries(ev).filter(([, g]) => g === 2).map(([id]) => (byId.get(id)?.text ?? '').toLowerCase());
      if (!toks.some((w) => texts.some((t) => t.includes(w)))) warn(f, `${where}: keyword query shares no token with its grade-2 evidence`);
    }
    // temporal: there must be same-topic memories at other dates (distractors)
    if (q.type === 'temporal') {
      const evDays = new Set(Object.keys(ev).map((id) => byId.get(id)?.at.slice(0, 10)));
      // informative query words: appear in under 15% of the memories
      const qw = [...new Set(words(q.query).map(stem))].filter((w) => (df.get(w) ?? 0) > 0 && df.get(w) < 0.15 * doc.memories.length);
      const distractors = doc.memories.filter((m) => !(m.id in ev) && !evDays.has(m.at.slice(0, 10)) &&
        words(m.text).map(stem).some((w) => qw.includes(w)));
      if (VERBOSE) console.log(`info  ${f}: ${q.id} temporal, ${distractors.length} distractors at other dates [${qw.join(' ')}] ${q.query}`);
      if (distractors.length < 2) warn(f, `${where}: only ${distractors.length} same-topic memories at other dates (informative query words: ${qw.join(' ') || 'none'})`);
    }
  }
  const nq = doc.queries.length;
  const [qlo, qhi] = ranges.queries ?? QUERY_RANGE;
  if (nq < qlo || nq > qhi) warn(f, `${nq} queries, expected ${qlo}-${qhi}`);
  for (const t of TYPES) {
    const { dev, test } = counts[t];
    if (dev + test === 0) warn(f, `no ${t} queries`);
    if (ranges.heldOut && dev > 0) warn(f, `${t}: held out, yet ${dev} queries are dev`);
    if (!ranges.heldOut && Math.abs(dev - test) > 1) warn(f, `${t}: dev ${dev} vs test ${test} is unbalanced`);
  }
  const days = new Set(doc.memories.map((m) => m.at?.slice(0, 7)));
  totalQueries += nq; totalMemories += doc.memories.length;
  rows.push({ name, kind: doc.kind, mem: doc.memories.length, sessions: doc.kind === 'chat' ? sessionStart.size : '-', months: days.size, nq, counts });
}

// summary table
const pad = (s, n) => String(s).padEnd(n);
const head = ['file', 'kind', 'mem', 'sess', 'months', 'queries', ...TYPES.map((t) => `${t} d/t`)];
const widths = [9, 6, 5, 5, 7, 8, ...TYPES.map((t) => Math.max(t.length + 4, 8))];
console.log('\n' + head.map((h, i) => pad(h, widths[i])).join(' '));
const tot = Object.fromEntries(TYPES.map((t) => [t, { dev: 0, test: 0 }]));
for (const r of rows) {
  for (const t of TYPES) { tot[t].dev += r.counts[t].dev; tot[t].test += r.counts[t].test; }
  console.log([r.name, r.kind, r.mem, r.sessions, r.months, r.nq, ...TYPES.map((t) => `${r.counts[t].dev}/${r.counts[t].test}`)]
    .map((c, i) => pad(c, widths[i])).join(' '));
}
console.log(['total', '', totalMemories, '', '', totalQueries, ...TYPES.map((t) => `${tot[t].dev}/${tot[t].test}`)].map((c, i) => pad(c, widths[i])).join(' '));
if (rows.length === FILES.length && totalQueries < 320) warn('all', `only ${totalQueries} queries in total, expected >= 320`);
console.log(`\n${errors} error(s), ${warnings} warning(s)`);
process.exit(errors ? 1 : 0);
