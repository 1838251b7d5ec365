import { useEffect, useState } from '@wordpress/element';
import { Button, Spinner, TextControl } from '@wordpress/components';
import { api, messageOf, settings, type Me } from '../api.ts';
import { act, useNotice } from './shared.tsx';

/** Profile (profile.php): every user's own name and email; the only screen a subscriber has. */
export function ProfileScreen({ me }: { me: Me }) {
  const [user, setUser] = useState<{ name: string; email: string } | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    api<{ name: string; email: string }>({ path: '/wp/v2/users/me?context=edit&_fields=name,email' }).then(setUser, (e) => say('error', messageOf(e)));
  }, [me.id]);
  if (!user) return <>{notice}<Spinner /></>;
  return (
    <form
      className="cms-admin__form"
      onSubmit={(e) => {
        e.preventDefault();
        void act(say, () => {}, 'Profile updated.', () => api({ path: '/wp/v2/users/me', method: 'POST', data: user }));
      }}
    >
      {notice}
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Display name" value={user.name} onChange={(name) => setUser({ ...user, name })} />
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Email" type="email" value={user.email} onChange={(email) => setUser({ ...user, email })} />
      <p>
        <Button variant="primary" type="submit">Update Profile</Button>
      </p>
      <p>
        <a href={settings.siteUrl}>Visit Site</a>
      </p>
    </form>
  );
}
