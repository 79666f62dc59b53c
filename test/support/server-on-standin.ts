import { freePort } from './free-port.ts';
import { startScript, waitFor, type RunningProcess } from './process.ts';

/** The administrator the server is started with. */
export const admin = { login: 'admin', code: 'admin-code-0123456789' };
export const asAdmin = { 'x-appid': admin.login, 'x-appkey': admin.code };

export interface ServerOnStandin {
  /** The stand-in's own server process (what `npm run db` runs, without the process watching over it). */
  database: RunningProcess;
  server: RunningProcess;
  /** The database's connection string. */
  uri: string;
  /** The server's base URL. */
  url: string;
}

/**
 * The server (`src/main.ts`, with the sample directory and an administrator) on a stand-in running in a
 * process of its own over `dbPath`, both ready: the database process is one a test can stop, kill or
 * starve of disk while the server runs on. The test stops both.
 */
export async function startServerOnStandin(
  dbPath: string,
  serverDataDir: string,
  env: Record<string, string>,
): Promise<ServerOnStandin> {
  const dbPort = String(await freePort());
  const database = startScript('packages/mongo-standin/src/main.ts', {}, [
    '--port',
    dbPort,
    '--dbpath',
    dbPath,
  ]);
  const uri = `mongodb://127.0.0.1:${dbPort}/?directConnection=true`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startScript('src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    MONGODB_URI: uri,
    HSDS_DATA_DIR: serverDataDir,
    HSDS_SEED: 'true',
    HSDS_ADMIN_LOGIN: admin.login,
    HSDS_ADMIN_CODE: admin.code,
    ...env,
  });
  try {
    await waitFor(
      async () => (await fetch(`${url}/readyz`)).status === 200,
      45_000,
      `the server to be ready\n${server.output()}\n${database.output()}`,
    );
  } catch (error) {
    // Not handed to the test: stopped here.
    for (const running of [server, database]) running.child.kill('SIGKILL');
    throw error;
  }
  return { database, server, uri, url };
}
