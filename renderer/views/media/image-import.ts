// Decoding an image file in the renderer (createImageBitmap understands PNG, JPEG, GIF and BMP)
// and scaling it onto a white canvas of the target size, keeping its aspect ratio.
import { fitRect } from './dither.ts';

export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/bmp,.png,.jpg,.jpeg,.gif,.bmp';

/** RGBA pixels of `file` scaled to fit width × height (centred on white). */
export async function imageFileToRgba(file: Blob, width: number, height: number): Promise<Uint8ClampedArray> {
  let image: ImageBitmap;
  try {
    image = await createImageBitmap(file);
  } catch {
    throw new Error('the file is not an image this app can read (PNG, JPEG, GIF or BMP)');
  }
  try {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    if (!g) throw new Error('no 2D canvas available');
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, width, height);
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = 'high';
    const r = fitRect(image.width, image.height, width, height);
    g.drawImage(image, r.x, r.y, r.width, r.height);
    return g.getImageData(0, 0, width, height).data;
  } finally {
    image.close();
  }
}
