/**
 * The image of a widget card (spec 2 sections 2 and 3: image {path, imageIsActive}; WGT-13): a png
 * or jpeg of at most 300 kB kept in the portal's file storage, one per widget{n} of a device,
 * served at widgetImagePath. The body is the device notes images' own (NotesImagePutBodySchema).
 */
import { z } from 'zod';
import { WIDGET_KEY_PATTERN } from './device-authoring';
import { AnyDeviceParamsSchema, NotesImagePutBodySchema } from './devices';
import { safeString } from './fields';

export const WIDGET_IMAGE_MESSAGES = {
  notFound: 'This widget has no image.',
  badWidgetId: 'must be widget1 to widget999',
} as const;

/** A widget card's image: the device and the widget's key (widget1 ... widget999). */
export const WidgetImageParamsSchema = AnyDeviceParamsSchema.extend({
  widgetid: safeString().regex(WIDGET_KEY_PATTERN, WIDGET_IMAGE_MESSAGES.badWidgetId),
});
export type WidgetImageParams = z.infer<typeof WidgetImageParamsSchema>;

/** The body of PUT /api/device/{id}/widget-image/{widgetid}: a png or jpeg of at most 300 kB, as base64. */
export const WidgetImagePutBodySchema = NotesImagePutBodySchema;
export type WidgetImagePutBody = z.infer<typeof WidgetImagePutBodySchema>;

/** The answer of PUT and DELETE: the image's address (widgetImagePath), null once removed. */
export const WidgetImageResponseSchema = z.object({
  widgetid: z.string(),
  path: z.string().nullable(),
});
export type WidgetImageResponse = z.infer<typeof WidgetImageResponseSchema>;
