// A scratch PostgreSQL database for one run of the benchmark, dropped at the end. Either on the
// server of BENCH_GATE_DATABASE_URL (created through that URL), or on the local Debian cluster,
// which scripts/ensure-postgres.mjs starts if it is down (and provisions the gatehouse role).
import { spawnSync } from 'node:child_process';
import { ROOT } from './config';
import { dropDatabaseForce } from '../../scripts/drop-database.mjs';

export const LOCAL_CLUSTER_URL = 'postgres://gatehouse:gatehouse@127.0.0.1:5432/postgres';

export class ScratchDatabase {
  private constructor(
    /** Where CREATE / DROP DATABASE are run. */
    private readonly adminUrl: string,
    /** The scratch database's URL; undefined once dropped. */
    public url: string | undefined,
  ) {}

  get name(): string {
    return this.url ? new URL(this.url).pathname.slice(1) : '';
  }

  /** CREATE DATABASE gatehouse_bench_<pid>_<ms> on adminUrl's server. */
  static async create(adminUrl: string): Promise<ScratchDatabase> {
    const { default: pg } = await import('pg');
    const name = `gatehouse_bench_${process.pid}_${Date.now()}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return new ScratchDatabase(adminUrl, url.toString());
  }

  /** A fresh database on the local cluster (started and provisioned by scripts/ensure-postgres.mjs). */
  static onLocalCluster(): ScratchDatabase {
    const target = new URL(LOCAL_CLUSTER_URL);
    // ensure-postgres.mjs drops and recreates the database it is given, and only one named *test*.
    target.pathname = `/gatehouse_bench_test_${process.pid}_${Date.now()}`;
    const result = spawnSync(process.execPath, ['scripts/ensure-postgres.mjs'], {
      cwd: ROOT,
      env: { ...process.env, E2E_DATABASE_URL: target.toString() },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const url = result.stdout?.trim().split('\n').at(-1);
    if (result.status !== 0 || !url) {
      const why = `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim() || `exit ${result.status}`;
      throw new Error(
        `no PostgreSQL for two instances (set BENCH_GATE_DATABASE_URL, or start the local cluster): ${why}`,
      );
    }
    return new ScratchDatabase(LOCAL_CLUSTER_URL, url);
  }

  async drop(): Promise<void> {
    if (!this.url) return;
    const name = this.name;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      await dropDatabaseForce(client, name);
      this.url = undefined;
    } finally {
      await client.end();
    }
  }
}
