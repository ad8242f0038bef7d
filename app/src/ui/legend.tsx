/**
 * The legend over the canvas: what the drawing means, drawn with the same tokens the canvas reads
 * (graph/style.ts), so it matches renderer.ts in both themes. Collapsible; lists every category with how
 * many facts of it the view holds.
 */
import { component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { categoryVar } from '../graph/style';
import { CATEGORIES, type Category } from '../lib/types';

export interface LegendProps {
  counts: Record<Category, number>;
  clustered: boolean;
}

/** A node glyph: a disc, optionally with a ring around it. */
const Dot = ({ r = 5, fill, ring, ringWidth = 2 }: { r?: number; fill: string; ring?: string; ringWidth?: number }) => (
  <svg width="24" height="20" viewBox="-12 -10 24 20" aria-hidden="true">
    <circle r={r} style={{ fill }} />
    {ring && <circle r={r + 3} style={{ fill: 'none', stroke: ring, strokeWidth: ringWidth }} />}
  </svg>
);

/** A link glyph: a line of a width and dash. */
const Line = ({ width, stroke, dash }: { width: number; stroke: string; dash?: string }) => (
  <svg width="24" height="20" viewBox="0 0 24 20" aria-hidden="true">
    <line x1="1" y1="10" x2="23" y2="10" style={{ stroke, strokeWidth: width, strokeDasharray: dash ?? 'none' }} />
  </svg>
);

/** Whether the legend was collapsed, kept in local storage (a returning user keeps it out of the way). */
const KEY = 'hybrid-mem.legend-collapsed';

export const Legend = component$(({ counts, clustered }: LegendProps) => {
  const open = useSignal(true);
  useVisibleTask$(() => {
    open.value = localStorage.getItem(KEY) !== '1';
  });
  return (
    <section class="legend panel" data-testid="legend" aria-label="Legend">
      <button data-testid="legend-toggle" aria-expanded={open.value ? 'true' : 'false'} aria-controls="legend-body" onClick$={() => {
          open.value = !open.value;
          localStorage.setItem(KEY, open.value ? '0' : '1');
        }}
      >
        Legend <span class="chevron" aria-hidden="true">▾</span>
      </button>
      {open.value && (
        <div class="body" id="legend-body">
          <h4>Category</h4>
          <ul>
            {CATEGORIES.map((c) => (
              <li key={c} class={counts[c] === 0 ? 'absent' : ''} data-testid="legend-category" data-category={c}>
                <i class="swatch" style={{ background: categoryVar(c) }} />
                {c}
                <span class="count">{counts[c]}</span>
              </li>
            ))}
          </ul>
          <h4>Fact</h4>
          <ul>
            <li data-testid="legend-strength">
              <svg width="24" height="20" viewBox="-12 -10 24 20" aria-hidden="true">
                <circle cx="-7" r="2.5" style={{ fill: 'var(--text-faint)' }} />
                <circle cx="4" r="7" style={{ fill: 'var(--text-faint)' }} />
              </svg>
              stronger: larger, more central
            </li>
            <li data-testid="legend-pinned">
              <Dot fill="var(--text-faint)" ring="var(--graph-pinned)" />
              pinned
            </li>
            <li data-testid="legend-superseded">
              <Dot fill="var(--graph-superseded)" />
              old version (superseded)
            </li>
            <li>
              <Dot fill="var(--text-faint)" ring="var(--graph-selected)" ringWidth={2.5} />
              selected
            </li>
            <li>
              <Dot fill="var(--text-faint)" ring="var(--graph-highlight)" />
              search match
            </li>
            <li>
              <Dot r={3} fill="var(--text-faint)" ring="var(--graph-ring)" />
              just recalled (score)
            </li>
            {clustered && (
              <li data-testid="legend-group">
                <Dot r={7} fill="var(--text-faint)" />
                group: click to expand
              </li>
            )}
          </ul>
          <h4>Link</h4>
          <ul>
            <li data-testid="legend-link-strength">
              <Line width={0.8} stroke="var(--graph-edge)" />
              <Line width={3} stroke="var(--graph-edge)" />
              stronger: wider
            </li>
            <li data-testid="legend-link-conflict">
              <Line width={1.5} stroke="var(--graph-edge-conflict)" dash="6 4" />
              contradicts
            </li>
            <li data-testid="legend-link-version">
              <Line width={1.5} stroke="var(--graph-edge-version)" dash="2 3" />
              new → old version
            </li>
          </ul>
          <p class="keys">
            <kbd>←</kbd>
            <kbd>→</kbd> pan · <kbd>+</kbd>
            <kbd>−</kbd> zoom · <kbd>F</kbd> fit · <kbd>N</kbd>
            <kbd>P</kbd> next fact
          </p>
        </div>
      )}
    </section>
  );
});
