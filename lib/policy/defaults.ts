// The built-in policy: what an agent uses when no policy is given, and what the server seeds on
// first start. Reads inside the workspace are allowed; shell commands and writes ask (through the
// risk defaults, so "Always Allow" grants can cover them); private networks and a few commands
// that are never what anyone wants are denied.
import type { PolicyInput } from './types';

const PRIVATE_HOSTS = [
  'localhost',
  '127.0.0.0/8',
  '0.0.0.0/8',
  '::1',
  '::/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
  'fe80::/10',
  'fc00::/7',
  'metadata.google.internal',
].join(',');

const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh'];

export const DEFAULT_POLICY: PolicyInput = {
  defaultAction: 'ask',
  riskDefaults: { read_only: 'ask', write: 'ask', destructive: 'ask' },
  rules: [
    {
      id: 'read-workspace',
      action: 'allow',
      tool: 'read_file',
      params: { path: '**' },
      description: 'Reading files inside the workspace is safe.',
    },
    {
      id: 'list-workspace',
      action: 'allow',
      tool: 'list_files',
      params: { path: '**' },
      description: 'Listing the workspace is safe.',
    },
    {
      id: 'no-private-network',
      action: 'deny',
      tool: 'fetch_url',
      when: [{ key: 'url', op: 'host', value: PRIVATE_HOSTS }],
      description: 'Loopback, private, link-local and cloud metadata addresses are off limits.',
    },
    ...['rm -rf /', 'rm -rf /*', 'rm -fr /', 'rm -fr /*', 'rm -rf ~', 'rm -rf ~/*', 'rm -rf --no-preserve-root *'].map(
      (command, i) => ({
        id: `no-rm-root-${i + 1}`,
        action: 'deny' as const,
        tool: 'bash',
        params: { command },
        description: 'Deleting the whole file system or home directory.',
      }),
    ),
    {
      id: 'no-privilege-or-disk-tools',
      action: 'deny',
      tool: 'bash',
      when: [
        {
          key: 'command',
          op: 'command_blacklist',
          value: 'sudo,doas,su,dd,mkfs,mkfs.ext2,mkfs.ext3,mkfs.ext4,mkfs.xfs,mkfs.btrfs,mkfs.vfat,fdisk,parted,shred',
        },
      ],
      description: 'Privilege escalation and raw disk tools.',
    },
    ...SHELLS.flatMap((shell) => [shell, `${shell} -`, `${shell} -s *`]).map((command) => ({
      id: `no-pipe-to-shell-${command.replace(/\W+/g, '-')}`,
      action: 'deny' as const,
      tool: 'bash',
      params: { command },
      description: 'A shell reading its script from a pipe (curl ... | sh) runs code nobody reviewed.',
    })),
  ],
};
