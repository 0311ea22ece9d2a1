/**
 * The settings of the selected item (spec 2 section 3): an indicator's data key, range,
 * rotation, thresholds, colours, size, radius, border and shadow; a text's template (with a
 * picker of the device's keys and config values), size, colour, bold and underline.
 */
import { useId, useRef } from 'react';
import { Button } from 'primereact/button';
import {
  INDICATOR_ROTATIONS,
  WIDGET_DEFAULT_COLOURS,
  WIDGET_ITEM_NAMES,
  WIDGET_MAX_SIZE_PX,
  WIDGET_TEMPLATE_MAX_CHARS,
  indicatorSize,
  type IndicatorSettings,
  type TextSettings,
  type WidgetComponent,
  type WidgetElement,
} from '@portal/core';
import { FormField, describedBy } from '@/components/ui/form-field';
import { CheckInput, ColourInput, NumberInput, SelectInput, TextInput, wcIds } from './fields';

/** A key the device reports, with its display name. */
export interface KnownKey {
  key: string;
  name: string;
}

const ROTATION_OPTIONS = INDICATOR_ROTATIONS.map((r) => ({
  value: r as number,
  label: r === 0 ? '0° (fills upwards)' : r === 90 ? '90° (fills to the right)' : '180° (fills downwards)',
}));

export function IndicatorPanel({
  element,
  keys,
  onChange,
  onRemove,
}: {
  element: WidgetElement;
  keys: readonly KnownKey[];
  onChange: (element: WidgetElement) => void;
  onRemove: () => void;
}) {
  const s = element.settings;
  const listId = useId();
  const p = (name: string) => `${element.id}-${name}`;
  const set = (patch: Partial<IndicatorSettings>) => onChange({ ...element, settings: { ...s, ...patch } });
  const size = indicatorSize(element);
  const level = element.active === 'levelIndicator';
  return (
    <div className="wc-fields">
      <SelectInput
        path={p('kind')}
        label="Kind"
        className="wc-field--wide"
        value={element.active}
        options={[
          { value: 'statusIndicator', label: WIDGET_ITEM_NAMES.statusIndicator },
          { value: 'levelIndicator', label: WIDGET_ITEM_NAMES.levelIndicator },
        ]}
        onChange={(active) => onChange({ ...element, active })}
      />
      <TextInput
        path={p('key')}
        label="Data key"
        className="wc-field--wide"
        value={s.dataElement ?? ''}
        maxLength={64}
        list={listId}
        hint="The reading it shows: choose one the device reports, or type a key."
        onChange={(v) => set({ dataElement: v.trim() === '' ? undefined : v.trim() })}
      />
      <datalist id={listId}>
        {keys.map((k) => (
          <option key={k.key} value={k.key}>
            {k.name}
          </option>
        ))}
      </datalist>
      <NumberInput path={p('min')} label="Minimum" value={s.min} onChange={(v) => set({ min: v ?? 0 })} />
      <NumberInput path={p('max')} label="Maximum" value={s.max} onChange={(v) => set({ max: v ?? 100 })} />
      <NumberInput
        path={p('lowAlarm')}
        label="Low alarm"
        value={s.lowAlarm}
        onChange={(v) => set({ lowAlarm: v ?? 0 })}
      />
      <NumberInput
        path={p('lowWarning')}
        label="Low warning"
        value={s.lowWarning}
        onChange={(v) => set({ lowWarning: v ?? 0 })}
      />
      <NumberInput
        path={p('highWarning')}
        label="High warning"
        value={s.highWarning}
        onChange={(v) => set({ highWarning: v ?? 0 })}
      />
      <NumberInput
        path={p('highAlarm')}
        label="High alarm"
        value={s.highAlarm}
        onChange={(v) => set({ highAlarm: v ?? 0 })}
      />
      {level && (
        <SelectInput
          path={p('rotation')}
          label="Rotation"
          className="wc-field--wide"
          value={s.rotation}
          options={ROTATION_OPTIONS}
          onChange={(rotation) => set({ rotation })}
        />
      )}
      <NumberInput
        path={p('width')}
        label="Width (px)"
        value={size.width}
        min={1}
        max={WIDGET_MAX_SIZE_PX}
        onChange={(width) => set({ width })}
      />
      <NumberInput
        path={p('height')}
        label="Height (px)"
        value={size.height}
        min={1}
        max={WIDGET_MAX_SIZE_PX}
        onChange={(height) => set({ height })}
      />
      <NumberInput
        path={p('radius')}
        label="Corner radius (px)"
        value={s.radius}
        min={0}
        max={WIDGET_MAX_SIZE_PX}
        optional
        onChange={(radius) => set({ radius })}
      />
      <NumberInput
        path={p('border')}
        label="Border (px)"
        value={s.borderThickness}
        min={0}
        max={100}
        optional
        onChange={(borderThickness) => set({ borderThickness })}
      />
      <ColourInput
        path={p('normal')}
        label="Normal colour"
        value={s.normalColor}
        placeholder={WIDGET_DEFAULT_COLOURS.normal}
        onChange={(normalColor) => set({ normalColor })}
      />
      <ColourInput
        path={p('warning')}
        label="Warning colour"
        value={s.warningColor}
        placeholder={WIDGET_DEFAULT_COLOURS.warning}
        onChange={(warningColor) => set({ warningColor })}
      />
      <ColourInput
        path={p('alarm')}
        label="Alarm colour"
        value={s.alarmColor}
        placeholder={WIDGET_DEFAULT_COLOURS.alarm}
        onChange={(alarmColor) => set({ alarmColor })}
      />
      {level && (
        <ColourInput
          path={p('bar')}
          label="Bar colour"
          hint="The fill while normal."
          value={s.barColor}
          placeholder={s.normalColor ?? WIDGET_DEFAULT_COLOURS.normal}
          onChange={(barColor) => set({ barColor })}
        />
      )}
      {level && (
        <ColourInput
          path={p('background')}
          label="Background colour"
          value={s.backgroundColor}
          placeholder={WIDGET_DEFAULT_COLOURS.levelTrack}
          onChange={(backgroundColor) => set({ backgroundColor })}
        />
      )}
      <ColourInput
        path={p('borderColour')}
        label="Border colour"
        value={s.borderColor}
        placeholder={WIDGET_DEFAULT_COLOURS.border}
        onChange={(borderColor) => set({ borderColor })}
      />
      <div className="wc-checks wc-field--wide">
        <CheckInput
          path={p('shadow')}
          label="Shadow"
          checked={Boolean(s.shadow)}
          onChange={(shadow) => set({ shadow })}
        />
        <CheckInput
          path={p('hide')}
          label="Hidden"
          checked={s.displayType === 'hide'}
          onChange={(hide) => set({ displayType: hide ? 'hide' : undefined })}
        />
      </div>
      <div className="wc-panel__actions wc-field--wide">
        <Button
          type="button"
          label={`Remove ${WIDGET_ITEM_NAMES[element.active].toLowerCase()}`}
          icon="pi pi-trash"
          severity="danger"
          text
          size="small"
          onClick={onRemove}
        />
      </div>
    </div>
  );
}

export function TextPanel({
  component,
  keys,
  configPaths,
  onChange,
  onRemove,
}: {
  component: WidgetComponent;
  keys: readonly KnownKey[];
  /** The config paths {cfg.PATH} may name (core configPaths). */
  configPaths: readonly string[];
  onChange: (component: WidgetComponent) => void;
  onRemove: () => void;
}) {
  const s = component.settings;
  const p = (name: string) => `${component.id}-${name}`;
  const set = (patch: Partial<TextSettings>) => onChange({ ...component, settings: { ...s, ...patch } });
  const area = useRef<HTMLTextAreaElement>(null);
  const ids = wcIds(p('template'));
  const hint = 'Write {data.KEY} for a reading and {cfg.PATH} for a config value, e.g. {cfg.device.name}.';

  /** Puts a reference where the cursor is (at the end when the field has not been used). */
  const insert = (ref: string) => {
    const element = area.current;
    const text = component.template;
    const start = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? text.length;
    const next = (text.slice(0, start) + ref + text.slice(end)).slice(0, WIDGET_TEMPLATE_MAX_CHARS);
    onChange({ ...component, template: next });
    window.requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + ref.length, start + ref.length);
    });
  };

  return (
    <div className="wc-fields">
      <div className="wc-field--wide">
        <FormField ids={ids} label="Text" hint={hint}>
          <textarea
            ref={area}
            id={ids.input}
            className="p-inputtext p-component wc-template"
            rows={3}
            maxLength={WIDGET_TEMPLATE_MAX_CHARS}
            value={component.template}
            aria-describedby={describedBy(ids, hint)}
            onChange={(e) => onChange({ ...component, template: e.target.value })}
          />
        </FormField>
      </div>
      <SelectInput
        path={p('insert-data')}
        label="Insert a reading"
        className="wc-field--wide"
        value=""
        options={[
          { value: '', label: 'Choose a key…' },
          ...keys.map((k) => ({ value: k.key, label: k.name === k.key ? k.key : `${k.name} (${k.key})` })),
        ]}
        onChange={(key) => {
          if (key) insert(`{data.${key}}`);
        }}
      />
      <SelectInput
        path={p('insert-cfg')}
        label="Insert a config value"
        className="wc-field--wide"
        value=""
        options={[
          { value: '', label: 'Choose a setting…' },
          ...configPaths.map((path) => ({ value: path, label: path })),
        ]}
        onChange={(path) => {
          if (path) insert(`{cfg.${path}}`);
        }}
      />
      <NumberInput
        path={p('fontSize')}
        label="Font size (px)"
        value={s.fontSize}
        min={6}
        max={200}
        onChange={(fontSize) => set({ fontSize: fontSize ?? 16 })}
      />
      <ColourInput
        path={p('colour')}
        label="Colour"
        value={s.colour}
        placeholder={WIDGET_DEFAULT_COLOURS.text}
        onChange={(colour) => set({ colour })}
      />
      <div className="wc-checks wc-field--wide">
        <CheckInput path={p('bold')} label="Bold" checked={Boolean(s.bold)} onChange={(bold) => set({ bold })} />
        <CheckInput
          path={p('underline')}
          label="Underline"
          checked={Boolean(s.underline)}
          onChange={(underline) => set({ underline })}
        />
        <CheckInput
          path={p('hide')}
          label="Hidden"
          checked={s.displayType === 'hide'}
          onChange={(hide) => set({ displayType: hide ? 'hide' : undefined })}
        />
      </div>
      <div className="wc-panel__actions wc-field--wide">
        <Button
          type="button"
          label="Remove text"
          icon="pi pi-trash"
          severity="danger"
          text
          size="small"
          onClick={onRemove}
        />
      </div>
    </div>
  );
}
