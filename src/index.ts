/** The public library API of hybrid-mem. */
export { openMemory, startSemantic, type OpenMemoryOptions } from './main.js';
export { AuthRecallHook, type AuthRecallOutcome, type AuthRecallOptions } from './recall/hook.js';
export type { Turn } from './recall/turn.js';
export { MemoryService, type MemoryServiceOptions } from './memory/service.js';
export { resolveConfig, loadConfigFile, defaultDataDir, type ResolvedConfig } from './config/resolve.js';
export { configJsonSchema } from './config/json-schema.js';
export { PLUGIN_ID } from './config/defaults.js';
export { MemoryError, ERROR_CODES, type ErrorCode, type WireError, toWire, fromWire } from './core/errors.js';
export type { FactId, LinkId, ConflictId, EpisodeId, RecallEventId } from './core/ids.js';
export * from './core/types.js';
export type { MemoryEvent, EventKind } from './core/events.js';
export type { StoreInput, EditInput, LinkInput, RecallInput, VaultPutInput } from './memory/inputs.js';
export {
  CollabService,
  type CollabServiceOptions,
  type AddCommentInput,
  type CreateOrgInput,
  type CreateSpaceInput,
  type CreateSuggestionInput,
  type GrantInput,
  type MemberInput,
  type MemberRef,
  type SpaceFactInput,
  type UpdateOrgInput,
  type UpdateSpaceInput,
  type UpdateSuggestionInput,
} from './collab/service.js';
export * from './core/collab.js';
export { ROLE_PERMISSIONS, OVERRIDING_ROLES, ORG_ACTIONS, ORG_ACTION_ROLES, effectivePermissions, type OrgAction, type SpaceAccess } from './core/collab-rules.js';
export type { OrgId, SpaceId, SuggestionId, CommentId, ActivityId } from './core/ids.js';
export {
  HOOK_NAMES,
  CAPABILITIES,
  PLUGIN_POLICIES,
  type HybridMemPlugin,
  type PluginContext,
  type PluginService,
  type PluginVectorDb,
  type PluginLogger,
  type PluginMetadata,
  type PluginCapabilities,
  type Capability,
  type PluginPolicy,
  type Veto,
  type EndpointRequest,
  type EndpointResponse,
  type EndpointHandler,
  type CommandHandler,
  type CommandResult,
  type Awaitable,
  type HookName,
  type FactDraft,
  type StoreInfo,
  type DeleteInfo,
  type SearchQuery,
  type SearchInfo,
  type SearchHit,
} from './plugins/types.js';
export { PluginHost, type PluginHostOptions, type PluginFailure, type PluginStatus } from './plugins/host.js';
export { attachEnabledPlugins, type AttachOptions } from './plugins/load.js';
export { readManifest, type PluginManifest } from './plugins/manifest.js';
export type { ServicePlugins } from './memory/plugin-hooks.js';
