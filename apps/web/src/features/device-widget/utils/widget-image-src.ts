import { WIDGET_IMAGE_PATH_PATTERN } from '@portal/core';
import { API_BASES } from '@/lib/api';

/** Where an <img> loads a widget card's stored image (the device API base), or null when there is none. */
export function widgetImageSrc(stored: unknown): string | null {
  if (typeof stored !== 'string' || !WIDGET_IMAGE_PATH_PATTERN.test(stored)) return null;
  return API_BASES.device + stored.slice('/api'.length);
}
