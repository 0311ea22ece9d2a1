export * from './domain/brands';
export * from './domain/brand-hosts';
export * from './domain/validation';
export * from './domain/recovery-codes';
export * from './domain/text';
export * from './domain/colour';
export * from './domain/country-codes';
export * from './domain/ids';
export * from './domain/roles';
export * from './domain/severity';
export * from './domain/plans';
export * from './domain/lists';
export * from './domain/messages';
export * from './domain/screen-messages';
export * from './domain/session';
export * from './domain/constants';
export * from './domain/asset-types';
export * from './domain/device-access';
export * from './domain/device-users';
export * from './domain/device-commands';
export * from './domain/group-access';
export * from './domain/group-picker';
export * from './domain/device-snapshot';
export * from './domain/polling';
export * from './domain/device-status';
export * from './domain/device-intervals';
export * from './domain/time';
export * from './domain/map-tiles';
export * from './domain/map-markers';
export * from './domain/view-range';
export * from './contracts/errors';
export * from './contracts/fields';
export * from './contracts/brands';
export * from './contracts/auth';
export * from './contracts/system';
export * from './contracts/mqtt-auth';
export * from './domain/mqtt-topics';
export * from './contracts/device-record';
export * from './contracts/devices';
export * from './contracts/device-users';
export * from './contracts/device-authoring';
export * from './contracts/widget-images';
export * from './contracts/device-config';
export * from './contracts/device-data';
export * from './contracts/device-calls';
export * from './domain/text-codecs';
export * from './domain/device-config-fields';
export * from './contracts/firmware';
export * from './contracts/groups';
export * from './contracts/group-data';
export * from './contracts/views';
export * from './domain/widget-kinds';
export * from './domain/default-view';
export * from './contracts/metrics';
export * from './domain/measurements';
export {
  DIGITAL_DEFAULTS,
  GAUGE_FIELDS,
  SECTION_NAME_MAX_LENGTH,
  allowedDisplayType,
  catalogueGauge,
  keyDisplayName,
  orderedKeys,
  resolveDisplay,
  sectionNameOf,
  type DigitalDisplay,
  type GaugeField,
  type GaugeLimits,
  type ResolvedDisplay,
  type ResolvedDisplayType,
} from './domain/display-resolve';
export * from './domain/display-format';
export * from './domain/display-dialog';
export * from './domain/card-sections';
export * from './domain/timeline';
export * from './domain/table';
export * from './domain/headline';
export * from './domain/chart';
export * from './domain/device-chart';
export * from './domain/table-export';
export * from './domain/view-transfer';
export * from './domain/view-edit';
export * from './domain/widget-editor';
export * from './domain/widget-card';
export * from './domain/widget-values';
export * from './domain/j1939';
export * from './domain/config-import';
export * from './domain/alerts';
export * from './contracts/alerts';
export * from './domain/raw-data';
export * from './domain/script';
export * from './domain/support';
export * from './contracts/support';
export * from './domain/provisioning';
export * from './contracts/provisioning';
export * from './domain/custom-pages';
export * from './domain/staff';
export * from './contracts/staff';
export * from './contracts/user-brand-image';
export * from './domain/billing';
export * from './contracts/billing';
export * from './domain/api-credentials';
export * from './contracts/api-credentials';
