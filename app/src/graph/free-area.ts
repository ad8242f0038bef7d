/** Where the graph can be seen whole when panels (the legend, the controls, the time-travel bar) sit over the canvas. */

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
