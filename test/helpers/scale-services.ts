// Real Redis and Postgres servers for the scale-out tests, each started by the test file that
// needs it on 127.0.0.1 at a free port, in a temporary folder removed at the end. CI installs
// both (.ci/run); a machine without them skips those tests with a loud message, unless CI is set,
// where a missing server fails the suite instead.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';

export interface RunningService {
  readonly url: string;
  /** The server's process (Postgres's postmaster): benchmarks read its CPU time. */
  readonly pid: number;
  stop(): Promise<void>;
}

export interface PostgresService extends RestartableService {
  /** A fresh, empty database on this server, as a URL. */
  createDatabase(): Promise<string>;
}

/** The binary on PATH, or undefined. */
function onPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(':')) {
    const candidate = join(folder, name);
    if (folder && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Debian keeps Postgres's server binaries off PATH, in /usr/lib/postgresql/<version>/bin. */
function postgresBin(): string | undefined {
  const onPathInitdb = onPath('initdb');
  if (onPathInitdb && onPath('postgres')) return join(onPathInitdb, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/** Says loudly why the tests are skipped; in CI a missing server is a failure. */
export function serviceMissing(name: string, install: string): string {
  const message = `${name} is not installed: the scale-out tests that need it are SKIPPED (install it with: ${install})`;
  if (process.env.CI) throw new Error(`${message}; CI must have it (.ci/run installs it)`);
  process.stderr.write(`\n*** ${message} ***\n\n`);
  return message;
}

export const hasRedis = () => onPath('redis-server') !== undefined;
export const hasPostgres = () => postgresBin() !== undefined;

const services = {
  redis: { has: hasRedis, name: 'redis-server', install: 'apt-get install redis-server' },
  postgres: { has: hasPostgres, name: 'Postgres', install: 'apt-get install postgresql' },
};

/** Whether every named service is installed; each missing one is announced (and fails in CI). */
export function needServices(...names: Array<keyof typeof services>): boolean {
  let available = true;
  for (const name of names) {
    const service = services[name];
    if (service.has()) continue;
    serviceMissing(service.name, service.install);
    available = false;
  }
  return available;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once the child prints `ready` (on either stream); rejects if it exits first. */
function waitForLine(child: ChildProcess, ready: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** redis-server on loopback; `config` adds directives (e.g. a maxmemory-policy under test). */
export async function startRedis(config: Record<string, string> = {}): Promise<RestartableService> {
  const directory = mkdtempSync(join(os.tmpdir(), 'deepsearch-redis-'));
  const port = await freePort();
  const settings = {
    port: String(port),
    bind: '127.0.0.1',
    save: '',
    appendonly: 'no',
    'maxmemory-policy': 'noeviction',
    dir: directory,
    ...config,
  };
  const args = Object.entries(settings).flatMap(([key, value]) => [`--${key}`, value]);
  const launch = async () => {
    const child = spawn(onPath('redis-server')!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForLine(child, /Ready to accept connections/, 'redis-server');
    return child;
  };
  let child = await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child.pid!;
    },
    async restart() {
      await stopChild(child, 'SIGTERM');
      child = await launch();
    },
    halt: () => stopChild(child, 'SIGTERM'),
    async resume() {
      child = await launch();
    },
    async stop() {
      await stopChild(child, 'SIGTERM');
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A service that can be restarted on the same port (with what its persistence settings keep). */
export interface RestartableService extends RunningService {
  restart(): Promise<void>;
  /** Stops the server, keeping its port and folder (a service gone away); resume() starts it again. */
  halt(): Promise<void>;
  resume(): Promise<void>;
}

/** The user Postgres runs as: initdb refuses root, so as root the `postgres` account is used. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:') || entry.startsWith('nobody:'));
  if (!line)
    throw new Error('running as root, and neither a postgres nor a nobody user exists to run Postgres');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A throwaway Postgres cluster: initdb into a temporary folder, fsync off, loopback only;
 * `extraSettings` adds `-c` settings (a benchmark loads pg_stat_statements).
 */
export async function startPostgres(extraSettings: readonly string[] = []): Promise<PostgresService> {
  const bin = postgresBin()!;
  const directory = mkdtempSync(join(os.tmpdir(), 'deepsearch-postgres-'));
  const user = postgresUser();
  if (user) {
    chmodSync(directory, 0o700);
    chownSync(directory, user.uid, user.gid);
  }
  const asUser = { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
  const data = join(directory, 'data');
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'deepsearch', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    {
      ...asUser,
      stdio: 'pipe',
    },
  );
  const port = await freePort();
  const settings = [
    'listen_addresses=127.0.0.1',
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    ...extraSettings,
  ];
  const launch = async () => {
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', directory, ...settings.flatMap((setting) => ['-c', setting])],
      { ...asUser, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForLine(started, /database system is ready to accept connections/, 'postgres');
    return started;
  };
  let child = await launch();
  const url = `postgres://deepsearch@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    get pid() {
      return child.pid!;
    },
    async restart() {
      await stopChild(child, 'SIGINT');
      child = await launch();
    },
    halt: () => stopChild(child, 'SIGINT'),
    async resume() {
      child = await launch();
    },
    async createDatabase() {
      const name = `test_${process.pid}_${++databases}`;
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://deepsearch@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      // SIGINT: Postgres's fast shutdown (clients are disconnected, nothing waits).
      await stopChild(child, 'SIGINT');
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
