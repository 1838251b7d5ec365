import { useEffect, useState } from '@wordpress/element';
import { Button, CheckboxControl, FormFileUpload, SelectControl, Spinner, TextControl } from '@wordpress/components';
import { api, messageOf, screenUrl } from '../api.ts';
import { useNotice } from './shared.tsx';

interface ImportAuthor {
  login: string;
  display_name: string;
}

/** An import as `cms-import/v1/imports/{id}` answers it (src/import/import-runs.ts). */
interface ImportState {
  id: string;
  status: 'uploaded' | 'running' | 'interrupted' | 'done' | 'failed';
  file: { name: string; size: number };
  wxr: { authors: ImportAuthor[]; total: number };
  progress: { done: number; total: number; rate: number };
  report: { users: number; terms: number; posts: Record<string, number>; menu_items: number; attachments: number; comments: number; existing: number; failed: number; notices: { kind: string; message: string }[] } | null;
  error: string | null;
}

/** One author's line of the form: an existing user's id, or a login to create (WordPress's user_map and user_new). */
interface AuthorLine {
  user_id: string;
  new_login: string;
}

/** "1 user", "2 users". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** How often the progress is asked for while the import runs. */
const POLL_MS = 500;

/**
 * Tools → Import, WordPress's importer (wordpress-importer) in its steps: upload the WXR file,
 * assign its authors (to an existing user, a new login, or as the file has them) and choose
 * whether to download the attachments, then a progress bar while it runs and the report.
 */
export function ImportScreen() {
  const [notice, say] = useNotice();
  const [uploading, setUploading] = useState(false);
  const [state, setState] = useState<ImportState | null>(null);

  const upload = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const body = new FormData();
    body.append('file', file, file.name);
    setUploading(true);
    try {
      setState(await api<ImportState>({ path: '/cms-import/v1/imports', method: 'POST', body }));
    } catch (e) {
      say('error', `Sorry, there has been an error. ${messageOf(e)}`);
    }
    setUploading(false);
  };

  if (!state)
    return (
      <div className="cms-admin__form">
        {notice}
        <h2>Import WordPress</h2>
        <p>Howdy! Upload your WordPress eXtended RSS (WXR) file and we’ll import the posts, pages, comments, custom fields, categories, and tags into this site.</p>
        <p>Choose a WXR (.xml) file to upload, then click Upload file and import.</p>
        <p>
          <FormFileUpload __next40pxDefaultSize variant="primary" accept=".xml,text/xml,application/xml" onChange={(e) => void upload((e.target as HTMLInputElement).files)} disabled={uploading}>
            Upload file and import
          </FormFileUpload>
        </p>
        {uploading && <Spinner />}
      </div>
    );
  return (
    <>
      {notice}
      {state.status === 'uploaded' || state.status === 'interrupted' || state.status === 'failed' ? <AuthorsForm state={state} onStarted={setState} say={say} /> : <ImportRun state={state} onChange={setState} say={say} />}
    </>
  );
}

/** Step 2 of WordPress's importer: Assign Authors and Import Attachments. */
function AuthorsForm({ state, onStarted, say }: { state: ImportState; onStarted: (s: ImportState) => void; say: (s: 'success' | 'error', t: string) => void }) {
  const [users, setUsers] = useState<{ id: number; name: string }[]>([]);
  const [lines, setLines] = useState<AuthorLine[]>(() => state.wxr.authors.map(() => ({ user_id: '', new_login: '' })));
  const [attachments, setAttachments] = useState(false);
  useEffect(() => {
    api<{ id: number; name: string }[]>({ path: '/wp/v2/users?per_page=100&context=edit&_fields=id,name' }).then(setUsers, (e) => say('error', messageOf(e)));
  }, []);
  const change = (i: number, patch: Partial<AuthorLine>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const submit = async (e: { preventDefault(): void }) => {
    e.preventDefault();
    const authors = state.wxr.authors.map((a, i) => ({ login: a.login, ...(lines[i].user_id ? { user_id: Number(lines[i].user_id) } : {}), ...(lines[i].new_login.trim() ? { new_login: lines[i].new_login.trim() } : {}) }));
    try {
      onStarted(await api<ImportState>({ path: `/cms-import/v1/imports/${state.id}/run`, method: 'POST', data: { authors, fetch_attachments: attachments } }));
    } catch (err) {
      say('error', messageOf(err));
    }
  };
  const userOptions = [{ label: '- Select -', value: '' }, ...users.map((u) => ({ label: u.name, value: String(u.id) }))];
  return (
    <form onSubmit={submit} className="cms-admin__form">
      {state.status === 'interrupted' && <p>This import was interrupted. Run it again to import what is missing; nothing is imported twice.</p>}
      {state.status === 'failed' && <p>The import stopped: {state.error}</p>}
      <h2>Assign Authors</h2>
      <p>To make it simpler for you to edit and save the imported content, you may want to reassign the author of the imported item to an existing user of this site, such as your primary administrator account.</p>
      <p>If a new user is created by WordPress, a new password will be randomly generated and the new user’s role will be set as subscriber. Manually changing the new user’s details will be necessary.</p>
      <ol className="cms-admin__authors">
        {state.wxr.authors.map((a, i) => (
          <li key={a.login}>
            <p>
              Import author: <strong>{a.display_name ? `${a.display_name} (${a.login})` : a.login}</strong>
            </p>
            <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="or create new user with login name:" value={lines[i].new_login} onChange={(new_login) => change(i, { new_login })} />
            <SelectControl __nextHasNoMarginBottom __next40pxDefaultSize label="or assign posts to an existing user:" value={lines[i].user_id} options={userOptions} onChange={(user_id) => change(i, { user_id })} />
          </li>
        ))}
      </ol>
      <h2>Import Attachments</h2>
      <CheckboxControl __nextHasNoMarginBottom label="Download and import file attachments" checked={attachments} onChange={setAttachments} />
      <p>
        <Button variant="primary" type="submit">
          Submit
        </Button>
      </p>
    </form>
  );
}

/** The run: a progress bar asked for until the import is done, then the report (WordPress's "All done. Have fun!"). */
function ImportRun({ state, onChange, say }: { state: ImportState; onChange: (s: ImportState) => void; say: (s: 'success' | 'error', t: string) => void }) {
  useEffect(() => {
    if (state.status !== 'running') return;
    const timer = setTimeout(() => {
      api<ImportState>({ path: `/cms-import/v1/imports/${state.id}` }).then(onChange, (e) => say('error', messageOf(e)));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const { done, total, rate } = state.progress;
  const r = state.report;
  return (
    <div className="cms-admin__form">
      <h2>Importing {state.file.name}</h2>
      <label htmlFor="cms-import-progress">
        {done} of {total} items{rate ? `, ${rate} a second` : ''}
      </label>
      <progress id="cms-import-progress" className="cms-admin__progress" max={total || 1} value={done} />
      {r && (
        <>
          <p>
            All done. <a href={screenUrl('posts')}>Have fun!</a>
          </p>
          <p>Remember to update the passwords and roles of imported users.</p>
          <p className="cms-admin__import-report">
            Imported {count(r.users, 'user')}, {count(r.terms, 'term')}, {Object.entries(r.posts).map(([type, n]) => `${n} ${type}`).join(', ') || 'no posts'}, {count(r.menu_items, 'menu item')}, {count(r.attachments, 'attachment')}, {count(r.comments, 'comment')}; {r.existing} already there, {r.failed} failed.
          </p>
          {r.notices.length > 0 && (
            <ul className="cms-admin__import-notices">
              {r.notices.map((n, i) => (
                <li key={i}>{n.message}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
