import { useEffect, useState } from '@wordpress/element';
import { Button, SearchControl, SelectControl, Spinner } from '@wordpress/components';
import { api, fetchList, messageOf, screenUrl, type Me } from '../api.ts';
import { act, plain, useNotice } from './shared.tsx';

const STATUS_LABELS: Record<string, string> = { publish: 'Published', draft: 'Draft', pending: 'Pending', future: 'Scheduled', private: 'Private', trash: 'Trash' };

interface PostItem {
  id: number;
  title: { raw?: string; rendered: string };
  status: string;
  date: string;
  link: string;
  _embedded?: { author?: { name: string }[] };
}

/** Posts or pages (edit.php): status views, search, author and date, edit, trash and restore, bulk trash. */
export function PostsScreen({ me, type, query }: { me: Me; type: 'posts' | 'pages'; query: URLSearchParams }) {
  const [status, setStatus] = useState(query.get('post_status') ?? 'any');
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<PostItem[] | null>(null);
  const [total, setTotal] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [notice, say] = useNotice();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    const q = new URLSearchParams({ context: 'edit', per_page: '20', status: status === 'any' ? 'publish,future,draft,pending,private' : status, _embed: 'author', orderby: 'date', order: 'desc' });
    if (search) q.set('search', search);
    fetchList<PostItem>(`/wp/v2/${type}?${q}`).then(
      (r) => {
        setItems(r.items);
        setTotal(r.total);
        setSelected([]);
      },
      (e) => say('error', messageOf(e)),
    );
  }, [type, status, search, version]);
  const noun = type === 'posts' ? 'post' : 'page';
  const trash = (ids: number[]) => act(say, reload, ids.length === 1 ? `1 ${noun} moved to the Trash.` : `${ids.length} ${type} moved to the Trash.`, () => Promise.all(ids.map((id) => api({ path: `/wp/v2/${type}/${id}`, method: 'DELETE' }))));
  const restore = (id: number) => act(say, reload, `1 ${noun} restored from the Trash.`, () => api({ path: `/wp/v2/${type}/${id}`, method: 'POST', data: { status: 'draft' } }));
  const remove = (id: number) => act(say, reload, `1 ${noun} permanently deleted.`, () => api({ path: `/wp/v2/${type}/${id}?force=true`, method: 'DELETE' }));
  const canCreate = me.capabilities[type === 'posts' ? 'edit_posts' : 'edit_pages'];
  return (
    <>
      {canCreate && (
        <p>
          <Button variant="primary" href={screenUrl('post-new', { post_type: type })}>
            Add New {type === 'posts' ? 'Post' : 'Page'}
          </Button>
        </p>
      )}
      {notice}
      <div className="cms-admin__filters">
        <SelectControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label="Status"
          value={status}
          options={[{ label: 'All', value: 'any' }, ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ label, value }))]}
          onChange={setStatus}
        />
        <SearchControl __nextHasNoMarginBottom label={`Search ${type}`} value={search} onChange={setSearch} />
      </div>
      {!items ? (
        <Spinner />
      ) : (
        <>
          <p className="cms-admin__count">{total === 1 ? '1 item' : `${total} items`}</p>
          {status !== 'trash' && (
            <Button variant="secondary" disabled={!selected.length} onClick={() => trash(selected)}>
              Move to Trash
            </Button>
          )}
          <table className="cms-admin__table">
            <thead>
              <tr>
                <td>
                  <input type="checkbox" aria-label="Select all" checked={!!items.length && selected.length === items.length} onChange={(e) => setSelected(e.target.checked ? items.map((p) => p.id) : [])} />
                </td>
                <th scope="col">Title</th>
                <th scope="col">Author</th>
                <th scope="col">Status</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => {
                const title = p.title.raw || plain(p.title.rendered) || '(no title)';
                return (
                  <tr key={p.id}>
                    <td>
                      <input type="checkbox" aria-label={`Select ${title}`} checked={selected.includes(p.id)} onChange={(e) => setSelected(e.target.checked ? [...selected, p.id] : selected.filter((id) => id !== p.id))} />
                    </td>
                    <td>
                      <strong>{p.status === 'trash' ? title : <a href={screenUrl('edit', { post: p.id, post_type: type })}>{title}</a>}</strong>
                      <div className="cms-admin__row-actions">
                        {p.status === 'trash' ? (
                          <>
                            <Button variant="link" onClick={() => restore(p.id)}>Restore <span className="screen-reader-text">{title}</span></Button>
                            <Button variant="link" isDestructive onClick={() => remove(p.id)}>Delete Permanently <span className="screen-reader-text">{title}</span></Button>
                          </>
                        ) : (
                          <>
                            <a href={screenUrl('edit', { post: p.id, post_type: type })}>Edit <span className="screen-reader-text">{title}</span></a>
                            <Button variant="link" isDestructive onClick={() => trash([p.id])}>Trash <span className="screen-reader-text">{title}</span></Button>
                            <a href={p.link}>View <span className="screen-reader-text">{title}</span></a>
                          </>
                        )}
                      </div>
                    </td>
                    <td>{p._embedded?.author?.[0]?.name ?? ''}</td>
                    <td>{STATUS_LABELS[p.status] ?? p.status}</td>
                    <td>{new Date(`${p.date}Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
