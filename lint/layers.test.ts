// The lint config is the memory of the architecture: an import pointing the wrong way between
// layers (by alias, relative path, type import or dynamic import) and a dependency cycle (of values,
// or through a type import) fail `eslint`, while the arrows of the layers table pass. Fixture
// snippets are linted as files placed in each layer; the cycles and the 'use client' page are
// written to disk for the run (resolution follows real files), and removed after.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const tag = `lint-fixture-${process.pid}`;
const written: string[] = [];
let eslint: ESLint;

function write(rel: string, text: string): string {
  const file = path.join(ROOT, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.push(file);
  return file;
}

/** The rules that fail `code` placed at `rel` (a file of that layer). */
async function failures(rel: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, rel) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

beforeAll(async () => {
  // Before the config loads: it lists the 'use client' files of app/ when it does.
  write(
    `app/${tag}/client-page.tsx`,
    `'use client';\nimport { getRuntime } from '@/lib/server/runtime';\nexport const page = getRuntime;\n`,
  );
  eslint = new ESLint({ cwd: ROOT });
  // The first lint loads the config, its plugins and the resolver (seconds on a loaded machine):
  // done here, so no case's time limit pays for it.
  await eslint.lintText('export {};\n', { filePath: path.join(ROOT, `lib/${tag}-warm-up.ts`) });
}, 60_000);

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
  rmSync(path.join(ROOT, 'app', tag), { recursive: true, force: true });
});

describe('a layer arrow pointing the wrong way fails lint', () => {
  it.each([
    [
      'lib/policy imports nothing of the project (a type, by alias)',
      'lib/policy',
      "import type { RunEvent } from '@/lib/contract';\nexport type E = RunEvent;",
    ],
    [
      'lib/policy: a dynamic import is judged like a static one',
      'lib/policy',
      "export const load = () => import('../agent');",
    ],
    [
      "lib/contract imports lib/policy's types, never its engine",
      'lib/contract',
      "import { compilePolicy } from '../policy';\nexport const c = compilePolicy;",
    ],
    [
      'lib/contract uses no npm package but zod',
      'lib/contract',
      "import { generateText } from 'ai';\nexport const g = generateText;",
    ],
    [
      'lib/db does not import lib/relay (its types are the contract’s)',
      'lib/db',
      "import type { RelayBroker } from '../relay';\nexport type B = RelayBroker;",
    ],
    [
      'lib/db does not import lib/agent',
      'lib/db',
      "import type { GrantStore } from '@/lib/agent';\nexport type G = GrantStore;",
    ],
    [
      'lib/relay does not import lib/db',
      'lib/relay',
      "import type { Queries } from '../db';\nexport type Q = Queries;",
    ],
    [
      'lib/auth does not import lib/server',
      'lib/auth',
      "import { getRuntime } from '../server/runtime';\nexport const r = getRuntime;",
    ],
    [
      'lib/agent never imports Next',
      'lib/agent',
      "import { NextResponse } from 'next/server';\nexport const n = NextResponse;",
    ],
    [
      'lib/agent never imports React (types included)',
      'lib/agent',
      "import type { ReactNode } from 'react';\nexport type N = ReactNode;",
    ],
    [
      'lib/relay never imports components/',
      'lib/relay',
      "import { Button } from '@/components/ui/button';\nexport const b = Button;",
    ],
    [
      'lib/agent does not import lib/server',
      'lib/agent/loop',
      "import type { RunManager } from '../../server/runs/run-manager';\nexport type M = RunManager;",
    ],
    [
      'lib/server does not import lib/client',
      'lib/server/http',
      "import { apiFetch } from '@/lib/client/api';\nexport const f = apiFetch;",
    ],
    [
      'lib/client never imports a server-only module (lib/db)',
      'lib/client',
      "import type { Queries } from '@/lib/db';\nexport type Q = Queries;",
    ],
    [
      'lib/client never imports lib/auth (it hashes passwords with node:crypto)',
      'lib/client/chat',
      "import { can } from '../../auth';\nexport const c = can;",
    ],
    [
      'components never import lib/server',
      'components/chat',
      "import { getRuntime } from '@/lib/server/runtime';\nexport const r = getRuntime;",
    ],
    [
      'components never import lib/db (a type either)',
      'components/ui',
      "import type { RunRow } from '@/lib/db';\nexport type R = RunRow;",
    ],
    ['lib/ never imports app/', 'lib/server', "import { GET } from '@/app/api/health/route';\nexport const g = GET;"],
  ])('%s', async (_rule, layer, code) => {
    const found = await failures(`${layer}/${tag}.ts`, code);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: Unexpected path/)]);
  });

  it("a 'use client' module of app/ never imports a server-only module", async () => {
    const [result] = await eslint.lintFiles([path.join(ROOT, 'app', tag, 'client-page.tsx')]);
    expect(result!.messages.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*'use client' module/),
    ]);
  });
});

describe('the arrows of the layers table pass', () => {
  it.each([
    [
      'lib/server uses the layers below it',
      'lib/server/runs',
      "import type { GrantStore } from '../../agent';\nimport type { Queries } from '@/lib/db';\nimport type { AuthUser } from '../../auth';\nexport type X = [GrantStore, Queries, AuthUser];",
    ],
    [
      'lib/agent uses lib/relay, lib/contract and lib/policy',
      'lib/agent',
      "import { MemoryRelayBroker } from '../relay';\nimport { evaluate } from '@/lib/policy';\nimport type { RunEvent } from '../contract';\nexport const x = [MemoryRelayBroker, evaluate] as const;\nexport type E = RunEvent;",
    ],
    [
      'lib/db uses the contract and lib/policy/types',
      'lib/db',
      "import type { RelayRecord } from '../contract';\nimport type { Rule } from '../policy/types';\nexport type X = [RelayRecord, Rule];",
    ],
    [
      "lib/contract uses lib/policy's types and zod",
      'lib/contract',
      "import { z } from 'zod';\nimport { RuleSchema } from '../policy/types';\nexport const s = z.array(RuleSchema);",
    ],
    [
      'lib/client uses the contract and React',
      'lib/client',
      "import { useState } from 'react';\nimport { formatSse } from '@/lib/contract';\nexport const x = [useState, formatSse] as const;",
    ],
    [
      'components use lib/client, lib/contract and lib/policy',
      'components/rules',
      "import { apiFetch } from '@/lib/client/api';\nimport { describeRule } from '@/lib/policy/explain';\nexport const x = [apiFetch, describeRule] as const;",
    ],
    [
      'a server page of app/ uses lib/server',
      'app/api/health',
      "import { getRuntime } from '@/lib/server/runtime';\nexport const r = getRuntime;",
    ],
  ])('%s', async (_rule, layer, code) => {
    expect(await failures(`${layer}/${tag}.ts`, code)).toEqual([]);
  });
});

describe('a dependency cycle fails lint', () => {
  it('of values (import-x/no-cycle)', async () => {
    const a = write(
      `lib/agent/${tag}-value-a.ts`,
      `import { b } from './${tag}-value-b';\nexport const a = () => b();\n`,
    );
    write(`lib/agent/${tag}-value-b.ts`, `import { a } from './${tag}-value-a';\nexport const b = (): unknown => a;\n`);
    const [result] = await eslint.lintFiles([a]);
    expect(result!.messages.map((m) => m.ruleId)).toEqual(['import-x/no-cycle']);
  });

  it('through a type import, as the spawn helper and the spare bash had (gatehouse/no-type-cycle)', async () => {
    const helper = write(
      `lib/agent/${tag}-helper.ts`,
      `import { spare } from './${tag}-spare';\nexport interface Events { onData(): void }\nexport const start = () => spare;\n`,
    );
    const spare = write(
      `lib/agent/${tag}-spare.ts`,
      `import type { Events } from './${tag}-helper';\nexport const spare = (events: Events) => events.onData();\n`,
    );
    const results = await eslint.lintFiles([helper, spare]);
    expect(results.flatMap((r) => r.messages.map((m) => `${path.basename(r.filePath)}: ${m.ruleId}`))).toEqual([
      `${tag}-spare.ts: gatehouse/no-type-cycle`,
    ]);
  });
});
