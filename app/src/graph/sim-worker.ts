/**
 * The force layout, off the main thread: d3-force with a radial force that puts strong facts near the
 * centre, link forces weighted by link strength, and many-body repulsion (Barnes-Hut). Each tick posts
 * the positions as one transferred Float32Array.
 *
 * The ticks are driven here, once per animation frame, not by d3's own timer: without a `window` d3-timer
 * waits setTimeout(17) after each tick's work, so the layout (and the view, which draws on each tick) ran
 * at 1000 / (17 ms + tick ms), ~35-45 ticks/s for 1000 facts, below the display rate.
 */
import { forceCollide, forceLink, forceManyBody, forceRadial, forceSimulation, forceX, forceY, type Simulation, type SimulationNodeDatum } from 'd3-force';
import type { LayoutTick, ToWorker } from './protocol';

interface N extends SimulationNodeDatum {
  ring: number;
  size: number;
  /** Its place on the semantic map (NaN: none). */
  tx: number;
  ty: number;
}

interface L {
  source: number | N;
  target: number | N;
  strength: number;
}

let sim: Simulation<N, L> | null = null;
let nodes: N[] = [];
let generation = 0;
/** Whether ticks should run, and whether a frame callback is already pending. */
let running = false;
let scheduled = false;

// Dedicated workers have requestAnimationFrame in Chromium and Firefox; elsewhere a ~60 Hz timeout.
const nextFrame: (cb: () => void) => void = typeof requestAnimationFrame === 'function' ? (cb) => void requestAnimationFrame(cb) : (cb) => void setTimeout(cb, 16);

/** What d3's timer did on each frame: one tick, the 'tick' event (post), and a stop below alphaMin. */
const step = (): void => {
  scheduled = false;
  if (!running || !sim) return;
  sim.tick();
  post();
  if (sim.alpha() < sim.alphaMin()) {
    running = false;
    return;
  }
  scheduled = true;
  nextFrame(step);
};

/** The equivalent of simulation.restart(). */
const run = (): void => {
  running = true;
  if (scheduled) return;
  scheduled = true;
  nextFrame(step);
};

const post = (): void => {
  const positions = new Float32Array(nodes.length * 2);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as N;
    positions[2 * i] = n.x ?? 0;
    positions[2 * i + 1] = n.y ?? 0;
  }
  const msg: LayoutTick = { type: 'tick', positions, alpha: sim?.alpha() ?? 0, generation };
  (self as unknown as Worker).postMessage(msg, [positions.buffer]);
};

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  if (m.type === 'stop') {
    running = false;
    return;
  }
  if (m.type === 'drag') {
    const n = nodes[m.index];
    if (!n) return;
    n.fx = m.x;
    n.fy = m.y;
    if (!sim) return;
    sim.alphaTarget(m.x === null ? 0 : 0.1);
    run();
    return;
  }
  generation++;
  const count = m.rings.length;
  nodes = new Array<N>(count);
  for (let i = 0; i < count; i++) {
    const x = m.xs[i] ?? NaN;
    const y = m.ys[i] ?? NaN;
    const ring = m.rings[i] ?? 0;
    const angle = (i * 2.399963) % (2 * Math.PI); // golden angle: new nodes spread around their ring
    const tx = m.targets?.[2 * i] ?? NaN;
    const ty = m.targets?.[2 * i + 1] ?? NaN;
    const start = Number.isNaN(x) ? (Number.isNaN(tx) ? { x: ring * Math.cos(angle), y: ring * Math.sin(angle) } : { x: tx, y: ty }) : { x, y };
    nodes[i] = { ring, size: m.sizes[i] ?? 4, tx, ty, ...start };
  }
  const links: L[] = [];
  for (let k = 0; k < m.links.length; k += 2) links.push({ source: m.links[k] ?? 0, target: m.links[k + 1] ?? 0, strength: m.linkStrength[k / 2] ?? 0.5 });
  sim?.stop();
  const big = count > 2500;
  // Stopped at once: its own timer would tick too (see the top); run() drives the ticks.
  sim = forceSimulation<N, L>(nodes).stop().alpha(m.alpha).alphaDecay(big ? 0.05 : 0.0228);
  if (m.targets) {
    // The semantic map: each fact is pulled to where its meaning places it; a little repulsion and
    // collision keep neighbours legible; facts without a vector wait on an outer ring.
    const placed = (n: N): boolean => !Number.isNaN(n.tx);
    const outer = nodes.reduce((r, n) => (placed(n) ? Math.max(r, Math.hypot(n.tx, n.ty)) : r), 0) + 80;
    sim
      .force('x', forceX<N>((n) => (placed(n) ? n.tx : 0)).strength((n) => (placed(n) ? 0.35 : 0)))
      .force('y', forceY<N>((n) => (placed(n) ? n.ty : 0)).strength((n) => (placed(n) ? 0.35 : 0)))
      .force('charge', forceManyBody<N>().strength(big ? -2 : -6).theta(big ? 1.2 : 0.9).distanceMax(60))
      .force('radial', forceRadial<N>(outer, 0, 0).strength((n) => (placed(n) ? 0 : 0.3)));
  } else {
    sim
      .force('link', forceLink<N, L>(links).distance(30).strength((l) => 0.05 + 0.45 * l.strength))
      .force('charge', forceManyBody<N>().strength(big ? -8 : -25).theta(big ? 1.2 : 0.9).distanceMax(250))
      .force('radial', forceRadial<N>((n) => n.ring, 0, 0).strength(0.25));
  }
  if (count <= 1500) sim.force('collide', forceCollide<N>((n) => n.size + 1).iterations(1));
  post();
  run();
};
