// The host-taking programs table: the URLs and hosts a command reaches, written literally in it,
// so deny and ask rules on fetch_url apply to shell parts too. HTTP clients (curl, wget, httpie)
// give their URLs; programs that reach a host another way (nc, ssh, scp, rsync, git remotes)
// give the host, matched as `http://host/` and `https://host/`. A URL or host built from an
// expansion keeps its literal scheme and host when they are written out; otherwise it is unknown
// and every URL rule may match it.
import type { ShellWord } from '../shell/types';
import { basename } from '../shell/words';
import { parsedArgs, type ParsedArgs } from './args';

export interface Remote {
  /** The word it comes from, as written. */
  word: ShellWord;
  /** URLs to test rules against; empty when nothing is known of it. */
  urls: string[];
  /** How explanations say it: `fetches https://x.io/a`, `connects to x.io`. */
  what: string;
}

type Reader = (args: ParsedArgs, push: (word: ShellWord, kind: 'url' | 'host', scheme?: string) => void) => void;

/** Options (canonical names) of curl whose value is a host or proxy. */
const CURL_HOSTS = ['proxy', 'preproxy', 'socks4', 'socks4a', 'socks5', 'socks5-hostname'];
const METHOD = /^[A-Z]+$/;
/** git subcommands that take a remote. */
const REMOTE_SUBCOMMANDS = ['clone', 'fetch', 'pull', 'push', 'ls-remote', 'archive', 'submodule', 'remote'];

const TABLE: Record<string, Reader> = {
  curl(args, push) {
    // `file://` URLs are files (files.ts), not hosts.
    for (const { word } of args.operands) if (word.dynamic || !/^file:/i.test(word.value)) push(word, 'url', 'http');
    for (const option of args.options) {
      const value = option.value;
      if (!value) continue;
      if (option.name === 'url') push(value, 'url', 'http');
      else if (CURL_HOSTS.includes(option.name)) push(value, 'url', 'http');
      else if (option.name === 'connect-to' && !value.dynamic)
        push({ ...value, value: value.value.split(':')[2] ?? '' }, 'host');
      else if (option.name === 'resolve' && !value.dynamic)
        push({ ...value, value: value.value.split(':').slice(2).join(':') }, 'host');
    }
  },
  wget(args, push) {
    for (const { word } of args.operands) push(word, 'url', 'http');
  },
  http(args, push) {
    const first = args.operands.findIndex(({ word }) => word.dynamic || !METHOD.test(word.value));
    const url = first < 0 ? undefined : args.operands[first]!.word;
    if (!url) return;
    // httpie's `:3000/x` is localhost.
    push(
      !url.dynamic && url.value.startsWith(':') ? { ...url, value: `localhost${url.value}` } : url,
      'url',
      args.program === 'https' || args.program === 'xhs' ? 'https' : 'http',
    );
  },
  nc(args, push) {
    if (args.options.some((o) => o.name === 'l' || o.name === 'listen')) return;
    const host = args.operands[0]?.word;
    if (host) push(host, 'host');
  },
  socat(args, push) {
    for (const { word } of args.operands) {
      if (word.dynamic) push(word, 'host');
      const address =
        /^(?:TCP[46]?|TCP[46]?-CONNECT|OPENSSL|SSL|UDP[46]?|UDP[46]?-(?:CONNECT|SENDTO)|SOCKS4A?|PROXY):([^:,]+)/i.exec(
          word.value,
        );
      if (!word.dynamic && address) push({ ...word, value: address[1]! }, 'host');
    }
  },
  ssh(args, push) {
    const jump = args.options.find((o) => o.name === 'J')?.value;
    if (jump)
      for (const host of jump.dynamic ? [jump.value] : jump.value.split(',')) push({ ...jump, value: host }, 'host');
    const target = args.operands[0]?.word;
    if (target) push(target, 'host');
  },
  scp(args, push) {
    for (const { word } of args.operands) if (word.dynamic || isRemotePath(word.value)) push(word, 'host');
  },
  sftp(args, push) {
    const target = args.operands[0]?.word;
    if (target) push(target, 'host');
  },
  rsync(args, push) {
    for (const { word } of args.operands) if (word.dynamic || isRemotePath(word.value)) push(word, 'host');
  },
  git(args, push) {
    if (!REMOTE_SUBCOMMANDS.includes(args.sub ?? '')) return;
    for (const { word } of args.operands)
      if (!word.dynamic && (/^[a-z][a-z0-9+.-]*:\/\//i.test(word.value) || isRemotePath(word.value)))
        push(word, 'host');
    const remote = args.options.find((o) => o.name === 'remote')?.value;
    if (remote) push(remote, 'host');
  },
};
TABLE.https = TABLE.httpie = TABLE.xh = TABLE.xhs = TABLE.http!;
TABLE.ncat = TABLE.netcat = TABLE.telnet = TABLE.nc!;

/** `host:path`, `user@host:path`, `host::module`: a remote path (no `/` before the colon). */
function isRemotePath(value: string): boolean {
  return /^[^/:]+:/.test(value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}

/** The host of `[user@]host[:port][:path]`, `scheme://[user@]host[:port]/...`, `[v6]:path`. */
export function hostOf(value: string): string | undefined {
  let rest = value;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  rest = rest.slice(rest.lastIndexOf('@', rest.search(/[/]|$/)) + 1);
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    return end < 0 ? undefined : rest.slice(1, end);
  }
  const host = rest.split(/[:/]/)[0] ?? '';
  return host === '' ? undefined : host;
}

function hostUrls(host: string): string[] {
  const authority = host.includes(':') ? `[${host}]` : host;
  return [`https://${authority}/`, `http://${authority}/`];
}

/** What is written literally of a word with expansions: the text before the first one. */
function literalPrefix(word: ShellWord): string {
  const text = word.value.replace(/^["']+/, '');
  const first = text.search(/[$`"'\\]/);
  return first < 0 ? text : text.slice(0, first);
}

const NONE: readonly Remote[] = [];
const cache = new WeakMap<readonly ShellWord[], readonly Remote[]>();

/** The URLs and hosts one command (its innermost form) reaches; xargs may add one nobody can name. */
export function remotesOf(words: readonly ShellWord[], openArgs: boolean): readonly Remote[] {
  let remotes = cache.get(words);
  if (remotes === undefined) {
    remotes = scan(words, openArgs);
    cache.set(words, remotes);
  }
  return remotes;
}

function scan(words: readonly ShellWord[], openArgs: boolean): readonly Remote[] {
  const program = words[0];
  if (!program || program.dynamic) return NONE;
  const name = basename(program.value);
  const reader = Object.hasOwn(TABLE, name) ? TABLE[name]! : undefined;
  if (!reader) return NONE;
  const found: Remote[] = [];
  const push = (word: ShellWord, kind: 'url' | 'host', scheme?: string) => found.push(remoteOf(word, kind, scheme));
  const args = parsedArgs(words);
  reader(args, push);
  // xargs adds arguments, which may be addresses (for git, only to a subcommand that takes one).
  if (openArgs && (name !== 'git' || args.subUnknown || REMOTE_SUBCOMMANDS.includes(args.sub ?? '')))
    push({ value: '(arguments from xargs)', dynamic: true, splittable: true }, kind(name));
  return found.length > 0 ? found : NONE;
}

function kind(program: string): 'url' | 'host' {
  return ['curl', 'wget', 'http', 'https', 'httpie', 'xh', 'xhs'].includes(program) ? 'url' : 'host';
}

function remoteOf(word: ShellWord, kind: 'url' | 'host', scheme?: string): Remote {
  if (word.dynamic) {
    // `"https://api.x.io/$P"`: the scheme and host are known.
    const prefix = literalPrefix(word);
    const known = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@]+@)?([^/?#@:]+)(:\d+)?[/?#]/i.exec(prefix);
    if (known)
      return {
        word,
        urls: [`${known[1]!.toLowerCase()}://${known[3]}${known[4] ?? ''}/`],
        what: `reaches ${word.value}, at ${known[3]}`,
      };
    return { word, urls: [], what: `reaches ${word.value}, an address only known at run time` };
  }
  if (kind === 'url') {
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(word.value) ? word.value : `${scheme ?? 'http'}://${word.value}`;
    return { word, urls: [url], what: `fetches ${word.value}` };
  }
  const host = hostOf(word.value);
  return host === undefined
    ? { word, urls: [], what: `connects to ${word.value}` }
    : { word, urls: hostUrls(host), what: `connects to ${host}` };
}
