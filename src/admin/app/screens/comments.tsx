import { useEffect, useState } from '@wordpress/element';
import { Button, Notice, SelectControl, Spinner } from '@wordpress/components';
import { api, fetchList, messageOf } from '../api.ts';
import { act, plain, useNotice } from './shared.tsx';

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
