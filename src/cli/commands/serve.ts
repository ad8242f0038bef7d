/**
 * serve: keep the store open and run what lives beside it until SIGINT/SIGTERM. What runs is a list of
 * services (SERVE_SERVICES): the semantic layer, the plugins, the maintenance timer and the dashboard server.
 * The enabled plugins are loaded before any service starts (so the dashboard serves their endpoints), and
 * their onShutdown hooks run when serve stops.
 * dashboard: print the URL of the running dashboard server (or say none is running).
 */
import { escapeTerminal } from '../../core/terminal.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import { toWire } from '../../core/errors.js';
import { findRunningDashboard } from '../../http/record.js';
import type { MemoryService } from '../../memory/service.js';
import { int } from '../args.js';
import { plural } from '../format.js';
import type { CommandSpec } from '../spec.js';
import { outputIsPiped, untilStopped } from '../stopper.js';

export interface ServeContext {
  readonly svc: MemoryService;
  readonly config: ResolvedConfig;
  /** One line for the operator (stderr). */
  readonly log: (line: string) => void;
}

export interface RunningService {
  /** One status phrase, e.g. "maintenance every 60 min" ('' for none). */
  readonly status: string;
  stop(): Promise<void> | void;
}

/** Something `serve` starts beside the store and stops on shutdown, in reverse order. */
export interface ServeService {
  readonly name: string;
  start(ctx: ServeContext): Promise<RunningService> | RunningService;
}

const CHECKPOINT_EVERY_MS = 2000;

/** Runs a maintenance pass (in the maintenance worker) at start and every maintenance.intervalMinutes. */
export const maintenanceService: ServeService = {
  name: 'maintenance',
  async start({ svc, config, log }) {
    const { MaintenanceClient } = await import('../../actors/maintenance/client.js');
    const client = new MaintenanceClient(config);
    const pass = (): void => {
      client.run().then(
        (r) => {
          if (r.expired + r.decayed + r.purged > 0) log(`maintenance: expired ${r.expired}, decayed ${r.decayed}, purged ${r.purged}`);
          void svc.plugins?.onMaintenance(r);
        },
        (err: unknown) => {
          const w = toWire(err);
          log(`maintenance failed: ${w.code}: ${w.message}`);
        },
      );
    };
    pass();
    const minutes = config.maintenance.intervalMinutes;
    const timer = setInterval(pass, minutes * 60_000);
    timer.unref();
    // WAL checkpoints move off the request path: the serving connection never checkpoints itself (an
    // automatic checkpoint inside a commit was most of recall's p99); the worker does it every few seconds.
    svc.db.pragma('wal_autocheckpoint = 0');
    const checkpoint = setInterval(() => {
      client.checkpoint().catch((err: unknown) => log(`checkpoint failed: ${toWire(err).message}`));
    }, CHECKPOINT_EVERY_MS);
    checkpoint.unref();
    return {
      status: `maintenance every ${minutes} min`,
      stop: async () => {
        clearInterval(timer);
        clearInterval(checkpoint);
        svc.db.pragma('wal_autocheckpoint = 1000');
        await client.close();
      },
    };
  },
};

/** Embeds facts after they are written and keeps the vector index (recall becomes hybrid). */
export const semanticService: ServeService = {
  name: 'semantic',
  async start({ svc, config, log }) {
    if (!config.embedding.enabled) return { status: 'semantic search off (embedding.enabled = false)', stop: () => undefined };
    try {
      const { startSemantic } = await import('../../main.js');
      const semantic = await startSemantic(svc, config, log);
      return {
        status: `semantic search on (${semantic.info.modelId}, ${semantic.indexState.count} vectors, ${semantic.pending()} to embed)`,
        stop: () => undefined, // closed with the service
      };
    } catch (err) {
      const w = toWire(err);
      log(`semantic search unavailable: ${w.code}: ${w.message}`);
      return { status: 'semantic search unavailable (full text only)', stop: () => undefined };
    }
  },
};

/** The enabled plugins (loaded with the service, see serveCommand): reports them; stopping runs their onShutdown. */
export const pluginsService: ServeService = {
  name: 'plugins',
  start({ svc }) {
    const plugins = svc.plugins;
    // Nothing to say without plugins: the status line stays as it was.
    if (!plugins) return { status: '', stop: () => undefined };
    const status = plugins.status();
    const broken = status.filter((s) => s.state !== 'loaded').map((s) => s.id);
    const names = status.map((s) => s.id).join(', ');
    return {
      status: `plugins: ${names}${broken.length ? ` (could not load: ${broken.join(', ')})` : ''}`,
      stop: () => plugins.close(),
    };
  },
};

/** The dashboard server on 127.0.0.1 (GraphQL, live events, the graph app), when dashboard.enabled. */
export const dashboardService: ServeService = {
  name: 'dashboard',
  async start({ svc, config, log }) {
    if (!config.dashboard.enabled) return { status: 'dashboard off (dashboard.enabled = false)', stop: () => undefined };
    const { startDashboard } = await import('../../http/server.js');
    const d = await startDashboard({ svc, config, log });
    const note = config.dashboard.port === 0 || d.port === config.dashboard.port ? '' : ` (port ${config.dashboard.port} was taken)`;
    return { status: `dashboard ${d.url}/graph${note}`, stop: () => d.close() };
  },
};

export const SERVE_SERVICES: readonly ServeService[] = [semanticService, pluginsService, maintenanceService, dashboardService];

export const serveCommand: CommandSpec = {
  name: 'serve',
  summary: 'keep the store open and run maintenance until SIGINT/SIGTERM',
  args: [],
  details: [
    'Creates the database when missing. Stops cleanly (exit 0) on SIGINT or SIGTERM, and when the program that started it',
    'exits while reading its output through a pipe (not from a terminal or with output to a file, as nohup does).',
  ],
  options: {
    port: { type: 'string', value: 'N', help: 'the dashboard port, 0..65535 (0: any free port; default: dashboard.port, 7700)' },
  },
  async run({ opts, cli }) {
    const port = int(opts, 'port', 0, 65535);
    const svc = await cli.serviceWithPlugins('info');
    const base = cli.config();
    const config = port === undefined ? base : { ...base, dashboard: { ...base.dashboard, port } };
    const say = (human: string, json: unknown): void => void cli.io.stdout.write(`${cli.json ? JSON.stringify(json) : escapeTerminal(human)}\n`);
    const log = (line: string): void => void cli.io.stderr.write(`hybrid-mem: ${escapeTerminal(line)}\n`);
    const running: RunningService[] = [];
    // Listen before announcing anything: a supervisor may send SIGTERM as soon as it reads the status line.
    const stopper = untilStopped({ signal: cli.io.signal, withParent: outputIsPiped() });
    // A long-running service logs a stray rejection (with its code) instead of dying with every client on it.
    const stray = (err: unknown): void => {
      const w = toWire(err);
      log(`unexpected failure (kept serving): ${w.code}: ${w.message}`);
    };
    process.on('unhandledRejection', stray);
    try {
      say(`hybrid-mem serving ${config.dbPath}`, { event: 'serving', dbPath: config.dbPath });
      for (const s of SERVE_SERVICES) running.push(await s.start({ svc, config, log }));
      const st = svc.stats();
      const statuses = running.map((r) => r.status).filter((s) => s !== '');
      say(`${plural(st.totalFacts, 'fact')}, ${plural(st.links, 'link')}, ${plural(st.openConflicts, 'open conflict')}; ${statuses.join('; ')}`, {
        event: 'status',
        stats: st,
        services: statuses,
      });
      const signal = await stopper.stopped;
      log(`${signal}: shutting down`);
    } finally {
      stopper.release();
      process.off('unhandledRejection', stray);
      for (const r of running.reverse()) await r.stop();
    }
    return { human: 'hybrid-mem stopped', json: { event: 'stopped' } };
  },
};

export const dashboardCommand: CommandSpec = {
  name: 'dashboard',
  summary: 'print the URL of the running dashboard server',
  args: [],
  details: ['The dashboard runs inside `hybrid-mem serve` (or a gateway with the plugin) when dashboard.enabled; exit code 1 when none is running.'],
  options: {},
  async run({ cli }) {
    const url = (await findRunningDashboard(cli.config().dataDir))?.url ?? null;
    if (!url) {
      return {
        human: 'hybrid-mem: no dashboard server is running for this data dir (start one with `hybrid-mem serve`)',
        humanTo: 'stderr',
        exitCode: 1,
        json: { running: false, url: null },
      };
    }
    return { human: `${url}/graph`, json: { running: true, url, graph: `${url}/graph`, graphql: `${url}/graphql` } };
  },
};
