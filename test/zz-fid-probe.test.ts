import { it } from 'node:test';
import { appendFileSync, writeFileSync } from 'node:fs';
import { useServer } from './helpers/server.ts';
import { userAuth } from './helpers/auth.ts';
const s = useServer();
const out = '/tmp/fid-probe.txt';
async function probe(label: string, path: string, init: any = {}) {
  const r = await s.call(path, init);
  const body = await r.text();
  appendFileSync(out, `${label}: ${init.method ?? 'GET'} ${path} -> ${r.status} Allow=${r.headers.get('allow')} ${body.slice(0, 160)}\n`);
  try { return JSON.parse(body); } catch { return null; }
}
it('probe', async () => {
  writeFileSync(out, '');
  const sub = await userAuth(s, 'subscriber');
  const post = await probe('mkpost', 'cms/v2/posts', { method: 'POST', json: { title: 'P', status: 'publish', content: 'x' }, auth: s.admin });
  await probe('anon comments?post', `cms/v2/comments?post=${post.id}`);
  await probe('anon comments', `cms/v2/comments`);
  await probe('anon users/me', `cms/v2/users/me`);
  await probe('anon PUT users/me', `cms/v2/users/me`, { method: 'PUT', json: {} });
  await probe('anon app-passwords', `cms/v2/users/1/application-passwords`);
  await probe('sub app-passwords admin', `cms/v2/users/1/application-passwords`, { auth: sub.auth });
  await probe('anon users/1 update', `cms/v2/users/1`, { method: 'POST', json: { name: 'x' } });
  await probe('sub users/1 delete', `cms/v2/users/1?force=true&reassign=1`, { method: 'DELETE', auth: sub.auth });
  await probe('anon comment create', `cms/v2/comments`, { method: 'POST', json: { post: post.id, content: 'hi' } });
  const c = await probe('admin comment create', `cms/v2/comments`, { method: 'POST', json: { post: post.id, content: 'hi' }, auth: s.admin });
  await probe('anon comment delete', `cms/v2/comments/${c.id}`, { method: 'DELETE' });
  await probe('anon menus', `cms/v2/menus`);
  await probe('anon menus create', `cms/v2/menus`, { method: 'POST', json: { name: 'm' } });
  await probe('anon menu-items', `cms/v2/menu-items`);
  await probe('sub autosave create', `cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { title: 'x' }, auth: sub.auth });
  await probe('anon autosave create', `cms/v2/posts/${post.id}/autosaves`, { method: 'POST', json: { title: 'x' } });
  await probe('anon statuses/x', `cms/v2/statuses/x`);
  await probe('anon block-types/x/y', `cms/v2/block-types/x/y`);
  await probe('anon widget-types/x', `cms/v2/widget-types/x`, { auth: s.admin });
  await probe('admin revisions missing parent', `cms/v2/posts/99999/revisions`, { auth: s.admin });
  await probe('admin update post', `cms/v2/posts/${post.id}`, { method: 'POST', json: { content: 'y' }, auth: s.admin });
  const revs = await probe('admin revisions', `cms/v2/posts/${post.id}/revisions`, { auth: s.admin });
  await probe('admin revision', `cms/v2/posts/${post.id}/revisions/${revs[0].id}`, { auth: s.admin });
  await probe('admin revision delete', `cms/v2/posts/${post.id}/revisions/${revs[0].id}?force=true`, { method: 'DELETE', auth: s.admin });
  const ap = await probe('admin ap create', `cms/v2/users/me/application-passwords`, { method: 'POST', json: { name: 'z' }, auth: s.admin });
  await probe('admin ap delete', `cms/v2/users/me/application-passwords/${ap.uuid}`, { method: 'DELETE', auth: s.admin });
});
