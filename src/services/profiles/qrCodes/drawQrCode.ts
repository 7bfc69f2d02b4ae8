import type * as QrCodeModule from 'qrcode';
import { loadSharp } from '../avatars/imaging.js';

let qrCodeModule: Promise<typeof QrCodeModule> | undefined;

/** The QR code library (qrcode), loaded when the first code is drawn, as the image libraries are. */
const loadQrCode = (): Promise<typeof QrCodeModule> =>
  (qrCodeModule ??= import('qrcode').then(
    (loaded) => (loaded as unknown as { default?: typeof QrCodeModule }).default ?? loaded,
  ));

/** Modules of white around the code on every side: the quiet zone the QR standard asks for. */
const QUIET_ZONE = 4;

/** What a QR code is drawn from. */
export interface QrCodeDrawing {
  /** The text the code holds (the profile URL). */
  text: string;
  /** Width and height of the PNG in pixels. */
  size: number;
  /** The smallest QR symbol version (1 to 40) to draw; undefined: the smallest that holds the text. */
  version?: number;
  /** A square PNG to show in the middle (the avatar), or undefined for none. */
  centre?: Buffer;
}

/** The text does not fit the asked-for symbol version; the message says which version it needs. */
export class QrVersionTooSmall extends Error {
  override readonly name = 'QrVersionTooSmall';
}

/**
 * Draws a QR code as a `size`-pixel square greyscale PNG (black modules on
 * white, a quiet zone of 4 modules), every module mapped to whole pixels as
 * nearly as the size allows. With a centre image the code uses error
 * correction level H (30% of it may be covered) and the image, on a white
 * square, covers a fifth of its width; without one, level M.
 */
export async function drawQrCode(drawing: QrCodeDrawing): Promise<Buffer> {
  const qrcode = await loadQrCode();
  let code: QrCodeModule.QRCode;
  try {
    code = qrcode.create(drawing.text, {
      errorCorrectionLevel: drawing.centre ? 'H' : 'M',
      ...(drawing.version === undefined ? {} : { version: drawing.version }),
    });
  } catch (error) {
    const message = (error as Error).message;
    if (/version/i.test(message)) throw new QrVersionTooSmall(message);
    throw error;
  }
  const modules = code.modules.size;
  const total = modules + 2 * QUIET_ZONE;
  const { size } = drawing;
  const pixels = Buffer.alloc(size * size, 255);
  for (let y = 0; y < size; y++) {
    const row = Math.floor((y * total) / size) - QUIET_ZONE;
    if (row < 0 || row >= modules) continue;
    for (let x = 0; x < size; x++) {
      const column = Math.floor((x * total) / size) - QUIET_ZONE;
      if (column >= 0 && column < modules && code.modules.get(row, column)) pixels[y * size + x] = 0;
    }
  }
  const sharp = await loadSharp();
  const image = sharp(pixels, { raw: { width: size, height: size, channels: 1 } });
  const side = Math.floor(size / 5);
  if (!drawing.centre || side < 8) return image.png().toBuffer();
  // The centre image on a white square a little larger than itself, in the middle.
  const border = Math.max(1, Math.floor(side / 10));
  const inner = side - 2 * border;
  const centre = await sharp(drawing.centre).resize(inner, inner).png().toBuffer();
  const offset = Math.floor((size - side) / 2);
  const backing = await sharp({ create: { width: side, height: side, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return sharp(await image.toColourspace('srgb').png().toBuffer())
    .composite([
      { input: backing, left: offset, top: offset },
      { input: centre, left: offset + border, top: offset + border },
    ])
    .png()
    .toBuffer();
}
