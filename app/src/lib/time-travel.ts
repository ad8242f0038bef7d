/**
 * Time travel: which time the graph shows (null: now, live), kept in the URL (`?asOf=<ISO time>`), and the
 * player that walks the history from its start to now. Reading the graph is the controller's; this only
 * sets `ui.asOf` and asks for a read, coalescing: while one read is in flight only the latest time asked
 * for is read next.
 */
import type { UiState } from './state';

/** The player steps from the start of the history to now, one graph read per step. */
const PLAY_STEPS = 60;
const PLAY_STEP_MS = 200;

/** `?asOf=` in the page's URL: epoch ms or an ISO date; null when absent or not a time. */
export function asOfFromUrl(search: string): number | null {
  const raw = new URLSearchParams(search).get('asOf');
  if (!raw) return null;
  const t = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  return Number.isFinite(t) && t >= 0 ? t : null;
}

export class TimeTravel {
  private reading = false;
  private again = false;

  constructor(
    private readonly ui: UiState,
    private readonly read: () => Promise<void>,
  ) {}

  /** Show the memory as of `t` (epoch ms), or now (null, or a time at or past now). */
  async travel(t: number | null): Promise<void> {
    this.ui.asOf = t === null || t >= Date.now() ? null : Math.max(0, Math.round(t));
    const url = new URL(location.href);
    if (this.ui.asOf === null) url.searchParams.delete('asOf');
    else url.searchParams.set('asOf', new Date(this.ui.asOf).toISOString());
    history.replaceState(history.state, '', url);
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
    } finally {
      this.reading = false;
    }
  }

  /** Play the history: from the time shown (from the start when showing now) to now, then live again. */
  async play(): Promise<void> {
    if (this.ui.playing) return;
    const end = Date.now();
    const start = this.ui.asOf ?? this.ui.historyFrom ?? end;
    if (start >= end) return;
    this.ui.playing = true;
    const step = (end - start) / PLAY_STEPS;
    for (let t = start; this.ui.playing; t += step) {
      await this.travel(t >= end ? null : t);
      if (this.ui.asOf === null) break;
      await new Promise((r) => setTimeout(r, PLAY_STEP_MS));
    }
    this.ui.playing = false;
  }

  pause(): void {
    this.ui.playing = false;
  }
}
