import { useEffect, useState } from '@wordpress/element';
import { Button, SelectControl, Spinner, TextControl } from '@wordpress/components';
import { api, messageOf } from '../api.ts';
import { act, plain, useNotice } from './shared.tsx';

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
