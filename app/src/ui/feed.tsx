/** The activity feed: the recent changes from the event log first, then every live one; a recall's line explains it when clicked. */
import { component$ } from '@builder.io/qwik';
import type { Props } from './props';

export const Feed = component$(({ ui, ctrl }: Props) => (
  <footer class="feed" data-testid="feed">
    {ui.feed
      .slice(-60)
      .reverse()
      .map((l) => (
        <div
          key={l.key}
          class={l.recallId ? 'line recall' : 'line'}
          data-testid="feed-line"
          data-kind={l.kind}
          title={l.recallId ? 'Why was this recalled?' : undefined}
          onClick$={() => l.recallId && void ctrl.value?.why(l.recallId)}
        >
          <time>{new Date(l.at).toLocaleTimeString()}</time> <b>{l.kind.toLowerCase().replace('_', ' ')}</b> {l.text}
        </div>
      ))}
  </footer>
));
