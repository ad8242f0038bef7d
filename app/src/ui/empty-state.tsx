/**
 * What the canvas says when it has nothing to draw, and what to do next: the graph is loading; the memory
 * is empty (how to store a first fact); the filters hide every fact (reset them); a past time before the
 * first fact (back to now).
 */
import { component$ } from '@builder.io/qwik';
import type { Props } from './props';

export interface EmptyStateProps extends Props {
  /** The first graph was read and laid out (before that, it is loading). */
  ready: boolean;
}

export const EmptyState = component$(({ ui, ctrl, ready }: EmptyStateProps) => {
  if (!ready)
    return (
      <div class="empty-state loading" data-testid="graph-loading" aria-live="polite">
        <div class="card">Loading the memory graph…</div>
      </div>
    );
  if (ui.drawn > 0) return null;
  if (ui.asOf !== null)
    return (
      <div class="empty-state" data-testid="empty-past">
        <div class="card panel">
          <h2>Nothing was stored yet at this time</h2>
          <p>Move the slider later, or go back to the live graph.</p>
          <div class="actions">
            <button class="primary" onClick$={() => void ctrl.value?.time.travel(null)}>
              Back to now
            </button>
          </div>
        </div>
      </div>
    );
  if (ui.totalFacts > 0)
    return (
      <div class="empty-state" data-testid="empty-filtered">
        <div class="card panel">
          <h2>No facts match these filters</h2>
          <p>
            The memory holds {ui.totalFacts} {ui.totalFacts === 1 ? 'fact' : 'facts'}, but the category and strength filters on the left hide every one of them.
          </p>
          <div class="actions">
            <button class="primary" data-testid="empty-reset-filters" onClick$={() => ctrl.value?.setFilter({ categories: [], minStrength: 0, includeSuperseded: false })}>
              Reset filters
            </button>
          </div>
        </div>
      </div>
    );
  return (
    <div class="empty-state" data-testid="empty-graph">
      <div class="card panel">
        <h2>No memories yet</h2>
        <p>Facts your agents remember appear here as a graph, live, the moment they are stored. Store a first one:</p>
        <ol>
          <li>
            <span>
              From a terminal:
              <pre>hybrid-mem store "The staging database listens on port 5433"</pre>
            </span>
          </li>
          <li>
            <span>
              From an agent: connect <code>hybrid-mem mcp</code> and it stores facts with the <code>memory_store</code> tool.
            </span>
          </li>
          <li>
            <span>
              Or here: type it under <b>Add a fact</b> on the left.
            </span>
          </li>
        </ol>
      </div>
    </div>
  );
});
