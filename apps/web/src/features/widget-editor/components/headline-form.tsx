/**
 * A headline tile's settings (spec 2 section 3 'headline tile'): key, dataType, operator (avg
 * unless another is chosen, CHT-02), unit, trendColor and dp (0 to 5; the contract clamps any
 * other whole number into that range when it saves, CHT-03).
 */
import { useState } from 'react';
import {
  DEFAULT_HEADLINE_OPERATOR,
  HEADLINE_DECIMAL_PLACES_MAX,
  HEADLINE_OPERATORS,
  HEADLINE_OPERATOR_LABELS,
  type HeadlineSettings,
} from '@portal/core';
import type { FieldErrors } from '../utils/field-errors';
import { ColourField, KeyField, NumberField, SelectField, TextField } from '@/components/form/fields';
import { trendInk } from '@/components/form/theme-colours';
import { COLUMN_DATA_TYPES, dropUndefined } from './table-form';

export interface HeadlineFormProps {
  settings: HeadlineSettings;
  onChange: (settings: HeadlineSettings) => void;
  errors: FieldErrors;
  knownKeys: readonly string[];
}

export function HeadlineForm({ settings, onChange, errors, knownKeys }: HeadlineFormProps) {
  const set = (patch: Partial<HeadlineSettings>) => onChange(dropUndefined({ ...settings, ...patch }));
  const [arrowInk] = useState(trendInk);
  return (
    <div className="we-form">
      <fieldset className="we-section">
        <legend>Headline</legend>
        <div className="we-grid">
          <KeyField
            path="key"
            label="Key"
            value={settings.key}
            keys={knownKeys}
            error={errors.key}
            onChange={(v) => set({ key: v })}
          />
          <SelectField
            path="operator"
            label="Operator"
            value={settings.operator}
            options={HEADLINE_OPERATORS.map((op) => ({ label: HEADLINE_OPERATOR_LABELS[op], value: op }))}
            error={errors.operator}
            onChange={(v) => set({ operator: v ?? DEFAULT_HEADLINE_OPERATOR })}
          />
          <SelectField
            path="dataType"
            label="Data type"
            value={settings.dataType}
            options={COLUMN_DATA_TYPES.map((t) => ({ label: t, value: t }))}
            placeholder="number"
            error={errors.dataType}
            onChange={(v) => set({ dataType: v })}
          />
          <TextField
            path="unit"
            label="Unit"
            value={settings.unit}
            maxLength={15}
            hint="Blank: the key's usual unit"
            error={errors.unit}
            onChange={(v) => set({ unit: v })}
          />
          <NumberField
            path="dp"
            label="Decimal places"
            hint={`0 to ${HEADLINE_DECIMAL_PLACES_MAX}; other whole numbers are clamped into that range`}
            value={settings.dp}
            error={errors.dp}
            onChange={(v) => set({ dp: v ?? undefined })}
          />
          <ColourField
            path="trendColor"
            label="Trend colour"
            value={settings.trendColor}
            automatic={arrowInk}
            error={errors.trendColor}
            onChange={(v) => set({ trendColor: v })}
          />
        </div>
      </fieldset>
    </div>
  );
}
