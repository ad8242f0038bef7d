/** stats and maintenance. */
import { plural } from '../format.js';
import type { CommandSpec } from '../spec.js';

export const statsCommand: CommandSpec = {
  name: 'stats',
  summary: 'counts of facts, links and open conflicts',
  args: [],
  options: {},
  run({ cli }) {
    const s = cli.service().stats();
    const categories = Object.entries(s.byCategory)
      .filter(([, n]) => n > 0)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    const human = [
      `${plural(s.totalFacts, 'current fact')} (${plural(s.supersededFacts, 'superseded version')})`,
      `${plural(s.links, 'link')}, ${plural(s.openConflicts, 'open conflict')}`,
      ...(categories ? [`by category: ${categories}`] : []),
      `database: ${cli.config().dbPath}`,
    ];
    return { human, json: { ...s, dbPath: cli.config().dbPath } };
  },
};

export const maintenanceCommand: CommandSpec = {
  name: 'maintenance',
  summary: 'run one maintenance pass (integrity check, expiry, decay, purge, trimming) and print its report',
  args: [],
  options: {},
  async run({ cli }) {
    const svc = await cli.serviceWithPlugins();
    const r = svc.runMaintenance();
    await svc.plugins?.onMaintenance(r);
    const human = [
      `expired ${r.expired}, decayed ${r.decayed}, strength refreshed ${r.strengthUpdated}, purged ${r.purged}`,
      `events trimmed ${r.eventsTrimmed}, recalls trimmed ${r.recallsTrimmed} (${r.tookMs} ms)`,
      `integrity check ok (${r.integrityCheckMs} ms)`,
    ];
    return { human, json: r };
  },
};
