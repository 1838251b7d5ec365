import { useEffect, useState } from '@wordpress/element';
import { Spinner } from '@wordpress/components';
import { fetchList, messageOf } from '../api.ts';
import { useNotice } from './shared.tsx';

interface UserItem {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
}

/** Users (users.php): who has an account and their role. */
export function UsersScreen() {
  const [items, setItems] = useState<UserItem[] | null>(null);
  const [notice, say] = useNotice();
  useEffect(() => {
    fetchList<UserItem>('/wp/v2/users?context=edit&per_page=50').then((r) => setItems(r.items), (e) => say('error', messageOf(e)));
  }, []);
  return (
    <>
      {notice}
      {!items ? (
        <Spinner />
      ) : (
        <table className="cms-admin__table">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
            </tr>
          </thead>
          <tbody>
            {items.map((u) => (
              <tr key={u.id}>
                <td>{u.username}</td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>{u.roles.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
