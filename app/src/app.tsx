/**
 * The memory graph app: the canvas graph in the middle, filters and search on the left, the inspector and
 * the gaps on the right, the live activity feed at the bottom. Behaviour lives in lib/controller.ts.
 */
import { component$, noSerialize, useSignal, useStore, useStyles$, useVisibleTask$, type NoSerialize } from '@builder.io/qwik';
import { CANVAS_KEYS } from './graph/keyboard';
import { GraphView } from './graph/view';
import { Controller, initialUi } from './lib/controller';
import { CATEGORIES, type Category } from './lib/types';
import { EmptyState } from './ui/empty-state';
import { Feed } from './ui/feed';
import { Gaps } from './ui/gaps';
import { Inspector } from './ui/inspector';
import { Legend } from './ui/legend';
import { Sidebar } from './ui/sidebar';
import { Timeline } from './ui/timeline';
import { TokenDialog } from './ui/token-dialog';
import { Why } from './ui/why';
import base from './styles/base.css?inline';
import feed from './styles/feed.css?inline';
import layout from './styles/layout.css?inline';
import overlays from './styles/overlays.css?inline';
import panels from './styles/panels.css?inline';
import tokens from './styles/tokens.css?inline';

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

export const App = component$(() => {
  // Tokens first: every other sheet uses them.
  useStyles$(tokens + base + layout + overlays + panels + feed);
  const ui = useStore(initialUi(), { deep: true });
  const canvas = useSignal<HTMLCanvasElement>();
  const ctrl = useSignal<NoSerialize<Controller>>();
  const tab = useSignal<'inspect' | 'gaps'>('inspect');
  /** The first graph was drawn (until then the canvas says it is loading), and the legend's counts. */
  const ready = useSignal(false);
  const counts = useStore(Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>);

  useVisibleTask$(({ cleanup }) => {
    if (!canvas.value) return;
    let c: Controller | null = null;
    const view = new GraphView(canvas.value, {
      onSelect: (id) => {
        if (ui.linkFrom && id && id !== ui.linkFrom) ui.linkTarget = id;
        else void c?.inspect(id);
        if (id) tab.value = 'inspect';
      },
      onHover: () => undefined,
      onScene: (mode, drawn) => {
        ui.mode = mode;
        ui.drawn = drawn;
        ready.value = true;
        Object.assign(counts, view.categoryCounts());
      },
      obstructions: () => Array.from(canvas.value?.parentElement?.querySelectorAll('.legend, .zoom, .timeline') ?? []),
    });
    c = new Controller(view, ui);
    ctrl.value = noSerialize(c);
    (window as unknown as { __hybridGraph: unknown }).__hybridGraph = { view, controller: c };
    // F fits the graph into view (not while typing in a field).
    const onKey = (ev: KeyboardEvent): void => {
      const t = ev.target as HTMLElement | null;
      if ((ev.key === 'f' || ev.key === 'F') && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !(t && /^(?:INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) view.fitToView();
    };
    window.addEventListener('keydown', onKey);
    void c.start();
    cleanup(() => {
      window.removeEventListener('keydown', onKey);
      c?.stop();
    });
  });

  return (
    <div class="shell">
      <header class="topbar">
        <span class="brand">
          <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true">
            <line x1="6" y1="15" x2="15" y2="6" style={{ stroke: 'var(--border-strong)', strokeWidth: 1.5 }} />
            <line x1="6" y1="15" x2="17" y2="17" style={{ stroke: 'var(--border-strong)', strokeWidth: 1.5 }} />
            <circle cx="6" cy="15" r="4" style={{ fill: 'var(--accent)' }} />
            <circle cx="15" cy="6" r="3" style={{ fill: 'var(--cat-preference)' }} />
            <circle cx="17" cy="17" r="2.5" style={{ fill: 'var(--cat-entity)' }} />
          </svg>
          <strong>hybrid-mem</strong> <span>memory graph</span>
        </span>
        <span class={`live ${ui.live}`} data-testid="live-indicator" data-status={ui.live} title="Live connection to the memory">
          {ui.live}
        </span>
        <span class="stats">
          <span data-testid="total-facts">{plural(ui.totalFacts, 'fact')}</span>
          <span>{plural(ui.links, 'link')}</span>
          <span>{plural(ui.openConflicts, 'open conflict')}</span>
        </span>
        {ui.mode === 'clusters' && (
          <span class="mode" data-testid="view-mode">
            Clustered view: {ui.drawn} groups and facts drawn for {ui.totalFacts} facts (click a group to expand it)
          </span>
        )}
        {ui.truncated && <span class="mode">Showing the first 20,000 facts</span>}
        {ui.notice && (
          <button class="notice" data-testid="notice" title="Dismiss" onClick$={() => (ui.notice = '')}>
            {ui.notice}
          </button>
        )}
        {ui.layout === 'meaning' && ui.mapNote && (
          <span class="mode" data-testid="map-note">
            {ui.mapNote}
          </span>
        )}
        <span class="spacer" />
        <span class="seg" role="group" aria-label="Place facts by">
          <button aria-pressed={ui.layout === 'links' ? 'true' : 'false'} data-testid="layout-links" title="Place facts by their links; strong facts in the centre" onClick$={() => void ctrl.value?.setLayout('links')}>
            Links
          </button>
          <button aria-pressed={ui.layout === 'meaning' ? 'true' : 'false'} data-testid="layout-meaning" title="Place facts by meaning: related memory sits together, links or not" onClick$={() => void ctrl.value?.setLayout('meaning')}>
            Meaning
          </button>
        </span>
        <button class="fit" data-testid="fit-view" title="Fit the whole graph into view (F)" onClick$={() => ctrl.value?.view.fitToView()}>
          Fit <kbd>F</kbd>
        </button>
      </header>
      <Sidebar ui={ui} ctrl={ctrl} />
      <main>
        <canvas ref={canvas} data-testid="graph-canvas" tabIndex={0} role="application" aria-label={`Memory graph: ${ui.drawn} facts drawn. ${CANVAS_KEYS}`} />
        <EmptyState ui={ui} ctrl={ctrl} ready={ready.value} />
        {ui.drawn > 0 && <Legend counts={counts} clustered={ui.mode === 'clusters'} />}
        <div class="zoom panel" role="group" aria-label="Zoom">
          <button data-testid="zoom-in" title="Zoom in (+)" aria-label="Zoom in" onClick$={() => ctrl.value?.view.zoomBy(1.25)}>
            +
          </button>
          <button data-testid="zoom-out" title="Zoom out (-)" aria-label="Zoom out" onClick$={() => ctrl.value?.view.zoomBy(0.8)}>
            −
          </button>
        </div>
        <Timeline ui={ui} ctrl={ctrl} />
      </main>
      <aside class="right">
        <Why ui={ui} ctrl={ctrl} />
        <nav class="tabs" role="tablist" aria-label="Panels">
          <button role="tab" aria-selected={tab.value === 'inspect' ? 'true' : 'false'} class={tab.value === 'inspect' ? 'on' : ''} data-testid="tab-inspect" onClick$={() => (tab.value = 'inspect')}>
            Inspect
          </button>
          <button
            role="tab"
            aria-selected={tab.value === 'gaps' ? 'true' : 'false'}
            class={tab.value === 'gaps' ? 'on' : ''}
            data-testid="tab-gaps"
            onClick$={() => {
              tab.value = 'gaps';
              void ctrl.value?.loadGaps();
            }}
          >
            Gaps
          </button>
        </nav>
        {tab.value === 'inspect' ? <Inspector ui={ui} ctrl={ctrl} /> : <Gaps ui={ui} ctrl={ctrl} />}
      </aside>
      <Feed ui={ui} ctrl={ctrl} />
      {ui.tokenPrompt && <TokenDialog ui={ui} ctrl={ctrl} />}
    </div>
  );
});
