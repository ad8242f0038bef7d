/**
 * The activity feed: the recent changes from the event log first, then every live one, newest on top. A
 * recall's line is a button (Tab reaches it, Enter opens it): it explains the recall.
 */
import { component$ } from '@builder.io/qwik';
import type { FeedLine } from '../lib/state';
import type { Props } from './props';

const Line = ({ l }: { l: FeedLine }) => (
  <>
    <time>{new Date(l.at).toLocaleTimeString()}</time> <span class="kind">{l.kind.toLowerCase().replace('_', ' ')}</span> <span>{l.text}</span>
  </>
);

export const Feed = component$(({ ui, ctrl }: Props) => (
  <footer class="feed" data-testid="feed" aria-label="Activity">
    <h3>Activity</h3>
    <div class="lines">
      {ui.feed.length === 0 && (
        <p class="empty-feed" data-testid="feed-empty">
          Nothing has happened yet. Storing, recalling, editing and linking facts shows up here as it happens; click a recall to see why it returned what it did.
        </p>
      )}
      {ui.feed
        .slice(-60)
        .reverse()
        .map((l) =>
          l.recallId ? (
            <button key={l.key} type="button" class="line recall" data-testid="feed-line" data-kind={l.kind} title="Why was this recalled?" onClick$={() => l.recallId && void ctrl.value?.why(l.recallId)}>
              <Line l={l} />
            </button>
          ) : (
            <div key={l.key} class="line" data-testid="feed-line" data-kind={l.kind}>
              <Line l={l} />
            </div>
          ),
        )}
    </div>
  </footer>
));
