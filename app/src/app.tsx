/**
 * The memory graph app: the canvas graph in the middle, filters and search on the left, the inspector and
 * the gaps on the right, the live activity feed at the bottom. Behaviour lives in lib/controller.ts.
 */
import { component$, noSerialize, useSignal, useStore, useStyles$, useVisibleTask$, type NoSerialize } from '@builder.io/qwik';
import { GraphView } from './graph/view';
import { Controller, initialUi } from './lib/controller';
import { Feed } from './ui/feed';
import { Gaps } from './ui/gaps';
import { Inspector } from './ui/inspector';
import { Sidebar } from './ui/sidebar';
import { Timeline } from './ui/timeline';
import { TokenDialog } from './ui/token-dialog';
import { Why } from './ui/why';
import styles from './app.css?inline';

export const App = component$(() => {
  useStyles$(styles);
  const ui = useStore(initialUi(), { deep: true });
  const canvas = useSignal<HTMLCanvasElement>();
  const ctrl = useSignal<NoSerialize<Controller>>();
  const tab = useSignal<'inspect' | 'gaps'>('inspect');

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
      },
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
      <header>
        <strong>hybrid-mem</strong> memory graph
        <span class={`live ${ui.live}`} data-testid="live-indicator" data-status={ui.live} title="live connection">
          ● {ui.live}
        </span>
        <button class="fit" data-testid="fit-view" title="Fit the whole graph into view (F)" onClick$={() => ctrl.value?.view.fitToView()}>
          Fit
        </button>
        <span data-testid="total-facts">{ui.totalFacts} facts</span>
        <span>{ui.links} links</span>
        <span>{ui.openConflicts} open conflicts</span>
        {ui.mode === 'clusters' && (
          <span class="mode" data-testid="view-mode">
            Clustered view: {ui.drawn} groups and facts drawn for {ui.totalFacts} facts (click a group to expand it)
          </span>
        )}
        {ui.truncated && <span class="mode">Showing the first 20,000 facts</span>}
        {ui.notice && (
          <span class="notice" data-testid="notice" onClick$={() => (ui.notice = '')}>
            {ui.notice}
          </span>
        )}
      </header>
      <Sidebar ui={ui} ctrl={ctrl} />
      <main>
        <canvas ref={canvas} data-testid="graph-canvas" />
        <Timeline ui={ui} ctrl={ctrl} />
      </main>
      <aside class="right">
        <Why ui={ui} ctrl={ctrl} />
        <nav>
          <button class={tab.value === 'inspect' ? 'on' : ''} data-testid="tab-inspect" onClick$={() => (tab.value = 'inspect')}>
            Inspect
          </button>
          <button
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
