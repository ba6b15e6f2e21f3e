// A private, throw-away PostgreSQL cluster for specs that stop and start the database (outage
// tests): stopping the machine's main cluster (port 5432) would break every other test using it.
// initdb into a temp directory, listen on 127.0.0.1:<port> only, trust authentication (nothing
// else can reach it, and it lives for one spec). As root the binaries run as the `postgres` user,
// since PostgreSQL refuses to run as root. `destroy()` stops it and removes the directory.
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const DEFAULT_BIN_DIR = '/usr/lib/postgresql/15/bin';

export type StopMode = 'smart' | 'fast' | 'immediate';

export class PrivatePostgres {
  private constructor(
    /** postgres://gatehouse:gatehouse@127.0.0.1:<port>/<database>, for the app's DATABASE_URL. */
    readonly url: string,
    readonly port: number,
    private readonly dir: string,
    private readonly binDir: string,
  ) {}

  /**
   * A running cluster with a `gatehouse` role owning `database`, or why one cannot be had (no
   * binaries, no `postgres` user, the port taken...). Callers decide whether that skips or fails.
   */
  static async create(options: {
    port: number;
    database: string;
    binDir?: string;
  }): Promise<{ cluster?: PrivatePostgres; reason?: string }> {
    const binDir = options.binDir ?? process.env.E2E_PG_BIN_DIR ?? DEFAULT_BIN_DIR;
    if (!existsSync(path.join(binDir, 'initdb')))
      return { reason: `no PostgreSQL binaries in ${binDir} (set E2E_PG_BIN_DIR)` };
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-private-pg-'));
    const cluster = new PrivatePostgres(
      `postgres://gatehouse:gatehouse@127.0.0.1:${options.port}/${options.database}`,
      options.port,
      dir,
      binDir,
    );
    try {
      if (process.getuid?.() === 0) {
        const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
        if (user.status !== 0) throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as');
        const uid = Number(user.stdout.trim());
        const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
        chownSync(dir, uid, gid);
      }
      await cluster.run('initdb', [
        '-D',
        cluster.dataDir,
        '-U',
        'postgres',
        '--auth=trust',
        '--no-sync',
        '--encoding=UTF8',
        '--locale=C',
      ]);
      await cluster.start();
      const admin = new pg.Client({ host: '127.0.0.1', port: options.port, user: 'postgres', database: 'postgres' });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE gatehouse LOGIN PASSWORD 'gatehouse'`);
        await admin.query(`CREATE DATABASE "${options.database.replaceAll('"', '""')}" OWNER gatehouse`);
      } finally {
        await admin.end();
      }
      return { cluster };
    } catch (error) {
      await cluster.destroy();
      return { reason: (error as Error).message };
    }
  }

  /** PostgreSQL's own log (attach it when a spec fails). */
  get logFile(): string {
    return path.join(this.dir, 'server.log');
  }

  private get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** Starts the cluster and waits until it accepts connections. Asynchronous, so a spec's requests go on meanwhile. */
  async start(): Promise<void> {
    // The socket goes in the private directory too: the Debian default (/var/run/postgresql) is the main cluster's.
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    await this.run('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', this.logFile, '-w', '-t', '30', 'start']);
  }

  /** Stops it: `immediate` is a crash (connections cut, recovery at the next start), `fast` a clean shutdown that ends sessions. */
  async stop(mode: StopMode = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  }

  running(): boolean {
    return spawnSync(...this.command('pg_ctl', ['-D', this.dataDir, 'status'])).status === 0;
  }

  /** Stops it if it runs and deletes everything; safe to call twice. */
  async destroy(): Promise<void> {
    if (!existsSync(this.dir)) return;
    if (existsSync(path.join(this.dataDir, 'postmaster.pid')) && this.running()) await this.stop('immediate');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private command(
    binary: string,
    args: string[],
  ): [string, string[], { encoding: 'utf8'; timeout: number; cwd: string }] {
    const program = path.join(this.binDir, binary);
    const options = { encoding: 'utf8' as const, timeout: 60_000, cwd: this.dir };
    return process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', program, ...args], options]
      : [program, args, options];
  }

  private run(binary: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      execFile(...this.command(binary, args), (error, stdout, stderr) => {
        if (!error) return resolve();
        reject(
          new Error(
            `${binary} ${args.at(-1)} failed (${error.code ?? error.signal}): ${`${stdout}${stderr}`.trim() || error.message}`,
          ),
        );
      });
    });
  }
}
