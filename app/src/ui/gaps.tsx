/** Graph gaps, each actionable: orphans, suggested links, conflicts, weak links, stale facts. */
import { component$ } from '@builder.io/qwik';
import type { Props } from './props';

export const Gaps = component$(({ ui, ctrl }: Props) => {
  const g = ui.gaps;
  if (!g) return <p class="empty">Loading gaps…</p>;
  const show = (id: string) => {
    void ctrl.value?.expand(id);
    ctrl.value?.view.select(id);
  };
  return (
    <div class="gaps">
      <h4>Conflicts ({g.conflicts.length})</h4>
      {g.conflicts.length === 0 && <p class="none">No open conflicts: nothing contradicts.</p>}
      <ul data-testid="gaps-conflicts">
        {g.conflicts.map((c) => (
          <li key={c.id} data-testid="conflict" data-id={c.id}>
            <a href="#" preventdefault:click onClick$={() => show(c.newFactId)}>
              {c.newFact?.label ?? c.newFactId}
            </a>{' '}
            vs{' '}
            <a href="#" preventdefault:click onClick$={() => show(c.oldFactId)}>
              {c.oldFact?.label ?? c.oldFactId}
            </a>
            <small> {c.reason}</small>
            <div>
              <button class="small" data-testid="resolve-keep_new" onClick$={() => ctrl.value?.resolveConflict(c.id, 'keep_new')}>
                keep new
              </button>
              <button class="small" data-testid="resolve-keep_old" onClick$={() => ctrl.value?.resolveConflict(c.id, 'keep_old')}>
                keep old
              </button>
              <button class="small" data-testid="resolve-both_fine" onClick$={() => ctrl.value?.resolveConflict(c.id, 'both_fine')}>
                both fine
              </button>
            </div>
          </li>
        ))}
      </ul>
      <h4>Suggested links ({g.suggested.length})</h4>
      {g.suggested.length === 0 && !g.suggestedNote && <p class="none">No suggestions.</p>}
      {g.suggestedNote && <p class="empty">{g.suggestedNote}</p>}
      <ul data-testid="gaps-suggested">
        {g.suggested.map((s) => (
          <li key={`${s.source}-${s.target}`} data-testid="suggestion">
            {s.sourceFact?.label ?? s.source} ↔ {s.targetFact?.label ?? s.target} <small>{s.similarity.toFixed(2)}</small>{' '}
            <button class="small" data-testid="accept-suggestion" onClick$={() => ctrl.value?.acceptSuggestion(s.source, s.target)}>
              link
            </button>
          </li>
        ))}
      </ul>
      <h4>Orphans ({g.orphans.length})</h4>
      {g.orphans.length === 0 && <p class="none">No orphans: every fact has a link.</p>}
      <ul data-testid="gaps-orphans">
        {g.orphans.map((o) => (
          <li key={o.id} data-testid="orphan" data-id={o.id}>
            <a href="#" preventdefault:click onClick$={() => show(o.id)}>
              {o.label}
            </a>
          </li>
        ))}
      </ul>
      <h4>Weak links ({g.weakLinks.length})</h4>
      {g.weakLinks.length === 0 && <p class="none">No weak links.</p>}
      <ul data-testid="gaps-weak">
        {g.weakLinks.map((l) => (
          <li key={l.id} data-testid="weak-link" data-id={l.id}>
            {l.linkType} {l.strength.toFixed(2)}{' '}
            <a href="#" preventdefault:click onClick$={() => show(l.source)}>
              show
            </a>{' '}
            <button class="small" data-testid="cut-weak" onClick$={() => ctrl.value?.cutLink(l.id)}>
              cut
            </button>
          </li>
        ))}
      </ul>
      <h4>Stale facts ({g.staleFacts.length})</h4>
      {g.staleFacts.length === 0 && <p class="none">Nothing stale.</p>}
      <ul data-testid="gaps-stale">
        {g.staleFacts.map((f) => (
          <li key={f.id} data-testid="stale" data-id={f.id}>
            <a href="#" preventdefault:click onClick$={() => show(f.id)}>
              {f.label}
            </a>{' '}
            <button class="small" data-testid="stale-pin" onClick$={async () => { await ctrl.value?.setPinned(f.id, true); await ctrl.value?.loadGaps(); }}>
              keep (pin)
            </button>{' '}
            <button class="small danger" data-testid="stale-delete" onClick$={async () => { await ctrl.value?.deleteFact(f.id); await ctrl.value?.loadGaps(); }}>
              delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
});
