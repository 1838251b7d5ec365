<?php
// Runs PHP inside the reference WordPress (scripts/wordpress-reference.sh) and prints what it prints:
// the exact output of a WordPress function for a test's expected value.
//   php scripts/wp-eval.php 8061 'echo do_shortcode("[caption width=\"150\"]<img src=\"a.jpg\"> Hi[/caption]");'
// Loads wp-load.php as a request for the site's home; runs as the calling user and writes to its database.
$_SERVER['HTTP_HOST'] = '127.0.0.1:' . $argv[1];
// a site of its own beside 8061's (wordpress-reference.sh PORT) has its config named after its port
if (is_file("/etc/wordpress/config-port{$argv[1]}.php")) $_SERVER['WORDPRESS_CONFIG'] = "port{$argv[1]}";
$_SERVER['REQUEST_URI'] = '/';
require '/usr/share/wordpress/wp-load.php';
eval($argv[2]);
