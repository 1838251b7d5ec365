import { useEffect, useState } from '@wordpress/element';
import { Button, SelectControl, Spinner, TextControl, ToggleControl } from '@wordpress/components';
import { api, messageOf } from '../api.ts';
import { plain, useNotice } from './shared.tsx';

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
