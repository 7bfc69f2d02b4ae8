import type { AuthorizationList, ConsentRequest, OAuthScope } from '../../generated/developer/types.gen.js';
import type { DashboardApi } from './api.js';
import { h } from './dom.js';

/** What each scope lets an app do, in the person's words. */
const SCOPE_TEXT: Record<OAuthScope, string> = {
  profile:
    'See your profile in full (name, photo, links, verified accounts, what you made public) and check whether an email address is yours',
  'publishing:read': 'Read posts on the sites you pick, as you',
  'publishing:write': 'Read and change posts (trash, restore) on the sites you pick, as far as your role there allows',
};

/** What an app that signs the person in (`openid`) learns, in their words: the account's id, nothing else. */
const OPENID_TEXT = 'Sign you in: it learns your account’s id on this service, not your email address or password';

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
 * The consent page: the signed-in account, the app, what it asks for (each
 * scope's meaning), and the person's sites to pick (the first picked already,
 * each read, or read and write when the app asked for writing): an app that
 * asks for posts is never allowed with no site. Allow or Deny sends the
 * browser on to the authorization server.
 */
export function renderConsent(
  request: ConsentRequest,
  account: string,
  answer: (approve: boolean, sites: { id: number; access: 'read' | 'write' }[]) => void,
): HTMLElement {
  const publishing = request.scopes.some((scope) => scope.startsWith('publishing:'));
  const mayWrite = request.scopes.includes('publishing:write');
  const noSite = h('p', { class: 'field-error', id: 'consent-site-error', role: 'alert', hidden: '' });
  const sites = publishing
    ? h(
        'fieldset',
        { class: 'field', id: 'consent-sites' },
        h('legend', {}, 'Sites the app may use'),
        ...request.sites.map((site, at) =>
          h(
            'p',
            { class: 'site-choice' },
            h(
              'label',
              { class: 'check' },
              h('input', {
                type: 'checkbox',
                name: 'site',
                value: String(site.id),
                'aria-describedby': 'consent-site-error',
                ...(at === 0 ? { checked: '' } : {}),
              }),
              h('span', {}, `${site.name} (${site.url}), you are ${site.role}`),
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
        request.sites.length
          ? null
          : h(
              'p',
              { class: 'hint', id: 'consent-no-site' },
              'You have no publishing site, so there is nothing to allow: Deny sends you back to the app.',
            ),
        noSite,
      )
    : null;
  const shared = [...(request.openid ? [OPENID_TEXT] : []), ...request.scopes.map((scope) => SCOPE_TEXT[scope])];
  const form = h(
    'form',
    { class: 'card', id: 'consent-form', 'aria-labelledby': 'consent-title' },
    h('h1', { id: 'consent-title' }, `${request.application.name} wants to use your account`),
    h('p', { id: 'consent-account' }, 'Signed in as ', h('strong', {}, account), '.'),
    request.application.website_url ? h('p', {}, h('span', { class: 'hint' }, request.application.website_url)) : null,
    h(
      'p',
      { id: 'consent-asks' },
      shared.length ? 'If you allow it, the app may:' : 'The app asks for nothing of yours.',
    ),
    h('ul', { id: 'consent-scopes' }, ...shared.map((text) => h('li', {}, text))),
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
      h(
        'button',
        {
          type: 'submit',
          class: 'button primary',
          value: 'allow',
          id: 'consent-allow',
          ...(publishing && !request.sites.length ? { disabled: '' } : {}),
        },
        'Allow',
      ),
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
    if (approve && publishing && !picked.length) {
      noSite.textContent = 'Pick at least one site the app may use, or Deny.';
      noSite.hidden = false;
      form.querySelector<HTMLInputElement>('input[name="site"]')?.focus();
      return;
    }
    noSite.hidden = true;
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
      const sites = authorization.sites
        .map((site) => `${site.name} (${site.access === 'write' ? 'read and write' : 'read only'})`)
        .join(', ');
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
