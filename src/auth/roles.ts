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

const NONE: ReadonlySet<string> = new Set();

/** Capabilities granted to roles beyond WordPress's defaults, as plugins add them (role → capabilities). */
export type Grants = Readonly<Record<string, readonly string[]>>;

/**
 * Each role's full capability set: WordPress's default roles (roles.json), plus what the active
 * plugins grant. Resolved once per change of the grants, never per request.
 */
export class Roles {
  private readonly caps: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(grants: readonly Grants[] = []) {
    const caps = new Map(Object.keys(data.roles).map((role) => [role, resolve(role)]));
    for (const g of grants) for (const [role, added] of Object.entries(g)) for (const c of added) caps.get(role)?.add(c);
    this.caps = caps;
  }

  /** The capabilities of a role; an unknown role (a removed one) has none, as in WordPress. */
  capabilitiesOf(role: string): ReadonlySet<string> {
    return this.caps.get(role) ?? NONE;
  }
}

export const ROLES: readonly string[] = Object.keys(data.roles);

export const isRole = (role: string): boolean => role in data.roles;

/** The display name of a role ("Administrator"). */
export const roleName = (role: string): string => data.roles[role]?.name ?? role;
