// A checkout of one commit in a temp dir, ready to run its npm scripts: the commit's tree from
// `git archive` (no worktree is registered, so nothing is left in the repository if the script is
// killed), and the current checkout's node_modules hard-linked into it when the packages installed
// there are the ones the commit's lockfile asks for; otherwise `npm ci` there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export interface Checkout {
  /** What the user named: a ref, or `.` for the current checkout as it is (uncommitted changes included). */
  ref: string;
  /** The commit's short hash (`.`: HEAD's, with `+changes` when the tree differs from it). */
  commit: string;
  dir: string;
  /** How its node_modules came to be. */
  modules: string;
}

function run(cmd: string, args: string[], cwd: string): string {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(result.stderr || result.error?.message || '').trim()}`);
  return result.stdout;
}

export function repositoryRoot(cwd = process.cwd()): string {
  return run('git', ['rev-parse', '--show-toplevel'], cwd).trim();
}

export function resolveCommit(root: string, ref: string): string {
  return run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root).trim();
}

interface LockPackage {
  version?: string;
  optional?: boolean;
  devOptional?: boolean;
  link?: boolean;
  inBundle?: boolean;
}

/**
 * Why the packages installed under `root/node_modules` do not satisfy `lock` (a package-lock.json
 * v2/v3), or undefined when they do: every locked package is there at its locked version (an
 * optional one may be missing: it is for another platform). Extra packages do no harm.
 */
export function lockMismatch(lock: { packages?: Record<string, LockPackage> }, root: string): string | undefined {
  for (const [key, pkg] of Object.entries(lock.packages ?? {})) {
    if (!key.startsWith('node_modules/') || !pkg.version || pkg.link || pkg.inBundle) continue;
    const manifest = path.join(root, key, 'package.json');
    if (!existsSync(manifest)) {
      if (pkg.optional || pkg.devOptional) continue;
      return `${key} is not installed`;
    }
    const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
    if (installed !== pkg.version) return `${key} is ${installed}, the lockfile wants ${pkg.version}`;
  }
  return undefined;
}

/** Hard links of every entry but `.cache` (tools write there; a write through a hard link would change the original). */
function linkModules(from: string, to: string): void {
  const entries = readdirSync(from).filter((name) => name !== '.cache');
  mkdirSync(to);
  if (entries.length > 0) run('cp', ['-al', ...entries.map((name) => path.join(from, name)), to], from);
}

export function prepareCheckout(
  root: string,
  ref: string,
  parent: string,
  label: string,
  log: (line: string) => void,
): Checkout {
  if (ref === '.') {
    const head = run('git', ['rev-parse', '--short', 'HEAD'], root).trim();
    const changed = run('git', ['status', '--porcelain', '--untracked-files=no'], root).trim() !== '';
    return { ref, commit: changed ? `${head}+changes` : head, dir: root, modules: 'its own' };
  }
  const commit = resolveCommit(root, ref);
  const dir = path.join(parent, label);
  mkdirSync(dir, { recursive: true });
  // $1..$3 as arguments, never spliced into the shell text.
  const extract = spawnSync(
    'sh',
    ['-c', 'git -C "$1" archive --format=tar "$2" | tar -x -C "$3"', 'sh', root, commit, dir],
    { encoding: 'utf8' },
  );
  if (extract.status !== 0) throw new Error(`could not extract ${ref}: ${extract.stderr.trim()}`);

  const lockPath = path.join(dir, 'package-lock.json');
  const mismatch = existsSync(lockPath)
    ? lockMismatch(JSON.parse(readFileSync(lockPath, 'utf8')), root)
    : 'the commit has no package-lock.json';
  let modules: string;
  if (!mismatch) {
    try {
      linkModules(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
      modules = `hard-linked from ${root}`;
    } catch {
      // Another file system: a symlink (fine for tsx; a Next build may refuse modules outside its root).
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      modules = `symlinked to ${root}/node_modules`;
    }
  } else {
    log(`${label} (${ref}): ${mismatch}; running npm ci there`);
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', process.stderr, process.stderr],
    });
    if (ci.status !== 0) throw new Error(`npm ci failed in ${dir}`);
    modules = 'npm ci';
  }
  return { ref, commit: commit.slice(0, 9), dir, modules };
}
