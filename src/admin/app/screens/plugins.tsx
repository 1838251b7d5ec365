import { useEffect, useState } from '@wordpress/element';
import { Button, Spinner } from '@wordpress/components';
import { api, messageOf } from '../api.ts';
import { act, plain, useNotice } from './shared.tsx';

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
