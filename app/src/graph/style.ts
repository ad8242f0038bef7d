/**
 * How facts and links look: colour by category, size and ring by strength, width by link strength, a dash
 * by link type. The colours are design tokens: CSS custom properties in styles/tokens.css (a light and a dark set,
 * following prefers-color-scheme); the canvas reads them through `readPalette`, so the legend, the
 * sidebar and the canvas draw with the same values.
 */
import { CATEGORIES, type Category, type LinkType } from '../lib/types';

/** Every colour the canvas draws with (CSS colour strings), and the label font. */
export interface Palette {
  readonly background: string;
  readonly edge: string;
  /** CONTRADICTS links (dashed). */
  readonly edgeConflict: string;
  /** SUPERSEDES links, from a new version to the old one (dotted). */
  readonly edgeVersion: string;
  readonly label: string;
  /** The outline behind label text (the background colour), so labels stay readable over edges. */
  readonly labelHalo: string;
  /** Labels of groups and of the hovered or selected fact. */
  readonly labelStrong: string;
  /** The label font's family (the UI's). */
  readonly fontFamily: string;
  /** Facts a search or a why-recalled highlight leaves out. */
  readonly dim: string;
  readonly superseded: string;
  readonly pinned: string;
  readonly selected: string;
  readonly highlight: string;
  readonly ring: string;
  readonly ringText: string;
  readonly categories: Readonly<Record<Category, string>>;
}

/** The light theme's values, used when the tokens cannot be read (and mirrored in styles/tokens.css). */
export const LIGHT_PALETTE: Palette = {
  background: '#fbfbfc',
  edge: 'rgba(100,112,135,0.42)',
  edgeConflict: '#dc2626',
  edgeVersion: '#8e98a8',
  label: '#3b4252',
  labelHalo: '#fbfbfc',
  labelStrong: '#111827',
  fontFamily: 'system-ui, sans-serif',
  dim: '#d0d4dc',
  superseded: '#b9bec8',
  pinned: '#111827',
  selected: '#4f46e5',
  highlight: '#f5b700',
  ring: '#ff8c00',
  ringText: '#a15000',
  categories: { preference: '#db2777', decision: '#ea580c', entity: '#16a34a', fact: '#2563eb', other: '#6b7280', technical: '#7c3aed' },
};

/** The CSS custom property holding a palette entry (kebab-case, `--graph-` prefix) or a category colour (`--cat-`). */
export const tokenOf = (key: Exclude<keyof Palette, 'categories'>): string => `--graph-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
export const categoryToken = (c: Category): string => `--cat-${c}`;
/** For inline styles: the category's colour token. */
export const categoryVar = (c: Category): string => `var(${categoryToken(c)})`;

/** The palette as the page's tokens define it now (call again when the colour scheme changes). */
export function readPalette(root: Element): Palette {
  const css = getComputedStyle(root);
  const read = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(LIGHT_PALETTE) as (keyof Palette)[]) {
    if (key !== 'categories') out[key] = read(tokenOf(key), LIGHT_PALETTE[key]);
  }
  const categories = Object.fromEntries(CATEGORIES.map((c) => [c, read(categoryToken(c), LIGHT_PALETTE.categories[c])])) as Record<Category, string>;
  return { ...(out as Omit<Palette, 'categories'>), categories };
}

/** How a link is stroked: CONTRADICTS dashed, SUPERSEDES dotted, every other type solid. */
export type EdgeStyle = 'solid' | 'conflict' | 'version';
export const edgeStyleOf = (t: LinkType | undefined): EdgeStyle => (t === 'CONTRADICTS' ? 'conflict' : t === 'SUPERSEDES' ? 'version' : 'solid');

/** Radius of the ring a fact settles on: strong facts are central. */
export const ringOf = (strength: number): number => 40 + 460 * (1 - Math.max(0, Math.min(1, strength)));
/** Drawn node radius. */
export const sizeOf = (strength: number): number => 3 + 9 * Math.max(0, Math.min(1, strength));
export const edgeWidth = (strength: number): number => 0.4 + 2.6 * Math.max(0, Math.min(1, strength));
