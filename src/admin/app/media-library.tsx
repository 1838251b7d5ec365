import { useEffect, useState, type ReactNode } from '@wordpress/element';
import { addFilter } from '@wordpress/hooks';
import { Button, Modal, Notice, SearchControl, Spinner } from '@wordpress/components';
import { api, messageOf } from './api.ts';

/** A media item as `/wp/v2/media?context=edit` answers it (the fields the library shows and hands on). */
export interface RestAttachment {
  id: number;
  source_url: string;
  alt_text: string;
  link: string;
  mime_type: string;
  caption: { raw?: string; rendered: string };
  title: { raw?: string; rendered: string };
  media_details: { sizes?: Record<string, { source_url: string; width: number; height: number }> };
}

/** An attachment as WordPress's media modal hands it to the blocks (wp.media's attachment JSON): what the image and gallery blocks read. */
export interface EditorAttachment {
  id: number;
  url: string;
  alt: string;
  caption: string;
  title: string;
  link: string;
  mime: string;
  type: string;
  subtype: string;
  sizes: Record<string, { url: string; width: number; height: number }>;
}

export function editorAttachment(m: RestAttachment): EditorAttachment {
  const [type, subtype] = m.mime_type.split('/');
  const sizes = Object.fromEntries(Object.entries(m.media_details.sizes ?? {}).map(([name, s]) => [name, { url: s.source_url, width: s.width, height: s.height }]));
  return { id: m.id, url: m.source_url, alt: m.alt_text, caption: m.caption.raw ?? '', title: m.title.raw ?? m.title.rendered, link: m.link, mime: m.mime_type, type, subtype, sizes };
}

/** Whether a mime type is among the allowed ones, each a whole type (`image/gif`) or its general part (`image`), as MediaUpload's allowedTypes. */
const allows = (allowedTypes: string[] | undefined, mime: string) => !allowedTypes?.length || allowedTypes.some((t) => t === mime || t === mime.split('/')[0]);

/** As many items as the library shows at once; a search finds the others. */
const SHOWN = 100;

interface MediaLibraryProps {
  allowedTypes?: string[];
  multiple?: boolean | 'add';
  value?: number | number[];
  title?: string;
  onSelect: (media: EditorAttachment | EditorAttachment[]) => void;
  render: (props: { open: () => void }) => ReactNode;
}

/**
 * The media library for the editor, in place of WordPress's media modal (wp.media, which is not
 * published on npm): the site's media over REST, newest first, searchable; one item picked, or
 * several for a gallery. The blocks' "Media Library" buttons and the featured image use it.
 */
export function MediaLibrary({ allowedTypes, multiple, value, title, onSelect, render }: MediaLibraryProps) {
  const [isOpen, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<RestAttachment[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);

  useEffect(() => {
    if (!isOpen) return;
    let current = true;
    const query = new URLSearchParams({ context: 'edit', per_page: String(SHOWN), orderby: 'date', order: 'desc' });
    if (search) query.set('search', search);
    if (allowedTypes?.length && allowedTypes.every((t) => t.startsWith('image'))) query.set('media_type', 'image');
    api<Response>({ path: `/wp/v2/media?${query}`, parse: false }).then(
      async (res) => {
        const found = ((await res.json()) as RestAttachment[]).filter((m) => allows(allowedTypes, m.mime_type));
        if (!current) return;
        setItems(found);
        setTotal(Number(res.headers.get('X-WP-Total') ?? found.length));
        setError('');
      },
      (e) => current && setError(messageOf(e)),
    );
    return () => {
      current = false;
    };
  }, [isOpen, search]);

  const open = () => {
    setChosen(value === undefined ? [] : ([] as number[]).concat(value).filter(Boolean));
    setItems(null);
    setSearch('');
    setOpen(true);
  };
  const choose = (id: number) => setChosen(multiple ? (chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]) : [id]);
  const select = () => {
    const byId = new Map((items ?? []).map((m) => [m.id, m]));
    const picked = chosen.flatMap((id) => (byId.has(id) ? [editorAttachment(byId.get(id)!)] : []));
    setOpen(false);
    onSelect(multiple ? picked : picked[0]);
  };

  return (
    <>
      {render({ open })}
      {isOpen && (
        <Modal title={title ?? 'Media Library'} onRequestClose={() => setOpen(false)} size="large">
          <SearchControl __nextHasNoMarginBottom label="Search media" value={search} onChange={setSearch} />
          {error && (
            <Notice status="error" isDismissible={false}>
              {error}
            </Notice>
          )}
          {!items && !error && <Spinner />}
          {items && !items.length && <p>No media items found.</p>}
          {items && total > items.length && <p>Showing the {items.length} newest of {total}: search to find the others.</p>}
          <ul className="cms-media-library" aria-label="Media items">
            {items?.map((m) => (
              <li key={m.id}>
                <Button className="cms-media-library__item" aria-pressed={chosen.includes(m.id)} onClick={() => choose(m.id)}>
                  {m.mime_type.startsWith('image/') ? <img src={m.media_details.sizes?.thumbnail?.source_url ?? m.source_url} alt="" /> : null}
                  <span>{m.title.raw || m.alt_text || m.source_url.split('/').pop()}</span>
                </Button>
              </li>
            ))}
          </ul>
          <div className="cms-media-library__actions">
            <Button variant="primary" disabled={!chosen.some((id) => items?.some((m) => m.id === id))} onClick={select}>
              Select
            </Button>
          </div>
        </Modal>
      )}
    </>
  );
}

// the block editor's MediaUpload renders nothing until a site gives it a library, as WordPress's edit-post does with wp.media
addFilter('editor.MediaUpload', 'cms-spec/media-library', () => MediaLibrary);
