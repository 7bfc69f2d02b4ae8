import type { AuthorizationList, ConsentRequest, OAuthScope } from '../../generated/developer/types.gen.js';
import type { DashboardApi } from './api.js';
import { h } from './dom.js';

/** What each scope lets an app do, in the person's words. */
const SCOPE_TEXT: Record<OAuthScope, string> = {
  profile: 'See your profile and check whether an email address is yours',
  'publishing:read': 'Read posts on the sites you pick, as you',
  'publishing:write': 'Read and change posts (trash, restore) on the sites you pick, as far as your role there allows',
};

/** The id of an app's pending authorization request in the address (`#consent=<id>`), where the authorization server sent the person. */
export function consentIdOf(hash: string): string | undefined {
  return /^#consent=([A-Za-z0-9_-]{1,64})$/.exec(hash)?.[1];
}

/** Where the app's answer goes, as the person should check it: the host (with its port), or an app's own scheme. */
function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host || `${url.protocol} (an app on this device)`;
}

/**
 * The consent page: the app, what it asks for, and the person's sites to
 * pick (each read, or read and write when the app asked for writing); Allow
 * or Deny sends the browser on to the authorization server.
 */
export function renderConsent(
  request: ConsentRequest,
  answer: (approve: boolean, sites: { id: number; access: 'read' | 'write' }[]) => void,
): HTMLElement {
  const publishing = request.scopes.filter((scope) => scope.startsWith('publishing:'));
  const mayWrite = request.scopes.includes('publishing:write');
  const sites = publishing.length
    ? h(
        'fieldset',
        { class: 'field', id: 'consent-sites' },
        h('legend', {}, 'Sites the app may use'),
        ...request.sites.map((site) =>
          h(
            'p',
            {},
            h(
              'label',
              {},
              h('input', { type: 'checkbox', name: 'site', value: String(site.id) }),
              ` ${site.name} (${site.url}), you are ${site.role}`,
            ),
            mayWrite
              ? h(
                  'select',
                  { name: `access-${site.id}`, 'aria-label': `Access to ${site.name}` },
                  h('option', { value: 'write' }, 'read and write'),
                  h('option', { value: 'read' }, 'read only'),
                )
              : null,
          ),
        ),
        request.sites.length ? null : h('p', { class: 'hint' }, 'You have no publishing site.'),
      )
    : null;
  const form = h(
    'form',
    { class: 'card', id: 'consent-form', 'aria-labelledby': 'consent-title' },
    h('h1', { id: 'consent-title' }, `${request.application.name} wants to use your account`),
    request.application.website_url ? h('p', {}, h('span', { class: 'hint' }, request.application.website_url)) : null,
    h('ul', { id: 'consent-scopes' }, ...request.scopes.map((scope) => h('li', {}, SCOPE_TEXT[scope]))),
    sites,
    h(
      'p',
      { id: 'consent-redirect' },
      'You will be sent back to ',
      h('strong', {}, redirectHost(request.redirect_uri)),
      ` (${request.redirect_uri}).`,
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'button primary', value: 'allow', id: 'consent-allow' }, 'Allow'),
      h('button', { type: 'submit', class: 'button quiet', value: 'deny', id: 'consent-deny' }, 'Deny'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const approve = (event.submitter as HTMLButtonElement | null)?.value === 'allow';
    const picked = [...form.querySelectorAll<HTMLInputElement>('input[name="site"]:checked')].map((box) => {
      const access =
        form.querySelector<HTMLSelectElement>(`select[name="access-${box.value}"]`)?.value === 'write'
          ? 'write'
          : 'read';
      return { id: Number(box.value), access } as const;
    });
    answer(approve, approve ? picked : []);
  });
  return form;
}

/** "Apps you authorized": each with its scopes and sites, and a Revoke button. */
export function renderAuthorizations(
  authorizations: AuthorizationList['authorizations'],
  api: DashboardApi,
  refresh: () => void,
): HTMLElement {
  return h(
    'section',
    { class: 'card', id: 'authorizations', 'aria-labelledby': 'authorizations-title' },
    h('h2', { id: 'authorizations-title' }, 'Apps you authorized'),
    authorizations.length ? null : h('p', { class: 'hint' }, 'No app can act for you.'),
    ...authorizations.map((authorization) => {
      const revoke = h('button', { type: 'button', class: 'button quiet' }, `Revoke ${authorization.name}`);
      revoke.addEventListener('click', () => void api.revokeAuthorization(authorization.application_id).then(refresh));
      const sites = authorization.sites.map((site) => `site ${site.id} (${site.access})`).join(', ');
      return h(
        'p',
        { class: 'authorization' },
        h('strong', {}, authorization.name),
        ` ${authorization.scopes.join(', ')}${sites ? ` on ${sites}` : ''} `,
        revoke,
      );
    }),
  );
}
