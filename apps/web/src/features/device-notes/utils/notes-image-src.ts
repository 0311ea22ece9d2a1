import { API_BASES } from '@/lib/api';

/** The address the server stores in PORTAL_deviceNotes.images (notesImagePath), after its /api prefix. */
const STORED_PATH = /^\/api(\/device\/[^/?#]+\/notes-image\/(?:asset_image|brand_image)\?v=\d+)$/;

/** Where an <img> loads a stored notes image (the device API base), or null when there is none. */
export function notesImageSrc(stored: unknown): string | null {
  const match = typeof stored === 'string' ? STORED_PATH.exec(stored) : null;
  return match ? API_BASES.device + match[1] : null;
}
