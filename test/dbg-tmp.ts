import { startTestServer } from './helpers/server.ts';
import { adminAuth } from './helpers/auth.ts';
const s = await startTestServer();
s.app.engine.log.error = (m: string) => console.log('ERR', m);
const admin = await adminAuth(s);
for (let i = 0; i < 5; i++) await s.call('cms/v2/posts', { method: 'POST', json: { title: `coded ${i}`, content: 'words '.repeat(200), status: 'publish' }, auth: admin });
await s.call('cms/v2/posts?per_page=5'); await s.call('cms/v2/posts?per_page=5');
await (await s.call('cms/v2/posts?per_page=5', { headers: { 'accept-encoding': 'br' } })).text();
const t0 = Date.now();
for (const p of ['cms/v2/posts/1', 'cms/v2/posts/1','cms/v2/posts/1?_fields=id,title','cms/v2/posts/1?_fields=id,title', 'cms/v2/posts/1?_embed', 'cms/v2/posts/1?_embed', 'cms/v2/posts/1?context=edit', 'cms/v2/posts/1?context=embed', `${s.home}/wp-json/wp/v2/posts/1`, `${s.home}/?rest_route=/wp/v2/posts/1`].map((p) => p.startsWith('http') ? p : s.api + p)) {
  const ac = new AbortController(); setTimeout(() => ac.abort(), 4000);
  try { const r = await fetch(p, { signal: ac.signal }); console.log(p, r.status, (await r.text()).length, Date.now() - t0); } catch (e) { console.log(p, 'FAILED', String(e)); }
}
await s.close();
