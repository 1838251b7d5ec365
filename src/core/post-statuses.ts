/**
 * The registered post statuses (register_post_status in create_initial_post_types), with the
 * flags WordPress derives when a status is registered: `publicly_queryable` follows `public`,
 * `show_in_admin_all_list` is the opposite of `internal`.
 */
export interface PostStatusInfo {
  slug: string;
  label: string;
  public: boolean;
  protected: boolean;
  private: boolean;
  internal: boolean;
  /** Whether a post of this status may keep a floating (unset) date. */
  dateFloating: boolean;
}

const status = (slug: string, label: string, flags: Partial<Omit<PostStatusInfo, 'slug' | 'label'>>): PostStatusInfo => ({
  slug, label, public: false, protected: false, private: false, internal: false, dateFloating: false, ...flags,
});

/** WordPress 6.1's statuses, in registration order. */
export const POST_STATUSES: readonly PostStatusInfo[] = [
  status('publish', 'Published', { public: true }),
  status('future', 'Scheduled', { protected: true }),
  status('draft', 'Draft', { protected: true, dateFloating: true }),
  status('pending', 'Pending', { protected: true, dateFloating: true }),
  status('private', 'Private', { private: true }),
  status('trash', 'Trash', { internal: true }),
  status('auto-draft', 'auto-draft', { internal: true, dateFloating: true }),
  status('inherit', 'inherit', { internal: true }),
  status('request-pending', 'Pending', { internal: true }),
  status('request-confirmed', 'Confirmed', { internal: true }),
  status('request-failed', 'Failed', { internal: true }),
  status('request-completed', 'Completed', { internal: true }),
];

const BY_SLUG = new Map(POST_STATUSES.map((s) => [s.slug, s]));

/** get_post_status_object. */
export const postStatus = (slug: string): PostStatusInfo | undefined => BY_SLUG.get(slug);
