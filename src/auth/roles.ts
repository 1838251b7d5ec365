import { readFileSync } from 'node:fs';

interface RoleData {
  name: string;
  extends?: string;
  capabilities: string[];
}

const data = JSON.parse(readFileSync(new URL('./roles.json', import.meta.url), 'utf8')) as { roles: Record<string, RoleData> };

function resolve(role: string, seen: string[] = []): Set<string> {
  const r = data.roles[role];
  if (!r) throw new Error(`roles.json: unknown role "${role}"`);
  if (seen.includes(role)) throw new Error(`roles.json: "${role}" extends itself`);
  const caps = r.extends ? resolve(r.extends, [...seen, role]) : new Set<string>();
  for (const c of r.capabilities) caps.add(c);
  return caps;
}

/** Each role's full capability set, resolved once at load. */
const CAPS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.keys(data.roles).map((role) => [role, resolve(role)]));
const NONE: ReadonlySet<string> = new Set();

export const ROLES: readonly string[] = Object.keys(data.roles);

export const isRole = (role: string): boolean => CAPS.has(role);

/** The capabilities of a role; an unknown role (a removed one) has none, as in WordPress. */
export const capabilitiesOf = (role: string): ReadonlySet<string> => CAPS.get(role) ?? NONE;

/** The display name of a role ("Administrator"). */
export const roleName = (role: string): string => data.roles[role]?.name ?? role;
