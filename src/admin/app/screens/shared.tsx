import { useState } from '@wordpress/element';
import { Notice } from '@wordpress/components';
import { messageOf } from '../api.ts';

/** One notice at the top of a screen: what the last action did, or why it failed. */
export function useNotice(): [JSX.Element | null, (status: 'success' | 'error', text: string) => void] {
  const [notice, setNotice] = useState<{ status: 'success' | 'error'; text: string } | null>(null);
  const el = notice ? (
    <Notice status={notice.status} onRemove={() => setNotice(null)}>
      {notice.text}
    </Notice>
  ) : null;
  return [el, (status, text) => setNotice({ status, text })];
}

/** Runs an action, then says how it went and reloads what the screen shows. */
export async function act(say: (s: 'success' | 'error', t: string) => void, reload: () => void, done: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    say('success', done);
  } catch (e) {
    say('error', messageOf(e));
  }
  reload();
}

export const plain = (html: string) => {
  const d = document.createElement('div');
  d.innerHTML = html;
  return d.textContent ?? '';
};
