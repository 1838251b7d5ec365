import { useEffect, useMemo, useRef, useState } from '@wordpress/element';
import { parse, serialize, type BlockInstance } from '@wordpress/blocks';
import { registerCoreBlocks } from '@wordpress/block-library';
import '@wordpress/format-library';
import '@wordpress/core-data';
import { BlockEditorKeyboardShortcuts, BlockEditorProvider, BlockInspector, BlockList, BlockTools, ObserveTyping, WritingFlow } from '@wordpress/block-editor';
import { Button, CheckboxControl, DateTimePicker, FormFileUpload, FormTokenField, Modal, Notice, PanelBody, SelectControl, Spinner, TextControl, TextareaControl } from '@wordpress/components';
import '@wordpress/block-editor/build-style/style.css';
import '@wordpress/block-library/build-style/style.css';
import '@wordpress/block-library/build-style/editor.css';
import '@wordpress/block-library/build-style/theme.css';
import '@wordpress/format-library/build-style/style.css';
import './editor.css';
import { api, messageOf, screenUrl, uploadMedia, type Me } from './api.ts';
import { MediaLibrary, editorAttachment, type EditorAttachment, type RestAttachment } from './media-library.tsx';

registerCoreBlocks();

/** The post as the editor holds it; `content` is the blocks serialised, as WordPress stores it. */
interface Draft {
  id: number;
  title: string;
  status: string;
  date: string | null;
  password: string;
  excerpt: string;
  categories: number[];
  tags: number[];
  featured_media: number;
  link: string;
}

interface RestPost {
  id: number;
  title: { raw: string };
  content: { raw: string; rendered: string };
  excerpt: { raw: string };
  status: string;
  date: string | null;
  date_gmt: string | null;
  password: string;
  categories?: number[];
  tags?: number[];
  featured_media: number;
  link: string;
}

interface Term {
  id: number;
  name: string;
}

interface Revision {
  id: number;
  date: string;
  title: { raw?: string; rendered: string };
  content: { raw?: string; rendered: string };
  excerpt: { raw?: string; rendered: string };
}

const draftOf = (p: RestPost): Draft => ({
  id: p.id,
  title: p.title.raw,
  status: p.status,
  date: p.date_gmt ? p.date : null,
  password: p.password,
  excerpt: p.excerpt.raw,
  categories: p.categories ?? [],
  tags: p.tags ?? [],
  featured_media: p.featured_media,
  link: p.link,
});

const EMPTY: Draft = { id: 0, title: '', status: 'draft', date: null, password: '', excerpt: '', categories: [], tags: [], featured_media: 0, link: '' };

/** How often unsaved changes are autosaved (WordPress's AUTOSAVE_INTERVAL). */
const AUTOSAVE_MS = 60_000;

/**
 * mediaUpload for the block editor (the image, gallery and file blocks): each file goes to the
 * media library over REST, and the block gets the attachment as WordPress's editor hands it.
 */
function mediaUpload({ filesList, onFileChange, onError }: { filesList: FileList | File[]; onFileChange: (media: EditorAttachment[]) => void; onError?: (message: string) => void }) {
  Promise.all([...filesList].map(async (file) => editorAttachment(await uploadMedia<RestAttachment>(file)))).then(onFileChange, (e) => onError?.(messageOf(e)));
}

/** The editor screen (post.php, post-new.php): WordPress's block editor editing one post or page over REST. */
export function EditorScreen({ me, query }: { me: Me; query: URLSearchParams }) {
  const type = query.get('post_type') === 'pages' ? 'pages' : 'posts';
  const noun = type === 'posts' ? 'Post' : 'Page';
  const canEdit = me.capabilities[type === 'posts' ? 'edit_posts' : 'edit_pages'];
  const canPublish = me.capabilities[type === 'posts' ? 'publish_posts' : 'publish_pages'];
  const id = Number(query.get('post') ?? 0);
  const [post, setPost] = useState<Draft | null>(id ? null : EMPTY);
  const [blocks, setBlocks] = useState<BlockInstance[]>([]);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState('');
  const [notice, setNotice] = useState<{ status: 'success' | 'error' | 'info'; text: string; link?: string } | null>(null);
  const [categories, setCategories] = useState<Term[]>([]);
  const [tagNames, setTagNames] = useState<string[]>([]);
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const [featured, setFeatured] = useState<string>('');
  const autosaved = useRef('');

  useEffect(() => {
    if (!canEdit) return;
    if (type === 'posts') api<Term[]>({ path: '/wp/v2/categories?per_page=100&_fields=id,name' }).then(setCategories, () => setCategories([]));
    if (!id) return;
    api<RestPost>({ path: `/wp/v2/${type}/${id}?context=edit` }).then(
      async (p) => {
        setPost(draftOf(p));
        setBlocks(parse(p.content.raw));
        if (p.tags?.length) setTagNames((await api<Term[]>({ path: `/wp/v2/tags?include=${p.tags.join(',')}&_fields=id,name` })).map((t) => t.name));
      },
      (e) => setNotice({ status: 'error', text: messageOf(e) }),
    );
    loadRevisions(id);
  }, [id]);

  useEffect(() => {
    if (!post?.featured_media) return setFeatured('');
    api<{ source_url: string }>({ path: `/wp/v2/media/${post.featured_media}?_fields=source_url` }).then((m) => setFeatured(m.source_url), () => setFeatured(''));
  }, [post?.featured_media]);

  // autosave: a saved post's unsaved changes every minute, as WordPress's editor does
  useEffect(() => {
    if (!post?.id || !dirty) return;
    const timer = setTimeout(async () => {
      const content = serialize(blocks);
      const key = `${post.title}\u0000${content}\u0000${post.excerpt}`;
      if (key === autosaved.current) return;
      try {
        await api({ path: `/wp/v2/${type}/${post.id}/autosaves`, method: 'POST', data: { title: post.title, content, excerpt: post.excerpt } });
        autosaved.current = key;
        setNotice({ status: 'info', text: 'Autosaved.' });
      } catch (e) {
        setNotice({ status: 'error', text: messageOf(e) });
      }
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [post, blocks, dirty]);

  const settings = useMemo(() => ({ mediaUpload: me.capabilities.upload_files ? mediaUpload : undefined, hasFixedToolbar: false, bodyPlaceholder: 'Type / to choose a block' }), [me]);

  if (!canEdit) return <Notice status="error" isDismissible={false}>Sorry, you are not allowed to edit {type} as this user.</Notice>;
  if (!post) return notice ? <Notice status="error" isDismissible={false}>{notice.text}</Notice> : <Spinner />;

  function loadRevisions(postId: number) {
    api<Revision[]>({ path: `/wp/v2/${type}/${postId}/revisions?context=edit&per_page=20` }).then(setRevisions, () => setRevisions([]));
  }

  const change = (patch: Partial<Draft>) => {
    setPost({ ...post, ...patch });
    setDirty(true);
  };

  /** Tags by name: the ones that exist are found, the others made (as the editor's tag field does). */
  async function tagIds(): Promise<number[]> {
    const ids: number[] = [];
    for (const name of tagNames) {
      const found = await api<Term[]>({ path: `/wp/v2/tags?search=${encodeURIComponent(name)}&_fields=id,name` });
      const same = found.find((t) => t.name.toLowerCase() === name.toLowerCase());
      ids.push(same ? same.id : (await api<Term>({ path: '/wp/v2/tags', method: 'POST', data: { name } })).id);
    }
    return ids;
  }

  async function save(status: string, label: string, done: string) {
    setBusy(label);
    try {
      const data: Record<string, unknown> = { title: post!.title, content: serialize(blocks), excerpt: post!.excerpt, status, password: post!.password, featured_media: post!.featured_media };
      if (post!.date) data.date = post!.date;
      if (type === 'posts') Object.assign(data, { categories: post!.categories, tags: await tagIds() });
      // a new post is made as a draft first, then saved as asked: as WordPress's editor, whose post exists (an auto-draft) before its first save, so that save leaves a revision
      const postId = post!.id || (await api<RestPost>({ path: `/wp/v2/${type}`, method: 'POST', data: { title: post!.title, status: 'draft' } })).id;
      const saved = await api<RestPost>({ path: `/wp/v2/${type}/${postId}`, method: 'POST', data });
      setPost(draftOf(saved));
      setDirty(false);
      setNotice({ status: 'success', text: done, link: saved.status === 'publish' || saved.status === 'private' ? saved.link : undefined });
      if (!post!.id) history.replaceState(null, '', screenUrl('edit', { post: saved.id, post_type: type }));
      loadRevisions(saved.id);
    } catch (e) {
      setNotice({ status: 'error', text: messageOf(e) });
    }
    setBusy('');
  }

  async function showPreview() {
    setBusy('Preview');
    try {
      // the server renders the unsaved content as the site would (the autosave of a saved post, else a draft is made)
      if (post!.id) {
        const a = await api<{ content: { rendered: string } }>({ path: `/wp/v2/${type}/${post!.id}/autosaves`, method: 'POST', data: { title: post!.title, content: serialize(blocks), excerpt: post!.excerpt } });
        setPreview(a.content.rendered);
      } else {
        await save('draft', 'Preview', 'Draft saved.');
      }
    } catch (e) {
      setNotice({ status: 'error', text: messageOf(e) });
    }
    setBusy('');
  }

  async function restore(r: Revision) {
    setBusy('Restore');
    try {
      const full = await api<Revision>({ path: `/wp/v2/${type}/${post!.id}/revisions/${r.id}?context=edit` });
      const saved = await api<RestPost>({ path: `/wp/v2/${type}/${post!.id}`, method: 'POST', data: { title: full.title.raw, content: full.content.raw, excerpt: full.excerpt.raw } });
      setPost(draftOf(saved));
      setBlocks(parse(saved.content.raw));
      setNotice({ status: 'success', text: `Restored the revision from ${new Date(`${r.date}Z`).toLocaleString('en-US', { timeZone: 'UTC' })}.` });
      loadRevisions(saved.id);
    } catch (e) {
      setNotice({ status: 'error', text: messageOf(e) });
    }
    setBusy('');
  }

  const published = post.status === 'publish' || post.status === 'future' || post.status === 'private';
  const scheduled = !!post.date && new Date(`${post.date}Z`).getTime() > Date.now();
  const visibility = post.status === 'private' ? 'private' : post.password ? 'password' : 'public';
  const primary = canPublish
    ? published
      ? { label: 'Update', status: post.status, done: `${noun} updated.` }
      : scheduled
        ? { label: 'Schedule', status: 'future', done: `${noun} scheduled.` }
        : { label: 'Publish', status: visibility === 'private' ? 'private' : 'publish', done: `${noun} published.` }
    : { label: 'Submit for Review', status: 'pending', done: `${noun} submitted for review.` };

  return (
    <div className="cms-editor">
      <div className="cms-editor__header" role="region" aria-label="Editor top bar">
        <a href={screenUrl(type)}>&larr; All {type === 'posts' ? 'Posts' : 'Pages'}</a>
        <span className="cms-editor__state">{busy ? `${busy}…` : dirty ? 'Unsaved changes' : post.id ? 'Saved' : ''}</span>
        {!published && (
          <Button variant="tertiary" disabled={!!busy} onClick={() => save(post.status === 'pending' ? 'pending' : 'draft', 'Saving', 'Draft saved.')}>
            Save draft
          </Button>
        )}
        <Button variant="secondary" disabled={!!busy} onClick={showPreview}>
          Preview
        </Button>
        <Button variant="primary" disabled={!!busy} onClick={() => save(primary.status, primary.label, primary.done)}>
          {primary.label}
        </Button>
      </div>
      {notice && (
        <Notice status={notice.status} onRemove={() => setNotice(null)}>
          {notice.text}
          {notice.link && (
            <>
              {' '}
              <a href={notice.link}>View {noun}</a>
            </>
          )}
        </Notice>
      )}
      <BlockEditorProvider
        value={blocks}
        onInput={(b: BlockInstance[]) => {
          setBlocks(b);
          setDirty(true);
        }}
        onChange={(b: BlockInstance[]) => {
          setBlocks(b);
          setDirty(true);
        }}
        settings={settings}
      >
        <div className="cms-editor__layout">
          <div className="cms-editor__canvas editor-styles-wrapper">
            <textarea className="cms-editor__title" aria-label="Add title" placeholder="Add title" rows={1} value={post.title} onChange={(e) => change({ title: e.target.value })} />
            <BlockEditorKeyboardShortcuts.Register />
            <BlockTools>
              <WritingFlow>
                <ObserveTyping>
                  <BlockList />
                </ObserveTyping>
              </WritingFlow>
            </BlockTools>
          </div>
          <aside className="cms-editor__sidebar" aria-label="Settings">
            <PanelBody title="Status & visibility">
              <SelectControl
                __nextHasNoMarginBottom
                __next40pxDefaultSize
                label="Visibility"
                value={visibility}
                options={[
                  { label: 'Public', value: 'public' },
                  ...(canPublish ? [{ label: 'Private', value: 'private' }] : []),
                  { label: 'Password protected', value: 'password' },
                ]}
                onChange={(v) => change(v === 'private' ? { status: published ? 'private' : post.status, password: '' } : v === 'password' ? { password: post.password || ' ', status: post.status === 'private' ? 'publish' : post.status } : { password: '', status: post.status === 'private' ? 'publish' : post.status })}
              />
              {visibility === 'password' && <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Password" value={post.password.trim()} onChange={(password) => change({ password })} />}
              {visibility === 'private' && !published && <p>Private: published for the site's editors only, when you publish.</p>}
              <p>{post.date ? (scheduled ? `Scheduled for ${post.date.replace('T', ' ')}` : `Published on ${post.date.replace('T', ' ')}`) : 'Publish: immediately'}</p>
            </PanelBody>
            {canPublish && (
              <PanelBody title="Publish date" initialOpen={false}>
                <DateTimePicker currentDate={post.date ?? undefined} onChange={(date: string | null) => change({ date })} is12Hour={false} />
                {post.date && !published && <Button variant="link" onClick={() => change({ date: null })}>Publish immediately</Button>}
              </PanelBody>
            )}
            {type === 'posts' && (
              <PanelBody title="Categories" initialOpen>
                {categories.map((c) => (
                  <CheckboxControl __nextHasNoMarginBottom key={c.id} label={c.name} checked={post.categories.includes(c.id)} onChange={(on) => change({ categories: on ? [...post.categories, c.id] : post.categories.filter((x) => x !== c.id) })} />
                ))}
              </PanelBody>
            )}
            {type === 'posts' && (
              <PanelBody title="Tags">
                <FormTokenField __nextHasNoMarginBottom __next40pxDefaultSize label="Add New Tag" value={tagNames} onChange={(v) => { setTagNames(v.map((t) => (typeof t === 'string' ? t : t.value))); setDirty(true); }} />
              </PanelBody>
            )}
            <PanelBody title="Featured image">
              {featured && <img className="cms-editor__featured" src={featured} alt="Featured image" />}
              {me.capabilities.upload_files && (
                <FormFileUpload
                  __next40pxDefaultSize
                  variant="secondary"
                  accept="image/*"
                  onChange={(e) => {
                    const files = (e.target as HTMLInputElement).files;
                    if (files?.length) mediaUpload({ filesList: files, onFileChange: (m) => change({ featured_media: m[0].id }), onError: (text) => setNotice({ status: 'error', text }) });
                  }}
                >
                  {featured ? 'Replace image' : 'Set featured image'}
                </FormFileUpload>
              )}
              {me.capabilities.upload_files && (
                <MediaLibrary
                  title="Featured image"
                  allowedTypes={['image']}
                  value={post.featured_media}
                  onSelect={(m) => change({ featured_media: (m as EditorAttachment).id })}
                  render={({ open }) => (
                    <Button variant="link" onClick={open}>
                      Choose from the Media Library
                    </Button>
                  )}
                />
              )}
              {featured && <Button variant="link" isDestructive onClick={() => change({ featured_media: 0 })}>Remove featured image</Button>}
            </PanelBody>
            <PanelBody title="Excerpt">
              <TextareaControl __nextHasNoMarginBottom label="Write an excerpt (optional)" value={post.excerpt} onChange={(excerpt) => change({ excerpt })} />
            </PanelBody>
            {revisions.length > 1 && (
              <PanelBody title={`Revisions (${revisions.length})`}>
                <ul className="cms-editor__revisions">
                  {revisions.slice(1).map((r) => (
                    <li key={r.id}>
                      {new Date(`${r.date}Z`).toLocaleString('en-US', { timeZone: 'UTC' })}: {r.title.raw ?? r.title.rendered}{' '}
                      <Button variant="link" onClick={() => restore(r)}>Restore this revision</Button>
                    </li>
                  ))}
                </ul>
              </PanelBody>
            )}
            <PanelBody title="Block">
              <BlockInspector />
            </PanelBody>
          </aside>
        </div>
      </BlockEditorProvider>
      {preview !== null && (
        <Modal title={`Preview: ${post.title || '(no title)'}`} onRequestClose={() => setPreview(null)} size="large">
          <h1>{post.title}</h1>
          <div className="cms-editor__preview" dangerouslySetInnerHTML={{ __html: preview }} />
        </Modal>
      )}
    </div>
  );
}
