/**
 * Every default in one place, copied from the spec's configuration tables (autoRecall, dashboard) and
 * from our own choices (store, vault, maintenance), each documented in README.md ("Configuration").
 */
export const PLUGIN_ID = 'hybrid-mem';

export const DEFAULTS = {
  store: {
    /** `normal` (WAL + synchronous=NORMAL) survives process crashes; `full` also survives power loss. */
    durability: 'normal' as 'normal' | 'full',
    busyTimeoutMs: 5000,
    /** Event-log rows older than this are trimmed by maintenance. */
    eventRetentionDays: 7,
    /** Deleted facts stay readable "as of" an earlier time for this long, then are purged. 0 = never purge. */
    deletedRetentionDays: 30,
    /** recall_events older than this are trimmed by maintenance. */
    recallRetentionDays: 90,
  },
  autoRecall: {
    enabled: true,
    authFailure: {
      enabled: true,
      /** null = the built-in pattern set. */
      patterns: null as string[] | null,
      maxRecallsPerTarget: 1,
      includeVaultHints: true,
    },
  },
  dashboard: {
    enabled: true,
    port: 7700,
    token: null as string | null,
  },
  vault: {
    /** null = `<data dir>/vault.key`, created with mode 0600 on first use. HYBRID_MEM_VAULT_KEY overrides. */
    keyFile: null as string | null,
  },
  maintenance: {
    /** How often `hybrid-mem serve` runs decay, expiry and trimming. */
    intervalMinutes: 60,
  },
} as const;
