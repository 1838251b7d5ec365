<?php
// Makes a reference WordPress hold what `cms-spec import` makes of the same WXR files, for
// scripts/render-parity.ts to compare renderings post by post. Run inside that WordPress (it is
// not the wordpress-importer plugin, which the reference WordPress has not, and it empties the
// site first, so give it a site of its own: `scripts/wordpress-reference.sh 8062`):
//   php scripts/wp-eval.php 8062 '$files = ["test/fixtures/wxr/themeunittestdata.wordpress.xml", "test/fixtures/wxr/64-block-test-data.xml"]; require "scripts/render-parity/wp-import.php";'
//
// What it does, in order:
// - the site made fresh as this project's is: only "Hello world!" (1) and "Sample Page" (2), no
//   comment, no other post, term or user, the tables' next ids where a fresh site has them;
// - this project's theme (src/site/theme, a block theme) linked in as `default` and activated, so
//   both sides render with the same theme.json and templates;
// - each file imported with WP_Import's rules (wordpress-importer's class-wp-import.php:
//   process_categories, process_tags, process_terms, process_posts, process_menu_item,
//   backfill_parents, remap_featured_images), as a logged-in administrator (unfiltered_html: no
//   kses; the save-time filters, such as wp_targeted_link_rel, run as they run in the importer),
//   attachments skipped as when fetching them is off (`cms-spec import --no-attachments`), with
//   what `cms-spec import` does beyond WordPress 6.1's importer done the same way
//   (src/import/references.ts, src/import/wxr-import.ts): the old site's address in posts' text
//   made this site's, as the importer does from WordPress 6.7 (rewrite_urls), ids of moved posts
//   remapped in the text, an author whose login or address exists mapped to that account.

if (!isset($files)) {
  fwrite(STDERR, "set \$files to the WXR files to import before requiring wp-import.php\n");
  exit(1);
}
global $wpdb;
// wp_insert_category, category_exists, post_exists: the admin's, as the importer runs there
require_once ABSPATH . 'wp-admin/includes/taxonomy.php';
require_once ABSPATH . 'wp-admin/includes/post.php';
wp_set_current_user(1);

// ---- a fresh site, as a fresh cms-spec's
$wpdb->query("DELETE FROM {$wpdb->posts} WHERE ID > 2");
$wpdb->query("DELETE FROM {$wpdb->postmeta} WHERE post_id > 2");
$wpdb->query("TRUNCATE {$wpdb->comments}");
$wpdb->query("TRUNCATE {$wpdb->commentmeta}");
$wpdb->query("DELETE FROM {$wpdb->term_relationships} WHERE term_taxonomy_id <> 1");
$wpdb->query("DELETE FROM {$wpdb->terms} WHERE term_id <> 1");
$wpdb->query("DELETE FROM {$wpdb->term_taxonomy} WHERE term_taxonomy_id <> 1");
$wpdb->query("TRUNCATE {$wpdb->termmeta}");
$wpdb->query("DELETE FROM {$wpdb->users} WHERE ID <> 1");
$wpdb->query("DELETE FROM {$wpdb->usermeta} WHERE user_id <> 1");
foreach (['posts' => 3, 'comments' => 1, 'terms' => 2, 'term_taxonomy' => 2, 'users' => 2] as $table => $next) {
  $wpdb->query("ALTER TABLE {$wpdb->$table} AUTO_INCREMENT = $next");
}
$wpdb->update($wpdb->posts, ['comment_count' => 0], ['ID' => 1]);
$wpdb->update($wpdb->term_taxonomy, ['count' => 1], ['term_taxonomy_id' => 1]);
update_option('sticky_posts', []);
delete_option('category_children');
update_option('wp_page_for_privacy_policy', 0);
wp_cache_flush();

// ---- this project's theme
$theme_dir = get_theme_root() . '/default';
if (!is_link($theme_dir)) symlink(realpath('src/site/theme'), $theme_dir);
search_theme_directories(true);
switch_theme('default');

// ---- the files
/** WXR_Parser_SimpleXML::parse */
function render_parity_parse_wxr($file) {
  $xml = simplexml_load_string(file_get_contents($file));
  $ns = $xml->getDocNamespaces();
  $ns += ['wp' => 'http://wordpress.org/export/1.1/', 'excerpt' => 'http://wordpress.org/export/1.1/excerpt/'];
  // the importer's base_url is the file's base_site_url (not its base_blog_url)
  $base = $xml->xpath('/rss/channel/wp:base_site_url');
  $out = ['authors' => [], 'categories' => [], 'tags' => [], 'terms' => [], 'posts' => [], 'base_url' => trim((string) ($base[0] ?? ''))];
  foreach ($xml->xpath('/rss/channel/wp:author') as $a) {
    $a = $a->children($ns['wp']);
    $out['authors'][(string) $a->author_login] = ['id' => (int) $a->author_id, 'login' => (string) $a->author_login, 'email' => (string) $a->author_email,
      'display_name' => (string) $a->author_display_name, 'first_name' => (string) $a->author_first_name, 'last_name' => (string) $a->author_last_name];
  }
  $meta = fn($list) => array_map(fn($m) => ['key' => (string) $m->meta_key, 'value' => (string) $m->meta_value], iterator_to_array($list, false));
  foreach ($xml->xpath('/rss/channel/wp:category') as $t) {
    $t = $t->children($ns['wp']);
    $out['categories'][] = ['term_id' => (int) $t->term_id, 'slug' => (string) $t->category_nicename, 'parent' => (string) $t->category_parent,
      'name' => (string) $t->cat_name, 'description' => (string) $t->category_description, 'meta' => $meta($t->termmeta)];
  }
  foreach ($xml->xpath('/rss/channel/wp:tag') as $t) {
    $t = $t->children($ns['wp']);
    $out['tags'][] = ['term_id' => (int) $t->term_id, 'slug' => (string) $t->tag_slug, 'name' => (string) $t->tag_name,
      'description' => (string) $t->tag_description, 'meta' => $meta($t->termmeta)];
  }
  foreach ($xml->xpath('/rss/channel/wp:term') as $t) {
    $t = $t->children($ns['wp']);
    $out['terms'][] = ['term_id' => (int) $t->term_id, 'taxonomy' => (string) $t->term_taxonomy, 'slug' => (string) $t->term_slug,
      'parent' => (string) $t->term_parent, 'name' => (string) $t->term_name, 'description' => (string) $t->term_description, 'meta' => $meta($t->termmeta)];
  }
  foreach ($xml->channel->item as $item) {
    $wp = $item->children($ns['wp']);
    $post = ['post_title' => (string) $item->title, 'guid' => (string) $item->guid,
      'post_author' => (string) $item->children('http://purl.org/dc/elements/1.1/')->creator,
      'post_content' => (string) $item->children('http://purl.org/rss/1.0/modules/content/')->encoded,
      'post_excerpt' => (string) $item->children($ns['excerpt'])->encoded,
      'post_id' => (int) $wp->post_id, 'post_date' => (string) $wp->post_date, 'post_date_gmt' => (string) $wp->post_date_gmt,
      'comment_status' => (string) $wp->comment_status, 'ping_status' => (string) $wp->ping_status, 'post_name' => (string) $wp->post_name,
      'status' => (string) $wp->status, 'post_parent' => (int) $wp->post_parent, 'menu_order' => (int) $wp->menu_order,
      'post_type' => (string) $wp->post_type, 'post_password' => (string) $wp->post_password, 'is_sticky' => (int) $wp->is_sticky,
      'terms' => [], 'postmeta' => $meta($wp->postmeta), 'comments' => []];
    foreach ($item->category as $c) {
      $att = $c->attributes();
      if (isset($att['nicename'])) $post['terms'][] = ['name' => (string) $c, 'slug' => (string) $att['nicename'], 'domain' => (string) $att['domain']];
    }
    foreach ($wp->comment as $c) {
      $post['comments'][] = ['comment_id' => (int) $c->comment_id, 'comment_author' => (string) $c->comment_author,
        'comment_author_email' => (string) $c->comment_author_email, 'comment_author_IP' => (string) $c->comment_author_IP,
        'comment_author_url' => (string) $c->comment_author_url, 'comment_date' => (string) $c->comment_date,
        'comment_date_gmt' => (string) $c->comment_date_gmt, 'comment_content' => (string) $c->comment_content,
        'comment_approved' => (string) $c->comment_approved, 'comment_type' => (string) $c->comment_type,
        'comment_parent' => (int) $c->comment_parent, 'comment_user_id' => (int) $c->comment_user_id, 'meta' => $meta($c->commentmeta)];
    }
    $out['posts'][] = $post;
  }
  return $out;
}

/** src/import/references.ts rewriteBaseUrl: the old site's address (either scheme) made this site's where a URL starts with it. */
function render_parity_rewrite_base($text, $old) {
  $bare = preg_replace('#^https?://#i', '', rtrim($old, '/'));
  if ($bare === '' || $text === '') return $text;
  return preg_replace('#https?://' . preg_quote($bare, '#') . '(?=[/?\#"\'\s<>)\]]|$)#i', untrailingslashit(home_url()), $text);
}

/** src/import/references.ts remapIds: moved posts' ids in image classes, data-id, [gallery ids] and block attributes. */
function render_parity_remap_ids($text, $map) {
  if (!$map || $text === '') return $text;
  $one = fn($d) => (string) ($map[(int) $d] ?? $d);
  $list = fn($l) => preg_replace_callback('/\d+/', fn($m) => $one($m[0]), $l);
  $text = preg_replace_callback('/\bwp-image-(\d+)\b/', fn($m) => 'wp-image-' . $one($m[1]), $text);
  $text = preg_replace_callback('/\bdata-id="(\d+)"/', fn($m) => 'data-id="' . $one($m[1]) . '"', $text);
  $text = preg_replace_callback('/\[gallery\b[^\]]*\]/', fn($g) => preg_replace_callback('/\bids=(["\'])([\d,\s]*)\1/', fn($m) => "ids={$m[1]}" . $list($m[2]) . $m[1], $g[0], 1), $text);
  return preg_replace_callback('/<!-- wp:[a-z0-9\/-]+ (\{.*?\}) \/?-->/', function ($c) use ($one, $list) {
    $s = preg_replace_callback('/"(id|ref|mediaId|featuredImage)":(\d+)/', fn($m) => "\"{$m[1]}\":" . $one($m[2]), $c[0]);
    return preg_replace_callback('/"ids":\[([\d,\s]*)\]/', fn($m) => '"ids":[' . $list($m[1]) . ']', $s);
  }, $text);
}

function render_parity_term($taxonomy, $slug) {
  $t = term_exists($slug, $taxonomy);
  return is_array($t) ? (int) $t['term_id'] : (int) $t;
}

function render_parity_import($file) {
  global $wpdb;
  $data = render_parity_parse_wxr($file);
  wp_defer_term_counting(true);
  wp_defer_comment_counting(true);

  // authors: created, or the account with the login or the address (as cms-spec import maps them)
  $authors = [];
  $author_ids = [];
  foreach ($data['authors'] as $login => $a) {
    $user = get_user_by('login', $login) ?: ($a['email'] ? get_user_by('email', $a['email']) : false);
    $id = $user ? $user->ID : wp_insert_user(['user_login' => $login, 'user_pass' => wp_generate_password(), 'user_email' => $a['email'],
      'display_name' => $a['display_name'], 'first_name' => $a['first_name'], 'last_name' => $a['last_name']]);
    if (is_wp_error($id)) $id = get_current_user_id();
    $authors[sanitize_user($login, true)] = $id;
    if ($a['id']) $author_ids[$a['id']] = $id;
  }

  $terms = [];
  $term_meta = function ($term, $id) {
    foreach ($term['meta'] as $m) if ($m['key']) add_term_meta($id, wp_slash($m['key']), wp_slash_strings_only(maybe_unserialize($m['value'])));
  };
  foreach ($data['categories'] as $c) {
    $id = render_parity_term('category', $c['slug']);
    if (!$id) {
      $id = wp_insert_category(['category_nicename' => $c['slug'], 'category_parent' => $c['parent'] ? category_exists($c['parent']) : 0,
        'cat_name' => wp_slash($c['name']), 'category_description' => wp_slash($c['description'])], true);
      if (is_wp_error($id)) continue;
      $term_meta($c, $id);
    }
    $terms[$c['term_id']] = (int) $id;
  }
  foreach ($data['tags'] as $t) {
    $id = render_parity_term('post_tag', $t['slug']);
    if (!$id) {
      $made = wp_insert_term(wp_slash($t['name']), 'post_tag', ['slug' => $t['slug'], 'description' => wp_slash($t['description'])]);
      if (is_wp_error($made)) continue;
      $id = (int) $made['term_id'];
      $term_meta($t, $id);
    }
    $terms[$t['term_id']] = $id;
  }
  foreach ($data['terms'] as $t) {
    $id = render_parity_term($t['taxonomy'], $t['slug']);
    if (!$id) {
      $made = wp_insert_term(wp_slash($t['name']), $t['taxonomy'], ['slug' => $t['slug'], 'description' => wp_slash($t['description']),
        'parent' => $t['parent'] ? render_parity_term($t['taxonomy'], $t['parent']) : 0]);
      if (is_wp_error($made)) continue;
      $id = (int) $made['term_id'];
      $term_meta($t, $id);
    }
    $terms[$t['term_id']] = $id;
  }

  $posts = [];
  $orphans = [];
  $featured = [];
  $menu_items = [];
  $missing_menu_items = [];
  $menu_orphans = [];
  $written = [];
  $process_menu_item = function ($item) use (&$terms, &$posts, &$menu_items, &$missing_menu_items, &$menu_orphans) {
    if ($item['status'] === 'draft') return;
    $menu = null;
    foreach ($item['terms'] as $t) if ($t['domain'] === 'nav_menu') { $menu = render_parity_term('nav_menu', $t['slug']); break; }
    if (!$menu) return;
    $m = [];
    foreach ($item['postmeta'] as $pm) $m[$pm['key']] = $pm['value'];
    $object = (int) ($m['_menu_item_object_id'] ?? 0);
    $type = $m['_menu_item_type'] ?? '';
    if ($type === 'taxonomy' && isset($terms[$object])) $object = $terms[$object];
    elseif ($type === 'post_type' && isset($posts[$object])) $object = $posts[$object];
    elseif ($type !== 'custom') { $missing_menu_items[] = $item; return; }
    $parent = (int) ($m['_menu_item_menu_item_parent'] ?? 0);
    if (isset($menu_items[$parent])) $parent = $menu_items[$parent];
    elseif ($parent) { $menu_orphans[$item['post_id']] = $parent; $parent = 0; }
    $classes = maybe_unserialize($m['_menu_item_classes'] ?? '');
    $id = wp_update_nav_menu_item($menu, 0, ['menu-item-object-id' => $object, 'menu-item-object' => $m['_menu_item_object'] ?? '',
      'menu-item-parent-id' => $parent, 'menu-item-position' => $item['menu_order'], 'menu-item-type' => $type, 'menu-item-title' => $item['post_title'],
      'menu-item-url' => render_parity_rewrite_base($m['_menu_item_url'] ?? '', $GLOBALS['render_parity_base']), 'menu-item-description' => $item['post_content'],
      'menu-item-attr-title' => $item['post_excerpt'], 'menu-item-target' => $m['_menu_item_target'] ?? '',
      'menu-item-classes' => is_array($classes) ? implode(' ', $classes) : $classes, 'menu-item-xfn' => $m['_menu_item_xfn'] ?? '', 'menu-item-status' => $item['status']]);
    if ($id && !is_wp_error($id)) $menu_items[$item['post_id']] = (int) $id;
  };
  $GLOBALS['render_parity_base'] = $data['base_url'];

  foreach ($data['posts'] as $post) {
    if (!post_type_exists($post['post_type']) || isset($posts[$post['post_id']]) || $post['status'] === 'auto-draft') continue;
    if ($post['post_type'] === 'nav_menu_item') { $process_menu_item($post); continue; }
    // attachments: fetching them is off
    if ($post['post_type'] === 'attachment') continue;
    $exists = post_exists($post['post_title'], '', $post['post_date'], $post['post_type']);
    if ($exists && get_post_type($exists) === $post['post_type']) {
      $posts[$post['post_id']] = (int) $exists;
      continue;
    }
    $parent = $post['post_parent'];
    if ($parent) {
      if (isset($posts[$parent])) $parent = $posts[$parent];
      else { $orphans[$post['post_id']] = $parent; $parent = 0; }
    }
    $id = wp_insert_post(wp_slash(['import_id' => $post['post_id'], 'post_author' => $authors[sanitize_user($post['post_author'], true)] ?? get_current_user_id(),
      'post_date' => $post['post_date'], 'post_date_gmt' => $post['post_date_gmt'],
      'post_content' => render_parity_rewrite_base($post['post_content'], $data['base_url']),
      'post_excerpt' => render_parity_rewrite_base($post['post_excerpt'], $data['base_url']),
      'post_title' => $post['post_title'], 'post_status' => $post['status'], 'post_name' => $post['post_name'],
      'comment_status' => $post['comment_status'], 'ping_status' => $post['ping_status'], 'guid' => $post['guid'], 'post_parent' => $parent,
      'menu_order' => $post['menu_order'], 'post_type' => $post['post_type'], 'post_password' => $post['post_password']]), true);
    if (is_wp_error($id)) { fwrite(STDERR, "{$post['post_title']}: {$id->get_error_message()}\n"); continue; }
    if ($post['is_sticky'] == 1) stick_post($id);
    $posts[$post['post_id']] = $id;
    $written[] = $id;

    $by_tax = [];
    foreach ($post['terms'] as $t) {
      $tax = $t['domain'] === 'tag' ? 'post_tag' : $t['domain'];
      $tid = render_parity_term($tax, $t['slug']);
      if (!$tid) {
        $made = wp_insert_term($t['name'], $tax, ['slug' => $t['slug']]);
        if (is_wp_error($made)) continue;
        $tid = (int) $made['term_id'];
      }
      $by_tax[$tax][] = $tid;
    }
    foreach ($by_tax as $tax => $ids) wp_set_post_terms($id, $ids, $tax);

    // process_post_comments: in the file's comment id order, parents mapped to those already in
    $comments = $post['comments'];
    usort($comments, fn($a, $b) => $a['comment_id'] <=> $b['comment_id']);
    $inserted = [];
    foreach ($comments as $c) {
      $row = ['comment_post_ID' => $id, 'comment_author' => $c['comment_author'], 'comment_author_email' => $c['comment_author_email'],
        'comment_author_IP' => $c['comment_author_IP'], 'comment_author_url' => $c['comment_author_url'], 'comment_date' => $c['comment_date'],
        'comment_date_gmt' => $c['comment_date_gmt'], 'comment_content' => $c['comment_content'], 'comment_approved' => $c['comment_approved'],
        'comment_type' => $c['comment_type'], 'comment_parent' => $inserted[$c['comment_parent']] ?? $c['comment_parent']];
      if (isset($author_ids[$c['comment_user_id']])) $row['user_id'] = $author_ids[$c['comment_user_id']];
      $cid = wp_insert_comment(wp_filter_comment(wp_slash($row)));
      if (!$cid) continue;
      foreach ($c['meta'] as $m) add_comment_meta($cid, wp_slash($m['key']), wp_slash_strings_only(maybe_unserialize($m['value'])));
      $inserted[$c['comment_id']] = $cid;
    }

    foreach ($post['postmeta'] as $m) {
      $key = $m['key'];
      $value = false;
      if ($key === '_edit_last') {
        if (!isset($author_ids[(int) $m['value']])) continue;
        $value = $author_ids[(int) $m['value']];
      }
      if (!$key || $key === '_edit_lock') continue;
      if (!$value) $value = maybe_unserialize($m['value']);
      add_post_meta($id, wp_slash($key), wp_slash_strings_only($value));
      if ($key === '_thumbnail_id') $featured[$id] = (int) $value;
    }
  }

  // backfill_parents, the menu items retried, remap_featured_images
  foreach ($orphans as $child => $parent) {
    if (isset($posts[$child], $posts[$parent])) {
      $wpdb->update($wpdb->posts, ['post_parent' => $posts[$parent]], ['ID' => $posts[$child]], '%d', '%d');
      clean_post_cache($posts[$child]);
    }
  }
  $retry = $missing_menu_items;
  $missing_menu_items = [];
  foreach ($retry as $item) $process_menu_item($item);
  foreach ($menu_orphans as $child => $parent) {
    if (isset($menu_items[$child], $menu_items[$parent])) update_post_meta($menu_items[$child], '_menu_item_menu_item_parent', (int) $menu_items[$parent]);
  }
  foreach ($featured as $post_id => $value) {
    if (isset($posts[$value]) && $posts[$value] != $value) update_post_meta($post_id, '_thumbnail_id', $posts[$value]);
  }
  // the old ids of posts that got other ones (or were there already) in the text of the posts this run wrote (src/import/wxr-import.ts)
  $moved = array_filter($posts, fn($id, $old) => $id !== $old, ARRAY_FILTER_USE_BOTH);
  if ($moved) {
    foreach ($written as $id) {
      $p = get_post($id);
      $content = render_parity_remap_ids($p->post_content, $moved);
      if ($content !== $p->post_content) {
        $wpdb->update($wpdb->posts, ['post_content' => $content], ['ID' => $id]);
        clean_post_cache($id);
      }
    }
  }

  wp_cache_flush();
  foreach (get_taxonomies() as $tax) {
    delete_option("{$tax}_children");
    _get_term_hierarchy($tax);
  }
  wp_defer_term_counting(false);
  wp_defer_comment_counting(false);
  echo basename($file), ': ', count($posts), " posts\n";
}

foreach ($files as $file) render_parity_import($file);
