import { z } from 'zod';
import { configSchema } from './schema.js';

/** The published JSON Schema of the plugin config (what a user may write). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $id: 'https://hybrid-mem.dev/config.schema.json', title: 'hybrid-mem plugin config', ...schema };
}
