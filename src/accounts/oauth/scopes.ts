/** What an app may ask a person for. */
export const OAUTH_SCOPES = {
  /** The person's own profile: `GET /v3/me/profile`, `GET /v3/me/associated-email`. */
  profile: 'profile',
  /** Reading the publishing API as the person, on the sites they pick. */
  publishingRead: 'publishing:read',
  /** Reading and writing (trash, restore, …) on the sites they pick, as far as their role there allows. */
  publishingWrite: 'publishing:write',
} as const;

export type OAuthScope = (typeof OAUTH_SCOPES)[keyof typeof OAUTH_SCOPES];

export const ALL_OAUTH_SCOPES: readonly OAuthScope[] = Object.values(OAUTH_SCOPES);

/** How far a grant lets a token act on one site. */
export type SiteAccess = 'read' | 'write';
