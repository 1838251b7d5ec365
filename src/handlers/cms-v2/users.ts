import { authStatus, invalidParam, invalidParams, missingObject, type ParamFailure, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { addRestFields } from '../../core/rest-fields.ts';
import { contentChanged } from '../../core/events.ts';
import type { Store } from '../../store/index.ts';
import type { UserPatch, UserQuery, UserRow, UserSearchColumn } from '../../store/users.ts';
import { sanitizeSlug } from '../../store/transact.ts';
import { sanitizeName as sanitizeTextField } from '../../auth/app-passwords.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { isRole, ROLES } from '../../auth/roles.ts';
import { isValidUsername, LOGIN_MAX, NICENAME_MAX, passwordProblem, sanitizeUserStrict, uniqueNicename } from '../../auth/users.ts';
import { avatarUrls, collection, contextOf, denied, nsUrl, pageOf, pick, restDate, type Context } from '../../core/rest.ts';
import { answerFragments } from '../../core/answer-fragments.ts';
import { kses } from '../../format/kses.ts';
import { authorPermalink } from '../../core/permalinks.ts';

const VIEW_FIELDS = ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta'];
const EDIT_FIELDS = ['id', 'username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'link', 'locale', 'nickname', 'slug', 'roles', 'registered_date', 'capabilities', 'extra_capabilities', 'avatar_urls', 'meta'];
const EMBED_FIELDS = ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls'];
const FIELDS: Record<Context, string[]> = { view: VIEW_FIELDS, edit: EDIT_FIELDS, embed: EMBED_FIELDS };

/** Post types whose published posts make an author public (show_in_rest types). */
const publicTypes = (ctx: Ctx) => ctx.site.types.postTypes.filter((t) => t.viewable && t.slug !== 'attachment').map((t) => t.slug);

/** The user meta key of the block editor's persisted preferences (registered meta, JSON-encoded). */
const PREFERENCES = 'persisted_preferences';

/**
 * The stored preferences: an object, or `[]` (the meta's default) when none are stored or what is
 * stored is not a JSON object (an import from WordPress may hold PHP's serialization).
 */
function storedPreferences(raw: string | undefined): unknown {
  try {
    const value: unknown = JSON.parse(raw || '[]');
    return value && typeof value === 'object' ? value : [];
  } catch {
    return [];
  }
}

async function prepareUser(ctx: Ctx, user: UserRow, context: Context): Promise<Record<string, unknown>> {
  const meta = async (key: string) => (await ctx.store.users.meta.get(user.id, key)) ?? '';
  const edit = context === 'edit';
  // WP_User::$allcaps: what the role stores; the meta capabilities mapped onto it are not listed
  const caps = Object.fromEntries([...ctx.site.roles.storedCapabilitiesOf(user.role)].map((c) => [c, true]));
  const data: Record<string, unknown> = {
    id: user.id,
    username: user.login,
    name: user.display_name,
    first_name: edit ? await meta('first_name') : '',
    last_name: edit ? await meta('last_name') : '',
    email: user.email,
    url: user.url,
    description: await meta('description'),
    link: authorPermalink(ctx.site, user),
    locale: edit ? (await meta('locale')) || 'en_US' : '',
    nickname: edit ? (await meta('nickname')) || user.login : '',
    slug: user.nicename,
    // an account whose role was taken away has none (roles: [])
    roles: user.role ? [user.role] : [],
    registered_date: `${restDate(user.registered)}+00:00`,
    capabilities: user.role ? { ...caps, [user.role]: true } : {},
    extra_capabilities: user.role ? { [user.role]: true } : {},
    avatar_urls: avatarUrls(user.email, ctx.site.home),
    // persisted_preferences is registered for the edit context only; other contexts show no meta
    meta: edit ? { persisted_preferences: storedPreferences(await meta(PREFERENCES)) } : [],
  };
  const out = pick(data, FIELDS[context]);
  await addRestFields(ctx, { kind: 'user', user }, out);
  out._links = { self: [{ href: nsUrl(ctx, `users/${user.id}`) }], collection: [{ href: nsUrl(ctx, 'users') }] };
  return out;
}

/** What get_items lets callers without list_users search: never email or website. */
const PUBLIC_SEARCH_COLUMNS: readonly UserSearchColumn[] = ['id', 'login', 'nicename', 'display_name'];

const ORDERBY: Record<string, UserQuery['orderby']> = {
  id: 'id', include: 'include', name: 'name', registered_date: 'registered', slug: 'slug', include_slugs: 'slug', email: 'email', url: 'url',
};

const notEmpty = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));

/** get_items_permissions_check: the filters that reveal accounts need list_users; `who=authors` someone who writes. */
export function mayListUsers(ctx: Ctx): void {
  const a = ctx.args;
  const canList = ctx.can('list_users');
  if (notEmpty(a.roles) && !canList) throw denied(ctx, 'rest_user_cannot_view', { action: 'filter users by role' });
  if (notEmpty(a.capabilities) && !canList) throw denied(ctx, 'rest_user_cannot_view', { action: 'filter users by capability' });
  if (a.context === 'edit' && !canList) throw denied(ctx, 'rest_forbidden_context', { action: 'list users' });
  if ((a.orderby === 'email' || a.orderby === 'registered_date') && !canList) throw denied(ctx, 'rest_forbidden_orderby');
  // the edit_posts capability of a post type that supports authors: posts and pages here
  if (a.who === 'authors' && !ctx.can('edit_posts') && !ctx.can('edit_pages')) throw denied(ctx, 'rest_forbidden_who');
}

export async function listUsers(ctx: Ctx<'cms-v2:users.listUsers'>) {
  const a = ctx.args;
  const context = contextOf(ctx);
  const canList = ctx.can('list_users');
  // WordPress shows strangers only people who published something
  let published: string[] | undefined = canList ? undefined : publicTypes(ctx);
  if (a.has_published_posts === true) published = publicTypes(ctx);
  else if (Array.isArray(a.has_published_posts) && a.has_published_posts.length) published = a.has_published_posts as string[];
  const page = pageOf(ctx, ctx.args.offset);
  const list = (v: unknown) => (Array.isArray(v) && v.length ? (v as never[]) : undefined);
  let roles: string[] | undefined = a.who === 'authors' ? ['administrator', 'editor', 'author', 'contributor'] : list(a.roles);
  const caps: string[] | undefined = list(a.capabilities);
  if (caps) {
    // capability__in: accounts hold their capabilities through their role (a role's own name counts, as in the stored caps)
    const holding = ROLES.filter((r) => caps.some((c) => c === r || ctx.site.roles.capabilitiesOf(r).has(c)));
    roles = roles ? roles.filter((r) => holding.includes(r)) : holding;
    if (!roles.length) return collection(ctx, [], 0, page);
  }
  const { rows, total } = await ctx.store.users.list({
    search: a.search ? `*${a.search}*` : undefined,
    searchColumns: canList ? undefined : PUBLIC_SEARCH_COLUMNS,
    include: list(a.include),
    exclude: list(a.exclude),
    roles,
    slugs: list(a.slug),
    hasPublishedPosts: published,
    orderby: ORDERBY[a.orderby as string] ?? 'name',
    order: a.order === 'desc' ? 'desc' : 'asc',
    offset: page.offset,
    limit: page.perPage,
  });
  const items = ctx.request.head ? [] : await answerFragments(ctx.site).list(ctx, rows, (u) => userFragment(u, context), (u) => prepareUser(ctx, u, context));
  return collection(ctx, items, total, page);
}

/** What names a user's object among an answer's fragments. */
const userFragment = (user: UserRow, context: Context) => `user ${user.id} ${context}`;

/** The controller's get_user: a 404 for an id that names no account (0 for an anonymous caller's `me`). */
async function userOfId(ctx: Ctx, id: number): Promise<UserRow> {
  const user = id > 0 ? await ctx.store.users.get(id) : undefined;
  if (!user) throw ctx.fail('rest_user_invalid_id');
  return user;
}

/** The account `users/me` names: the caller's (update_current_item_permissions_check sets the id to get_current_user_id()). */
const currentId = (ctx: Ctx) => ctx.user?.id ?? 0;

/** get_item_permissions_check: oneself; anyone who published something; everyone for whoever may list users. */
export async function mayGetUser(ctx: Ctx): Promise<void> {
  const user = await userOfId(ctx, Number(ctx.args.id));
  if (ctx.user?.id === user.id) return;
  if (ctx.args.context === 'edit' && !ctx.can('list_users')) throw denied(ctx, 'rest_user_cannot_view', { action: 'list users' });
  // count_user_posts, then edit_user (edit_users for another account) and list_users
  if (ctx.can('edit_users') || ctx.can('list_users')) return;
  const { total } = await ctx.store.users.list({ include: [user.id], hasPublishedPosts: publicTypes(ctx), offset: 0, limit: 1 });
  if (!total) throw denied(ctx, 'rest_user_cannot_view', { action: 'list users' });
}

export async function getUser(ctx: Ctx<'cms-v2:users.getUser'>) {
  const user = await userOfId(ctx, Number(ctx.args.id));
  const context = contextOf(ctx);
  return new RestResponse(await answerFragments(ctx.site).fragment(ctx, userFragment(user, context), () => prepareUser(ctx, user, context)));
}

/**
 * The GET of users/me passes for everyone (`__return_true`): a visitor's 401 is the callback's
 * answer, not a refusal, so the Allow header keeps GET.
 */
export function mayGetCurrentUser(): void {}

export async function getCurrentUser(ctx: Ctx<'cms-v2:users.getCurrentUser'>) {
  if (!ctx.user) throw ctx.fail('rest_not_logged_in');
  const user = await ctx.store.users.get(ctx.user.id);
  if (!user) throw ctx.fail('rest_not_logged_in');
  return prepareUser(ctx, user, contextOf(ctx));
}

// --- writing: WP_REST_Users_Controller::create_item, update_item, delete_item ---


/**
 * The args' sanitize callbacks (check_username, check_user_password), which WordPress runs with
 * validation: their refusals are a rest_invalid_param naming each param.
 */
function checkCredentials(ctx: Ctx): void {
  const failures = new Map<string, ParamFailure>();
  const fail = (param: string, code: string, message: string) => failures.set(param, { code, message, data: { status: 400 } });
  const { username, password } = ctx.args;
  if (typeof username === 'string' && !isValidUsername(username))
    fail('username', 'rest_user_invalid_username', 'This username is invalid because it uses illegal characters. Please enter a valid username.');
  const problem = typeof password === 'string' ? passwordProblem(password) : undefined;
  if (problem) fail('password', 'rest_user_invalid_password', problem);
  if (failures.size) throw invalidParams(failures);
}

/** The one role an account is given from `roles` (accounts hold one role here: the first named), '' for none. */
const roleOf = (roles: string[]) => roles[0] ?? '';

/**
 * check_role_update: every role must exist, and nobody may give themselves a role without
 * edit_users; also, the site's last administrator keeps that role.
 */
async function checkRoleUpdate(ctx: Ctx, store: Store, target: UserRow | undefined, roles: string[]): Promise<void> {
  for (const role of roles) if (!isRole(role)) throw ctx.fail('rest_user_invalid_role', { role });
  const self = target !== undefined && target.id === ctx.user?.id;
  const keepsEditUsers = (role: string) => ctx.site.roles.capabilitiesOf(role).has('edit_users');
  const demotesSelf = self && (!roles.length || !roles.every(keepsEditUsers));
  const demotesLastAdministrator = target !== undefined && roleOf(roles) !== 'administrator' && (await isLastAdministrator(store, target));
  // rest_user_invalid_role's other wording and status: a role the caller may not give
  if (demotesSelf || demotesLastAdministrator) throw new RestError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', authStatus(ctx.user !== null));
}

const isLastAdministrator = async (store: Store, user: UserRow) => user.role === 'administrator' && (await store.users.countWithRole('administrator')) <= 1;

/**
 * wp_insert_user's nicename: the requested slug (sanitize_title, as the arg is sanitised, then
 * sanitize_user), refused past 50 characters; when that leaves nothing, the login's first 50
 * characters made a slug.
 */
function nicenameFor(ctx: Ctx, slug: unknown, login: string): string {
  const wanted = typeof slug === 'string' ? sanitizeUserStrict(sanitizeSlug(slug)) : '';
  if ([...wanted].length > NICENAME_MAX) throw ctx.fail('user_nicename_too_long');
  return sanitizeSlug(wanted) || sanitizeSlug([...login].slice(0, NICENAME_MAX).join(''));
}

/** The user meta a request sets (first and last name, nickname, description, locale, the editor's preferences). */
async function metaOf(ctx: Ctx, login: string): Promise<Record<string, string>> {
  const a = ctx.args;
  const out: Record<string, string> = {};
  for (const key of ['first_name', 'last_name', 'nickname'] as const) if (typeof a[key] === 'string') out[key] = sanitizeTextField(a[key]);
  // an empty nickname is the login, as wp_insert_user makes it
  if (out.nickname === '') out.nickname = login;
  // pre_user_description: kses for people who may not post unfiltered HTML
  if (typeof a.description === 'string') out.description = ctx.can('unfiltered_html') ? a.description.trim() : (await kses(a.description, 'data')).trim();
  if (typeof a.locale === 'string') out.locale = a.locale;
  const prefs = (a.meta as Record<string, unknown> | undefined)?.persisted_preferences;
  if (prefs !== undefined && prefs !== null && typeof prefs === 'object') out[PREFERENCES] = JSON.stringify(prefs);
  return out;
}

async function writeMeta(store: Store, userId: number, meta: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(meta)) await store.users.meta.set(userId, key, value);
}

/** An email another account already has (email_exists, case-insensitive). */
const emailOwner = async (store: Store, email: string) => (await store.users.byEmail(email))?.id;

export async function createUser(ctx: Ctx<'cms-v2:users.createUser'>) {
  checkCredentials(ctx);
  const a = ctx.args;
  const roles = Array.isArray(a.roles) ? (a.roles as string[]) : undefined;
  if (roles?.length) await checkRoleUpdate(ctx, ctx.store, undefined, roles);
  const login = String(a.username).trim();
  if ([...login].length > LOGIN_MAX) throw ctx.fail('user_login_too_long');
  const email = String(a.email).trim();
  const meta = await metaOf(ctx, login);
  // scrypt takes a while: hashed before the transaction, which then holds its locks briefly
  const passwordHash = await hashPassword(String(a.password));
  const id = await ctx.store.transaction(async (store) => {
    // wp_insert_user's refusals carry no status in WordPress (a 500); they are the caller's mistakes, so 400 here
    if (await store.users.byLogin(login)) throw ctx.fail('existing_user_login');
    if (await emailOwner(store, email)) throw ctx.fail('existing_user_email');
    const nicename = await uniqueNicename(store, nicenameFor(ctx, a.slug, login), login);
    const first = meta.first_name ?? '';
    const last = meta.last_name ?? '';
    const name = typeof a.name === 'string' ? sanitizeTextField(a.name) : '';
    const userId = await store.users.insert({
      login,
      email,
      // wp_insert_user's display name: as given, else from the first and last names, else the login
      display_name: name || (first && last ? `${first} ${last}` : first || last || login),
      nicename,
      role: roles ? roleOf(roles) : await defaultRole(store),
      password_hash: passwordHash,
      url: typeof a.url === 'string' ? a.url : '',
    });
    await writeMeta(store, userId, { nickname: login, ...meta });
    return userId;
  });
  const user = (await ctx.store.users.get(id))!;
  return new RestResponse(await prepareUser(ctx, user, 'edit'), 201, { Location: nsUrl(ctx, `users/${id}`) });
}

/** get_option('default_role'): the role new accounts get, subscriber unless the site names another. */
async function defaultRole(store: Store): Promise<string> {
  const role = await store.options.get('default_role');
  return role && isRole(role) ? role : 'subscriber';
}

/** update_item_permissions_check: roles need promote_users (and only that when nothing else changes); the rest edit_user. */
async function checkMayUpdate(ctx: Ctx, id: number): Promise<void> {
  const target = await userOfId(ctx, id);
  const sent = Object.keys(ctx.args).filter((k) => k !== 'id' && ctx.args[k] !== undefined);
  if (ctx.args.roles !== undefined) {
    if (!ctx.can('promote_users')) throw denied(ctx, 'rest_cannot_edit_roles');
    if (sent.length === 1) return;
  }
  // edit_user: one's own account needs no capability, anyone else's edit_users
  if (ctx.user?.id !== target.id && !ctx.can('edit_users')) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this user' });
}

export const mayUpdateUser = (ctx: Ctx) => checkMayUpdate(ctx, Number(ctx.args.id));
export const mayUpdateCurrentUser = (ctx: Ctx) => checkMayUpdate(ctx, currentId(ctx));

async function updateAccount(ctx: Ctx, id: number) {
  checkCredentials(ctx);
  const a = ctx.args;
  const passwordHash = typeof a.password === 'string' ? await hashPassword(a.password) : undefined;
  const user = await ctx.store.transaction(async (store) => {
    const current = await store.users.get(id);
    if (!current) throw ctx.fail('rest_user_invalid_id');
    const meta = await metaOf(ctx, current.login);
    const email = typeof a.email === 'string' ? a.email.trim() : undefined;
    if (email) {
      const owner = await emailOwner(store, email);
      if (owner !== undefined && owner !== current.id) throw ctx.fail('rest_user_invalid_email');
    }
    if (typeof a.username === 'string' && a.username !== '' && a.username !== current.login)
      throw ctx.fail('rest_user_invalid_argument');
    const patch: UserPatch = {};
    if (typeof a.slug === 'string') {
      const slug = sanitizeSlug(a.slug);
      if (slug && slug !== current.nicename && (await store.users.bySlug(slug))) throw ctx.fail('rest_user_invalid_slug');
      patch.nicename = await uniqueNicename(store, nicenameFor(ctx, slug, current.login), current.login);
    }
    const roles = Array.isArray(a.roles) ? (a.roles as string[]) : undefined;
    if (roles) {
      await checkRoleUpdate(ctx, store, current, roles);
      patch.role = roleOf(roles);
    }
    if (email !== undefined) patch.email = email;
    // an empty display name is the login, as wp_insert_user makes it
    if (typeof a.name === 'string') patch.display_name = sanitizeTextField(a.name) || current.login;
    if (typeof a.url === 'string') patch.url = a.url;
    // a new password ends the account's sessions (they are bound to the hash); application passwords stay, as in WordPress
    if (passwordHash !== undefined) patch.password_hash = passwordHash;
    await store.users.update(current.id, patch);
    await writeMeta(store, current.id, meta);
    return (await store.users.get(current.id))!;
  });
  return prepareUser(ctx, user, 'edit');
}

export const updateUser = (ctx: Ctx<'cms-v2:users.updateUser'>) => updateAccount(ctx, Number(ctx.args.id));

export const updateCurrentUser = (ctx: Ctx<'cms-v2:users.updateCurrentUser'>) => updateAccount(ctx, currentId(ctx));

/** delete_item_permissions_check: delete_user, which is delete_users on a single site. */
async function checkMayDelete(ctx: Ctx, id: number): Promise<void> {
  await userOfId(ctx, id);
  if (!ctx.can('delete_users')) throw denied(ctx, 'rest_user_cannot_delete');
}

export const mayDeleteUser = (ctx: Ctx) => checkMayDelete(ctx, Number(ctx.args.id));
export const mayDeleteCurrentUser = (ctx: Ctx) => checkMayDelete(ctx, currentId(ctx));

/**
 * check_reassign, the arg's sanitize callback (so the integer type is not checked): a number, or
 * false for an empty value, `false` or 'false' (the posts are deleted with their author).
 */
function reassignOf(value: unknown): number {
  if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))) return Math.abs(Math.trunc(Number(value)));
  if (!value || value === 'false') return 0;
  throw invalidParam('reassign', 'Invalid user parameter(s).');
}

async function deleteAccount(ctx: Ctx, id: number) {
  const reassign = reassignOf(ctx.args.reassign);
  const user = await userOfId(ctx, id);
  if (ctx.args.force !== true) throw new RestError('rest_trash_not_supported', "Users do not support trashing. Set 'force=true' to delete.", 501);
  if (reassign && (reassign === id || !(await ctx.store.users.get(reassign)))) throw ctx.fail('rest_user_invalid_reassign');
  if (await isLastAdministrator(ctx.store, user)) throw denied(ctx, 'rest_user_cannot_delete');
  const previous = await prepareUser(ctx, user, 'edit');
  const posts = await ctx.store.users.delete(id, reassign || undefined);
  for (const post of posts) await contentChanged(ctx, { type: reassign ? 'postSaved' : 'postDeleted', postId: post.id, postType: post.type });
  return { deleted: true, previous };
}

export const deleteUser = (ctx: Ctx<'cms-v2:users.deleteUser'>) => deleteAccount(ctx, Number(ctx.args.id));

export const deleteCurrentUser = (ctx: Ctx<'cms-v2:users.deleteCurrentUser'>) => deleteAccount(ctx, currentId(ctx));
