/**
 * Panning without redrawing: drawing thousands of nodes and edges in software costs ~15-35 ms here, a copy
 * of the last full frame ~1 ms. While only the view moves sideways (same zoom, nothing else changed) each
 * frame is that full frame copied at the new offset; a full frame follows once the pan rests.
 */
import type { ZoomTransform } from 'd3-zoom';

/** A pan is at rest after this long without movement. */
const PAN_REST_MS = 120;

export class PanCache {
  /** The transform of the last full frame. */
  drawnAt: ZoomTransform | null = null;
  private readonly snapshot = document.createElement('canvas');
  private valid = false;
  private lastPanAt = 0;

  /** Whether a pan just came to rest (its frames were copies: draw in full once). */
  resting(now: number): boolean {
    return this.lastPanAt > 0 && now - this.lastPanAt > PAN_REST_MS;
  }

  /** Can the frame at `t` be the last full frame moved sideways? */
  canPan(t: ZoomTransform): boolean {
    return this.drawnAt !== null && this.drawnAt.k === t.k;
  }

  /** Draw the last full frame moved to `t` (call only when canPan). The canvas must still hold that frame the first time. */
  pan(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, t: ZoomTransform, now: number): void {
    const at = this.drawnAt;
    if (!at) return;
    if (!this.valid) {
      this.snapshot.width = canvas.width;
      this.snapshot.height = canvas.height;
      this.snapshot.getContext('2d')?.drawImage(canvas, 0, 0);
      this.valid = true;
    }
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(this.snapshot, Math.round(dpr * (t.x - at.x)), Math.round(dpr * (t.y - at.y)));
    this.lastPanAt = now;
  }

  /** A full frame is being drawn at `t`. */
  full(t: ZoomTransform): void {
    this.valid = false;
    this.lastPanAt = 0;
    this.drawnAt = t;
  }
}
