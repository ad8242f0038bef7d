/** Filters (category, minimum strength, superseded), the search box, and adding a fact. */
import { component$, useSignal, useTask$ } from '@builder.io/qwik';
import { categoryVar } from '../graph/style';
import { CATEGORIES, type Category } from '../lib/types';
import type { Props } from './props';

export const Sidebar = component$(({ ui, ctrl }: Props) => {
  const text = useSignal('');
  const category = useSignal<Category>('fact');
  const entity = useSignal('');
  useTask$(({ track }) => {
    if (track(() => ui.added) === 0) return;
    text.value = '';
    entity.value = '';
  });
  const filtered = ui.filter.categories.length > 0 || ui.filter.minStrength > 0 || ui.filter.includeSuperseded;
  return (
    <aside class="left">
      <section>
        <h3>
          <label for="search-input" class="block">
            Search
          </label>
        </h3>
        <input id="search-input" data-testid="search-input" type="search" placeholder="Text or entity" value={ui.filter.search} onInput$={(_, el) => ctrl.value?.search(el.value)} />
        <ul class="hits">
          {ui.searchHits.map((h) => (
            <li key={h.id} data-testid="search-hit" data-id={h.id}>
              <a
                href="#"
                preventdefault:click
                title={h.label}
                onClick$={() => {
                  if (ui.linkFrom && h.id !== ui.linkFrom) ui.linkTarget = h.id;
                  else {
                    void ctrl.value?.expand(h.id);
                    ctrl.value?.view.select(h.id);
                  }
                }}
              >
                {h.label}
              </a>{' '}
              <small>{h.score.toFixed(2)}</small>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3>Filters</h3>
        <div class="cats" role="group" aria-label="Categories (none checked: all)">
          {CATEGORIES.map((c) => (
            <label key={c} class="cat">
              <input
                type="checkbox"
                data-testid={`filter-category-${c}`}
                checked={ui.filter.categories.includes(c)}
                onChange$={(_, el) => {
                  const set = new Set(ui.filter.categories);
                  if (el.checked) set.add(c);
                  else set.delete(c);
                  ctrl.value?.setFilter({ categories: CATEGORIES.filter((x) => set.has(x)) });
                }}
              />
              <i class="swatch" style={{ background: categoryVar(c) }} /> {c}
            </label>
          ))}
        </div>
        <label class="block">
          <span class="range-label">
            <span>minimum strength</span> <output>{ui.filter.minStrength.toFixed(2)}</output>
          </span>
          <input
            type="range"
            min="0"
            max="1"
            step="0.05"
            data-testid="filter-min-strength"
            value={ui.filter.minStrength}
            onChange$={(_, el) => ctrl.value?.setFilter({ minStrength: Number(el.value) })}
          />
        </label>
        <label>
          <input type="checkbox" data-testid="filter-superseded" checked={ui.filter.includeSuperseded} onChange$={(_, el) => ctrl.value?.setFilter({ includeSuperseded: el.checked })} /> show
          superseded versions
        </label>
        {filtered && (
          <button class="small filters-reset" data-testid="filters-reset" onClick$={() => ctrl.value?.setFilter({ categories: [], minStrength: 0, includeSuperseded: false })}>
            Reset filters
          </button>
        )}
      </section>
      <section>
        <h3>Add a fact</h3>
        <div class="form">
          <textarea data-testid="add-text" rows={3} bind:value={text} placeholder="What should be remembered" aria-label="Fact text" />
          <div class="row">
            <select data-testid="add-category" bind:value={category} aria-label="Category">
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <input data-testid="add-entity" placeholder="Entity (optional)" bind:value={entity} aria-label="Entity" />
          </div>
          <button
            class="primary"
            data-testid="add-submit"
            disabled={text.value.trim() === ''}
            onClick$={() => ctrl.value?.createFact({ text: text.value.trim(), category: category.value, entity: entity.value.trim() || undefined })}
          >
            Add fact
          </button>
        </div>
      </section>
    </aside>
  );
});
