/** The activity feed: stored recall history first, then every live event. */
import { component$ } from '@builder.io/qwik';
import type { UiState } from '../lib/controller';

export const Feed = component$(({ ui }: { ui: UiState }) => (
  <footer class="feed" data-testid="feed">
    {ui.feed
      .slice(-60)
      .reverse()
      .map((l) => (
        <div key={l.key} class="line" data-testid="feed-line" data-kind={l.kind}>
          <time>{new Date(l.at).toLocaleTimeString()}</time> <b>{l.kind.toLowerCase().replace('_', ' ')}</b> {l.text}
        </div>
      ))}
  </footer>
));
