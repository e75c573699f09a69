#!/bin/sh
# Debian's wordpress package reads /etc/wordpress/config-default.php.
set -e
cat > /etc/wordpress/config-default.php <<PHP
<?php
define('DB_NAME', '$wp_db_name');
define('DB_USER', '$wp_db_user');
define('DB_PASSWORD', '$wp_db_password');
define('DB_HOST', '$wp_db_host:$wp_db_port');
define('WP_CONTENT_DIR', '/usr/share/wordpress/wp-content');
PHP
