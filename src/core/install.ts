import { isIP } from 'node:net';
import type { Site } from './site.ts';
import type { Store } from '../store/index.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';

/** What a new install creates that its owner must be told once. */
export interface InstallResult {
  adminLogin: string;
  /** The generated account password of the admin user, shown once. */
  adminPassword: string;
}

// wp_install_defaults (wp-admin/includes/upgrade.php), texts as WordPress 6.1 writes them
const HELLO_WORLD_CONTENT = `<!-- wp:paragraph -->
<p>Welcome to WordPress. This is your first post. Edit or delete it, then start writing!</p>
<!-- /wp:paragraph -->`;

const sampleContent = (dashboardUrl: string) => `<!-- wp:paragraph -->
<p>This is an example page. It's different from a blog post because it will stay in one place and will show up in your site navigation (in most themes). Most people start with an About page that introduces them to potential site visitors. It might say something like this:</p>
<!-- /wp:paragraph -->

<!-- wp:quote -->
<blockquote class="wp-block-quote"><p>Hi there! I'm a bike messenger by day, aspiring actor by night, and this is my website. I live in Los Angeles, have a great dog named Jack, and I like pi&#241;a coladas. (And gettin' caught in the rain.)</p></blockquote>
<!-- /wp:quote -->

<!-- wp:paragraph -->
<p>...or something like this:</p>
<!-- /wp:paragraph -->

<!-- wp:quote -->
<blockquote class="wp-block-quote"><p>The XYZ Doohickey Company was founded in 1971, and has been providing quality doohickeys to the public ever since. Located in Gotham City, XYZ employs over 2,000 people and does all kinds of awesome things for the Gotham community.</p></blockquote>
<!-- /wp:quote -->

<!-- wp:paragraph -->
<p>As a new WordPress user, you should go to <a href="${dashboardUrl}">your dashboard</a> to delete this page and create new pages for your content. Have fun!</p>
<!-- /wp:paragraph -->`;

/** Options a new WordPress site has besides those of the index (which Site.install writes). */
const DEFAULT_OPTIONS: Record<string, string> = {
  permalink_structure: '/%year%/%monthnum%/%day%/%postname%/',
  // populate_options stores no icon as 0 (the settings answer 0, where an unstored site_logo is null)
  site_icon: '0',
  date_format: 'F j, Y',
  time_format: 'g:i a',
  posts_per_page: '10',
  blog_charset: 'UTF-8',
  default_category: '1',
};

/** `admin@{host}` when the site has a real domain name, else (or with no address yet) WordPress's placeholder domain. */
function adminEmail(home: string): string {
  const host = URL.canParse(home) ? new URL(home).hostname : '';
  return host.includes('.') && !isIP(host) ? `admin@${host}` : 'admin@example.com';
}

/**
 * What wp_install does after the options: the `admin` administrator with a generated password
 * (its website the site's address, as wp_install gives the user it creates wp_guess_url()),
 * the Uncategorized category (id 1), the "Hello world!" post in it and the "Sample Page" page,
 * all in one transaction.
 */
export async function installContent(store: Store, site: Site): Promise<InstallResult> {
  const adminPassword = generatePassword(24);
  const passwordHash = await hashPassword(adminPassword);
  const email = adminEmail(site.home);
  await store.transaction(async (s) => {
    const admin = await s.users.insert({ login: 'admin', email, display_name: 'admin', role: 'administrator', password_hash: passwordHash, url: site.home });
    await s.users.meta.set(admin, 'nickname', 'admin');
    const uncategorized = await s.terms.insert({ taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized' });
    const hello = await s.posts.insert({
      author: admin,
      title: 'Hello world!',
      content: HELLO_WORLD_CONTENT,
      excerpt: '',
      status: 'publish',
      type: 'post',
      slug: 'hello-world',
    });
    await s.terms.setPostTerms(hello, 'category', [uncategorized]);
    await s.posts.insert({
      author: admin,
      title: 'Sample Page',
      // "your dashboard" is the admin, as WordPress's admin_url() would give it
      content: sampleContent(site.url(site.adminPath)),
      excerpt: '',
      status: 'publish',
      type: 'page',
      slug: 'sample-page',
      comment_status: 'closed',
      ping_status: 'open',
    });
    await s.options.addMissing({ ...DEFAULT_OPTIONS, default_category: String(uncategorized), admin_email: email });
  });
  await site.refresh();
  return { adminLogin: 'admin', adminPassword };
}
