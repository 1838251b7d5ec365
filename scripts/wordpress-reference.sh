#!/usr/bin/env bash
# Brings up a real WordPress 6.1 on this machine from Debian's packages, for what the project compares
# itself with: `npm run bench:wp`, and the exact output of a WordPress function when writing a test's
# expected value (scripts/wp-eval.php). Debian 12's `wordpress` package is WordPress 6.1.x.
# Needs root, Debian's package archive and a MariaDB (or MySQL) answering on its socket as root.
# Idempotent: run it again to get the application password printed again (a new one each time).
#   sudo scripts/wordpress-reference.sh [PORT]     (default 8061)
# A port other than 8061 gets a site of its own beside it (database wp61_PORT, content folder
# /var/lib/wordpress/sites/PORT/wp-content, config-portPORT.php chosen by nginx's WORDPRESS_CONFIG),
# for what changes a site's theme or content (scripts/render-parity.ts) without touching 8061's.
# Then: http://127.0.0.1:PORT/ , user `admin`, password `password`; the last line printed is
# `admin:<application password>` for --wp-auth and curl -u.
set -euo pipefail
PORT="${1:-8061}"
export DEBIAN_FRONTEND=noninteractive
dpkg -s wordpress nginx php8.2-fpm php8.2-mysql php8.2-xml >/dev/null 2>&1 || apt-get install -y wordpress nginx php8.2-fpm php8.2-mysql php8.2-xml mariadb-server >/dev/null
# the wordpress package pulls in Apache, which would hold port 80 for nothing here
service apache2 stop >/dev/null 2>&1 || true
service mariadb start >/dev/null 2>&1 || true
if [ "$PORT" = 8061 ]; then
  DB=wp61 CONFIG=default CONTENT=/var/lib/wordpress/wp-content
else
  DB="wp61_${PORT}" CONFIG="port${PORT}" CONTENT="/var/lib/wordpress/sites/${PORT}/wp-content"
  mkdir -p "$CONTENT/themes" "$CONTENT/plugins" "$CONTENT/uploads"
  ln -sfn /usr/share/wordpress/wp-content/themes/twentytwentythree "$CONTENT/themes/twentytwentythree"
  chown -R www-data:www-data "$CONTENT/uploads"
fi
mysql -uroot -e "CREATE DATABASE IF NOT EXISTS ${DB}; CREATE USER IF NOT EXISTS 'wp'@'localhost' IDENTIFIED BY 'wp'; GRANT ALL ON ${DB}.* TO 'wp'@'localhost'; FLUSH PRIVILEGES;"
# Debian's wp-config.php reads /etc/wordpress/config-\$WORDPRESS_CONFIG.php when the server sets it,
# else config-<host>.php, else config-default.php.
# WP_ENVIRONMENT_TYPE local: application passwords work over plain HTTP. No outbound HTTP, no updates.
cat > "/etc/wordpress/config-${CONFIG}.php" <<PHP
<?php
define('DB_NAME', '${DB}');
define('DB_USER', 'wp');
define('DB_PASSWORD', 'wp');
define('DB_HOST', 'localhost');
define('WP_CONTENT_DIR', '${CONTENT}');
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_HOME', 'http://127.0.0.1:${PORT}');
define('WP_SITEURL', 'http://127.0.0.1:${PORT}');
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
\$table_prefix = 'wp_';
PHP
SITE=wordpress-reference
[ "$PORT" = 8061 ] || SITE="wordpress-reference-${PORT}"
cat > "/etc/nginx/sites-available/${SITE}" <<NGINX
server {
  listen 127.0.0.1:${PORT};
  root /usr/share/wordpress;
  index index.php;
  client_max_body_size 64m;
  location /wp-content/ { alias ${CONTENT}/; }
  location / { try_files \$uri \$uri/ /index.php?\$args; }
  location ~ \.php\$ {
    include snippets/fastcgi-php.conf;
    fastcgi_param WORDPRESS_CONFIG ${CONFIG};
    fastcgi_pass unix:/run/php/php8.2-fpm.sock;
  }
}
NGINX
ln -sf "/etc/nginx/sites-available/${SITE}" "/etc/nginx/sites-enabled/${SITE}"
rm -f /etc/nginx/sites-enabled/default
service php8.2-fpm start >/dev/null 2>&1 || true
nginx -t >/dev/null 2>&1
# Debian's `service nginx reload` answers 0 when nginx is not running, starting nothing
if service nginx status >/dev/null 2>&1; then service nginx reload >/dev/null 2>&1; else service nginx start >/dev/null 2>&1 || nginx; fi
base="http://127.0.0.1:${PORT}"
for _ in $(seq 1 20); do curl -s -o /dev/null "$base/wp-admin/install.php" && break; sleep 0.5; done
# wp-admin/install.php's second step, as the installer's form sends it (does nothing once installed)
curl -s -o /dev/null -X POST "$base/wp-admin/install.php?step=2" \
  --data-urlencode "weblog_title=WordPress reference" --data-urlencode "user_name=admin" \
  --data-urlencode "admin_password=password" --data-urlencode "admin_password2=password" --data-urlencode "pw_weak=1" \
  --data-urlencode "admin_email=admin@example.test" --data-urlencode "blog_public=0" --data-urlencode "language="
here="$(cd "$(dirname "$0")" && pwd)"
php "$here/wp-eval.php" "$PORT" '
  update_option("permalink_structure", "/%year%/%monthnum%/%day%/%postname%/");
  flush_rewrite_rules();
  $made = WP_Application_Passwords::create_new_application_password(1, ["name" => "reference " . gmdate("c")]);
  echo "WordPress ", get_bloginfo("version"), " at ", home_url("/"), "\n";
  echo "admin:", $made[0], "\n";'
