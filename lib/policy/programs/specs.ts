// How the programs the engine knows read their arguments: which options take a value, which
// short options are aliases of which long ones (the flag alias table of the README), which
// programs have subcommands and which global options come before them. Programs not listed are
// read the GNU way: `-abc` is the letters a, b and c, `--name=value` a long option, `--` ends
// the options, options may follow operands.

import type { ProgramSpec } from './spec-type';
import { FILE_SPECS } from './specs-files';
import { GIT_SPECS } from './specs-git';
import { INTERPRETER_SPECS } from './specs-interpreters';
import { NETWORK_SPECS } from './specs-network';
import { PACKAGE_SPECS } from './specs-packages';
import { TEXT_SPECS } from './specs-text';

export type { ProgramSpec };

const SPECS: Record<string, ProgramSpec> = {
  ...FILE_SPECS,
  ...TEXT_SPECS,
  ...GIT_SPECS,
  ...NETWORK_SPECS,
  ...PACKAGE_SPECS,
  ...INTERPRETER_SPECS,
};
SPECS.gawk = SPECS.mawk = SPECS.nawk = SPECS.awk!;
SPECS.egrep = SPECS.fgrep = SPECS.grep!;
SPECS.https = SPECS.xh = SPECS.xhs = SPECS.httpie = SPECS.http!;
SPECS.netcat = SPECS.nc!;
SPECS.vi = SPECS.nvim = SPECS.view = SPECS.vim!;
SPECS.nodejs = SPECS.bun = SPECS.node!;
SPECS.gmake = SPECS.make!;
SPECS['.'] = SPECS.source!;

const EMPTY: ProgramSpec = {};

export function specOf(program: string): ProgramSpec {
  return Object.hasOwn(SPECS, program) ? SPECS[program]! : EMPTY;
}

// Resolved once per (program, subcommand): a subcommand's own options, plus the program's
// global ones where those may follow the subcommand.
const subSpecs = new WeakMap<ProgramSpec, Map<string, ProgramSpec>>();

export function subSpec(top: ProgramSpec, sub: string): ProgramSpec {
  let byName = subSpecs.get(top);
  if (!byName) subSpecs.set(top, (byName = new Map()));
  let spec = byName.get(sub);
  if (!spec) {
    const own = (Object.hasOwn(top.subcommands ?? {}, sub) ? top.subcommands![sub] : undefined) ?? EMPTY;
    spec = top.globalsAnywhere
      ? {
          ...own,
          shortValue: (top.shortValue ?? '') + (own.shortValue ?? ''),
          longValue: [...(top.longValue ?? []), ...(own.longValue ?? [])],
          aliases: { ...top.aliases, ...own.aliases },
          longAliases: { ...top.longAliases, ...own.longAliases },
        }
      : own;
    if (byName.size < 256) byName.set(sub, spec);
  }
  return spec;
}
