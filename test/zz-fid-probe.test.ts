import { it } from 'node:test';
import { appendFileSync, writeFileSync } from 'node:fs';
import { useServer } from './helpers/server.ts';
const s = useServer();
const out = '/tmp/fid-probe.txt';
async function probe(label: string, path: string, init: any = {}) {
  const r = await s.call(path, init);
  const body = await r.text();
  appendFileSync(out, `${label}: ${init.method ?? 'GET'} ${path} -> ${r.status} ${body.slice(0, 300)}\n`);
  try { return JSON.parse(body); } catch { return null; }
}
it('probe', async () => {
  writeFileSync(out, '');
  const cat = await probe('cat', 'cms/v2/categories', { method: 'POST', json: { name: 'C1' }, auth: s.admin });
  const post = await probe('mkpost', 'cms/v2/posts?_fields=id,categories', { method: 'POST', json: { title: 'P', status: 'publish', categories: [cat.id] }, auth: s.admin });
  await probe('trash', `cms/v2/posts/${post.id}?_fields=id,categories,status`, { method: 'DELETE', auth: s.admin });
  await probe('get', `cms/v2/posts/${post.id}?_fields=id,categories,status&context=edit`, { auth: s.admin });
  const page = await probe('mkpage', 'cms/v2/pages?_fields=id,meta', { method: 'POST', json: { title: 'P', status: 'publish' }, auth: s.admin });
});
