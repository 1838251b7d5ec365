import { createRoot, useEffect, useState } from '@wordpress/element';
import { Notice, Spinner } from '@wordpress/components';
import '@wordpress/components/build-style/style.css';
import './admin.css';
import { api, messageOf, screenUrl, settings, type Me } from './api.ts';
import { CommentsScreen } from './screens/comments.tsx';
import { ExportScreen } from './screens/export.tsx';
import { ImportScreen } from './screens/import.tsx';
import { MediaScreen } from './screens/media.tsx';
import { MenusScreen } from './screens/menus.tsx';
import { PluginsScreen } from './screens/plugins.tsx';
import { PostsScreen } from './screens/posts.tsx';
import { ProfileScreen } from './screens/profile.tsx';
import { SettingsScreen } from './screens/settings.tsx';
import { UsersScreen } from './screens/users.tsx';

interface Screen {
  title: string;
  /** The capability that shows it (WordPress's admin menu's). */
  cap: string;
  render(me: Me, query: URLSearchParams): JSX.Element;
}

/** The admin's screens, in the menu's order. */
const SCREENS: Record<string, Screen> = {
  posts: { title: 'Posts', cap: 'edit_posts', render: (me, q) => <PostsScreen me={me} type="posts" query={q} /> },
  pages: { title: 'Pages', cap: 'edit_pages', render: (me, q) => <PostsScreen me={me} type="pages" query={q} /> },
  media: { title: 'Media', cap: 'upload_files', render: () => <MediaScreen /> },
  comments: { title: 'Comments', cap: 'moderate_comments', render: (_me, q) => <CommentsScreen query={q} /> },
  menus: { title: 'Menus', cap: 'edit_theme_options', render: () => <MenusScreen /> },
  plugins: { title: 'Plugins', cap: 'activate_plugins', render: () => <PluginsScreen /> },
  users: { title: 'Users', cap: 'list_users', render: () => <UsersScreen /> },
  // Tools
  import: { title: 'Import', cap: 'import', render: () => <ImportScreen /> },
  export: { title: 'Export', cap: 'export', render: () => <ExportScreen /> },
  settings: { title: 'Settings', cap: 'manage_options', render: () => <SettingsScreen /> },
  profile: { title: 'Profile', cap: 'read', render: (me) => <ProfileScreen me={me} /> },
};

/** The editor's module and its stylesheet (most of the bundle), loaded by the screens that edit only. */
function loadEditor() {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('editor.css', import.meta.url).href;
  document.head.append(link);
  return import('./editor.tsx');
}

function Admin() {
  const query = new URLSearchParams(location.search);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<Me>({ path: '/wp/v2/users/me?context=edit&_fields=id,name,capabilities' }).then(setMe, (e) => setError(messageOf(e)));
  }, []);
  if (error) return <Notice status="error" isDismissible={false}>{error}</Notice>;
  if (!me) return <Spinner />;
  const allowed = Object.entries(SCREENS).filter(([, s]) => me.capabilities[s.cap]);
  const asked = query.get('page') ?? '';
  const editing = asked === 'edit' || asked === 'post-new';
  const name = editing ? asked : SCREENS[asked] && me.capabilities[SCREENS[asked].cap] ? asked : allowed[0][0];
  const screen = SCREENS[name];
  return (
    <div className="cms-admin">
      <header className="cms-admin__bar">
        <a className="cms-admin__site" href={settings.siteUrl}>{settings.siteName}</a>
        <span className="cms-admin__howdy">Howdy, {me.name}</span>
        <a className="cms-admin__logout" href={settings.logoutUrl}>Log Out</a>
      </header>
      <div className="cms-admin__body">
        <nav className="cms-admin__menu" aria-label="Main menu">
          <ul>
            {allowed.map(([key, s]) => (
              <li key={key}>
                <a href={screenUrl(key)} aria-current={key === name ? 'page' : undefined}>{s.title}</a>
              </li>
            ))}
          </ul>
        </nav>
        <main className="cms-admin__content" id="cms-admin-main">
          {editing ? <EditorScreen me={me} query={query} /> : (
            <>
              <h1>{screen.title}</h1>
              {screen.render(me, query)}
            </>
          )}
        </main>
      </div>
    </div>
  );
}

/** The block editor, loaded with its screen only (it is most of the bundle). */
function EditorScreen({ me, query }: { me: Me; query: URLSearchParams }) {
  const [Editor, setEditor] = useState<null | ((p: { me: Me; query: URLSearchParams }) => JSX.Element)>(null);
  useEffect(() => {
    loadEditor().then((m) => setEditor(() => m.EditorScreen));
  }, []);
  return Editor ? <Editor me={me} query={query} /> : <Spinner />;
}

createRoot(document.getElementById('admin-root')!).render(<Admin />);
