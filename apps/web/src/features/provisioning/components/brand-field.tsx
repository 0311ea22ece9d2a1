/** The Brand field of the provisioning forms: which brand's site a device's label opens. */
import { BRANDS, BRAND_IDS, type BrandId } from '@portal/core';
import { FormField, describedBy, type FieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';

/** The brands a device can be for, for the brand dropdowns (its label's QR code opens that brand's host). */
const BRAND_OPTIONS = BRAND_IDS.map((id) => ({ label: BRANDS[id].name, value: id }));

/** The Brand field of the provisioning forms: which brand's site the device's label opens. */
export function BrandField({
  ids,
  value,
  onChange,
  hint,
  error,
  disabled,
}: {
  ids: FieldIds;
  value: BrandId;
  onChange: (brand: BrandId) => void;
  hint?: string;
  error?: string | undefined;
  disabled?: boolean;
}) {
  return (
    <FormField ids={ids} label="Brand" hint={hint} error={error}>
      <LabelledDropdown
        inputId={ids.input}
        label="Brand"
        value={value}
        options={BRAND_OPTIONS}
        onChange={(e) => onChange(e.value as BrandId)}
        aria-describedby={describedBy(ids, hint, error)}
        disabled={disabled}
      />
    </FormField>
  );
}
