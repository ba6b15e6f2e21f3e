// This process's identity among several instances sharing one database: the owner recorded on run
// leases (lib/db/leases.ts) and the name in logs. GATEHOUSE_INSTANCE_ID when set, else
// hostname-pid-random, parsed once per process. The random part means a restarted process never
// inherits its previous life's leases by accident; a fixed id lets it reclaim them at once.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { z } from 'zod';

const InstanceIdSchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/,
    'must be 1-100 characters: letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
  );

export class InstanceIdError extends Error {
  readonly code = 'invalid_config';
}

export interface InstanceIdSources {
  env?: Record<string, string | undefined>;
  hostname?: string;
  pid?: number;
  random?: () => string;
}

/** The id from the environment, or a fresh hostname-pid-random one. Throws on a malformed GATEHOUSE_INSTANCE_ID. */
export function parseInstanceId({
  env = process.env,
  hostname = os.hostname(),
  pid = process.pid,
  random = () => randomBytes(4).toString('hex'),
}: InstanceIdSources = {}): string {
  const configured = env.GATEHOUSE_INSTANCE_ID?.trim();
  if (configured) {
    const parsed = InstanceIdSchema.safeParse(configured);
    if (!parsed.success)
      throw new InstanceIdError(`Invalid configuration: GATEHOUSE_INSTANCE_ID ${parsed.error.issues[0]!.message}`);
    return parsed.data;
  }
  const host =
    hostname
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 60) || 'host';
  return `${host}-${pid}-${random()}`;
}

const KEY = Symbol.for('gatehouse.instanceId');
type Holder = { [KEY]?: string };

/** This process's instance id, computed on first use; kept on globalThis so Next's module reloads keep it. */
export function instanceId(): string {
  const holder = globalThis as Holder;
  holder[KEY] ??= parseInstanceId();
  return holder[KEY];
}
