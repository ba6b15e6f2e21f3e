// How the programs the engine knows read their arguments: which options take a value, which
// short options are aliases of which long ones (the flag alias table of the README), which
// programs have subcommands and which global options come before them. Programs not listed are
// read the GNU way: `-abc` is the letters a, b and c, `--name=value` a long option, `--` ends
// the options, options may follow operands.

export interface ProgramSpec {
  /** Short options that take a value (attached, `-n5`, or the next word). */
  shortValue?: string;
  /** Long options (canonical names) that take the next word as value when not written `--name=value`. */
  longValue?: readonly string[];
  /** Short letter -> canonical long name; several names separated by spaces (`git branch -D` is `--delete --force`). */
  aliases?: Readonly<Record<string, string>>;
  /** Long name as written -> canonical long name (`--quiet` is `--silent` for chmod). */
  longAliases?: Readonly<Record<string, string>>;
  /** `-name` is one option, never the letters n, a, m, e (find). */
  singleDash?: boolean;
  /** Options end at the first operand (`ssh host ls -la`: `-la` belongs to the remote command). */
  optionsFirst?: boolean;
  /** Short options whose value ends the options (`python -c code args`: args are the code's). */
  endsOptions?: string;
  /** `-5` is an operand (a number), not an option. */
  numbersAreOperands?: boolean;
  /** `+word` is an option (less +G). */
  plusOptions?: boolean;
  /** Subcommands with their own options; a spec with subcommands of its own is a group (`docker container`). */
  subcommands?: Readonly<Record<string, ProgramSpec>>;
  /** Subcommand path -> canonical subcommand (`npm i` -> `install`, `docker container rm` -> `rm`). */
  subAliases?: Readonly<Record<string, string>>;
  /** An operand starting with `+` also counts as this option (`git push origin +main` forces). */
  plusOperandOption?: string;
  /** The program's global options are also read after the subcommand (kubectl -n). */
  globalsAnywhere?: boolean;
}

const RM: ProgramSpec = {
  aliases: { r: 'recursive', R: 'recursive', f: 'force', i: 'interactive', d: 'dir', v: 'verbose' },
};
const CP: ProgramSpec = {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
  aliases: { r: 'recursive', R: 'recursive', a: 'archive recursive', f: 'force', i: 'interactive', n: 'no-clobber', l: 'link', s: 'symbolic-link', u: 'update', v: 'verbose', t: 'target-directory', S: 'suffix', b: 'backup' },
};
const MV: ProgramSpec = {
  shortValue: 'tS',
  longValue: ['target-directory', 'suffix'],
  aliases: { f: 'force', i: 'interactive', n: 'no-clobber', u: 'update', v: 'verbose', t: 'target-directory', S: 'suffix', b: 'backup' },
};
const CHMOD: ProgramSpec = {
  aliases: { R: 'recursive', v: 'verbose', c: 'changes', f: 'silent' },
  longAliases: { quiet: 'silent' },
};
const CHOWN: ProgramSpec = {
  aliases: { R: 'recursive', v: 'verbose', c: 'changes', f: 'silent', h: 'no-dereference' },
  longAliases: { quiet: 'silent' },
};

const GIT_SUBCOMMANDS: Record<string, ProgramSpec> = {
  push: {
    shortValue: 'o',
    longValue: ['repo', 'receive-pack', 'exec', 'push-option'],
    aliases: { f: 'force', d: 'delete', u: 'set-upstream', n: 'dry-run', v: 'verbose', q: 'quiet', o: 'push-option' },
    plusOperandOption: 'force',
  },
  reset: { aliases: { q: 'quiet', p: 'patch', N: 'intent-to-add' } },
  clean: { shortValue: 'e', longValue: ['exclude'], aliases: { f: 'force', n: 'dry-run', i: 'interactive', q: 'quiet', e: 'exclude' } },
  checkout: {
    shortValue: 'bB',
    longValue: ['orphan', 'conflict'],
    aliases: { f: 'force', q: 'quiet', t: 'track', m: 'merge', p: 'patch' },
  },
  switch: { shortValue: 'cC', longValue: ['create', 'force-create', 'orphan'], aliases: { c: 'create', C: 'force-create', f: 'force', d: 'detach', q: 'quiet', m: 'merge', t: 'track' }, longAliases: { 'discard-changes': 'force' } },
  restore: { shortValue: 's', longValue: ['source'], aliases: { s: 'source', S: 'staged', W: 'worktree', p: 'patch', q: 'quiet' } },
  branch: {
    shortValue: 'u',
    longValue: ['set-upstream-to'],
    aliases: { d: 'delete', D: 'delete force', f: 'force', m: 'move', M: 'move force', c: 'copy', C: 'copy force', r: 'remotes', a: 'all', v: 'verbose', q: 'quiet', t: 'track', u: 'set-upstream-to' },
  },
  commit: {
    shortValue: 'mFCct',
    longValue: ['message', 'file', 'reuse-message', 'reedit-message', 'template', 'author', 'date', 'fixup', 'squash', 'cleanup'],
    aliases: { m: 'message', F: 'file', C: 'reuse-message', c: 'reedit-message', t: 'template', a: 'all', n: 'no-verify', q: 'quiet', v: 'verbose', s: 'signoff', e: 'edit', i: 'include', o: 'only', p: 'patch' },
  },
  rebase: { shortValue: 'xs', longValue: ['exec', 'onto', 'strategy'], aliases: { i: 'interactive', x: 'exec', f: 'force-rebase', q: 'quiet', v: 'verbose', s: 'strategy' } },
  merge: { shortValue: 'msX', longValue: ['message', 'strategy', 'strategy-option'], aliases: { m: 'message', s: 'strategy', X: 'strategy-option', q: 'quiet', v: 'verbose', n: 'no-stat' } },
  tag: { shortValue: 'mFu', longValue: ['message', 'file', 'local-user'], aliases: { d: 'delete', f: 'force', a: 'annotate', s: 'sign', m: 'message', F: 'file', u: 'local-user', l: 'list' } },
  stash: { shortValue: 'm', longValue: ['message'], aliases: { m: 'message', u: 'include-untracked', a: 'all', k: 'keep-index', p: 'patch', q: 'quiet' } },
  clone: { shortValue: 'bocu', longValue: ['branch', 'origin', 'config', 'upload-pack', 'template', 'depth', 'reference', 'separate-git-dir'], aliases: { b: 'branch', o: 'origin', c: 'config', u: 'upload-pack', q: 'quiet', v: 'verbose', n: 'no-checkout', l: 'local', s: 'shared' } },
  fetch: { longValue: ['upload-pack', 'depth', 'refmap'], aliases: { f: 'force', p: 'prune', q: 'quiet', v: 'verbose', a: 'append', t: 'tags' } },
  pull: { longValue: ['upload-pack', 'strategy'], aliases: { f: 'force', q: 'quiet', v: 'verbose', r: 'rebase' } },
  log: { shortValue: 'n', longValue: ['max-count', 'output', 'author', 'grep', 'since', 'until', 'format', 'pretty'], aliases: { n: 'max-count', p: 'patch' } },
  diff: { longValue: ['output'] },
  show: { longValue: ['output', 'format', 'pretty'] },
  config: { shortValue: 'f', longValue: ['file', 'blob', 'type', 'default'], aliases: { f: 'file', e: 'edit', l: 'list' } },
  submodule: {},
  'ls-remote': { longValue: ['upload-pack'] },
  archive: { shortValue: 'o', longValue: ['output', 'remote', 'exec', 'format', 'prefix'], aliases: { o: 'output' } },
  difftool: { shortValue: 'xt', longValue: ['extcmd', 'tool'], aliases: { x: 'extcmd', t: 'tool', y: 'no-prompt' } },
  mergetool: { shortValue: 't', longValue: ['tool'], aliases: { t: 'tool', y: 'no-prompt' } },
  bisect: {},
  'filter-branch': { longValue: ['env-filter', 'tree-filter', 'index-filter', 'parent-filter', 'msg-filter', 'commit-filter', 'tag-name-filter', 'subdirectory-filter'] },
  remote: {},
  worktree: {},
  am: {},
  apply: {},
  init: { longValue: ['template', 'separate-git-dir'] },
};

const GIT: ProgramSpec = {
  shortValue: 'Cc',
  longValue: ['git-dir', 'work-tree', 'namespace', 'config-env', 'super-prefix', 'list-cmds', 'attr-source'],
  aliases: { p: 'paginate', P: 'no-pager' },
  subcommands: GIT_SUBCOMMANDS,
};

const CURL: ProgramSpec = {
  shortValue: 'XdoTuFHKxAebcDmwEhrYyzCQUtPN',
  longValue: [
    'request', 'data', 'data-raw', 'data-binary', 'data-urlencode', 'data-ascii', 'json', 'output', 'upload-file', 'user', 'form', 'form-string',
    'header', 'config', 'proxy', 'user-agent', 'referer', 'cookie', 'cookie-jar', 'dump-header', 'max-time', 'write-out', 'url', 'connect-to',
    'resolve', 'trace', 'trace-ascii', 'stderr', 'cert', 'key', 'cacert', 'output-dir', 'proxy-user', 'range', 'time-cond', 'libcurl',
    'unix-socket', 'abstract-unix-socket', 'interface', 'preproxy', 'socks5', 'socks5-hostname', 'socks4', 'socks4a', 'retry', 'quote',
    'create-dirs', 'etag-save', 'etag-compare', 'hsts', 'alt-svc', 'netrc-file', 'variable', 'expand-url',
  ],
  aliases: {
    X: 'request', d: 'data', o: 'output', O: 'remote-name', k: 'insecure', L: 'location', s: 'silent', S: 'show-error', u: 'user',
    T: 'upload-file', F: 'form', H: 'header', K: 'config', x: 'proxy', A: 'user-agent', e: 'referer', b: 'cookie', c: 'cookie-jar',
    D: 'dump-header', I: 'head', i: 'include', f: 'fail', v: 'verbose', m: 'max-time', w: 'write-out', G: 'get', J: 'remote-header-name',
    r: 'range', z: 'time-cond', Q: 'quote', U: 'proxy-user', E: 'cert',
  },
};

const WGET: ProgramSpec = {
  shortValue: 'OoaiePBUTtwYQlAIDXR',
  longValue: ['output-document', 'output-file', 'append-output', 'input-file', 'execute', 'directory-prefix', 'base', 'user-agent', 'post-data', 'post-file', 'body-file', 'header', 'config', 'user', 'password', 'load-cookies', 'save-cookies', 'tries', 'timeout'],
  aliases: { O: 'output-document', o: 'output-file', a: 'append-output', i: 'input-file', e: 'execute', P: 'directory-prefix', B: 'base', U: 'user-agent', q: 'quiet', r: 'recursive', m: 'mirror', c: 'continue', N: 'timestamping' },
};

const KUBECTL_DELETE: ProgramSpec = {
  shortValue: 'flko',
  longValue: ['filename', 'selector', 'kustomize', 'grace-period', 'cascade', 'field-selector', 'output', 'timeout', 'wait'],
  aliases: { A: 'all-namespaces', f: 'filename', l: 'selector', R: 'recursive', k: 'kustomize', o: 'output' },
};
const KUBECTL: ProgramSpec = {
  shortValue: 'ns',
  longValue: ['namespace', 'context', 'kubeconfig', 'cluster', 'user', 'server', 'token', 'as', 'as-group'],
  aliases: { n: 'namespace', s: 'server' },
  globalsAnywhere: true,
  subcommands: { delete: KUBECTL_DELETE, get: { shortValue: 'lo', longValue: ['selector', 'output'], aliases: { l: 'selector', o: 'output', A: 'all-namespaces', w: 'watch' } }, apply: { shortValue: 'fk', longValue: ['filename', 'kustomize'], aliases: { f: 'filename', k: 'kustomize' } } },
};

const CONTAINER_RM: ProgramSpec = { aliases: { f: 'force', v: 'volumes', l: 'link' } };
const DOCKER_RUN: ProgramSpec = {
  shortValue: 'eEvpuwhlmcPti',
  longValue: ['env', 'env-file', 'volume', 'publish', 'user', 'workdir', 'hostname', 'label', 'memory', 'name', 'network', 'entrypoint', 'mount', 'platform', 'cpus', 'restart', 'device', 'cap-add', 'cap-drop', 'security-opt', 'pid', 'ipc', 'add-host', 'dns'],
  aliases: { e: 'env', v: 'volume', p: 'publish', u: 'user', w: 'workdir', h: 'hostname', l: 'label', m: 'memory', d: 'detach', i: 'interactive', t: 'tty', P: 'publish-all' },
  optionsFirst: true,
};
const DOCKER_EXEC: ProgramSpec = { shortValue: 'euw', longValue: ['env', 'env-file', 'user', 'workdir'], aliases: { e: 'env', u: 'user', w: 'workdir', d: 'detach', i: 'interactive', t: 'tty' }, optionsFirst: true };
const DOCKER: ProgramSpec = {
  shortValue: 'Hcl',
  longValue: ['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey'],
  aliases: { H: 'host', c: 'context', l: 'log-level', D: 'debug' },
  subcommands: {
    rm: CONTAINER_RM,
    rmi: { aliases: { f: 'force' } },
    run: DOCKER_RUN,
    exec: DOCKER_EXEC,
    container: { subcommands: { rm: CONTAINER_RM, run: DOCKER_RUN, exec: DOCKER_EXEC } },
    image: { subcommands: { rm: { aliases: { f: 'force' } } } },
  },
  subAliases: { 'container rm': 'rm', 'container remove': 'rm', 'container run': 'run', 'container exec': 'exec', 'image rm': 'rmi', 'image remove': 'rmi' },
};

const NPM: ProgramSpec = {
  shortValue: 'wc',
  longValue: ['prefix', 'workspace', 'userconfig', 'globalconfig', 'script-shell', 'registry', 'cache', 'node-options', 'call'],
  aliases: { w: 'workspace', g: 'global', D: 'save-dev', S: 'save', E: 'save-exact', y: 'yes', q: 'quiet', s: 'silent', C: 'prefix', c: 'call' },
  globalsAnywhere: true,
  subcommands: {},
  subAliases: {
    i: 'install', in: 'install', ins: 'install', inst: 'install', insta: 'install', instal: 'install', isnt: 'install', isnta: 'install', isntal: 'install', add: 'install',
    'run-script': 'run', rum: 'run', urn: 'run', t: 'test', tst: 'test', x: 'exec', rm: 'uninstall', r: 'uninstall', un: 'uninstall', unlink: 'uninstall', remove: 'uninstall',
    c: 'config', it: 'install-test', cit: 'install-ci-test', 'clean-install': 'ci', ic: 'ci', 'install-clean': 'ci', isntall: 'install', up: 'update', upgrade: 'update',
  },
};

const SSH: ProgramSpec = { shortValue: 'bcDEeFIiJLlmOopQRSWw', longValue: [], optionsFirst: true };
const SCP: ProgramSpec = { shortValue: 'cDFiJloPSX' };
const RSYNC: ProgramSpec = {
  shortValue: 'eBfT',
  longValue: ['rsh', 'rsync-path', 'exclude', 'include', 'filter', 'log-file', 'write-batch', 'only-write-batch', 'read-batch', 'files-from', 'exclude-from', 'include-from', 'password-file', 'temp-dir', 'partial-dir', 'backup-dir', 'suffix', 'chmod', 'chown', 'port', 'compare-dest', 'copy-dest', 'link-dest'],
  aliases: { e: 'rsh', f: 'filter', T: 'temp-dir', r: 'recursive', a: 'archive', v: 'verbose', z: 'compress', n: 'dry-run' },
};

const SPECS: Record<string, ProgramSpec> = {
  rm: RM,
  cp: CP,
  mv: MV,
  chmod: CHMOD,
  chown: CHOWN,
  chgrp: CHOWN,
  git: GIT,
  curl: CURL,
  wget: WGET,
  kubectl: KUBECTL,
  docker: DOCKER,
  podman: DOCKER,
  npm: NPM,
  pnpm: { ...NPM, subAliases: { i: 'install', add: 'install', t: 'test', x: 'exec', rm: 'remove', un: 'remove', uninstall: 'remove' } },
  yarn: { ...NPM, subAliases: { add: 'install', x: 'exec', rm: 'remove' } },
  npx: { shortValue: 'pc', longValue: ['package', 'call', 'shell', 'script-shell'], aliases: { p: 'package', c: 'call', y: 'yes' }, optionsFirst: true },
  find: { singleDash: true },
  ssh: SSH,
  scp: SCP,
  sftp: { shortValue: 'BbcDFilOoPRSs', optionsFirst: true },
  rsync: RSYNC,
  sed: { shortValue: 'efl', longValue: ['expression', 'file', 'line-length'], aliases: { e: 'expression', f: 'file', i: 'in-place', n: 'quiet', E: 'regexp-extended', r: 'regexp-extended', s: 'separate', z: 'null-data' }, longAliases: { silent: 'quiet' } },
  awk: { shortValue: 'fvFiElWe', longValue: ['file', 'assign', 'field-separator', 'include', 'exec', 'load', 'source'], aliases: { f: 'file', v: 'assign', F: 'field-separator', i: 'include', E: 'exec', l: 'load', e: 'source' } },
  tar: { shortValue: 'fCIFbgHKLNTVX', longValue: ['file', 'directory', 'use-compress-program', 'info-script', 'new-volume-script', 'to-command', 'checkpoint-action', 'rsh-command', 'rmt-command', 'exclude', 'files-from', 'exclude-from', 'transform', 'owner', 'group', 'mode', 'format', 'index-file'], aliases: { f: 'file', C: 'directory', I: 'use-compress-program', F: 'info-script', P: 'absolute-names', x: 'extract', c: 'create', t: 'list', r: 'append', u: 'update', T: 'files-from', X: 'exclude-from', z: 'gzip', j: 'bzip2', J: 'xz', v: 'verbose' } },
  xargs: { shortValue: 'adEILnPs', longValue: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'], optionsFirst: true },
  env: { shortValue: 'uCS', longValue: ['unset', 'chdir', 'split-string'], aliases: { S: 'split-string', C: 'chdir', u: 'unset', i: 'ignore-environment' }, optionsFirst: true },
  less: { shortValue: 'oOkpPhjbxyzt#', longValue: ['log-file', 'LOG-FILE', 'lesskey-file', 'lesskey-src', 'lesskey-content', 'pattern', 'prompt', 'tag'], aliases: { o: 'log-file', O: 'LOG-FILE', k: 'lesskey-file', p: 'pattern', P: 'prompt', t: 'tag' }, plusOptions: true },
  more: { plusOptions: true, shortValue: 'n' },
  head: { shortValue: 'nc', longValue: ['lines', 'bytes'], aliases: { n: 'lines', c: 'bytes' } },
  tail: { shortValue: 'ncs', longValue: ['lines', 'bytes', 'sleep-interval', 'pid', 'max-unchanged-stats'], aliases: { n: 'lines', c: 'bytes', f: 'follow', F: 'follow retry' }, plusOptions: true },
  grep: { shortValue: 'efmABCd', longValue: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'include', 'exclude', 'exclude-dir', 'label', 'binary-files', 'devices', 'directories', 'color', 'colour', 'exclude-from'], aliases: { e: 'regexp', f: 'file', r: 'recursive', R: 'dereference-recursive', m: 'max-count', A: 'after-context', B: 'before-context', C: 'context', d: 'directories' } },
  rg: { shortValue: 'efgtTmABCjMrE', longValue: ['regexp', 'file', 'glob', 'type', 'type-not', 'max-count', 'after-context', 'before-context', 'context', 'threads', 'max-columns', 'replace', 'encoding', 'pre', 'pre-glob', 'type-add', 'iglob', 'max-depth', 'sort', 'sortr', 'color', 'colors', 'path-separator'] },
  cut: { shortValue: 'bcdf', longValue: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'] },
  sort: { shortValue: 'koStT', longValue: ['key', 'output', 'field-separator', 'buffer-size', 'temporary-directory', 'compress-program', 'files0-from', 'parallel', 'batch-size', 'sort'], aliases: { k: 'key', o: 'output', t: 'field-separator', S: 'buffer-size', T: 'temporary-directory' } },
  uniq: { shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'] },
  base64: { shortValue: 'w', longValue: ['wrap'] },
  base32: { shortValue: 'w', longValue: ['wrap'] },
  xxd: { shortValue: 'cgloEns', longValue: [] },
  od: { shortValue: 'AjNSstw', longValue: ['address-radix', 'skip-bytes', 'read-bytes', 'strings', 'format', 'width'] },
  hexdump: { shortValue: 'efns', longValue: [] },
  strings: { shortValue: 'nte', longValue: ['bytes', 'radix', 'encoding'] },
  tee: {},
  touch: { shortValue: 'drt', longValue: ['date', 'reference', 'time'], aliases: { r: 'reference', d: 'date' } },
  truncate: { shortValue: 'sr', longValue: ['size', 'reference'], aliases: { s: 'size', r: 'reference' } },
  install: { shortValue: 'gmotS', longValue: ['group', 'mode', 'owner', 'target-directory', 'suffix', 'strip-program'], aliases: { t: 'target-directory', g: 'group', m: 'mode', o: 'owner', d: 'directory', D: 'leading-dirs' } },
  ln: { shortValue: 'tS', longValue: ['target-directory', 'suffix'], aliases: { s: 'symbolic', f: 'force', t: 'target-directory', T: 'no-target-directory', n: 'no-dereference' } },
  mkdir: { shortValue: 'm', longValue: ['mode', 'context'] },
  jq: { shortValue: 'fL', longValue: ['arg', 'argjson', 'slurpfile', 'rawfile', 'from-file', 'indent', 'args', 'jsonargs'] },
  diff: { shortValue: 'CUIFxXSW', longValue: ['label', 'exclude', 'exclude-from', 'ignore-matching-lines', 'starting-file', 'to-file', 'from-file', 'width', 'tabsize', 'line-format', 'horizon-lines'] },
  make: { shortValue: 'fCIjlWoE', longValue: ['file', 'makefile', 'directory', 'include-dir', 'jobs', 'load-average', 'what-if', 'old-file', 'assume-old', 'new-file', 'assume-new', 'eval'], aliases: { f: 'file', C: 'directory', I: 'include-dir', E: 'eval', j: 'jobs' }, longAliases: { makefile: 'file' } },
  python: { shortValue: 'cmWXQ', optionsFirst: true, endsOptions: 'cm' },
  python3: { shortValue: 'cmWXQ', optionsFirst: true, endsOptions: 'cm' },
  python2: { shortValue: 'cmWXQ', optionsFirst: true, endsOptions: 'cm' },
  node: { shortValue: 'epr', longValue: ['eval', 'print', 'require', 'import', 'loader', 'experimental-loader', 'input-type', 'env-file', 'conditions'], aliases: { e: 'eval', p: 'print', r: 'require' }, optionsFirst: true },
  perl: { shortValue: 'eEMmI', optionsFirst: true },
  ruby: { shortValue: 'eIrCEF', optionsFirst: true },
  deno: { subcommands: {} },
  http: { shortValue: 'aAfjbv', longValue: ['auth', 'auth-type', 'output', 'session', 'session-read-only', 'proxy', 'verify', 'cert', 'cert-key', 'timeout', 'pretty', 'style', 'print', 'format-options'], aliases: { o: 'output' } },
  nc: { shortValue: 'ipPqsTwXxOIV' },
  ncat: { shortValue: 'ipsw', longValue: ['proxy', 'proxy-type', 'proxy-auth', 'source-port', 'source', 'wait', 'exec', 'sh-exec', 'lua-exec', 'output', 'hex-dump', 'idle-timeout', 'allow', 'allowfile', 'deny', 'denyfile'], aliases: { e: 'exec', c: 'sh-exec', o: 'output', x: 'hex-dump' } },
  telnet: { shortValue: 'bleln', optionsFirst: true },
  socat: {},
  dd: {},
  zip: { shortValue: 'bnt', longValue: ['unzip-command', 'temp-path', 'suffixes', 'include', 'exclude', 'password'] },
  man: { shortValue: 'PHMCLSsmpe', longValue: ['pager', 'html', 'manpath', 'config-file', 'locale', 'sections', 'systems', 'preprocessor', 'extension'], aliases: { P: 'pager', H: 'html' } },
  vim: { shortValue: 'cSTuUwWirsdV', longValue: ['cmd'], plusOptions: true },
  source: {},
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
