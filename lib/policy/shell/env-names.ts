// Which environment assignments keep a command allow rule from allowing a part. Programs read
// their environment as configuration, and much of it runs code: GIT_CONFIG_* (core.fsmonitor),
// GIT_EXTERNAL_DIFF, LESSOPEN, MANPAGER, TAR_OPTIONS, HOME (another ~/.gitconfig). No list of
// such names is ever complete, so an assignment the program surely receives (`X=1 cmd`,
// `env X=1 cmd`, `export X=1`) is inert only when its name is known to be; one that changes a
// shell variable (`X=1; cmd`, `for X in ...`) reaches programs only if the variable is already
// exported, which the engine cannot see, so there the names known to configure programs count.

/**
 * Names no program runs code or reads files by: locale, time zone, terminal size and colour, CI
 * flags, and the build and log switches Claude Code also strips before matching (Go's target and
 * module mode, Rust's logging, NODE_ENV, Python's buffering; never PYTHONPATH, NODE_OPTIONS,
 * GOFLAGS or RUSTFLAGS, which load or run code).
 */
const INERT = new Set([
  'LANG',
  'LANGUAGE',
  'CHARSET',
  'TZ',
  'TERM',
  'COLORTERM',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'LS_COLORS',
  'LSCOLORS',
  'GREP_COLOR',
  'GREP_COLORS',
  'GCC_COLORS',
  'CI',
  'GOEXPERIMENT',
  'GOOS',
  'GOARCH',
  'CGO_ENABLED',
  'GO111MODULE',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'NODE_ENV',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
]);
const INERT_FAMILY = /^LC_[A-Z]+$/;

/** Names that change which program runs or how, whatever sets them. */
const RISKY = new Set([
  'PATH',
  'HOME',
  'SHELL',
  'ENV',
  'BASH_ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'IFS',
  'PROMPT_COMMAND',
  'CDPATH',
  'EDITOR',
  'VISUAL',
  'BROWSER',
  'MANOPT',
  'TAR_OPTIONS',
  'GZIP',
  'XZ_OPT',
  'BZIP2',
  'ZSTD_CLEVEL',
  'RIPGREP_CONFIG_PATH',
  'GREP_OPTIONS',
  'AWKPATH',
  'NODE_OPTIONS',
  'PERL5OPT',
  'RUBYOPT',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
]);
/** Families of names that configure programs: git, less, the loaders, pagers, askpass helpers, option lists. */
const RISKY_FAMILY =
  /^(GIT_|LESS|LD_|DYLD_|XDG_|BASH_FUNC_|NPM_CONFIG_|npm_config_|PYTHON|PERL|RUBY|NODE_|SSH_|CURL_|WGET)|(PAGER|EDITOR|ASKPASS|_OPTIONS|_OPTS|_COMMAND)$/;

/** A name some program reads as configuration that may run code, read or write files. */
export function configuresPrograms(name: string): boolean {
  return !isInert(name) && (RISKY.has(name) || RISKY_FAMILY.test(name));
}

/** An assignment the program surely receives: only inert names leave an allow rule free to allow. */
export function riskyForProgram(name: string): boolean {
  return !isInert(name);
}

const isInert = (name: string) => INERT.has(name) || INERT_FAMILY.test(name);

/** An assignment to a shell variable: risky if the name configures programs (it may be exported). */
export function riskyForShell(name: string): boolean {
  return configuresPrograms(name);
}
