/**
 * The dashboard's GraphQL schema (documented in docs/graphql.md). Enum values are the domain's own
 * spellings (src/core/types.ts), so nothing is translated between the API and the service. Times are
 * epoch milliseconds as Float (they do not fit GraphQL's 32-bit Int).
 */
export const SDL = /* GraphQL */ `
"Fact category (the spec's memory kinds)."
enum Category { preference decision entity fact other technical }
enum DecayClass { permanent stable episodic volatile }
enum LinkType { RELATED_TO CAUSED_BY PART_OF DEPENDS_ON SUPERSEDES INSTANCE_OF CONTRADICTS }
enum ScopeKind { global agent session }
enum ConflictStatus { unresolved resolved reviewed }
enum ConflictResolution { keep_new keep_old both_fine }
enum RecallKind { memory_recall auth_failure relevant }
enum SearchMode { hybrid fulltext }

type Scope { kind: ScopeKind!, agentId: String, sessionId: String }

"How a fact fades: its class, half-life and the recency factor now (1 = no decay)."
type Decay { class: DecayClass!, halfLifeDays: Float, recency: Float!, frozen: Boolean! }

"A fact version, as a graph node. label is the text shortened to one line."
type Fact {
  id: ID!
  label: String!
  text: String!
  category: Category!
  entity: String
  tags: [String!]!
  importance: Float!
  confidence: Float!
  "Strength now, in [0, 1]: sets the node's radial position and size."
  strength: Float!
  "Connected component within the graph answer (0 = largest); null outside graph and neighbors."
  cluster: Int
  decayClass: DecayClass!
  decay: Decay!
  expiresAt: Float
  pinned: Boolean!
  superseded: Boolean!
  supersededBy: ID
  supersedes: ID
  lineageId: ID!
  version: Int!
  scope: Scope!
  createdAt: Float!
  updatedAt: Float!
  lastRecalledAt: Float
  recallCount: Int!
  "What wrote it: tool, cli, import, graphql, plugin, system, collab or auto-capture (kept from a turn)."
  source: String!
  "Every version of this fact, oldest first."
  versions: [Fact!]!
  "Visible links touching this fact."
  links: [Edge!]!
}

type Edge {
  id: ID!
  source: ID!
  target: ID!
  linkType: LinkType!
  strength: Float!
  createdAt: Float!
  updatedAt: Float!
  lastStrengthenedAt: Float
  reinforcements: Int!
  "Below the weak-link strength and not reinforced for the weak-link window."
  weak: Boolean!
}

type Graph { nodes: [Fact!]!, edges: [Edge!]!, "More facts matched than the limit." truncated: Boolean! }

"A fact's place on the semantic map."
type MapPoint { id: ID!, "In [-1, 1]: the first principal component of the placed facts' embeddings." x: Float!, "In [-1, 1]: the second." y: Float! }
type SemanticMap {
  points: [MapPoint!]!
  "Facts the filter selects that have no vector (yet) from the current model: not placed."
  unplaced: Int!
  "The embedding model the vectors come from; null when nothing was ever embedded."
  model: String
  "More facts matched than the filter's limit."
  truncated: Boolean!
}

type CategoryCount { category: Category!, count: Int! }
type Stats {
  totalFacts: Int!
  supersededFacts: Int!
  links: Int!
  openConflicts: Int!
  byCategory: [CategoryCount!]!
  lastEventSeq: Float!
  "When the earliest visible fact became valid (epoch ms; where time travel starts); null with no facts."
  firstFactAt: Float
  "hybrid when the embedding and vector actors run, fulltext otherwise."
  searchMode: SearchMode!
}

type Episode { id: ID!, agentId: String, sessionId: String, title: String!, startedAt: Float!, lastActivityAt: Float!, factCount: Int!, recallCount: Int! }

type Conflict { id: ID!, newFact: Fact, oldFact: Fact, newFactId: ID!, oldFactId: ID!, status: ConflictStatus!, resolution: ConflictResolution, reason: String!, createdAt: Float!, resolvedAt: Float }

"Why a fact was recalled: rank and score in each leg of hybrid search; replyTo: the dialogue turn whose full-text match this reply carries."
type FactScore { factId: ID!, score: Float!, ftsRank: Int, bm25: Float, vectorRank: Int, similarity: Float, fused: Float, replyTo: ID }

type Caller { role: String!, agentId: String, sessionId: String }

type RecallEvent { id: ID!, kind: RecallKind!, query: String!, target: String, owner: Caller!, scores: [FactScore!]!, createdAt: Float!, "What in the turn triggered it (auth-failure hints: the failing lines and the command, secrets redacted); null otherwise." excerpt: String }

type SearchHit { fact: Fact!, score: Float!, why: FactScore! }
type SearchResult { hits: [SearchHit!]!, mode: SearchMode!, degraded: Boolean!, reason: String }

type SuggestedLink { source: ID!, target: ID!, similarity: Float!, sourceFact: Fact, targetFact: Fact }

input GraphFilter {
  categories: [Category!]
  minStrength: Float
  includeSuperseded: Boolean = false
  "Case-insensitive substring of the text or the entity."
  search: String
  entity: String
  limit: Int = 2000
  "Time travel: the memory as it was at this time (epoch ms): the versions valid then, the links that existed then, strengths as of then. includeSuperseded does not apply."
  asOf: Float
}

type Query {
  "Visible facts as nodes and the links among them (filters: category, minimum strength, superseded, text/entity)."
  graph(filter: GraphFilter): Graph!
  "The same facts placed by meaning: a 2-D projection (principal components) of their stored embeddings, so related memory sits together without links."
  semanticMap(filter: GraphFilter): SemanticMap!
  "A fact and its visible neighbours: expand a node without a full reload."
  neighbors(id: ID!, limit: Int = 200): Graph!
  stats: Stats!
  fact(id: ID!): Fact
  facts(filter: GraphFilter): [Fact!]!
  episodes(limit: Int = 50): [Episode!]!
  links(factId: ID, limit: Int = 1000): [Edge!]!
  "Hybrid search over the whole store (full text + vectors); a look-up, not a recall: nothing is logged."
  search(query: String!, limit: Int = 20, category: Category, includeSuperseded: Boolean = false): SearchResult!
  "The most recent changes the caller may see (stored, recalled, edited, linked, conflicts), oldest first: what the graph app's feed opens with, before the live stream (limit 1..200)."
  activity(limit: Int = 50): [MemoryEvent!]!
  "One recall the caller owns, with each fact's full-text rank, vector rank, similarity and fused score: why it was recalled (null: missing or not the caller's)."
  recall(id: ID!): RecallEvent
  "Recall history: only the caller's own recalls (the operator sees all)."
  recallHistory(limit: Int = 50, since: Float): [RecallEvent!]!
  orphans(limit: Int = 100): [Fact!]!
  "Near-duplicate or paraphrase pairs not linked yet (needs embeddings; computed on demand)."
  suggestedLinks(threshold: Float = 0.75, limit: Int = 50): [SuggestedLink!]!
  conflicts(status: ConflictStatus = unresolved): [Conflict!]!
  weakLinks(limit: Int = 100): [Edge!]!
  staleFacts(limit: Int = 100): [Fact!]!
}

input CreateFactInput {
  text: String!
  category: Category = fact
  entity: String
  tags: [String!]
  importance: Float
  confidence: Float
  decayClass: DecayClass
  "Epoch milliseconds."
  expiresAt: Float
  pinned: Boolean
  scope: ScopeKind = global
}

input EditFactInput {
  text: String
  category: Category
  entity: String
  tags: [String!]
  importance: Float
  confidence: Float
  decayClass: DecayClass
  expiresAt: Float
}

type DeleteResult { id: ID!, deleted: Boolean! }

type Mutation {
  createFact(input: CreateFactInput!): Fact!
  "A new version with the changes (text is re-embedded); the old version is superseded. Returns the new version."
  editFact(id: ID!, input: EditFactInput!): Fact!
  deleteFact(id: ID!): DeleteResult!
  pinFact(id: ID!): Fact!
  unpinFact(id: ID!): Fact!
  "Both facts must be current and in the caller's scope. Linking a linked pair again strengthens the link."
  createLink(source: ID!, target: ID!, linkType: LinkType = RELATED_TO, strength: Float): Edge!
  changeLinkType(id: ID!, linkType: LinkType!): Edge!
  deleteLink(id: ID!): DeleteResult!
  resolveConflict(id: ID!, resolution: ConflictResolution!): Conflict!
  "Create the suggested link (RELATED_TO unless told otherwise)."
  acceptSuggestedLink(source: ID!, target: ID!, linkType: LinkType = RELATED_TO): Edge!
}

enum EventKind {
  FACT_STORED FACT_SUPERSEDED FACT_DELETED FACT_UPDATED FACT_ENDED
  LINK_CREATED LINK_STRENGTHENED LINK_UPDATED LINK_DELETED
  RECALL CONFLICT_RAISED CONFLICT_RESOLVED
  PLUGIN
}

"An event a plugin emitted (context.emit). Every subscriber sees it."
type PluginEvent { pluginId: String!, event: String!, "The plugin's data as JSON text." data: String! }

"A recall as it reaches a subscriber: only the facts the subscriber may see, each with its score."
type RecallPulse { id: ID!, kind: RecallKind!, query: String!, target: String, scores: [FactScore!]! }

"One change in the store. seq is the resume point (also sent as the SSE event id)."
type MemoryEvent {
  seq: Float!
  at: Float!
  kind: EventKind!
  "fact.stored: the new fact (brief fields filled from the event)."
  fact: Fact
  "The fact a fact.* event is about (for fact.superseded the new version)."
  factId: ID
  "fact.superseded: the replaced version."
  oldFactId: ID
  pinned: Boolean
  "fact.ended: expired or decayed."
  reason: String
  link: Edge
  "link.deleted and fact.deleted: the links that went."
  linkIds: [ID!]
  recall: RecallPulse
  conflict: Conflict
  plugin: PluginEvent
}

type Subscription {
  "Live changes the caller may see. after: resume after this seq (missed events are replayed first)."
  memoryActivity(after: Float, kinds: [EventKind!]): MemoryEvent!
}
`;
