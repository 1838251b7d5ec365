import { useEffect, useState } from '@wordpress/element';
import { FormFileUpload, Spinner } from '@wordpress/components';
import { fetchList, messageOf, uploadMedia } from '../api.ts';
import { act, plain, useNotice } from './shared.tsx';

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
