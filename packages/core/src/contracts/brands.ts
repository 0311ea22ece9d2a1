/**
 * Brands on the wire (DESIGN.md section 5, 'Links that leave the portal'): the brand a device is
 * provisioned for (whose host its label's QR code opens), and the warning a label answer carries
 * while no public address is configured.
 */
import { z } from 'zod';
import { BRAND_IDS } from '../domain/brands';

/** One of the eight brand ids ('default', 'tank', ...). */
export const BrandIdSchema = z.enum(BRAND_IDS, { message: `brand must be one of ${BRAND_IDS.join(', ')}` });

/** The answer header a call sets when what it made carries links that will not work (a label without PUBLIC_URL). */
export const PORTAL_WARNING_HEADER = 'x-portal-warning';

export const PUBLIC_ADDRESS_MESSAGES = {
  /** A label printed while no public address is configured: its QR code opens this machine's localhost. */
  labelWithoutPublicUrl:
    'No public address is configured (PUBLIC_URL): label QR codes open localhost, which a phone cannot reach. Set PUBLIC_URL before printing labels for customers.',
} as const;
