/**
 * Every GraphQL document the app sends. test/app-documents.test.ts validates each against the server's
 * schema, so the app and the server cannot drift.
 */
export const FACT_FIELDS = /* GraphQL */ `
  fragment NodeFields on Fact {
    id label category entity importance confidence strength cluster pinned superseded supersededBy expiresAt source
    decay { class halfLifeDays recency frozen }
  }`;

export const EDGE_FIELDS = /* GraphQL */ `
  fragment EdgeFields on Edge { id source target linkType strength weak }`;

export const GRAPH = /* GraphQL */ `
  query Graph($filter: GraphFilter) {
    graph(filter: $filter) { truncated nodes { ...NodeFields } edges { ...EdgeFields } }
    stats { totalFacts links openConflicts searchMode lastEventSeq firstFactAt }
  }
  ${FACT_FIELDS}
  ${EDGE_FIELDS}`;

export const SEMANTIC_MAP = /* GraphQL */ `
  query SemanticMap($filter: GraphFilter) { semanticMap(filter: $filter) { points { id x y } unplaced model } }`;

export const NEIGHBORS = /* GraphQL */ `
  query Neighbors($id: ID!) { neighbors(id: $id) { nodes { ...NodeFields } edges { ...EdgeFields } } }
  ${FACT_FIELDS}
  ${EDGE_FIELDS}`;

export const FACT_DETAIL = /* GraphQL */ `
  query FactDetail($id: ID!) {
    fact(id: $id) {
      ...NodeFields
      text tags decayClass lineageId version createdAt updatedAt lastRecalledAt recallCount supersedes
      scope { kind agentId sessionId }
      versions { id version text superseded createdAt }
      links { ...EdgeFields }
    }
  }
  ${FACT_FIELDS}
  ${EDGE_FIELDS}`;

export const SEARCH = /* GraphQL */ `
  query Search($query: String!) {
    search(query: $query, limit: 20) { mode degraded hits { score fact { ...NodeFields } } }
  }
  ${FACT_FIELDS}`;

export const GAPS = /* GraphQL */ `
  query Gaps {
    orphans(limit: 50) { id label category }
    conflicts { id reason newFactId oldFactId newFact { id label } oldFact { id label } }
    weakLinks(limit: 50) { ...EdgeFields }
    staleFacts(limit: 50) { id label category decayClass }
  }
  ${EDGE_FIELDS}`;

export const SUGGESTED_LINKS = /* GraphQL */ `
  query Suggested { suggestedLinks(limit: 30) { source target similarity sourceFact { id label } targetFact { id label } } }`;

export const APP_CONFIG_PATH = '/api/graph-app/config';

export const CREATE_FACT = /* GraphQL */ `
  mutation CreateFact($input: CreateFactInput!) { createFact(input: $input) { ...NodeFields } }
  ${FACT_FIELDS}`;

export const EDIT_FACT = /* GraphQL */ `
  mutation EditFact($id: ID!, $input: EditFactInput!) { editFact(id: $id, input: $input) { ...NodeFields } }
  ${FACT_FIELDS}`;

export const DELETE_FACT = /* GraphQL */ `mutation DeleteFact($id: ID!) { deleteFact(id: $id) { id deleted } }`;
export const PIN_FACT = /* GraphQL */ `mutation Pin($id: ID!) { pinFact(id: $id) { id pinned strength } }`;
export const UNPIN_FACT = /* GraphQL */ `mutation Unpin($id: ID!) { unpinFact(id: $id) { id pinned strength } }`;

export const CREATE_LINK = /* GraphQL */ `
  mutation CreateLink($source: ID!, $target: ID!, $linkType: LinkType!) { createLink(source: $source, target: $target, linkType: $linkType) { ...EdgeFields } }
  ${EDGE_FIELDS}`;

export const CHANGE_LINK_TYPE = /* GraphQL */ `
  mutation ChangeLinkType($id: ID!, $linkType: LinkType!) { changeLinkType(id: $id, linkType: $linkType) { ...EdgeFields } }
  ${EDGE_FIELDS}`;

export const DELETE_LINK = /* GraphQL */ `mutation DeleteLink($id: ID!) { deleteLink(id: $id) { id deleted } }`;

export const RESOLVE_CONFLICT = /* GraphQL */ `
  mutation Resolve($id: ID!, $resolution: ConflictResolution!) { resolveConflict(id: $id, resolution: $resolution) { id status } }`;

export const ACCEPT_SUGGESTED = /* GraphQL */ `
  mutation Accept($source: ID!, $target: ID!) { acceptSuggestedLink(source: $source, target: $target) { ...EdgeFields } }
  ${EDGE_FIELDS}`;

/** Why a recall returned what it did (a feed line clicked). */
export const RECALL_DETAIL = /* GraphQL */ `
  query RecallDetail($id: ID!) {
    recall(id: $id) { id kind query target excerpt createdAt scores { factId score ftsRank bm25 vectorRank similarity fused replyTo } }
  }`;

/** What the feed and the graph read of one change: the same on open (the event log) and live. */
const EVENT_FIELDS = /* GraphQL */ `
  fragment EventFields on MemoryEvent {
    seq at kind factId oldFactId pinned reason linkIds
    fact { ...NodeFields }
    link { ...EdgeFields }
    recall { id kind query target scores { factId score } }
    conflict { id reason }
  }
  ${FACT_FIELDS}
  ${EDGE_FIELDS}`;

/** The feed on open: the recent changes from the event log (then the live stream carries on). */
export const RECENT_ACTIVITY = /* GraphQL */ `
  query RecentActivity { activity(limit: 50) { ...EventFields } }
  ${EVENT_FIELDS}`;

export const ACTIVITY = /* GraphQL */ `
  subscription Activity { memoryActivity { ...EventFields } }
  ${EVENT_FIELDS}`;

/** Every document, by name (for the schema check). */
export const DOCUMENTS: Readonly<Record<string, string>> = {
  GRAPH, SEMANTIC_MAP, NEIGHBORS, FACT_DETAIL, SEARCH, RECENT_ACTIVITY, RECALL_DETAIL, GAPS, SUGGESTED_LINKS, CREATE_FACT, EDIT_FACT, DELETE_FACT, PIN_FACT, UNPIN_FACT,
  CREATE_LINK, CHANGE_LINK_TYPE, DELETE_LINK, RESOLVE_CONFLICT, ACCEPT_SUGGESTED, ACTIVITY,
};
