import type { ApiKey, Application } from '../../generated/developer/types.gen.js';
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
          ? h('a', { class: 'application-website', href: website, rel: 'noopener noreferrer', target: '_blank' }, application.website_url)
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
  );
}

/** Replaces the list's content with the applications (newest first, as the API answers them). */
export function renderApplications(list: HTMLElement, empty: HTMLElement, applications: readonly Application[]): void {
  list.replaceChildren(...applications.map(applicationItem));
  empty.hidden = applications.length > 0;
}
