/**
 * The canvas follows the page's theme: the palette is read from the CSS tokens once, and again whenever
 * the system colour scheme flips (styles/tokens.css switches the tokens with prefers-color-scheme), not per frame.
 */
import { readPalette, type Palette } from './style';

/** Calls `onChange` with the palette now and after every colour-scheme change; returns the disposer. */
export function watchTheme(root: Element, onChange: (p: Palette, scheme: 'light' | 'dark') => void): () => void {
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const read = (): void => onChange(readPalette(root), media.matches ? 'dark' : 'light');
  // The stylesheet is injected by the app's first render: read again on the next frame, once it applies.
  const first = requestAnimationFrame(read);
  read();
  media.addEventListener('change', read);
  return () => {
    cancelAnimationFrame(first);
    media.removeEventListener('change', read);
  };
}
