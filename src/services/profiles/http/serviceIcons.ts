import { entityTag } from '../domain/entityTag.js';
import { VERIFIED_ACCOUNT_SERVICES, type VerifiedAccountService } from '../domain/verifiedAccountServices.js';

/** An icon as `GET /icons/{icon}` serves it: its SVG bytes and their entity tag. */
export interface ServiceIcon {
  bytes: Buffer;
  etag: string;
}

/** The file name of a service's icon, as its URL ends (`github.svg`), like the real service's `/icons/<name>.svg`. */
export const serviceIconName = (serviceId: string): string => `${serviceId}.svg`;

/** The URL of a service's icon at the deployment's icons (`<icons>/<id>.svg`). */
export const serviceIconUrl = (iconsBase: string, serviceId: string): string =>
  `${iconsBase}/${serviceIconName(serviceId)}`;

/** XML's special characters as entities (the labels are the list's own, but the drawing does not rely on it). */
const xmlText = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A service's icon: a square badge in its colour with its initial, and its
 * name as the image's title. No script, no style element, no reference to
 * anything outside itself.
 */
const drawIcon = (service: VerifiedAccountService): ServiceIcon => {
  const bytes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32" role="img">` +
      `<title>${xmlText(service.label)}</title>` +
      `<rect width="32" height="32" rx="6" fill="${xmlText(service.colour)}"/>` +
      `<text x="16" y="22" font-family="Arial,sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">` +
      `${xmlText(service.label[0]!)}</text></svg>\n`,
  );
  return { bytes, etag: entityTag(bytes) };
};

/** Every service's icon by its file name, drawn once. */
const ICONS: ReadonlyMap<string, ServiceIcon> = new Map(
  VERIFIED_ACCOUNT_SERVICES.map((service) => [serviceIconName(service.id), drawIcon(service)]),
);

/** The icon of this file name (`github.svg`), or undefined when no service has it. */
export const serviceIcon = (name: string): ServiceIcon | undefined => ICONS.get(name);
