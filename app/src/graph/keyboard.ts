/**
 * The canvas by keyboard (it takes focus with Tab): arrows pan (Shift: further), + and - zoom, 0 fits,
 * N / ] and P / [ step through the facts from the strongest down (selecting one opens it in the
 * inspector), Escape clears the selection. F fits from anywhere (app.tsx).
 */

/** What the keys drive (GraphView). */
export interface KeyTarget {
  panBy(dx: number, dy: number): void;
  zoomBy(factor: number): void;
  fitToView(): void;
  selectStep(step: 1 | -1): void;
  select(id: null): void;
}

/** The keys, as the canvas's accessible description and the legend list them. */
export const CANVAS_KEYS = 'Arrow keys pan, + and - zoom, 0 or F fits, N and P step through the facts, Escape clears the selection.';

/** Handle a keydown on the canvas; true when the key was one of ours (the caller prevents the default). */
export function handleCanvasKey(ev: KeyboardEvent, v: KeyTarget): boolean {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const step = ev.shiftKey ? 240 : 80;
  switch (ev.key) {
    case 'ArrowLeft':
      v.panBy(step, 0);
      return true;
    case 'ArrowRight':
      v.panBy(-step, 0);
      return true;
    case 'ArrowUp':
      v.panBy(0, step);
      return true;
    case 'ArrowDown':
      v.panBy(0, -step);
      return true;
    case '+':
    case '=':
      v.zoomBy(1.25);
      return true;
    case '-':
    case '_':
      v.zoomBy(0.8);
      return true;
    case '0':
      v.fitToView();
      return true;
    case 'n':
    case 'N':
    case ']':
      v.selectStep(1);
      return true;
    case 'p':
    case 'P':
    case '[':
      v.selectStep(-1);
      return true;
    case 'Escape':
      v.select(null);
      return true;
    default:
      return false;
  }
}
