import { forkChild } from './child-process.ts';
import { runLoad, fetchAll } from './http-load.ts';
import { startStandinProcess } from './standin.ts';
import { Random } from '../scripts/generator/random.ts';
const standin = await startStandinProcess('/tmp/readbench4');
const app = await forkChild<'sample-memory', unknown>(new URL('./app-process.ts', import.meta.url), [
  standin.uri,
]);
const listing = (await fetchAll(app.address, ['/services?minimal=true'], 1)).get('/services?minimal=true')!;
const ids = (JSON.parse(listing.body.toString()) as { id: string }[]).map((s) => `/services/${s.id}`);
const random = new Random(1);
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = await runLoad({
  origin: app.address,
  concurrency: Number(process.env.C ?? 16),
  maxRequests: 1e6,
  maxSeconds: Number(process.argv[2] ?? 8),
  nextPath: () => random.pick(ids),
});
const cpu = process.cpuUsage(c0);
console.log(
  r.requests / r.seconds,
  'req/s',
  r.p50Ms,
  r.p99Ms,
  'client cpu',
  ((cpu.user + cpu.system) / 1e3 / (performance.now() - t0)).toFixed(2),
);
await app.stop();
await standin.stop();
