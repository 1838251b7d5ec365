/** The `curies` entry WordPress adds when any link rel is compacted to `wp:` (a leaf module: the site's index uses it too). */
export const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
