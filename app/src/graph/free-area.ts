/**
 * Geometry of the view: where the graph can be seen whole when panels (the legend, the controls, the
 * time-travel bar) sit over the canvas, the zoom that fits it there, and which item a point falls on.
 */

/** A rectangle in CSS px relative to the canvas. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * The part of a width x height canvas left free by panels over it: each panel takes the strip along the
 * side that costs the least area (a tall legend on the left takes a left strip, a bar along the bottom a
 * bottom strip). When the panels would leave less than half of either dimension, the whole canvas counts.
 */
export function freeArea(width: number, height: number, panels: readonly Rect[]): Rect {
  let left = 0;
  let right = 0;
  let top = 0;
  let bottom = 0;
  for (const p of panels) {
    const l = p.x + p.w;
    const r = width - p.x;
    const t = p.y + p.h;
    const b = height - p.y;
    const cost = Math.min(l * height, r * height, t * width, b * width);
    if (cost === l * height) left = Math.max(left, l);
    else if (cost === r * height) right = Math.max(right, r);
    else if (cost === t * width) top = Math.max(top, t);
    else bottom = Math.max(bottom, b);
  }
  const w = width - left - right;
  const h = height - top - bottom;
  if (w < width / 2 || h < height / 2) return { x: 0, y: 0, w: width, h: height };
  return { x: left, y: top, w, h };
}

/**
 * The zoom and pan that show every item (positions `pos`, radii `sizes`) inside the free area with a
 * margin: zoomed out as far as it takes, in only a little (at most 1.25x: a handful of facts is not blown
 * up to fill the screen). The drawn origin is the canvas centre. Null when there is nothing to fit.
 */
export function fitTransform(pos: Float32Array, sizes: readonly number[], width: number, height: number, free: Rect): { x: number; y: number; k: number } | null {
  const n = sizes.length;
  if (n === 0 || width === 0 || height === 0 || pos.length < 2 * n) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = pos[2 * i] ?? 0;
    const y = pos[2 * i + 1] ?? 0;
    const r = sizes[i] ?? 0;
    minX = Math.min(minX, x - r);
    maxX = Math.max(maxX, x + r);
    minY = Math.min(minY, y - r);
    maxY = Math.max(maxY, y + r);
  }
  const margin = 32;
  const k = Math.min(1.25, Math.max(0.03, Math.min((free.w - 2 * margin) / Math.max(1, maxX - minX), (free.h - 2 * margin) / Math.max(1, maxY - minY))));
  // The graph's centre at the free area's centre.
  return { x: free.x + free.w / 2 - width / 2 - ((minX + maxX) / 2) * k, y: free.y + free.h / 2 - height / 2 - ((minY + maxY) / 2) * k, k };
}

/** The item under layout point (x, y): the nearest whose disc, grown by `slack`, holds it; null for none. */
export function nearestItem(items: readonly { readonly size: number }[], pos: Float32Array, x: number, y: number, slack: number): number | null {
  let best: number | null = null;
  let bestD = Infinity;
  for (let i = 0; i < items.length; i++) {
    const dx = (pos[2 * i] ?? 0) - x;
    const dy = (pos[2 * i + 1] ?? 0) - y;
    const d = dx * dx + dy * dy;
    const reach = (items[i]?.size ?? 0) + slack;
    if (d < reach * reach && d < bestD) {
      best = i;
      bestD = d;
    }
  }
  return best;
}
