import { RestError } from '../../engine/errors.ts';
import type { Ctx } from '../../core/context.ts';
import type { UserQuery, UserRow, UserSearchColumn } from '../../store/users.ts';
import { avatarUrls, collection, contextOf, denied, nsUrl, pageOf, pick, restDate, type Context } from '../../core/rest.ts';
import { authorPermalink } from '../../site/permalinks.ts';

const VIEW_FIELDS = ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta'];
const EDIT_FIELDS = ['id', 'username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'link', 'locale', 'nickname', 'slug', 'roles', 'registered_date', 'capabilities', 'extra_capabilities', 'avatar_urls', 'meta'];
const EMBED_FIELDS = ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls'];
const FIELDS: Record<Context, string[]> = { view: VIEW_FIELDS, edit: EDIT_FIELDS, embed: EMBED_FIELDS };

/** Post types whose published posts make an author public (show_in_rest types). */
const publicTypes = (ctx: Ctx) => ctx.site.types.postTypes.filter((t) => t.viewable && t.slug !== 'attachment').map((t) => t.slug);

async function prepareUser(ctx: Ctx, user: UserRow, context: Context): Promise<Record<string, unknown>> {
  const meta = async (key: string) => (await ctx.store.users.meta.get(user.id, key)) ?? '';
  const edit = context === 'edit';
  const caps = Object.fromEntries([...ctx.site.roles.capabilitiesOf(user.role)].map((c) => [c, true]));
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
    roles: [user.role],
    registered_date: `${restDate(user.registered)}+00:00`,
    capabilities: { ...caps, [user.role]: true },
    extra_capabilities: { [user.role]: true },
    avatar_urls: avatarUrls(user.email),
    meta: [],
  };
  const out = pick(data, FIELDS[context]);
  out._links = { self: [{ href: nsUrl(ctx, `users/${user.id}`) }], collection: [{ href: nsUrl(ctx, 'users') }] };
  return out;
}

/** What get_items lets callers without list_users search: never email or website. */
const PUBLIC_SEARCH_COLUMNS: readonly UserSearchColumn[] = ['id', 'login', 'nicename', 'display_name'];

const ORDERBY: Record<string, UserQuery['orderby']> = {
  id: 'id', include: 'include', name: 'name', registered_date: 'registered', slug: 'slug', include_slugs: 'slug', email: 'email', url: 'url',
};

export async function listUsers(ctx: Ctx) {
  const a = ctx.args;
  const context = contextOf(ctx);
  const canList = ctx.can('list_users');
  if (!canList) {
    if (context === 'edit') throw denied(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
    if (a.orderby === 'email' || a.orderby === 'registered_date') throw denied(ctx, 'rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.');
    if (Array.isArray(a.roles) && a.roles.length) throw denied(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
    if (a.who === 'authors') throw denied(ctx, 'rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
  }
  // WordPress shows strangers only people who published something
  let published: string[] | undefined = canList ? undefined : publicTypes(ctx);
  if (a.has_published_posts === true) published = publicTypes(ctx);
  else if (Array.isArray(a.has_published_posts) && a.has_published_posts.length) published = a.has_published_posts as string[];
  const page = pageOf(ctx);
  const list = (v: unknown) => (Array.isArray(v) && v.length ? (v as never[]) : undefined);
  const { rows, total } = await ctx.store.users.list({
    search: a.search ? `*${a.search}*` : undefined,
    searchColumns: canList ? undefined : PUBLIC_SEARCH_COLUMNS,
    include: list(a.include),
    exclude: list(a.exclude),
    roles: a.who === 'authors' ? ['administrator', 'editor', 'author', 'contributor'] : list(a.roles),
    slugs: list(a.slug),
    hasPublishedPosts: published,
    orderby: ORDERBY[a.orderby as string] ?? 'name',
    order: a.order === 'desc' ? 'desc' : 'asc',
    offset: page.offset,
    limit: page.perPage,
  });
  const items = ctx.request.head ? [] : await Promise.all(rows.map((u) => prepareUser(ctx, u, context)));
  return collection(ctx, items, total, page);
}

export async function getUser(ctx: Ctx) {
  const user = await ctx.store.users.get(Number(ctx.args.id));
  if (!user) throw new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
  const context = contextOf(ctx);
  const self = ctx.user?.id === user.id;
  if (!self && !ctx.can('list_users')) {
    if (context === 'edit') throw denied(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
    const { total } = await ctx.store.users.list({ include: [user.id], hasPublishedPosts: publicTypes(ctx), offset: 0, limit: 1 });
    if (!total) throw denied(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
  }
  return prepareUser(ctx, user, context);
}

export async function getCurrentUser(ctx: Ctx) {
  if (!ctx.user) throw new RestError('rest_not_logged_in', 'You are not currently logged in.', 401);
  const user = await ctx.store.users.get(ctx.user.id);
  if (!user) throw new RestError('rest_not_logged_in', 'You are not currently logged in.', 401);
  return prepareUser(ctx, user, contextOf(ctx));
}
