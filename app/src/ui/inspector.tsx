/** The selected fact: every field, its versions and links; edit, pin, delete, expand, bond and re-link. */
import { component$, useSignal, useTask$ } from '@builder.io/qwik';
import { categoryVar } from '../graph/style';
import { LINK_TYPES, type LinkType } from '../lib/types';
import type { Props } from './props';

/** At most two decimals, without trailing zeros (0.9, 0.87). */
const short = (x: number): string => String(Number(x.toFixed(2)));
const when = (t: number | null): string => (t === null ? '—' : new Date(t).toISOString().replace('T', ' ').slice(0, 19));

export const Inspector = component$(({ ui, ctrl }: Props) => {
  const draft = useSignal('');
  const linkType = useSignal<LinkType>('RELATED_TO');
  useTask$(({ track }) => {
    draft.value = track(() => ui.detail?.text ?? '');
  });
  const f = ui.detail;
  if (!f)
    return (
      <div class="empty-panel" data-testid="inspector-empty">
        <svg width="56" height="56" viewBox="0 0 36 36" aria-hidden="true">
          <line x1="10" y1="24" x2="26" y2="12" style={{ stroke: 'var(--border-strong)', strokeWidth: 2 }} />
          <circle cx="10" cy="24" r="6" style={{ fill: 'var(--cat-fact)' }} />
          <circle cx="26" cy="12" r="4" style={{ fill: 'var(--cat-technical)' }} />
        </svg>
        <strong>Click a fact in the graph to inspect it.</strong>
        <p>Its text, strength, versions and links show here, where you can edit, pin, link or delete it.</p>
        <p>
          Keyboard: focus the graph, then <kbd>N</kbd> / <kbd>P</kbd> step through the facts.
        </p>
      </div>
    );
  return (
    <div class="inspector" data-testid="inspector" data-id={f.id}>
      <h3 data-testid="inspector-text">{f.text}</h3>
      <div class="chips">
        <span class="chip">
          <i class="swatch" style={{ background: categoryVar(f.category) }} />
          {f.category}
        </span>
        {f.entity && <span class="chip">{f.entity}</span>}
        {f.pinned && <span class="chip">pinned</span>}
        {f.superseded && <span class="chip">superseded</span>}
      </div>
      <dl>
        <dt>id</dt>
        <dd class="mono">{f.id}</dd>
        <dt>category</dt>
        <dd data-testid="inspector-category">{f.category}</dd>
        <dt>entity</dt>
        <dd>{f.entity ?? '—'}</dd>
        <dt>tags</dt>
        <dd>{f.tags.join(', ') || '—'}</dd>
        <dt>strength</dt>
        <dd data-testid="inspector-strength">{f.strength.toFixed(3)}</dd>
        <dt>importance / confidence</dt>
        <dd>
          {short(f.importance)} / {short(f.confidence)}
        </dd>
        <dt>decay</dt>
        <dd>
          {f.decayClass}
          {f.decay.halfLifeDays !== null ? `, half-life ${f.decay.halfLifeDays} d` : ''}, recency {f.decay.recency.toFixed(2)}
          {f.decay.frozen ? ' (frozen)' : ''}
        </dd>
        <dt>expires</dt>
        <dd>{when(f.expiresAt)}</dd>
        <dt>pinned</dt>
        <dd data-testid="inspector-pinned">{f.pinned ? 'yes' : 'no'}</dd>
        <dt>scope</dt>
        <dd>
          {f.scope.kind}
          {f.scope.agentId ? ` agent ${f.scope.agentId}` : ''}
          {f.scope.sessionId ? ` session ${f.scope.sessionId}` : ''}
        </dd>
        <dt>version</dt>
        <dd>
          {f.version}
          {f.superseded ? ' (superseded)' : ''}
        </dd>
        <dt>recalled</dt>
        <dd>
          {f.recallCount} times, last {when(f.lastRecalledAt)}
        </dd>
        <dt>created / updated</dt>
        <dd>
          {when(f.createdAt)} / {when(f.updatedAt)}
        </dd>
      </dl>
      <div class="actions">
        <button data-testid="pin-toggle" onClick$={() => ctrl.value?.setPinned(f.id, !f.pinned)}>
          {f.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button data-testid="expand-neighbors" onClick$={() => ctrl.value?.expand(f.id)}>
          Load neighbours
        </button>
        <button
          data-testid="delete-fact"
          class="danger"
          onClick$={() => {
            if (confirm('Delete this fact?')) void ctrl.value?.deleteFact(f.id);
          }}
        >
          Delete
        </button>
      </div>
      <h4>Edit text</h4>
      <textarea data-testid="edit-text" rows={3} bind:value={draft} aria-label="Fact text" />
      <button data-testid="edit-save" disabled={draft.value.trim() === '' || draft.value.trim() === f.text} onClick$={() => ctrl.value?.editText(f.id, draft.value.trim())}>
        Save as new version
      </button>
      <h4>Link to another fact</h4>
      {ui.linkFrom !== f.id ? (
        <button
          data-testid="link-start"
          onClick$={() => {
            ui.linkFrom = f.id;
            ui.linkTarget = null;
          }}
        >
          Bond with…
        </button>
      ) : (
        <div class="bond">
          <p data-testid="link-target-label">{ui.linkTarget ? `to ${ui.linkTarget}` : 'Click the other fact in the graph (or a search hit).'}</p>
          <select data-testid="link-type" bind:value={linkType} aria-label="Link type">
            {LINK_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <button class="primary" data-testid="link-confirm" disabled={!ui.linkTarget} onClick$={() => ui.linkTarget && ctrl.value?.link(f.id, ui.linkTarget, linkType.value)}>
            Create link
          </button>
          <button
            onClick$={() => {
              ui.linkFrom = null;
              ui.linkTarget = null;
            }}
          >
            Cancel
          </button>
        </div>
      )}
      <h4>Links ({f.links.length})</h4>
      {f.links.length === 0 && <p class="empty">No links yet: <i>Bond with…</i> links it to another fact.</p>}
      <ul class="links">
        {f.links.map((l) => (
          <li key={l.id} data-testid="inspector-link" data-id={l.id}>
            <span class="target">
              {l.source === f.id ? '→' : '←'} {l.source === f.id ? l.target : l.source}
            </span>{' '}
            <select data-testid="link-type-select" aria-label="Link type" value={l.linkType} onChange$={(_, el) => ctrl.value?.changeLinkType(l.id, el.value as LinkType)}>
              {LINK_TYPES.map((t) => (
                <option key={t} value={t} selected={t === l.linkType}>
                  {t}
                </option>
              ))}
            </select>{' '}
            <small>{l.strength.toFixed(2)}</small>{' '}
            <button class="small" data-testid="link-cut" onClick$={() => ctrl.value?.cutLink(l.id)}>
              cut
            </button>
          </li>
        ))}
      </ul>
      <h4>Versions ({f.versions.length})</h4>
      <ol class="versions">
        {f.versions.map((v) => (
          <li key={v.id} data-testid="inspector-version" class={v.superseded ? 'old' : ''}>
            v{v.version} {when(v.createdAt)}: {v.text}
          </li>
        ))}
      </ol>
    </div>
  );
});
