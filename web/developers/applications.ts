import type { ApiKey, Application, OAuthClient } from '../../generated/developer/types.gen.js';
import { h } from './dom.js';
import { timeElement, webUrl } from './format.js';

/** A key's prefix as shown: the prefix and an ellipsis, since the rest is secret. */
export const keyLabel = (key: Pick<ApiKey, 'prefix'>) => `${key.prefix}…`;

function keyRow(application: Application, key: ApiKey): HTMLTableRowElement {
  const revoked = key.revoked_at !== null;
  return h(
    'tr',
    { class: revoked ? 'revoked' : undefined },
    h('td', { 'data-label': 'Key' }, h('code', { class: 'key-prefix' }, keyLabel(key))),
    h(
      'td',
      { 'data-label': 'Status' },
      revoked
        ? h('span', { class: 'badge revoked', title: `Revoked ${key.revoked_at}` }, 'Revoked')
        : h('span', { class: 'badge active' }, 'Active'),
    ),
    h('td', { 'data-label': 'Created' }, timeElement(key.created_at)),
    h('td', { 'data-label': 'Last used' }, key.last_used_at ? timeElement(key.last_used_at) : 'Never'),
    h(
      'td',
      {},
      revoked
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: 'button danger-outline small',
              'data-action': 'revoke',
              'data-application': application.id,
              'data-key': key.id,
              'aria-label': `Revoke key ${keyLabel(key)} of ${application.name}`,
            },
            'Revoke',
          ),
    ),
  );
}

/**
 * The application's sign-in with OAuth: its `client_id` to copy, and its
 * redirect URIs and JavaScript origins (one a line), filled in once the saved
 * settings are read (`fillOAuthSettings`).
 */
function oauthSettings(application: Application): HTMLElement {
  const id = application.id;
  const field = (name: 'redirect_uris' | 'javascript_origins', label: string, hint: string, placeholder: string) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `${name}-${id}` }, label),
      h('textarea', {
        id: `${name}-${id}`,
        name,
        rows: '2',
        placeholder,
        spellcheck: 'false',
        autocomplete: 'off',
        'aria-describedby': `${name}-${id}-hint`,
      }),
      h('p', { class: 'hint', id: `${name}-${id}-hint` }, hint),
    );
  return h(
    'form',
    { class: 'oauth-settings', 'data-oauth': id, 'aria-label': `Sign-in with OAuth for ${application.name}` },
    h('h4', {}, 'Sign-in with OAuth'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: `client-id-${id}` }, 'client_id'),
      h(
        'div',
        { class: 'copy-row' },
        h('input', {
          id: `client-id-${id}`,
          class: 'client-id',
          type: 'text',
          readonly: '',
          value: id,
          'data-client-id': id,
        }),
        h(
          'button',
          {
            type: 'button',
            class: 'button quiet small',
            'data-action': 'copy-client-id',
            'data-application': id,
            'aria-label': `Copy the client_id of ${application.name}`,
          },
          'Copy',
        ),
      ),
    ),
    field(
      'redirect_uris',
      'Redirect URIs',
      'One a line, exactly as your app sends redirect_uri: https://…; an app on the person’s computer registers http://127.0.0.1/… (any port matches, RFC 8252) or its own scheme.',
      'https://app.example.com/callback',
    ),
    field(
      'javascript_origins',
      'JavaScript origins',
      'One a line: origins whose pages call the APIs with the tokens (https://app.example.com).',
      'https://app.example.com',
    ),
    h('button', { type: 'submit', class: 'button primary small' }, 'Save OAuth settings'),
  );
}

/** Puts an application's saved OAuth settings into its form. */
export function fillOAuthSettings(list: HTMLElement, settings: OAuthClient): void {
  const form = list.querySelector<HTMLFormElement>(`form[data-oauth="${CSS.escape(settings.client_id)}"]`);
  if (!form) return;
  form.querySelector<HTMLTextAreaElement>('textarea[name="redirect_uris"]')!.value = settings.redirect_uris.join('\n');
  form.querySelector<HTMLTextAreaElement>('textarea[name="javascript_origins"]')!.value =
    settings.javascript_origins.join('\n');
}

/** The lines of a textarea: trimmed, empty ones left out. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function applicationItem(application: Application): HTMLLIElement {
  const titleId = `application-${application.id}`;
  const website = webUrl(application.website_url);
  return h(
    'li',
    { class: 'card application', 'aria-labelledby': titleId },
    h(
      'div',
      { class: 'application-head' },
      h(
        'div',
        {},
        h('h3', { id: titleId }, application.name),
        website
          ? h(
              'a',
              { class: 'application-website', href: website, rel: 'noopener noreferrer', target: '_blank' },
              application.website_url,
            )
          : null,
        application.description ? h('p', { class: 'application-description' }, application.description) : null,
      ),
      h(
        'div',
        { class: 'application-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'button quiet small',
            'data-action': 'rotate',
            'data-application': application.id,
            'aria-label': `Rotate key of ${application.name}`,
          },
          'Rotate key',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'button danger-outline small',
            'data-action': 'delete',
            'data-application': application.id,
            'aria-label': `Delete application ${application.name}`,
          },
          'Delete',
        ),
      ),
    ),
    h(
      'table',
      { class: 'keys' },
      h('caption', { class: 'visually-hidden' }, `API keys of ${application.name}`),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Key'),
          h('th', { scope: 'col' }, 'Status'),
          h('th', { scope: 'col' }, 'Created'),
          h('th', { scope: 'col' }, 'Last used'),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      h('tbody', {}, ...application.keys.map((key) => keyRow(application, key))),
    ),
    oauthSettings(application),
  );
}

/** Replaces the list's content with the applications (newest first, as the API answers them). */
export function renderApplications(list: HTMLElement, empty: HTMLElement, applications: readonly Application[]): void {
  list.replaceChildren(...applications.map(applicationItem));
  empty.hidden = applications.length > 0;
}
