/**
 * The widget card's own settings (spec 2 section 3): name, size, background colour, the image
 * (upload, show or hide, remove, size the card to it), snapping, last readings, units, and the
 * stale, alert and warning colours with changeColorisActive.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import {
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  WIDGET_DEFAULT_COLOURS,
  WIDGET_MAX_SIZE_PX,
  imageError,
  type WidgetCard,
} from '@portal/core';
import { CheckInput, ColourInput, NumberInput, TextInput } from './fields';

/** The largest size "Size to image" gives a card, so a photo does not make a huge card. */
const SIZE_TO_IMAGE_MAX = 1200;

export function CardPanel({
  card,
  imageSrc,
  uploading,
  onChange,
  onUpload,
  onRemoveImage,
}: {
  card: WidgetCard;
  /** The stored image's address, or null for none. */
  imageSrc: string | null;
  uploading: boolean;
  onChange: (card: WidgetCard) => void;
  onUpload: (file: File) => void;
  onRemoveImage: () => void;
}) {
  const set = (patch: Partial<WidgetCard>) => onChange({ ...card, ...patch });
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const image = card.image ?? { path: null, imageIsActive: false };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again fires change again
    if (!chosen) return;
    const problem = imageError(chosen);
    setError(problem);
    if (!problem) onUpload(chosen);
  };

  const sizeToImage = () => {
    if (!imageSrc) return;
    const img = new Image();
    img.onload = () => {
      const ratio = Math.min(1, SIZE_TO_IMAGE_MAX / Math.max(img.naturalWidth, img.naturalHeight));
      if (img.naturalWidth > 0 && img.naturalHeight > 0)
        set({ width: Math.round(img.naturalWidth * ratio), height: Math.round(img.naturalHeight * ratio) });
    };
    img.src = imageSrc;
  };

  return (
    <div className="wc-fields">
      <TextInput
        path="card-name"
        label="Name"
        className="wc-field--wide"
        value={card.name ?? ''}
        maxLength={64}
        onChange={(name) => set({ name })}
      />
      <NumberInput
        path="card-width"
        label="Width (px)"
        value={card.width}
        min={1}
        max={WIDGET_MAX_SIZE_PX}
        onChange={(width) => set({ width: width ?? card.width })}
      />
      <NumberInput
        path="card-height"
        label="Height (px)"
        value={card.height}
        min={1}
        max={WIDGET_MAX_SIZE_PX}
        onChange={(height) => set({ height: height ?? card.height })}
      />
      <ColourInput
        path="card-background"
        label="Background colour"
        className="wc-field--wide"
        value={card.backgroundColour}
        placeholder={WIDGET_DEFAULT_COLOURS.background}
        onChange={(backgroundColour) => set({ backgroundColour })}
      />
      <fieldset className="wc-fieldset wc-field--wide">
        <legend>Image</legend>
        <div className="wc-image-actions">
          <input
            ref={input}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="widget-image-file"
            onChange={onFile}
          />
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-upload"
            label={imageSrc ? 'Replace image' : 'Upload image'}
            loading={uploading}
            aria-describedby="wc-image-hint"
            onClick={() => input.current?.click()}
          />
          {imageSrc && (
            <>
              <Button type="button" size="small" text label="Size card to image" onClick={sizeToImage} />
              <Button
                type="button"
                size="small"
                text
                severity="danger"
                icon="pi pi-trash"
                label="Remove image"
                onClick={() => {
                  setError(null);
                  onRemoveImage();
                }}
              />
            </>
          )}
        </div>
        {error ? (
          <small className="form-field__error" role="alert">
            <i className="pi pi-exclamation-circle" aria-hidden="true" /> {error}
          </small>
        ) : (
          <small id="wc-image-hint" className="form-field__hint">
            png or jpeg, up to {IMAGE_MAX_BYTES / 1024} kB; saved as soon as it is uploaded.
          </small>
        )}
        <CheckInput
          path="card-image-active"
          label="Show the image"
          checked={image.imageIsActive}
          disabled={!imageSrc}
          onChange={(imageIsActive) => set({ image: { ...image, imageIsActive } })}
        />
      </fieldset>
      <div className="wc-checks wc-field--wide">
        <CheckInput
          path="card-snap"
          label="Snap to a 5 px grid"
          checked={card.snapToGrid}
          onChange={(snapToGrid) => set({ snapToGrid })}
        />
        <CheckInput
          path="card-last-reading"
          label="Show last readings"
          checked={card.showLastReading}
          onChange={(showLastReading) => set({ showLastReading })}
        />
        <CheckInput
          path="card-units"
          label="Show units"
          checked={card.showUnits}
          onChange={(showUnits) => set({ showUnits })}
        />
        <CheckInput
          path="card-change-colour"
          label="Colour values past their limits"
          checked={Boolean(card.changeColorisActive)}
          onChange={(changeColorisActive) => set({ changeColorisActive })}
        />
      </div>
      <ColourInput
        path="card-stale"
        label="Stale colour"
        hint="Last known values."
        value={card.staleColor}
        placeholder="grey"
        onChange={(staleColor) => set({ staleColor: staleColor ?? 'grey' })}
      />
      <ColourInput
        path="card-alert"
        label="Alert colour"
        hint="Past an alarm limit."
        value={card.alertColor}
        placeholder={WIDGET_DEFAULT_COLOURS.alertText}
        onChange={(alertColor) => set({ alertColor })}
      />
      <ColourInput
        path="card-warning"
        label="Warning colour"
        hint="Past a warning limit."
        value={card.warningColor}
        placeholder={WIDGET_DEFAULT_COLOURS.warningText}
        onChange={(warningColor) => set({ warningColor })}
      />
    </div>
  );
}
