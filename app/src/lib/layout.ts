/**
 * How the graph places facts: by their links and strength (the force layout's default), or by meaning:
 * the semantic map (GraphQL `semanticMap`, a 2-D projection of the facts' embeddings) of the same filter
 * and time, each fact pulled to its place. Facts without a vector wait on an outer ring, and the header
 * says how many.
 */
import type { GraphView } from '../graph/view';
import * as D from './documents';
import { gql } from './gql';
import type { UiState } from './state';

interface MapAnswer {
  semanticMap: { points: { id: string; x: number; y: number }[]; unplaced: number; model: string | null };
}

export class LayoutSwitch {
  constructor(
    private readonly ui: UiState,
    private readonly view: GraphView,
    private readonly filter: () => Record<string, unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  async set(layout: 'links' | 'meaning'): Promise<void> {
    this.ui.layout = layout;
    if (layout === 'links') {
      this.ui.mapNote = '';
      this.view.setPlaces(null, true);
      return;
    }
    await this.refresh(true);
  }

  /** Read the map for the graph shown; `fit`: fit the view as the facts move to their places (a switch). */
  async refresh(fit = false): Promise<void> {
    try {
      const m = (await gql<MapAnswer>(D.SEMANTIC_MAP, { filter: this.filter() })).semanticMap;
      if (this.ui.layout !== 'meaning') return;
      this.view.setPlaces(new Map(m.points.map((p) => [p.id, [p.x, p.y] as const])), fit);
      this.ui.mapNote =
        m.model === null
          ? 'Nothing has been embedded yet: the semantic map needs the embedding model (hybrid-mem serve embeds facts as they arrive).'
          : m.unplaced > 0
            ? `${m.unplaced} ${m.unplaced === 1 ? 'fact has' : 'facts have'} no vector yet and ${m.unplaced === 1 ? 'waits' : 'wait'} on the outer ring.`
            : '';
    } catch (err) {
      this.onError(err);
    }
  }
}
