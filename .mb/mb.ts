import { startApp } from '/work/main/src/app.ts';
import { parseQueryString } from '/work/main/src/engine/params.ts';
const app = await startApp({ specDir: '/work/main/scripts/bench/spec', dbPath: ':memory:', variant: 'A', host: '127.0.0.1', port: 0, bodyLimit: 1e6, log: console });
const qs = 'page=3&per_page=20&flag=true&order=asc&ids=1,2,3';
const mk = () => ({ method: 'GET', path: '/bench/v1/echo', query: parseQueryString(qs), body: {}, headers: { host: 'x', 'user-agent': 'a' }, ip: '127.0.0.1' });
for (let round = 0; round < 5; round++) {
  const N = 200000;
  const t = performance.now();
  for (let i = 0; i < N; i++) await app.engine.handle(mk() as any, null);
  console.log('µs/handle', (((performance.now() - t) * 1000) / N).toFixed(2));
}
const t = performance.now();
for (let i = 0; i < 200000; i++) mk();
console.log('µs/mk', (((performance.now() - t) * 1000) / 200000).toFixed(2));
await app.close();
