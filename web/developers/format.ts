import { h } from './dom.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A moment for people (in their locale and time zone), with the exact UTC time for machines and tooltips. */
export const timeElement = (iso: string): HTMLTimeElement =>
  h('time', { datetime: iso, title: iso }, dateTime.format(new Date(iso)));

/** The URL when it is http or https; anything else (`javascript:`…) is never made a link. */
export function webUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
