/**
 * The force layout, off the main thread: d3-force with a radial force that puts strong facts near the
 * centre, link forces weighted by link strength, and many-body repulsion (Barnes-Hut). Each tick posts
 * the positions as one transferred Float32Array.
 */
import { forceCollide, forceLink, forceManyBody, forceRadial, forceSimulation, type Simulation, type SimulationNodeDatum } from 'd3-force';
import type { LayoutTick, ToWorker } from './protocol';

interface N extends SimulationNodeDatum {
  ring: number;
  size: number;
}

interface L {
  source: number | N;
  target: number | N;
  strength: number;
}

let sim: Simulation<N, L> | null = null;
let nodes: N[] = [];
let generation = 0;

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
    sim?.stop();
    return;
  }
  if (m.type === 'drag') {
    const n = nodes[m.index];
    if (!n) return;
    n.fx = m.x;
    n.fy = m.y;
    sim?.alphaTarget(m.x === null ? 0 : 0.1).restart();
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
    nodes[i] = Number.isNaN(x) ? { ring, size: m.sizes[i] ?? 4, x: ring * Math.cos(angle), y: ring * Math.sin(angle) } : { ring, size: m.sizes[i] ?? 4, x, y };
  }
  const links: L[] = [];
  for (let k = 0; k < m.links.length; k += 2) links.push({ source: m.links[k] ?? 0, target: m.links[k + 1] ?? 0, strength: m.linkStrength[k / 2] ?? 0.5 });
  sim?.stop();
  const big = count > 2500;
  sim = forceSimulation<N, L>(nodes)
    .alpha(m.alpha)
    .alphaDecay(big ? 0.05 : 0.0228)
    .force('link', forceLink<N, L>(links).distance(30).strength((l) => 0.05 + 0.45 * l.strength))
    .force('charge', forceManyBody<N>().strength(big ? -8 : -25).theta(big ? 1.2 : 0.9).distanceMax(250))
    .force('radial', forceRadial<N>((n) => n.ring, 0, 0).strength(0.25))
    .on('tick', post);
  if (count <= 1500) sim.force('collide', forceCollide<N>((n) => n.size + 1).iterations(1));
  post();
};
