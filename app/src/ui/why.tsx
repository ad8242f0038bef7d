/**
 * Why was this recalled? (issue 21): a recall's line in the feed, clicked, opens this: the query (and for a
 * credential hint the target it detected and the part of the turn that showed the failure, redacted), then
 * every fact it returned, highlighted in the graph, with its rank and score in each leg of hybrid search
 * (full text, vectors) and the fused score.
 */
import { component$ } from '@builder.io/qwik';
import type { Props } from './props';

const rank = (r: number | null): string => (r === null ? '–' : `#${r}`);
const num = (x: number | null, digits = 2): string => (x === null ? '–' : x.toFixed(digits));

export const Why = component$(({ ui, ctrl }: Props) => {
  const w = ui.why;
  if (!w) return null;
  const what = w.kind === 'relevant' ? 'Memories given to a turn' : w.kind === 'auth_failure' ? `Credential hint for ${w.target ?? '?'}` : 'Recall';
  return (
    <section class="why" data-testid="why-panel">
      <header>
        <b>Why recalled</b>
        <button class="close ghost small" data-testid="why-close" title="Close" aria-label="Close" onClick$={() => ctrl.value?.closeWhy()}>
          ×
        </button>
      </header>
      <p>
        {what}: <q data-testid="why-query">{w.query}</q> <time>{new Date(w.createdAt).toLocaleString()}</time>
      </p>
      {w.excerpt && (
        <figure class="excerpt">
          <figcaption>The turn showed the failure (secrets redacted):</figcaption>
          <pre data-testid="why-excerpt">{w.excerpt}</pre>
        </figure>
      )}
      {w.rows.length === 0 ? (
        <p class="empty">It returned no fact you can see.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>fact</th>
              <th title="score given to the agent">score</th>
              <th title="rank in the full-text leg (bm25)">text</th>
              <th title="rank in the vector leg (cosine similarity)">vector</th>
              <th title="fused score">fused</th>
            </tr>
          </thead>
          <tbody>
            {w.rows.map((r) => (
              <tr key={r.factId} data-testid="why-row" data-fact-id={r.factId}>
                <td>{r.label}</td>
                <td>{num(r.score)}</td>
                <td data-testid="why-fts">
                  {rank(r.ftsRank)}
                  {r.replyTo && <small title="a reply: it carries the full-text match of the turn it follows"> (reply)</small>}
                </td>
                <td data-testid="why-vector">
                  {rank(r.vectorRank)}
                  {r.similarity !== null && <small> ({num(r.similarity)})</small>}
                </td>
                <td>{num(r.fused, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
});
