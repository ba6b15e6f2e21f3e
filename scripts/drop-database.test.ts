import { describe, expect, it, vi } from 'vitest';
import { dropDatabaseForce } from './drop-database.mjs';

function client(failures: unknown[]) {
  const query = vi.fn(async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    return { rows: [] };
  });
  return { query };
}

describe('dropDatabaseForce', () => {
  it('tries again while an autovacuum worker keeps the owner from forcing the drop (42501)', async () => {
    const c = client([{ code: '42501' }, { code: '42501' }]);
    await dropDatabaseForce(c, '"scratch"');
    expect(c.query).toHaveBeenCalledTimes(3);
    expect(c.query).toHaveBeenLastCalledWith('DROP DATABASE IF EXISTS "scratch" WITH (FORCE)');
  });

  it('passes any other error on at once', async () => {
    const c = client([{ code: '3D000' }]);
    await expect(dropDatabaseForce(c, '"scratch"')).rejects.toMatchObject({ code: '3D000' });
    expect(c.query).toHaveBeenCalledTimes(1);
  });
});
