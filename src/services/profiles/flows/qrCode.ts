import type { DrawnAvatar } from '../avatars/avatarImages.js';
import { parseIdentifier } from '../domain/identifier.js';
import { qrVersionTooSmall } from '../errors.js';
import { drawQrCode, QrVersionTooSmall } from '../qrCodes/drawQrCode.js';
import type { FlowDeps } from './deps.js';

export interface QrCodeRequest {
  /** The identifier of the path (an email hash, or a slug), as given. */
  identifier: string;
  size: number;
  version?: number;
  /** `utm_medium` and `utm_campaign`, added to the URL with `utm_source=qr` when either is given. */
  medium?: string;
  campaign?: string;
  /** `user`: the owner's avatar in the middle. */
  withAvatar: boolean;
}

/**
 * The QR code of the profile an identifier names: a PNG of the profile's URL
 * (with the caller's `utm_*`), the avatar in the middle when asked; for an
 * identifier that names no profile, of the URL it would have. Drawn and kept
 * with the avatar images; 400 for a `version` too small for the URL.
 */
export async function qrCode(
  deps: Pick<FlowDeps, 'profiles' | 'avatars' | 'publicUrl'>,
  request: QrCodeRequest,
): Promise<{ image: DrawnAvatar; profileFound: boolean }> {
  const { profiles, avatars } = deps;
  const { size, version, medium, campaign } = request;
  const lookup = parseIdentifier(request.identifier);
  const profile = lookup.by === 'nothing' ? undefined : await profiles.findProfile(lookup);
  const url = new URL(
    `${deps.publicUrl}/${profile ? profile.slug : encodeURIComponent(request.identifier.toLowerCase())}`,
  );
  if (medium !== undefined || campaign !== undefined) {
    url.searchParams.set('utm_source', 'qr');
    if (medium !== undefined) url.searchParams.set('utm_medium', medium);
    if (campaign !== undefined) url.searchParams.set('utm_campaign', campaign);
  }
  // The avatar is drawn (or taken from the kept images) before the code, each through the drawing gate on its own.
  let centre: DrawnAvatar | undefined;
  if (request.withAvatar) {
    const side = Math.floor(size / 5);
    const digest = profile?.avatarDigest;
    if (digest) centre = await avatars.uploaded(digest, side, () => profiles.readAvatarImage(digest));
    centre ??= await avatars.generated('mp', profile?.emailHash ?? '', side);
  }
  const text = url.href;
  const key = `qr:${centre?.etag ?? 'none'}:${size}:${version ?? ''}:${text}`;
  try {
    const image = await avatars.other(key, () =>
      drawQrCode({
        text,
        size,
        ...(version === undefined ? {} : { version }),
        ...(centre ? { centre: centre.bytes } : {}),
      }),
    );
    return { image, profileFound: profile !== undefined };
  } catch (error) {
    if (error instanceof QrVersionTooSmall) throw qrVersionTooSmall(error.message);
    throw error;
  }
}
