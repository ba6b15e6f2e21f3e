// The layers of docs/ARCHITECTURE.md as data, and the `import-x/no-restricted-paths` zones that
// enforce them. Imports are resolved (TypeScript resolver), so `@/` aliases, relative paths, type
// imports, re-exports and dynamic `import()` are all judged by the file they reach.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each layer and what it may import of the project besides itself (top to bottom: imports only
 * point down). `packages`, when given, is the only npm packages the layer may use; `next` lists
 * framework packages it must not use.
 */
export const LAYERS = [
  { dir: 'app', imports: ['components', 'lib'], job: 'Next.js routes, pages and layouts' },
  { dir: 'components', imports: ['lib/client', 'lib/contract', 'lib/policy'], job: 'React components (client-safe)' },
  {
    dir: 'lib/client',
    imports: ['lib/contract', 'lib/policy/types.ts'],
    noPackages: ['next'],
    job: 'the browser-side data layer',
  },
  {
    dir: 'lib/server',
    imports: ['lib/agent', 'lib/auth', 'lib/relay', 'lib/db', 'lib/contract', 'lib/policy'],
    noPackages: ['next', 'react'],
    job: 'server wiring',
  },
  {
    dir: 'lib/agent',
    imports: ['lib/relay', 'lib/contract', 'lib/policy'],
    noPackages: ['next', 'react'],
    job: 'the agent loop and its tools',
  },
  { dir: 'lib/auth', imports: ['lib/db', 'lib/contract'], noPackages: ['next', 'react'], job: 'access control' },
  { dir: 'lib/relay', imports: ['lib/contract'], noPackages: ['next', 'react'], job: 'pending approvals' },
  {
    dir: 'lib/db',
    imports: ['lib/contract', 'lib/policy/types.ts'],
    noPackages: ['next', 'react'],
    job: 'schema and queries',
  },
  { dir: 'lib/contract', imports: ['lib/policy/types.ts'], packages: ['zod'], job: 'what crosses a boundary' },
  { dir: 'lib/policy', imports: [], noPackages: ['next', 'react'], job: 'the pure permission engine' },
];

/** Modules a browser bundle must never get: they hold secrets, open databases or spawn processes. */
export const SERVER_ONLY = ['lib/server', 'lib/db', 'lib/agent', 'lib/relay', 'lib/auth'];

/** Where each framework package resolves (React's types come from @types). */
const PACKAGE_PATHS = {
  next: ['node_modules/next'],
  react: ['node_modules/react', 'node_modules/react-dom', 'node_modules/@types/react', 'node_modules/@types/react-dom'],
};

/** Test helpers outside lib/ that a layer's test support may use (a plain Node script and its types). */
const SHARED_SCRIPTS = ['scripts/drop-database.mjs', 'scripts/drop-database.d.mts'];

const rel = (p) => `./${p}`;
const list = (dirs) =>
  dirs.length === 0 ? 'nothing of the project' : dirs.map((d) => d.replace(/\.ts$/, '')).join(', ');

/** The zones of every layer arrow: a layer imports itself, what its row allows, and npm packages. */
export function layerZones() {
  return LAYERS.flatMap((layer) => {
    const allowed = `${layer.dir} may import only ${list(layer.imports)} (docs/ARCHITECTURE.md, Layers).`;
    const zones = [
      {
        target: rel(layer.dir),
        from: '.',
        except: [rel(layer.dir), ...layer.imports.map(rel), './node_modules', ...SHARED_SCRIPTS.map(rel)],
        message: allowed,
      },
    ];
    if (layer.packages) {
      zones.push({
        // Its tests may use their runner.
        target: `${rel(layer.dir)}/**/!(*.test).{ts,tsx,mts,mjs}`,
        from: './node_modules',
        except: layer.packages.map(rel),
        message: `${layer.dir} uses no npm package but ${layer.packages.join(', ')}.`,
      });
    }
    for (const name of layer.noPackages ?? []) {
      zones.push({
        target: rel(layer.dir),
        from: PACKAGE_PATHS[name].map(rel),
        message: `${layer.dir} must not depend on ${name === 'next' ? 'Next.js' : 'React'}: ${name === 'next' ? 'lib/ has to work from a plain Node script.' : 'only lib/client, components/ and app/ are UI.'}`,
      });
    }
    return zones;
  });
}

/** Files of `dir` (recursively) that start with the `'use client'` directive. */
export function useClientFiles(root, dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(path.join(root, at), { withFileTypes: true })) {
      const rel = path.posix.join(at, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (
        /\.(tsx?|jsx?|mjs)$/.test(entry.name) &&
        /^(\s*\/\/[^\n]*\n|\s*\/\*[\s\S]*?\*\/)*\s*['"]use client['"]/.test(readFileSync(path.join(root, rel), 'utf8'))
      )
        found.push(rel);
    }
  };
  walk(dir);
  return found;
}

/**
 * Client components outside components/ and lib/client (whose own zones already keep them
 * client-safe): the `'use client'` files of app/ never reach the server-only modules.
 */
export function clientZones(root) {
  const files = useClientFiles(root, 'app');
  if (files.length === 0) return [];
  return [
    {
      target: files.map(rel),
      from: SERVER_ONLY.map(rel),
      message: `A 'use client' module is bundled for the browser: it may not import the server-only ${SERVER_ONLY.join(', ')} (use lib/client and lib/contract).`,
    },
  ];
}
