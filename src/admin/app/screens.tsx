import { useEffect, useState } from '@wordpress/element';
import { Button, FormFileUpload, Notice, SearchControl, SelectControl, Spinner, TextControl, ToggleControl } from '@wordpress/components';
import { api, fetchList, messageOf, screenUrl, settings, uploadMedia, type Me } from './api.ts';

/** One notice at the top of a screen: what the last action did, or why it failed. */
function useNotice(): [JSX.Element | null, (status: 'success' | 'error', text: string) => void] {
  const [notice, setNotice] = useState<{ status: 'success' | 'error'; text: string } | null>(null);
  const el = notice ? (
    <Notice status={notice.status} onRemove={() => setNotice(null)}>
      {notice.text}
    </Notice>
  ) : null;
  return [el, (status, text) => setNotice({ status, text })];
}

/** Runs an action, then says how it went and reloads what the screen shows. */
async function act(say: (s: 'success' | 'error', t: string) => void, reload: () => void, done: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    say('success', done);
  } catch (e) {
    say('error', messageOf(e));
  }
  reload();
}

const plain = (html: string) => {
  const d = document.createElement('div');
  d.innerHTML = html;
  return d.textContent ?? '';
};

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

interface CommentItem {
  id: number;
  author_name: string;
  content: { rendered: string };
  status: string;
  post: number;
  date: string;
}

/** What a moderation mail's links ask for, and how the screen asks to be sure. */
const MAIL_ACTIONS: Record<string, { question: string; button: string; done: string }> = {
  approve: { question: 'Are you sure you want to approve this comment?', button: 'Approve Comment', done: 'Comment approved.' },
  spam: { question: 'Are you sure you want to mark this comment as spam?', button: 'Mark as Spam', done: 'Comment marked as spam.' },
  trash: { question: 'Are you sure you want to move this comment to the Trash?', button: 'Move to Trash', done: 'Comment moved to the Trash.' },
};

const COMMENT_VIEWS: Record<string, string> = { all: 'All', hold: 'Pending', approved: 'Approved', spam: 'Spam', trash: 'Trash' };

/** Comments (edit-comments.php): by status, approve, unapprove, spam and trash, each a REST update. */
export function CommentsScreen({ query }: { query: URLSearchParams }) {
  const initial = query.get('comment_status') === 'moderated' ? 'hold' : (query.get('comment_status') ?? 'all');
  const [status, setStatus] = useState(COMMENT_VIEWS[initial] ? initial : 'all');
  const [items, setItems] = useState<CommentItem[] | null>(null);
  const [notice, say] = useNotice();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    const q = new URLSearchParams({ context: 'edit', per_page: '20', status: status === 'all' ? 'all' : status });
    fetchList<CommentItem>(`/wp/v2/comments?${q}`).then((r) => setItems(r.items), (e) => say('error', messageOf(e)));
  }, [status, version]);
  const set = (c: Pick<CommentItem, 'id'>, to: string, done: string) => act(say, reload, done, () => api({ path: `/wp/v2/comments/${c.id}`, method: 'POST', data: { status: to } }));
  const trash = (c: Pick<CommentItem, 'id'>) => act(say, reload, 'Comment moved to the Trash.', () => api({ path: `/wp/v2/comments/${c.id}`, method: 'DELETE' }));
  // a link from a moderation mail (action=approve|spam|trash&c=ID) asks first, as wp-admin/comment.php does
  const [asked, setAsked] = useState(() => {
    const action = query.get('action') ?? '';
    const id = Number(query.get('c'));
    return MAIL_ACTIONS[action] && id > 0 ? { action, id } : null;
  });
  const confirm = asked && (
    <Notice status="warning" isDismissible={false}>
      {MAIL_ACTIONS[asked.action].question}{' '}
      <Button
        variant="primary"
        onClick={() => {
          const { action, id } = asked;
          setAsked(null);
          void (action === 'trash' ? trash({ id }) : set({ id }, action === 'approve' ? 'approved' : 'spam', MAIL_ACTIONS[action].done));
        }}
      >
        {MAIL_ACTIONS[asked.action].button}
      </Button>{' '}
      <Button variant="tertiary" onClick={() => setAsked(null)}>No</Button>
    </Notice>
  );
  return (
    <>
      {confirm}
      {notice}
      <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label="Show" value={status} options={Object.entries(COMMENT_VIEWS).map(([value, label]) => ({ value, label }))} onChange={setStatus} />
      {!items ? (
        <Spinner />
      ) : items.length === 0 ? (
        <p>No comments found.</p>
      ) : (
        <table className="cms-admin__table">
          <thead>
            <tr>
              <th scope="col">Author</th>
              <th scope="col">Comment</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {items.map((c) => (
              <tr key={c.id} className={c.status === 'hold' ? 'unapproved' : undefined}>
                <td>{c.author_name}</td>
                <td>
                  <div>{plain(c.content.rendered)}</div>
                  <div className="cms-admin__row-actions">
                    {c.status === 'hold' && <Button variant="link" onClick={() => set(c, 'approved', 'Comment approved.')}>Approve <span className="screen-reader-text">the comment by {c.author_name}</span></Button>}
                    {c.status === 'approved' && <Button variant="link" onClick={() => set(c, 'hold', 'Comment unapproved.')}>Unapprove <span className="screen-reader-text">the comment by {c.author_name}</span></Button>}
                    {c.status !== 'spam' && c.status !== 'trash' && <Button variant="link" isDestructive onClick={() => set(c, 'spam', 'Comment marked as spam.')}>Spam <span className="screen-reader-text">the comment by {c.author_name}</span></Button>}
                    {c.status !== 'trash' && <Button variant="link" isDestructive onClick={() => trash(c)}>Trash <span className="screen-reader-text">the comment by {c.author_name}</span></Button>}
                    {(c.status === 'spam' || c.status === 'trash') && <Button variant="link" onClick={() => set(c, c.status === 'spam' ? 'unspam' : 'untrash', 'Comment restored.')}>Restore <span className="screen-reader-text">the comment by {c.author_name}</span></Button>}
                  </div>
                </td>
                <td>{COMMENT_VIEWS[c.status] ?? c.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

interface UserItem {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
}

/** Users (users.php): who has an account and their role. */
export function UsersScreen() {
  const [items, setItems] = useState<UserItem[] | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    fetchList<UserItem>('/wp/v2/users?context=edit&per_page=50').then((r) => setItems(r.items), (e) => say('error', messageOf(e)));
  }, []);
  return (
    <>
      {notice}
      {!items ? (
        <Spinner />
      ) : (
        <table className="cms-admin__table">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
            </tr>
          </thead>
          <tbody>
            {items.map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{u.roles.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

interface SiteSettings {
  title: string;
  description: string;
  posts_per_page: number;
  show_on_front: string;
  page_on_front: number;
  page_for_posts: number;
  default_comment_status: string;
  default_ping_status: string;
}

/** Settings (options-general, -reading, -discussion): what `/wp/v2/settings` carries, saved in one request. */
export function SettingsScreen() {
  const [values, setValues] = useState<SiteSettings | null>(null);
  const [pages, setPages] = useState<{ id: number; title: { rendered: string } }[]>([]);
  const [notice, say] = useNotice();
  useEffect(() => {
    api<SiteSettings>({ path: '/wp/v2/settings' }).then(setValues, (e) => say('error', messageOf(e)));
    api<{ id: number; title: { rendered: string } }[]>({ path: '/wp/v2/pages?per_page=100&_fields=id,title' }).then(setPages, () => setPages([]));
  }, []);
  if (!values) return <>{notice}<Spinner /></>;
  const change = (patch: Partial<SiteSettings>) => setValues({ ...values, ...patch });
  const save = async (e: { preventDefault(): void }) => {
    e.preventDefault();
    try {
      setValues(await api<SiteSettings>({ path: '/wp/v2/settings', method: 'POST', data: values }));
      say('success', 'Settings saved.');
    } catch (err) {
      say('error', messageOf(err));
    }
  };
  const pageOptions = [{ label: '— Select —', value: '0' }, ...pages.map((p) => ({ label: plain(p.title.rendered) || `#${p.id}`, value: String(p.id) }))];
  return (
    <form onSubmit={save} className="cms-admin__form">
      {notice}
      <h2>General</h2>
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Site Title" value={values.title} onChange={(title) => change({ title })} />
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Tagline" value={values.description} onChange={(description) => change({ description })} />
      <h2>Reading</h2>
      <SelectControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label="Your homepage displays"
        value={values.show_on_front}
        options={[
          { label: 'Your latest posts', value: 'posts' },
          { label: 'A static page', value: 'page' },
        ]}
        onChange={(show_on_front) => change({ show_on_front })}
      />
      {values.show_on_front === 'page' && (
        <>
          <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label="Homepage" value={String(values.page_on_front)} options={pageOptions} onChange={(v) => change({ page_on_front: Number(v) })} />
          <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label="Posts page" value={String(values.page_for_posts)} options={pageOptions} onChange={(v) => change({ page_for_posts: Number(v) })} />
        </>
      )}
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize type="number" min={1} label="Blog pages show at most" value={String(values.posts_per_page)} onChange={(v) => change({ posts_per_page: Number(v) })} />
      <h2>Discussion</h2>
      <ToggleControl __nextHasNoMarginBottom label="Allow people to submit comments on new posts" checked={values.default_comment_status === 'open'} onChange={(on) => change({ default_comment_status: on ? 'open' : 'closed' })} />
      <ToggleControl __nextHasNoMarginBottom label="Allow link notifications from other blogs (pingbacks and trackbacks) on new posts" checked={values.default_ping_status === 'open'} onChange={(on) => change({ default_ping_status: on ? 'open' : 'closed' })} />
      <p>
        <Button variant="primary" type="submit">Save Changes</Button>
      </p>
    </form>
  );
}

interface PluginItem {
  plugin: string;
  name: string;
  status: string;
  description: { raw?: string; rendered: string } | string;
}

/** Plugins (plugins.php): each one's name and description, activated and deactivated through `/wp/v2/plugins`. */
export function PluginsScreen() {
  const [items, setItems] = useState<PluginItem[] | null>(null);
  const [notice, say] = useNotice();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    api<PluginItem[]>({ path: '/wp/v2/plugins' }).then(setItems, (e) => say('error', messageOf(e)));
  }, [version]);
  const toggle = (p: PluginItem) =>
    act(say, reload, p.status === 'active' ? 'Plugin deactivated.' : 'Plugin activated.', () => api({ path: `/wp/v2/plugins/${p.plugin}`, method: 'POST', data: { status: p.status === 'active' ? 'inactive' : 'active' } }));
  return (
    <>
      {notice}
      {!items ? (
        <Spinner />
      ) : (
        <table className="cms-admin__table">
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.plugin} className={p.status === 'active' ? 'active' : 'inactive'}>
                <td>
                  <strong>{p.name}</strong>
                  <div className="cms-admin__row-actions">
                    <Button variant="link" onClick={() => toggle(p)}>
                      {p.status === 'active' ? 'Deactivate' : 'Activate'} <span className="screen-reader-text">{p.name}</span>
                    </Button>
                  </div>
                </td>
                <td>{typeof p.description === 'string' ? p.description : p.description.raw ?? plain(p.description.rendered)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

interface MediaItem {
  id: number;
  title: { rendered: string };
  source_url: string;
  media_type: string;
  media_details?: { sizes?: Record<string, { source_url: string }> };
  alt_text: string;
}

/** Media (upload.php): the library's items, newest first, and uploads into it. */
export function MediaScreen() {
  const [items, setItems] = useState<MediaItem[] | null>(null);
  const [notice, say] = useNotice();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    fetchList<MediaItem>('/wp/v2/media?per_page=40').then((r) => setItems(r.items), (e) => say('error', messageOf(e)));
  }, [version]);
  const upload = (files: FileList | null) => {
    if (!files?.length) return;
    void act(say, reload, files.length === 1 ? 'File uploaded.' : `${files.length} files uploaded.`, () =>
      Promise.all([...files].map((f) => uploadMedia(f))),
    );
  };
  return (
    <>
      <FormFileUpload __next40pxDefaultSize variant="primary" multiple accept="image/*,audio/*,video/*,application/pdf" onChange={(e) => upload((e.target as HTMLInputElement).files)}>
        Add New Media File
      </FormFileUpload>
      {notice}
      {!items ? (
        <Spinner />
      ) : (
        <ul className="cms-admin__media">
          {items.map((m) => (
            <li key={m.id}>
              {m.media_type === 'image' ? <img src={m.media_details?.sizes?.thumbnail?.source_url ?? m.source_url} alt={m.alt_text || plain(m.title.rendered)} width={150} height={150} /> : <span className="cms-admin__file">{plain(m.title.rendered)}</span>}
              <a href={m.source_url}>{plain(m.title.rendered) || `#${m.id}`}</a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

interface MenuItem {
  id: number;
  name: string;
}
interface MenuEntry {
  id: number;
  title: { rendered: string } | string;
  url: string;
}

/** Menus (nav-menus.php): each menu with its items; custom links added, items removed. */
export function MenusScreen() {
  const [menus, setMenus] = useState<MenuItem[] | null>(null);
  const [current, setCurrent] = useState(0);
  const [entries, setEntries] = useState<MenuEntry[]>([]);
  const [newMenu, setNewMenu] = useState('');
  const [link, setLink] = useState({ title: '', url: '' });
  const [notice, say] = useNotice();
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    api<MenuItem[]>({ path: '/wp/v2/menus?per_page=100&context=edit' }).then(
      (m) => {
        setMenus(m);
        if (!current && m.length) setCurrent(m[0].id);
      },
      (e) => say('error', messageOf(e)),
    );
  }, [version]);
  useEffect(() => {
    if (current) api<MenuEntry[]>({ path: `/wp/v2/menu-items?menus=${current}&per_page=100&context=edit` }).then(setEntries, (e) => say('error', messageOf(e)));
  }, [current, version]);
  if (!menus) return <>{notice}<Spinner /></>;
  const titleOf = (e: MenuEntry) => (typeof e.title === 'string' ? e.title : plain(e.title.rendered));
  return (
    <>
      {notice}
      <form
        className="cms-admin__inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(say, reload, 'Menu created.', async () => {
            const made = await api<MenuItem>({ path: '/wp/v2/menus', method: 'POST', data: { name: newMenu } });
            setCurrent(made.id);
            setNewMenu('');
          });
        }}
      >
        <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Menu Name" value={newMenu} onChange={setNewMenu} />
        <Button variant="secondary" type="submit" disabled={!newMenu.trim()}>Create Menu</Button>
      </form>
      {menus.length > 0 && (
        <>
          <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label="Select a menu to edit" value={String(current)} options={menus.map((m) => ({ label: m.name, value: String(m.id) }))} onChange={(v) => setCurrent(Number(v))} />
          <ul className="cms-admin__menu-items">
            {entries.map((e) => (
              <li key={e.id}>
                {titleOf(e)} <small>{e.url}</small>{' '}
                <Button variant="link" isDestructive onClick={() => act(say, reload, 'Menu item removed.', () => api({ path: `/wp/v2/menu-items/${e.id}?force=true`, method: 'DELETE' }))}>
                  Remove <span className="screen-reader-text">{titleOf(e)}</span>
                </Button>
              </li>
            ))}
          </ul>
          <form
            className="cms-admin__inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              void act(say, reload, 'Menu item added.', async () => {
                await api({ path: '/wp/v2/menu-items', method: 'POST', data: { menus: current, title: link.title, url: link.url, type: 'custom', status: 'publish' } });
                setLink({ title: '', url: '' });
              });
            }}
          >
            <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Link Text" value={link.title} onChange={(title) => setLink({ ...link, title })} />
            <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="URL" type="url" value={link.url} onChange={(url) => setLink({ ...link, url })} />
            <Button variant="secondary" type="submit" disabled={!link.url}>Add to Menu</Button>
          </form>
        </>
      )}
    </>
  );
}

/** Profile (profile.php): every user's own name and email; the only screen a subscriber has. */
export function ProfileScreen({ me }: { me: Me }) {
  const [user, setUser] = useState<{ name: string; email: string } | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    api<{ name: string; email: string }>({ path: '/wp/v2/users/me?context=edit&_fields=name,email' }).then(setUser, (e) => say('error', messageOf(e)));
  }, [me.id]);
  if (!user) return <>{notice}<Spinner /></>;
  return (
    <form
      className="cms-admin__form"
      onSubmit={(e) => {
        e.preventDefault();
        void act(say, () => {}, 'Profile updated.', () => api({ path: '/wp/v2/users/me', method: 'POST', data: user }));
      }}
    >
      {notice}
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Display name" value={user.name} onChange={(name) => setUser({ ...user, name })} />
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Email" type="email" value={user.email} onChange={(email) => setUser({ ...user, email })} />
      <p>
        <Button variant="primary" type="submit">Update Profile</Button>
      </p>
      <p>
        <a href={settings.siteUrl}>Visit Site</a>
      </p>
    </form>
  );
}
