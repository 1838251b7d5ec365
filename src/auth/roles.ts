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

/** Meta capabilities as map_meta_cap maps them: each to the primitive capability it requires. */
export type MetaCapabilities = Readonly<Record<string, string>>;

/**
 * Each role's capabilities: the primitive ones it stores (WordPress's default roles in roles.json,
 * plus what the active plugins grant), and the meta capabilities the active plugins map onto those
 * (map_meta_cap), which a role holds but never stores. Resolved once per change of the plugins,
 * never per request.
 */
export class Roles {
  private readonly stored: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly caps: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(grants: readonly Grants[] = [], mapped: readonly MetaCapabilities[] = []) {
    const stored = new Map(Object.keys(data.roles).map((role) => [role, resolve(role)]));
    for (const g of grants) for (const [role, added] of Object.entries(g)) for (const c of added) stored.get(role)?.add(c);
    this.stored = stored;
    this.caps = new Map(
      [...stored].map(([role, own]) => [role, new Set([...own, ...mapped.flatMap((m) => Object.entries(m).filter(([, primitive]) => own.has(primitive)).map(([meta]) => meta))])]),
    );
  }

  /** What a role may do (stored and mapped); an unknown role (a removed one) has none, as in WordPress. */
  capabilitiesOf(role: string): ReadonlySet<string> {
    return this.caps.get(role) ?? NONE;
  }

  /** The primitive capabilities a role stores (WP_Role::$capabilities), without the mapped ones. */
  storedCapabilitiesOf(role: string): ReadonlySet<string> {
    return this.stored.get(role) ?? NONE;
  }
}

export const ROLES: readonly string[] = Object.keys(data.roles);

export const isRole = (role: string): boolean => role in data.roles;

/** The display name of a role ("Administrator"). */
export const roleName = (role: string): string => data.roles[role]?.name ?? role;
