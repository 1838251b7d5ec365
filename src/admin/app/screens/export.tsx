import { useEffect, useState } from '@wordpress/element';
import { Button, RadioControl, SelectControl, TextControl } from '@wordpress/components';
import { api, messageOf, settings } from '../api.ts';
import { plain, useNotice } from './shared.tsx';

/** The statuses export.php offers (get_post_stati with internal false). */
const STATUSES = [
  { label: 'All', value: '' },
  { label: 'Published', value: 'publish' },
  { label: 'Scheduled', value: 'future' },
  { label: 'Draft', value: 'draft' },
  { label: 'Pending', value: 'pending' },
  { label: 'Private', value: 'private' },
];

/** Types export.php lists by name of their own: not WordPress's built-in ones. */
const BUILTIN_TYPES = new Set(['post', 'page', 'attachment', 'nav_menu_item']);

interface Filters {
  category: string;
  author: string;
  start_date: string;
  end_date: string;
  status: string;
}

const NO_FILTERS: Filters = { category: '', author: '', start_date: '', end_date: '', status: '' };

/**
 * Tools → Export (export.php): all content, posts, pages, media or one other type, with the
 * filters WordPress 6.1 offers for each (posts: category, author, date range, status; pages:
 * author, date range, status; media: date range); "Download Export File" downloads what
 * `cms-import/v1/export` answers, the file export_wp() writes.
 */
export function ExportScreen() {
  const [notice, say] = useNotice();
  const [content, setContent] = useState('all');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [categories, setCategories] = useState<{ id: number; name: string }[]>([]);
  const [authors, setAuthors] = useState<{ id: number; name: string }[]>([]);
  const [types, setTypes] = useState<{ slug: string; name: string }[]>([]);
  useEffect(() => {
    const failed = (e: unknown) => say('error', messageOf(e));
    api<{ id: number; name: string }[]>({ path: '/wp/v2/categories?per_page=100&_fields=id,name' }).then(setCategories, failed);
    api<{ id: number; name: string }[]>({ path: '/wp/v2/users?per_page=100&who=authors&_fields=id,name' }).then(setAuthors, failed);
    api<Record<string, { slug: string; name: string }>>({ path: '/wp/v2/types?_fields=slug,name' }).then((all) => setTypes(Object.values(all).filter((t) => !BUILTIN_TYPES.has(t.slug) && !t.slug.startsWith('wp_'))), failed);
  }, []);
  const change = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });
  const choose = (value: string) => {
    setContent(value);
    setFilters(NO_FILTERS);
  };
  const download = (e: { preventDefault(): void }) => {
    e.preventDefault();
    const query = new URLSearchParams({ content });
    for (const [k, v] of Object.entries(filters)) if (v) query.set(k, v);
    // a download is a navigation, which sends the session cookie but no header: the REST nonce goes in the query
    query.set('_wpnonce', api.nonceMiddleware?.nonce ?? settings.nonce);
    location.assign(`${settings.root}cms-import/v1/export?${query}`);
  };
  const pick = (label: string, key: keyof Filters, options: { label: string; value: string }[]) => (
    <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label={label} value={filters[key]} options={options} onChange={(v) => change({ [key]: v })} />
  );
  const month = (label: string, key: 'start_date' | 'end_date') => <TextControl __nextHasNoMarginBottom __next40pxDefaultSize type="month" label={label} value={filters[key]} onChange={(v) => change({ [key]: v })} />;
  const all = (list: { id: number; name: string }[]) => [{ label: 'All', value: '' }, ...list.map((x) => ({ label: plain(x.name), value: String(x.id) }))];
  return (
    <form onSubmit={download} className="cms-admin__form">
      {notice}
      <p>When you click the button below WordPress will create an XML file for you to save to your computer.</p>
      <p>This format, which is called WordPress eXtended RSS or WXR, will contain your posts, pages, comments, custom fields, categories, and tags.</p>
      <p>Once you’ve saved the download file, you can use the Import function in another WordPress installation to import the content from this site.</p>
      <h2>Choose what to export</h2>
      <RadioControl
        label="Content to export"
        selected={content}
        options={[
          { label: 'All content', value: 'all' },
          { label: 'Posts', value: 'post' },
          { label: 'Pages', value: 'page' },
          ...types.map((t) => ({ label: t.name, value: t.slug })),
          { label: 'Media', value: 'attachment' },
        ]}
        onChange={choose}
      />
      {content === 'all' && <p>This will contain all of your posts, pages, comments, custom fields, terms, navigation menus, and custom posts.</p>}
      {content === 'post' && pick('Categories:', 'category', all(categories))}
      {(content === 'post' || content === 'page') && pick('Authors:', 'author', all(authors))}
      {(content === 'post' || content === 'page' || content === 'attachment') && (
        <div className="cms-admin__inline-form">
          {month('Start date:', 'start_date')}
          {month('End date:', 'end_date')}
        </div>
      )}
      {(content === 'post' || content === 'page') && pick('Status:', 'status', STATUSES)}
      <p>
        <Button variant="primary" type="submit">
          Download Export File
        </Button>
      </p>
    </form>
  );
}
