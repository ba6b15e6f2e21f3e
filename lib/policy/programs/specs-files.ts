// Argument specs of the file tools: rm, cp, mv, chmod/chown, find, tar, ln, dd, zip and kin.

import type { ProgramSpec } from './spec-type';

const RM: ProgramSpec = {
  aliases: { r: 'recursive', R: 'recursive', f: 'force', i: 'interactive', d: 'dir', v: 'verbose' },
};
const CP: ProgramSpec = {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
  aliases: {
    r: 'recursive',
    R: 'recursive',
    a: 'archive recursive',
    f: 'force',
    i: 'interactive',
    n: 'no-clobber',
    l: 'link',
    s: 'symbolic-link',
    u: 'update',
    v: 'verbose',
    t: 'target-directory',
    S: 'suffix',
    b: 'backup',
  },
};
const MV: ProgramSpec = {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
  aliases: {
    f: 'force',
    i: 'interactive',
    n: 'no-clobber',
    u: 'update',
    v: 'verbose',
    t: 'target-directory',
    S: 'suffix',
    b: 'backup',
  },
};
const CHMOD: ProgramSpec = {
  aliases: { R: 'recursive', v: 'verbose', c: 'changes', f: 'silent' },
  longAliases: { quiet: 'silent' },
};
const CHOWN: ProgramSpec = {
  aliases: { R: 'recursive', v: 'verbose', c: 'changes', f: 'silent', h: 'no-dereference' },
  longAliases: { quiet: 'silent' },
};

export const FILE_SPECS: Record<string, ProgramSpec> = {
  rm: RM,
  cp: CP,
  mv: MV,
  chmod: CHMOD,
  chown: CHOWN,
  chgrp: CHOWN,
  find: { singleDash: true },
  tar: {
    shortValue: 'fCIFbgHKLNTVX',
    longValue: [
      'file',
      'directory',
      'use-compress-program',
      'info-script',
      'new-volume-script',
      'to-command',
      'checkpoint-action',
      'rsh-command',
      'rmt-command',
      'exclude',
      'files-from',
      'exclude-from',
      'transform',
      'owner',
      'group',
      'mode',
      'format',
      'index-file',
    ],
    aliases: {
      f: 'file',
      C: 'directory',
      I: 'use-compress-program',
      F: 'info-script',
      P: 'absolute-names',
      x: 'extract',
      c: 'create',
      t: 'list',
      r: 'append',
      u: 'update',
      T: 'files-from',
      X: 'exclude-from',
      z: 'gzip',
      j: 'bzip2',
      J: 'xz',
      v: 'verbose',
    },
  },
  touch: { shortValue: 'drt', longValue: ['date', 'reference', 'time'], aliases: { r: 'reference', d: 'date' } },
  truncate: { shortValue: 'sr', longValue: ['size', 'reference'], aliases: { s: 'size', r: 'reference' } },
  install: {
    shortValue: 'gmotS',
    longValue: ['group', 'mode', 'owner', 'target-directory', 'suffix', 'strip-program'],
    aliases: { t: 'target-directory', g: 'group', m: 'mode', o: 'owner', d: 'directory', D: 'leading-dirs' },
  },
  ln: {
    shortValue: 'tS',
    longValue: ['target-directory', 'suffix'],
    aliases: { s: 'symbolic', f: 'force', t: 'target-directory', T: 'no-target-directory', n: 'no-dereference' },
  },
  mkdir: { shortValue: 'm', longValue: ['mode', 'context'] },
  dd: {},
  zip: { shortValue: 'bnt', longValue: ['unzip-command', 'temp-path', 'suffixes', 'include', 'exclude', 'password'] },
};
