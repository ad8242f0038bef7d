/**
 * Time travel: a slider over the memory's history (from its earliest fact to now), play/pause to watch it
 * grow, and "Now" to go back to the live graph. The time shown is in the URL (`?asOf=`), so it can be linked.
 */
import { component$ } from '@builder.io/qwik';
import type { Props } from './props';

/** A time on the slider: to the minute, or to the second when the whole history is under an hour. */
const fmt = (t: number, span: number): string =>
  new Date(t).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(span < 3_600_000 ? { second: '2-digit' } : {}) });

export const Timeline = component$(({ ui, ctrl }: Props) => {
  const end = Date.now();
  const start = Math.min(ui.historyFrom ?? end, ui.asOf ?? end);
  const live = ui.asOf === null;
  const empty = start >= end;
  return (
    <div class={`timeline${live ? '' : ' past'}`} data-testid="timeline" role="group" aria-label="Time travel">
      <button
        data-testid="timeline-play"
        aria-label={ui.playing ? 'Pause' : 'Play the history'}
        title={ui.playing ? 'Pause' : 'Play the history: watch the memory grow'}
        disabled={empty}
        onClick$={() => (ui.playing ? ctrl.value?.time.pause() : void ctrl.value?.time.play())}
      >
        {ui.playing ? '❚❚' : '▶'}
      </button>
      <input
        type="range"
        data-testid="timeline-slider"
        aria-label="Show the memory as of"
        aria-valuetext={live ? 'now' : fmt(ui.asOf ?? end, end - start)}
        min={start}
        max={end}
        step={Math.max(1, Math.round((end - start) / 500))}
        value={ui.asOf ?? end}
        disabled={empty}
        onInput$={(_, el) => {
          ctrl.value?.time.pause();
          void ctrl.value?.time.travel(Number(el.value));
        }}
      />
      <span class="when" data-testid="timeline-label" aria-live="polite">
        {live ? 'Now (live)' : `As of ${fmt(ui.asOf ?? end, end - start)}: ${ui.pastFacts} ${ui.pastFacts === 1 ? 'fact' : 'facts'}`}
      </span>
      <button data-testid="timeline-now" disabled={live} title="Back to the live graph" onClick$={() => void ctrl.value?.time.travel(null)}>
        Now
      </button>
    </div>
  );
});
