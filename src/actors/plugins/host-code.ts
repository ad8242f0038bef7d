/**
 * Where the plugin process's own code (child.ts and what it imports) is, and what it must be allowed to
 * read. A compiled build runs `dist/actors/plugins/child.js`: the process may read `dist/` and the
 * package's package.json (for the module type), nothing else of the package. Running from the TypeScript
 * sources (tests, `tsx`), the child cannot register tsx (its loader needs a worker thread and esbuild a
 * child process, both refused in the sandbox), so the child's few source files are transpiled once, with
 * the typescript devDependency, into `node_modules/.cache/hybrid-mem/plugin-host/<hash>/` (keyed by their
 * contents; written to a temp folder and renamed into place, so concurrent test processes never see half).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HostCode {
  /** The script the child process runs. */
  readonly entry: string;
  /** Folders and files the child must read to load it. */
  readonly read: readonly string[];
}

/** Relative value imports of a TypeScript source (type-only imports are erased: verbatimModuleSyntax). */
function valueImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)';/gm)) out.push(m[1] as string);
  return out;
}

/** The child's source closure: src-relative path -> source text. */
function closure(srcRoot: string, entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    const rel = relative(srcRoot, file);
    if (files.has(rel)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(rel, text);
    for (const spec of valueImports(text)) todo.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
  }
  return files;
}

async function transpileTo(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  const ts = (await import('typescript')).default;
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(join(tmp, 'package.json'), '{ "type": "module" }\n');
    for (const [rel, text] of files) {
      const out = ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true }, fileName: rel });
      const target = join(tmp, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, out.outputText);
    }
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another process got there first with the same contents.
      if (!existsSync(dir)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

let located: Promise<HostCode> | null = null;

/** The child's code, transpiled first when running from sources (once per process). */
export function hostCode(): Promise<HostCode> {
  return (located ??= locate());
}

/**
 * Real paths only: Node resolves the entry script through every symbolic link on its way (a linked
 * node_modules, pnpm's store, macOS's /tmp), and the permission model checks the link's own path too.
 */
async function locate(): Promise<HostCode> {
  const js = join(realpathSync(fileURLToPath(new URL('.', import.meta.url))), 'child.js');
  const srcRoot = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
  if (existsSync(js)) return { entry: js, read: [srcRoot.replace(/[\\/]$/, ''), join(srcRoot, '..', 'package.json')] };
  const files = closure(srcRoot, js.replace(/\.js$/, '.ts'));
  const hash = createHash('sha256');
  for (const [rel, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${rel}\0${text}\0`);
  const dir = join(srcRoot, '..', 'node_modules', '.cache', 'hybrid-mem', 'plugin-host', hash.digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(dirname(dir), { recursive: true });
    await transpileTo(dir, files);
  }
  const real = realpathSync(dir);
  return { entry: join(real, relative(srcRoot, js)), read: [real] };
}
