/**
 * The table widget's settings (spec 2 section 3 'table settings'): columns (a record key from the
 * group's known keys, dataType, name, unit and whether it sits in the header, dp, operator,
 * trendColor, thresholds with colours), the special columns on or off, the page size and the saved
 * filters. Columns move with buttons, so the keyboard reorders them too.
 */
import { Button } from 'primereact/button';
import {
  COLUMN_OPERATORS,
  FILTER_OPERATOR_LABELS,
  PAGE_SIZE_OPTIONS,
  SPECIAL_COLUMN_HEADERS,
  SPECIAL_COLUMN_KINDS,
  filterOperatorsFor,
  isSpecialColumn,
  isTextColumn,
  newTableColumn,
  type SpecialColumnKind,
  type TableColumn,
  type TableFilter,
  type TableSettings,
} from '@portal/core';
import type { FieldErrors } from '../utils/field-errors';
import { useItemIds } from '../hooks/use-item-ids';
import { CheckField, ColourField, KeyField, NumberField, SelectField, TextField } from '@/components/form/fields';
import { ItemButtons, moved } from './fields';

/** The data types a metric column may name (special columns are 'special'). */
export const COLUMN_DATA_TYPES = ['number', 'text', 'boolean'] as const;
/** Most thresholds one column carries (the contract's limit). */
const THRESHOLDS_MAX = 10;

const OPERATOR_LABELS: Record<(typeof COLUMN_OPERATORS)[number], string> = {
  avg: 'Average',
  sum: 'Sum',
  max: 'Maximum',
  min: 'Minimum',
  latest: 'Latest',
};

export interface TableFormProps {
  settings: TableSettings;
  onChange: (settings: TableSettings) => void;
  errors: FieldErrors;
  knownKeys: readonly string[];
}

const option = <T extends string>(value: T) => ({ label: value, value });

export function TableForm({ settings, onChange, errors, knownKeys }: TableFormProps) {
  const columnIds = useItemIds(settings.columns.length);
  const filterIds = useItemIds(settings.filters?.length ?? 0);
  const columns = settings.columns;
  const filters = settings.filters ?? [];
  const keyOptions = knownKeys.filter((k) => !isSpecialColumn(k));

  const setColumns = (next: TableColumn[]) => onChange({ ...settings, columns: next });
  const setColumn = (index: number, patch: Partial<TableColumn>) =>
    setColumns(columns.map((c, i) => (i === index ? dropUndefined({ ...c, ...patch }) : c)));
  const removeColumn = (index: number) => {
    columnIds.removed(index);
    setColumns(columns.filter((_, i) => i !== index));
  };
  const moveColumn = (from: number, to: number) => {
    columnIds.moved(from, to);
    setColumns(moved(columns, from, to));
  };
  const addColumn = (column: TableColumn) => {
    columnIds.added();
    setColumns([...columns, column]);
  };
  const toggleSpecial = (kind: SpecialColumnKind, on: boolean) => {
    if (on) addColumn({ key: kind, dataType: 'special', name: SPECIAL_COLUMN_HEADERS[kind] });
    else {
      const index = columns.findIndex((c) => c.key === kind);
      if (index >= 0) removeColumn(index);
    }
  };

  const setFilters = (next: TableFilter[]) => {
    const { filters: _old, ...rest } = settings;
    onChange(next.length === 0 ? rest : { ...rest, filters: next });
  };
  const setFilter = (index: number, patch: Partial<TableFilter>) =>
    setFilters(filters.map((f, i) => (i === index ? dropUndefined({ ...f, ...patch }) : f)));

  return (
    <div className="we-form">
      <fieldset className="we-section">
        <legend>Special columns</legend>
        <div className="we-checks">
          {SPECIAL_COLUMN_KINDS.map((kind) => (
            <CheckField
              key={kind}
              path={`special.${kind}`}
              label={SPECIAL_COLUMN_HEADERS[kind]}
              checked={columns.some((c) => c.key === kind)}
              onChange={(on) => toggleSpecial(kind, on)}
            />
          ))}
        </div>
      </fieldset>

      <fieldset className="we-section">
        <legend>Columns</legend>
        {errors.columns ? (
          <p className="we-error" role="alert">
            {errors.columns}
          </p>
        ) : null}
        <ol className="we-list">
          {columns.map((column, index) => {
            const id = columnIds.ids[index] ?? index;
            const p = `columns.${index}`;
            const name = `column ${index + 1} (${column.name || column.key || 'new'})`;
            const special = isSpecialColumn(column.key) && column.dataType === 'special';
            return (
              <li key={id} className="we-item" aria-label={`Column ${index + 1}`}>
                <div className="we-item__head">
                  <h3 className="we-item__title">
                    {index + 1}. {column.name || column.key || 'New column'}
                    {special ? <span className="we-tag">special</span> : null}
                  </h3>
                  <ItemButtons
                    name={name}
                    index={index}
                    count={columns.length}
                    onMove={moveColumn}
                    onRemove={() => removeColumn(index)}
                  />
                </div>
                <div className="we-grid">
                  {special ? (
                    <TextField
                      path={`${p}.name`}
                      label="Header"
                      value={column.name}
                      maxLength={64}
                      error={errors[`${p}.name`]}
                      onChange={(v) => setColumn(index, { name: v ?? '' })}
                    />
                  ) : (
                    <>
                      <KeyField
                        path={`${p}.key`}
                        label="Key"
                        value={column.key}
                        keys={keyOptions}
                        error={errors[`${p}.key`]}
                        onChange={(v) => setColumn(index, { key: v })}
                      />
                      <TextField
                        path={`${p}.name`}
                        label="Name"
                        value={column.name}
                        maxLength={64}
                        error={errors[`${p}.name`]}
                        onChange={(v) => setColumn(index, { name: v ?? '' })}
                      />
                      <SelectField
                        path={`${p}.dataType`}
                        label="Data type"
                        value={column.dataType || undefined}
                        options={COLUMN_DATA_TYPES.map(option)}
                        error={errors[`${p}.dataType`]}
                        onChange={(v) => setColumn(index, { dataType: v ?? 'number' })}
                      />
                      <SelectField
                        path={`${p}.operator`}
                        label="Operator"
                        value={column.operator}
                        options={COLUMN_OPERATORS.map((op) => ({ label: OPERATOR_LABELS[op], value: op }))}
                        placeholder="Latest"
                        hint="Saved with the column; cells show each device's latest value"
                        error={errors[`${p}.operator`]}
                        onChange={(v) => setColumn(index, { operator: v })}
                      />
                      <TextField
                        path={`${p}.unit`}
                        label="Unit"
                        value={column.unit}
                        maxLength={15}
                        error={errors[`${p}.unit`]}
                        onChange={(v) => setColumn(index, { unit: v })}
                      />
                      <NumberField
                        path={`${p}.dp`}
                        label="Decimal places"
                        hint="0 to 10; blank shows the value as recorded"
                        value={column.dp}
                        error={errors[`${p}.dp`]}
                        onChange={(v) => setColumn(index, { dp: v ?? undefined })}
                      />
                      <ColourField
                        path={`${p}.trendColor`}
                        label="Trend colour"
                        value={column.trendColor}
                        error={errors[`${p}.trendColor`]}
                        onChange={(v) => setColumn(index, { trendColor: v })}
                      />
                      <div className="we-grid__cell--check">
                        <CheckField
                          path={`${p}.unitInHeader`}
                          label="Unit in header"
                          checked={column.unitInHeader ?? false}
                          onChange={(on) => setColumn(index, { unitInHeader: on || undefined })}
                        />
                      </div>
                    </>
                  )}
                </div>
                {special ? null : (
                  <Thresholds
                    path={`${p}.thresholds`}
                    columnName={name}
                    thresholds={column.thresholds ?? []}
                    errors={errors}
                    onChange={(next) => setColumn(index, { thresholds: next.length === 0 ? undefined : next })}
                  />
                )}
              </li>
            );
          })}
        </ol>
        <Button
          type="button"
          label="Add column"
          icon="pi pi-plus"
          outlined
          size="small"
          onClick={() => addColumn(newTableColumn())}
        />
      </fieldset>

      <fieldset className="we-section">
        <legend>Rows and filters</legend>
        <div className="we-grid">
          <SelectField
            path="pageSize"
            label="Rows per page"
            value={settings.pageSize === undefined ? undefined : String(settings.pageSize)}
            options={PAGE_SIZE_OPTIONS.map((n) => option(String(n)))}
            placeholder="10"
            error={errors.pageSize}
            onChange={(v) =>
              onChange(dropUndefined({ ...settings, pageSize: v === undefined ? undefined : (Number(v) as 10) }))
            }
          />
        </div>
        <ol className="we-list">
          {filters.map((filter, index) => {
            const p = `filters.${index}`;
            const id = filterIds.ids[index] ?? index;
            const operators = filterOperatorsFor(filter.key);
            const text = isTextColumn(filter.key);
            return (
              <li key={id} className="we-item" aria-label={`Filter ${index + 1}`}>
                <div className="we-item__head">
                  <h3 className="we-item__title">Filter {index + 1}</h3>
                  <ItemButtons
                    name={`filter ${index + 1}`}
                    index={index}
                    count={filters.length}
                    onMove={(from, to) => {
                      filterIds.moved(from, to);
                      setFilters(moved(filters, from, to));
                    }}
                    onRemove={() => {
                      filterIds.removed(index);
                      setFilters(filters.filter((_, i) => i !== index));
                    }}
                  />
                </div>
                <div className="we-grid">
                  <SelectField
                    path={`${p}.key`}
                    label="Column"
                    value={filter.key || undefined}
                    options={columns.filter((c) => c.key !== '').map((c) => ({ label: c.name || c.key, value: c.key }))}
                    error={errors[`${p}.key`]}
                    onChange={(v) => {
                      const key = v ?? '';
                      const ops = filterOperatorsFor(key);
                      setFilter(index, {
                        key,
                        operator: ops.includes(filter.operator) ? filter.operator : ops[0],
                        value: null,
                        value2: undefined,
                      });
                    }}
                  />
                  <SelectField
                    path={`${p}.operator`}
                    label="Operator"
                    value={filter.operator}
                    options={operators.map((op) => ({ label: FILTER_OPERATOR_LABELS[op], value: op }))}
                    error={errors[`${p}.operator`]}
                    onChange={(v) => v && setFilter(index, { operator: v })}
                  />
                  {text ? (
                    <TextField
                      path={`${p}.value`}
                      label="Value"
                      value={typeof filter.value === 'string' ? filter.value : undefined}
                      maxLength={200}
                      error={errors[`${p}.value`]}
                      onChange={(v) => setFilter(index, { value: v ?? null })}
                    />
                  ) : (
                    <NumberField
                      path={`${p}.value`}
                      label={filter.operator === 'between' ? 'From' : 'Value'}
                      blankAs={null}
                      value={typeof filter.value === 'number' ? filter.value : null}
                      error={errors[`${p}.value`]}
                      onChange={(v) => setFilter(index, { value: v ?? null })}
                    />
                  )}
                  {filter.operator === 'between' ? (
                    <NumberField
                      path={`${p}.value2`}
                      label="To"
                      blankAs={null}
                      value={filter.value2 ?? null}
                      error={errors[`${p}.value2`]}
                      onChange={(v) => setFilter(index, { value2: v ?? null })}
                    />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
        <Button
          type="button"
          label="Add filter"
          icon="pi pi-filter"
          outlined
          size="small"
          disabled={columns.length === 0}
          onClick={() => {
            const key = columns[0]?.key ?? '';
            filterIds.added();
            setFilters([...filters, { key, operator: filterOperatorsFor(key)[0] ?? 'equals', value: null }]);
          }}
        />
      </fieldset>
    </div>
  );
}

function Thresholds({
  path,
  columnName,
  thresholds,
  errors,
  onChange,
}: {
  path: string;
  columnName: string;
  thresholds: readonly { value: number; colour: string }[];
  errors: FieldErrors;
  onChange: (next: { value: number; colour: string }[]) => void;
}) {
  const ids = useItemIds(thresholds.length);
  return (
    <div className="we-thresholds">
      <h4 className="we-subtitle">Thresholds</h4>
      <p className="we-hint">A value takes the colour of the highest threshold it reaches (value ≥ threshold).</p>
      {thresholds.map((t, index) => {
        const p = `${path}.${index}`;
        return (
          <div key={ids.ids[index] ?? index} className="we-threshold">
            <NumberField
              path={`${p}.value`}
              label={`Threshold ${index + 1} value`}
              value={t.value}
              error={errors[`${p}.value`]}
              onChange={(v) => onChange(thresholds.map((x, i) => (i === index ? { ...x, value: v ?? Number.NaN } : x)))}
            />
            <ColourField
              path={`${p}.colour`}
              label={`Threshold ${index + 1} colour`}
              value={t.colour}
              error={errors[`${p}.colour`]}
              onChange={(v) => onChange(thresholds.map((x, i) => (i === index ? { ...x, colour: v ?? '' } : x)))}
            />
            <Button
              type="button"
              icon="pi pi-trash"
              text
              severity="danger"
              size="small"
              aria-label={`Remove threshold ${index + 1} of ${columnName}`}
              onClick={() => {
                ids.removed(index);
                onChange(thresholds.filter((_, i) => i !== index));
              }}
            />
          </div>
        );
      })}
      <Button
        type="button"
        label="Add threshold"
        icon="pi pi-plus"
        text
        size="small"
        disabled={thresholds.length >= THRESHOLDS_MAX}
        aria-label={`Add threshold to ${columnName}`}
        onClick={() => {
          ids.added();
          onChange([...thresholds, { value: Number.NaN, colour: '#d92d20' }]);
        }}
      />
    </div>
  );
}

/** The object without its undefined fields (strict contracts take an absent field, not undefined). */
export function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
