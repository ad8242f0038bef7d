/** The command registry, in the order `hybrid-mem --help` lists them. */
import type { CommandSpec } from '../spec.js';
import { configCheckCommand } from './config.js';
import { conflictsCommand, resolveCommand } from './conflicts.js';
import { doctorCommand } from './doctor.js';
import { deleteCommand, editCommand, listCommand, pinCommand, showCommand, unpinCommand } from './facts.js';
import { mcpCommand } from './mcp.js';
import { linkCommand, linkTypeCommand, unlinkCommand } from './links.js';
import { dashboardCommand, serveCommand } from './serve.js';
import { reindexCommand } from './semantic.js';
import { authRecallCheckCommand } from './auth-recall.js';
import { captureCommand } from './capture.js';
import { maintenanceCommand, statsCommand } from './status.js';
import { recallCommand, storeCommand } from './store.js';
import { exportCommand, importCommand } from './transfer.js';
import { PLUGIN_COMMANDS } from './plugin.js';
import { vaultGetCommand, vaultListCommand, vaultPutCommand, vaultRemoveCommand } from './vault.js';

export const COMMANDS: readonly CommandSpec[] = [
  storeCommand,
  recallCommand,
  showCommand,
  listCommand,
  editCommand,
  deleteCommand,
  pinCommand,
  unpinCommand,
  linkCommand,
  unlinkCommand,
  linkTypeCommand,
  conflictsCommand,
  resolveCommand,
  vaultPutCommand,
  vaultListCommand,
  vaultGetCommand,
  vaultRemoveCommand,
  importCommand,
  exportCommand,
  configCheckCommand,
  statsCommand,
  maintenanceCommand,
  doctorCommand,
  reindexCommand,
  authRecallCheckCommand,
  captureCommand,
  serveCommand,
  dashboardCommand,
  mcpCommand,
  ...PLUGIN_COMMANDS,
];

/** First words of two-word commands ("vault put" -> "vault"). */
export const GROUPS: ReadonlySet<string> = new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0] as string));

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
